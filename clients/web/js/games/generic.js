// Any game without its own table: the view as a readable list, card codes drawn as cards,
// every legal action as a button.
import { h } from '../dom.js';
import { frenchCard } from '../cards.js';

const FRENCH = /^([2-9TJQKA][CDHS]|X[12])$/;

function value(v) {
  if (Array.isArray(v)) {
    if (v.length && v.every((x) => typeof x === 'string' && FRENCH.test(x))) {
      return h('div.hand.small', null, v.map((c) => frenchCard(c)));
    }
    return h('span', null, v.map((x) => (typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x))).join(', '));
  }
  if (typeof v === 'string' && FRENCH.test(v)) return frenchCard(v);
  if (v && typeof v === 'object') return h('code', null, JSON.stringify(v));
  return h('span', null, String(v));
}

export default {
  seatInfo() {
    return null;
  },
  center(ctx) {
    const dl = h('dl.generic');
    for (const [k, v] of Object.entries(ctx.view || {})) {
      if (k === 'result') continue;
      dl.append(h('dt', null, k), h('dd', null, value(v)));
    }
    return dl;
  },
  hand() {
    return null;
  },
};
