// Update frames: with `"updates": "patch"` in hello the server sends one `update` per change of a
// room, its state either whole or as a merge patch against the last state this connection was
// sent. This turns each frame back into the `event` and `state` messages the rest of the client
// handles, so nothing past the connection knows the difference. No DOM, no socket: node tests it.

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// Sets a member even when its name is `__proto__`, which plain assignment would take as the
// object's prototype.
function setMember(object, key, value) {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

// A JSON merge patch (RFC 7386) applied to `target`, which is left untouched: a member set to
// null is removed, an object merges into the member (or into {}), anything else replaces it.
export function mergePatch(target, patch) {
  if (!isObject(patch)) return patch;
  const out = {};
  if (isObject(target)) for (const [key, value] of Object.entries(target)) setMember(out, key, value);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else setMember(out, key, mergePatch(Object.hasOwn(out, key) ? out[key] : undefined, value));
  }
  return out;
}

// Per room, the last state received: the base the next patch applies to.
export class UpdateReader {
  constructor() {
    this.held = new Map();     // room code -> state message (a private copy)
    this.syncing = new Set();  // rooms whose patch did not fit, a sync already asked for
  }

  // A new connection: the server knows no earlier state of ours, nor we of its.
  reset() {
    this.held.clear();
    this.syncing.clear();
  }

  // What one message from the server amounts to: `messages` to handle in order, as if they had
  // come as they are, and `sync`, a room whose state must be asked for again (or null). A patch
  // against another state than the one held cannot be applied: its events still count, its state
  // is dropped until the sync's full state arrives (asked for once, however many patches miss).
  read(msg) {
    if (msg.type === 'state') {
      this.hold(msg.room, msg);
      return { messages: [msg], sync: null };
    }
    if (msg.type !== 'update') return { messages: [msg], sync: null };
    const messages = (msg.events || []).map((event) => ({ type: 'event', room: msg.room, version: msg.version, event }));
    let state = null;
    if (isObject(msg.state)) {
      state = msg.state;
    } else {
      const held = this.held.get(msg.room);
      if (held && held.version === msg.base && isObject(msg.patch)) state = mergePatch(held, msg.patch);
    }
    if (!state) {
      this.held.delete(msg.room);
      if (this.syncing.has(msg.room)) return { messages, sync: null };
      this.syncing.add(msg.room);
      return { messages, sync: msg.room };
    }
    messages.push(this.hold(msg.room, state));
    return { messages, sync: null };
  }

  // Keeps a copy of its own, so that whoever handles the state may change it freely; hands back
  // the state to handle.
  hold(room, state) {
    this.held.set(room, structuredClone(state));
    this.syncing.delete(room);
    return state;
  }
}
