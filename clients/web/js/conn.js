// One WebSocket to the Campfire server that says hello, matches replies to requests by id, and
// comes back by itself after a dropped connection. It asks for update frames with patched states
// and hands on the events and states they stand for, as plain `event` and `state` messages.

import { UpdateReader } from './updates.js';

export class ServerError extends Error {
  constructor(code, message) {
    super(message || code);
    this.code = code;
  }
}

export class Connection {
  constructor({ name, onPush, onStatus, onReady }) {
    this.name = name;
    this.onPush = onPush;      // (message) for states, events, chat, game_over, unsolicited errors
    this.onStatus = onStatus;  // ('connecting' | 'online' | 'reconnecting' | 'offline')
    this.onReady = onReady;    // (isReconnect) after every successful hello
    this.nextId = 1;
    this.pending = new Map();
    this.ws = null;
    this.ready = false;
    this.everReady = false;
    this.retries = 0;
    this.closedByUs = false;
    this.retryTimer = null;
    this.updates = new UpdateReader();
  }

  url() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${scheme}//${location.host}/ws`;
  }

  open() {
    this.closedByUs = false;
    this.onStatus(this.everReady ? 'reconnecting' : 'connecting');
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    this.updates.reset();
    ws.addEventListener('open', () => this.greet());
    ws.addEventListener('message', (e) => this.receive(e.data));
    ws.addEventListener('close', () => this.dropped(ws));
    ws.addEventListener('error', () => {});  // 'close' follows and handles it
  }

  // Every hello asks for deltas, a rename's too: a server that knows no `updates` ignores it and
  // sends plain states and events, which are handled alike.
  hello(name) {
    return { type: 'hello', protocol: 1, name, updates: 'delta' };
  }

  async greet() {
    try {
      const welcome = await this.request(this.hello(this.name), true);
      this.name = welcome.name;
      this.ready = true;
      const again = this.everReady;
      this.everReady = true;
      this.retries = 0;
      this.onStatus('online');
      this.onReady(again);
    } catch (e) {
      if (e.code === 'bad_name') {
        // The stored name was refused: fall back to a plain one rather than loop.
        this.name = 'Player';
        this.greet();
      }
    }
  }

  dropped(ws) {
    if (ws !== this.ws) return;
    this.ready = false;
    for (const { reject } of this.pending.values()) reject(new ServerError('disconnected', 'connection lost'));
    this.pending.clear();
    if (this.closedByUs) return;
    this.scheduleRetry();
  }

  scheduleRetry() {
    this.onStatus('reconnecting');
    const delay = Math.min(5000, 300 * 2 ** this.retries);
    this.retries = Math.min(this.retries + 1, 6);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  // Drops the socket as a network failure would; the usual reconnect follows.
  simulateDrop() {
    if (this.ws) this.ws.close();
  }

  receive(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (msg.id !== undefined && this.pending.has(msg.id)) {
      const { resolve, reject } = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (msg.type === 'error') reject(new ServerError(msg.code, msg.message));
      else resolve(msg);
      return;
    }
    const { messages, sync } = this.updates.read(msg);
    for (const m of messages) this.onPush(m);
    if (sync) this.request({ type: 'sync', room: sync }).catch(() => {});
  }

  // Sends a request and resolves with its reply (rejects with ServerError on `error`).
  request(body, beforeReady = false) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || (!this.ready && !beforeReady)) {
      return Promise.reject(new ServerError('disconnected', 'not connected'));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...body, id }));
    });
  }

  async rename(name) {
    const welcome = await this.request(this.hello(name));
    this.name = welcome.name;
    return welcome.name;
  }
}
