// A forecast panel against the scripted stand-in: three outcomes, the seed's five roles over
// three rounds (31 calls), then the chart values on screen against the distribution
// worked out by hand, the consensus meter, the round tabs with scores, the disagreement
// map, insights and precedents; no horizontal overflow on a phone; the same after a reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { world, openApp, ROOT, fullScreenshot } from './harness.mjs';
import { setUpTransitForecast } from './transit-forecast.mjs';

const w = world('e2e-forecast.json');
const SHOTS = join(ROOT, 'tests/e2e/artifacts');

// Roles on yes/no/delay: optimist .6/.2/.2, pessimist .1/.7/.2, contrarian .3/.3/.4,
// historian .4/.4/.2. Consensus = their mean: .35/.40/.25. The judge's synthesis says
// .5/.3/.2; final = 0.6 × judge + 0.4 × consensus = .44/.34/.22.
const EXPECTED = {
  yes: { consensus: 0.35, synthesis: 0.5, final: 0.44 },
  no: { consensus: 0.40, synthesis: 0.3, final: 0.34 },
  delay: { consensus: 0.25, synthesis: 0.2, final: 0.22 },
};
// Population σ per outcome over the four roles, then 1 − σ/0.5, averaged.
function consensusScore() {
  const rows = [[.6, .2, .2], [.1, .7, .2], [.3, .3, .4], [.4, .4, .2]];
  let sum = 0;
  for (let i = 0; i < 3; i++) {
    const v = rows.map(r => r[i]); const m = v.reduce((a, b) => a + b) / 4;
    sum += 1 - Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / 4) / 0.5;
  }
  return sum / 3;
}

async function chartValues(page) {
  return page.$$eval('.fc-chart', charts => Object.fromEntries(charts.map(c => [c.dataset.outcome,
    Object.fromEntries([...c.querySelectorAll('g.bar')].map(g => [g.dataset.series,
      { value: g.dataset.value === undefined ? null : Number(g.dataset.value), text: g.querySelector('text.value').textContent }]))])));
}

function checkCharts(values) {
  for (const [id, exp] of Object.entries(EXPECTED)) {
    for (const [series, v] of Object.entries(exp)) {
      assert.ok(Math.abs(values[id][series].value - v) < 1e-3, `${id} ${series}: ${values[id][series].value} ≠ ${v}`);
      assert.equal(values[id][series].text, `${(v * 100).toFixed(1)}%`);
    }
  }
  assert.equal(values.yes.optimist.text, '60.0%');
  assert.equal(values.no.pessimist.text, '70.0%');
  assert.equal(values.yes.judge.text, '40.0%'); // the judge's closing argument, as a role
}

test('a forecast panel shows the expected final distribution, consensus and findings', async () => {
  const { page, consoleLines } = await openApp(w.browser, w.site.url, { width: 1440, height: 1000 });
  await setUpTransitForecast(page, w.standin);
  assert.match(await page.locator('#plan').textContent(), /^31 model calls planned/);
  // The setup form fits a phone.
  await mkdir(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 390, height: 900 });
  await page.waitForTimeout(100);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, 'setup: no horizontal scroll at 390 px');
  await fullScreenshot(page, join(SHOTS, 'forecast-setup-390.png'));
  await page.setViewportSize({ width: 1440, height: 1000 });
  await fullScreenshot(page, join(SHOTS, 'forecast-setup-1440.png'));
  await page.click('#start');
  // While it runs: round 1's cards are there with the roles.
  await page.waitForSelector('.fc-card[data-role="historian"]');
  await page.waitForSelector('.badge.done, .badge.failed', { timeout: 60_000 });
  assert.ok(await page.locator('.badge.done').isVisible(), consoleLines.join('\n'));

  checkCharts(await chartValues(page));
  const meter = Number(await page.locator('.fc-meter').getAttribute('data-value'));
  assert.ok(Math.abs(meter - consensusScore()) < 1e-3, `${meter}`);
  assert.match(await page.locator('.fc-headline').textContent(), /Most likely: Passes at 44\.0%/);
  assert.match(await page.locator('.fc-verdict').textContent(), /15 of 15 arguments above 0\.4/);
  assert.match(await page.locator('.fc-verdict').textContent(), /probabilities read 15, rejected 0/);

  // The closing round's tab: five cards, each scored 0.70 (0.4·0.8 + 0.4·0.7 + 0.2·0.5).
  assert.equal(await page.locator('.fc-tab[aria-selected="true"]').textContent(), '3. Closing');
  assert.deepEqual(await page.$$eval('.fc-card .fc-score', s => s.map(x => x.dataset.score)), Array(5).fill('0.70'));
  await page.click('.fc-tab[data-round="1"]');
  assert.match(await page.locator('.fc-card[data-role="contrarian"]').textContent(), /a delay to next session/);
  assert.match(await page.locator('.fc-round-summary').textContent(), /yes: Optimist 60% vs Pessimist 10%/);

  // Bars drawn to their values (the page's CSP refuses a style attribute, which once left
  // every bar full): the meter's fill against its track, and the pessimist's strength 0.8.
  const drawn = async (track, fill) => page.evaluate(([t, f]) => {
    const tw = document.querySelector(t).getBoundingClientRect().width;
    return document.querySelector(f).getBoundingClientRect().width / tw;
  }, [track, fill]);
  const meterShare = await drawn('.fc-meter-track', '.fc-meter-fill');
  assert.ok(Math.abs(meterShare - meter) < 0.01, `the meter reads ${meter} and is drawn ${meterShare} full`);
  const pessimist = page.locator('.fc-dispute li', { hasText: 'same chairs as before' });
  assert.equal(await pessimist.locator('.label').textContent(), 'Pessimist', 'a role is named as in the debate');
  assert.equal(await pessimist.locator('.fc-strength').getAttribute('data-value'), '0.8000');
  const strength = await pessimist.evaluate(li => li.querySelector('.fc-strength-fill').getBoundingClientRect().width
    / li.querySelector('.fc-strength').getBoundingClientRect().width);
  assert.ok(Math.abs(strength - 0.8) < 0.01, `a strength of 0.8 is drawn ${strength} full`);
  assert.equal(await page.locator('.fc-dispute').count(), 2);
  assert.match(await page.locator('.fc-insights').textContent(), /committee chair decides the timing/);
  assert.deepEqual(await page.$$eval('.fc-timeline .fc-date', d => d.map(x => x.textContent)), ['1990', '2009']);

  await fullScreenshot(page, join(SHOTS, 'forecast-1440.png'));
  await page.setViewportSize({ width: 390, height: 900 });
  await page.waitForTimeout(100);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, 'no horizontal scroll at 390 px');
  await fullScreenshot(page, join(SHOTS, 'forecast-390.png'));

  // A reload shows the same numbers from the stored log.
  await page.reload();
  await page.waitForSelector('.fc-meter');
  checkCharts(await chartValues(page));
});
