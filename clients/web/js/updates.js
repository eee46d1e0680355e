// Update frames: with `"updates": "delta"` in hello the server sends one `update` per change of a
// room, its state either whole or as a merge patch against the last state this connection was
// sent, a legal list sent before given by its number and one sent whole written as rows (`patch`
// frames, with a `base` and no numbers or rows, are read too). This turns each frame back into
// the `event` and `state` messages the rest of the client handles, so nothing past the
// connection knows the difference. No DOM, no socket: node tests it.

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

// A delta's legal list back as the objects it stands for (PROTOCOL.md, "delta"): each array is
// the action with the member names of the nearest object before it, in their order, and the
// array's elements as their values. The server writes names in name order and never names a
// member like an array index, so Object.keys lists them in the order of the text. Null for a
// row with no object before it or of another length: the list cannot be read.
export function expandRows(legal) {
  let names = null;
  const out = [];
  for (const action of legal) {
    if (Array.isArray(action)) {
      if (names === null || action.length !== names.length) return null;
      const object = {};
      names.forEach((name, i) => setMember(object, name, action[i]));
      out.push(object);
    } else {
      if (isObject(action)) names = Object.keys(action);
      out.push(action);
    }
  }
  return out;
}

// How many of the last numbered legal lists a delta may name (PROTOCOL.md, "update").
const REMEMBERED = 16;

// Per room, the last state received (the base the next patch applies to) and, for deltas, the
// legal lists numbered since the last whole state.
export class UpdateReader {
  constructor() {
    this.held = new Map();     // room code -> { state (a private copy), numbered, next }
    this.syncing = new Set();  // rooms whose patch did not fit, a sync already asked for
  }

  // A new connection: the server knows no earlier state of ours, nor we of its.
  reset() {
    this.held.clear();
    this.syncing.clear();
  }

  // What one message from the server amounts to: `messages` to handle in order, as if they had
  // come as they are, and `sync`, a room whose state must be asked for again (or null). A patch
  // against another state than the one held (a delta: not the version right after it), naming
  // a legal list not held, or with a row that stands for no action, cannot be applied: its events
  // still count, its state is dropped until the sync's full state arrives (asked for once, however
  // many patches miss).
  read(msg) {
    if (msg.type === 'state') {
      this.hold(msg.room, msg, true);
      return { messages: [msg], sync: null };
    }
    if (msg.type !== 'update') return { messages: [msg], sync: null };
    const messages = (msg.events || []).map((event) => ({ type: 'event', room: msg.room, version: msg.version, event }));
    let state = null;
    let whole = false;
    let numbered = false;
    if (isObject(msg.state)) {
      state = msg.state;
      whole = true;
    } else {
      const held = this.held.get(msg.room);
      const delta = !('base' in msg);
      const follows = held && (delta ? held.state.version + 1 === msg.version : held.state.version === msg.base);
      let patch = isObject(msg.patch) ? msg.patch : null;
      if (patch && delta && Array.isArray(patch.legal)) {
        // Rows are read back first: from here on the list is what a whole state would hold.
        const legal = expandRows(patch.legal);
        patch = legal ? { ...patch } : null;
        if (patch) setMember(patch, 'legal', legal);
      }
      if (follows && patch) {
        const legal = patch.legal;
        if (delta && Number.isInteger(legal)) {
          const oldest = held.next - held.numbered.length;
          if (legal >= oldest && legal < held.next) {
            const list = held.numbered[legal - oldest];
            state = mergePatch(held.state, patch);
            state.legal = structuredClone(list.legal);
            if ('labels' in list) state.labels = structuredClone(list.labels);
          }
        } else {
          state = mergePatch(held.state, patch);
          numbered = delta && Array.isArray(legal);
        }
        if (state) state.version = msg.version;
      }
    }
    if (!state) {
      this.held.delete(msg.room);
      if (this.syncing.has(msg.room)) return { messages, sync: null };
      this.syncing.add(msg.room);
      return { messages, sync: msg.room };
    }
    messages.push(this.hold(msg.room, state, whole, numbered));
    return { messages, sync: null };
  }

  // Keeps a copy of its own, so that whoever handles the state may change it freely; hands back
  // the state to handle. A whole state starts the numbering of legal lists again; a delta that
  // brought a list whole numbers it next.
  hold(room, state, whole, numbered = false) {
    const copy = structuredClone(state);
    let held = this.held.get(room);
    if (whole || !held) {
      held = { state: copy, numbered: [], next: 0 };
      this.held.set(room, held);
      numbered = true;
    } else {
      held.state = copy;
    }
    if (numbered && Array.isArray(copy.legal) && copy.legal.length > 0) {
      const list = { legal: copy.legal };
      if ('labels' in copy) list.labels = copy.labels;
      held.numbered.push(list);
      if (held.numbered.length > REMEMBERED) held.numbered.shift();
      held.next += 1;
    }
    this.syncing.delete(room);
    return state;
  }
}
