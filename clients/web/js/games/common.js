// Pieces several tables share: a hand of French cards, a labelled pile, counters.
import { h } from '../dom.js';
import { frenchCard, cardBack } from '../cards.js';

// Your hand: each card a button that plays the legal actions naming it.
export function frenchHand(ctx, cards, { label = 'Your hand', pred, title } = {}) {
  const row = h('div.hand', { role: 'group', 'aria-label': label });
  (cards || []).forEach((code, i) => {
    const btn = frenchCard(code, { tag: 'button', attrs: { dataset: { key: `hand-${code}-${i}` } } });
    ctx.bind(btn, pred ? pred(code) : (a) => a.card === code, title ? title(code) : undefined);
    row.append(btn);
  });
  if (!cards || cards.length === 0) row.append(h('span.empty-hand', null, 'no cards in hand'));
  return row;
}

export function pileOf(label, content, extraClass) {
  return h(`div.pile${extraClass ? '.' + extraClass : ''}`, null, h('div.pile-label', null, label), content);
}

export function faceDownPile(count, label, theme) {
  return count > 0
    ? cardBack({ label: `${label}: ${count} cards`, caption: count, theme })
    : h('div.card.slot-empty', { 'aria-label': `${label}: empty` });
}

export function counter(label, value) {
  return h('span.counter', null, h('span.counter-label', null, label), h('b', null, String(value)));
}
