// Tricky Tribes: the trick in the middle (open or dark), the last trick and who collected it,
// every tribe's collected stack with its points, the exchange progress, your hand.
import { h } from '../dom.js';
import { frenchCard, frenchWords, cardBack, backFan } from '../cards.js';
import { frenchHand, counter, faceDownPile, pileOf, choices } from './common.js';

function tribeName(ctx, t) {
  if (t === 'dummy') return 'Dummy Tribe';
  return t === ctx.me ? 'you' : ctx.name(t);
}

// A collected stack: small overlapping cards, the points beside them.
function stack(cards, label, zone) {
  const row = h('div.collected', {
    role: 'img',
    'aria-label': `${label}: ${cards.length ? cards.map(frenchWords).join(', ') : 'nothing collected'}`,
    dataset: { zone },
  });
  for (const c of cards) row.append(frenchCard(c, { attrs: { class: 'tiny', 'aria-hidden': 'true', dataset: { token: c } } }));
  if (!cards.length) row.append(h('span.muted', null, 'nothing collected'));
  return row;
}

function trickRow(ctx, trick, caption, zone, id) {
  const row = h('div.trick', { dataset: { zone } });
  trick.by.forEach((t, i) => {
    const code = trick.cards[i];
    const card = code ? frenchCard(code) : cardBack({ label: 'a face-down card' });
    card.dataset.token = code || `${id}-${i}`;
    if (t !== 'dummy') card.dataset.fromSeat = String(t);
    row.append(h('div.trick-card', null, card, h('span.trick-by', null, tribeName(ctx, t))));
  });
  return h('div.trick-box', null, h('div.pile-label', null, caption), row);
}

const KINDS = {
  'open-red': 'open, red',
  'open-black': 'open, black',
  'open-joker': 'open, joker',
  dark: 'dark',
};

export default {
  seatInfo(ctx, seat) {
    const v = ctx.view;
    const n = v.handCounts?.[seat] ?? 0;
    const progress = v.exchange?.[seat];
    return h('div.seat-info', null,
      h('div.seat-stats', null,
        seat !== ctx.me ? backFan(n, `${n} cards in hand`) : null,
        counter('points', v.stackPoints?.[seat] ?? 0),
        counter('total', v.totals?.[seat] ?? 0),
        progress && progress !== 'deciding' ? h('span.badge', null, progress) : null,
        v.sides ? h('span.badge', null, `side ${v.sides[seat]}`) : null,
        v.voted?.[seat] ? h('span.badge', null, 'voted') : null),
      stack(v.stacks?.[seat] || [], `${ctx.name(seat)}'s collected stack`, `stack-${seat}`));
  },

  center(ctx) {
    const v = ctx.view;
    const parts = [];
    const tricks = v.phase === 'lead' || v.phase === 'respond';
    if (v.currentTrick && v.currentTrick.by.length) {
      parts.push(trickRow(ctx, v.currentTrick,
        `trick ${v.trick} of ${v.tricksPerRound}: ${v.currentTrick.open ? 'open' : 'dark'}`, 'trick', `t${v.round}-${v.trick}`));
    } else if (tricks) {
      parts.push(h('div.trick-box', null, h('div.pile-label', null, `trick ${v.trick} of ${v.tricksPerRound}`),
        h('p.muted', null, `${v.leader === ctx.me ? 'You lead' : `${tribeName(ctx, v.leader)} leads`}${v.forcedOpen ? ', face up' : ''}`)));
    }
    if (v.lastTrick) {
      const lt = v.lastTrick;
      const who = lt.collector !== undefined && lt.collector !== null ? tribeName(ctx, lt.collector) : null;
      const got = (lt.collected || []).length;
      parts.push(trickRow(ctx, lt,
        `last trick (${KINDS[lt.kind] || lt.kind})${who ? `: ${who} ${who === 'you' ? 'collect' : 'collects'} ${got ? `${got} card${got === 1 ? '' : 's'}` : 'nothing'}` : ''}`,
        'last-trick', `l${v.round}-${v.trick}`));
    }
    const end = v.endMode === 'target' ? counter('target', v.target) : v.endMode === 'fixedRounds' ? counter('rounds', v.rounds) : counter('end', 'by vote');
    const info = h('div.felt-info', null, counter('round', v.round), end);
    const piles = h('div.piles', null,
      pileOf('deck', faceDownPile(v.deck ?? 0, 'deck')),
      v.hiddenDiscards ? pileOf('hidden discards', faceDownPile(v.hiddenDiscards, 'hidden discards')) : null,
      v.discards?.length ? pileOf('open discards', h('div.hand.small', null, v.discards.map((c) => frenchCard(c)))) : null,
      v.dummy ? pileOf('Dummy Tribe', stack(v.dummyStack || [], 'Dummy Tribe stack', 'stack-dummy')) : null);
    return h('div.tt-center', null, info, h('div.tt-tricks', null, ...parts), piles);
  },

  hand(ctx) {
    return frenchHand(ctx, ctx.view.hand, { title: (c) => `Play the ${frenchWords(c)}` });
  },

  prompt(ctx) {
    const v = ctx.view;
    const legal = ctx.state.legal || [];
    const kinds = new Set(legal.map((a) => a.move));
    if (kinds.has('exchange-draw') || kinds.has('exchange-skip')) return 'exchange a card (draw your exchange card, then discard one), or keep your hand.';
    if (kinds.has('exchange-discard')) return 'discard a card to finish your exchange.';
    if (kinds.has('trim-discard')) return 'six tribes: discard one card so that every hand holds eight.';
    if (kinds.has('lead')) {
      const up = legal.some((a) => a.move === 'lead' && a.faceUp);
      const down = legal.some((a) => a.move === 'lead' && !a.faceUp);
      if (up && !down) return 'lead a card face up (you must open this trick).';
      return 'lead a card: face up opens the trick (you stay out of it), face down makes it dark.';
    }
    if (kinds.has('respond')) {
      const t = v.currentTrick;
      const offered = t?.open && t.cards?.[0] ? ` to the open ${frenchWords(t.cards[0])}` : t && !t.open ? ' to the dark trick' : '';
      return `answer${offered} with a card, face down.`;
    }
    return choices([
      kinds.has('next-round') ? 'vote to play another round' : null,
      kinds.has('end-game') ? 'vote to stop here' : null,
    ]);
  },

  doing(ctx) {
    const v = ctx.view;
    const words = { exchange: 'to exchange', trim: 'to trim their hands', lead: 'to lead', respond: 'to answer the trick', vote: 'to vote' };
    return words[v.phase] || '';
  },

  score(ctx, r) {
    const v = ctx.view;
    const columns = [{ title: 'Points', cell: (seat) => String(r.scores?.[seat] ?? v.totals?.[seat] ?? '') }];
    if (v.sides) columns.push({ title: 'Team', cell: (seat) => String(v.sides[seat]) });
    let note = 'The most points wins.';
    if (v.endMode === 'target') note = `First to ${v.target} points: every tribe at or above it wins, else the most points.`;
    return { note, columns };
  },
};
