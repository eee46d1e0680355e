// Campfire in the browser: routes between the lobby (#/) and a room (#/room/CODE), keeps one
// connection to the server, and takes the seat back after a reload or a dropped connection.
import { h, clear } from './dom.js';
import { Connection } from './conn.js';
import { loadName, saveName, loadSeat, saveSeat, forgetSeat } from './store.js';
import { fetchGames, renderLobby } from './lobby.js';
import { TableView } from './table.js';
import { ReplayView } from './replay.js';
import { openRules } from './rules.js';

const app = document.getElementById('app');
const connStatus = document.getElementById('conn-status');
const siteNotice = document.getElementById('site-notice');
let siteNoticeTimer = null;

let games = [];
let table = null;          // the TableView of the room on screen
let room = null;           // {code, mode: 'seat' | 'watch' | 'none'}
let stopLobby = null;
let entering = null;       // the room code a join/rejoin is under way for

function randomName() {
  const names = ['Andrea', 'Bella', 'Claudio', 'Dora', 'Elio', 'Fiamma', 'Gino', 'Lucia'];
  return names[Math.floor(Math.random() * names.length)];
}

const conn = new Connection({
  name: loadName() || randomName(),
  onPush: push,
  onStatus: showStatus,
  onReady: (again) => (again ? resume() : route()),
});

function showStatus(s) {
  const words = { connecting: 'Connecting…', reconnecting: 'Reconnecting…', online: '', offline: 'Offline' };
  connStatus.textContent = words[s] ?? '';
  connStatus.dataset.state = s;
  document.body.classList.toggle('reconnecting', s === 'reconnecting');
}

function gameName(id) {
  return games.find((g) => g.id === id)?.name || id;
}

// ---------- server pushes ----------

// A word from the operator (or the server, before a restart) to everyone connected: shown on
// top of whatever screen is up, and in the table's log.
function showSiteNotice(msg) {
  clearTimeout(siteNoticeTimer);
  const restart = msg.reason === 'restart';
  clear(siteNotice).append(
    h('span.site-notice-text', null, `${restart ? 'Server' : 'Operator'}: ${msg.text}`),
    h('button.secondary.small', { type: 'button', 'aria-label': 'Dismiss', onclick: () => { siteNotice.hidden = true; } }, '×'),
  );
  siteNotice.dataset.reason = msg.reason || '';
  siteNotice.hidden = false;
  siteNoticeTimer = setTimeout(() => { siteNotice.hidden = true; }, 30000);
  table?.addLog(`${restart ? 'Server' : 'Operator'}: ${msg.text}`, 'event');
}

function push(msg) {
  if (msg.type === 'notice') {
    showSiteNotice(msg);
    return;
  }
  if (!table || !room) return;
  if (msg.room && msg.room !== room.code) return;
  switch (msg.type) {
    case 'state':
      table.update(msg);
      break;
    case 'event':
      table.event(msg);
      break;
    case 'chat':
      table.chat(msg);
      break;
    case 'game_over':
      table.gameOver(msg);
      break;
    case 'room_closed':
      // The operator closed the room: there is nothing to rejoin.
      room.mode = 'none';
      forgetSeat(room.code);
      table.closed(msg.reason);
      break;
    case 'error':
      if (msg.code === 'replaced') {
        room.mode = 'none';
        table.showNotice('This seat was taken over in another window or tab.', 'warn');
      }
      break;
    default:
      break;
  }
}

// ---------- routing ----------

function currentCode() {
  const m = /^#\/room\/([A-Za-z0-9]{6})$/.exec(location.hash);
  return m ? m[1].toUpperCase() : null;
}

function replayCode() {
  const m = /^#\/replay\/([A-Za-z0-9]{6})$/.exec(location.hash);
  return m ? m[1].toUpperCase() : null;
}

async function route() {
  const replay = replayCode();
  if (replay) return showReplay(replay);  // over HTTP: no need to wait for the connection
  if (!conn.ready) return;
  const code = currentCode();
  if (!code) return showLobby();
  if (room && room.code === code && table) return;  // already there (created or joined just now)
  return enterRoom(code);
}

function leaveScreen() {
  if (stopLobby) stopLobby();
  stopLobby = null;
  if (table) table.destroy();
  table = null;
}

