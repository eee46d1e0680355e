// Turns the server's `legal` list into things to click. A game's table binds elements (a card,
// a slot, a run) to the legal actions they stand for; whatever no element claims becomes a
// labelled button. An element standing for several actions opens a short menu of them.
import { h, clear } from './dom.js';

export class ActionBinder {
  constructor(state, send) {
    this.legal = state.legal || [];
    this.labels = state.labels || [];
    this.send = send;          // (index) => void
    this.bound = new Set();
    this.menu = null;          // {title, indices, origin, group}
    this.onMenu = () => {};
  }

  matches(pred) {
    const out = [];
    this.legal.forEach((a, i) => {
      if (pred(a)) out.push(i);
    });
    return out;
  }

  has(pred) {
    return this.legal.some(pred);
  }

  // Makes `el` (a <button>) play the actions `pred` accepts. Returns the matching indices.
  bind(el, pred, title) {
    const idx = this.matches(pred);
    if (idx.length === 0) {
      if (el.tagName === 'BUTTON') {
        el.disabled = true;
        el.classList.add('inert');
      }
      return idx;
    }
    idx.forEach((i) => this.bound.add(i));
    el.classList.add('playable');
    el.dataset.legal = String(idx.length);
    el.addEventListener('click', (e) => {
      e.stopPropagation();
      if (idx.length === 1) this.send(idx[0]);
      else this.openMenu(title || el.getAttribute('aria-label') || 'Choose', idx, el);
    });
    return idx;
  }

  // An open menu survives a new state (another seat moved while you were choosing) as long as
  // some of its actions are still legal; their positions in the new `legal` list may differ.
  carryMenu(state) {
    if (!this.menu) return null;
    const legal = state.legal || [];
    const keys = legal.map((a) => JSON.stringify(a));
    const indices = [];
    for (const i of this.menu.indices) {
      const j = keys.indexOf(JSON.stringify(this.legal[i]));
      if (j >= 0 && !indices.includes(j)) indices.push(j);
    }
    return indices.length ? { ...this.menu, indices } : null;
  }

  openMenu(title, indices, origin) {
    this.menu = { title, indices, origin };
    this.onMenu();
  }

  // The action bar: the open menu if any, else every action no element claimed.
  renderBar(bar, { hideUnbound = false } = {}) {
    // Redraw only when what the bar offers changed, so a button is not swapped out from under
    // the pointer while other seats' moves arrive.
    const free = this.menu || hideUnbound ? [] : this.legal.map((_, i) => i).filter((i) => !this.bound.has(i));
    const shown = this.menu ? this.menu.indices : free;
    const sig = JSON.stringify([this.menu?.title ?? null, this.menu?.group ?? null, shown.map((i) => [i, this.labels[i], this.legal[i]])]);
    bar.binder = this;  // the bar's buttons act through whichever binder drew the table last
    if (bar.dataset.sig === sig && bar.isConnected) return;
    bar.dataset.sig = sig;
    clear(bar);
    if (this.menu) {
      this.renderMenu(bar, false);
      // A menu too long for the bar (a joker with three 6s and two 3s to take along) is drawn
      // again in groups by the words that tell its choices apart, each group one step further.
      if (this.menu.group == null && bar.scrollHeight > bar.clientHeight + 1) this.renderMenu(bar, true);
      return;
    }
    if (free.length === 0) return;
    const row = h('div.menu-row');
    for (const i of free) row.append(this.button(bar, i));
    bar.append(row);
  }

