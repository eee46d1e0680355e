// Two people play a whole game of Pinocchio in the browser, only by clicking: one creates the
// table in the lobby, the other follows the join link. Midway one reloads the page and one
// loses the connection; both get their seats back by themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, launchBrowser, newPlayer, assertClean, screenshot, createRoom, play, version, sleep, long,
} from './harness.mjs';

// One move for whoever may move: believe or call a lie (every fourth time), else make a claim.
async function move(player, turn) {
  const { page } = player;
  const liar = page.locator('button.liar.playable');
  const believe = page.locator('button.believe.playable');
  if (await believe.count()) {
    await play(page, turn % 4 === 3 && (await liar.count()) ? liar : believe);
    return true;
  }
  const claims = page.locator('button.announce.playable');
  const n = await claims.count();
  if (n) {
    await play(page, claims.nth(turn % n));
    return true;
  }
  const any = page.locator('.action-bar button.action');
  if (await any.count()) {
    await play(page, any.first());
    return true;
  }
  return false;
}

async function over(player) {
  return (await player.page.locator('.result').count()) > 0;
}

test('two browser players play Pinocchio to the end', { timeout: long ? 600000 : 240000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const ann = await newPlayer(browser, server, 'Ann');
    const bea = await newPlayer(browser, server, 'Bea');
    const code = await createRoom(ann, 'pinocchio', 2);
    await screenshot(ann.page, 'lobby-waiting-room.png');

    // Bea follows the link, takes the free seat; Ann starts.
    await bea.page.goto(`${server.url}/#/room/${code}`);
    await bea.page.locator('#door-join').click();
    await bea.page.waitForSelector('.board[data-status=waiting]');
    await ann.page.waitForFunction(() => document.querySelectorAll('.waiting-seats .empty').length === 0);
    await ann.page.locator('button[data-key=start]').click();
    await ann.page.waitForSelector('.board[data-status=playing]');
    await bea.page.waitForSelector('.board[data-status=playing]');
    await screenshot(ann.page, 'pinocchio-start.png');

    // Table talk reaches the other seat.
    await ann.page.getByLabel('Chat message').fill('nice bluff');
    await ann.page.getByRole('button', { name: 'Send' }).click();
    await bea.page.waitForSelector('.log li.chat:has-text("nice bluff")');

    // Someone else follows the link too late for a seat and watches instead.
    const cleo = await newPlayer(browser, server, 'Cleo');
    await cleo.page.goto(`${server.url}/#/room/${code}`);
    await cleo.page.getByRole('button', { name: 'Watch' }).click();
    await cleo.page.waitForSelector('.board[data-status=playing]');
    assert.equal(await cleo.page.locator('.table-head .badge').textContent(), 'watching');
    assert.equal(await cleo.page.locator('.board .playable').count(), 0);
    await screenshot(cleo.page, 'pinocchio-spectator.png');
    assertClean(cleo);
    await cleo.context.close();

    let moves = 0;
    let reloaded = false;
    let dropped = false;
    let shot = false;
    const deadline = Date.now() + (long ? 480000 : 200000);
    while (!(await over(ann)) || !(await over(bea))) {
      assert.ok(Date.now() < deadline, `the game did not end (after ${moves} moves)`);
      let moved = false;
      for (const p of [ann, bea]) {
        if (await over(p)) continue;
        if (await p.page.locator('.turn-line.my-turn').count()) {
          if (await move(p, moves)) {
            moves++;
            moved = true;
          }
        }
      }
      if (moves >= 6 && !reloaded) {
        // Reload mid-game: the stored token takes Bea's seat back without a question.
        reloaded = true;
        const seatBefore = await bea.page.locator('.my-area .seat').getAttribute('data-seat');
        await bea.page.reload();
        await bea.page.waitForSelector('.board[data-status=playing]');
        assert.equal(await bea.page.locator('.my-area .seat').getAttribute('data-seat'), seatBefore);
        assert.equal(await bea.page.locator('.door').count(), 0);
        await screenshot(bea.page, 'pinocchio-after-reload.png');
      }
      if (moves >= 12 && !dropped) {
        // A dropped connection: the page says so, reconnects and rejoins.
        dropped = true;
        const v = await version(ann.page);
        await ann.page.evaluate(() => window.campfire.dropConnection());
        await ann.page.waitForFunction(() => document.getElementById('conn-status').textContent.includes('Reconnecting'));
        await ann.page.waitForFunction(() => document.getElementById('conn-status').dataset.state === 'online');
        await ann.page.waitForFunction((old) => Number(document.querySelector('.board').dataset.version) >= old, v);
        assert.equal(await ann.page.locator('.my-area .seat .badge.you').count(), 1);
      }
      if (moves >= 20 && !shot) {
        shot = true;
        await screenshot(ann.page, 'pinocchio.png');
      }
      if (!moved) await sleep(60);
    }
    assert.ok(moves > 0);
    await screenshot(ann.page, 'pinocchio-result.png');
    const annText = await ann.page.locator('.result').textContent();
    assert.match(annText, /Play again/);

    // The log told both what happened, in words.
    assert.ok((await bea.page.locator('.log li').count()) > 5);

    // Play again: Ann opens a new table; Bea's chat shows the link to it.
    await ann.page.locator('button[data-key=again]').click();
    await ann.page.waitForSelector('.board[data-status=waiting]');
    const next = (await ann.page.locator('.table-head .room-code').textContent()).trim();
    assert.notEqual(next, code);
    await bea.page.locator(`.log a[href="#/room/${next}"]`).click();
    await bea.page.locator('#door-join').click();
    await ann.page.waitForFunction(() => document.querySelectorAll('.waiting-seats .empty').length === 0);

    assertClean(ann);
    assertClean(bea);
  } finally {
    await browser.close();
    await server.stop();
  }
});
