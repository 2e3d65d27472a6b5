// The forecast ledger against the scripted stand-in: a finished forecast (final blend
// .44/.34/.22 on Passes/Fails/Delayed, as in forecast.test.mjs) is resolved as Passes, its
// scores are read on screen against values worked out by hand, the resolution survives a
// reload and can be corrected, and the ledger lists it with its model's record and says how
// many resolved forecasts the calibration chart still needs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { world, openApp, ROOT, fullScreenshot, storedEvents } from './harness.mjs';
import { setUpTransitForecast } from './transit-forecast.mjs';

const w = world('e2e-forecast.json');
const SHOTS = join(ROOT, 'tests/e2e/artifacts');

// Brier = Σ (p − o)²; log = ln p(what happened).
const brier = (p, k) => p.reduce((s, x, i) => s + (x - (i === k ? 1 : 0)) ** 2, 0);
const FINAL = [0.44, 0.34, 0.22];
// The roles but the judge before any rebuttal: optimist .6/.2/.2, pessimist .1/.7/.2,
// contrarian .3/.3/.4, historian .4/.4/.2.
const OPENING = [0.35, 0.4, 0.25];

// The row of one forecaster (`exact`: "Judge" the role, not "Judge's synthesis").
async function scoreRow(page, forecaster) {
  const row = page.locator('#fc-scores tbody tr', { has: page.getByRole('rowheader', { name: forecaster, exact: true }) });
  const cells = await row.locator('td').allTextContents();
  return { brier: Number(cells[1]), cells };
}

