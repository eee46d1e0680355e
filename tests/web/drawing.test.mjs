// The tables drawn from states made up for the purpose: each finding of a browser walk through
// the games (Spider Monkey's cards that stayed face up, Fib-Fibonacci's invisible restart 6 and
// its run numbers, Naked Gibbon's overlapping captions, limbs and stale doubt) and the result
// screen, checked on the page's own drawing code in chromium. No game rules run here: the states
// are what a server would send.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, assertClean, screenshot, DESKTOP } from './harness.mjs';

const env = useServerAndBrowser();
let player;

before(async () => {
  player = await env.player('Dee');
  await player.page.goto(`${env.server.url}/`);
  await player.page.waitForSelector('.game-card');
  // A table view of its own, fed by hand: window.draw(state) redraws it, window.tell(event) logs.
  await player.page.evaluate(async () => {
    const { TableView } = await import('/js/table.js');
    const root = document.createElement('div');
    root.id = 'drawn';
    root.style.height = '100%';  // as the app's own screen: the table is one screen high
    document.querySelector('main').replaceChildren(root);
    // What the table sends is kept, so a test can see which move a click made.
    window.sent = [];
    const conn = { request: async (msg) => { window.sent.push(msg); return {}; } };
    let view = null;
    window.fresh = () => {
      view?.destroy();
      view = new TableView(root, { conn, room: 'TEST22', gameName: (id) => id, onPlayAgain() {}, onLeave() {}, onTakeSeat() {} });
    };
    window.draw = (state) => view.update(state);
    window.tell = (event) => view.event({ event });
    window.fresh();
  });
});

after(async () => {
  assertClean(player);
});

const PLAYERS = ['Ann', 'Bob', 'Cy'].map((name, seat) => ({ seat, name, connected: true, bot: seat > 0, away: false }));

function state(game, view, extra = {}) {
  return {
    type: 'state', room: 'TEST22', version: extra.version ?? 5, game, status: 'playing', seat: 0,
    players: extra.players ?? PLAYERS, toAct: extra.toAct ?? [0], view, legal: extra.legal ?? [], labels: extra.labels ?? [],
    window: null, turn: null, moves: 4, options: {}, ...extra,
  };
}

async function draw(s) {
  await player.page.evaluate((x) => window.draw(x), s);
}

// ---------- Spider Monkey ----------

const SM_VIEW = {
  phase: 'turn', round: 1, dealer: 2, current: 0, toAct: [0], lines: [[0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3]],
  stock: 39, discard: ['9S'], caller: null, finalTurnsLeft: 0, turns: 0, window: null, lastTurn: null, lastRound: null,
};

test('spider-monkey: looked-at cards turn face down again, and a placed card replaces what you saw', async () => {
  const { page } = player;
  await page.evaluate(() => window.fresh());
  await draw(state('spider-monkey', SM_VIEW, { legal: [{ move: 'draw' }], labels: ['draw from the stock'] }));
  await page.evaluate(() => window.tell({ type: 'peek', slots: [0, 2], cards: ['2H', 'KD'], text: 'you look at your slot 1: Two of Hearts, and slot 3: King of Diamonds' }));
  const faceUp = () => page.locator('.my-area .sm-line .card.french').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  assert.deepEqual(await faceUp(), ['your slot 1: Two of Hearts', 'your slot 3: King of Diamonds'], 'the peek shows the two cards');
  // You put the Queen of Clubs into slot 1: the Two you saw there is gone at once.
  await page.evaluate(() => window.tell({ type: 'placed', slot: 0, card: 'QC', text: 'you put the Queen of Clubs in your slot 1' }));
  await page.evaluate(() => window.tell({ type: 'replace', seat: 0, slot: 0, discarded: '2H', text: 'Ann keeps the drawn card in slot 1 and discards Two of Hearts' }));
  await draw(state('spider-monkey', { ...SM_VIEW, discard: ['9S', '2H'], lastTurn: { seat: 0, from: 'stock', replaced: 0, discarded: '2H' } }, { version: 7, toAct: [1, 2] }));
  const labels = await faceUp();
  assert.ok(!labels.some((l) => l.includes('Two of Hearts')), `slot 1 no longer shows the discarded Two: ${labels}`);
  assert.ok(labels.includes('your slot 1: Queen of Clubs'), `slot 1 shows the card put there: ${labels}`);
  // A moment later nothing of yours is face up: remembering is the game.
  await page.waitForFunction(() => document.querySelectorAll('.my-area .sm-line .card.french').length === 0, null, { timeout: 6000 });
  await draw(state('spider-monkey', { ...SM_VIEW, discard: ['9S', '2H'] }, { version: 9, toAct: [1] }));
  assert.equal(await page.locator('.my-area .sm-line .card.french').count(), 0, 'a later state does not bring them back');
  assert.equal(await page.locator('.my-area .sm-line .card.back').count(), 4);
});

test('spider-monkey: slots are numbered from 1, and a slapped card leaves its gap', async () => {
  const { page } = player;
  await page.evaluate(() => window.fresh());
  const view = { ...SM_VIEW, lines: [[0, 1, 3, 4, 5], [1, 2, 3], [0, 1, 2, 3]] };
  await draw(state('spider-monkey', view, { legal: [{ move: 'take-discard', slot: 3 }], labels: ['take the Nine of Spades from the discard pile into slot 4'] }));
  const mine = await page.locator('.my-area .sm-line').evaluate((row) => [...row.children].map((c) => (c.classList.contains('sm-gap') ? 'gap' : c.querySelector('.back-caption').textContent)));
  assert.deepEqual(mine, ['1', '2', 'gap', '4', '5', '6']);
  const bob = await page.locator('.seat[data-seat="1"] .sm-line').evaluate((row) => [...row.children].map((c) => (c.classList.contains('sm-gap') ? 'gap' : c.querySelector('.back-caption').textContent)));
  assert.deepEqual(bob, ['gap', '2', '3', '4']);
  // The slot the label names is the slot that plays it.
  assert.equal(await page.locator('.my-area .sm-line .playable').getAttribute('aria-label'), 'your slot 4');
});

// ---------- Fib-Fibonacci ----------

const FF_VIEW = {
  phase: 'turn', current: 0, game: 1, seriesGames: 1, gamesWon: [0, 0], dealer: 1, turn: 9, turnLimit: 500, drawPile: 8,
  handCounts: [4, 5], tableEmpty: false, sideArea: [], passes: 0, dryRepeats: 0, hand: ['2C', '5D', '6D', '8H'], pairChance: null,
  lastPlay: { seat: 1, move: 'restart', card: '6C' },
  bases: [{ card: 'X1', role: 'joker', caps: null }, { card: '6C', role: 'restart', caps: 0 }],
  runs: [
    { base: 0, opening: 'A', cards: ['2S', '3S', '5S'], values: [2, 3, 5], closed: true, cappedBy: 1 },
    { base: 0, opening: 'B', cards: ['3H'], values: [3], closed: false, cappedBy: null },
    { base: 1, opening: 'A', cards: [], values: [], closed: false, cappedBy: null },
  ],
  columns: [{ base: 0, A: [0, 2], B: [1] }],
};

