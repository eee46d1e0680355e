// Pinocchio: stacks and noses at every seat, the pile of claims in the middle, the announcement
// grid (colour x clothing) and "I believe you" / "Liar!" for the claim in front of you.
import { h } from '../dom.js';
import {
  pinocchioCard, pinocchioWords, cardBack, noseSvg, clothingIcon, PINOCCHIO_COLOURS, PINOCCHIO_CLOTHES,
} from '../cards.js';
import { counter } from './common.js';

function claimCard(ctx, c, index, latest) {
  let face;
  if (c.revealed) {
    face = pinocchioCard(c.revealed, { label: `${pinocchioWords(c.revealed)}, revealed` });
  } else if (c.card) {
    face = pinocchioCard(c.card, { label: `${pinocchioWords(c.card)}, the card you played` });
    face.classList.add('own-card');
  } else {
    face = cardBack({ theme: 'pino-back', label: 'a face-down card' });
  }
  const verdict = c.revealed
    ? h(`span.verdict.${c.truthful ? 'truth' : 'lie'}`, null, c.truthful ? 'truth' : 'lie!')
    : !c.challengeable ? h('span.verdict.safe', null, 'no challenge') : null;
  return h(`div.claim${latest ? '.latest' : ''}`, { style: { '--i': String(index) } },
    h('div.bubble', null, h('b', null, ctx.name(c.by)), ' says ', h('em', null, pinocchioWords(c.claim)), c.free ? ' (free)' : ''),
    face,
    verdict);
}

export default {
  seatInfo(ctx, seat) {
    const v = ctx.view;
    const stack = v.stacks?.[seat] ?? 0;
    return h('div.seat-info', null,
      h('div.pino-stack', null, stack > 0 ? cardBack({ theme: 'pino-back', label: `${stack} cards in the stack`, caption: stack }) : h('span.empty', null, 'no cards')),
      h('div.nose-row', null, noseSvg(v.noses?.[seat] ?? 0), h('span.nose-count', null, `nose ${v.noses?.[seat] ?? 0}`)));
  },

  center(ctx) {
    const v = ctx.view;
    const pile = v.pile || [];
    const shown = pile.slice(-5);
    const claims = h('div.claims', { 'aria-label': `pile of ${pile.length} cards` });
    shown.forEach((c, i) => claims.append(claimCard(ctx, c, i, i === shown.length - 1)));
    if (pile.length === 0) claims.append(h('div.card.slot-empty', { 'aria-label': 'the pile is empty' }));
    const answer = h('div.answer');
    if (ctx.binder.has((a) => a.move === 'believe' || a.move === 'challenge')) {
      const believe = h('button.big.believe', { type: 'button', dataset: { key: 'believe' } }, 'I believe you');
      const liar = h('button.big.liar', { type: 'button', dataset: { key: 'challenge' } }, 'Liar!');
      ctx.bind(believe, (a) => a.move === 'believe');
      ctx.bind(liar, (a) => a.move === 'challenge');
      answer.append(believe, liar);
    }
    let rule = '';
    if (v.phase === 'play') rule = v.mustMatch ? `Next claim must match ${pinocchioWords(v.mustMatch)} in colour or clothing` : 'Next claim is free';
    else if (v.phase === 'challenge' || v.phase === 'final-challenge') rule = 'Believe the claim, or call a lie';
    return h('div.pino-center', null,
      h('div.felt-info', null, counter('pile', pile.length), counter('box', v.box ?? 0), pile.length > 5 ? h('span.muted', null, `latest ${shown.length} shown`) : null),
      claims,
      rule ? h('p.rule', null, rule) : null,
      answer);
  },

  hand(ctx) {
    const v = ctx.view;
    const area = h('div.pino-hand');
    if (v.yourCard) {
      area.append(h('div.your-card', null, h('div.pile-label', null, 'your top card'), pinocchioCard(v.yourCard)));
    }
    if (!ctx.binder.has((a) => a.move === 'announce')) return area;
    const grid = h('div.announce-grid', { role: 'group', 'aria-label': 'Say what your card is' });
    for (const colour of PINOCCHIO_COLOURS) {
      for (const kind of PINOCCHIO_CLOTHES) {
        const code = `${colour}-${kind}`;
        const b = h(`button.announce.pino-${colour}`, { type: 'button', 'aria-label': `say ${pinocchioWords(code)}`, dataset: { key: `say-${code}` } },
          clothingIcon(kind));
        ctx.bind(b, (a) => a.move === 'announce' && a.colour === colour && a.clothing === kind);
        grid.append(b);
      }
    }
    area.append(h('div.announce', null, h('div.pile-label', null, 'play your card and say it is…'), grid));
    return area;
  },
};
