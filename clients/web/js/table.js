// The room screen: a status line that says what you may do and whom the table waits for, seats
// around the felt, the game's own drawing in the middle, your seat and hand docked at the
// bottom with the actions you may take (always on screen), a countdown for open windows, the
// event log and chat beside the table (a drawer on phones), and the result when the game ends.
import { h, clear } from './dom.js';
import { ActionBinder, capitalise } from './actions.js';
import { gameTable } from './games/index.js';
import { Motion } from './motion.js';
import { names, ordinal } from './words.js';

export class TableView {
  constructor(root, { conn, room, gameName, onPlayAgain, onLeave, onTakeSeat, onRules, strategies }) {
    this.root = root;
    this.strategies = strategies;  // (game id) => the bot strategies the server offers, if known
    this.botStrategy = 'basic';    // what "Add bot" and "Fill with bots" seat
    this.conn = conn;
    this.room = room;
    this.gameName = gameName;  // (id) => display name
    this.onPlayAgain = onPlayAgain;
    this.onLeave = onLeave;
    this.onTakeSeat = onTakeSeat;
    this.onRules = onRules;    // (game id, options) opens the rules
    this.state = null;
    this.result = null;
    this.memory = {};          // per-game notes from private events (Spider Monkey's peeks)
    this.deadline = null;
    this.sending = false;
    this.unread = 0;
    this.motion = new Motion();
    this.build();
    this.tick = setInterval(() => this.updateCountdown(), 200);
    // A new window size, or an action bar that grows or shrinks, leaves the table another room.
    this.resize = new ResizeObserver(() => {
      cancelAnimationFrame(this.fitFrame);
      this.fitFrame = requestAnimationFrame(() => this.fitTable());
    });
    this.resize.observe(this.board);
    // A new window size lands the cards in flight where they belong, and puts the talk drawer
    // away when the window turns into a phone's or back (it opens only when the player asks).
    this.onWindowResize = () => this.motion.settle();
    window.addEventListener('resize', this.onWindowResize);
    this.narrow = window.matchMedia(`(max-width: ${DRAWER_WIDTH}px)`);
    this.onNarrow = () => {
      this.side.classList.remove('open', 'sliding');
      this.renderTalkButton();
    };
    this.narrow.addEventListener('change', this.onNarrow);
    // Escape closes an open choice of actions, or the talk drawer on a phone.
    this.onKey = (e) => {
      if (e.key !== 'Escape') return;
      if (this.binder?.menu) {
        this.binder.menu = null;
        this.renderBarOnly();
      } else if (this.side.classList.contains('open')) {
        this.toggleTalk(false);
      }
    };
    document.addEventListener('keydown', this.onKey);
  }

  destroy() {
    document.removeEventListener('keydown', this.onKey);
    window.removeEventListener('resize', this.onWindowResize);
    this.narrow.removeEventListener('change', this.onNarrow);
    this.motion.settle();
    clearInterval(this.tick);
    this.resize.disconnect();
    cancelAnimationFrame(this.fitFrame);
    clearTimeout(this.flashTimer);
    clearTimeout(this.slideTimer);
  }

  build() {
    clear(this.root);
    this.head = h('div.table-head');
    this.status = h('div.turn-line', { role: 'status', 'aria-live': 'polite' });
    this.notice = h('div.notice', { role: 'alert' });
    this.board = h('div.board');
    this.bar = h('div.action-bar', { 'aria-label': 'Your actions' });
    this.logList = h('ol.log', { 'aria-live': 'polite', 'aria-label': 'What happened' });
    this.chatInput = h('input', { type: 'text', maxlength: '300', 'aria-label': 'Chat message', placeholder: 'Say something…' });
    const chatForm = h('form.chat-form', {
      onsubmit: (e) => {
        e.preventDefault();
        this.sendChat();
      },
    }, this.chatInput, h('button.secondary', { type: 'submit' }, 'Send'));
    this.side = h('aside.side', { id: 'table-talk', 'aria-label': 'Table talk' },
      h('div.side-head', null,
        h('h2', null, 'Table talk'),
        h('button.secondary.small.talk-close', { type: 'button', 'aria-label': 'Close table talk', onclick: () => this.toggleTalk(false) }, '×')),
      this.logList, chatForm);
    this.countdown = h('div.countdown', { role: 'timer', 'aria-live': 'off', hidden: true });
    this.root.append(
      h('section.table-screen', null,
        h('div.table-col', null, this.head, this.status, this.notice, this.countdown, this.board, this.bar),
        this.side),
    );
  }