test('fib-fibonacci: a restart 6 is drawn across the run it caps, and runs carry the numbers the moves use', async () => {
  const { page } = player;
  await page.evaluate(() => window.fresh());
  await draw(state('fib-fibonacci', FF_VIEW, {
    legal: [{ move: 'run', card: '2C', run: 2 }, { move: 'run', card: '5D', run: 1 }, { move: 'draw' }],
    labels: ['play Two of Clubs on run 3, the empty side A of Six of Clubs', 'play Five of Diamonds on run 2 (3)', 'draw a card'],
  }));
  const restart = page.locator('.base.restart .card');
  assert.equal(await restart.count(), 1, 'the restart 6 is on the table');
  assert.match(await restart.getAttribute('aria-label'), /Six of Clubs/);
  // The 6 lies between the run it caps (run 1) and the run it opened (run 3).
  const sideA = await page.locator('.run-col').first().evaluate((col) => [...col.children].map((c) => (c.classList.contains('restart') ? '6' : c.querySelector('.run-name')?.textContent ?? c.textContent)));
  assert.deepEqual(sideA, ['side A', 'run 1', '6', 'run 3']);
  assert.deepEqual(await page.locator('.run-name').allTextContents(), ['run 1', 'run 3', 'run 2']);
  // Every run a label speaks of is on the table under that number.
  const labels = await page.locator('.action-bar button.action').allTextContents();
  const shown = new Set(await page.locator('.run-name').allTextContents());
  for (const l of labels) for (const m of l.matchAll(/run (\d+)/g)) assert.ok(shown.has(`run ${m[1]}`), `"${l}" names a run on the table`);
  // The Five of Diamonds goes to run 2: the button of the run numbered 2 plays it.
  const target = page.locator('.run[data-run="1"] .run-next');
  assert.match(await target.getAttribute('aria-label'), /^run 2/);
  assert.equal(await target.getAttribute('data-legal'), '1');
});

test('fib-fibonacci: a joker with twenty ways to lay it says their shared words once, and every choice fits on screen', async () => {
  const { page } = player;
  await page.evaluate(() => window.fresh());
  const legal = [{ move: 'joker', card: 'X1' }];
  const labels = ['play Joker as a new base'];
  for (const [card, words] of [['6C', '6♣'], ['6D', '6♦']]) {
    for (const side of ['A', 'B']) {
      for (let value = 0; value < 4; value++) {
        legal.push({ move: 'joker', card: 'X1', with: card, value, side });
        labels.push(`play Joker as a new base, with ${words} (as ${value}) on side ${side}`);
      }
    }
  }
  for (const side of ['A', 'B']) {
    legal.push({ move: 'joker', card: 'X1', with: '3H', side });
    labels.push(`play Joker as a new base, with 3♥ on side ${side}`);
  }
  legal.push({ move: 'draw' });
  labels.push('draw a card');
  const view = { ...FF_VIEW, tableEmpty: true, bases: [], runs: [], columns: [], hand: ['6C', '6D', '3H', '5H', '5S', 'X1'], lastPlay: null };
  for (const size of [{ width: 1366, height: 768 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    await draw(state('fib-fibonacci', view, { legal, labels }));
    await page.locator('.my-area .hand button[aria-label="Joker"]').click();
    assert.equal(await page.locator('.action-bar .menu-common').textContent(), 'Play Joker as a new base …');
    const buttons = page.locator('.action-bar button.action');
    assert.equal(await buttons.count(), 19);
    assert.equal(await buttons.nth(0).textContent(), 'Play Joker as a new base');
    assert.equal(await buttons.nth(1).textContent(), 'with 6♣ (as 0) on side A');
    assert.equal(await buttons.nth(1).getAttribute('aria-label'), 'Play Joker as a new base, with 6♣ (as 0) on side A');
    const off = await page.evaluate(() => [...document.querySelectorAll('.action-bar button, .my-area .hand .card')].filter((b) => {
      const r = b.getBoundingClientRect();
      return r.top < 0 || r.bottom > window.innerHeight || r.right > window.innerWidth;
    }).map((b) => b.textContent || b.getAttribute('aria-label')));
    assert.deepEqual(off, [], `every choice and the hand are on screen at ${size.width}x${size.height}`);
    await page.locator('.action-bar [data-key="menu-cancel"]').click();
  }
  await page.setViewportSize(DESKTOP);
});

test('fib-fibonacci: a joker with thirty ways to lay it comes in groups by the card it takes along, each on a phone screen', async () => {
  const { page } = player;
  await page.evaluate(() => window.fresh());
  const legal = [{ move: 'joker', card: 'X1' }];
  const labels = ['play Joker as a new base'];
  for (const [card, words] of [['6C', '6♣'], ['6D', '6♦'], ['6S', '6♠']]) {
    for (const side of ['A', 'B']) {
      for (let value = 0; value < 4; value++) {
        legal.push({ move: 'joker', card: 'X1', with: card, value, side });
        labels.push(`play Joker as a new base, with ${words} (as ${value}) on side ${side}`);
      }
    }
  }
  for (const [card, words] of [['3H', '3♥'], ['2S', '2♠']]) {
    for (const side of ['A', 'B']) {
      legal.push({ move: 'joker', card: 'X1', with: card, side });
      labels.push(`play Joker as a new base, with ${words} on side ${side}`);
    }
  }
  legal.push({ move: 'draw' });
  labels.push('draw a card');
  const view = { ...FF_VIEW, tableEmpty: true, bases: [], runs: [], columns: [], hand: ['6C', '6D', '6S', '3H', '2S', 'X1'], lastPlay: null };
  const offScreen = () => page.evaluate(() => [...document.querySelectorAll('.action-bar button, .my-area .hand .card')].filter((b) => {
    const r = b.getBoundingClientRect();
    return r.top < 0 || r.bottom > window.innerHeight || r.right > window.innerWidth;
  }).map((b) => b.textContent || b.getAttribute('aria-label')));
  await page.setViewportSize({ width: 390, height: 844 });
  await draw(state('fib-fibonacci', view, { legal, labels }));
  await page.locator('.my-area .hand button[aria-label="Joker"]').click();
  // The joker alone, then one button for each card it may take along.
  const buttons = page.locator('.action-bar button.action');
  assert.deepEqual(await buttons.allTextContents(),
    ['Play Joker as a new base', 'with 6♣ … (8)', 'with 6♦ … (8)', 'with 6♠ … (8)', 'with 3♥ … (2)', 'with 2♠ … (2)']);
  assert.equal(await buttons.nth(2).getAttribute('aria-label'), 'Play Joker as a new base with 6♦ …: 8 choices');
  assert.deepEqual(await offScreen(), [], 'the groups fit on a phone');
  // A group opens its choices with the words they share said once; Back returns to the groups.
  await buttons.nth(2).click();
  assert.equal(await page.locator('.action-bar .menu-common').textContent(), 'Play Joker as a new base with 6♦ …');
  assert.deepEqual(await buttons.allTextContents(), ['(as 0) on side A', '(as 1) on side A', '(as 2) on side A', '(as 3) on side A',
    '(as 0) on side B', '(as 1) on side B', '(as 2) on side B', '(as 3) on side B']);
  assert.equal(await buttons.nth(5).getAttribute('aria-label'), 'Play Joker as a new base, with 6♦ (as 1) on side B');
  assert.deepEqual(await offScreen(), [], 'the choices of a group fit on a phone');
  await page.locator('.action-bar [data-key="menu-back"]').click();
  assert.equal(await buttons.count(), 6);
  // The chosen one is the move sent.
  await buttons.nth(2).click();
  await buttons.nth(5).click();
  assert.deepEqual(await page.evaluate(() => window.sent.at(-1).action), { move: 'joker', card: 'X1', with: '6D', value: 1, side: 'B' });
  // The twenty of a smaller hand come as they are (the test above); thirty are grouped on a
  // wide screen too, and nothing in the bar needs scrolling to be seen.
  await page.setViewportSize(DESKTOP);
  await page.evaluate(() => window.fresh());
  await draw(state('fib-fibonacci', view, { legal, labels }));
  await page.locator('.my-area .hand button[aria-label="Joker"]').click();
  assert.equal(await buttons.count(), 6);
  assert.deepEqual(await offScreen(), [], 'every choice fits on a wide screen');
  assert.ok(await page.evaluate(() => { const b = document.querySelector('.action-bar'); return b.scrollHeight <= b.clientHeight + 1; }));
  await page.locator('.action-bar [data-key="menu-cancel"]').click();
});

// ---------- Naked Gibbon ----------

const NG_VIEW = {
  phase: 'main', round: 1, dealer: 2, seatOrder: [0, 1, 2], current: 0, toAct: [0], fireNumber: 9, doubtable: [2],
  handCounts: [3, 3, 3], table: [[null, '4C', null], [null, null, null], ['7D', null, null]],
  burned: [[true, false, false], [false, false, false], [false, false, false]], burnmarks: [1, 0, 0], hat: null,
  out: [false, false, false], losses: [0, 0, 0], deck: 30, discard: 4, turnsThisRound: 8, burnLimit: 3, hand: ['9S', 'AH', 'X1'],
};
const LONG = ['Maximiliana', 'Bartholomew', 'Bot 3'].map((name, seat) => ({ seat, name, connected: true, bot: seat === 2, away: false }));

function fire(n) {
  const jumps = ['side-flip', 'back-flip', 'hands-up', 'random', 'chest-up', 'side-flip', 'back-flip'];
  return Array.from({ length: n }, (_, i) => ({ by: i % 3, jump: jumps[i % jumps.length], before: i + 2, after: i + 3, ...(i % 2 ? { card: ['5S', '8H', 'TD', 'QC'][i % 4] } : {}) }));
}

for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`naked-gibbon at ${size.width}x${size.height}: the captions on the fire never overlap`, async () => {
    const { page } = player;
    await page.setViewportSize(size);
    await page.evaluate(() => window.fresh());
    await draw(state('naked-gibbon', { ...NG_VIEW, fire: fire(7) }, { players: LONG }));
    const boxes = await page.locator('.fire-pile .jump-tag').evaluateAll((tags) => tags.filter((t) => t.offsetParent).map((t) => {
      const r = t.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, clipped: [...t.children].some((s) => s.scrollWidth > s.clientWidth + 1 && getComputedStyle(s).textOverflow !== 'ellipsis') };
    }));
    assert.ok(boxes.length >= 4, `${boxes.length} jumps shown`);
    for (let i = 0; i < boxes.length; i++) {
      assert.ok(!boxes[i].clipped, 'a caption is cut off without an ellipsis');
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i];
        const b = boxes[j];
        const overlap = a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
        assert.ok(!overlap, `captions ${i} and ${j} overlap: ${JSON.stringify([a, b])}`);
      }
    }
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= size.width + 1, `the table is ${width}px wide`);
    await page.setViewportSize({ width: 1280, height: 900 });
  });
}

