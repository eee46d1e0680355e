// Every game: a table is reached from the lobby (bots fill the other seats), it is drawn as a
// card table, a legal action is clicked and the server takes it; the same table at phone width
// fits the screen. Screenshots of every table land in the artifacts folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useServerAndBrowser, assertClean, screenshot, createRoom, play, version, PHONE, DESKTOP, long,
} from './harness.mjs';

// The long form plays on: this many of our own moves, or to the end of the game.
const LONG_MOVES = 60;

const GAMES = [
  { id: 'pinocchio', seats: 3, look: '.claims' },
  { id: 'naked-gibbon', seats: 3, look: '.fire-number' },
  { id: 'fib-fibonacci', seats: 2, look: '.fib-center' },
  { id: 'spider-monkey', seats: 3, look: '.sm-line' },
  { id: 'tricky-tribes', seats: 3, look: '.tt-center' },
];

const env = useServerAndBrowser();

async function reachTable(player, game, seats) {
  const { page } = player;
  await createRoom(player, game, seats);
  await page.getByRole('button', { name: 'Fill with bots' }).click();
  await page.waitForSelector('button[data-key=start]:not([disabled])');
  await page.locator('button[data-key=start]').click();
  await page.waitForSelector('.board[data-status=playing]');
  await page.waitForSelector('.turn-line.my-turn');
}

// The first thing on the table that stands for a legal action, else a labelled button.
async function firstLegal(page) {
  const onTable = page.locator('.board .playable');
  if (await onTable.count()) return onTable.first();
  return page.locator('.action-bar button.action').first();
}

async function playOn(page, game) {
  const deadline = Date.now() + 240000;
  let moves = 0;
  while (moves < LONG_MOVES && !(await page.locator('.result').count())) {
    assert.ok(Date.now() < deadline, `${game}: stuck after ${moves} moves`);
    if (await page.locator('.turn-line.my-turn').count()) {
      if (!(await play(page, await firstLegal(page), (n) => moves % n))) continue;
      assert.equal(await page.locator('.notice-error').count(), 0, await page.locator('.notice').textContent());
      moves++;
    } else {
      await page.waitForTimeout(50);
    }
  }
  await screenshot(page, `${game}-later.png`);
}

for (const g of GAMES) {
  test(`${g.id}: a table is reached and a legal action clicked`, { timeout: long ? 360000 : 90000 }, async () => {
    const player = await env.player('Tess');
    const { page } = player;
    try {
      await reachTable(player, g.id, g.seats);
      await page.waitForSelector(g.look);
      assert.ok(await page.locator('.my-area .seat .badge.you').count());
      await screenshot(page, `${g.id}.png`);

      const v = await version(page);
      // Bots keep moving while we look, so a first attempt may find the table redrawn.
      let played = false;
      for (let tries = 0; tries < 5 && !played; tries++) played = await play(page, await firstLegal(page));
      assert.ok(played, 'the first legal action could be clicked');
      assert.equal(await page.locator('.notice-error').count(), 0, await page.locator('.notice').textContent());
      assert.ok((await version(page)) > v);
      assert.ok((await page.locator('.log li').count()) > 0, 'the log shows what happened');
      if (long) await playOn(page, g.id);

      await page.setViewportSize(PHONE);
      await page.waitForTimeout(100);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= PHONE.width + 1, `the ${g.id} table is ${width}px wide at phone width`);
      await screenshot(page, `${g.id}-phone.png`);
      await page.setViewportSize(DESKTOP);
      assertClean(player);
    } catch (e) {
      await screenshot(page, `${g.id}-failed.png`).catch(() => {});
      throw new Error(`${e.message}\npage errors: ${player.errors.join(' | ')}`);
    } finally {
      await player.context.close();
    }
  });
}

