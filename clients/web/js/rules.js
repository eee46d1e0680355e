// How to play: a game's rules document (GET /api/games/<id>/rules, Markdown) in a dialog, with
// the options of the table at hand (or of the lobby's form) explained first.
import { h, clear } from './dom.js';
import { renderMarkdown } from './markdown.js';

const texts = new Map();  // game id -> Promise of the document's text

function fetchRules(id) {
  if (!texts.has(id)) {
    const p = fetch(`/api/games/${encodeURIComponent(id)}/rules`).then(async (res) => {
      if (!res.ok) throw new Error(res.status === 404 ? 'This server has no rules document for this game.' : `the server answered ${res.status}`);
      return res.text();
    });
    p.catch(() => texts.delete(id));  // try again next time
    texts.set(id, p);
  }
  return texts.get(id);
}

function valueWords(opt, value) {
  if (opt.type === 'bool') return value ? 'on' : 'off';
  return String(value);
}

// The table's options, each with its value and what it means.
function optionList(game, options) {
  const list = game?.options || [];
  if (!list.length) return h('p.muted', null, 'This game has no options: everyone plays the rules below.');
  const dl = h('dl.rules-options');
  for (const opt of list) {
    const value = options && opt.key in options ? options[opt.key] : opt.default;
    const changed = value !== opt.default;
    dl.append(
      h('dt', null, h('code', null, opt.key), ' ', h('b', { class: changed ? 'changed' : '' }, valueWords(opt, value))),
      h('dd', null, opt.description || '', changed ? ` (usually ${valueWords(opt, opt.default)})` : ' (the usual)'));
  }
  return dl;
}

let dialog = null;

// Opens the rules of `game` ({id, name, options: [...]}) with `options` (the table's values).
export function openRules(game, options, { onClose } = {}) {
  if (!dialog) {
    dialog = h('dialog.rules-dialog', { 'aria-labelledby': 'rules-title' });
    document.body.append(dialog);
    dialog.addEventListener('click', (e) => {
      if (e.target === dialog) dialog.close();  // a click on the backdrop
    });
  }
  const body = h('div.rules-body', { 'aria-busy': 'true' }, h('p.muted', null, 'Loading the rules…'));
  const close = h('button.secondary.small', { type: 'button', 'aria-label': 'Close the rules', dataset: { key: 'rules-close' }, onclick: () => dialog.close() }, '×');
  clear(dialog).append(
    h('div.rules-head', null, h('h2', { id: 'rules-title' }, `How to play ${game?.name || 'this game'}`), close),
    h('div.rules-scroll', null,
      game?.options ? h('section.rules-table', { 'aria-label': 'This table' }, h('h3', null, options ? 'This table' : 'Options'), optionList(game, options)) : null,
      body));
  dialog.onclose = () => onClose?.();
  if (!dialog.open) dialog.showModal();
  close.focus();
  fetchRules(game.id).then((text) => {
    if (!body.isConnected) return;
    clear(body).append(...renderMarkdown(text));
    body.removeAttribute('aria-busy');
  }, (e) => {
    if (!body.isConnected) return;
    clear(body).append(h('p.notice-warn', null, `The rules did not load: ${e.message}`));
    body.removeAttribute('aria-busy');
  });
  return dialog;
}
