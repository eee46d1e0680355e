// Naked Gibbon: each gibbon's three limb slots (table cards over hidden burnmarks), the
// campfire with the fire number and the jumps over it, deck and discard, your hand.
import { h } from '../dom.js';
import { frenchCard, frenchWords, cardBack, burnmark, backFan } from '../cards.js';
import { frenchHand, counter, faceDownPile, pileOf } from './common.js';

const LIMBS = ['left arm', 'right arm', 'tail'];
const JUMPS = { 'hands-up': 'hands up', 'chest-up': 'chest up', random: 'panic jump', 'back-flip': 'back flip', 'side-flip': 'side flip' };

function limbs(ctx, seat) {
  const v = ctx.view;
  const row = h('div.limbs', { role: 'group', 'aria-label': `${ctx.name(seat)}'s table cards` });
  const table = v.table?.[seat] || [];
  const burned = v.burned?.[seat] || [];
  table.forEach((code, slot) => {
    const what = `slot ${slot + 1}${burned[slot] ? ', burnmark under it' : ''}`;
    const mine = seat === ctx.me;
    let el;
    if (code) {
      el = frenchCard(code, { tag: mine ? 'button' : 'div', attrs: { 'aria-label': `${what}: ${frenchWords(code)}`, dataset: { key: `slot-${seat}-${slot}` } } });
    } else {
      el = h(`${mine ? 'button' : 'div'}.card.slot-empty`, { 'aria-label': `${what}: empty`, dataset: { key: `slot-${seat}-${slot}` } });
      if (mine) el.type = 'button';
    }
    if (mine) ctx.bind(el, (a) => a.slot === slot, `Slot ${slot + 1}`);
    const cell = h('div.limb', null, el, burned[slot] ? burnmark('burnmark') : null, h('span.limb-name', { 'aria-hidden': 'true' }, LIMBS[slot] || `slot ${slot + 1}`));
    row.append(cell);
  });
  return row;
}

export default {
  seatInfo(ctx, seat) {
    const v = ctx.view;
    const marks = v.burnmarks?.[seat] ?? 0;
    const flames = h('span.burnmarks', { 'aria-label': `${marks} burnmarks of ${v.burnLimit}` });
    for (let i = 0; i < marks; i++) flames.append(burnmark());
    const info = h('div.seat-info', null,
      h('div.seat-stats', null,
        seat !== ctx.me ? backFan(v.handCounts?.[seat] ?? 0, `${v.handCounts?.[seat] ?? 0} hand cards`) : null,
        flames,
        v.hat === seat ? h('span.badge.hat', null, 'monkey hat') : null,
        v.out?.[seat] ? h('span.badge.warn', null, 'out') : null,
        v.losses?.[seat] ? h('span.badge', null, `lost ${v.losses[seat]}`) : null),
      limbs(ctx, seat));
    // Doubting a seat: the seat's own box carries the button.
    if (seat !== ctx.me && ctx.binder.has((a) => a.move === 'doubt' && a.target === seat)) {
      const b = h('button.small.doubt', { type: 'button', dataset: { key: `doubt-${seat}` } }, `Doubt ${ctx.name(seat)}`);
      ctx.bind(b, (a) => a.move === 'doubt' && a.target === seat);
      info.append(b);
    }
    if (seat !== ctx.me && ctx.binder.has((a) => a.move === 'swap' && a.with === seat)) {
      const b = h('button.small', { type: 'button', dataset: { key: `swap-${seat}` } }, `Swap seats with ${ctx.name(seat)}`);
      ctx.bind(b, (a) => a.move === 'swap' && a.with === seat);
      info.append(b);
    }
    return info;
  },

  center(ctx) {
    const v = ctx.view;
    const fire = v.fire || [];
    const jumps = h('div.fire-pile', { 'aria-label': `${fire.length} jumps over the fire` });
    fire.slice(-6).forEach((p, i) => {
      const card = p.card ? frenchCard(p.card) : cardBack({ label: 'a face-down jump' });
      jumps.append(h('div.jump', { style: { '--i': String(i) } }, card,
        h('span.jump-tag', null, `${ctx.name(p.by)}: ${JUMPS[p.jump] || p.jump} ${p.before}\u2192${p.after}`)));
    });
    const deck = h('button.card.back.deck', { type: 'button', 'aria-label': `deck: ${v.deck} cards`, dataset: { key: 'deck' } }, h('span.back-pattern'), h('span.back-caption', null, String(v.deck)));
    ctx.bind(deck, (a) => a.move === 'random', 'Panic jump');
    const campfire = h('div.campfire', null,
      h('div.fire-number', { 'aria-label': `fire number ${v.fireNumber}` }, h('span.flame', { 'aria-hidden': 'true' }), h('b', null, String(v.fireNumber))),
      jumps);
    const side = h('div.piles', null, pileOf('deck', deck), pileOf('discard', faceDownPile(v.discard ?? 0, 'discard')));
    const placing = v.placing
      ? h('div.placing', null, h('div.pile-label', null, `${ctx.name(v.placing.seat)} places cards (${v.placing.why})`),
        h('div.hand.small', null, (v.placing.cards || []).map((c) => frenchCard(c))))
      : null;
    const doubt = v.lastDoubt
      ? h('p.rule', null, `${ctx.name(v.lastDoubt.doubter)} doubted ${ctx.name(v.lastDoubt.target)}: `, frenchCard(v.lastDoubt.card, { attrs: { class: 'tiny' } }))
      : null;
    return h('div.gibbon-center', null,
      h('div.felt-info', null, counter('round', v.round), counter('burn limit', v.burnLimit), v.warning ? h('span.muted', null, v.warning) : null),
      h('div.fire-row', null, campfire, side), placing, doubt);
  },

  hand(ctx) {
    const v = ctx.view;
    const title = (code) => `Jump with ${code}`;
    return frenchHand(ctx, v.hand, { title });
  },
};