test('the lobby fits a phone and lists every game with its options', { timeout: 60000 }, async () => {
  const player = await env.player('Pia', PHONE);
  const { page } = player;
  try {
    await page.goto(`${env.server.url}/`);
    await page.waitForSelector('.game-card');
    const games = await (await fetch(`${env.server.url}/api/games`)).json();
    assert.equal(await page.locator('.game-card').count(), games.length);
    for (const g of games) {
      const form = page.locator(`form[data-game="${g.id}"]`);
      await form.locator('summary').click();
      for (const o of g.options) assert.equal(await form.locator(`[name="${o.key}"]`).count(), 1, `${g.id} ${o.key}`);
    }
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width + 1, `the lobby is ${width}px wide at phone width`);
    await screenshot(page, 'lobby-phone.png');
    assertClean(player);
  } finally {
    await player.context.close();
  }
});

test('a choice of actions stays open, and the bar stays put, while other seats move', { timeout: 60000 }, async () => {
  const player = await env.player('Mo');
  const { page } = player;
  try {
    await page.goto(`${env.server.url}/`);
    await page.waitForSelector('.game-card');
    const out = await page.evaluate(async () => {
      const { ActionBinder } = await import('/js/actions.js');
      const first = { legal: [{ a: 1 }, { b: 2 }, { c: 3 }], labels: ['one', 'two', 'three'] };
      const binder = new ActionBinder(first, () => {});
      binder.openMenu('Pick', [1, 2], null);
      // The same two actions at new places, one that is gone, then none left.
      const moved = binder.carryMenu({ legal: [{ c: 3 }, { x: 0 }, { b: 2 }] });
      const half = binder.carryMenu({ legal: [{ b: 2 }] });
      const gone = binder.carryMenu({ legal: [{ a: 1 }, { x: 0 }] });
      // A bar drawn twice from equal states keeps its buttons; a change redraws it.
      const bar = document.createElement('div');
      document.body.append(bar);
      const free = { legal: [{ a: 1 }, { b: 2 }], labels: ['one', 'two'] };
      new ActionBinder(free, () => {}).renderBar(bar);
      const button = bar.querySelector('button.action');
      const sent = [];
      new ActionBinder(free, (i) => sent.push(i)).renderBar(bar);
      const kept = bar.querySelector('button.action') === button;
      button.click();
      new ActionBinder({ legal: [{ b: 2 }], labels: ['two'] }, () => {}).renderBar(bar);
      const redrawn = bar.querySelector('button.action') !== button && bar.textContent.includes('Two') && !bar.textContent.includes('One');
      bar.remove();
      return { moved: moved.indices, title: moved.title, half: half.indices, gone, kept, sent, redrawn };
    });
    assert.deepEqual(out.moved, [2, 0]);
    assert.equal(out.title, 'Pick');
    assert.deepEqual(out.half, [0]);
    assert.equal(out.gone, null);
    assert.ok(out.kept, 'an unchanged bar keeps its buttons');
    assert.deepEqual(out.sent, [0], 'a kept button acts through the newest binder');
    assert.ok(out.redrawn, 'a changed bar is redrawn');
    assertClean(player);
  } finally {
    await player.context.close();
  }
});

test('a move can be made with the keyboard alone', { timeout: 60000 }, async () => {
  const player = await env.player('Kai');
  const { page } = player;
  try {
    await reachTable(player, 'pinocchio', 2);
    const v = await version(page);
    let reached = false;
    for (let i = 0; i < 80 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.classList.contains('playable') ?? false);
    }
    assert.ok(reached, 'Tab reaches a playable card or button');
    const label = await page.evaluate(() => document.activeElement.getAttribute('aria-label') || document.activeElement.textContent);
    assert.ok(label && label.length > 0, 'the focused control says what it is');
    await page.keyboard.press('Enter');
    if (await page.locator('.action-bar .menu-title').count()) await page.keyboard.press('Enter');
    await page.waitForFunction((old) => Number(document.querySelector('.board').dataset.version) > old, v);
    assertClean(player);
  } finally {
    await player.context.close();
  }
});

