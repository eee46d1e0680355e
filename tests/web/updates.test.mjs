// Update frames in the browser client, without a browser: the merge patch, the reader that turns
// an `update` back into `event` and `state` messages, and the connection that asks for deltas
// and sends `sync` when a patch does not fit the state it holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expandRows, mergePatch, UpdateReader } from '../../clients/web/js/updates.js';
import { Connection } from '../../clients/web/js/conn.js';

test('a merge patch removes members set to null, merges objects and replaces everything else', () => {
  const before = { a: 'b', c: { d: 'e', f: 'g' }, list: [1, 2, 3], keep: { deep: [0] } };
  const after = mergePatch(before, { a: 'z', c: { f: null, h: 1 }, list: [4], n: null });
  assert.deepEqual(after, { a: 'z', c: { d: 'e', h: 1 }, list: [4], keep: { deep: [0] } });
  assert.deepEqual(before, { a: 'b', c: { d: 'e', f: 'g' }, list: [1, 2, 3], keep: { deep: [0] } }, 'the target is left as it was');
});

test('a merge patch follows the examples of its definition', () => {
  // RFC 7386, appendix A.
  const cases = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  for (const [target, patch, result] of cases) {
    assert.deepEqual(mergePatch(target, patch), result, JSON.stringify({ target, patch }));
  }
});

test('a member called __proto__ is a member like any other', () => {
  const after = mergePatch({}, JSON.parse('{"__proto__": {"x": 1}}'));
  assert.equal(Object.getPrototypeOf(after), Object.prototype);
  assert.deepEqual(Object.keys(after), ['__proto__']);
  assert.equal(({}).x, undefined);
});

const state11 = {
  type: 'state', room: 'K7QX2M', version: 11, status: 'playing', seat: 1, toAct: [0],
  view: { phase: 'play', stacks: [3, 3], yourCard: 'red-hat' }, legal: [], labels: [],
};

test('a state is handed on as it came and becomes the base of the next patch', () => {
  const reader = new UpdateReader();
  assert.deepEqual(reader.read(state11), { messages: [state11], sync: null });
  const { messages, sync } = reader.read({
    type: 'update', room: 'K7QX2M', version: 12, base: 11,
    events: [{ type: 'announce', seat: 0, text: 'Andrea plays a card' }],
    patch: { version: 12, toAct: [1], view: { stacks: [2, 3] }, legal: [{ move: 'pass' }], labels: ['pass'] },
  });
  assert.equal(sync, null);
  assert.deepEqual(messages, [
    { type: 'event', room: 'K7QX2M', version: 12, event: { type: 'announce', seat: 0, text: 'Andrea plays a card' } },
    { ...state11, version: 12, toAct: [1], view: { phase: 'play', stacks: [2, 3], yourCard: 'red-hat' },
      legal: [{ move: 'pass' }], labels: ['pass'] },
  ]);
});

test('patches chain, each on the state the last one made, whatever the client did to it', () => {
  const reader = new UpdateReader();
  reader.read(structuredClone(state11));
  const first = reader.read({ type: 'update', room: 'K7QX2M', version: 12, base: 11, events: [], patch: { version: 12, view: { yourCard: null } } });
  const made = first.messages[0];
  made.view.stacks.push(99);  // a handler scribbling on what it was given
  const second = reader.read({ type: 'update', room: 'K7QX2M', version: 13, base: 12, events: [], patch: { version: 13, toAct: [] } });
  assert.equal(second.sync, null);
  assert.deepEqual(second.messages, [{ ...state11, version: 13, toAct: [], view: { phase: 'play', stacks: [3, 3] } }]);
});

test('an update with a whole state needs no base', () => {
  const reader = new UpdateReader();
  const state = { ...state11, version: 12 };
  const { messages, sync } = reader.read({ type: 'update', room: 'K7QX2M', version: 12, events: [], state });
  assert.equal(sync, null);
  assert.deepEqual(messages, [state]);
  const next = reader.read({ type: 'update', room: 'K7QX2M', version: 13, base: 12, events: [], patch: { version: 13 } });
  assert.deepEqual(next.messages, [{ ...state, version: 13 }]);
});