test('naked-gibbon: a gibbon has two legs and a tail, and no arms', async () => {
  const { page } = player;
  await page.evaluate(() => window.fresh());
  await draw(state('naked-gibbon', { ...NG_VIEW, fire: fire(2) }));
  const text = await page.locator('.board').textContent();
  assert.doesNotMatch(text, /\barm\b/i);
  assert.deepEqual(await page.locator('.my-area .gibbon-body .limb-state').allTextContents(), ['leg', 'leg', 'tail']);
  assert.equal(await page.locator('.my-area .gibbon-body .limb-state.burned').count(), 1, 'one burnmark burns a leg');
  assert.match(await page.locator('.my-area .gibbon-body').getAttribute('aria-label'), /1 burnmark of 3: a leg burned/);
});

test('naked-gibbon: a doubt is news until the new fire gets its first jump, and only then', async () => {
  const { page } = player;
  await page.evaluate(() => window.fresh());
  await draw(state('naked-gibbon', { ...NG_VIEW, fire: fire(3) }, { version: 10 }));
  const doubt = { doubter: 1, target: 2, jump: 'side-flip', before: 5, card: '5S', kept: false };
  await draw(state('naked-gibbon', { ...NG_VIEW, phase: 'new-fire', fireNumber: 0, fire: [], lastDoubt: doubt }, { version: 11 }));
  assert.match(await page.locator('.doubt-news').textContent(), /Bob doubted Cy's side flip/);
  await draw(state('naked-gibbon', { ...NG_VIEW, fireNumber: 4, fire: [{ by: 1, jump: 'hands-up', before: 0, after: 4, card: '4H' }], lastDoubt: doubt }, { version: 12 }));
  assert.equal(await page.locator('.doubt-news').count(), 0, 'the next fire has begun');
  // A panic jump crashes: the fire is empty again, and the old doubt is still old.
  await draw(state('naked-gibbon', { ...NG_VIEW, phase: 'new-fire', fireNumber: 0, fire: [], lastDoubt: doubt }, { version: 13 }));
  assert.equal(await page.locator('.doubt-news').count(), 0, 'an old doubt does not come back');
});

test('naked-gibbon: the choice for a hand card names the card in words', async () => {
  const { page } = player;
  await page.evaluate(() => window.fresh());
  await draw(state('naked-gibbon', { ...NG_VIEW, fire: fire(2) }, {
    legal: [{ move: 'hands-up', card: '9S' }, { move: 'side-flip', card: '9S' }, { move: 'random' }],
    labels: ['hands up: Nine of Spades 9 to 9', 'side flip: the same number 9 with Nine of Spades', 'panic jump'],
  }));
  await page.locator('.my-area .hand button[aria-label="Nine of Spades"]').click();
  assert.equal(await page.locator('.action-bar .menu-title').textContent(), 'Jump with the Nine of Spades');
});

test('naked-gibbon at 1280x800: six ways to place three cards lie in columns, and the table keeps its room', async () => {
  const { page } = player;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => window.fresh());
  const cards = ['JD', '8D', '4H'];
  const orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [2, 0, 1], [1, 2, 0], [2, 1, 0]];
  const names = { JD: 'J\u2666', '8D': '8\u2666', '4H': '4\u2665' };
  const legal = orders.map((slots) => ({ move: 'place', slots }));
  const labels = orders.map((slots) => slots.map((slot, i) => `${names[cards[i]]} on slot ${slot + 1}${slot === 0 ? ' (burned)' : ''}`).join(', ')).map((t) => `place ${t}`);
  await draw(state('naked-gibbon', { ...NG_VIEW, phase: 'place', fire: fire(2) }, { legal, labels }));
  const buttons = await page.locator('.action-bar button.action').evaluateAll((bs) => bs.map((b) => {
    const r = b.getBoundingClientRect();
    return { left: Math.round(r.left), top: Math.round(r.top), bottom: r.bottom };
  }));
  assert.equal(buttons.length, 6);
  const columns = new Set(buttons.map((b) => b.left)).size;
  assert.ok(columns >= 2, `the six choices are one long list (${columns} column)`);
  for (const b of buttons) assert.ok(b.bottom <= 800, 'a choice is below the fold');
  // The middle of the table is not squeezed into a strip that must scroll.
  const middle = await page.locator('.table-top').evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
  assert.ok(middle.scroll <= middle.client + 1, `the middle scrolls (${middle.scroll} in ${middle.client})`);
  await screenshot(page, 'naked-gibbon-six-placements-1280x800.png');
  await page.setViewportSize({ width: 1280, height: 900 });
});

// ---------- Everywhere: the status line and the result ----------

test('the status line says what you may do and whom the table waits for', async () => {
  const { page } = player;
  await page.evaluate(() => window.fresh());
  const lastClaim = { by: 2, claim: 'red-hat', free: true, challengeable: true };
  const pino = { phase: 'challenge', current: 0, stacks: [10, 10, 9], box: 0, noses: [0, 0, 0], pileSize: 1, lastClaim };
  await draw(state('pinocchio', pino, { legal: [{ move: 'challenge' }, { move: 'believe' }], labels: ['challenge', 'believe'] }));
  assert.equal(await page.locator('.turn-line').textContent(), 'Your turn: Cy says the card is Red Hat. Believe it, or call a lie.');
  await draw(state('pinocchio', { ...pino, current: 1 }, { toAct: [1], version: 6 }));
  assert.equal(await page.locator('.turn-line').textContent(), "Waiting for Bob to believe or doubt Cy's claim.");
  await draw(state('pinocchio', { ...pino, phase: 'play', current: 0, yourCard: 'blue-shoes' }, {
    version: 7, legal: [{ move: 'announce', colour: 'red', clothing: 'shoes' }], labels: ['play your card as Red Shoes'],
  }));
  assert.equal(await page.locator('.turn-line').textContent(), 'Your turn: play your top card (Blue Shoes) and say what it is: a claim that matches Red Hat in colour or clothing.');
  // Several at once: a simultaneous window.
  await draw(state('spider-monkey', { ...SM_VIEW, phase: 'peek', current: null, toAct: [0, 1, 2], peeked: [] }, {
    version: 8, toAct: [0, 1, 2], legal: [{ move: 'peek', slots: [0, 1] }], labels: ['look at your slots 1 and 2'],
  }));
  assert.equal(await page.locator('.turn-line').textContent(), 'Your turn (Bob and Cy too): look at two of your own cards: click one, then choose the pair.');
  await draw(state('spider-monkey', { ...SM_VIEW, phase: 'peek', current: null, toAct: [1, 2], peeked: [0] }, { version: 9, toAct: [1, 2] }));
  assert.equal(await page.locator('.turn-line').textContent(), 'Waiting for Bob and Cy to look at their cards.');
});

