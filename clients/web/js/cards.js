// Card faces drawn by the client: the standard deck with jokers, Pinocchio's clothes, noses,
// burnmarks. Every card is an element with an aria-label naming it in words.
import { h, svg } from './dom.js';

const SUITS = {
  C: { name: 'Clubs', sign: '\u2663', red: false },
  D: { name: 'Diamonds', sign: '\u2666', red: true },
  H: { name: 'Hearts', sign: '\u2665', red: true },
  S: { name: 'Spades', sign: '\u2660', red: false },
};
const RANKS = {
  2: ['2', 'Two'], 3: ['3', 'Three'], 4: ['4', 'Four'], 5: ['5', 'Five'], 6: ['6', 'Six'],
  7: ['7', 'Seven'], 8: ['8', 'Eight'], 9: ['9', 'Nine'], T: ['10', 'Ten'], J: ['J', 'Jack'],
  Q: ['Q', 'Queen'], K: ['K', 'King'], A: ['A', 'Ace'],
};

export function isJoker(code) {
  return code === 'X1' || code === 'X2';
}

export function frenchWords(code) {
  if (isJoker(code)) return 'Joker';
  const r = RANKS[code?.[0]];
  const s = SUITS[code?.[1]];
  return r && s ? `${r[1]} of ${s.name}` : String(code);
}

export function frenchShort(code) {
  if (isJoker(code)) return 'Joker';
  const r = RANKS[code?.[0]];
  const s = SUITS[code?.[1]];
  return r && s ? r[0] + s.sign : String(code);
}

const STAR = '<svg viewBox="0 0 24 24"><path d="M12 2l2.9 6.6 7.1.6-5.4 4.7 1.6 7-6.2-3.7-6.2 3.7 1.6-7L2 9.2l7.1-.6z" fill="currentColor"/></svg>';
const CROWN = '<svg viewBox="0 0 24 24"><path d="M3 18h18l-1-10-5 4-3-7-3 7-5-4z" fill="currentColor"/></svg>';

// Pip layouts for number cards: [column, row] on a 3 x 7 grid.
const PIPS = {
  2: [[2, 1], [2, 7]],
  3: [[2, 1], [2, 4], [2, 7]],
  4: [[1, 1], [3, 1], [1, 7], [3, 7]],
  5: [[1, 1], [3, 1], [2, 4], [1, 7], [3, 7]],
  6: [[1, 1], [3, 1], [1, 4], [3, 4], [1, 7], [3, 7]],
  7: [[1, 1], [3, 1], [2, 2], [1, 4], [3, 4], [1, 7], [3, 7]],
  8: [[1, 1], [3, 1], [2, 2], [1, 4], [3, 4], [2, 6], [1, 7], [3, 7]],
  9: [[1, 1], [3, 1], [1, 3], [3, 3], [2, 4], [1, 5], [3, 5], [1, 7], [3, 7]],
  T: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3], [1, 5], [3, 5], [2, 6], [1, 7], [3, 7]],
};

function cardShell(tag, cls, label, attrs) {
  const el = h(`${tag}.card.${cls}`, { 'aria-label': label, ...attrs });
  if (tag === 'button') el.type = 'button';
  return el;
}

// A face-up French card. opts: {tag: 'div'|'button', small, extra attributes}
export function frenchCard(code, opts = {}) {
  const tag = opts.tag || 'div';
  const attrs = { ...(opts.attrs || {}) };
  if (isJoker(code)) {
    const el = cardShell(tag, `french joker${code === 'X2' ? ' joker-red' : ''}`, 'Joker', attrs);
    el.append(
      h('span.corner.tl', null, h('span.rank', null, 'J'), svg(STAR, 'suit')),
      h('span.face', null, svg(STAR, 'joker-star'), h('span.joker-word', null, 'JOKER')),
      h('span.corner.br', null, h('span.rank', null, 'J'), svg(STAR, 'suit')),
    );
    return el;
  }
  const rank = code[0];
  const suit = SUITS[code[1]] || { sign: '?', red: false };
  const [short] = RANKS[rank] || [rank];
  const el = cardShell(tag, `french ${suit.red ? 'red' : 'black'}`, frenchWords(code), attrs);
  const corner = (pos) => h(`span.corner.${pos}`, null, h('span.rank', null, short), h('span.suit', null, suit.sign));
  let face;
  if (PIPS[rank]) {
    face = h('span.face.pips');
    for (const [c, r] of PIPS[rank]) {
      face.append(h('span.pip', { style: { gridColumn: String(c), gridRow: String(r) }, class: r > 4 ? 'flip' : '' }, suit.sign));
    }
  } else if (rank === 'A') {
    face = h('span.face.ace', null, h('span.big-pip', null, suit.sign));
  } else {
    face = h('span.face.court', null, svg(CROWN, 'crown'), h('span.court-letter', null, short), h('span.court-suit', null, suit.sign));
  }
  el.append(corner('tl'), face, corner('br'));
  return el;
}

