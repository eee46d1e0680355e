// Spider Monkey: every player's line of face-down cards (slot ids on their backs), the stock
// and the discard pile in the middle. Cards you look at are shown face up for a few seconds,
// then it is your memory's turn. Slaps are a click on your own slot while the window is open.
import { h } from '../dom.js';
import { frenchCard, frenchWords, cardBack } from '../cards.js';
import { counter, pileOf } from './common.js';

const FLASH_MS = 5000;

function flashed(ctx, seat, slot) {
  const now = Date.now();
  const f = (ctx.memory.flash || []).find((x) => x.seat === seat && x.slot === slot && x.until > now);
  return f ? f.card : null;
}

function line(ctx, seat) {
  const v = ctx.view;
  const ids = v.lines?.[seat] || [];
  const revealed = v.revealed?.[seat];
  const row = h('div.sm-line', { role: 'group', 'aria-label': `${ctx.name(seat)}'s cards` });
  ids.forEach((id, k) => {
    const known = revealed?.[k] || flashed(ctx, seat, id);
    const key = `sm-${seat}-${id}`;
    const el = known
      ? frenchCard(known, { tag: 'button', attrs: { 'aria-label': `slot ${id}: ${frenchWords(known)}`, dataset: { key } } })
      : cardBack({ tag: 'button', label: `${seat === ctx.me ? 'your' : ctx.name(seat) + "'s"} slot ${id}`, caption: id, attrs: { dataset: { key } } });
    if (known && !revealed) el.classList.add('peeking');
    const pred = seat === ctx.me
      ? (a) => (a.slot === id && (a.seat === undefined || a.seat === seat)) || (a.move === 'peek' && a.slots.includes(id))
      : (a) => a.seat === seat && a.slot === id;
    ctx.bind(el, pred, `Slot ${id}`);
    row.append(el);
  });
  return row;
}

export default {
  // Private events name cards once; the table keeps them face up for a moment.
  remember(e, memory, state) {
    const until = Date.now() + FLASH_MS;
    memory.flash = (memory.flash || []).filter((x) => x.until > Date.now());
    if (e.type === 'peek' && Array.isArray(e.cards)) {
      e.slots.forEach((slot, i) => memory.flash.push({ seat: state.seat, slot, card: e.cards[i], until }));
      return FLASH_MS;
    }
    if (e.type === 'queen-look' && e.card) {
      memory.flash.push({ seat: e.target, slot: e.slot, card: e.card, until });
      return FLASH_MS;
    }
    return 0;
  },

  seatInfo(ctx, seat) {
    const v = ctx.view;
    return h('div.seat-info', null,
      h('div.seat-stats', null,
        v.dealer === seat ? h('span.badge', null, 'dealer') : null,
        v.caller === seat ? h('span.badge.turn', null, 'called') : null,
        v.totals ? counter('total', v.totals[seat]) : null,
        (v.slapDone || []).includes(seat) ? h('span.badge', null, 'done slapping') : null,
        v.lastRound ? counter('last round', v.lastRound.scores?.[seat] ?? '') : null),
      line(ctx, seat));
  },

  center(ctx) {
    const v = ctx.view;
    const stock = cardBack({ tag: 'button', label: `stock: ${v.stock} cards`, caption: v.stock, attrs: { dataset: { key: 'stock' } } });
    stock.classList.add('deck');
    ctx.bind(stock, (a) => a.move === 'draw', 'Draw');
    const discard = v.discard || [];
    const top = discard.length ? discard[discard.length - 1] : null;
    const discardEl = top
      ? frenchCard(top, { tag: 'button', attrs: { 'aria-label': `discard pile, top ${frenchWords(top)}`, dataset: { key: 'discard' } } })
      : h('button.card.slot-empty', { type: 'button', 'aria-label': 'discard pile: empty', dataset: { key: 'discard' } });
    ctx.bind(discardEl, (a) => a.move === 'take-discard' || a.move === 'discard-drawn', 'Discard pile');
    const piles = h('div.piles', null, pileOf('stock', stock), pileOf(`discard (${discard.length})`, discardEl));
    if (v.drawn) piles.append(pileOf('you drew', frenchCard(v.drawn)));
    let rule = '';
    if (v.phase === 'peek') rule = 'Everyone looks at two of their own cards.';
    else if (v.phase === 'slap-window') rule = `Slap a card of rank ${(v.slapRanks || []).join(' or ')} from your line onto the pile!`;
    else if (v.phase === 'power') rule = v.power === 'jack' ? 'Jack: swap two cards between lines.' : 'Queen: look at any one card.';
    else if (v.caller !== null && v.caller !== undefined) rule = `${ctx.name(v.caller)} called: ${v.finalTurnsLeft} turns left.`;
    return h('div.sm-center', null,
      h('div.felt-info', null, counter('round', v.round), counter('turns', v.turns)),
      piles,
      v.phase === 'slap-window' ? h('div.slap-banner', null, 'SLAP!') : null,
      rule ? h('p.rule', null, rule) : null);
  },

  hand() {
    return null;  // your cards are your line, drawn in your seat
  },
};

