// A small Markdown renderer for the rules documents: headings, paragraphs, lists (nested by
// indentation), tables, block quotes, rules, code blocks, and inline strong, emphasis, code and
// links. It builds DOM nodes and never parses HTML: every character of the source ends up as
// text, so nothing in a document can become markup or script.
import { h } from './dom.js';

// Inline markup to nodes: `code`, **strong**, *emphasis* or _emphasis_, [text](href).
export function inline(text) {
  const out = [];
  let i = 0;
  let plain = '';
  const flush = () => {
    if (plain) out.push(plain);
    plain = '';
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length && /[\\`*_[\]()#|!-]/.test(text[i + 1])) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (c === '`') {
      const end = text.indexOf('`', i + 1);
      if (end > i) {
        flush();
        out.push(h('code', null, text.slice(i + 1, end)));
        i = end + 1;
        continue;
      }
    }
    if ((c === '*' || c === '_') && text[i + 1] === c) {
      const end = text.indexOf(c + c, i + 2);
      if (end > i + 2) {
        flush();
        out.push(h('strong', null, inline(text.slice(i + 2, end))));
        i = end + 2;
        continue;
      }
    }
    if ((c === '*' || c === '_') && text[i + 1] !== c && text[i + 1] !== ' ' && (c === '*' || !/\w/.test(text[i - 1] || ''))) {
      const end = findCloser(text, c, i + 1);
      if (end > i + 1) {
        flush();
        out.push(h('em', null, inline(text.slice(i + 1, end))));
        i = end + 1;
        continue;
      }
    }
    if (c === '[') {
      const close = text.indexOf('](', i + 1);
      const paren = close > i ? text.indexOf(')', close + 2) : -1;
      if (close > i && paren > close) {
        flush();
        const label = text.slice(i + 1, close);
        const href = text.slice(close + 2, paren).trim();
        out.push(safeHref(href) ? h('a', { href, rel: 'noopener noreferrer', target: '_blank' }, inline(label)) : inline(label));
        i = paren + 1;
        continue;
      }
    }
    plain += c;
    i++;
  }
  flush();
  return out.flat();
}

function findCloser(text, c, from) {
  for (let j = from; j < text.length; j++) {
    if (text[j] === '\\') {
      j++;
      continue;
    }
    if (text[j] === c && text[j - 1] !== ' ' && (c === '*' || !/\w/.test(text[j + 1] || ''))) return j;
  }
  return -1;
}

// Only web addresses become links (opening in a new tab). Anchors and relative paths would
// fight the page's own #/ routes, so their text stays as text.
function safeHref(href) {
  return /^https?:\/\/[^\s]+$/i.test(href);
}

function slug(text) {
  return text.toLowerCase().replace(/[^\w\s-]/g, '').trim().replace(/\s+/g, '-');
}

const LIST_ITEM = /^(\s*)([-*+]|\d{1,3}[.)])\s+(.*)$/;

// Markdown text to an array of block elements.
export function renderMarkdown(source) {
  const lines = String(source).replace(/\r\n?/g, '\n').split('\n');
  const blocks = [];
  let i = 0;
  const isBlank = (l) => /^\s*$/.test(l);
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) {
      i++;
      continue;
    }
    let m;
    if ((m = /^```(.*)$/.exec(line))) {
      const code = [];
      i++;
      while (i < lines.length && !/^```\s*$/.test(lines[i])) code.push(lines[i++]);
      i++;
      blocks.push(h('pre', null, h('code', null, code.join('\n'))));
      continue;
    }
    if ((m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line))) {
      const level = Math.min(6, m[1].length + 1);  // the page's own title is the h2 of the dialog
      blocks.push(h(`h${level}`, { id: `rules-${slug(m[2])}` }, inline(m[2])));
      i++;
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      blocks.push(h('hr'));
      i++;
      continue;
    }
    if (/^\s*>/.test(line)) {
      const quoted = [];
      while (i < lines.length && /^\s*>/.test(lines[i])) quoted.push(lines[i++].replace(/^\s*> ?/, ''));
      blocks.push(h('blockquote', null, renderMarkdown(quoted.join('\n'))));
      continue;
    }
    if (/^\s*\|/.test(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1])) {
      const rows = [];
      while (i < lines.length && /^\s*\|/.test(lines[i])) rows.push(lines[i++]);
      blocks.push(table(rows));
      continue;
    }
    if (LIST_ITEM.test(line)) {
      const items = [];
      while (i < lines.length && (LIST_ITEM.test(lines[i]) || (!isBlank(lines[i]) && /^\s+\S/.test(lines[i])) || (isBlank(lines[i]) && i + 1 < lines.length && (LIST_ITEM.test(lines[i + 1]) || /^\s{2,}\S/.test(lines[i + 1]))))) {
        items.push(lines[i++]);
      }
      blocks.push(list(items));
      continue;
    }
    const para = [];
    while (i < lines.length && !isBlank(lines[i]) && !/^(#{1,6}\s|```|\s*>|\s*\|)/.test(lines[i]) && !LIST_ITEM.test(lines[i])) para.push(lines[i++].trim());
    blocks.push(h('p', null, inline(para.join(' '))));
  }
  return blocks;
}

// A list from its lines: items at the first item's indentation; deeper lines belong to the item
// above them (continuations, or a nested list).
function list(lines) {
  const first = LIST_ITEM.exec(lines[0]);
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const el = h(ordered ? 'ol' : 'ul');
  if (ordered && Number.parseInt(first[2], 10) !== 1) el.setAttribute('start', String(Number.parseInt(first[2], 10)));
  let item = null;
  for (const line of lines) {
    const m = LIST_ITEM.exec(line);
    if (m && m[1].length <= indent) {
      item = { text: [m[3]], rest: [] };
      el.append(h('li'));
      el.lastChild.item = item;
    } else if (item) {
      if (item.rest.length || LIST_ITEM.test(line)) item.rest.push(line);
      else item.text.push(line.trim());
    }
  }
  for (const li of el.children) {
    const { text, rest } = li.item;
    delete li.item;
    li.append(...inline(text.filter(Boolean).join(' ')));
    const nested = rest.filter((l) => !/^\s*$/.test(l));
    if (nested.length) {
      const base = Math.min(...nested.map((l) => /^\s*/.exec(l)[0].length));
      li.append(...renderMarkdown(nested.map((l) => l.slice(base)).join('\n')));
    }
  }
  return el;
}

function cells(row) {
  const inner = row.trim().replace(/^\|/, '').replace(/\|$/, '');
  const out = [];
  let cur = '';
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === '\\' && inner[i + 1] === '|') {
      cur += '|';
      i++;
    } else if (inner[i] === '|') {
      out.push(cur.trim());
      cur = '';
    } else {
      cur += inner[i];
    }
  }
  out.push(cur.trim());
  return out;
}

function table(rows) {
  const head = cells(rows[0]);
  const aligns = cells(rows[1]).map((c) => (/^:-+:$/.test(c) ? 'center' : /-+:$/.test(c) ? 'right' : null));
  const body = rows.slice(2).map(cells);
  const cell = (tag, text, k) => h(tag, aligns[k] ? { style: { textAlign: aligns[k] } } : null, inline(text));
  return h('div.table-wrap', null, h('table', null,
    h('thead', null, h('tr', null, head.map((t, k) => cell('th', t, k)))),
    h('tbody', null, body.map((r) => h('tr', null, head.map((_, k) => cell('td', r[k] ?? '', k)))))));
}