  showNotice(text, kind = 'info') {
    clear(this.notice);
    if (text) this.notice.append(h(`div.notice-${kind}`, null, text));
  }

  // On a phone the log and chat are a drawer over the table, closed unless the player opens it.
  toggleTalk(open = !this.side.classList.contains('open')) {
    const was = this.side.classList.contains('open');
    if (open !== was) {
      this.side.classList.add('sliding');
      clearTimeout(this.slideTimer);
      this.slideTimer = setTimeout(() => this.side.classList.remove('sliding'), SLIDE_MS);
    }
    this.side.classList.toggle('open', open);
    if (open) {
      this.unread = 0;
      this.logList.scrollTop = this.logList.scrollHeight;
      if (!was) (this.chatInput || this.side.querySelector('.talk-close'))?.focus();
    } else if (was) {
      this.head.querySelector('.talk-toggle')?.focus();
    }
    this.renderTalkButton();
  }

  renderTalkButton() {
    const b = this.head.querySelector('.talk-toggle');
    if (!b) return;
    b.setAttribute('aria-expanded', String(this.side.classList.contains('open')));
    b.textContent = this.unread ? `Talk (${this.unread})` : 'Talk';
  }

  // ---------- incoming ----------

  update(state) {
    const wasStatus = this.state?.status;
    const first = !this.state;
    if (first) this.addLog(state.seat === null ? 'You are watching.' : `You are at the table, seat ${state.seat + 1}.`, 'event');
    this.state = state;
    if (first && state.status !== 'waiting') this.loadHistory();
    if (state.status !== 'over') this.result = null;
    if (state.status === 'over') this.result = state.result || state.view?.result || this.result;
    if (wasStatus === 'waiting' && state.status === 'playing') this.memory = {};
    // A timed window (a slap window, say) first; else the room's turn timer, when it has one.
    const clock = state.window && typeof state.window.remainingMs === 'number' ? state.window
      : state.turn && typeof state.turn.remainingMs === 'number' ? { ...state.turn, name: 'turn' } : null;
    this.deadline = clock
      ? { at: performance.now() + clock.remainingMs, total: clock.remainingMs, name: clock.name,
          mine: state.seat !== null && (clock.seats || []).includes(state.seat) }
      : null;
    this.render();
  }

  event(ev) {
    const e = ev.event || {};
    const mod = this.state ? gameTable(this.state.game) : null;
    const flashMs = mod?.remember?.(e, this.memory, this.state) || 0;
    this.addLog(e.text || e.type, 'event', ev.version);
    if (flashMs > 0) {
      this.render();
      clearTimeout(this.flashTimer);
      this.flashTimer = setTimeout(() => this.render(), flashMs + 50);
    }
  }

  // After a reload or a rejoin: what happened before, as the server remembers it for this seat.
  async loadHistory() {
    let reply;
    try {
      reply = await this.conn.request({ type: 'history', room: this.room });
    } catch {
      return;  // an older server, or the connection dropped: the log starts from now
    }
    const events = reply.events || [];
    if (!events.length || !this.logList.isConnected) return;
    // Events that arrived while the question was on its way are in the answer too.
    for (const li of this.logList.querySelectorAll('li.event[data-version]')) {
      if (Number(li.dataset.version) <= reply.version) li.remove();
    }
    const items = events.map((e) => h('li.event.earlier', null, capitalise(e.text || e.type)));
    this.logList.prepend(...items);
    this.logList.scrollTop = this.logList.scrollHeight;
  }

  chat(msg) {
    const who = msg.name || (msg.seat === null ? 'spectator' : `seat ${msg.seat + 1}`);
    const li = h('li.chat', null, h('b', null, who + ': '), linkify(msg.text));
    this.pushLog(li);
  }

