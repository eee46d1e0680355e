// The replay viewer (#/replay/CODE): steps through a finished game with every hand shown and
// the events in words. The server replays the stored game and sends, for every step, each
// seat's view and the events of that step (GET /api/replays/CODE/steps); the page only draws
// them with the same tables as a live game, so no rule of any game runs here.
import { h, clear } from './dom.js';
import { ActionBinder } from './actions.js';
import { TableView } from './table.js';
import { names } from './words.js';

const CHUNK = 40;
const SPEEDS = [['0.5', 'slow'], ['1', 'normal'], ['2', 'fast'], ['4', 'very fast']];
const STEP_MS = 1300;

export class ReplayView extends TableView {
  constructor(root, { code, gameName, onLeave, onRules }) {
    super(root, { conn: null, room: code, gameName, onPlayAgain: null, onLeave, onTakeSeat: null, onRules });
    this.code = code;
    this.steps = [];
    this.total = 0;
    this.at = -1;
    this.viewer = 0;     // whose seat the table is seen from
    this.speed = 1;
    this.playing = null;
    this.loading = new Map();
    this.onArrow = (e) => {
      if (e.target.closest?.('input, select, textarea') || document.querySelector('dialog[open]')) return;
      if (e.key === 'ArrowRight') this.go(this.at + 1);
      else if (e.key === 'ArrowLeft') this.go(this.at - 1);
      else if (e.key === 'Home') this.go(0);
      else if (e.key === 'End') this.go(this.total - 1);
      else if (e.key === ' ') this.togglePlay();
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', this.onArrow);
  }

  destroy() {
    super.destroy();
    this.stop();
    document.removeEventListener('keydown', this.onArrow);
  }

  build() {
    clear(this.root);
    this.head = h('div.table-head');
    this.status = h('div.turn-line', { role: 'status', 'aria-live': 'polite' });
    this.notice = h('div.notice', { role: 'alert' });
    this.board = h('div.board');
    this.bar = h('div.action-bar', { hidden: true });
    this.controls = h('div.replay-controls', { role: 'group', 'aria-label': 'Replay controls' });
    this.logList = h('ol.log', { 'aria-label': 'What happened' });
    this.side = h('aside.side', { id: 'table-talk', 'aria-label': 'What happened' },
      h('div.side-head', null,
        h('h2', null, 'What happened'),
        h('button.secondary.small.talk-close', { type: 'button', 'aria-label': 'Close the events', onclick: () => this.toggleTalk(false) }, '×')),
      this.logList);
    this.countdown = h('div.countdown', { hidden: true });
    this.root.append(
      h('section.table-screen.replay', null,
        h('div.table-col', null, this.head, this.status, this.notice, this.board, this.controls),
        this.side),
    );
    clear(this.board).append(h('p.muted', null, 'Loading the replay…'));
  }

  // ---------- loading ----------

  async fetchChunk(from) {
    if (!this.loading.has(from)) {
      const p = (async () => {
        const res = await fetch(`/api/replays/${encodeURIComponent(this.code)}/steps?from=${from}&count=${CHUNK}`);
        if (!res.ok) {
          let message = `the server answered ${res.status}`;
          try {
            message = (await res.json()).message || message;
          } catch {
            // not JSON: keep the status
          }
          throw new Error(message);
        }
        const body = await res.json();
        this.info = body;
        this.total = body.total;
        body.steps.forEach((step, k) => {
          this.steps[body.from + k] = step;
        });
      })();
      p.catch(() => this.loading.delete(from));
      this.loading.set(from, p);
    }
    return this.loading.get(from);
  }

  async ensure(upTo) {
    for (let from = 0; from <= upTo; from += CHUNK) {
      if (!this.steps[Math.min(from + CHUNK, upTo + 1) - 1] || !this.steps[from]) await this.fetchChunk(from);
    }
  }

  async start() {
    try {
      await this.fetchChunk(0);
    } catch (e) {
      clear(this.board).append(h('p.notice-error', null, `This replay is not available: ${e.message}`),
        h('a.button.primary', { href: '#/' }, 'Back to the lobby'));
      return;
    }
    document.title = `Campfire · replay ${this.code}`;
    await this.go(0);
  }

  // ---------- moving ----------

  async go(i) {
    const target = Math.max(0, Math.min(i, this.total - 1));
    if (target === this.at && this.state) return;
    const token = (this.going = (this.going || 0) + 1);
    try {
      await this.ensure(target);
    } catch (e) {
      this.showNotice(`The replay did not load: ${e.message}`, 'error');
      this.stop();
      return;
    }
    if (token !== this.going) return;  // a later click won
    const forward = target === this.at + 1;
    this.at = target;
    this.show(forward);
    if (this.at >= this.total - 1) this.stop();
  }

  togglePlay() {
    if (this.playing) this.stop();
    else this.play();
  }

  play() {
    if (this.at >= this.total - 1) this.go(0);
    const tick = async () => {
      if (!this.playing) return;
      await this.go(this.at + 1);
      if (this.playing) this.playing = setTimeout(tick, STEP_MS / this.speed);
    };
    this.playing = setTimeout(tick, STEP_MS / this.speed / 2);
    this.renderControls();
  }

  stop() {
    clearTimeout(this.playing);
    this.playing = null;
    this.renderControls();
  }

  // ---------- drawing ----------

  players() {
    return (this.info.players || []).map((p, seat) => ({ seat, name: p?.name || `Seat ${seat + 1}`, connected: true, bot: !!p?.bot, away: false }));
  }

  stateAt(i) {
    const step = this.steps[i];
    const last = i === this.total - 1;
    return {
      room: this.code,
      version: i,
      game: this.info.game,
      status: last ? 'over' : 'playing',
      seat: this.viewer,
      players: this.players(),
      toAct: last ? [] : step.toAct || [],
      view: step.views[this.viewer],
      legal: [],
      labels: [],
      window: null,
      turn: null,
      options: this.info.options || {},
      result: last ? this.info.result : undefined,
    };
  }

  show(forward) {
    const state = this.stateAt(this.at);
    if (!forward) clear(this.logList);
    const from = forward ? this.at : 0;
    for (let k = from; k <= this.at; k++) this.logStep(k);
    this.result = null;
    this.update(state);
    this.renderControls();
  }

  logStep(k) {
    const step = this.steps[k];
    for (const e of step.events || []) {
      const li = e.to === null || e.to === undefined
        ? h('li.event', null, capitalised(e.text))
        : h('li.event.private', null, h('b', null, `${names(e.to.map((t) => this.name(t)))}: `), capitalised(e.text));
      li.dataset.step = String(k);
      this.logList.append(li);
    }
    this.logList.scrollTop = this.logList.scrollHeight;
  }

  // Every other seat's hand, drawn from that seat's own view of the same step.
  othersHand(mod, seat) {
    const view = this.steps[this.at]?.views?.[seat];
    if (!view || !mod.hand) return null;
    const ctx = { ...this.context(), view, me: seat, binder: new ActionBinder({ legal: [] }, () => {}) };
    ctx.bind = (el, pred, title) => ctx.binder.bind(el, pred, title);
    const hand = mod.hand(ctx);
    return hand ? h('div.replay-hand', { 'aria-label': `${this.name(seat)}'s hand` }, hand) : null;
  }

  renderHead() {
    clear(this.head);
    this.head.append(
      h('div.head-line', null,
        h('h1', null, `Replay: ${this.gameName(this.info.game)}`),
        h('span.room-code', { 'aria-label': `room ${this.code.split('').join(' ')}` }, this.code),
        h('span.head-tools', null,
          this.onRules ? h('button.secondary.small', { type: 'button', onclick: () => this.onRules(this.info.game, this.info.options || {}) }, 'Rules') : null,
          h('button.secondary.small.talk-toggle', { type: 'button', 'aria-controls': 'table-talk', onclick: () => this.toggleTalk() }, 'Events'),
          h('a.button.secondary.small', { href: '#/' }, 'Lobby'))));
  }

  renderTalkButton() {
    const b = this.head.querySelector('.talk-toggle');
    if (b) b.setAttribute('aria-expanded', String(this.side.classList.contains('open')));
  }

  pushLog(li) {
    this.logList.append(li);
  }

  statusWords() {
    const step = this.steps[this.at];
    const said = (step.events || []).filter((e) => e.to === null || e.to === undefined).map((e) => capitalised(e.text));
    const what = this.at === 0 ? 'The cards are dealt.' : said.join(' ') || 'A private move.';
    return { text: `Step ${this.at + 1} of ${this.total}: ${what}`, mine: false };
  }

  renderStatus() {
    super.renderStatus();
    this.status.classList.remove('my-turn');
  }

  renderControls() {
    if (!this.controls || !this.info) return;
    const last = this.total - 1;
    const button = (label, title, key, onclick, disabled) => h('button.secondary', { type: 'button', 'aria-label': title, title, dataset: { key }, disabled, onclick }, label);
    const slider = h('input.replay-slider', {
      type: 'range', min: 0, max: Math.max(0, last), step: 1, value: Math.max(0, this.at), 'aria-label': 'Step',
      oninput: (e) => this.go(Number(e.target.value)),
    });
    const viewer = h('select', { 'aria-label': 'Seen from', onchange: (e) => {
      this.viewer = Number(e.target.value);
      this.show(false);
    } }, this.players().map((p) => h('option', { value: p.seat }, `seen by ${p.name}`)));
    viewer.value = String(this.viewer);
    const speed = h('select', { 'aria-label': 'Speed', onchange: (e) => {
      this.speed = Number(e.target.value);
    } }, SPEEDS.map(([v, w]) => h('option', { value: v }, w)));
    speed.value = String(this.speed);
    const focused = document.activeElement?.dataset?.key;
    clear(this.controls).append(
      h('div.replay-buttons', null,
        // Shapes every font has (the media-control symbols are missing from many).
        button('\u25AE\u25C0', 'First step', 'first', () => this.go(0), this.at <= 0),
        button('\u25C0', 'Previous step', 'prev', () => this.go(this.at - 1), this.at <= 0),
        button(this.playing ? '\u25AE\u25AE Pause' : '\u25B6 Play', this.playing ? 'Pause' : 'Play', 'play', () => this.togglePlay(), false),
        button('\u25B6', 'Next step', 'next', () => this.go(this.at + 1), this.at >= last),
        button('\u25B6\u25AE', 'Last step', 'last', () => this.go(last), this.at >= last),
        h('span.replay-count', null, `${this.at + 1} / ${this.total}`)),
      slider,
      h('div.replay-buttons', null, viewer, speed));
    if (focused) this.controls.querySelector(`[data-key="${focused}"]`)?.focus();
  }

  // A replay is watched: the result speaks of the players by name.
  headline() {
    const winners = this.result?.winners || [];
    if (!winners.length) return 'The game is over: nobody won.';
    if (winners.length === this.state.players.length) return 'The game is over: a draw.';
    return `The game is over: ${names(winners.map((t) => this.name(t)))} won.`;
  }

  youSuffix() {
    return '';
  }

  addLog() {
    // the log is the replay's own events
  }

  loadHistory() {
    // every step's events are in the replay itself
  }

  resultPanel() {
    const panel = super.resultPanel();
    panel.querySelector('[data-key=again]')?.remove();
    return panel;
  }
}

function capitalised(text) {
  const s = String(text || '');
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
