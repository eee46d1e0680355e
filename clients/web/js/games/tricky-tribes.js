// Tricky Tribes: the trick in the middle (open or dark), every tribe's collected stack with
// its points, the exchange progress, your hand.
import { h } from '../dom.js';
import { frenchCard, frenchWords, cardBack, backFan } from '../cards.js';
import { frenchHand, counter, faceDownPile, pileOf } from './common.js';

function tribeName(ctx, t) {
  return t === 'dummy' ? 'Dummy Tribe' : ctx.name(t);
}

function stack(cards, label) {
  const row = h('div.collected', { role: 'img', 'aria-label': `${label}: ${cards.length ? cards.map(frenchWords).join(', ') : 'nothing collected'}` });
  for (const c of cards) row.append(frenchCard(c, { attrs: { class: 'tiny', 'aria-hidden': 'true' } }));
  if (!cards.length) row.append(h('span.muted', null, 'no cards collected'));
  return row;
}

function trickRow(ctx, by, cards, caption) {
  const row = h('div.trick');
  by.forEach((t, i) => {
    const card = cards[i] ? frenchCard(cards[i]) : cardBack({ label: 'a face-down card' });
    row.append(h('div.trick-card', null, card, h('span.trick-by', null, tribeName(ctx, t))));
  });
  return h('div.trick-box', null, h('div.pile-label', null, caption), row);
}

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
      stack(v.stacks?.[seat] || [], `${ctx.name(seat)}'s collected stack`));
  },

  center(ctx) {
    const v = ctx.view;
    const parts = [];
    if (v.currentTrick && v.currentTrick.by.length) {
      parts.push(trickRow(ctx, v.currentTrick.by, v.currentTrick.cards,
        `trick ${v.trick} of ${v.tricksPerRound}: ${v.currentTrick.open ? 'open' : 'dark'}`));
    } else if (v.phase === 'tricks') {
      parts.push(h('div.trick-box', null, h('div.pile-label', null, `trick ${v.trick} of ${v.tricksPerRound}`),
        h('p.muted', null, `${tribeName(ctx, v.leader)} leads`)));
    }
    if (v.lastTrick) {
      const lt = v.lastTrick;
      parts.push(trickRow(ctx, lt.by, lt.cards,
        `last trick (${lt.kind}): ${lt.collector !== undefined ? tribeName(ctx, lt.collector) + ' collects' : ''}`));
    }
    const info = h('div.felt-info', null,
      counter('round', v.round), counter(v.endMode === 'target' ? 'target' : v.endMode === 'fixedRounds' ? 'rounds' : 'end', v.target ?? v.rounds ?? 'vote'),
      counter('phase', v.phase));
    const piles = h('div.piles', null,
      pileOf('deck', faceDownPile(v.deck ?? 0, 'deck')),
      pileOf('hidden discards', faceDownPile(v.hiddenDiscards ?? 0, 'hidden discards')),
      v.discards?.length ? pileOf('open discards', h('div.hand.small', null, v.discards.map((c) => frenchCard(c)))) : null,
      v.dummy ? pileOf('Dummy Tribe', stack(v.dummyStack || [], 'Dummy Tribe stack')) : null);
    return h('div.tt-center', null, info, piles, ...parts);
  },

  hand(ctx) {
    return frenchHand(ctx, ctx.view.hand, { title: (c) => `Play ${frenchWords(c)}` });
  },
};