  // The room is gone (closed by the operator): say so, and offer nothing more to play.
  closed(reason) {
    this.isClosed = true;
    this.addLog(`The room was closed${reason ? `: ${reason}` : ''}.`, 'event');
    this.render();
    this.showNotice(`This room was closed by the operator${reason ? ` (${reason})` : ''}. Leave to find another.`, 'warn');
  }

  gameOver(msg) {
    this.result = msg.result;
    this.render();
  }

  addLog(text, kind, version) {
    this.pushLog(h(`li.${kind}`, { dataset: version === undefined ? {} : { version: String(version) } }, capitalise(text)));
  }

  pushLog(li) {
    this.logList.append(li);
    while (this.logList.children.length > 200) this.logList.firstChild.remove();
    this.logList.scrollTop = this.logList.scrollHeight;
    if (!this.side.classList.contains('open')) {
      this.unread++;
      this.renderTalkButton();
    }
  }

  // ---------- outgoing ----------

  async act(index) {
    const s = this.state;
    if (!s || this.sending) return;
    this.sending = true;
    this.binder.menu = null;
    try {
      await this.conn.request({ type: 'action', room: s.room, action: s.legal[index], version: s.version });
      this.showNotice('');
    } catch (e) {
      if (e.code === 'stale' || e.code === 'window_closed') {
        this.showNotice(e.code === 'stale' ? 'The table changed just before your move; look again.' : 'Too late: that window closed.', 'warn');
      } else {
        this.showNotice(e.message, 'error');
      }
    } finally {
      this.sending = false;
    }
  }

  async sendChat() {
    const text = this.chatInput.value.trim();
    if (!text || !this.state) return;
    try {
      await this.conn.request({ type: 'chat', room: this.state.room, text });
      this.chatInput.value = '';
    } catch (e) {
      this.showNotice(e.message, 'error');
    }
  }

  async roomRequest(body) {
    try {
      await this.conn.request({ ...body, room: this.state.room });
      this.showNotice('');
    } catch (e) {
      this.showNotice(e.message, 'error');
    }
  }

  // ---------- drawing ----------

  name(seat) {
    const p = this.state?.players?.[seat];
    return p ? p.name : `Seat ${seat + 1}`;
  }

  context() {
    const s = this.state;
    return {
      state: s,
      view: s.view || {},
      me: s.seat,
      n: s.players.length,
      name: (seat) => this.name(seat),
      names: (seats) => names(seats.map((t) => (t === s.seat ? 'you' : this.name(t)))),
      bind: (el, pred, title) => this.binder.bind(el, pred, title),
      binder: this.binder,
      memory: this.memory,
      result: this.result,
    };
  }

