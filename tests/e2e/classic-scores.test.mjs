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
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, 'no horizontal scroll at 390 px');
  await mkdir(SHOTS, { recursive: true });
  await fullScreenshot(page, join(SHOTS, 'classic-390.png'));
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.waitForTimeout(100);
  await fullScreenshot(page, join(SHOTS, 'classic-1440.png'));
});
