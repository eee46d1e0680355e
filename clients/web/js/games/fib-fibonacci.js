// Fib-Fibonacci: every base (a joker) with its two openings A and B as columns of runs, each
// card with the value it counts as; the side area, the draw pile and your hand.
import { h } from '../dom.js';
import { frenchCard, frenchWords, backFan } from '../cards.js';
import { frenchHand, counter, faceDownPile, pileOf } from './common.js';

function runColumn(ctx, ids, side) {
  const v = ctx.view;
  const col = h('div.run-col', { role: 'group', 'aria-label': `opening ${side}` }, h('div.opening-name', null, side));
  for (const id of ids || []) {
    const run = v.runs?.[id];
    if (!run) continue;
    const cards = h('div.run-cards');
    run.cards.forEach((c, k) => {
      const card = frenchCard(c, { tag: 'button', attrs: { 'aria-label': `${frenchWords(c)} counting ${run.values[k]}, run ${id + 1}`, dataset: { key: `run-${id}-${k}` } } });
      ctx.bind(card, (a) => a.move === 'four' && a.run === id && a.position === k, `Take ${frenchWords(c)}`);
      cards.append(h('div.run-card', null, card, h('span.value', { 'aria-hidden': 'true' }, String(run.values[k]))));
    });
    const target = h('button.run-next', { type: 'button', dataset: { key: `next-${id}` }, 'aria-label': run.closed ? `run ${id + 1} closed` : `add to run ${id + 1}${run.next !== undefined ? `, needs ${run.next}` : ''}` },
      run.closed ? 'closed' : run.next !== undefined ? `next ${run.next}` : 'open');
    ctx.bind(target, (a) => (a.move === 'run' || a.move === 'restart') && a.run === id, `Run ${id + 1}`);
    col.append(cards, target);
  }
  return col;
}

export default {
  seatInfo(ctx, seat) {
    const v = ctx.view;
    const n = v.handCounts?.[seat] ?? 0;
    return h('div.seat-info', null,
      h('div.seat-stats', null,
        seat !== ctx.me ? backFan(n, `${n} cards in hand`) : null,
        counter('games won', v.gamesWon?.[seat] ?? 0),
        v.dealer === seat ? h('span.badge', null, 'dealer') : null));
  },

  center(ctx) {
    const v = ctx.view;
    const cols = h('div.fib-columns');
    for (const col of v.columns || []) {
      const base = col.base === null ? null : v.bases?.[col.base];
      let baseEl;
      if (base) {
        baseEl = frenchCard(base.card, { tag: 'button', attrs: { 'aria-label': `base ${col.base + 1}: ${frenchWords(base.card)}`, dataset: { key: `base-${col.base}` } } });
        ctx.bind(baseEl, (a) => a.move === 'four' && a.base === col.base, `Base ${col.base + 1}`);
      } else {
        baseEl = h('div.card.slot-empty', { 'aria-label': 'floating runs' });
      }
      cols.append(h('div.fib-column', null,
        h('div.base', null, baseEl, h('span.pile-label', null, base ? `base ${col.base + 1}` : 'floating')),
        h('div.openings', null, runColumn(ctx, col.A, 'A'), runColumn(ctx, col.B, 'B'))));
    }
    if (!v.columns || v.columns.length === 0) cols.append(h('p.muted', null, 'The table is empty: the first play starts a base.'));
    const side = h('div.hand.small', { role: 'group', 'aria-label': 'side area' });
    (v.sideArea || []).forEach((c, i) => {
      const card = frenchCard(c, { tag: 'button', attrs: { dataset: { key: `side-${i}` } } });
      ctx.bind(card, (a) => a.move === 'four' && a.sideCard === i, `Take ${frenchWords(c)}`);
      side.append(card);
    });
    const draw = h('button.card.back.deck', { type: 'button', 'aria-label': `draw pile: ${v.drawPile} cards`, dataset: { key: 'draw' } }, h('span.back-pattern'), h('span.back-caption', null, String(v.drawPile)));
    ctx.bind(draw, (a) => a.move === 'draw', 'Draw');
    if (v.drawPile === 0) draw.classList.add('exhausted');
    const pair = v.pairChance
      ? h('p.rule', null, `${ctx.name(v.pairChance.seat)} may pair ${frenchWords(v.pairChance.card)} with ${frenchWords(v.pairChance.partner)}`)
      : null;
    return h('div.fib-center', null,
      h('div.felt-info', null, counter('game', `${v.game}/${v.seriesGames}`), counter('turn', `${v.turn}/${v.turnLimit}`), counter('passes', v.passes ?? 0)),
      h('div.fib-top', null, pileOf('draw pile', draw), pileOf('side area', (v.sideArea || []).length ? side : faceDownPile(0, 'side area'))),
      cols, pair);
  },

  hand(ctx) {
    return frenchHand(ctx, ctx.view.hand, { title: (c) => `Play ${frenchWords(c)}` });
  },
};