  render() {
    const s = this.state;
    if (!s) return;
    const focusKey = document.activeElement?.dataset?.key;
    const menu = this.binder?.menu ? this.binder.carryMenu(s) : null;
    this.binder = new ActionBinder(this.isClosed ? { legal: [], labels: [] } : s, (i) => this.act(i));
    this.binder.version = s.version;
    this.binder.menu = menu;
    this.binder.onMenu = () => this.renderBarOnly();
    this.renderHead();
    this.motion.measure(this.board);
    // Where the player scrolled the middle of the table to (a crowded table on a phone): a redraw
    // keeps it there rather than throwing them back to the top at every move.
    const oldTop = this.board.querySelector('.table-top');
    const scrolled = oldTop ? { x: oldTop.scrollLeft, y: oldTop.scrollTop } : null;
    clear(this.board);
    this.board.dataset.version = String(s.version);
    this.board.dataset.status = this.isClosed ? 'closed' : s.status;
    this.board.dataset.game = s.game;
    if (s.status === 'waiting') {
      this.board.append(this.waitingRoom());
      clear(this.bar);
      delete this.bar.dataset.sig;
    } else {
      this.board.append(this.tableView());
      if (this.isClosed) {
        clear(this.bar);
        delete this.bar.dataset.sig;
      } else {
        this.binder.renderBar(this.bar);
      }
      if (this.result) this.board.append(this.resultPanel());
    }
    this.renderStatus();
    this.fitTable();
    const top = this.board.querySelector('.table-top');
    if (top && scrolled) {
      top.scrollLeft = scrolled.x;
      top.scrollTop = scrolled.y;
    }
    this.showMore();
    this.motion.play(this.board);
    this.updateCountdown();
    if (focusKey && !this.binder.menu) {
      const again = this.root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again && !again.disabled) again.focus();
    }
  }

  renderBarOnly() {
    this.binder.renderBar(this.bar);
  }

  // The table uses the room it has: the other seats and the middle of the table are drawn as
  // large as they fit without scrolling (up to half as large again), so a wide or tall screen
  // shows big cards rather than empty felt, and a crowded table (many runs, a long fire) is drawn
  // smaller rather than scrolled. On a phone the cards are small already: there the middle is
  // drawn at most a fifth smaller (the corners of the cards stay readable), and a table still too
  // crowded for that scrolls, while the status line, the hand and the moves stay docked on
  // screen. Each drawing and each change of size fits again.
  fitTable() {
    const top = this.board.querySelector('.table-top');
    if (!top) return;
    const fits = () => top.scrollHeight <= top.clientHeight + 1 && top.scrollWidth <= top.clientWidth + 1;
    const steps = window.innerWidth <= PHONE_WIDTH ? FIT_STEPS.filter((s) => s >= PHONE_SMALLEST) : FIT_STEPS;
    let chosen = steps[steps.length - 1];
    for (const step of steps) {
      top.style.setProperty('--fit', String(step));
      if (fits()) {
        chosen = step;
        break;
      }
    }
    top.style.setProperty('--fit', String(chosen));
    this.board.dataset.fit = String(chosen);
    this.showMore();
  }

  // A middle that still scrolls says so at its lower edge while there is more of it below.
  showMore() {
    const top = this.board.querySelector('.table-top');
    if (top) top.classList.toggle('more-below', top.scrollTop + top.clientHeight < top.scrollHeight - 2);
  }

  renderHead() {
    const s = this.state;
    clear(this.head);
    const copy = h('button.secondary.small.copy-link', {
      type: 'button',
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(this.joinLink());
          copy.textContent = 'Copied';
        } catch {
          copy.textContent = this.joinLink();
        }
      },
    }, 'Copy link');
    this.head.append(
      h('div.head-line', null,
        h('h1', null, this.gameName(s.game)),
        h('span.room-code', { 'aria-label': `room ${s.room.split('').join(' ')}` }, s.room),
        s.seat === null ? h('span.badge', null, 'watching') : null,
        h('span.head-tools', null,
          copy,
          this.onRules ? h('button.secondary.small', { type: 'button', dataset: { key: 'rules' }, onclick: () => this.onRules(s.game, s.options || {}) }, 'Rules') : null,
          h('button.secondary.small.talk-toggle', { type: 'button', 'aria-controls': 'table-talk', onclick: () => this.toggleTalk() }, 'Talk'),
          h('button.secondary.small', { type: 'button', onclick: () => this.onLeave() }, 'Leave'))),
    );
    this.renderTalkButton();
  }

  joinLink() {
    return `${location.origin}${location.pathname}#/room/${this.state.room}`;
  }

  // One sentence: what you may do now, or whom the table waits for and what for.
  statusWords() {
    const s = this.state;
    if (this.isClosed) return { text: 'This room was closed.', mine: false };
    if (s.status === 'waiting') {
      const free = s.players.filter((p) => !p).length;
      if (s.seat === null) return { text: `Waiting for players: ${free} of ${s.players.length} seats free.`, mine: false };
      if (free) return { text: `Waiting for players: ${free} of ${s.players.length} seats free. Send the link or add bots, then start.`, mine: false };
      return { text: 'Everyone is seated: start the game when you are ready.', mine: true };
    }
    if (s.status === 'over') return { text: this.result ? this.headline() : 'The game is over.', mine: false };
    const mod = gameTable(s.game);
    const ctx = this.context();
    const acting = s.toAct || [];
    const others = acting.filter((t) => t !== s.seat);
    if (s.legal.length) {
      const what = mod.prompt?.(ctx) || genericPrompt(s);
      const also = others.length ? ` (${ctx.names(others)} too)` : '';
      return { text: `Your turn${also}: ${what}`, mine: true };
    }
    if (!others.length) return { text: '', mine: false };
    const doing = mod.doing?.(ctx, others);
    return { text: `Waiting for ${ctx.names(others)}${doing ? ` ${doing}` : ''}.`, mine: false };
  }

  renderStatus() {
    const { text, mine } = this.statusWords();
    this.status.classList.toggle('my-turn', !!mine && this.state.status !== 'waiting');
    this.status.classList.toggle('ready', !!mine && this.state.status === 'waiting');
    if (this.status.textContent !== text) this.status.textContent = text;
  }

  updateCountdown() {
    const d = this.deadline;
    if (!d || !this.state || this.state.status !== 'playing') {
      this.countdown.hidden = true;
      return;
    }
    const left = Math.max(0, d.at - performance.now());
    this.countdown.hidden = false;
    const frac = d.total > 0 ? left / d.total : 0;
    clear(this.countdown);
    this.countdown.classList.toggle('urgent', left < 2000);
    this.countdown.classList.toggle('mine', d.mine);
    this.countdown.append(
      h('span.cd-name', null, windowWords(d.name)),
      h('span.cd-bar', { 'aria-hidden': 'true' }, h('span.cd-fill', { style: { width: `${(frac * 100).toFixed(1)}%` } })),
      h('span.cd-secs', null, `${(left / 1000).toFixed(1)} s`),
    );
  }

  seatBox(seat, extra) {
    const s = this.state;
    const p = s.players[seat];
    const acting = !this.isClosed && s.status === 'playing' && (s.toAct || []).includes(seat);
    const box = h('div.seat', {
      class: [acting ? 'acting' : '', seat === s.seat ? 'me' : '', p && !p.connected ? 'away' : ''].filter(Boolean).join(' '),
      dataset: { seat: String(seat) },
      'aria-label': `${p ? p.name : 'empty seat'}${acting ? ', to act' : ''}`,
      role: 'group',
    });
    box.append(
      h('div.seat-name', null,
        h('span.avatar', { 'aria-hidden': 'true' }, p ? p.name.slice(0, 1).toUpperCase() : '?'),
        h('span.seat-player', null, p ? p.name : 'empty'),
        p?.bot ? h('span.badge', null, 'bot') : null,
        p && !p.connected && !p.away ? h('span.badge.warn', null, 'away') : null,
        p?.away ? h('span.badge.warn', null, 'a bot plays for them') : null,
        seat === s.seat ? h('span.badge.you', null, 'you') : null,
        acting ? h('span.badge.turn', null, 'to act') : null),
    );
    box.append(...[extra].flat().filter(Boolean));
    return box;
  }

  // What another seat's box shows besides the game's seat info: nothing at a live table (the
  // replay shows every hand there).
  othersHand() {
    return null;
  }

  tableView() {
    const s = this.state;
    const mod = gameTable(s.game);
    const ctx = this.context();
    const others = [];
    for (let k = 1; k <= ctx.n; k++) {
      const seat = s.seat === null ? k - 1 : (s.seat + k) % ctx.n;
      if (seat === s.seat) continue;
      others.push(seat);
    }
    const opp = h('div.opponents', { class: `count-${others.length}` });
    for (const seat of others) opp.append(this.seatBox(seat, [mod.seatInfo(ctx, seat), this.othersHand(mod, seat)]));
    const center = h('div.felt', null, mod.center(ctx));
    const mine = h('div.my-area');
    if (s.seat !== null) mine.append(...[this.seatBox(s.seat, mod.seatInfo(ctx, s.seat)), mod.hand(ctx)].filter(Boolean));
    else mine.append(h('p.watching', null, 'You are watching this game.'));
    const more = h('div.more-hint', { 'aria-hidden': 'true' }, h('span', null, h('b', null, 'more below \u25BE')));
    const top = h('div.table-top', { onscroll: () => this.showMore() }, opp, center, more);
    return h('div.table', { class: `game-${s.game}` }, top, mine);
  }

  waitingRoom() {
    const s = this.state;
    const seats = h('ul.waiting-seats');
    const free = s.players.filter((p) => !p).length;
    s.players.forEach((p, seat) => {
      seats.append(
        h('li', null,
          h('span.seat-no', null, `Seat ${seat + 1}`),
          p ? h('span', null, p.name, p.bot ? ` (${p.strategy ? `${p.strategy} ` : ''}bot)` : '', seat === s.seat ? ' (you)' : '') : h('span.empty', null, 'empty'),
          !p && s.seat !== null
            ? h('button.secondary.small', { type: 'button', dataset: { key: `bot-${seat}` }, onclick: () => this.addBot(seat) }, 'Add bot')
            : null),
      );
    });
    const canStart = s.seat !== null && free === 0;
    const linkBox = h('input.share-link', { type: 'text', readonly: true, value: this.joinLink(), 'aria-label': 'Join link', onfocus: (e) => e.target.select() });
    return h('div.waiting', null,
      h('h2', null, `${s.players.length} seats, ${free} free`),
      h('p', null, 'Send this link to your friends, or fill the empty seats with bots.'),
      h('div.head-line.share', null, linkBox),
      seats,
      s.seat !== null && free > 0 ? this.strategyField() : null,
      h('div.menu-row', null,
        s.seat === null && free > 0
          ? h('button.primary', { type: 'button', onclick: () => this.onTakeSeat() }, 'Take a seat')
          : null,
        s.seat !== null && free > 0
          ? h('button.secondary', { type: 'button', onclick: () => this.fillWithBots() }, 'Fill with bots')
          : null,
        s.seat !== null
          ? h('button.primary', { type: 'button', disabled: !canStart, dataset: { key: 'start' }, onclick: () => this.roomRequest({ type: 'start' }) }, 'Start the game')
          : null,
        this.onRules ? h('button.secondary', { type: 'button', onclick: () => this.onRules(s.game, s.options || {}) }, 'How to play') : null));
  }

  async fillWithBots() {
    const s = this.state;
    for (let seat = 0; seat < s.players.length; seat++) {
      if (!s.players[seat]) await this.addBot(seat);
    }
  }

  addBot(seat) {
    return this.roomRequest({ type: 'add_bot', seat, strategy: this.botStrategy });
  }

  // How the bots added from here play.
  strategyField() {
    const words = {
      random: 'Random: any legal move',
      basic: 'Basic: rules of thumb',
      expert: 'Expert: thinks ahead',
    };
    const offered = this.strategies?.(this.state.game) || Object.keys(words);
    if (!offered.includes(this.botStrategy)) this.botStrategy = offered[0];
    const select = h('select', { id: 'bot-strategy', name: 'strategy', onchange: (e) => { this.botStrategy = e.target.value; } },
      offered.map((id) => h('option', { value: id }, words[id] || id)));
    select.value = this.botStrategy;
    return h('div.field.inline', null, h('label', { for: 'bot-strategy' }, 'Bots play'), select);
  }

  // "You won!", "You came 2nd of 4", or for a spectator who won.
  headline() {
    const s = this.state;
    const r = this.result;
    const winners = r.winners || [];
    const n = s.players.length;
    if (s.seat === null) {
      if (!winners.length) return 'The game is over: nobody won.';
      return `The game is over: ${names(winners.map((t) => this.name(t)))} won.`;
    }
    if (winners.includes(s.seat)) {
      const with_ = winners.filter((t) => t !== s.seat);
      if (!with_.length) return 'You won!';
      if (with_.length === n - 1) return 'A draw: everyone shares the win.';
      return `You won, together with ${names(with_.map((t) => this.name(t)))}!`;
    }
    const place = r.places?.[s.seat];
    if (place && n > 2) return `You lost: you came ${ordinal(place)} of ${n}.`;
    return 'You lost.';
  }

  youSuffix(seat) {
    return seat === this.state.seat ? ' (you)' : '';
  }

  resultPanel() {
    const s = this.state;
    const r = this.result;
    const mod = gameTable(s.game);
    const ctx = this.context();
    const places = r.places || [];
    const score = mod.score?.(ctx, r) || { columns: r.scores ? [{ title: 'Score', cell: (seat) => String(r.scores[seat]) }] : [] };
    const order = s.players.map((_, seat) => seat).sort((a, b) => (places[a] ?? 99) - (places[b] ?? 99) || a - b);
    const rows = order.map((seat) =>
      h('tr', { class: [(r.winners || []).includes(seat) ? 'winner' : '', seat === s.seat ? 'me' : ''].filter(Boolean).join(' ') },
        h('td', null, places[seat] !== undefined ? ordinal(places[seat]) : ''),
        h('td', null, this.name(seat), this.youSuffix(seat)),
        score.columns.map((c) => h('td', null, c.cell(seat)))));
    const iWon = s.seat !== null && (r.winners || []).includes(s.seat);
    const panel = h('div.result', {
      role: 'dialog', 'aria-label': 'Result', class: [this.resultFolded ? 'folded' : '', iWon ? 'won' : s.seat !== null ? 'lost' : ''].filter(Boolean).join(' '),
    },
    h('h2', null, this.headline()),
    score.note ? h('p.result-note', null, score.note) : null,
    h('table', null,
      h('thead', null, h('tr', null, h('th', null, 'Place'), h('th', null, 'Player'), score.columns.map((c) => h('th', null, c.title)))),
      h('tbody', null, rows)),
    h('div.menu-row', null,
      h('button.primary', { type: 'button', dataset: { key: 'again' }, onclick: () => this.onPlayAgain(s) }, 'Play again'),
      h('a.button.secondary', { href: `#/replay/${s.room}`, dataset: { key: 'replay' } }, 'Watch the replay'),
      h('button.secondary', { type: 'button', onclick: () => this.onLeave() }, 'Back to the lobby'),
      h('button.secondary', {
        type: 'button',
        'aria-expanded': String(!this.resultFolded),
        onclick: (e) => {
          this.resultFolded = !this.resultFolded;
          panel.classList.toggle('folded', this.resultFolded);
          e.currentTarget.textContent = this.resultFolded ? 'Show the result' : 'Look at the table';
          e.currentTarget.setAttribute('aria-expanded', String(!this.resultFolded));
        },
      }, this.resultFolded ? 'Show the result' : 'Look at the table')));
    return panel;
  }
}

