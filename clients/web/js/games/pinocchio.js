// Pinocchio: stacks and noses at every seat, the face-down pile in the middle with the claim on
// top, the announcement grid (colour x clothing) and "I believe you" / "Liar!" for that claim.
import { h } from '../dom.js';
import {
  pinocchioCard, pinocchioWords, cardBack, noseSvg, clothingIcon, PINOCCHIO_COLOURS, PINOCCHIO_CLOTHES,
} from '../cards.js';
import { counter } from './common.js';
import { plural } from '../words.js';

// What the next claim must match: the claim on top, unless there is none or a challenge turned it
// over (the view says it once, in lastClaim).
function mustMatch(v) {
  return v.phase === 'play' && v.lastClaim && !v.lastClaim.challenge ? v.lastClaim.claim : null;
}

function claimCard(ctx, c, index, latest) {
  let face;
  const shown = c.challenge;
  if (shown) {
    face = pinocchioCard(shown.revealed, { label: `${pinocchioWords(shown.revealed)}, revealed` });
  } else if (c.card) {
    face = pinocchioCard(c.card, { label: `${pinocchioWords(c.card)}, the card you played` });
    face.classList.add('own-card');
  } else {
    face = cardBack({ theme: 'pino-back', label: 'a face-down card' });
  }
  // The card that lands on the pile comes from your top card, or from the player's stack.
  face.dataset.token = `claim-${index}`;
  if (c.by === ctx.me) face.dataset.fromKey = 'your-card';
  else face.dataset.fromSeat = String(c.by);
  const verdict = shown
    ? h(`span.verdict.${shown.truthful ? 'truth' : 'lie'}`, null, shown.truthful ? 'truth' : 'lie!')
    : !c.challengeable ? h('span.verdict.safe', null, 'no challenge') : null;
  return h(`div.claim${latest ? '.latest' : ''}`, null,
    h('div.bubble', null, h('b', null, ctx.name(c.by)), ' says ', h('em', null, pinocchioWords(c.claim)), c.free ? ' (free)' : ''),
    face,
    verdict);
}

// The cards left over at the deal stay in the box, unseen: the counter says so on hover.
function boxCounter(n) {
  const el = counter('out of play', n);
  el.title = 'Cards left over at the deal: they stay in the box, unseen, all game.';
  return el;
}

export default {
  seatInfo(ctx, seat) {
    const v = ctx.view;
    const stack = v.stacks?.[seat] ?? 0;
    return h('div.seat-info', null,
      h('div.seat-stats', null,
        h('div.pino-stack', { title: 'A face-down stack: its top card is played next, unseen until then.' },
          stack > 0 ? cardBack({ theme: 'pino-back', label: `stack: ${plural(stack, 'card')} to play`, caption: stack }) : null,
          h('span.stack-words', { 'aria-hidden': 'true' }, stack > 0 ? `${plural(stack, 'card')} to play` : 'no cards left')),
        h('div.nose-row', null, noseSvg(v.noses?.[seat] ?? 0), h('span.nose-count', null, `nose ${v.noses?.[seat] ?? 0}`))));
  },

  center(ctx) {
    const v = ctx.view;
    const size = v.pileSize ?? 0;
    const claims = h('div.claims', { 'aria-label': `pile of ${size} cards`, dataset: { zone: 'pile' } });
    // The cards under the claim on top: a face-down stack (what was said of them is in the log).
    const under = v.lastClaim ? size - 1 : size;
    if (under > 0) {
      claims.append(h('div.claim.under', null, h('div.bubble.plain', null, 'the pile'),
        cardBack({ theme: 'pino-back', label: `${under} cards under it`, caption: under })));
    }
    if (v.lastClaim) claims.append(claimCard(ctx, v.lastClaim, size - 1, true));
    if (size === 0) claims.append(h('div.card.slot-empty', { 'aria-label': 'the pile is empty' }));
    const answer = h('div.answer');
    if (ctx.binder.has((a) => a.move === 'believe' || a.move === 'challenge')) {
      const believe = h('button.big.believe', { type: 'button', dataset: { key: 'believe' } }, 'I believe you');
      const liar = h('button.big.liar', { type: 'button', dataset: { key: 'challenge' } }, 'Liar!');
      ctx.bind(believe, (a) => a.move === 'believe');
      ctx.bind(liar, (a) => a.move === 'challenge');
      answer.append(believe, liar);
    }
    let rule = '';
    const match = mustMatch(v);
    if (v.phase === 'play') rule = match ? `The next claim must match ${pinocchioWords(match)} in colour or clothing.` : 'The next claim is free.';
    return h('div.pino-center', null,
      h('div.felt-info', null, counter('pile', size), boxCounter(v.box ?? 0)),
      claims,
      rule ? h('p.rule', null, rule) : null,
      answer.childElementCount ? answer : null);
  },

  hand(ctx) {
    const v = ctx.view;
    const area = h('div.pino-hand');
    if (v.yourCard) {
      area.append(h('div.your-card', null, h('div.pile-label', null, 'your top card'),
        pinocchioCard(v.yourCard, { attrs: { dataset: { key: 'your-card' } } })));
    }
    if (!ctx.binder.has((a) => a.move === 'announce')) return area.childElementCount ? area : null;
    const grid = h('div.announce-grid', { role: 'group', 'aria-label': 'Say what your card is' });
    for (const colour of PINOCCHIO_COLOURS) {
      for (const kind of PINOCCHIO_CLOTHES) {
        const code = `${colour}-${kind}`;
        const b = h(`button.announce.pino-${colour}`, { type: 'button', 'aria-label': `say ${pinocchioWords(code)}`, title: pinocchioWords(code), dataset: { key: `say-${code}` } },
          clothingIcon(kind));
        ctx.bind(b, (a) => a.move === 'announce' && a.colour === colour && a.clothing === kind);
        grid.append(b);
      }
    }
    area.append(h('div.announce', null, h('div.pile-label', null, 'play your card and say it is…'), grid));
    return area;
  },

  prompt(ctx) {
    const v = ctx.view;
    const kinds = new Set((ctx.state.legal || []).map((a) => a.move));
    const last = v.lastClaim;
    if (kinds.has('believe') || kinds.has('challenge')) {
      const who = last ? ctx.name(last.by) : 'the last player';
      const what = last ? pinocchioWords(last.claim) : 'their card';
      return `${who} says the card is ${what}${v.phase === 'final-challenge' ? ' (the last card)' : ''}. Believe it, or call a lie.`;
    }
    if (kinds.has('announce')) {
      const card = v.yourCard ? ` (${pinocchioWords(v.yourCard)})` : '';
      const match = mustMatch(v);
      return match
        ? `play your top card${card} and say what it is: a claim that matches ${pinocchioWords(match)} in colour or clothing.`
        : `play your top card${card} and say what it is: any claim.`;
    }
    return '';
  },

  doing(ctx) {
    const v = ctx.view;
    if (v.phase === 'challenge' || v.phase === 'final-challenge') {
      const last = v.lastClaim;
      return last ? `to believe or doubt ${last.by === ctx.me ? 'your' : `${ctx.name(last.by)}'s`} claim` : 'to believe or doubt the claim';
    }
    if (v.phase === 'play') return 'to play a card and make a claim';
    return '';
  },

  score(ctx, r) {
    const noses = ctx.view.noses || r.scores || [];
    return {
      note: 'The shortest nose wins: a nose grows for every lie found out and for every wrong challenge.',
      columns: [{ title: 'Nose', cell: (seat) => String(noses[seat] ?? '') }],
    };
  },
};