async function showLobby() {
  leaveScreen();
  if (room && room.mode !== 'none') conn.request({ type: 'leave', room: room.code }).catch(() => {});
  room = null;
  document.title = 'Campfire';
  clear(app).append(h('p.muted', null, 'Loading the games…'));
  try {
    if (!games.length) games = await fetchGames();
  } catch (e) {
    clear(app).append(h('p.notice-error', null, `The game list did not load: ${e.message}`));
    return;
  }
  if (currentCode()) return;  // the player moved on meanwhile
  stopLobby = renderLobby(app, {
    games,
    name: conn.name,
    onName: async (n) => {
      if (!n) return;
      try {
        const got = await conn.rename(n);
        saveName(got);
      } catch (e) {
        alertStatus(e.message);
      }
    },
    onCreate: createRoom,
    onJoin: (code) => joinRoom(code, app.querySelector('.form-status')),
    onWatch: (code) => {
      room = null;
      watchRoom(code);
    },
    listRooms: async () => (await conn.request({ type: 'list_rooms' })).rooms,
  });
}

// The rules at a table: with the game's option list (a page opened on a room's link has not
// loaded it yet), so the table's options are explained.
async function showRules(id, options) {
  if (!games.length) {
    try {
      games = await fetchGames();
    } catch {
      // the dialog still shows the rules, without the option list
    }
  }
  openRules(games.find((g) => g.id === id) || { id, name: gameName(id) }, options);
}

// A finished game, step by step (#/replay/CODE).
async function showReplay(code) {
  if (table instanceof ReplayView && table.code === code) return;
  leaveScreen();
  if (room && room.mode !== 'none') conn.request({ type: 'leave', room: room.code }).catch(() => {});
  room = null;
  if (!games.length) {
    try {
      games = await fetchGames();
    } catch {
      // names fall back to ids
    }
  }
  if (replayCode() !== code) return;  // the player moved on meanwhile
  table = new ReplayView(app, { code, gameName, onLeave: () => { location.hash = '#/'; }, onRules: showRules });
  table.start();
}

function alertStatus(text) {
  const s = app.querySelector('.form-status');
  if (s) s.textContent = text;
}

function openTable(code, mode) {
  leaveScreen();
  room = { code, mode };
  table = new TableView(app, {
    conn,
    room: code,
    gameName,
    onPlayAgain: playAgain,
    onLeave: () => {
      if (room) forgetSeatIfWaiting();
      location.hash = '#/';
    },
    onTakeSeat: () => joinRoom(code),
    onRules: showRules,
    strategies: (id) => games.find((g) => g.id === id)?.strategies,
  });
  document.title = `Campfire · ${code}`;
  if (location.hash !== `#/room/${code}`) history.replaceState(null, '', `#/room/${code}`);
}

function forgetSeatIfWaiting() {
  // Leaving before the start frees the seat, so its token is of no use any more.
  if (table?.state?.status === 'waiting') forgetSeat(room.code);
}

async function createRoom({ game, seats, options, private: priv, timers }) {
  const body = { type: 'create_room', game, seats, options, private: priv };
  if (timers) body.timers = timers;  // the room's clocks as the lobby form set them
  const reply = await conn.request(body);
  saveSeat(reply.room, reply.seat, reply.token);
  openTable(reply.room, 'seat');
  contribute(reply.room);
}

// A seated player's browser adds its own randomness to the shuffle before the start (PROTOCOL.md,
// "Fair shuffles"), so that no deal is the server's choice alone; the replay shows it was used.
// A refusal (a test room whose deal is fixed, a game that started meanwhile) changes nothing.
function contribute(code) {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const entropy = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  conn.request({ type: 'contribute', room: code, entropy }).catch(() => {});
}

async function enterRoom(code) {
  if (!games.length) {
    try {
      games = await fetchGames();
    } catch {
      // names fall back to ids
    }
  }
  const saved = loadSeat(code);
  if (saved) {
    openTable(code, 'seat');
    try {
      await conn.request({ type: 'rejoin', room: code, token: saved.token });
      return;
    } catch (e) {
      if (e.code !== 'bad_token' && e.code !== 'no_such_room') return showRoomError(code, e);
      forgetSeat(code);
      if (e.code === 'no_such_room') return showRoomError(code, e);
    }
  }
  showDoor(code);
}

