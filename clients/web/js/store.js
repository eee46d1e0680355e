// What the browser keeps between visits: the display name and one seat token per room.
const NAME_KEY = 'campfire.name';
const SEAT_PREFIX = 'campfire.seat.';

function safe(fn, fallback) {
  try {
    return fn();
  } catch {
    return fallback;  // storage disabled (private mode): the page still works, only without resume
  }
}

export function loadName() {
  return safe(() => localStorage.getItem(NAME_KEY), null) || '';
}

export function saveName(name) {
  safe(() => localStorage.setItem(NAME_KEY, name));
}

export function loadSeat(room) {
  const raw = safe(() => localStorage.getItem(SEAT_PREFIX + room.toUpperCase()), null);
  if (!raw) return null;
  try {
    const s = JSON.parse(raw);
    return typeof s.token === 'string' ? s : null;
  } catch {
    return null;
  }
}

export function saveSeat(room, seat, token) {
  safe(() =>
    localStorage.setItem(SEAT_PREFIX + room.toUpperCase(), JSON.stringify({ seat, token, at: Date.now() })));
}

export function forgetSeat(room) {
  safe(() => localStorage.removeItem(SEAT_PREFIX + room.toUpperCase()));
}