test('pinocchio: a pile told only by its size and its top claim is drawn as a stack with the claim on it', async () => {
  const { page } = player;
  await page.evaluate(() => window.fresh());
  const view = { phase: 'challenge', current: 0, stacks: [8, 8, 7], box: 0, noses: [0, 1, 0], pileSize: 7,
    lastClaim: { by: 2, claim: 'blue-shoes', free: false, mustMatch: 'blue-hat', challengeable: true } };
  await draw(state('pinocchio', view, { legal: [{ move: 'challenge' }, { move: 'believe' }], labels: ['challenge', 'believe'] }));
  assert.equal(await page.locator('.turn-line').textContent(), 'Your turn: Cy says the card is Blue Shoes. Believe it, or call a lie.');
  assert.equal(await page.locator('.claims').getAttribute('aria-label'), 'pile of 7 cards');
  assert.equal(await page.locator('.claims .claim.under .card').getAttribute('aria-label'), '6 cards under it');
  assert.match(await page.locator('.claims .claim.latest .bubble').textContent(), /Cy says Blue Shoes/);
});

test('pinocchio: a challenged claim shows the card turned over, and the next claim is free', async () => {
  const { page } = player;
  await page.evaluate(() => window.fresh());
  const view = { phase: 'play', current: 0, stacks: [8, 8, 7], box: 0, noses: [0, 1, 0], pileSize: 7,
    lastClaim: { by: 2, claim: 'blue-shoes', free: false, mustMatch: 'blue-hat', challengeable: true,
      challenge: { by: 1, revealed: 'red-hat', truthful: false } }, yourCard: 'yellow-shirt' };
  await draw(state('pinocchio', view, { legal: [{ move: 'announce', colour: 'red', clothing: 'hat' }], labels: ['say Red Hat'] }));
  assert.equal(await page.locator('.claims .claim.latest .card').getAttribute('aria-label'), 'Red Hat, revealed');
  assert.equal(await page.locator('.claims .claim.latest .verdict').textContent(), 'lie!');
  assert.equal(await page.locator('.pino-center .rule').textContent(), 'The next claim is free.');
  assert.equal(await page.locator('.turn-line').textContent(), 'Your turn: play your top card (Yellow Shirt) and say what it is: any claim.');
});

const OVER_CLAIM = { by: 2, challengeable: true, claim: 'red-hat', free: false, mustMatch: 'red-shoes' };
const RESULTS = [
  { game: 'pinocchio', view: { phase: 'over', current: null, stacks: [0, 0, 0], box: 0, noses: [3, 1, 1], pileSize: 45, lastClaim: OVER_CLAIM },
    result: { winners: [1, 2], losers: [0], places: [3, 1, 1], scores: [3, 1, 1] },
    headline: 'You lost: you came 3rd of 3.', column: 'Nose', cells: ['1', '1', '3'], note: /shortest nose wins/i },
  { game: 'pinocchio', view: { phase: 'over', current: null, stacks: [0, 0, 0], box: 0, noses: [0, 2, 1], pileSize: 45, lastClaim: OVER_CLAIM },
    result: { winners: [0], losers: [1], places: [1, 3, 2], scores: [0, 2, 1] },
    headline: 'You won!', column: 'Nose', cells: ['0', '1', '2'], note: /shortest nose wins/i },
  { game: 'naked-gibbon', view: { ...NG_VIEW, phase: 'over', fire: [], burnmarks: [1, 3, 0], roundLoser: 1 },
    result: { winners: [0, 2], losers: [1], places: [1, 3, 1] },
    headline: 'You won, together with Cy!', column: 'Burnmarks', cells: ['1', '0', '3'], note: /Bob burned the tail/ },
  { game: 'spider-monkey', view: { ...SM_VIEW, phase: 'over', revealed: [['AS', 'KD'], ['9H', '9C', 'TD'], ['2C', 'KS']] },
    result: { winners: [0], losers: [1], places: [1, 3, 2], scores: [1, 28, 15] },
    headline: 'You won!', column: 'Points', cells: ['1', '15', '28'], note: /lowest sum wins/i },
  { game: 'tricky-tribes', view: { phase: 'over', round: 4, totals: [12, 16, 3], endMode: 'target', target: 15, stacks: [[], [], []], stackPoints: [0, 0, 0], handCounts: [0, 0, 0] },
    result: { winners: [1], losers: [2], places: [2, 1, 3], scores: [12, 16, 3] },
    headline: 'You lost: you came 2nd of 3.', column: 'Points', cells: ['16', '12', '3'], note: /First to 15 points/ },
];

for (const r of RESULTS) {
  test(`${r.game}: the result says "${r.headline}" and scores in the game's terms`, async () => {
    const { page } = player;
    await page.evaluate(() => window.fresh());
    await draw(state(r.game, { ...r.view, result: r.result }, { status: 'over', toAct: [], result: r.result }));
    assert.equal(await page.locator('.result h2').textContent(), r.headline);
    assert.equal(await page.locator('.turn-line').textContent(), r.headline);
    assert.match(await page.locator('.result-note').textContent(), r.note);
    const heads = await page.locator('.result th').allTextContents();
    assert.deepEqual(heads.slice(0, 3), ['Place', 'Player', r.column]);
    const cells = await page.locator('.result tbody tr td:nth-child(3)').allTextContents();
    assert.deepEqual(cells, r.cells);
  });
}

// ---------- What a first-time player notices ----------

// Whether each point of an element's box (inset a little) is the element itself on screen, not
// something drawn over it.
async function uncovered(locator) {
  return locator.evaluateAll((els) => els.map((el) => {
    const r = el.getBoundingClientRect();
    const points = [[0.5, 0.5], [0.15, 0.25], [0.85, 0.25], [0.15, 0.75], [0.85, 0.75]];
    const hidden = points.filter(([fx, fy]) => {
      const hit = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy);
      return !hit || !(hit === el || el.contains(hit));
    });
    return { text: el.textContent, hidden: hidden.length };
  }));
}

