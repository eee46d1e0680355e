// A finished game, watched again: the result screen links to the replay viewer, which steps
// through the game (first, previous, next, last, play) with every hand shown and the events in
// words. Also: a reloaded page gets the events so far back in its log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, assertClean, screenshot, play, sleep, startWithBots } from './harness.mjs';

const env = useServerAndBrowser({ botDelayMs: 60 });

// Plays our moves until `until` says stop (or the game ends).
async function playOn(page, until) {
  let n = 0;
  const deadline = Date.now() + 150000;
  while (!(await page.locator('.result').count()) && !(await until(n))) {
    assert.ok(Date.now() < deadline, `the game did not end (${n} moves)`);
    if (await page.locator('.turn-line.my-turn').count()) {
      const target = page.locator('.board .playable, .action-bar button.action');
      const k = await target.count();
      if (k && (await play(page, target.nth(n % k), (m) => n % m))) n++;
    } else {
      await sleep(30);
    }
  }
  return n;
}

async function logTexts(page) {
  return page.locator('.log li').allTextContents();
}

test('a reloaded page gets the events so far back in its log', { timeout: 120000 }, async () => {
  const player = await env.player('Rita');
  const { page } = player;
  try {
    await startWithBots(page, env.server.url, 'tricky-tribes', 3);
    await playOn(page, (n) => n >= 3);
    const before = (await logTexts(page)).filter((t) => !/^You are at the table/.test(t));
    assert.ok(before.length >= 5, `${before.length} events before the reload`);
    await page.reload();
    await page.waitForSelector('.board[data-status=playing]');
    await page.waitForFunction(() => document.querySelectorAll('.log li.earlier').length > 0);
    const earlier = await page.locator('.log li.earlier').allTextContents();
    // The newest events before the reload are all back, private ones ("You drew ...") too.
    const tail = before.slice(-Math.min(before.length, 20));
    for (const t of tail) assert.ok(earlier.includes(t), `"${t}" is back after the reload`);
    assert.ok(earlier.some((t) => /^You (drew|discarded)/.test(t)), 'our own private events are back');
    assert.ok(earlier.every((t) => !t.includes('{seat:')), 'names, not seat numbers');
    // A watcher gets the public events only.
    const code = (await page.locator('.table-head .room-code').textContent()).trim();
    const watcher = await env.player('Walt');
    await watcher.page.goto(`${env.server.url}/#/room/${code}`);
    await watcher.page.getByRole('button', { name: 'Watch' }).click();
    await watcher.page.waitForFunction(() => document.querySelectorAll('.log li.earlier').length > 0);
    const seen = await watcher.page.locator('.log li.earlier').allTextContents();
    assert.ok(!seen.some((t) => /^You (drew|discarded)/.test(t)), `a watcher reads nobody's private events: ${seen}`);
    assertClean(watcher);
    await watcher.context.close();
    assertClean(player);
  } finally {
    await player.context.close();
  }
});

test('the replay viewer steps through a finished game with every hand shown', { timeout: 240000 }, async () => {
  const player = await env.player('Rex');
  const { page } = player;
  try {
    const code = await startWithBots(page, env.server.url, 'pinocchio', 3);
    await playOn(page, () => false);
    await page.waitForSelector('.result');
    await page.locator('.result [data-key=replay]').click();
    await page.waitForSelector('.replay-controls [data-key=next]');
    assert.equal(new URL(page.url()).hash, `#/replay/${code}`);
    const total = Number((await page.locator('.replay-count').textContent()).split('/')[1]);
    assert.ok(total > 10, `${total} steps`);
    const status = () => page.locator('.turn-line').textContent();
    assert.equal(await status(), `Step 1 of ${total}: The cards are dealt.`);
    assert.ok(await page.locator('[data-key=first]').isDisabled());
    assert.ok(await page.locator('[data-key=prev]').isDisabled());

    await page.locator('[data-key=next]').click();
    await page.waitForFunction(() => document.querySelector('.replay-count').textContent.startsWith('2 /'));
    assert.match(await status(), new RegExp(`^Step 2 of ${total}: \\S+ plays a card: "`));
    assert.ok((await page.locator('.log li').count()) >= 1, 'the events are in the log, in words');

    // Every hand: a seat about to play shows its top card in its own box, whoever's seat we see from.
    let shownOthers = 0;
    for (let i = 2; i < Math.min(total, 14); i++) {
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction((k) => document.querySelector('.replay-count').textContent.startsWith(`${k} /`), i + 1);
      shownOthers += await page.locator('.opponents .replay-hand .card').count();
    }
    assert.ok(shownOthers > 0, 'other seats\' cards are shown');
    await screenshot(page, 'replay.png');

    await page.locator('[data-key=prev]').click();
    await page.waitForFunction(() => document.querySelector('.replay-count').textContent.startsWith('13 /'));
    await page.locator('[data-key=last]').click();
    await page.waitForFunction((t) => document.querySelector('.replay-count').textContent.startsWith(`${t} /`), total);
    await page.waitForSelector('.result');
    assert.match(await page.locator('.result h2').textContent(), /^The game is over: .* won\.$|a draw/);
    assert.equal(await page.locator('.result [data-key=again]').count(), 0, 'no "Play again" in a replay');
    assert.ok(await page.locator('[data-key=next]').isDisabled());
    const events = await logTexts(page);
    assert.ok(events.length > total / 2, `${events.length} events in words`);
    assert.ok(events.every((t) => !t.includes('{seat:')));
    // Private events are shown with whose they were.
    assert.ok(events.some((t) => /^Rex: You played /.test(t)), 'Rex\'s own played cards are told');

    await page.locator('[data-key=first]').click();
    await page.waitForFunction(() => document.querySelector('.replay-count').textContent.startsWith('1 /'));
    assert.equal(await page.locator('.log li').count(), 0, 'back at the deal, nothing has happened yet');
    // Play runs on by itself, and pauses.
    await page.locator('[data-key=play]').click();
    await page.waitForFunction(() => Number(document.querySelector('.replay-count').textContent.split('/')[0]) >= 3, null, { timeout: 10000 });
    await page.locator('[data-key=play]').click();
    const paused = await page.locator('.replay-count').textContent();
    await sleep(1800);
    assert.equal(await page.locator('.replay-count').textContent(), paused, 'paused');

    // Seen from another seat: that seat sits at the bottom.
    await page.getByLabel('Seen from').selectOption('1');
    await page.waitForFunction(() => document.querySelector('.my-area .seat')?.dataset.seat === '1');
    assertClean(player);
  } finally {
    await player.context.close();
  }
});

test('a replay that does not exist says so', { timeout: 30000 }, async () => {
  const player = await env.player('Ned');
  const { page } = player;
  try {
    await page.goto(`${env.server.url}/#/replay/ZZZZZZ`);
    await page.waitForSelector('.board .notice-error');
    assert.match(await page.locator('.board .notice-error').textContent(), /not available/);
    assert.equal(await page.locator('.board a[href="#/"]').count(), 1);
    // The page reported the 404 of its request, and nothing else.
    assert.ok(player.errors.every((e) => /404/.test(e)), player.errors.join(' | '));
  } finally {
    await player.context.close();
  }
});