test('a resolved forecast is scored, kept, corrected and listed in the ledger', async () => {
  const { page, consoleLines } = await openApp(w.browser, w.site.url, { width: 1280, height: 900 });
  await setUpTransitForecast(page, w.standin);
  await page.click('#start');
  await page.waitForSelector('.badge.done, .badge.failed', { timeout: 60_000 });
  assert.ok(await page.locator('.badge.done').isVisible(), consoleLines.join('\n'));

  // Nothing picked: told, nothing stored.
  await page.click('#resolve-save');
  assert.match(await page.locator('.fc-resolution [role="alert"]').textContent(), /Pick the outcome/);
  await page.selectOption('#resolve-outcome', 'yes');
  await page.fill('#resolve-date', '2027-03-31');
  await page.fill('#resolve-note', 'Signed into law');
  await page.click('#resolve-save');
  await page.waitForSelector('#resolution-line');
  assert.match(await page.locator('#resolution-line').textContent(), /Passes on 2027-03-31 · Signed into law/);
  const fin = await scoreRow(page, 'Final blend');
  assert.ok(Math.abs(fin.brier - brier(FINAL, 0)) < 5e-4, `${fin.brier}`);
  assert.equal(fin.cells[1], brier(FINAL, 0).toFixed(3));
  assert.equal(fin.cells[2], `−${(-Math.log(0.44)).toFixed(3)}`);
  // Every role is scored with its model: the optimist said 60% Passes.
  // The opening consensus is scored beside it, and the panel says what the debate moved.
  const opening = await scoreRow(page, 'Opening consensus (before rebuttals)');
  assert.equal(opening.cells[1], brier(OPENING, 0).toFixed(3));
  assert.match(await page.locator('.fc-moved').textContent(), /Passes opened at 35\.0%, ends at 44\.0%: \+9\.0 points/);
  const opt = await scoreRow(page, 'Optimist');
  assert.equal(opt.cells[0], 'standin');
  assert.equal(opt.cells[1], brier([0.6, 0.2, 0.2], 0).toFixed(3));
  const resolved = (await storedEvents(page)).filter(e => e.kind.Resolved);
  assert.equal(resolved.length, 1);
  assert.deepEqual(resolved[0].kind.Resolved, { outcome: 'yes', on: '2027-03-31', note: 'Signed into law' });

  await mkdir(SHOTS, { recursive: true });
  await page.locator('.fc-resolution').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, 'forecast-resolved-1280.png') });

  // From the stored log after a reload, and corrected: Fails happened instead.
  await page.reload();
  await page.waitForSelector('#resolution-line');
  await page.click('#resolve-correct');
  await page.selectOption('#resolve-outcome', 'no');
  await page.click('#resolve-save');
  await page.waitForFunction(() => /Fails/.test(document.querySelector('#resolution-line')?.textContent ?? ''));
  const corrected = await scoreRow(page, 'Final blend');
  assert.equal(corrected.cells[1], brier(FINAL, 1).toFixed(3));

  // The ledger: one resolved forecast, the model's record, and the chart's wait said.
  await page.getByRole('link', { name: 'Ledger' }).click();
  await page.waitForSelector('#ledger-summary');
  assert.equal(await page.locator('#ledger-summary').textContent(), '1 forecast: 1 resolved, 0 open.');
  const row = await page.locator('#ledger-resolved tbody tr').first().locator('td').allTextContents();
  // Each score with the opening consensus's under it.
  assert.deepEqual(row, ['Will the transit bill pass this year?', 'Fails2027-03-31', '34.0%',
    `${brier(FINAL, 1).toFixed(3)}opening ${brier(OPENING, 1).toFixed(3)}`,
    `−${(-Math.log(0.34)).toFixed(3)}opening −${(-Math.log(0.4)).toFixed(3)}`]);
  // Debating made this forecast worse: the opening consensus gave Fails 40%, the blend 34%.
  assert.match(await page.locator('#ledger-opening').textContent(),
    new RegExp(`beat the opening consensus .* in 0 of 1 resolved forecast; mean Brier ${brier(OPENING, 1).toFixed(3)} at the opening, ${brier(FINAL, 1).toFixed(3)} after`));
  assert.ok((await page.locator('#ledger-models tbody th').allTextContents()).includes('Opening consensus (before rebuttals)'));
  const models = await page.locator('#ledger-models tbody th').allTextContents();
  assert.ok(models.includes('standin') && models.includes('Final blend'), models.join());
  assert.match(await page.locator('#ledger-calibration').textContent(), /needs 10 resolved forecasts.*there is 1 so far/);
  await fullScreenshot(page, join(SHOTS, 'ledger-1280.png'));
  await page.setViewportSize({ width: 390, height: 900 });
  await page.waitForTimeout(100);
  await fullScreenshot(page, join(SHOTS, 'ledger-390.png'));
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, 'ledger: no horizontal scroll at 390 px');
  // The ledger's row opens the forecast.
  await page.getByRole('link', { name: 'Will the transit bill pass this year?' }).click();
  await page.waitForSelector('#resolution-line');

  // Twelve more resolved copies, restored from a backup: now the chart is drawn. Each
  // forecast gives three points (.44 Passes, .34 Fails, .22 Delayed): Passes happened in 8
  // of the 12 copies and Fails in 4 plus the original.
  const log = (await storedEvents(page)).filter(e => !e.kind.Resolved);
  const debates = Array.from({ length: 12 }, (_, i) => {
    const events = structuredClone(log);
    events[0].at_ms -= (i + 1) * 60_000;
    events[0].kind.DebateStarted.seed += i + 1;
    events.push({ seq: events.at(-1).seq + 1, at_ms: events.at(-1).at_ms + 1,
      kind: { Resolved: { outcome: i < 8 ? 'yes' : 'no', on: '2027-04-01' } } });
    return { events };
  });
  const dir = await mkdtemp(join(tmpdir(), 'agora-ledger-'));
  const file = join(dir, 'resolved.json');
  await writeFile(file, JSON.stringify({ agora_backup: 1, schema: log[0].kind.DebateStarted.schema, debates }));
  await page.getByRole('link', { name: 'History' }).click();
  await page.setInputFiles('#restore-file', file);
  await page.getByText('Restored 12 debates; 0 were already here.').waitFor();
  await page.getByRole('link', { name: 'Ledger' }).click();
  await page.waitForSelector('svg.calibration');
  assert.equal(await page.locator('#ledger-summary').textContent(), '13 forecasts: 13 resolved, 0 open.');
  const points = await page.$$eval('svg.calibration circle', cs => cs.map(c => ({
    points: Number(c.dataset.points), title: c.querySelector('title').textContent })));
  assert.deepEqual(points.map(p => p.points), [13, 13, 13]);
  assert.deepEqual(points.map(p => p.title), [
    'predicted 22.0%, happened 0.0% (13 points)',
    'predicted 34.0%, happened 38.5% (13 points)',
    'predicted 44.0%, happened 61.5% (13 points)',
  ]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await fullScreenshot(page, join(SHOTS, 'ledger-calibration-1280.png'));
  await page.setViewportSize({ width: 390, height: 900 });
  await page.waitForTimeout(100);
  await fullScreenshot(page, join(SHOTS, 'ledger-calibration-390.png'));
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, 'calibration: no horizontal scroll at 390 px');
});