test('fib-fibonacci: every run name stays readable above a lifted card, and each run says what it needs', async () => {
  const { page } = player;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => window.fresh());
  // A 4 in hand makes every run card playable: lifted, ringed, and lifted further under the pointer.
  const view = {
    ...FF_VIEW,
    hand: ['4C', '2C', '5D'],
    runs: [
      ...FF_VIEW.runs,
      { base: 2, opening: 'A', cards: ['2H'], values: [2], closed: false, cappedBy: null },
      { base: 2, opening: 'B', cards: ['2D', '3D', '5H', '8S'], values: [2, 3, 5, 8], closed: true, cappedBy: null, next: 13 },
    ],
    bases: [...FF_VIEW.bases, { card: 'X2', role: 'joker', caps: null }],
    columns: [{ base: 0, A: [0, 2], B: [1] }, { base: 2, A: [3], B: [4] }],
  };
  view.runs[1] = { ...view.runs[1], cards: ['3H', '5C'], values: [3, 5], next: 8 };
  const legal = [];
  view.runs.forEach((r, run) => r.cards.forEach((_, position) => legal.push({ move: 'four', card: '4C', run, position })));
  legal.push({ move: 'draw' });
  await draw(state('fib-fibonacci', view, { legal, labels: legal.map((a) => (a.move === 'four' ? `swap 4C for a card of run ${a.run + 1}` : 'draw a card')) }));
  assert.ok(await page.locator('.run-card .card.playable').count() >= 6, 'the run cards are playable');
  for (const label of await uncovered(page.locator('.run-name'))) assert.equal(label.hidden, 0, `"${label.text}" is partly hidden`);
  // The first card's top strip is all that shows of it under the cards laid on it.
  await page.locator('.run[data-run="0"] .run-card .card').first().hover({ position: { x: 14, y: 8 } });
  assert.ok(await page.locator('.run[data-run="0"] .run-card .card').first().evaluate((el) => el.matches(':hover')));
  for (const label of await uncovered(page.locator('.run-name'))) assert.equal(label.hidden, 0, `"${label.text}" is partly hidden under the pointer`);
  // Under each run, what it takes next, in words a newcomer reads without the rules.
  const words = await page.locator('.run-next').evaluateAll((els) => Object.fromEntries(els.map((e) => [e.closest('.run').dataset.run, e.textContent])));
  assert.deepEqual(words, { 0: 'capped by a 6', 1: 'needs 8', 2: 'needs 2 or 3', 3: 'needs 3 or 5', 4: 'closed' });
  for (const t of Object.values(words)) assert.doesNotMatch(t, /^(open|start)$/);
  assert.match(await page.locator('.run[data-run="4"] .run-next').getAttribute('title'), /7 or more/);
  assert.match(await page.locator('.fib-legend').textContent(), /sum of its last two/);
  await page.setViewportSize(DESKTOP);
});

// Both sixes of the deck restarting runs: one side restarted twice (three runs in a chain), or
// two sides restarted once each, every run long, a 4 in hand that may take any run card, the
// draw pile used up (passing is a button of its own).
function restarted(twice) {
  const runs = [
    { base: 0, opening: 'A', cards: ['2S', '3S', '5S', '8S'], values: [2, 3, 5, 8], closed: true, cappedBy: 1 },
    { base: 0, opening: 'B', cards: ['3H', '5H', '8D'], values: [3, 5, 8], closed: true, cappedBy: twice ? null : 2 },
    { base: 1, opening: 'A', cards: ['2D', '3D', '5C', '8C'], values: [2, 3, 5, 8], closed: true, cappedBy: twice ? 2 : null },
    { base: 2, opening: 'A', cards: ['2H', '3C', '5D'], values: [2, 3, 5], closed: false, cappedBy: null, next: 8 },
    { base: 3, opening: 'A', cards: ['2C', '5S', '7S'], values: [2, 5, 7], closed: true, cappedBy: null },
    { base: 3, opening: 'B', cards: ['3S', '5H'], values: [3, 5], closed: false, cappedBy: null, next: 8 },
  ];
  const bases = [{ card: 'X1', role: 'joker', caps: null }, { card: '6C', role: 'restart', caps: 0 },
    { card: '6D', role: 'restart', caps: twice ? 2 : 1 }, { card: 'X2', role: 'joker', caps: null }];
  const columns = twice
    ? [{ base: 0, A: [0, 2, 3], B: [1] }, { base: 3, A: [4], B: [5] }]
    : [{ base: 0, A: [0, 2], B: [1, 3] }, { base: 3, A: [4], B: [5] }];
  const view = { ...FF_VIEW, turn: 40, drawPile: 0, handCounts: [5, 4], sideArea: ['7C', '7D'], hand: ['4C', '2C', '5D', '7H', '8H'], lastPlay: null, bases, runs, columns };
  const legal = [];
  runs.forEach((r, run) => r.cards.forEach((_, position) => legal.push({ move: 'four', card: '4C', run, position })));
  legal.push({ move: 'run', card: '8H', run: 3 }, { move: 'run', card: '8H', run: 5 }, { move: 'pass' });
  const labels = legal.map((a) => (a.move === 'four' ? `swap 4C for card ${a.position + 1} of run ${a.run + 1}` : a.move === 'run' ? `play 8H on run ${a.run + 1}` : 'pass'));
  return state('fib-fibonacci', view, { legal, labels, players: PLAYERS.slice(0, 2) });
}

// What of the Fib-Fibonacci table a player cannot see: parts off the screen, cut off by the edge
// of the table, or under something else. A run card shows the strip with its rank and suit (the
// cards laid on it cover the rest, as on a real table); everything else shows its middle.
function ffHidden() {
  const top = document.querySelector('.table-top').getBoundingClientRect();
  const out = [];
  const probe = (el, what, fx, fy) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width * fx;
    const y = r.top + r.height * fy;
    if (r.left < -0.5 || r.top < -0.5 || r.right > window.innerWidth + 0.5 || r.bottom > window.innerHeight + 0.5) out.push(`${what} is off the screen`);
    else if (r.top < top.top - 0.5 || r.bottom > top.bottom + 0.5 || r.left < top.left - 0.5 || r.right > top.right + 0.5) out.push(`${what} is cut off by the table's edge`);
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit))) out.push(`${what} is covered by ${hit ? `${hit.tagName.toLowerCase()}.${[...hit.classList].join('.')}` : 'nothing'}`);
  };
  for (const el of document.querySelectorAll('.fib-center .run-card .card')) probe(el, el.getAttribute('aria-label'), 0.2, 0.1);
  for (const el of document.querySelectorAll('.fib-center .base .card')) probe(el, el.getAttribute('aria-label'), 0.5, 0.5);
  for (const el of document.querySelectorAll('.fib-center .run-name, .fib-center .run-next, .fib-side .card')) probe(el, el.textContent || el.getAttribute('aria-label'), 0.5, 0.5);
  const t = document.querySelector('.table-top');
  if (t.scrollHeight > t.clientHeight + 1 || t.scrollWidth > t.clientWidth + 1) out.push(`the middle of the table scrolls (${t.scrollWidth}x${t.scrollHeight} in ${t.clientWidth}x${t.clientHeight})`);
  const main = document.querySelector('main');
  if (document.scrollingElement.scrollHeight > window.innerHeight + 1 || main.scrollHeight > main.clientHeight + 1) out.push('the page scrolls');
  for (const el of document.querySelectorAll('.my-area .hand .card, .action-bar button')) {
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight || r.right > window.innerWidth) out.push(`${el.getAttribute('aria-label') || el.textContent} is off the screen`);
  }
  return out;
}

for (const twice of [true, false]) {
  test(`fib-fibonacci: with ${twice ? 'one side restarted twice' : 'two sides restarted'}, the whole table fits 1280x800, 1366x768 and 1024x768 without scrolling`, async () => {
    const { page } = player;
    for (const size of [{ width: 1280, height: 800 }, { width: 1366, height: 768 }, { width: 1024, height: 768 }]) {
      await page.setViewportSize(size);
      await page.evaluate(() => window.fresh());
      await draw(restarted(twice));
      assert.equal(await page.locator('.base.restart').count(), 2, 'both restart sixes are on the table');
      assert.equal(await page.locator('.run-card').count(), 19);
      assert.deepEqual(await page.evaluate(ffHidden), [], `at ${size.width}x${size.height}`);
      // The sixes still lie between the runs they cap and the runs they opened.
      const sideA = await page.locator('.run-col').first().evaluate((col) => [...col.children].map((c) => (c.classList.contains('restart') ? '6' : c.querySelector('.run-name')?.textContent ?? c.textContent)));
      assert.deepEqual(sideA, twice ? ['side A', 'run 1', '6', 'run 3', '6', 'run 4'] : ['side A', 'run 1', '6', 'run 3']);
      await screenshot(page, `fib-restarted-${twice ? 'twice' : 'two-sides'}-${size.width}x${size.height}.png`);
    }
    await page.setViewportSize(DESKTOP);
  });
}

