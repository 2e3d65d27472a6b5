// Accessibility of every screen of every format, checked by axe-core (npm, pinned in the
// lockfile): setup with its form, the connection form, a debate while it streams and once
// finished, replay, the fork panel, the share panel, a shared debate opened from its link,
// and History; each in light and dark, at 390 and 1280 px. No serious or critical
// violation passes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveDist, startStandin, launch, openApp, addConnection, axeAudit as audit, ROOT } from './harness.mjs';

const FORMATS = {
  classic: { script: 'e2e-classic-scores.json', setUp: async page => { await page.fill('#rounds', '1'); await page.check('#scoring'); } },
  duelogic: { script: 'e2e-duelogic.json', setUp: async page => { await page.getByRole('radio', { name: 'Duelogic' }).check(); await page.fill('#duelogic-rounds', '1'); } },
  forecast: { script: 'e2e-forecast.json', setUp: async page => { await page.getByRole('radio', { name: 'Forecast' }).check(); } },
  crux: { script: 'e2e-crux.json', setUp: async page => { await page.getByRole('radio', { name: 'Crux' }).check(); await page.fill('#crux-aspects', '1'); await page.fill('#crux-exchanges', '6'); } },
  council: { script: 'e2e-council.json', setUp: async page => { await page.getByRole('radio', { name: 'Council' }).check(); } },
};

let site, browser;
before(async () => { site = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); site?.close(); });

for (const [format, f] of Object.entries(FORMATS)) {
  test(`${format}: every screen passes axe in light and dark, narrow and wide`, { timeout: 240_000 }, async () => {
    const standin = await startStandin(f.script);
    const found = [];
    try {
      // Slow enough to be audited while it streams.
      const s = JSON.parse(await readFile(join(ROOT, 'tests/scripts', f.script), 'utf8'));
      await standin.setScript({ ...s, default: { ...(s.default ?? {}), chunk_delay_ms: 30 } });
      const { page } = await openApp(browser, site.url, { width: 1280, height: 900 });
      await addConnection(page, { name: 'Stand-in', url: `${standin.base}/v1`, model: 'standin', callHeader: true });
      await f.setUp(page);
      await page.fill('#topic', 'Should cities ban private cars from their centres?');
      found.push(...await audit(page, 'setup'));
      await page.click('#edit-connection');
      found.push(...await audit(page, 'connection form'));
      await page.click('#edit-connection');

      await page.click('#start');
      await page.waitForSelector('.turn[data-status="streaming"], .fc-card', { timeout: 30_000 });
      found.push(...await audit(page, 'live debate'));
      await page.waitForSelector('.badge.done', { timeout: 120_000 });
      found.push(...await audit(page, 'finished debate'));

      await page.click('#replay');
      found.push(...await audit(page, 'replay'));
      await page.click('#replay-exit');
      assert.equal(await page.locator('#panic').count(), 0, 'leaving the replay broke nothing');

      const fork = page.locator('button.fork').first();
      if (await fork.count()) {
        await fork.click();
        await page.locator('.fork-panel').waitFor();
        found.push(...await audit(page, 'fork panel'));
        await page.keyboard.press('Escape');
      }

      await page.click('#share');
      await page.locator('#share-url').waitFor();
      found.push(...await audit(page, 'share panel'));
      const link = await page.locator('#share-url').inputValue();

      await page.getByRole('link', { name: 'History' }).click();
      await page.waitForSelector('#history-count');
      found.push(...await audit(page, 'history'));

      // The link opened in a browser that has never seen the debate.
      const visitor = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      await visitor.goto(link);
      await visitor.waitForSelector('.badge.done', { timeout: 30_000 });
      found.push(...await audit(visitor, 'shared debate'));
    } finally {
      standin.close();
    }
    assert.deepEqual(found, [], `${found.length} serious or critical violations:\n${found.join('\n')}`);
  });
}
