// The gallery of example debates, as a visitor with no key finds it on a static host (no
// local model server, no model file served): offered first, each example opens at once,
// says it is an example, replays from its start, skips to the end and shows its format's
// findings as Agora worked them out. Nothing of it is stored unless a copy is kept.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { launch, serveDist, ROOT, axeAudit, fullScreenshot, transcript } from './harness.mjs';

const SHOTS = join(ROOT, 'tests/e2e/artifacts');
const MODEL = 'models/SmolLM2-135M-Instruct.Q4_1.gguf';
let browser;
after(async () => { await browser?.close(); });

/** What each example must show once skipped to its end, read on screen. */
const FINDINGS = {
  classic: async (page) => {
    assert.equal(await page.locator('.classic-score.seat-position-a').count(), 1, "Position A's scorecard");
    assert.equal(await page.locator('.classic-score.seat-position-b').count(), 1, "Position B's scorecard");
    const counts = await page.locator('.sources-line .quote-counts').textContent();
    assert.match(counts, /verified/);
    assert.match(counts, /not found/, 'one quote is not in the source, as Agora checked it');
  },
  duelogic: async (page) => {
    assert.ok(await page.locator('.turn.was-cut .cut-marker').count() >= 1, 'a chair cut in');
    assert.ok(await page.locator('.scorecard').count() >= 2, "the Arbiter's evaluations");
    assert.equal(await page.locator('.chair-row').count(), 2);
  },
  forecast: async (page) => {
    assert.match(await page.locator('.fc-headline').first().textContent(), /Most likely: .* at \d+\.\d%/);
    assert.equal(await page.locator('.fc-card').count() >= 5, true, 'a card per forecaster');
    assert.ok(await page.locator('.fc-insights').count() >= 1);
  },
  crux: async (page) => {
    assert.ok(await page.locator('.crux-deck .crux-card').count() >= 1, 'a crux card');
  },
  council: async (page) => {
    assert.equal(await page.locator('.council-ballot').count(), 3, 'each member reviewed');
    assert.ok(await page.locator('.council-ranking').count() >= 1);
  },
};

test('a visitor with no key is offered the examples first; each replays, skips to its end and shows its findings', async () => {
  const site = await serveDist({ routes: { [MODEL]: (req, res) => res.writeHead(404).end() } });
  try {
    browser ??= await launch();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.route('http://127.0.0.1:8081/**', r => r.abort('connectionrefused'));
    const page = await context.newPage();
    await page.goto(site.url);
    // Nothing answers here without a key: the examples are unfolded, above the form.
    await page.waitForSelector('#gallery[open]', { timeout: 30_000 });
    const gallery = await page.locator('#gallery').boundingBox();
    const form = await page.locator('form.setup').boundingBox();
    assert.ok(gallery.y < form.y, 'the examples come before the form');
    assert.equal(await page.locator('.example-link').count(), 5);
    await mkdir(SHOTS, { recursive: true });
    await fullScreenshot(page, join(SHOTS, 'gallery-390.png'));
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no sideways scroll at 390 px');

    for (const [name, findings] of Object.entries(FINDINGS)) {
      await page.goto(site.url);
      await page.waitForSelector('#gallery[open]', { timeout: 30_000 });
      await page.click(`#example-${name}`);
      assert.match(page.url(), new RegExp(`\\?example=${name}$`));
      await page.waitForSelector('#example-note');
      assert.match(await page.locator('#example-note').textContent(), /An example debate, written for Agora: not a live run/);
      // It replays from its start as it opens, streaming.
      await page.waitForFunction(() => document.querySelector('#replay-play')?.textContent === 'Pause');
      assert.match(await page.locator('#replay-pos').textContent(), /^Turn \d+ of \d+$/);
      await page.click('#replay-exit');
      assert.equal(await page.locator('#replay-exit').count(), 0, 'skipped to the end');
      const turns = await transcript(page);
      // (A forecast's arguments are its forecasters' cards, read by its own check below.)
      if (name !== 'forecast') assert.ok(turns.length >= 5, `${name}: ${turns.length} turns`);
      assert.equal(turns.filter(t => t.status !== 'done' && t.status !== 'cut').length, 0, `${name}: every turn finished`);
      const all = await page.locator('section.debate').textContent();
      assert.doesNotMatch(all, /[Ss]cripted (answer|notes|crux|reason|from|to)\b|stands in for a model/, `${name}: no filler`);
      await findings(page);
      await page.setViewportSize({ width: 1280, height: 900 });
      await fullScreenshot(page, join(SHOTS, `example-${name}-1280.png`));
      const problems = await axeAudit(page, `the ${name} example`);
      assert.deepEqual(problems, [], problems.join('\n'));
      await page.setViewportSize({ width: 390, height: 844 });
      await fullScreenshot(page, join(SHOTS, `example-${name}-390.png`));
    }

    // Nothing of an example is stored: History holds no debate.
    await page.getByRole('link', { name: 'History' }).click();
    await page.waitForSelector('section.history, #history', { timeout: 10_000 }).catch(() => {});
    assert.equal(await page.locator('.history-row').count(), 0);
    await context.close();
  } finally {
    site.close();
  }
});