test('fib-fibonacci on a phone: the first card of every run shows its rank and suit', async () => {
  const { page } = player;
  await page.setViewportSize({ width: 390, height: 844 });
  for (const twice of [true, false]) {
    await page.evaluate(() => window.fresh());
    await draw(restarted(twice));
    const runs = page.locator('.fib-center .run');
    for (let i = 0; i < await runs.count(); i++) {
      const first = runs.nth(i).locator('.run-card .card').first();
      // The middle of the table scrolls on a phone: bring the run into view, as a player would.
      await first.evaluate((el) => el.scrollIntoView({ block: 'nearest' }));
      const seen = await first.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const corner = el.querySelector('.corner.tl').getBoundingClientRect();
        const points = [[corner.left + corner.width / 2, corner.top + corner.height * 0.25], [r.left + r.width * 0.5, r.top + 4]];
        return { label: el.getAttribute('aria-label'), shown: points.every(([x, y]) => {
          const hit = document.elementFromPoint(x, y);
          return !!hit && (hit === el || el.contains(hit));
        }) };
      });
      assert.ok(seen.shown, `${seen.label}: its corner is hidden (${twice ? 'a side restarted twice' : 'two sides restarted'})`);
    }
    await screenshot(page, `fib-restarted-${twice ? 'twice' : 'two-sides'}-390x844.png`);
  }
  await page.setViewportSize(DESKTOP);
});

// A crowded Fib-Fibonacci table: `cols` jokers with a run of `len` cards on each side, the first
// column's sides restarted by the deck's two sixes (`restarts`, 0 to 2), and `floating` runs whose
// base went back into the draw pile (each alone in its column, on side A or B in turn).
function crowded({ cols, len = 4, restarts = 0, floating = 0 }) {
  const suits = ['S', 'H', 'D', 'C'];
  const runs = [];
  const bases = [];
  const columns = [];
  const addRun = (base, opening, k, n) => {
    const values = [2, 3, 5, 8].slice(0, n);
    const cards = values.map((v) => `${v}${suits[k % 4]}`);
    const closed = values.at(-1) >= 7;
    runs.push({ base, opening, cards, values, closed, cappedBy: null, ...(closed ? {} : { next: values.at(-1) + (values.at(-2) ?? 0) }) });
    return runs.length - 1;
  };
  for (let c = 0; c < cols; c++) {
    bases.push({ card: c % 2 ? 'X2' : 'X1', role: 'joker', caps: null });
    columns.push({ base: c, A: [addRun(c, 'A', c, len)], B: [addRun(c, 'B', c + 1, len)] });
  }
  for (let r = 0; r < restarts; r++) {
    const side = r ? 'B' : 'A';
    const capped = columns[0][side].at(-1);
    runs[capped] = { ...runs[capped], closed: true, cappedBy: bases.length };
    bases.push({ card: r ? '6D' : '6C', role: 'restart', caps: capped });
    columns[0][side].push(addRun(bases.length - 1, side, r + 2, len));
  }
  for (let f = 0; f < floating; f++) {
    const side = f % 2 ? 'B' : 'A';
    const run = addRun(null, side, f + 1, 2);
    columns.push({ base: null, A: side === 'A' ? [run] : [], B: side === 'B' ? [run] : [] });
  }
  const view = { ...FF_VIEW, turn: 40, drawPile: 6, handCounts: [5, 4], sideArea: ['7C', '7D'], hand: ['4C', '2C', '5D', '7H', '8H'], lastPlay: null, bases, runs, columns };
  const legal = [];
  runs.forEach((r, run) => r.cards.forEach((_, position) => legal.push({ move: 'four', card: '4C', run, position })));
  runs.forEach((r, run) => { if (!r.closed) legal.push({ move: 'run', card: '8H', run }); });
  legal.push({ move: 'draw' });
  const labels = legal.map((a) => (a.move === 'four' ? `swap 4C for card ${a.position + 1} of run ${a.run + 1}` : a.move === 'run' ? `play 8H on run ${a.run + 1}` : 'draw a card'));
  return state('fib-fibonacci', view, { legal, labels, players: PLAYERS.slice(0, 2) });
}

// Whether any two of the elements overlap on screen (by more than half a pixel).
function overlaps(selector) {
  const boxes = [...document.querySelectorAll(selector)].map((el) => ({ el, r: el.getBoundingClientRect() }));
  const out = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i].r;
      const b = boxes[j].r;
      if (boxes[i].el.contains(boxes[j].el) || boxes[j].el.contains(boxes[i].el)) continue;
      if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) {
        out.push(`${boxes[i].el.textContent.slice(0, 20)} / ${boxes[j].el.textContent.slice(0, 20)}`);
      }
    }
  }
  return out;
}

// How high the rank of the smallest run card is drawn, in pixels on the screen.
function smallestRank() {
  const heights = [...document.querySelectorAll('.fib-center .run-card .card .corner.tl .rank')]
    .map((el) => el.getBoundingClientRect().height);
  return Math.min(...heights);
}

test('fib-fibonacci on a phone: both sixes restarting runs and two floating runs fit without the middle scrolling', async () => {
  const { page } = player;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => window.fresh());
  await draw(crowded({ cols: 2, restarts: 2, floating: 2 }));
  assert.equal(await page.locator('.run-card').count(), 28);
  assert.deepEqual(await page.evaluate(ffHidden), [], 'at 390x844');
  assert.deepEqual(await page.evaluate(overlaps, '.fib-center .run, .fib-center .base, .fib-side .pile'), [], 'nothing overlaps');
  const rank = await page.evaluate(smallestRank);
  assert.ok(rank >= 7.5, `a run card's rank is ${rank.toFixed(1)}px high`);
  await screenshot(page, 'fib-crowded-390x844.png');
  await page.setViewportSize(DESKTOP);
});

test('naked-gibbon on a phone: four gibbons, a long fire, the deck and the discard fit without the middle scrolling', async () => {
  const { page } = player;
  const players = [...LONG, { seat: 3, name: 'Dominique', connected: true, bot: true, away: false }];
  const view = {
    ...NG_VIEW, seatOrder: [0, 1, 2, 3], handCounts: [5, 3, 3, 3], doubtable: [3], fire: fire(7),
    table: [[null, '4C', null], [null, 'QH', null], ['7D', null, null], ['2S', '9D', 'KC']],
    burned: [[true, false, false], [false, false, false], [false, false, false], [true, true, false]], burnmarks: [1, 0, 0, 2],
    out: [false, false, false, false], losses: [0, 0, 0, 0], hand: ['9S', 'AH', 'X1', '5C', '7C'],
  };
  const legal = [{ move: 'hands-up', card: '9S' }, { move: 'side-flip', card: 'AH' }, { move: 'random' }, { move: 'doubt', target: 3 }];
  for (const size of [{ width: 390, height: 844 }, { width: 360, height: 780 }]) {
    await page.setViewportSize(size);
    await page.evaluate(() => window.fresh());
    await draw(state('naked-gibbon', view, { players, legal, labels: ['hands up: Nine of Spades', 'side flip: Ace of Hearts', 'panic jump', 'doubt Dominique'] }));
    const seen = await page.evaluate(() => {
      const top = document.querySelector('.table-top');
      const box = top.getBoundingClientRect();
      const out = [];
      if (top.scrollHeight > top.clientHeight + 1 || top.scrollWidth > top.clientWidth + 1) out.push(`the middle scrolls (${top.scrollWidth}x${top.scrollHeight} in ${top.clientWidth}x${top.clientHeight})`);
      for (const el of top.querySelectorAll('.card, button, .fire-number, .seat-name, .body-label, .pile-label')) {
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height) continue;
        const what = el.getAttribute('aria-label') || el.textContent;
        if (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5 || r.left < box.left - 0.5 || r.right > box.right + 0.5) out.push(`${what} is outside the table`);
        const hit = document.elementFromPoint(r.left + r.width * 0.3, r.top + r.height * 0.3);
        if (!hit || !(hit === el || el.contains(hit) || hit.closest('.card') === el.closest('.card'))) out.push(`${what} is covered`);
      }
      return out;
    });
    assert.deepEqual(seen, [], `at ${size.width}x${size.height}`);
    // The deck a panic jump draws from is drawn at a size a finger can tap.
    const deck = await page.locator('button.deck').boundingBox();
    assert.ok(deck.width >= 38 && deck.height >= 53, `the deck is ${deck.width}x${deck.height}`);
    assert.deepEqual(await page.evaluate(overlaps, '.opponents .seat, .fire-row .jump, .fire-row .pile, .fire-number'), [], 'nothing overlaps');
    await screenshot(page, `naked-gibbon-four-${size.width}x${size.height}.png`);
  }
  await page.setViewportSize(DESKTOP);
});

