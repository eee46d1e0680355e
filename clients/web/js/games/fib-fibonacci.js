// Fib-Fibonacci: every base (a joker) with its two openings A and B as columns of runs, each
// card with the value it counts as, and each restart 6 laid across the end of the run it caps;
// the side area, the draw pile and your hand. Runs are numbered from 1, as the moves say.
import { h } from '../dom.js';
import { frenchCard, frenchWords, backFan } from '../cards.js';
import { frenchHand, counter, faceDownPile, pileOf, choices } from './common.js';

function opponent(ctx) {
  return ctx.me === 0 ? 1 : 0;
}

// Where a card that just arrived on the table came from: your hand (its token) or the other seat.
function arrival(ctx, el) {
  const last = ctx.view.lastPlay;
  if (last && last.seat !== undefined && last.seat !== ctx.me) el.dataset.fromSeat = String(last.seat);
  else if (ctx.me === null) el.dataset.fromSeat = String(last?.seat ?? opponent(ctx));
  return el;
}

function baseCard(ctx, index, label, restart) {
  const base = ctx.view.bases?.[index];
  if (!base) return null;
  const el = arrival(ctx, frenchCard(base.card, { tag: 'button', attrs: { 'aria-label': `${label}: ${frenchWords(base.card)}`, dataset: { key: `base-${index}`, token: base.card } } }));
  ctx.bind(el, (a) => a.move === 'four' && a.base === index, `Replace the ${frenchWords(base.card)} with a 4`);
  return h(`div.base${restart ? '.restart' : ''}`, { dataset: { zone: `base-${index}` } }, el);
}

function run(ctx, id) {
  const r = ctx.view.runs?.[id];
  if (!r) return null;
  const no = id + 1;
  const cards = h('div.run-cards', { dataset: { zone: `run-${id}` } });
  r.cards.forEach((c, k) => {
    const card = arrival(ctx, frenchCard(c, { tag: 'button', attrs: { 'aria-label': `${frenchWords(c)} counting ${r.values[k]}, run ${no}`, dataset: { key: `run-${id}-${k}`, token: c } } }));
    ctx.bind(card, (a) => a.move === 'four' && a.run === id && a.position === k, `Take the ${frenchWords(c)} from run ${no}`);
    cards.append(h('div.run-card', null, card, h('span.value', { 'aria-hidden': 'true' }, String(r.values[k]))));
  });
  const need = runNeeds(r);
  const words = need.short;
  const target = h('button.run-next', {
    type: 'button',
    title: need.long,
    dataset: { key: `next-${id}` },
    'aria-label': `run ${no}: ${need.long}`,
  }, words);
  ctx.bind(target, (a) => (a.move === 'run' || a.move === 'restart') && a.run === id, `Run ${no}`);
  return h('div.run', { dataset: { run: String(id) } }, h('span.run-name', null, `run ${no}`), cards, target);
}

// What a run takes next, in the words of the rules (FF-5): a short form for its button and a
// sentence for its tooltip and screen readers.
export function runNeeds(r) {
  const n = r.cards.length;
  const v = r.values;
  if (r.cappedBy !== null && r.cappedBy !== undefined) return { short: 'capped by a 6', long: 'capped by a restart 6: closed' };
  if (r.closed) return { short: 'closed', long: `closed: its top card counts ${v[n - 1]}, and a run ends at 7 or more` };
  if (n === 0) return { short: 'needs 2 or 3', long: 'empty: it starts with a 2 or a 3 (or a 6)' };
  if (n === 1) {
    const options = [3, 5].filter((x) => x > v[0]);
    const say = options.join(' or ');
    return { short: `needs ${say}`, long: `its second card is ${options.length > 1 ? 'a 3 or a 5' : 'a 5'} above the ${v[0]} (or a 6)` };
  }
  const next = r.next ?? v[n - 1] + v[n - 2];
  return { short: `needs ${next}`, long: `the next card must count ${next}, the sum of the last two (a 6 counts as anything)` };
}

