// How to play: a Rules button on every lobby card and at every table opens the game's rules
// document (GET /api/games/<id>/rules) drawn from its Markdown, with the table's options and
// what they mean; and the renderer turns no text into markup.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, assertClean, screenshot } from './harness.mjs';

const env = useServerAndBrowser();
let player;

before(async () => {
  player = await env.player('Lou');
  await player.page.goto(`${env.server.url}/`);
  await player.page.waitForSelector('.game-card');
});

after(async () => {
  assertClean(player);
});

// The first heading of a game's rules document, as the server sends it.
async function title(id) {
  const res = await fetch(`${env.server.url}/api/games/${id}/rules`);
  assert.equal(res.status, 200, `${id} has rules`);
  assert.match(res.headers.get('content-type'), /markdown/);
  const text = await res.text();
  return /^#\s+(.*)$/m.exec(text)[1].replace(/[*_`]/g, '').trim();
}

test('every lobby card opens its game\'s rules, with the options chosen so far', { timeout: 60000 }, async () => {
  const { page } = player;
  const games = await (await fetch(`${env.server.url}/api/games`)).json();
  for (const g of games) {
    await page.locator(`form[data-game="${g.id}"] [data-key="rules-${g.id}"]`).click();
    const dialog = page.locator('dialog.rules-dialog[open]');
    await dialog.waitFor();
    assert.equal(await dialog.locator('#rules-title').textContent(), `How to play ${g.name}`);
    await dialog.locator('.rules-body:not([aria-busy])').waitFor();
    assert.equal(await dialog.locator('.rules-body h2').first().textContent(), await title(g.id));
    assert.ok((await dialog.locator('.rules-body p, .rules-body li').count()) > 5, `${g.id}: the rules are there`);
    for (const o of g.options) assert.equal(await dialog.locator(`.rules-options code:text-is("${o.key}")`).count(), 1, `${g.id} explains ${o.key}`);
    if (g.id === 'naked-gibbon') await screenshot(page, 'rules.png');
    await page.keyboard.press('Escape');
    await page.locator('dialog.rules-dialog[open]').waitFor({ state: 'detached' }).catch(() => {});
    assert.equal(await page.locator('dialog.rules-dialog[open]').count(), 0, 'Escape closes the rules');
  }
});

test('at a table the Rules button explains that table\'s options', { timeout: 60000 }, async () => {
  const { page } = player;
  await page.goto(`${env.server.url}/`);
  const form = page.locator('form[data-game="naked-gibbon"]');
  await form.locator('summary').click();
  await form.locator('[name="jokers"]').fill('1');
  await form.locator('[name="heartlessHat"]').uncheck();
  await form.locator('button[type=submit]').click();
  await page.waitForSelector('.board[data-status=waiting]');
  await page.locator('.table-head [data-key=rules]').click();
  const dialog = page.locator('dialog.rules-dialog[open]');
  await dialog.waitFor();
  assert.equal(await dialog.locator('.rules-table h3').textContent(), 'This table');
  const row = async (key) => dialog.locator(`.rules-options dt:has(code:text-is("${key}"))`).textContent();
  assert.match(await row('jokers'), /jokers\s+1/);
  assert.match(await row('heartlessHat'), /heartlessHat\s+off/);
  assert.equal(await dialog.locator('.rules-options b.changed').count(), 2, 'the two changed options stand out');
  await dialog.locator('[data-key=rules-close]').click();
  assert.equal(await page.locator('dialog.rules-dialog[open]').count(), 0);
});

// ---------- How to play ----------

test('the rules renderer draws the Markdown the rules documents use, and escapes everything', async () => {
  const { page } = player;
  const out = await page.evaluate(async () => {
    const { renderMarkdown } = await import('/js/markdown.js');
    const doc = [
      '# Naked Gibbon',
      '',
      'A game of **merciless** cheating for *2-6* players. Jokers are `X1` and `X2`.',
      '',
      '## A turn',
      '',
      '1. Jump: play a card.',
      '   It goes onto the fire.',
      '2. Or doubt:',
      '   - the latest card of a player,',
      '   - only when face down.',
      '',
      '| Card | Points |',
      '|---|---:|',
      '| Ace | 14 |',
      '| King \\| Queen | 13 |',
      '',
      '> NG-7: the engine picks the lowest exposed card.',
      '',
      'Evil: <script>window.pwned = 1</script> <img src=x onerror="window.pwned = 2"> [click](javascript:window.pwned=3) [site](https://example.org/rules)',
    ].join('\n');
    const box = document.createElement('div');
    box.append(...renderMarkdown(doc));
    document.body.append(box);
    const result = {
      tags: [...box.querySelectorAll('*')].map((e) => e.tagName.toLowerCase()),
      h2: box.querySelector('h2')?.textContent,
      strong: box.querySelector('strong')?.textContent,
      ol: [...box.querySelectorAll('ol > li')].map((li) => li.firstChild.textContent),
      nested: [...box.querySelectorAll('ol ul li')].map((li) => li.textContent),
      cells: [...box.querySelectorAll('tbody td')].map((td) => td.textContent),
      right: box.querySelector('tbody td:nth-child(2)').style.textAlign,
      quote: box.querySelector('blockquote')?.textContent,
      links: [...box.querySelectorAll('a')].map((a) => a.getAttribute('href')),
      evil: box.lastChild.textContent,
      pwned: window.pwned ?? null,
    };
    box.remove();
    return result;
  });
  assert.equal(out.h2, 'Naked Gibbon');
  assert.equal(out.strong, 'merciless');
  assert.deepEqual(out.ol, ['Jump: play a card. It goes onto the fire.', 'Or doubt:']);
  assert.deepEqual(out.nested, ['the latest card of a player,', 'only when face down.']);
  assert.deepEqual(out.cells, ['Ace', '14', 'King | Queen', '13']);
  assert.equal(out.right, 'right');
  assert.equal(out.quote, 'NG-7: the engine picks the lowest exposed card.');
  assert.deepEqual(out.links, ['https://example.org/rules'], 'only web addresses become links');
  assert.ok(!out.tags.includes('script') && !out.tags.includes('img'), `no markup from the text: ${out.tags}`);
  assert.match(out.evil, /<script>window\.pwned = 1<\/script> <img src=x onerror="window\.pwned = 2"> click site/);
  assert.equal(out.pwned, null);
});
