// Card movement: a card that arrives somewhere on the table (the pile, a trick, a run, the fire)
// flies there from where it was on the previous drawing (your hand, a slot) or, when it was not
// on screen, from the seat box of whoever played it. The table is redrawn from scratch on every
// state, so this measures before and after a redraw and animates the difference (FLIP: first,
// last, invert, play). The flight is a copy of the card above the page, so no scrolling part of
// the table clips it. Nothing moves when the user prefers reduced motion.
//
// What the tables mark:
//   data-token="..."  on a card: its identity across drawings (a card code, or "claim-7").
//   data-zone="..."   on a container: a place cards arrive at (pile, trick, run-3, fire).
//   data-from-key     on an arriving card: the data-key of the element it left (your top card).
//   data-from-seat    on an arriving card: the seat that played it (its box is the fallback).

const FLIGHT_MS = 380;

export function reducedMotion() {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export class Motion {
  constructor() {
    this.arrivals = 0;  // cards that arrived somewhere since the table opened (read by the tests)
    this.flights = 0;   // of those, the ones animated (none when motion is reduced)
    this.last = [];     // what arrived with the last redraw: [{token, zone}]
    this.before = null;
    this.ghosts = new Set();
  }

  // Every flight still under way lands at once: before the next redraw, and when the window
  // changes size (a flight is aimed at where its card was; after a resize that place may be off
  // screen, and the card itself would stay hidden until the flight ends).
  settle() {
    for (const anim of this.ghosts) anim.finish();
  }

  // Remembers where every token, keyed element and seat box is, and which token sat in which zone.
  measure(root) {
    this.settle();
    const rects = new Map();
    const keys = new Map();
    const seats = new Map();
    const placed = new Set();
    for (const el of root.querySelectorAll('[data-token]')) {
      rects.set(el.dataset.token, el.getBoundingClientRect());
      const zone = el.closest('[data-zone]')?.dataset.zone;
      if (zone) placed.add(`${zone}|${el.dataset.token}`);
    }
    for (const el of root.querySelectorAll('[data-key]')) keys.set(el.dataset.key, el.getBoundingClientRect());
    for (const el of root.querySelectorAll('.seat[data-seat]')) seats.set(el.dataset.seat, el.getBoundingClientRect());
    this.before = { rects, keys, seats, placed };
  }

  // After a redraw: every token newly in a zone flies in from where it came from.
  play(root) {
    const before = this.before;
    this.before = null;
    this.last = [];
    if (!before) return;
    const still = reducedMotion();
    for (const el of root.querySelectorAll('[data-zone] [data-token]')) {
      const zone = el.closest('[data-zone]').dataset.zone;
      const token = el.dataset.token;
      if (before.placed.has(`${zone}|${token}`)) continue;
      const from = before.rects.get(token)
        || (el.dataset.fromKey && before.keys.get(el.dataset.fromKey))
        || (el.dataset.fromSeat !== undefined && before.seats.get(el.dataset.fromSeat));
      if (!from) continue;
      const to = el.getBoundingClientRect();
      if (!to.width || !to.height) continue;
      const dx = from.left + from.width / 2 - (to.left + to.width / 2);
      const dy = from.top + from.height / 2 - (to.top + to.height / 2);
      if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;
      this.last.push({ token, zone });
      this.arrivals++;
      if (still) continue;
      this.flights++;
      this.fly(el, to, dx, dy, Math.max(0.35, Math.min(2, from.width / to.width)));
    }
  }

  fly(el, to, dx, dy, scale) {
    const ghost = el.cloneNode(true);
    ghost.removeAttribute('data-token');
    ghost.removeAttribute('data-key');
    ghost.removeAttribute('id');
    ghost.setAttribute('aria-hidden', 'true');
    ghost.classList.remove('playable');
    ghost.classList.add('flying');
    Object.assign(ghost.style, {
      position: 'fixed', left: `${to.left}px`, top: `${to.top}px`, width: `${to.width}px`, height: `${to.height}px`,
      margin: '0', zIndex: '50', pointerEvents: 'none',
    });
    ghost.style.setProperty('--card-w', `${to.width}px`);
    document.body.append(ghost);
    el.style.visibility = 'hidden';
    const anim = ghost.animate(
      [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: 'none' }],
      { duration: FLIGHT_MS, easing: 'cubic-bezier(.2,.7,.3,1)' },
    );
    this.ghosts.add(anim);
    const land = () => {
      this.ghosts.delete(anim);
      ghost.remove();
      el.style.visibility = '';
    };
    anim.onfinish = land;
    anim.oncancel = land;
  }
}
