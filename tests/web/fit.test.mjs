// Every game against bots at the three sizes people play at (1280x800, 1366x768 and a 390x844
// phone): on every one of our turns the status line says in words what we may do, and our hand,
// our cards, every control that plays a move and an open choice are on screen without scrolling.
// Cards we play fly to where they land, unless the user asks for reduced motion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, startWithBots, assertClean, screenshot, play, long } from './harness.mjs';

const SIZES = [{ width: 1280, height: 800 }, { width: 1366, height: 768 }, { width: 390, height: 844 }];
const TURNS = long ? 15 : 9;

const GAMES = [
  { id: 'pinocchio', seats: 4 },
  { id: 'naked-gibbon', seats: 4 },
  { id: 'fib-fibonacci', seats: 2 },
  { id: 'spider-monkey', seats: 4 },
  { id: 'tricky-tribes', seats: 4 },
];

const env = useServerAndBrowser();

// Everything we need to play, measured in one look at the page.
function measure() {
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const off = [];
  const check = (el, what) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return;
    if (r.top < -0.5 || r.left < -0.5 || r.bottom > vh + 0.5 || r.right > vw + 0.5) {
      off.push(`${what} at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`);
    }
  };
  const status = document.querySelector('.turn-line');
  check(status, 'the status line');
  const mine = document.querySelector('.my-area');
  if (mine) check(mine, 'your seat and hand');
  document.querySelectorAll('.my-area .hand .card').forEach((c, i) => check(c, `hand card ${i}`));
  document.querySelectorAll('.my-area .playable').forEach((c, i) => check(c, `your control ${i} (${c.getAttribute('aria-label') || c.textContent})`));
  const bar = document.querySelector('.action-bar');
  if (bar && bar.childElementCount) check(bar, 'the action bar');
  document.querySelectorAll('.action-bar button').forEach((b, i) => check(b, `action button ${i} (${b.textContent})`));
  const main = document.querySelector('main');
  const top = document.querySelector('.table-top');
  return {
    off,
    middleScrolls: !!top && (top.scrollHeight > top.clientHeight + 1 || top.scrollWidth > top.clientWidth + 1),
    status: status.textContent,
    mine: status.classList.contains('my-turn'),
    pageScrolls: document.scrollingElement.scrollHeight > vh + 1 || main.scrollHeight > main.clientHeight + 1,
    width: document.documentElement.scrollWidth,
    menu: !!document.querySelector('.action-bar .menu-title'),
  };
}

async function onScreen(page, size, what) {
  const m = await page.evaluate(measure);
  assert.deepEqual(m.off, [], `${what}: off screen at ${size.width}x${size.height} (${m.status})`);
  assert.ok(!m.pageScrolls, `${what}: the page scrolls at ${size.width}x${size.height}`);
  // On a phone the middle of the table may scroll; on a larger screen it is drawn smaller instead.
  if (size.width > 480 && !m.menu) assert.ok(!m.middleScrolls, `${what}: the middle of the table scrolls at ${size.width}x${size.height}`);
  assert.ok(m.width <= size.width + 1, `${what}: the page is ${m.width}px wide`);
  assert.deepEqual(await page.evaluate(hiddenNeeds), [], `${what}: hidden at ${size.width}x${size.height} (${m.status})`);
  return m;
}

for (const g of GAMES) {
  test(`${g.id}: hand, choice and prompt stay on screen at 1280x800, 1366x768 and 390x844`, { timeout: long ? 600000 : 180000 }, async () => {
    const player = await env.player('Fay', SIZES[0]);
    const { page } = player;
    try {
      await startWithBots(player.page, env.server.url, g.id, g.seats);
      let turns = 0;
      const deadline = Date.now() + (long ? 480000 : 140000);
      while (turns < TURNS && !(await page.locator('.result').count())) {
        assert.ok(Date.now() < deadline, `${g.id}: only ${turns} turns came`);
        if (!(await page.locator('.turn-line.my-turn').count())) {
          // Whom the table waits for is said by name.
          const s = await page.evaluate(() => ({ text: document.querySelector('.turn-line').textContent, state: window.campfire.state() }));
          if (s.state?.status === 'playing' && s.state.toAct.length && !s.state.legal.length) {
            const waiting = s.state.toAct.map((t) => s.state.players[t].name);
            assert.ok(waiting.some((n) => s.text.includes(n)), `"${s.text}" names whom the table waits for (${waiting})`);
          }
          await page.waitForTimeout(40);
          continue;
        }
        const size = SIZES[turns % SIZES.length];
        await page.setViewportSize(size);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        if (!(await page.locator('.turn-line.my-turn').count())) continue;  // the turn passed meanwhile
        const m = await onScreen(page, size, `${g.id} turn ${turns}`);
        assert.match(m.status, /^Your turn( \([^)]*\))?: \S.{8,}/, 'the status line says what to do');
        assert.doesNotMatch(m.status, /Your move/);
        if (turns < 3) await screenshot(page, `fit-${g.id}-${size.width}x${size.height}.png`);
        // A card or slot standing for several moves opens a choice: it too is on screen.
        const several = page.locator('.board .playable[data-legal]:not([data-legal="1"])');
        let target = page.locator('.board .playable').nth(turns);
        if (await several.count()) target = several.first();
        if (!(await target.count())) target = page.locator('.board .playable, .action-bar button.action').first();
        const played = await play(page, target, async () => {
          await onScreen(page, size, `${g.id} turn ${turns}, an open choice`);
          return 0;
        });
        if (played) turns++;
      }
      assert.ok(turns >= Math.min(TURNS, 3) || (await page.locator('.result').count()), `${g.id}: ${turns} turns checked`);
      assertClean(player);
    } catch (e) {
      await screenshot(page, `fit-${g.id}-failed.png`).catch(() => {});
      throw e;
    } finally {
      await player.context.close();
    }
  });
}

