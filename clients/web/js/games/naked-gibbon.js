// Naked Gibbon: each gibbon's three table-card slots (over their burnmarks) and what is left of
// them (two legs and a tail), the campfire with the fire number and the jumps over it, deck and
// discard, your hand.
import { h } from '../dom.js';
import { frenchCard, frenchWords, cardBack, burnmark, backFan } from '../cards.js';
import { frenchHand, counter, faceDownPile, pileOf, choices } from './common.js';
import { plural } from '../words.js';

const JUMPS = { 'hands-up': 'hands up', 'chest-up': 'chest up', random: 'panic jump', 'back-flip': 'back flip', 'side-flip': 'side flip' };
const SHOWN_JUMPS = 6;

// The gibbon's body as the rules tell it: the first burnmarks burn the legs, the last the tail
// (with Never My Tail the second one already does).
function body(ctx, seat) {
  const v = ctx.view;
  const marks = v.burnmarks?.[seat] ?? 0;
  const limit = v.burnLimit ?? 3;
  const parts = limit <= 2 ? ['leg', 'tail'] : ['leg', 'leg', 'tail'];
  const row = h('span.gibbon-body', {
    'aria-label': `${plural(marks, 'burnmark')} of ${limit}: ${marks >= limit ? 'the tail is burned' : marks ? `${marks === 1 ? 'a leg' : 'both legs'} burned` : 'no burns'}`,
    title: `Each burnmark burns a part of the gibbon: ${limit <= 2 ? 'first a leg, then the tail' : 'first the legs, then the tail'}. A burned tail loses the round.`,
  });
  // The words say what the chips count: burnmarks so far against the limit that burns the tail.
  row.append(h('span.body-label', { 'aria-hidden': 'true' }, `burnmarks ${marks}/${limit}`));
  parts.forEach((part, i) => row.append(h(`span.limb-state${i < marks ? '.burned' : ''}`, { 'aria-hidden': 'true' }, i < marks ? burnmark() : null, part)));
  return row;
}

function slots(ctx, seat) {
  const v = ctx.view;
  const row = h('div.limbs', { role: 'group', 'aria-label': `${ctx.name(seat)}'s table cards` });
  const table = v.table?.[seat] || [];
  const burned = v.burned?.[seat] || [];
  table.forEach((code, slot) => {
    const what = `slot ${slot + 1}${burned[slot] ? ', on a burnmark' : ''}`;
    const mine = seat === ctx.me;
    let el;
    if (code) {
      el = frenchCard(code, { tag: mine ? 'button' : 'div', attrs: { 'aria-label': `${what}: ${frenchWords(code)}`, dataset: { key: `slot-${seat}-${slot}`, token: code } } });
    } else {
      el = h(`${mine ? 'button' : 'div'}.card.slot-empty`, { 'aria-label': `${what}: empty`, dataset: { key: `slot-${seat}-${slot}` } });
      if (mine) el.type = 'button';
    }
    if (mine) ctx.bind(el, (a) => a.slot === slot, `Slot ${slot + 1}`);
    row.append(h('div.limb', { class: burned[slot] ? 'on-burn' : '' }, el,
      burned[slot] ? burnmark('burnmark under this slot') : null,
      h('span.limb-name', { 'aria-hidden': 'true' }, `slot ${slot + 1}`)));
  });
  return row;
}

// A doubt's outcome belongs to the fire it ended: shown until the new fire gets its first jump.
function freshDoubt(ctx) {
  const v = ctx.view;
  const m = ctx.memory;
  const key = v.lastDoubt ? JSON.stringify(v.lastDoubt) : null;
  if (m.doubtKey === undefined) {
    m.doubtKey = key;      // what the table showed when we sat down: not news
    m.doubtFresh = false;
  } else if (key !== m.doubtKey) {
    m.doubtKey = key;
    m.doubtFresh = key !== null;
  }
  if ((v.fire || []).length > 0) m.doubtFresh = false;
  return m.doubtFresh ? v.lastDoubt : null;
}

function jumpTile(ctx, p, index) {
  const face = p.card ? frenchCard(p.card) : cardBack({ label: 'a face-down jump' });
  face.dataset.token = p.card || `jump-${p.by}-${index}-${p.before}`;
  face.dataset.fromSeat = String(p.by);
  const jump = JUMPS[p.jump] || p.jump;
  return h('div.jump', { 'aria-label': `${ctx.name(p.by)}: ${jump}${p.card ? ` with the ${frenchWords(p.card)}` : ''}, fire ${p.before} to ${p.after}` },
    face,
    h('span.jump-tag', { 'aria-hidden': 'true' },
      h('span.jump-who', null, p.by === ctx.me ? 'you' : ctx.name(p.by)),
      h('span.jump-how', null, jump),
      h('span.jump-fire', null, `${p.before}\u2192${p.after}`)));
}