test('fib-fibonacci on a phone: a table too crowded to fit stays where the player scrolled it, with the hand and the moves on screen', async () => {
  const { page } = player;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => window.fresh());
  const crowd = crowded({ cols: 5, restarts: 2, floating: 2 });
  await draw(crowd);
  const top = page.locator('.table-top');
  const room = await top.evaluate((t) => t.scrollHeight - t.clientHeight);
  assert.ok(room > 0, 'this table is too crowded for a phone');
  // Its lower edge says there is more below: words on screen, at the bottom of the middle.
  const hint = () => page.evaluate(() => {
    const t = document.querySelector('.table-top').getBoundingClientRect();
    const words = document.querySelector('.table-top .more-hint > span');
    const r = words.getBoundingClientRect();
    return { shown: getComputedStyle(words).visibility === 'visible' && r.height > 0, text: words.textContent,
      atBottom: Math.abs(r.bottom - t.bottom) <= 1 && r.left >= t.left - 0.5 && r.right <= t.right + 0.5 };
  });
  let h = await hint();
  assert.ok(h.shown && h.atBottom, `"more below" shows at the middle's lower edge: ${JSON.stringify(h)}`);
  assert.match(h.text, /more below/);
  await screenshot(page, 'fib-too-crowded-390x844.png');
  // The player scrolls down to the floating runs; the other seat moves and the table is redrawn.
  await top.evaluate((t) => { t.scrollTop = t.scrollHeight; });
  const before = await top.evaluate((t) => t.scrollTop);
  await draw({ ...crowd, version: crowd.version + 1, toAct: [1] });
  await draw({ ...crowd, version: crowd.version + 2 });
  assert.equal(await top.evaluate((t) => t.scrollTop), before, 'the middle is where the player left it');
  h = await hint();
  assert.ok(!h.shown, 'at the end of the middle nothing says there is more');
  await screenshot(page, 'fib-too-crowded-390x844-scrolled.png');
  const off = await page.evaluate(() => [...document.querySelectorAll('.turn-line, .my-area .hand .card, .action-bar button')].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.top < 0 || r.bottom > window.innerHeight || r.left < 0 || r.right > window.innerWidth;
  }).map((el) => el.getAttribute('aria-label') || el.textContent));
  assert.deepEqual(off, [], 'the status line, the hand and the moves are on screen');
  await page.setViewportSize(DESKTOP);
});

for (const size of [{ width: 1280, height: 800, fit: 0.9 }, { width: 1366, height: 768, fit: 0.8 }]) {
  test(`fib-fibonacci at ${size.width}x${size.height}: six columns with a restarted side are drawn large enough to read, nothing overlapping`, async () => {
    const { page } = player;
    await page.setViewportSize(size);
    await page.evaluate(() => window.fresh());
    await draw(crowded({ cols: 4, restarts: 1, floating: 2 }));
    assert.deepEqual(await page.evaluate(ffHidden), [], `at ${size.width}x${size.height}`);
    assert.deepEqual(await page.evaluate(overlaps, '.fib-center .run, .fib-center .base, .fib-column, .fib-side .pile'), [], 'nothing overlaps');
    const width = await page.locator('.fib-center .run-card .card').first().evaluate((el) => el.getBoundingClientRect().width);
    assert.ok(width >= 50 * size.fit - 0.5, `a run card is ${width.toFixed(1)}px wide`);
    await screenshot(page, `fib-six-columns-${size.width}x${size.height}.png`);
    await page.setViewportSize(DESKTOP);
  });
}

test('fib-fibonacci: a floating run shows the side it is on, and no empty side beside it', async () => {
  const { page } = player;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => window.fresh());
  await draw(crowded({ cols: 1, floating: 2 }));
  const heads = await page.locator('.fib-column').evaluateAll((cols) => cols.map((col) => [...col.querySelectorAll('.opening-name')].map((name) => {
    const r = name.getBoundingClientRect();
    return { text: name.textContent, shown: r.width > 0 && r.height > 0, runs: name.parentElement.querySelectorAll('.run').length };
  })));
  assert.deepEqual(heads.map((col) => col.map((h) => h.text)), [['side A', 'side B'], ['side A'], ['side B']]);
  for (const h of heads.flat()) assert.ok(h.shown && h.runs > 0, `"${h.text}" heads ${h.runs} runs`);
  await screenshot(page, 'fib-floating-1280x800.png');
  await page.setViewportSize(DESKTOP);
});

test('fib-fibonacci: a card that lands while the window turns into a phone is on the table at once', async () => {
  const { page } = player;
  await page.setViewportSize({ width: 1280, height: 800 });
  // The page handles its resize (which lands every flight) before anything is drawn: a resize
  // event that came late would land the cards this test wants to see in flight.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.evaluate(() => window.fresh());
  // Animations run a hundred times slower, so the cards are surely still flying at the resize
  // however loaded the machine is (a flight takes 0.38 s at normal speed).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Animation.enable');
  await cdp.send('Animation.setPlaybackRate', { playbackRate: 0.01 });
  const empty = { ...FF_VIEW, tableEmpty: true, bases: [], runs: [], columns: [], lastPlay: null, hand: ['8C', '3S', '7S', 'X1'] };
  const players = PLAYERS.slice(0, 2);
  await draw(state('fib-fibonacci', empty, { toAct: [1], players }));
  // Bob lays a joker with a 3 on side A: both fly from his seat to the table.
  const joker = {
    ...empty, tableEmpty: false, lastPlay: { seat: 1, move: 'joker', card: 'X2' }, bases: [{ card: 'X2', role: 'joker', caps: null }],
    runs: [{ base: 0, opening: 'A', cards: ['3H'], values: [3], closed: false, cappedBy: null }, { base: 0, opening: 'B', cards: [], values: [], closed: false, cappedBy: null }],
    columns: [{ base: 0, A: [0], B: [1] }],
  };
  await draw(state('fib-fibonacci', joker, { toAct: [0], version: 6, players }));
  assert.ok(await page.evaluate(() => document.querySelectorAll('body > .card.flying').length) >= 1, 'the cards are flying');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const seen = await page.evaluate(() => [...document.querySelectorAll('.fib-main .card[data-token]')].map((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width * 0.3, r.top + r.height * 0.2);
    return { label: el.getAttribute('aria-label'), visible: getComputedStyle(el).visibility === 'visible', shown: !!hit && (hit === el || el.contains(hit)) };
  }));
  assert.equal(seen.length, 2);
  for (const c of seen) assert.ok(c.visible && c.shown, `${c.label} is not to be seen on the phone: ${JSON.stringify(c)}`);
  assert.equal(await page.evaluate(() => document.querySelectorAll('body > .card.flying').length), 0, 'no card is left flying towards where it was');
  await cdp.send('Animation.setPlaybackRate', { playbackRate: 1 });
  await cdp.detach();
  await page.setViewportSize(DESKTOP);
});

test('pinocchio: every stack says in words how many cards it has left to play', async () => {
  const { page } = player;
  await page.evaluate(() => window.fresh());
  const view = { phase: 'play', current: 0, stacks: [11, 10, 1], box: 1, noses: [0, 1, 0], pileSize: 3,
    lastClaim: { by: 2, claim: 'red-hat', free: false, mustMatch: 'red-shoes', challengeable: true }, yourCard: 'blue-shoes' };
  await draw(state('pinocchio', view, { legal: [{ move: 'announce', colour: 'red', clothing: 'shoes' }], labels: ['say Red Shoes'] }));
  for (const [seat, words] of [[0, '11 cards to play'], [1, '10 cards to play'], [2, '1 card to play']]) {
    const stack = page.locator(`.seat[data-seat="${seat}"] .pino-stack`);
    assert.equal(await stack.locator('.stack-words').textContent(), words);
    assert.ok(await stack.locator('.stack-words').isVisible());
    assert.equal(await stack.locator('.back-caption').textContent(), words.split(' ')[0], 'the number on the card is the one the words explain');
  }
  assert.doesNotMatch(await page.locator('.felt-info').textContent(), /\bbox\b/, 'the cards left in the box are called what they are');
  assert.match(await page.locator('.felt-info').textContent(), /out of play\s*1/);
});