test('the lobby sets every room timer, and the waiting room seats bots of the chosen strategy', { timeout: 60000 }, async () => {
  const player = await env.player('Tim');
  const { page } = player;
  try {
    const sent = [];
    page.on('websocket', (ws) => ws.on('framesent', (f) => {
      try {
        sent.push(JSON.parse(f.payload));
      } catch {
        // not JSON: not ours
      }
    }));
    await page.goto(`${env.server.url}/`);
    const form = page.locator('form[data-game="pinocchio"]');
    await form.locator('select[name=seats]').selectOption('3');
    await form.locator('[name=turnSeconds]').fill('45');
    await form.locator('[name=onTimeout]').selectOption('bot');
    await form.locator('[name=graceSeconds]').fill('90');
    await form.locator('[name=botTakeover]').uncheck();
    await form.locator('button[type=submit]').click();
    await page.waitForSelector('.board[data-status=waiting]');
    const create = sent.find((m) => m.type === 'create_room');
    assert.deepEqual(create.timers, { botTakeover: false, turnSeconds: 45, onTimeout: 'bot', graceSeconds: 90 });
    // Bots are basic unless the creator chooses; the choice holds across the page's redraws.
    assert.equal(await page.locator('#bot-strategy').inputValue(), 'basic');
    await page.locator('#bot-strategy').selectOption('expert');
    await page.locator('button[data-key=bot-1]').click();
    await page.waitForFunction(() => document.querySelector('.waiting-seats').textContent.includes('(expert bot)'));
    assert.equal(await page.locator('#bot-strategy').inputValue(), 'expert');
    await page.getByRole('button', { name: 'Fill with bots' }).click();
    await page.waitForSelector('button[data-key=start]:not([disabled])');
    const seats = await page.locator('.waiting-seats').textContent();
    assert.equal((seats.match(/\(expert bot\)/g) || []).length, 2, seats);
    const adds = sent.filter((m) => m.type === 'add_bot');
    assert.ok(adds.length === 2 && adds.every((m) => m.strategy === 'expert'), JSON.stringify(adds));
    await screenshot(page, 'waiting-room-bots.png');
    assertClean(player);
  } finally {
    await player.context.close();
  }
});

test('every browser that takes a seat adds its own randomness to the shuffle before the start', { timeout: 60000 }, async () => {
  const host = await env.player('Hal');
  const guest = await env.player('Gus');
  try {
    const sent = [];
    guest.page.on('websocket', (ws) => ws.on('framesent', (f) => {
      try {
        sent.push(JSON.parse(f.payload));
      } catch {
        // not JSON: not ours
      }
    }));
    await host.page.goto(`${env.server.url}/`);
    const form = host.page.locator('form[data-game="pinocchio"]');
    await form.locator('select[name=seats]').selectOption('2');
    await form.locator('button[type=submit]').click();
    await host.page.waitForSelector('.board[data-status=waiting]');
    const code = (await host.page.locator('.table-head .room-code').textContent()).trim();
    await guest.page.goto(`${env.server.url}/#/room/${code}`);
    await guest.page.locator('#door-join').click();
    // Both seats are listed as having contributed, in every member's state; what each gave is
    // fresh random hex, and never shown to the others.
    for (const p of [host.page, guest.page]) {
      await p.waitForFunction(() => window.campfire.state()?.fairness?.contributed?.length === 2);
      const f = await p.evaluate(() => window.campfire.state().fairness);
      assert.deepEqual(f.contributed, [0, 1]);
      assert.match(f.commitment, /^[0-9a-f]{64}$/);
    }
    const mine = sent.filter((m) => m.type === 'contribute');
    assert.equal(mine.length, 1);
    assert.match(mine[0].entropy, /^[0-9a-f]{32}$/);
    assertClean(host);
    assertClean(guest);
  } finally {
    await host.context.close();
    await guest.context.close();
  }
});