// How large the middle of the table may be drawn, largest first, the widest window drawn as
// a phone (the width of the phone layout in table.css), and the smallest a phone draws it (its
// cards are small already: a run card's rank is then about 8px high).
const FIT_STEPS = [1.5, 1.4, 1.3, 1.2, 1.1, 1, 0.9, 0.8, 0.7];
const PHONE_WIDTH = 480;
const PHONE_SMALLEST = 0.8;

// The widest window where table talk is a drawer (table.css), and how long the drawer may take
// to slide (0.2s there), with a margin.
const DRAWER_WIDTH = 820;
const SLIDE_MS = 400;

// Without a game's own words: the verbs of the labels, "draw, play or pass".
export function genericPrompt(s) {
  const labels = s.labels || [];
  if (labels.length === 1) return labels[0];
  const verbs = [];
  for (const l of labels) {
    const v = String(l).split(' ')[0];
    if (v && !verbs.includes(v)) verbs.push(v);
  }
  return verbs.length ? `${names(verbs, 'or')}.` : 'choose a move.';
}

function windowWords(name) {
  const words = { slap: 'Slap window', peek: 'Look at two cards', exchange: 'Exchange', turn: 'Time to move' };
  return words[name] || capitalise(String(name || 'Window'));
}

// Chat text with room links made clickable; everything else stays plain text.
function linkify(text) {
  const out = [];
  const re = /#\/room\/([A-Za-z0-9]{6})/g;
  let last = 0;
  for (let m; (m = re.exec(text));) {
    out.push(text.slice(last, m.index));
    out.push(h('a', { href: `#/room/${m[1].toUpperCase()}` }, `room ${m[1].toUpperCase()}`));
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return out;
}
