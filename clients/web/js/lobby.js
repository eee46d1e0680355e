// The lobby: your name, the games with their options (read from /api/games, so a new option
// shows up without a client change), creating a room, joining one by code, the open rooms.
import { h, clear } from './dom.js';
import { openRules } from './rules.js';

export async function fetchGames() {
  const res = await fetch('/api/games');
  if (!res.ok) throw new Error(`the server answered ${res.status}`);
  return res.json();
}

function optionField(game, opt) {
  const id = `opt-${game.id}-${opt.key}`;
  let input;
  if (opt.type === 'bool') {
    input = h('input', { type: 'checkbox', id, name: opt.key });
    input.checked = !!opt.default;
  } else if (opt.type === 'int') {
    input = h('input', { type: 'number', id, name: opt.key, min: opt.min, max: opt.max, step: 1, value: opt.default, inputmode: 'numeric' });
  } else if (opt.type === 'choice') {
    input = h('select', { id, name: opt.key }, (opt.choices || []).map((c) => h('option', { value: c }, c)));
    input.value = opt.default;
  } else {
    return null;  // an option type this page does not know keeps its default
  }
  return h(`div.field${opt.type === 'bool' ? '.check' : ''}`, null,
    opt.type === 'bool' ? input : null,
    h('label', { for: id }, h('b', null, opt.key), h('span.desc', null, ` — ${opt.description}`)),
    opt.type === 'bool' ? null : input);
}

function readOptions(form, game) {
  const out = {};
  for (const opt of game.options || []) {
    const el = form.elements.namedItem(opt.key);
    if (!el) continue;
    if (opt.type === 'bool') out[opt.key] = el.checked;
    else if (opt.type === 'int') out[opt.key] = Number.parseInt(el.value, 10);
    else out[opt.key] = el.value;
  }
  return out;
}

