// Spider Monkey's slap window is usable in time from the browser: a click on one of your own
// cards while the window is open lands before it closes. The bots think for longer here, so
// that their own slaps (a wrong one ends the window) do not race the test's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, startWithBots, assertClean, screenshot, play } from './harness.mjs';

const env = useServerAndBrowser({ botDelayMs: 1500 });

test('spider-monkey: a slap lands inside the slap window', { timeout: 90000 }, async () => {
  const player = await env.player('Sam');
  const { page } = player;
  try {
    await startWithBots(page, env.server.url, 'spider-monkey', 2);
    await page.waitForSelector('.turn-line.my-turn');
    // Look at two cards: a slot opens the choice of pairs.
    await play(page, page.locator('.my-area .sm-line .playable').first());
    // Play on until a slap window opens; then slap one of our own cards.
    const deadline = Date.now() + 60000;
    for (;;) {
      assert.ok(Date.now() < deadline, 'no slap window opened');
      // One look at the page, so that the banner, the slots and the countdown are of one state.
      const seen = await page.evaluate(() => ({
        banner: !!document.querySelector('.slap-banner'),
        slots: document.querySelectorAll('.my-area .sm-line .playable').length,
        countdown: document.querySelector('.countdown').hidden ? null : document.querySelector('.countdown').textContent,
        version: document.querySelector('.board').dataset.version,
      }));
      if (seen.banner && seen.slots) {
        assert.ok(seen.countdown, `the slap window shows a countdown: ${JSON.stringify(seen)}`);
        await play(page, page.locator('.my-area .sm-line .playable').first(), (n) => n - 1);
        await screenshot(page, 'spider-monkey-slap.png');
        const notice = await page.locator('.notice').textContent();
        assert.doesNotMatch(notice, /too late|closed/i);
        assert.equal(await page.locator('.notice-error').count(), 0, notice);
        break;
      }
      const stock = page.locator('.board button.deck.playable');
      const discard = page.locator('.board button[data-key=discard].playable');
      if (await stock.count()) await play(page, stock);
      else if (await discard.count()) await play(page, discard, (n) => n - 1);
      else if (await page.locator('.turn-line.my-turn').count() && !(await page.locator('.slap-banner').count())) {
        await play(page, page.locator('.action-bar button.action').last());
      } else await page.waitForTimeout(50);
    }
    assertClean(player);
  } finally {
    await player.context.close();
  }
});
