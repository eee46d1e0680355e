// Pieces several tables share: a hand of French cards, a labelled pile, counters, and the
// words for a choice of moves.
import { h } from '../dom.js';
import { frenchCard, frenchWords, cardBack } from '../cards.js';
import { names } from '../words.js';

// Your hand: each card a button that plays the legal actions naming it. Cards carry their code
// as a token, so a card you play flies from here to wherever it lands.
export function frenchHand(ctx, cards, { label = 'Your hand', pred, title } = {}) {
  const list = cards || [];
  // On a phone a long hand goes into rows (at most six cards a row, at most three rows) instead
  // of overlapping, so every card's corner stays readable and every card can be tapped.
  const rows = Math.min(3, Math.ceil(list.length / 6));
  const perRow = Math.max(1, Math.ceil(list.length / Math.max(rows, 1)));
  const row = h(`div.hand${list.length > 6 ? '.many' : ''}`, {
    role: 'group', 'aria-label': label, style: { '--n': String(Math.max(list.length, 2)), '--per-row': String(perRow) },
  });
  list.forEach((code, i) => {
    const btn = frenchCard(code, { tag: 'button', attrs: { dataset: { key: `hand-${code}-${i}`, token: code } } });
    ctx.bind(btn, pred ? pred(code) : (a) => a.card === code, title ? title(code) : `Play the ${frenchWords(code)}`);
    row.append(btn);
  });
  if (list.length === 0) row.append(h('span.empty-hand', null, 'no cards in hand'));
  return row;
}

export function pileOf(label, content, extraClass) {
  return h(`div.pile${extraClass ? '.' + extraClass : ''}`, null, h('div.pile-label', null, label), content);
}

export function faceDownPile(count, label, theme) {
  return count > 0
    ? cardBack({ label: `${label}: ${count} cards`, caption: count, theme })
    : h('div.card.slot-empty', { 'aria-label': `${label}: empty` });
}

export function counter(label, value) {
  return h('span.counter', null, h('span.counter-label', null, label), h('b', null, String(value)));
}

// The phrases of the moves on offer, in order, joined: "draw a card, or pass".
export function choices(phrases) {
  const list = phrases.filter(Boolean);
  return `${names(list, 'or')}.`;
}

// Which kinds of move (the `move` field) are on offer.
export function moveKinds(ctx) {
  const kinds = new Set();
  for (const a of ctx.state.legal || []) kinds.add(a.move);
  return kinds;
}
