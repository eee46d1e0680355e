// Spider Monkey: every player's line of face-down cards, the stock and the discard pile in the
// middle. Slots are numbered from 1 and keep their number for the whole round; a slot whose card
// was slapped away stays as a gap in the line, as it would on a real table. Nobody's cards are
// ever shown face up before the reveal: a card you look at (the peek, a Queen, the card you
// place) is turned up for a moment, and then it is your memory's turn. A slot whose card
// changes hands is turned down at once. Slaps are a click on your own slot while the window is
// open.
import { h } from '../dom.js';
import { frenchCard, frenchWords, frenchShort, cardBack } from '../cards.js';
import { counter, pileOf, choices } from './common.js';
import { names } from '../words.js';

// How long a looked-at card stays face up, in milliseconds.
export const LOOK_MS = 3000;
const LINE_START = 4;

function flashed(ctx, seat, slot) {
  const now = Date.now();
  const f = (ctx.memory.flash || []).find((x) => x.seat === seat && x.slot === slot && x.until > now);
  return f ? f.card : null;
}

// Turns a slot down: every card seen there, or only `card` when it is the one that left.
function forget(memory, seat, slot, card) {
  memory.flash = (memory.flash || []).filter((x) => !(x.seat === seat && x.slot === slot && (card === undefined || x.card === card)));
}

function slotName(ctx, seat, id) {
  return `${seat === ctx.me ? 'your' : `${ctx.name(seat)}'s`} slot ${id + 1}`;
}

function line(ctx, seat) {
  const v = ctx.view;
  const ids = v.lines?.[seat] || [];
  const revealed = v.revealed?.[seat];
  const row = h('div.sm-line', { role: 'group', 'aria-label': `${ctx.name(seat)}'s cards` });
  // Every slot number the round has used, so a slapped card leaves its gap.
  const last = Math.max(LINE_START - 1, ...ids);
  const at = new Map(ids.map((id, k) => [id, k]));
  for (let id = 0; id <= last; id++) {
    if (!at.has(id)) {
      row.append(h('span.sm-gap', { role: 'img', 'aria-label': `${slotName(ctx, seat, id)}: no card`, title: `slot ${id + 1}: no card` }));
      continue;
    }
    const k = at.get(id);
    const known = revealed?.[k] || flashed(ctx, seat, id);
    const key = `sm-${seat}-${id}`;
    const el = known
      ? frenchCard(known, { tag: 'button', attrs: { 'aria-label': `${slotName(ctx, seat, id)}: ${frenchWords(known)}`, dataset: { key } } })
      : cardBack({ tag: 'button', label: slotName(ctx, seat, id), caption: id + 1, attrs: { dataset: { key } } });
    if (known && !revealed) el.classList.add('peeking');
    const pred = seat === ctx.me
      ? (a) => (a.slot === id && (a.seat === undefined || a.seat === seat)) || (a.move === 'peek' && a.slots.includes(id))
      : (a) => a.seat === seat && a.slot === id;
    ctx.bind(el, pred, `Slot ${id + 1}`);
    row.append(el);
  }
  return row;
}