export function cardBack(opts = {}) {
  const tag = opts.tag || 'div';
  const el = cardShell(tag, `back${opts.theme ? ' ' + opts.theme : ''}`, opts.label || 'a face-down card', opts.attrs || {});
  el.append(h('span.back-pattern'));
  if (opts.caption !== undefined) el.append(h('span.back-caption', null, String(opts.caption)));
  return el;
}

// A row of face-down cards standing for a count (capped so it stays small).
export function backFan(count, label, theme) {
  const fan = h('div.fan', { role: 'img', 'aria-label': label || `${count} cards` });
  const shown = Math.min(count, 7);
  for (let i = 0; i < shown; i++) fan.append(h(`span.mini-back${theme ? '.' + theme : ''}`));
  fan.append(h('span.fan-count', { 'aria-hidden': 'true' }, String(count)));
  return fan;
}

// ---------- Pinocchio ----------

const CLOTHES = {
  hat: ['Hat', '<svg viewBox="0 0 48 48"><rect x="15" y="8" width="18" height="22" rx="2"/><rect x="15" y="24" width="18" height="4" class="band"/><rect x="6" y="30" width="36" height="5" rx="2.5"/></svg>'],
  'bow-tie': ['Bow Tie', '<svg viewBox="0 0 48 48"><path d="M4 12l17 9v6L4 36z"/><path d="M44 12L27 21v6l17 9z"/><rect x="20" y="18" width="8" height="12" rx="3" class="band"/></svg>'],
  shirt: ['Shirt', '<svg viewBox="0 0 48 48"><path d="M17 6l-13 7 4 10 6-3v22h20V20l6 3 4-10-13-7c-1 4-4 6-7 6s-6-2-7-6z"/><path d="M24 13v27" class="line"/></svg>'],
  trousers: ['Trousers', '<svg viewBox="0 0 48 48"><path d="M12 5h24l3 39h-10l-5-25-5 25H9z"/><rect x="12" y="5" width="24" height="5" class="band"/></svg>'],
  shoes: ['Shoes', '<svg viewBox="0 0 48 48"><path d="M4 30c0-6 2-12 4-14h8c0 4 4 6 8 6 6 0 14 2 17 6 2 3 2 6 0 8H6c-1 0-2-2-2-6z"/><rect x="4" y="35" width="39" height="4" rx="2" class="band"/></svg>'],
};
const COLOURS = { red: 'Red', yellow: 'Yellow', blue: 'Blue' };
export const PINOCCHIO_COLOURS = Object.keys(COLOURS);
export const PINOCCHIO_CLOTHES = Object.keys(CLOTHES);

export function splitPinocchio(code) {
  const i = code.indexOf('-');
  return [code.slice(0, i), code.slice(i + 1)];
}

export function pinocchioWords(code) {
  const [c, k] = splitPinocchio(code);
  return `${COLOURS[c] || c} ${CLOTHES[k]?.[0] || k}`;
}

export function clothingIcon(kind) {
  return svg(CLOTHES[kind]?.[1] || '', 'clothing');
}

export function pinocchioCard(code, opts = {}) {
  const [colour, kind] = splitPinocchio(code);
  const tag = opts.tag || 'div';
  const el = cardShell(tag, `pino pino-${colour}`, opts.label || pinocchioWords(code), opts.attrs || {});
  el.append(clothingIcon(kind), h('span.pino-word', { 'aria-hidden': 'true' }, pinocchioWords(code)));
  return el;
}

export function noseSvg(length) {
  const n = Math.max(0, Math.min(length, 12));
  const w = 26 + n * 10;
  return svg(
    `<svg viewBox="0 0 ${w} 24" width="${w}" height="24"><circle cx="11" cy="12" r="10" class="face"/>` +
      `<circle cx="8" cy="9" r="1.6" class="eye"/>` +
      (n > 0 ? `<path d="M18 10h${w - 22}l4 2-4 2H18z" class="nose"/>` : '<circle cx="19" cy="12" r="2.5" class="nose"/>') +
      '</svg>',
    'nose',
    n === 0 ? 'no nose growth' : `nose ${n} long`,
  );
}

// ---------- Naked Gibbon ----------

export function burnmark(label) {
  return svg(
    '<svg viewBox="0 0 24 24"><path d="M12 2c1 4 6 6 6 12a6 6 0 0 1-12 0c0-3 2-5 3-6 0 2 1 3 2 3-1-4 0-7 1-9z"/></svg>',
    'burnmark',
    label || 'burnmark',
  );
}