// A room you hold no seat in: take a seat or watch.
function showDoor(code) {
  leaveScreen();
  room = { code, mode: 'none' };
  const status = h('p.form-status', { role: 'status' });
  const nameInput = h('input', { type: 'text', id: 'door-name', maxlength: '24', value: conn.name });
  clear(app).append(h('section.door', null,
    h('h1', null, `Room ${code}`),
    h('div.field', null, h('label', { for: 'door-name' }, 'Your name'), nameInput),
    h('div.menu-row', null,
      h('button.primary', { type: 'button', id: 'door-join', onclick: async () => {
        const n = nameInput.value.trim();
        if (n && n !== conn.name) {
          try {
            saveName(await conn.rename(n));
          } catch (e) {
            status.textContent = e.message;
            return;
          }
        }
        joinRoom(code, status);
      } }, 'Take a seat'),
      h('button.secondary', { type: 'button', onclick: () => watchRoom(code) }, 'Watch'),
      h('a.button.secondary', { href: '#/' }, 'Back to the lobby')),
    status));
  app.querySelector('#door-join').focus();
}

async function joinRoom(code, status) {
  try {
    const reply = await conn.request({ type: 'join', room: code });
    saveSeat(code, reply.seat, reply.token);
    if (!table || room?.code !== code) openTable(code, 'seat');
    else room.mode = 'seat';
    contribute(code);
  } catch (e) {
    if (e.code === 'already_started' || e.code === 'room_full') {
      if (status) status.textContent = `${e.message}. You can watch instead.`;
      else table?.showNotice(e.message, 'warn');
    } else if (status) {
      status.textContent = e.message;
    } else {
      table?.showNotice(e.message, 'error');
    }
  }
}

async function watchRoom(code) {
  openTable(code, 'watch');
  try {
    await conn.request({ type: 'spectate', room: code });
  } catch (e) {
    showRoomError(code, e);
  }
}

function showRoomError(code, e) {
  leaveScreen();
  room = null;
  clear(app).append(h('section.door', null,
    h('h1', null, `Room ${code}`),
    h('p.notice-error', null, e.code === 'no_such_room' ? 'There is no such room (it may have ended).' : e.message),
    h('a.button.primary', { href: '#/' }, 'Back to the lobby')));
}

// After a dropped connection: take the seat (or the spectator place) back.
async function resume() {
  if (!room) return route();
  const { code, mode } = room;
  if (mode === 'seat') {
    const saved = loadSeat(code);
    if (saved) {
      try {
        await conn.request({ type: 'rejoin', room: code, token: saved.token });
        table?.addLog('Reconnected: your seat is yours again.', 'event');
        return;
      } catch (e) {
        return showRoomError(code, e);
      }
    }
  }
  if (mode === 'watch') {
    conn.request({ type: 'spectate', room: code }).catch((e) => showRoomError(code, e));
    return;
  }
  route();
}

// A new room with the same game, seats and options. The old room hears its link in the chat
// before the creator moves over, so the others can follow with one click.
async function playAgain(state) {
  const old = state.room;
  try {
    const created = await conn.request({
      type: 'create_room', game: state.game, seats: state.players.length, options: state.options || {}, join: false,
    });
    await conn.request({ type: 'chat', room: old, text: `New table for the next game: #/room/${created.room}` }).catch(() => {});
    const reply = await conn.request({ type: 'join', room: created.room });
    saveSeat(reply.room, reply.seat, reply.token);
    openTable(reply.room, 'seat');
    contribute(reply.room);
  } catch (e) {
    table?.showNotice(`Could not start another game: ${e.message}`, 'error');
  }
}

window.addEventListener('hashchange', () => route());
// Lets the browser tests cut the connection the way a network failure would.
// They also read how many cards flew to their places (none when motion is reduced).
window.campfire = {
  dropConnection: () => conn.simulateDrop(),
  motion: () => (table ? { arrivals: table.motion.arrivals, flights: table.motion.flights, last: table.motion.last } : null),
  state: () => table?.state ?? null,
};
conn.open();
