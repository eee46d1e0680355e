// Shared pieces of the browser tests: a campfire-server of their own on a free port, Debian's
// chromium through playwright-core, players that fail the test on any console or page error,
// screenshots into the artifacts folder.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const sourceDir = path.resolve(here, '../..');
export const serverBinary = process.env.CAMPFIRE_SERVER || path.join(sourceDir, 'build/default/server/campfire-server');
export const artifactsDir = process.env.CAMPFIRE_WEB_ARTIFACTS || path.join(sourceDir, 'build/default/tests/web/artifacts');
export const chromiumPath = process.env.CAMPFIRE_CHROMIUM || '/usr/bin/chromium';
// The long form (make test-web) plays more and waits longer.
export const long = process.env.CAMPFIRE_WEB_LONG === '1';

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 360, height: 780 };

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// opts.botDelayMs: how long the server's bots think (short by default, so games move on).
export async function startServer({ botDelayMs = 150, adminToken = null } = {}) {
  assert.ok(existsSync(serverBinary), `campfire-server not found at ${serverBinary} (build it first)`);
  const port = await freePort();
  // Each server keeps its journal in a directory of its own, removed when it stops.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'campfire-web-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--test-mode', '--web-root', path.join(sourceDir, 'clients/web'),
    '--log-level', 'warn', '--bot-delay-ms', String(botDelayMs), '--data-dir', dataDir];
  if (adminToken) args.push('--admin-token', adminToken);
  const proc = spawn(serverBinary, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`campfire-server exited with ${proc.exitCode}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill();
      throw new Error('campfire-server did not come up');
    }
    await sleep(100);
  }
  return {
    url,
    stop: () => new Promise((resolve) => {
      const done = () => {
        rmSync(dataDir, { recursive: true, force: true });
        resolve();
      };
      if (proc.exitCode !== null) return done();
      proc.once('exit', done);
      proc.kill('SIGTERM');
    }),
  };
}

export async function launchBrowser() {
  assert.ok(existsSync(chromiumPath), `chromium not found at ${chromiumPath} (scripts/install-deps.sh installs it)`);
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run'],
  });
}

// A player in their own browser context (their own localStorage), named before the page loads.
// opts.reducedMotion: 'reduce' for a user who asks for less motion.
export async function newPlayer(browser, server, name, viewport = DESKTOP, { reducedMotion = 'no-preference' } = {}) {
  const context = await browser.newContext({ viewport, reducedMotion });
  await context.addInitScript((n) => {
    if (!localStorage.getItem('campfire.name')) localStorage.setItem('campfire.name', n);
  }, name);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.setDefaultTimeout(long ? 30000 : 15000);
  return { name, context, page, errors, server };
}

// The campfire-server and the chromium a test file shares between its tests: started before the
// first test (or by the first env.player(...), whichever comes first: node runs a file's `before`
// hooks without waiting for one another), stopped after the last. `serverOptions` are
// startServer's; env.player(name, ...) opens a player (newPlayer's other arguments) in this
// browser against this server.
export function useServerAndBrowser(serverOptions = {}) {
  let starting = null;
  const env = {
    server: null,
    browser: null,
    ready: () => {
      starting ??= (async () => {
        env.server = await startServer(serverOptions);
        env.browser = await launchBrowser();
      })();
      return starting;
    },
    player: async (name, ...rest) => {
      await env.ready();
      return newPlayer(env.browser, env.server, name, ...rest);
    },
  };
  before(env.ready);
  after(async () => {
    await starting?.catch(() => {});
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

export function assertClean(player) {
  assert.deepEqual(player.errors, [], `${player.name}'s page logged errors`);
}

// A capture shows the table as it stays: cards in flight land and a sliding drawer comes to rest
// first (for a second at most; pulsing badges never end and are not waited for). Whether a card
// is where it belongs during a flight is for the tests to check, not for a picture to suggest.
export async function screenshot(page, file) {
  mkdirSync(artifactsDir, { recursive: true });
  await page.evaluate(() => {
    const ending = document.getAnimations().filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime));
    return Promise.race([Promise.all(ending.map((a) => a.finished.catch(() => {}))), new Promise((r) => setTimeout(r, 1000))]);
  }).catch(() => {});
  await page.screenshot({ path: path.join(artifactsDir, file), fullPage: true });
}

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// Lobby: create a table of `game` with `seats` seats; returns the room code.
export async function createRoom(player, game, seats) {
  const { page } = player;
  await page.goto(`${player.server.url}/`);
  const form = page.locator(`form[data-game="${game}"]`);
  await form.locator('select[name=seats]').selectOption(String(seats));
  await form.locator('button[type=submit]').click();
  await page.waitForSelector('.board[data-status=waiting]');
  const code = (await page.locator('.table-head .room-code').textContent()).trim();
  assert.match(code, /^[A-Z2-9]{6}$/);
  return code;
}

// From the lobby's card for `game`: a room of `seats`, the other seats filled with the server's
// bots, the game started. Returns the room's code.
export async function startWithBots(page, url, game, seats) {
  await page.goto(`${url}/`);
  const form = page.locator(`form[data-game="${game}"]`);
  await form.locator('select[name=seats]').selectOption(String(seats));
  await form.locator('button[type=submit]').click();
  await page.getByRole('button', { name: 'Fill with bots' }).click();
  await page.waitForSelector('button[data-key=start]:not([disabled])');
  await page.locator('button[data-key=start]').click();
  await page.waitForSelector('.board[data-status=playing]');
  return (await page.locator('.table-head .room-code').textContent()).trim();
}

export async function version(page) {
  return Number(await page.locator('.board').getAttribute('data-version'));
}

// Clicks `locator` (a card, slot or button bound to legal actions). When it stands for several
// actions a menu opens; `pick` chooses among its entries (the first by default; a function of
// their count may look at the open menu first). Resolves once
// the table shows a newer version, or a refusal notice; false when the click found no hold.
export async function play(page, locator, pick = 0) {
  const before = await version(page);
  try {
    await locator.click({ timeout: 3000 });
  } catch (e) {
    if (e.name !== 'TimeoutError') throw e;
    // A card under another in a run or a pile shows only its top strip: click there.
    try {
      await locator.click({ timeout: 3000, position: { x: 14, y: 10 } });
    } catch (e2) {
      // The table was redrawn under the pointer all along (others kept moving): report that
      // nothing was played, and let the caller look again.
      if (e2.name === 'TimeoutError') return false;
      throw e2;
    }
  }
  // A long menu comes in groups: a group's button opens its choices, where `pick` chooses again.
  const menu = page.locator('.action-bar .menu-title');
  for (let depth = 0; depth < 4 && (await menu.count()); depth++) {
    const entries = page.locator('.action-bar button.action');
    const n = await entries.count();
    try {
      const entry = entries.nth(typeof pick === 'function' ? await pick(n) : Math.min(pick, n - 1));
      const group = (await entry.getAttribute('data-choices', { timeout: 3000 })) !== null;
      await entry.click({ timeout: 3000 });
      if (!group) break;
    } catch (e) {
      // Every action in the menu stopped being legal (the table moved on): nothing was played.
      if (e.name === 'TimeoutError') return false;
      throw e;
    }
  }
  await page.waitForFunction((v) => {
    const b = document.querySelector('.board');
    return (b && Number(b.dataset.version) > v) || document.querySelector('.notice [class^=notice-]');
  }, before);
  return true;
}