export default {
  seatInfo(ctx, seat) {
    const v = ctx.view;
    const stats = h('div.seat-stats', null,
      seat !== ctx.me ? backFan(v.handCounts?.[seat] ?? 0, `${v.handCounts?.[seat] ?? 0} hand cards`) : null,
      body(ctx, seat),
      v.hat === seat ? h('span.badge.hat', { title: 'the Heartless Monkey Hat: no back flips' }, 'hat') : null,
      v.out?.[seat] ? h('span.badge.warn', null, 'out') : null,
      v.losses?.[seat] ? h('span.badge', null, `lost ${v.losses[seat]}`) : null);
    // Doubting a seat, or swapping places with it: the seat's own box carries the button, beside
    // its table cards.
    const row = slots(ctx, seat);
    if (seat !== ctx.me && ctx.binder.has((a) => a.move === 'doubt' && a.target === seat)) {
      const b = h('button.small.doubt', { type: 'button', 'aria-label': `Doubt ${ctx.name(seat)}`, dataset: { key: `doubt-${seat}` } }, 'Doubt');
      ctx.bind(b, (a) => a.move === 'doubt' && a.target === seat);
      row.append(b);
    }
    if (seat !== ctx.me && ctx.binder.has((a) => a.move === 'swap' && a.with === seat)) {
      const b = h('button.small', { type: 'button', 'aria-label': `Swap seats with ${ctx.name(seat)}`, dataset: { key: `swap-${seat}` } }, 'Swap');
      ctx.bind(b, (a) => a.move === 'swap' && a.with === seat);
      row.append(b);
    }
    return h('div.seat-info', null, stats, row);
  },

  center(ctx) {
    const v = ctx.view;
    const fire = v.fire || [];
    const first = Math.max(0, fire.length - SHOWN_JUMPS);
    const jumps = h('div.fire-pile', { 'aria-label': `${plural(fire.length, 'jump')} over the fire`, dataset: { zone: 'fire' } });
    fire.slice(first).forEach((p, i) => jumps.append(jumpTile(ctx, p, first + i)));
    if (!fire.length) jumps.append(h('span.muted.fire-empty', null, 'a new fire'));
    const deck = h('button.card.back.deck', { type: 'button', 'aria-label': `deck: ${v.deck} cards`, dataset: { key: 'deck' } }, h('span.back-pattern'), h('span.back-caption', null, String(v.deck)));
    ctx.bind(deck, (a) => a.move === 'random', 'Panic jump');
    const campfire = h('div.campfire', null,
      h('div.fire-number', { 'aria-label': `fire number ${v.fireNumber}` }, h('span.flame', { 'aria-hidden': 'true' }), h('b', null, String(v.fireNumber))),
      jumps);
    const side = h('div.piles', null, pileOf('deck', deck), pileOf('discard', faceDownPile(v.discard ?? 0, 'discard')));
    const placing = v.placing
      ? h('div.placing', null, h('div.pile-label', null, `${ctx.name(v.placing.seat)} places ${v.placing.why === 'naked' ? 'their naked hand' : 'the fire-bath cards'} on the table`),
        h('div.hand.small', null, (v.placing.cards || []).map((c) => frenchCard(c))))
      : null;
    const d = freshDoubt(ctx);
    const doubt = d
      ? h('p.rule.doubt-news', null, `${ctx.name(d.doubter)} doubted ${ctx.name(d.target)}'s ${JUMPS[d.jump] || d.jump}: `,
        frenchCard(d.card, { attrs: { class: 'tiny' } }))
      : null;
    return h('div.gibbon-center', null,
      h('div.felt-info', null, counter('round', v.round), counter('burn limit', v.burnLimit), v.warning ? h('span.muted', null, v.warning) : null),
      h('div.fire-row', null, campfire, side), placing, doubt);
  },

  hand(ctx) {
    const v = ctx.view;
    return frenchHand(ctx, v.hand, { title: (code) => `Jump with the ${frenchWords(code)}` });
  },

  prompt(ctx) {
    const v = ctx.view;
    const legal = ctx.state.legal || [];
    const kinds = new Set(legal.map((a) => a.move));
    if (kinds.has('place')) return 'choose where your cards go on the table (a burnmark keeps a slot safe).';
    if (kinds.has('swap')) return 'you lost the round: choose a gibbon to swap places with, then deal.';
    const doubt = legal.filter((a) => a.move === 'doubt').map((a) => ctx.name(a.target));
    const fire = v.fireNumber ?? 0;
    const what = choices([
      kinds.has('hands-up') || kinds.has('back-flip') || kinds.has('side-flip') ? 'jump with a hand card' : null,
      kinds.has('chest-up') ? 'jump with a table card' : null,
      kinds.has('random') ? 'take a panic jump' : null,
      doubt.length ? `doubt ${doubt.join(' or ')}` : null,
    ]).replace(/\.$/, '');
    // Moulting comes first and is optional: each kind on offer is named.
    const moults = [
      kinds.has('spot-moult') ? 'spot moult' : null,
      kinds.has('fire-bath') ? 'take a fire bath' : null,
    ].filter(Boolean);
    let todo = what;
    if (moults.length) todo = what ? `${what}; first you may ${moults.join(' or ')}` : moults.join(' or ');
    return `${fire ? `the fire is at ${fire}` : 'start a new fire'}: ${todo}.`;
  },

  doing(ctx, seats) {
    const v = ctx.view;
    if (v.phase === 'place' || v.phase === 'naked-place') return 'to place their cards';
    if (v.phase === 'swap') return 'to choose whom to swap places with';
    if (v.phase === 'new-fire') return 'to start a new fire';
    return seats.length === 1 ? 'to jump or doubt' : '';
  },

  score(ctx, r) {
    const v = ctx.view;
    const loser = v.roundLoser ?? r.losers?.[0];
    const columns = [{ title: 'Burnmarks', cell: (seat) => String(v.burnmarks?.[seat] ?? '') }];
    if (r.scores) columns.push({ title: 'Rounds lost', cell: (seat) => String(r.scores[seat]) });
    const survival = Array.isArray(v.eliminated) && v.eliminated.length > 0 && (r.winners || []).length === 1;
    let note = loser !== undefined ? `${loser === ctx.me ? 'You' : ctx.name(loser)} burned the tail: there is only the loser, everyone else wins.` : '';
    if (survival) note = 'The last gibbon jumping wins; the others rank in the order they dropped out.';
    return { note, columns };
  },
};