test('a patch on another version than the one held asks for a sync, once, and keeps its events', () => {
  const reader = new UpdateReader();
  reader.read(state11);
  const event = { type: 'drew', text: 'you drew' };
  const missed = reader.read({ type: 'update', room: 'K7QX2M', version: 14, base: 13, events: [event], patch: { version: 14 } });
  assert.deepEqual(missed, { messages: [{ type: 'event', room: 'K7QX2M', version: 14, event }], sync: 'K7QX2M' });
  const again = reader.read({ type: 'update', room: 'K7QX2M', version: 15, base: 14, events: [], patch: { version: 15 } });
  assert.deepEqual(again, { messages: [], sync: null }, 'no state, and the sync already asked for is not asked again');
  const fresh = { ...state11, version: 15 };
  assert.deepEqual(reader.read(fresh), { messages: [fresh], sync: null });
  const after = reader.read({ type: 'update', room: 'K7QX2M', version: 16, base: 15, events: [], patch: { version: 16 } });
  assert.deepEqual(after, { messages: [{ ...fresh, version: 16 }], sync: null });
  const lost = reader.read({ type: 'update', room: 'K7QX2M', version: 18, base: 17, events: [], patch: { version: 18 } });
  assert.equal(lost.sync, 'K7QX2M', 'after a full state, the next miss asks again');
});

test('a patch for a room with no state held asks for a sync; other messages pass untouched', () => {
  const reader = new UpdateReader();
  reader.read(state11);
  assert.equal(reader.read({ type: 'update', room: 'OTHER2', version: 3, base: 2, events: [], patch: {} }).sync, 'OTHER2');
  for (const msg of [{ type: 'chat', room: 'K7QX2M', text: 'hi' }, { type: 'game_over', room: 'K7QX2M', result: {} }]) {
    assert.deepEqual(reader.read(msg), { messages: [msg], sync: null });
  }
  reader.reset();
  assert.equal(reader.read({ type: 'update', room: 'K7QX2M', version: 12, base: 11, events: [], patch: {} }).sync, 'K7QX2M',
    'a new connection starts from nothing');
});

test('deltas follow each other without a base and name legal lists sent before by number', () => {
  const reader = new UpdateReader();
  const bids = [{ move: 'pass' }, { move: 'bid' }];
  const first = { ...state11, legal: bids, labels: ['pass', 'bid'] };
  reader.read(first);  // list 0
  const d = (version, patch) => reader.read({ type: 'update', room: 'K7QX2M', version, events: [], patch });
  assert.deepEqual(d(12, { toAct: [1], legal: [], labels: [] }).messages,
    [{ ...first, version: 12, toAct: [1], legal: [], labels: [] }]);
  assert.deepEqual(d(13, { legal: [{ move: 'play' }], labels: ['play'] }).messages,  // list 1
    [{ ...first, version: 13, toAct: [1], legal: [{ move: 'play' }], labels: ['play'] }]);
  assert.deepEqual(d(14, { legal: 0 }).messages, [{ ...first, version: 14, toAct: [1] }]);
  assert.deepEqual(d(15, { legal: 1 }).messages,
    [{ ...first, version: 15, toAct: [1], legal: [{ move: 'play' }], labels: ['play'] }]);
  assert.equal(d(16, { legal: 2 }).sync, 'K7QX2M', 'no list 2 was sent');
  reader.read({ ...first, version: 15 });
  assert.equal(d(17, {}).sync, 'K7QX2M', 'a delta must follow the version held');
});

test('only the last sixteen numbered legal lists can be named', () => {
  const reader = new UpdateReader();
  reader.read(state11);
  for (let n = 0; n < 20; n += 1) {
    const read = reader.read({ type: 'update', room: 'K7QX2M', version: 12 + n, events: [], patch: { legal: [{ move: 'bid', amount: n }] } });
    assert.equal(read.sync, null);
  }
  const named = reader.read({ type: 'update', room: 'K7QX2M', version: 32, events: [], patch: { legal: 4 } });
  assert.equal(named.messages[0].legal[0].amount, 4);
  assert.equal(reader.read({ type: 'update', room: 'K7QX2M', version: 33, events: [], patch: { legal: 3 } }).sync, 'K7QX2M');
});