async function playSome(page, n) {
  let moves = 0;
  const deadline = Date.now() + 60000;
  while (moves < n && Date.now() < deadline && !(await page.locator('.result').count())) {
    if (await page.locator('.turn-line.my-turn').count()) {
      const target = page.locator('.my-area .hand .playable, .announce-grid .playable, .board button.believe.playable').first();
      if (await target.count() && await play(page, target)) moves++;
    } else {
      await page.waitForTimeout(40);
    }
  }
  return moves;
}

for (const reduced of [false, true]) {
  test(`tricky-tribes: played cards ${reduced ? 'appear in place when the user prefers reduced motion' : 'fly to the trick'}`, { timeout: 120000 }, async () => {
    const player = await env.player('Mo', SIZES[0], { reducedMotion: reduced ? 'reduce' : 'no-preference' });
    const { page } = player;
    try {
      await startWithBots(player.page, env.server.url, 'tricky-tribes', 3);
      const moves = await playSome(page, 4);
      assert.ok(moves >= 2, `${moves} cards played`);
      const m = await page.evaluate(() => window.campfire.motion());
      assert.ok(m.arrivals >= moves, `${m.arrivals} cards arrived somewhere`);
      if (reduced) {
        assert.equal(m.flights, 0, 'nothing flies');
        assert.equal(await page.evaluate(() => document.getAnimations().length), 0, 'no animation runs');
      } else {
        assert.equal(m.flights, m.arrivals, 'every arriving card flies');
      }
      assertClean(player);
    } finally {
      await player.context.close();
    }
  });
}

// What of the table a player needs and cannot see or tap: the status line, each hand card, each
// of their controls and each button of the action bar, probed at a point of its own that must be
// the element itself (a hand card at its left edge, which a fanned hand leaves uncovered).
function hiddenNeeds() {
  const out = [];
  const probe = (el, what, atLeftEdge) => {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) return;
    const x = atLeftEdge ? r.left + Math.min(6, r.width / 2) : r.left + r.width / 2;
    const y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit))) {
      const by = hit ? (hit.closest('#table-talk') ? 'the table talk drawer' : `${hit.tagName.toLowerCase()}.${[...hit.classList].join('.')}`) : 'the edge of the screen';
      out.push(`${what} is covered by ${by}`);
    }
  };
  probe(document.querySelector('.turn-line'), 'the status line', true);
  document.querySelectorAll('.my-area .hand .card').forEach((c, i) => probe(c, `hand card ${i}`, true));
  document.querySelectorAll('.my-area .playable').forEach((c, i) => probe(c, `your control ${i} (${c.getAttribute('aria-label') || c.textContent})`, true));
  document.querySelectorAll('.action-bar button').forEach((b, i) => probe(b, `action button ${i} (${b.textContent})`, false));
  return out;
}

const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

for (const g of GAMES) {
  test(`${g.id} opened on a phone: table talk is a closed drawer that covers nothing until the player opens it`, { timeout: 120000 }, async () => {
    const phone = SIZES[2];
    const player = await env.player('Kim', phone);
    const { page } = player;
    const talk = page.locator('#table-talk');
    try {
      await startWithBots(page, env.server.url, g.id, g.seats);
      await page.waitForSelector('.turn-line.my-turn', { timeout: 60000 });
      await frames(page);
      assert.ok(!(await talk.isVisible()), 'the drawer is closed');
      assert.deepEqual(await page.evaluate(hiddenNeeds), [], `${g.id} as the table opens`);
      await screenshot(page, `phone-${g.id}-opened.png`);
      // The player opens it: it is on screen, its chat can be typed into; closing gives the table back.
      await page.locator('.talk-toggle').click();
      await page.waitForFunction(() => {
        const side = document.getElementById('table-talk');
        const r = side.getBoundingClientRect();
        return side.getAnimations().length === 0 && r.top >= 0 && r.bottom <= window.innerHeight + 1;
      });
      const input = page.locator('#table-talk input');
      assert.ok(await input.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === el;
      }), 'the chat line is on top and usable');
      await page.locator('.talk-close').click();
      await talk.waitFor({ state: 'hidden' });
      assert.deepEqual(await page.evaluate(hiddenNeeds), [], `${g.id} after the drawer was closed`);
      // The window turns wide and back (a rotated tablet, a resized window): the drawer is not
      // seen sweeping over the hand, which is in view at once.
      await page.setViewportSize(SIZES[0]);
      await frames(page);
      await page.setViewportSize(phone);
      await frames(page);
      assert.deepEqual(await page.evaluate(hiddenNeeds), [], `${g.id} right after the window turned narrow`);
      assert.ok(!(await talk.isVisible()), 'the drawer stays closed');
      await screenshot(page, `phone-${g.id}-resized.png`);
      assertClean(player);
    } catch (e) {
      await screenshot(page, `phone-${g.id}-failed.png`).catch(() => {});
      throw e;
    } finally {
      await player.context.close();
    }
  });
}
