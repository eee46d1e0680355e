// What the operator says reaches the browser: an admin notice shows on top of the table (and in
// its log), and a room closed through the admin API tells its players so and offers nothing
// more to play.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, assertClean, screenshot, createRoom } from './harness.mjs';

const TOKEN = 'operator-test-token-0123456789';
const env = useServerAndBrowser({ adminToken: TOKEN });

async function admin(path, body) {
  const res = await fetch(`${env.server.url}/api/admin/${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  assert.equal(res.status, 200, `${path}: ${text}`);
  return JSON.parse(text);
}

test('an operator notice shows on the lobby and at the table', { timeout: 60000 }, async () => {
  const player = await env.player('Olga');
  const { page } = player;
  try {
    await page.goto(`${env.server.url}/`);
    await page.waitForSelector('.game-card');
    await page.waitForFunction(() => document.getElementById('conn-status').dataset.state === 'online');
    await admin('notice', { text: 'Maintenance at 22:00' });
    await page.waitForSelector('#site-notice:not([hidden])');
    assert.match(await page.locator('#site-notice').textContent(), /Operator: Maintenance at 22:00/);
    await page.locator('#site-notice button').click();
    assert.equal(await page.locator('#site-notice').isHidden(), true);

    await createRoom(player, 'pinocchio', 2);
    const sent = await admin('notice', { text: 'Back in ten minutes' });
    assert.ok(sent.sent >= 1);
    await page.waitForSelector('#site-notice:not([hidden])');
    await page.waitForFunction(() => [...document.querySelectorAll('.log li')].some((li) => li.textContent.includes('Back in ten minutes')));
    await screenshot(page, 'operator-notice.png');
    assertClean(player);
  } finally {
    await player.context.close();
  }
});

test('a room closed by the operator says so and offers no more moves', { timeout: 60000 }, async () => {
  const player = await env.player('Carl');
  const { page } = player;
  try {
    const code = await createRoom(player, 'pinocchio', 2);
    await page.getByRole('button', { name: 'Fill with bots' }).click();
    await page.waitForSelector('button[data-key=start]:not([disabled])');
    await page.locator('button[data-key=start]').click();
    await page.waitForSelector('.board[data-status=playing]');
    await admin(`rooms/${code}/close`, { reason: 'table cleared' });
    await page.waitForSelector('.board[data-status=closed]');
    assert.match(await page.locator('.notice').textContent(), /closed by the operator \(table cleared\)/);
    assert.equal(await page.locator('.board .playable, .action-bar button.action').count(), 0);
    assert.equal(await page.locator('.turn-line').textContent(), 'This room was closed.');
    assert.equal(await page.locator('.seat.acting').count(), 0, 'nobody is shown to act in a closed room');
    const seat = await page.evaluate((c) => localStorage.getItem(`campfire.seat.${c}`), code);
    assert.equal(seat, null, 'the seat of a closed room is forgotten');
    await screenshot(page, 'operator-closed.png');
    assertClean(player);
  } finally {
    await player.context.close();
  }
});