test('a delta\'s rows are read back as the actions they stand for, before the list is numbered', () => {
  const reader = new UpdateReader();
  reader.read(state11);
  const rows = [{ card: '4C', move: 'respond' }, ['5C', 'respond'], { move: 'pass' }, ['concede'],
    { move: 'place', slots: [0, 2] }, ['place', [1]], ['place', []]];
  const actions = [{ card: '4C', move: 'respond' }, { card: '5C', move: 'respond' }, { move: 'pass' }, { move: 'concede' },
    { move: 'place', slots: [0, 2] }, { move: 'place', slots: [1] }, { move: 'place', slots: [] }];
  const d = (version, patch) => reader.read({ type: 'update', room: 'K7QX2M', version, events: [], patch });
  assert.deepEqual(d(12, { legal: rows }), { messages: [{ ...state11, version: 12, legal: actions }], sync: null });  // list 0 (the state had none)
  d(13, { legal: [] });
  assert.deepEqual(d(14, { legal: 0 }).messages[0].legal, actions, 'a number gives back the actions');
  const named = expandRows(JSON.parse('[{"__proto__": 1, "move": "x"}, [2, "y"]]'));
  assert.deepEqual(Object.keys(named[1]), ['__proto__', 'move']);
  assert.equal(Object.getPrototypeOf(named[1]), Object.prototype);
});

test('a row that stands for no action asks for a sync and keeps the events', () => {
  for (const bad of [[['4C', 'respond']], [{ card: '4C', move: 'respond' }, ['5C']], [{ move: 'pass' }, ['pass', 1]]]) {
    const reader = new UpdateReader();
    reader.read(state11);
    const event = { type: 'drew' };
    assert.deepEqual(reader.read({ type: 'update', room: 'K7QX2M', version: 12, events: [event], patch: { legal: bad } }),
      { messages: [{ type: 'event', room: 'K7QX2M', version: 12, event }], sync: 'K7QX2M' }, JSON.stringify(bad));
    assert.equal(reader.read({ type: 'update', room: 'K7QX2M', version: 13, events: [], patch: {} }).sync, null, 'asked once');
  }
});

// A socket that records what the client sends and lets the test play the server.
class FakeSocket {
  static OPEN = 1;
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = FakeSocket.OPEN;
    this.sent = [];
    this.listeners = {};
    FakeSocket.made.push(this);
  }
  addEventListener(kind, f) { this.listeners[kind] = f; }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() {}
  serve(msg) { this.listeners.message({ data: JSON.stringify(msg) }); }
}

test('the connection asks for deltas and hands on events and states, and syncs on a miss', async () => {
  globalThis.location = { protocol: 'http:', host: 'campfire.test' };
  globalThis.WebSocket = FakeSocket;
  const pushed = [];
  let ready = false;
  const conn = new Connection({ name: 'Bella', onPush: (m) => pushed.push(m), onStatus: () => {}, onReady: () => { ready = true; } });
  conn.open();
  const ws = FakeSocket.made.at(-1);
  ws.listeners.open();
  assert.deepEqual(ws.sent, [{ type: 'hello', protocol: 1, name: 'Bella', updates: 'delta', id: 1 }]);
  ws.serve({ type: 'welcome', id: 1, protocol: 1, server: 'campfire', name: 'Bella', updates: 'delta' });
  await new Promise((resolve) => setImmediate(resolve));
  assert.ok(ready);

  ws.serve(state11);
  ws.serve({ type: 'update', room: 'K7QX2M', version: 12, base: 11, events: [{ type: 'x', text: 'x' }], patch: { version: 12 } });
  assert.deepEqual(pushed, [state11, { type: 'event', room: 'K7QX2M', version: 12, event: { type: 'x', text: 'x' } }, { ...state11, version: 12 }]);

  ws.serve({ type: 'update', room: 'K7QX2M', version: 14, base: 13, events: [], patch: { version: 14 } });
  assert.deepEqual(ws.sent.at(-1), { type: 'sync', room: 'K7QX2M', id: 2 });
  assert.equal(pushed.length, 3, 'no state from a patch that did not fit');

  const renamed = conn.rename('Bee');
  assert.deepEqual(ws.sent.at(-1), { type: 'hello', protocol: 1, name: 'Bee', updates: 'delta', id: 3 });
  ws.serve({ type: 'welcome', id: 3, protocol: 1, server: 'campfire', name: 'Bee' });
  assert.equal(await renamed, 'Bee');
  clearTimeout(conn.retryTimer);
});
