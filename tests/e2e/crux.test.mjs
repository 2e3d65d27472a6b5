// A crux debate against the scripted stand-in: two personas, one aspect; the room opens on
// screen while its exchange streams, closes when the exit check finds the crux, and the
// crux card it leaves reads on its own in the deck: the crux, both sides with what would
// change their minds, the kind and the diagnosis; the map and the shifts fill in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { world, openApp, addConnection, transcript, ROOT, fullScreenshot } from './harness.mjs';

const w = world('e2e-crux.json');
const SHOTS = join(ROOT, 'tests/e2e/artifacts');

test('a crux room opens and closes, and its crux card reads on screen', async () => {
  const { page, consoleLines } = await openApp(w.browser, w.site.url, { width: 1440, height: 1000 });
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await page.getByRole('radio', { name: 'Crux' }).check();
  await page.fill('#topic', 'Should cities ban private cars from their centres?');
  // The default personas are The Actuary and The Founder.
  assert.equal(await page.getByLabel('Persona 1', { exact: true }).inputValue(), 'actuary');
  assert.equal(await page.getByLabel('Persona 2', { exact: true }).inputValue(), 'founder');
  await page.fill('#crux-aspects', '1');
  await page.fill('#crux-exchanges', '6');
  await page.click('#start');

  // The room panel appears while the exchange streams, then goes when the card is in.
  const panel = page.locator('.crux-room-panel');
  await panel.waitFor({ state: 'visible', timeout: 60_000 });
  assert.match(await panel.textContent(), /Do shops in car-free centres gain revenue within a year\?/);
  assert.match(await panel.textContent(), /The Actuary vs The Founder/);
  await page.waitForSelector('.badge.done', { timeout: 60_000 });
  assert.equal(await panel.count(), 0, 'the room panel is gone once the room closed');

  // Turns 0-3, then the exit check ended the exchange.
  const turns = await transcript(page);
  const exchange = turns.filter(t => /^Exchange /.test(t.label)).map(t => `${t.speaker}: ${t.label}`);
  assert.deepEqual(exchange, ['The Actuary: Exchange 0', 'The Founder: Exchange 1', 'The Actuary: Exchange 2', 'The Founder: Exchange 3']);
  // The banned opener is gone from what is shown.
  const opening = turns.find(t => t.speaker === 'The Actuary' && t.label === 'Opening');
  assert.match(opening.text, /^The tail risk here/);
  // The Founder named The Actuary, so the Actuary replied to it.
  assert.ok(turns.some(t => t.speaker === 'The Actuary' && t.label === 'Reply to The Founder'));

  // The deck holds one card, readable on its own.
  assert.equal(await page.locator('#crux-count').textContent(), '1 crux card');
  const card = page.locator('.crux-deck .crux-card');
  assert.equal(await card.count(), 1);
  assert.equal(await card.getAttribute('data-kind'), 'factual');
  assert.match(await card.locator('.crux-text').textContent(), /Whether district-wide shop revenue rises in the first year/);
  const sides = card.locator('.crux-side');
  assert.equal(await sides.count(), 2);
  assert.match(await sides.nth(0).textContent(), /The Actuary.*Most shops lose revenue in year one\..*District-wide revenue data from ten cities/s);
  assert.match(await sides.nth(1).textContent(), /The Founder.*Shops gain within a year\./s);
  assert.match(await card.locator('.crux-diagnosis').textContent(), /pilot streets versus whole districts/);
  assert.match(await card.locator('.crux-status').textContent(), /Unresolved/);

  // It links back to the exchange it came from.
  await card.locator('.crux-source').click();
  assert.equal(await page.locator('#turn-room-1-turn-3').count(), 1);

  // Copy as Markdown puts the card on the clipboard.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await card.locator('.copy-md').click();
  await page.waitForFunction(() => document.querySelector('.crux-deck .crux-actions [role=status]')?.textContent === 'Copied');
  const md = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(md, /^## Crux: Whether district-wide shop revenue/);
  assert.match(md, /### The Founder/);

  // Download PNG draws the card's SVG at twice its size; Download SVG saves the SVG.
  const [png] = await Promise.all([page.waitForEvent('download'), card.locator('.download-png').click()]);
  assert.match(png.suggestedFilename(), /\.png$/);
  const bytes = await readFile(await png.path());
  assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
  const [width, height] = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
  const [svgFile] = await Promise.all([page.waitForEvent('download'), card.locator('.download-svg').click()]);
  const svg = await readFile(await svgFile.path(), 'utf8');
  const svgWidth = Number(svg.match(/<svg[^>]* width="(\d+)"/)[1]);
  const svgHeight = Number(svg.match(/<svg[^>]* height="(\d+)"/)[1]);
  assert.deepEqual([width, height], [2 * svgWidth, 2 * svgHeight]);
  // Drawn, not blank: an empty canvas of that size compresses to a few kilobytes.
  assert.ok(bytes.length > 40_000, `the PNG holds ${bytes.length} bytes`);
  await mkdir(SHOTS, { recursive: true });
  await writeFile(join(SHOTS, 'crux-card.png'), bytes);
  assert.match(svg, /Whether district-wide shop revenue/);

  // The map draws the crux between the two; shifts per persona.
  assert.equal(await page.locator('.crux-map li.edge.crux').count(), 1);
  assert.match(await page.locator('.crux-map li.edge.crux').textContent(), /The Actuary and The Founder, crux: Whether district-wide/);
  assert.match(await page.locator('.crux-shifts').textContent(), /The Actuary\s*Moved/);
  assert.match(await page.locator('.crux-shifts').textContent(), /The Founder\s*Held/);

  // The final summary keeps to what was said, rendered (no Markdown marks left).
  const summary = page.locator('.summary-finding').last();
  assert.match(await summary.textContent(), /Debate summary.*The Actuary: Most shops lose revenue in year one\./s);
  assert.doesNotMatch(await summary.textContent(), /\*\*/);

  // The deck read on its own hides the transcript.
  await page.click('#deck-only');
  assert.equal(await page.locator('.transcript').isVisible(), false);
  await mkdir(SHOTS, { recursive: true });
  await fullScreenshot(page, join(SHOTS, 'crux-deck-1440.png'));
  await page.click('#deck-only');
  await fullScreenshot(page, join(SHOTS, 'crux-1440.png'));
  await page.setViewportSize({ width: 390, height: 900 });
  await page.waitForTimeout(100);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, 'no horizontal scroll at 390 px');
  await fullScreenshot(page, join(SHOTS, 'crux-390.png'));

  // A reload shows the same card from the stored log.
  await page.reload();
  await page.waitForSelector('.badge.done');
  assert.equal(await page.locator('.crux-deck .crux-card').count(), 1);
  assert.ok(!consoleLines.some(l => l.startsWith('pageerror')), consoleLines.join('\n'));
});

test('an invalid persona file is refused with the field that is wrong', async () => {
  const { page } = await openApp(w.browser, w.site.url);
  await page.getByRole('radio', { name: 'Crux' }).check();
  await page.click('#new-persona');
  const json = JSON.parse(await page.locator('#persona-json').inputValue());
  delete json.identity.stakes;
  await page.fill('#persona-json', JSON.stringify(json));
  await page.click('#apply-persona');
  assert.match(await page.locator('#persona-error').textContent(), /`identity.stakes` is missing/);
  json.identity.stakes = 'Mine.';
  json.name = 'The Tester';
  json.id = 'tester';
  await page.fill('#persona-json', JSON.stringify(json));
  await page.click('#apply-persona');
  assert.equal(await page.getByLabel('Persona 3', { exact: true }).inputValue(), 'tester');
});