export default {
  // Private events name cards once: the table turns them up for a moment. Any event that moves
  // a card out of a slot turns that slot down at once.
  remember(e, memory, state) {
    const now = Date.now();
    memory.flash = (memory.flash || []).filter((x) => x.until > now);
    const me = state?.seat;
    const look = (seat, slot, card) => {
      forget(memory, seat, slot);
      memory.flash.push({ seat, slot, card, until: now + LOOK_MS });
    };
    switch (e.type) {
      case 'peek':
        if (!Array.isArray(e.cards)) return 0;
        e.slots.forEach((slot, i) => look(me, slot, e.cards[i]));
        return LOOK_MS;
      case 'queen-look':
        if (!e.card) return 0;
        look(e.target, e.slot, e.card);
        return LOOK_MS;
      case 'placed':
        if (!e.card) return 0;
        look(me, e.slot, e.card);
        return LOOK_MS;
      case 'replace':
      case 'take-discard':
        // The card that left the slot; the one put there (told to its owner just before) stays.
        forget(memory, e.seat, e.slot, e.discarded);
        break;
      case 'slap':
        forget(memory, e.seat, e.slot);
        break;
      case 'jack':
        if (e.a) forget(memory, e.a.seat, e.a.slot);
        if (e.b) forget(memory, e.b.seat, e.b.slot);
        break;
      case 'deal':
      case 'reveal':
        memory.flash = [];
        break;
      default:
        break;
    }
    if (e.type === 'slap') memory.lastSlap = { seat: e.seat, slot: e.slot, card: e.card };
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
      ? frenchCard(top, { tag: 'button', attrs: { 'aria-label': `discard pile, top ${frenchWords(top)}`, dataset: { key: 'discard', token: top } } })
      : h('button.card.slot-empty', { type: 'button', 'aria-label': 'discard pile: empty', dataset: { key: 'discard' } });
    if (top) {
      // The card came from a slot: the slapper's, or the one the turn replaced.
      const slap = ctx.memory.lastSlap;
      const turn = v.lastTurn;
      if (slap && slap.card === top) discardEl.dataset.fromKey = `sm-${slap.seat}-${slap.slot}`;
      else if (turn && turn.discarded === top && turn.replaced !== null) discardEl.dataset.fromKey = `sm-${turn.seat}-${turn.replaced}`;
      else if (turn && turn.discarded === top) discardEl.dataset.fromSeat = String(turn.seat);
    }
    ctx.bind(discardEl, (a) => a.move === 'take-discard' || a.move === 'discard-drawn', 'Discard pile');
    const piles = h('div.piles', null, pileOf('stock', stock),
      h('div', { dataset: { zone: 'discard' } }, pileOf(`discard (${discard.length})`, discardEl)));
    if (v.drawn) piles.append(pileOf('you drew', frenchCard(v.drawn, { attrs: { dataset: { token: v.drawn } } })));
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

  prompt(ctx) {
    const v = ctx.view;
    const legal = ctx.state.legal || [];
    const kinds = new Set(legal.map((a) => a.move));
    if (kinds.has('peek')) return 'look at two of your own cards: click one, then choose the pair.';
    if (kinds.has('slap')) return `slap a ${names(v.slapRanks || [], 'or')} from your line onto the pile, or let it pass.`;
    if (kinds.has('jack')) return v.jackFirst ? 'pick the second card of the Jack swap.' : 'Jack: pick two cards anywhere to swap, or skip.';
    if (kinds.has('queen')) return 'Queen: pick any card to look at, or skip.';
    if (kinds.has('replace') || kinds.has('discard-drawn')) {
      return `you drew ${v.drawn ? `the ${frenchWords(v.drawn)}` : 'a card'}: put it in one of your slots, or discard it.`;
    }
    if (kinds.has('end-turn')) return 'end your turn, or call "Spider Monkey" if you think your sum is the lowest.';
    return choices([
      kinds.has('draw') ? 'draw from the stock' : null,
      kinds.has('take-discard') ? 'take the top discard into one of your slots' : null,
    ]);
  },

  doing(ctx) {
    const v = ctx.view;
    if (v.phase === 'peek') return 'to look at their cards';
    if (v.phase === 'slap-window') return 'to slap or let it pass';
    if (v.phase === 'power') return v.power === 'jack' ? 'to use the Jack' : 'to use the Queen';
    return 'to take a turn';
  },

  score(ctx, r) {
    const v = ctx.view;
    const columns = [{ title: v.totals ? 'Total' : 'Points', cell: (seat) => String(r.scores?.[seat] ?? '') }];
    const cards = v.revealed || v.lastRound?.cards;
    if (cards) columns.push({ title: 'Cards', cell: (seat) => (cards[seat] || []).map(frenchShort).join(' ') || 'none' });
    return {
      note: v.totals
        ? 'Cumulative play: the rounds add up until someone passes 120; the lowest total wins.'
        : 'The lowest sum wins (A 1, J 11, Q 12, K 13, K♦ 0); a player with no cards left wins at once.',
      columns,
    };
  },
};

