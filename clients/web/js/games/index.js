// One table per game; anything else gets the generic one.
//
// A table is an object of functions of a drawing context (ctx: the state, its view, your seat,
// names, and `bind` to make an element play legal actions):
//   seatInfo(ctx, seat)  what a seat box shows under the player's name
//   center(ctx)          the middle of the felt
//   hand(ctx)            your hand, docked at the bottom (null when the seat box holds it)
//   prompt(ctx)          optional: what you may do now, in words ("draw a card, or pass.")
//   doing(ctx, seats)    optional: what the table waits for those seats to do ("to lead")
//   score(ctx, result)   optional: the result's columns in the game's own terms, and a note
//   remember(e, memory, state)  optional: notes from events; returns ms to redraw after
import pinocchio from './pinocchio.js';
import nakedGibbon from './naked-gibbon.js';
import fibFibonacci from './fib-fibonacci.js';
import spiderMonkey from './spider-monkey.js';
import trickyTribes from './tricky-tribes.js';
import generic from './generic.js';

const tables = {
  pinocchio,
  'naked-gibbon': nakedGibbon,
  'fib-fibonacci': fibFibonacci,
  'spider-monkey': spiderMonkey,
  'tricky-tribes': trickyTribes,
};

export function gameTable(id) {
  return tables[id] || generic;
}