  // Draws the open menu: every choice, or (`grouped`, or a group the player opened) the
  // choices' groups, a group standing for several as one button that opens them.
  renderMenu(bar, grouped) {
    clear(bar);
    const { title, indices, group } = this.menu;
    bar.append(h('div.menu-title', null, title));
    // Many choices that begin alike (a joker with each card it may take along, each value and
    // side) say their shared words once, above short buttons that all fit on screen.
    const full = indices.map((i) => capitalise(this.labels[i] || JSON.stringify(this.legal[i])));
    const common = indices.length >= 4 ? sharedWords(full) : '';
    const rests = full.map((l) => (common ? l.slice(common.length).replace(/^[\s,;:]+/, '') : ''));
    const words = common ? rests : full;  // what tells the choices apart
    const row = h('div.menu-row');
    const open = (g) => {
      const now = bar.binder;
      if (!now.menu) return;
      now.menu = { ...now.menu, group: g };
      now.onMenu();
    };
    const groups = group != null || grouped ? groupByWords(words) : null;
    const inGroup = group != null && groups?.has(group) ? groups.get(group) : null;
    if (inGroup) {
      bar.append(h('div.menu-common', null, `${[common, group].filter(Boolean).join(' ')} …`));
      for (const k of inGroup) {
        const rest = words[k].slice(group.length).replace(/^[\s,;:]+/, '');
        row.append(this.button(bar, indices[k], rest || null));
      }
      row.append(h('button.secondary', { type: 'button', dataset: { key: 'menu-back' }, onclick: () => open(null) }, 'Back'));
    } else {
      if (common) bar.append(h('div.menu-common', null, `${common} …`));
      const shown = groups && (grouped || group != null) ? groups : new Map(indices.map((_, k) => [k, [k]]));
      for (const [key, ks] of shown) {
        if (ks.length === 1) {
          row.append(this.button(bar, indices[ks[0]], rests[ks[0]] || null));
          continue;
        }
        row.append(h('button.action.group', {
          type: 'button',
          'aria-label': `${[common, key].filter(Boolean).join(' ')} …: ${ks.length} choices`,
          dataset: { key: `group-${key}`, choices: String(ks.length) },
          onclick: () => open(key),
        }, `${key} … (${ks.length})`));
      }
    }
    row.append(
      h('button.secondary', { type: 'button', dataset: { key: 'menu-cancel' }, onclick: () => {
        const now = bar.binder;
        const origin = now.menu?.origin;
        now.menu = null;
        now.onMenu();
        if (origin?.dataset?.key) document.querySelector(`[data-key="${CSS.escape(origin.dataset.key)}"]`)?.focus();
      } }, 'Cancel'),
    );
    bar.append(row);
    row.querySelector('button')?.focus();
  }

  // `short` (the words a menu did not already say) is what the button shows; its name for
  // screen readers stays the whole label.
  button(bar, i, short = null) {
    const label = this.labels[i] || JSON.stringify(this.legal[i]);
    return h('button.action', {
      type: 'button',
      'aria-label': short ? capitalise(label) : null,
      dataset: { legal: '1', key: `act-${i}-${label}` },
      onclick: () => bar.binder.send(i),
    }, short || capitalise(label));
  }
}

// Groups the menu's words (what each choice says beyond the words all share) by their first
// few words, as many as make the list shortest: the number of groups and the largest group,
// whichever is more. A Map from the group's words to the positions in `rests`; a choice with
// nothing to add stands alone. Null when no grouping makes the list any shorter.
export function groupByWords(rests) {
  let best = null;
  let bestSize = rests.length;
  for (let n = 1; n <= 4; n++) {
    const groups = new Map();
    rests.forEach((r, k) => {
      const words = r.split(/\s+/).filter(Boolean);
      const key = words.length > n ? words.slice(0, n).join(' ').replace(/[,;:]+$/, '') : `\u0000${k}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(k);
    });
    const size = Math.max(groups.size, ...[...groups.values()].map((g) => g.length));
    if (size < bestSize) {
      best = groups;
      bestSize = size;
    }
  }
  if (!best) return null;
  // A choice alone in its group keeps its whole words; its key is not shown.
  const out = new Map();
  for (const [key, ks] of best) out.set(ks.length === 1 ? `\u0000${ks[0]}` : key, ks);
  return out;
}

// The words every label begins with (whole words, at least three of them), or ''.
export function sharedWords(labels) {
  if (labels.length < 2) return '';
  let n = labels[0].length;
  for (const l of labels) {
    let k = 0;
    while (k < n && k < l.length && l[k] === labels[0][k]) k++;
    n = k;
  }
  // Back off to a word end every label has there (its end, a space or a comma).
  const ends = (l, k) => k === l.length || /[\s,;:]/.test(l[k]);
  while (n > 0 && !labels.every((l) => ends(l, n))) n--;
  const prefix = labels[0].slice(0, n).replace(/[\s,;:]+$/, '');
  return prefix.split(/\s+/).filter(Boolean).length >= 3 ? prefix : '';
}

export function capitalise(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
