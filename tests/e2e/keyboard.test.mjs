// Every format without a mouse: add a connection, pick the format, set it up, start, ask a
// question, stop, resume and export, reaching each control with Tab alone; and the focus
// lands where the next step is (the new connection after Save, the debate's heading after
// Start, Resume after Stop, the next row or the search field after a Delete), never under
// the sticky bars; Escape closes the connection form.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveDist, startStandin, launch, openApp, storedEvents, ROOT } from './harness.mjs';

const FORMATS = {
  Classic: { script: 'e2e-classic.json', fields: { '#rounds': '1' } },
  Duelogic: { script: 'e2e-duelogic.json', fields: { '#duelogic-rounds': '1' } },
  Forecast: { script: 'e2e-forecast.json', fields: { '#forecast-rounds': '2' } },
  Crux: { script: 'e2e-crux.json', fields: { '#crux-aspects': '1', '#crux-exchanges': '6' } },
  Council: { script: 'e2e-council.json', fields: {} },
};

let site, browser;
before(async () => { site = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); site?.close(); });

/** Presses Tab (Shift+Tab with `back`) until the focus is on `selector`; fails when it
 * never gets there, so every control used is proven reachable by keyboard. */
async function tabTo(page, selector, { back = false, max = 400 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate(s => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** Types into the focused field, replacing what it held. */
async function typeOver(page, text) {
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

const focused = page => page.evaluate(() => {
  const el = document.activeElement;
  return el ? (el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`) : null;
});

/** The focused element is on screen and not under the sticky top bar or progress bar. */
async function focusVisible(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    const r = el.getBoundingClientRect();
    const covers = [...document.querySelectorAll('.topbar, .progress')].filter(b => !b.contains(el)).map(b => b.getBoundingClientRect().bottom);
    return r.top >= Math.max(0, ...covers) - 1 && r.bottom <= innerHeight + 1;
  });
}

for (const [format, f] of Object.entries(FORMATS)) {
  test(`${format} by keyboard alone: set up, start, ask, stop, resume and export`, { timeout: 240_000 }, async () => {
    const standin = await startStandin(f.script);
    try {
      const s = JSON.parse(await readFile(join(ROOT, 'tests/scripts', f.script), 'utf8'));
      // Slow enough to ask and stop while it runs.
      await standin.setScript({ ...s, answers: (s.answers ?? []).map(a => ({ ...a, chunk_delay_ms: 60 })), default: { ...(s.default ?? {}), chunk_delay_ms: 60 } });
      const { page } = await openApp(browser, site.url, { width: 1280, height: 900 });

      // A connection to the stand-in, from the keyboard. Escape closes the form first.
      await tabTo(page, '#add-connection');
      await page.keyboard.press('Enter');
      await tabTo(page, '#conn-name');
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('.connection-form') && document.activeElement?.id === 'add-connection');
      await page.keyboard.press('Enter');
      await tabTo(page, '#conn-name'); await typeOver(page, 'Stand-in');
      await tabTo(page, '#conn-url'); await typeOver(page, `${standin.base}/v1`);
      await tabTo(page, '#conn-model'); await typeOver(page, 'standin');
      await tabTo(page, '#conn-call-header'); await page.keyboard.press('Space');
      await tabTo(page, '#conn-save'); await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.id === 'connection');
      assert.equal(await page.$eval('#connection option:checked', o => o.textContent), 'Stand-in', 'the new connection is picked');

      // The format: into the radio group, then arrows.
      await tabTo(page, 'input[name="format"]', { back: true });
      for (let i = 0; i < 4 && !(await page.evaluate(v => document.activeElement.value === v, format)); i++) {
        await page.keyboard.press('ArrowRight');
      }
      assert.equal(await page.$eval('input[name="format"]:checked', r => r.value), format);
      await tabTo(page, '#topic');
      await page.keyboard.type('Should cities ban private cars from their centres?');
      for (const [field, value] of Object.entries(f.fields)) {
        await tabTo(page, field);
        await typeOver(page, value);
      }
      await tabTo(page, '#start');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.matches('h1.topic'), null, { timeout: 10_000 });
      assert.match(await page.title(), /^Should cities ban private cars from their centres\? · Agora$/);

      // A question, while it runs.
      await tabTo(page, '#ask-input');
      assert.ok(await focusVisible(page), 'the question field is not hidden under a sticky bar');
      await page.keyboard.type('What about deliveries?');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelector('#ask-input')?.value === '');

      // Stop: the focus goes to Resume, which carries on.
      await tabTo(page, '#stop', { back: true });
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.id === 'resume', null, { timeout: 10_000 });
      assert.ok(await focusVisible(page), 'Resume is on screen');
      await page.keyboard.press('Enter');
      await page.waitForSelector('.badge.done', { timeout: 180_000 });
      const asked = (await storedEvents(page))
        .some(e => JSON.stringify(e.kind.InputReceived ?? null).includes('What about deliveries?'));
      assert.ok(asked, 'the question reached the debate');

      // Export.
      await tabTo(page, '#export-json', { back: true });
      const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
      assert.match(download.suggestedFilename(), /\.json$/);

      if (format === 'Classic') {
        // History, and a Delete confirmed from the keyboard: the focus follows each button
        // that replaces the last, then goes to the search field when no row is left.
        await tabTo(page, '.topbar nav a:nth-child(2)', { back: true });
        await page.keyboard.press('Enter');
        await page.waitForSelector('.history-row');
        assert.equal(await page.title(), 'History · Agora');
        await tabTo(page, '.history-row .ask-delete');
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => document.activeElement?.matches('.confirm-delete'));
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => document.activeElement?.id === 'history-search', null, { timeout: 10_000 });
        assert.equal(await page.locator('.history-row').count(), 0);
      }
    } finally {
      standin.close();
    }
  });
}