// One opening of a column: its run, and after every restart 6 the run that 6 opened. A side
// restarted once or twice is a chain, laid left to right where the screen is wide enough: stacked
// downwards it would grow taller than a desktop screen. A side with no run is not drawn.
function opening(ctx, ids, side) {
  // A floating run keeps its side; the other side of its column has nothing, and shows nothing.
  if (!(ids || []).length) return null;
  const chain = ids.length > 1;
  const col = h(`div.run-col${chain ? '.chain' : ''}`, { role: 'group', 'aria-label': `side ${side}` }, h('div.opening-name', null, `side ${side}`));
  for (const id of ids || []) {
    const r = ctx.view.runs?.[id];
    const el = run(ctx, id);
    if (el) col.append(el);
    if (r && r.cappedBy !== null && r.cappedBy !== undefined) {
      col.append(baseCard(ctx, r.cappedBy, `restart 6 on run ${id + 1}`, true));
    }
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
        v.seriesGames > 1 ? counter('games won', v.gamesWon?.[seat] ?? 0) : null,
        v.dealer === seat ? h('span.badge', null, 'dealer') : null));
  },

  center(ctx) {
    const v = ctx.view;
    const cols = h('div.fib-columns');
    for (const col of v.columns || []) {
      // Floating runs lost their base to a refill: their column says so in words, with no card.
      const baseLine = col.base === null
        ? h('div.base-line.floating', { title: 'floating runs: their base went back into the draw pile' }, h('span.pile-label', null, 'floating'))
        : h('div.base-line', null, baseCard(ctx, col.base, 'base', false), h('span.pile-label', null, 'base'));
      cols.append(h(`div.fib-column${col.base === null ? '.floating' : ''}`, null,
        baseLine,
        h('div.openings', null, opening(ctx, col.A, 'A'), opening(ctx, col.B, 'B'))));
    }
    if (!v.columns || v.columns.length === 0) cols.append(h('p.muted', null, 'The table is empty: only a joker can be played, as the first base.'));
    const side = h('div.hand.small', { role: 'group', 'aria-label': 'side area', dataset: { zone: 'side' } });
    (v.sideArea || []).forEach((c, i) => {
      const card = arrival(ctx, frenchCard(c, { tag: 'button', attrs: { dataset: { key: `side-${i}`, token: c } } }));
      ctx.bind(card, (a) => a.move === 'four' && a.sideCard === i, `Take the ${frenchWords(c)} from the side area`);
      side.append(card);
    });
    const draw = h('button.card.back.deck', { type: 'button', 'aria-label': `draw pile: ${v.drawPile} cards`, dataset: { key: 'draw' } }, h('span.back-pattern'), h('span.back-caption', null, String(v.drawPile)));
    ctx.bind(draw, (a) => a.move === 'draw', 'Draw');
    if (v.drawPile === 0) draw.classList.add('exhausted');
    const pair = v.pairChance
      ? h('p.rule', null, `${v.pairChance.seat === ctx.me ? 'You' : ctx.name(v.pairChance.seat)} may pair the ${frenchWords(v.pairChance.partner)} with the ${frenchWords(v.pairChance.card)}.`)
      : null;
    // What the words under the runs mean, once for the whole table.
    const legend = (v.columns || []).length
      ? h('p.fib-legend', null, 'Under each run: the card it needs next, the sum of its last two. A 6 fits anywhere; at 7 or more a run is closed.')
      : null;
    return h('div.fib-center', null,
      h('div.fib-side', null,
        h('div.felt-info', null,
          v.seriesGames > 1 ? counter('game', `${v.game}/${v.seriesGames}`) : null,
          counter('turn', `${v.turn}/${v.turnLimit}`), v.passes ? counter('passes', v.passes) : null),
        pileOf('draw pile', draw),
        pileOf('side area', (v.sideArea || []).length ? side : faceDownPile(0, 'side area')),
        legend),
      h('div.fib-main', null, cols, pair));
  },

  hand(ctx) {
    return frenchHand(ctx, ctx.view.hand, { title: (c) => `Play the ${frenchWords(c)}` });
  },

  prompt(ctx) {
    const legal = ctx.state.legal || [];
    const kinds = new Set(legal.map((a) => a.move));
    const pair = legal.find((a) => a.move === 'pair');
    return choices([
      kinds.has('joker') ? 'lay a joker as a new base' : null,
      kinds.has('run') ? 'add a card to a run' : null,
      kinds.has('restart') ? 'restart a run with a 6' : null,
      kinds.has('four') ? 'swap a 4 for a card on the table' : null,
      pair ? `pair your ${frenchWords(pair.card)} into the side area` : null,
      kinds.has('draw') ? 'draw a card' : null,
      kinds.has('pass') ? 'pass' : null,
    ]);
  },

  doing() {
    return 'to play or draw';
  },

  score(ctx, r) {
    const v = ctx.view;
    const columns = [{ title: 'Cards left', cell: (seat) => String(v.handCounts?.[seat] ?? '') }];
    if (v.seriesGames > 1) columns.push({ title: 'Games won', cell: (seat) => String(v.gamesWon?.[seat] ?? r.scores?.[seat] ?? '') });
    const endings = {
      'turn-limit': 'The turn limit was reached: fewer cards in hand wins.',
      'two-passes': 'Nobody could play: fewer cards in hand wins.',
      repetition: 'The same position came back three times: fewer cards in hand wins.',
    };
    const note = v.seriesGames > 1
      ? `A series of ${v.seriesGames} games: whoever wins more games wins the series.`
      : endings[v.lastGame?.ending] || 'The first to empty their hand wins.';
    return { note, columns };
  },
};