test('naked-gibbon: the leg and tail chips say they count burnmarks, and a fire bath is in the status line', async () => {
  const { page } = player;
  await page.evaluate(() => window.fresh());
  await draw(state('naked-gibbon', { ...NG_VIEW, fire: fire(2) }, {
    legal: [{ move: 'spot-moult', card: '9S', slot: 2 }, { move: 'fire-bath' }, { move: 'hands-up', card: 'AH' }, { move: 'random' }],
    labels: ['spot moult: Nine of Spades onto slot 3', 'fire bath: discard 3 hand cards and draw them again face up onto the table', 'hands up: Ace of Hearts 9 to 14', 'panic jump'],
  }));
  assert.equal(await page.locator('.my-area .gibbon-body .body-label').textContent(), 'burnmarks 1/3');
  assert.ok(await page.locator('.my-area .gibbon-body .body-label').isVisible());
  assert.match(await page.locator('.seat[data-seat="1"] .gibbon-body .body-label').textContent(), /^burnmarks 0\/3$/);
  assert.match(await page.locator('.my-area .gibbon-body').getAttribute('title'), /burned tail loses the round/);
  const status = await page.locator('.turn-line').textContent();
  assert.match(status, /fire bath/, status);
  assert.match(status, /spot moult/, status);
  assert.equal(status, 'Your turn: the fire is at 9: jump with a hand card or take a panic jump; first you may spot moult or take a fire bath.');
  // With only the fire bath on offer, the status line names it alone.
  await draw(state('naked-gibbon', { ...NG_VIEW, fire: fire(2) }, {
    version: 6, legal: [{ move: 'fire-bath' }, { move: 'random' }], labels: ['fire bath: discard 3 hand cards and draw them again face up onto the table', 'panic jump'],
  }));
  assert.equal(await page.locator('.turn-line').textContent(), 'Your turn: the fire is at 9: take a panic jump; first you may take a fire bath.');
});

// A sparse moment of each game at 1280x800: the middle of the table grows into the room it has
// rather than leaving empty felt, and still never scrolls.
const ROOMY = [
  { game: 'tricky-tribes', players: [...PLAYERS, { seat: 3, name: 'Di', connected: true, bot: true, away: false }],
    view: { phase: 'lead', round: 1, trick: 1, tricksPerRound: 9, leader: 0, endMode: 'target', target: 15, deck: 12, hiddenDiscards: 4,
      handCounts: [9, 9, 9, 9], stackPoints: [0, 0, 0, 0], totals: [0, 0, 0, 0], stacks: [[], [], [], []], hand: ['5C', '2H', 'KH', '3S', '8S', '9S', 'JS', 'KS', 'AS'] } },
  { game: 'naked-gibbon', view: { ...NG_VIEW, fire: fire(2) } },
  { game: 'spider-monkey', view: SM_VIEW },
  { game: 'pinocchio', view: { phase: 'play', current: 0, stacks: [10, 10, 9], box: 0, noses: [0, 0, 0], pileSize: 2, lastClaim: { by: 2, claim: 'red-hat', free: false, mustMatch: 'red-shoes', challengeable: true }, yourCard: 'blue-shoes' } },
  { game: 'fib-fibonacci', view: { ...FF_VIEW, tableEmpty: true, bases: [], runs: [], columns: [], lastPlay: null } },
];

for (const r of ROOMY) {
  test(`${r.game} at 1280x800: the table uses the room it has`, async () => {
    const { page } = player;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.evaluate(() => window.fresh());
    await draw(state(r.game, r.view, r.players ? { players: r.players } : {}));
    const m = await page.evaluate(() => {
      const top = document.querySelector('.table-top');
      const box = top.getBoundingClientRect();
      let low = Infinity;
      let high = -Infinity;
      for (const el of top.querySelectorAll('.opponents *, .felt *')) {
        const e = el.getBoundingClientRect();
        if (!e.width || !e.height) continue;
        low = Math.min(low, e.top);
        high = Math.max(high, e.bottom);
      }
      return { used: (high - low) / box.height, scrolls: top.scrollHeight > top.clientHeight + 1, fit: Number(document.querySelector('.board').dataset.fit) };
    });
    assert.ok(!m.scrolls, 'the middle of the table does not scroll');
    assert.ok(m.fit > 1, `the middle is drawn larger than its smallest size (${m.fit})`);
    assert.ok(m.used >= 0.7, `the drawing fills ${(m.used * 100).toFixed(0)}% of the table's height`);
    await screenshot(page, `roomy-${r.game}-1280x800.png`);
    await page.setViewportSize(DESKTOP);
  });
}

test('tricky-tribes on a phone: every card of a nine-card hand shows its rank and suit, and can be tapped', async () => {
  const { page } = player;
  const players = [...PLAYERS, { seat: 3, name: 'Di', connected: true, bot: true, away: false }];
  for (const size of [{ width: 390, height: 844 }, { width: 360, height: 780 }]) {
    await page.setViewportSize(size);
    await page.evaluate(() => window.fresh());
    const view = { ...ROOMY[0].view };
    const legal = view.hand.map((card) => ({ move: 'lead', card, faceUp: true }));
    await draw(state('tricky-tribes', view, { players, legal, labels: legal.map((a) => `lead ${a.card} face up`) }));
    const cards = page.locator('.my-area .hand .card');
    assert.equal(await cards.count(), 9);
    const seen = await cards.evaluateAll((els) => els.map((el) => {
      const hitsCard = (x, y) => {
        const hit = document.elementFromPoint(x, y);
        return !!hit && (hit === el || el.contains(hit));
      };
      const r = el.getBoundingClientRect();
      const corner = [...el.querySelectorAll('.corner.tl > *')].map((c) => {
        const b = c.getBoundingClientRect();
        const shown = [[0.5, 0.5], [0.1, 0.1], [0.9, 0.1], [0.1, 0.9], [0.9, 0.9]].every(([fx, fy]) => hitsCard(b.left + b.width * fx, b.top + b.height * fy));
        return { text: c.textContent, size: parseFloat(getComputedStyle(c).fontSize), shown };
      });
      // How wide the card shows across its middle: a finger needs about 44px to hit it.
      let exposed = 0;
      for (let x = Math.ceil(r.left); x < r.right; x++) if (hitsCard(x, r.top + r.height / 2)) exposed++;
      return {
        label: el.getAttribute('aria-label'),
        corner,
        exposed,
        centre: hitsCard(r.left + r.width / 2, r.top + r.height / 2),
        width: r.width,
        onScreen: r.left >= 0 && r.right <= window.innerWidth && r.top >= 0 && r.bottom <= window.innerHeight,
      };
    }));
    for (const c of seen) {
      assert.ok(c.onScreen, `${c.label} is on screen at ${size.width}x${size.height}`);
      assert.ok(c.centre, `${c.label} can be tapped in its middle at ${size.width}x${size.height}`);
      assert.ok(c.exposed >= 44, `${c.label} shows ${c.exposed}px of its width at ${size.width}x${size.height}`);
      assert.equal(c.corner.length, 2);
      for (const part of c.corner) {
        assert.ok(part.shown, `the ${part.text} of the ${c.label} is covered at ${size.width}x${size.height}`);
        assert.ok(part.size >= 8.5, `the ${part.text} of the ${c.label} is ${part.size}px`);
      }
    }
    await screenshot(page, `hand-tricky-tribes-${size.width}x${size.height}.png`);
    // Tapping a card plays it.
    await cards.nth(4).click();
    assert.deepEqual(await page.evaluate(() => window.sent.at(-1).action), { move: 'lead', card: '8S', faceUp: true });
  }
  await page.setViewportSize(DESKTOP);
});
