// Classic with the fact checker and scoring on: verdicts under each position's turn, a
// weighted scorecard per position, and no number where the analyst's answer was unreadable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { world, openApp, addConnection, ROOT, fullScreenshot } from './harness.mjs';

const w = world('e2e-classic-scores.json');
const SHOTS = join(ROOT, 'tests/e2e/artifacts');

test('fact checks sit under each turn and each position gets a weighted score or none', async () => {
  const { page } = await openApp(w.browser, w.site.url, { width: 390, height: 900 });
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await page.getByRole('button', { name: 'Should cities ban private cars from their centres?' }).click();
  await page.fill('#rounds', '1');
  await page.check('#scoring');
  await page.check('#fact-checker');
  await page.click('#start');
  await page.waitForSelector('.badge.done', { timeout: 60_000 });

  // 2 openings, 4 round turns and 2 closings, each checked.
  assert.equal(await page.locator('.turn .fact-checks').count(), 8);
  assert.match(await page.locator('.turn .fact-checks').first().textContent(), /disputed\s*Pontevedra cut road deaths to zero/);
  // Formal weights: 8×.25 + 6×.25 + 7×.20 + 9×.15 + 10×.15 = 7.75.
  const a = page.locator('.classic-score.seat-position-a');
  assert.equal(await a.getAttribute('data-total'), '7.75');
  assert.match(await a.textContent(), /Evidence ×0\.25\s*6\.0/);
  assert.match(await page.locator('.classic-score.unscored').textContent(), /Position B — not scored/);
  // Every claim here is disputed, so the fact checker steps in after each turn.
  assert.equal(await page.locator('.turn .fact-checker-steps-in').count(), 8);
  // A's personal remark was put to the moderator, whose note stands after the turn.
  const note = page.locator('.moderator-note');
  assert.equal(await note.count(), 1);
  assert.match(await note.textContent(), /rule broken: no personal remarks\s*Position A, argue against the case, not the person/);
  // It stands right after the turn it is about, before the next one.
  const before = await page.evaluate(() => {
    let e = document.querySelector('.moderator-note');
    while (e && !e.matches('.turn')) e = e.previousElementSibling ?? e.parentElement;
    return e?.querySelector('.md')?.textContent;
  });
  assert.match(before, /^My opponent is naive/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, 'no horizontal scroll at 390 px');
  await mkdir(SHOTS, { recursive: true });
  await fullScreenshot(page, join(SHOTS, 'classic-390.png'));
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.waitForTimeout(100);
  await fullScreenshot(page, join(SHOTS, 'classic-1440.png'));
});

test('a competitive debate scores both positions after every round and at the end', async () => {
  const { page } = await openApp(w.browser, w.site.url, { width: 390, height: 900 });
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await page.getByRole('button', { name: 'Should cities ban private cars from their centres?' }).click();
  await page.fill('#rounds', '2');
  await page.selectOption('#style', 'competitive');
  assert.match(await page.textContent('#style-structure'), /scored after every round/);
  // Competitive debates are always scored: the box says so and cannot be unticked.
  assert.ok(await page.isChecked('#scoring'));
  assert.ok(await page.isDisabled('#scoring'));
  await page.selectOption('#style', 'casual');
  assert.ok(!(await page.isDisabled('#scoring')));
  await page.selectOption('#style', 'competitive');
  await page.click('#start');
  await page.waitForSelector('.badge.done', { timeout: 60_000 });
  const cards = await page.$$eval('.classic-score > header > strong, .classic-score.unscored > strong', hs => hs.map(h => h.textContent));
  assert.deepEqual(cards, [
    'Position A — round 1', 'Position B — round 1',
    'Position A — round 2', 'Position B — round 2',
    'Position A', 'Position B',
  ]);
  assert.match(await page.locator('.classic-score.round').first().textContent(), /weighted for a competitive debate/);
  await mkdir(SHOTS, { recursive: true });
  await fullScreenshot(page, join(SHOTS, 'classic-competitive-390.png'));
});
