// Takes the README's pictures: every game's table at 1280x800 in the middle of a game against
// bots (on one of our turns, so the prompt and the playable cards show), and the replay viewer.
// Not a test: run it by hand after a visible change,
//   node tests/web/screenshots.mjs            (writes docs/screenshots/*.png)
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { startServer, launchBrowser, newPlayer, play, sleep, sourceDir, startWithBots } from './harness.mjs';

const OUT = path.join(sourceDir, 'docs/screenshots');
const SIZE = { width: 1280, height: 800 };

// How far into each game the picture is taken: this many of our own moves.
const GAMES = [
  { id: 'pinocchio', seats: 4, moves: 7 },
  { id: 'naked-gibbon', seats: 4, moves: 5 },
  { id: 'fib-fibonacci', seats: 2, moves: 9 },
  { id: 'spider-monkey', seats: 4, moves: 4 },
  { id: 'tricky-tribes', seats: 4, moves: 5 },
];

// Our move: a card from the hand when there is one (so cards travel), else whatever is offered.
async function move(page, n) {
  const hand = page.locator('.my-area .hand .playable, .announce-grid .playable');
  const any = page.locator('.board .playable, .action-bar button.action');
  const pool = (await hand.count()) ? hand : any;
  const count = await pool.count();
  if (!count) return false;
  return play(page, pool.nth(n % count), (k) => n % k);
}

async function myTurn(page, deadline) {
  while (Date.now() < deadline) {
    if (await page.locator('.result').count()) return false;
    if (await page.locator('.turn-line.my-turn').count()) return true;
    await sleep(60);
  }
  return false;
}

// A picture of the page, made small: pngquant (scripts/install-deps.sh) cuts it to a palette.
async function picture(page, name) {
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file });
  try {
    execFileSync('pngquant', ['--force', '--skip-if-larger', '--quality', '65-90', '--speed', '1', '--strip', '--output', file, file]);
  } catch (e) {
    // exit 98/99: already as small as it gets at that quality; anything else is worth saying
    if (e.status !== 98 && e.status !== 99) console.warn(`pngquant: ${e.message}`);
  }
  return `${Math.round(statSync(file).size / 1024)} KB`;
}

const server = await startServer({ botDelayMs: 250 });
const browser = await launchBrowser();
mkdirSync(OUT, { recursive: true });
try {
  for (const g of GAMES) {
    const player = await newPlayer(browser, server, 'Bella', SIZE);
    const { page } = player;
    await startWithBots(page, server.url, g.id, g.seats);
    let n = 0;
    const deadline = Date.now() + 120000;
    while (n < g.moves && (await myTurn(page, deadline))) {
      if (await move(page, n)) n++;
    }
    await myTurn(page, deadline);
    await sleep(700);  // let the last card land
    console.log(`${g.id}: ${n} moves, ${await picture(page, g.id)}`);
    await player.context.close();
  }

  // The replay viewer, halfway through a finished three-player Pinocchio game.
  const player = await newPlayer(browser, server, 'Bella', SIZE);
  const { page } = player;
  const code = await startWithBots(page, server.url, 'pinocchio', 3);
  const deadline = Date.now() + 240000;
  let n = 0;
  while (await myTurn(page, deadline)) {
    if (await move(page, n)) n++;
  }
  await page.waitForSelector('.result');
  await page.goto(`${server.url}/#/replay/${code}`);
  await page.waitForSelector('.replay-controls [data-key=next]');
  const total = Number((await page.locator('.replay-count').textContent()).split('/')[1]);
  for (let i = 0; i < Math.floor(total * 0.55); i++) await page.keyboard.press('ArrowRight');
  await sleep(700);
  console.log(`replay: step ${Math.floor(total * 0.55)} of ${total}, ${await picture(page, 'replay')}`);
  await player.context.close();
} finally {
  await browser.close();
  await server.stop();
}
