// One table per game; anything else gets the generic one.
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