export function renderLobby(root, { games, name, onName, onCreate, onJoin, onWatch, listRooms }) {
  clear(root);
  const status = h('p.form-status', { role: 'status', 'aria-live': 'polite' });
  const nameInput = h('input', { type: 'text', id: 'player-name', maxlength: '24', value: name, autocomplete: 'nickname', required: true });
  nameInput.addEventListener('change', () => onName(nameInput.value.trim()));

  const codeInput = h('input.code-input', { type: 'text', id: 'join-code', maxlength: '6', placeholder: 'K7QX2M', autocapitalize: 'characters', 'aria-label': 'Room code' });
  const joinForm = h('form.join-form', {
    onsubmit: (e) => {
      e.preventDefault();
      const code = codeInput.value.trim().toUpperCase();
      if (code.length === 6) onJoin(code);
      else status.textContent = 'A room code has 6 characters.';
    },
  }, codeInput, h('button.primary', { type: 'submit' }, 'Join'));

  const gameList = h('div.game-list');
  for (const game of games) {
    const seats = h('select', { name: 'seats', id: `seats-${game.id}` });
    for (let n = game.minSeats; n <= game.maxSeats; n++) seats.append(h('option', { value: n }, String(n)));
    seats.value = String(Math.min(game.maxSeats, Math.max(game.minSeats, 3)));
    const priv = h('input', { type: 'checkbox', name: 'private', id: `private-${game.id}` });
    const turnSeconds = h('input', { type: 'number', name: 'turnSeconds', id: `turn-${game.id}`, min: 0, max: 600, step: 1, value: 0, inputmode: 'numeric' });
    // The room's other clocks: what a late turn gets, how long a dropped player's seat waits,
    // and whether a bot keeps it warm after that.
    const onTimeout = h('select', { name: 'onTimeout', id: `timeout-${game.id}` },
      h('option', { value: 'default' }, "the game's default move"),
      h('option', { value: 'bot' }, 'a bot chooses'));
    const graceSeconds = h('input', { type: 'number', name: 'graceSeconds', id: `grace-${game.id}`, min: 0, max: 86400, step: 1, placeholder: 'server default', inputmode: 'numeric' });
    const takeover = h('input', { type: 'checkbox', name: 'botTakeover', id: `takeover-${game.id}`, checked: true });
    const form = h('form.game-card', {
      dataset: { game: game.id },
      onsubmit: async (e) => {
        e.preventDefault();
        const button = form.querySelector('button[type=submit]');
        button.disabled = true;
        status.textContent = '';
        try {
          const turn = Number.parseInt(turnSeconds.value, 10) || 0;
          const grace = graceSeconds.value.trim() === '' ? NaN : Number.parseInt(graceSeconds.value, 10);
          const timers = { botTakeover: takeover.checked };
          if (turn > 0) Object.assign(timers, { turnSeconds: turn, onTimeout: onTimeout.value });
          if (Number.isFinite(grace) && grace >= 0) timers.graceSeconds = grace;
          await onCreate({
            game: game.id, seats: Number(seats.value), options: readOptions(form, game), private: priv.checked,
            timers,
          });
        } catch (err) {
          status.textContent = `Could not create the room: ${err.message}`;
        } finally {
          button.disabled = false;
        }
      },
    },
    h('h3', null, game.name),
    h('p.summary', null, game.summary),
    h('div.field.inline', null, h('label', { for: `seats-${game.id}` }, 'Players'), seats),
    (game.options || []).length
      ? h('details', null, h('summary', null, 'Options'), (game.options || []).map((o) => optionField(game, o)))
      : null,
    h('div.timers', null,
      h('div.field.inline', null, h('label', { for: `turn-${game.id}` }, 'Seconds per turn (0: no turn timer)'), turnSeconds),
      h('div.field.inline', null, h('label', { for: `timeout-${game.id}` }, 'When a turn runs out'), onTimeout),
      h('div.field.inline', null, h('label', { for: `grace-${game.id}` }, 'Seconds a dropped player\'s seat waits'), graceSeconds),
      h('div.field.check', null, takeover, h('label', { for: `takeover-${game.id}` }, 'Then a bot plays for them until they are back'))),
    h('div.field.check', null, priv, h('label', { for: `private-${game.id}` }, 'Private (not listed)')),
    h('div.menu-row.card-buttons', null,
      h('button.primary', { type: 'submit' }, `New ${game.name} table`),
      h('button.secondary', { type: 'button', dataset: { key: `rules-${game.id}` }, onclick: () => openRules(game, readOptions(form, game)) }, 'Rules')));
    gameList.append(form);
  }

  const roomList = h('ul.room-list', { 'aria-live': 'polite' });
  const byId = Object.fromEntries(games.map((g) => [g.id, g.name]));
  async function refreshRooms() {
    let rooms = [];
    try {
      rooms = await listRooms();
    } catch {
      return;
    }
    clear(roomList);
    if (!rooms.length) roomList.append(h('li.muted', null, 'No open tables right now.'));
    for (const r of rooms) {
      roomList.append(h('li', null,
        h('span.room-code', null, r.room),
        h('span', null, `${byId[r.game] || r.game} · ${r.taken}/${r.seats} seated · ${r.status}`),
        r.status === 'waiting' && r.taken < r.seats ? h('button.secondary.small', { type: 'button', onclick: () => onJoin(r.room) }, 'Join') : null,
        h('button.secondary.small', { type: 'button', onclick: () => onWatch(r.room) }, 'Watch')));
    }
  }

  root.append(
    h('section.lobby', null,
      h('div.lobby-top', null,
        h('div.field', null, h('label', { for: 'player-name' }, 'Your name'), nameInput),
        h('div.field', null, h('label', { for: 'join-code' }, 'Have a room code?'), joinForm)),
      status,
      h('h2', null, 'Start a table'),
      gameList,
      h('div.rooms-head', null, h('h2', null, 'Open tables'), h('button.secondary.small', { type: 'button', onclick: refreshRooms }, 'Refresh')),
      roomList));
  refreshRooms();
  const timer = setInterval(refreshRooms, 5000);
  return () => clearInterval(timer);
}
