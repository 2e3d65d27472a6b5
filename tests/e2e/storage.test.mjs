// Nothing lost without a word: a write the browser refuses at commit (a full
// quota, simulated in the page) is told, the debate runs on and exports whole while the
// stored copy stays a clean beginning; opening the database cannot hang on another tab's
// old version or on a browser that never answers; and this tab lets a newer Agora upgrade.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { world, addConnection, transcript } from './harness.mjs';

const w = world('e2e-classic.json');

/** Stored events of every debate, by reading the page's IndexedDB. */
async function storedEvents(page) {
  return page.evaluate(() => new Promise((ok, fail) => {
    const r = indexedDB.open('agora');
    r.onerror = fail;
    r.onsuccess = () => {
      const db = r.result;
      const all = db.transaction('events').objectStore('events').getAll();
      all.onsuccess = () => { db.close(); ok(all.result.map(x => JSON.parse(x.json))); };
    };
  }));
}

test('a write refused at commit (full quota) is told; the debate goes on and exports whole', async () => {
  await w.standin.setScript({ default: { chunk_delay_ms: 15 } });
  const context = await w.browser.newContext({ acceptDownloads: true });
  // The browser reports a full quota when a transaction commits, after its request
  // succeeded: from `__full` on, every write succeeds as a request and then aborts.
  await context.addInitScript(() => {
    window.__full = false;
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (...args) {
      const req = put.apply(this, args);
      if (window.__full) {
        const tx = this.transaction;
        req.addEventListener('success', () => {
          Object.defineProperty(tx, 'error', { value: new DOMException('The quota has been exceeded.', 'QuotaExceededError') });
          tx.abort();
        });
      }
      return req;
    };
  });
  const page = await context.newPage();
  await page.goto(w.site.url);
  await page.waitForSelector('#start:not([disabled])');
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await page.fill('#topic', 'Should storage ever fill up?');
  await page.fill('#rounds', '1');
  await page.click('#start');
  await page.waitForFunction(() => document.querySelectorAll('.turn[data-status="done"]').length >= 3, null, { timeout: 30_000 });
  await page.evaluate(() => { window.__full = true; });

  const notice = page.locator('.notice');
  await notice.waitFor({ timeout: 20_000 });
  assert.match(await notice.textContent(), /Saving this debate stopped: the browser's storage for this site is full \(QuotaExceededError/);
  assert.match(await notice.textContent(), /Export/);
  await page.waitForSelector('.badge.done', { timeout: 60_000 });
  const onScreen = await transcript(page);
  assert.equal(onScreen.length, 11, 'the debate went on to its end');

  // Export works from this tab's copy: the whole debate.
  const [d] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  const exported = JSON.parse(await readFile(await d.path(), 'utf8')).events;
  assert.equal(exported.filter(e => 'TurnFinished' in e.kind).length, 13);
  assert.ok('Finished' in exported.at(-1).kind);

  // The store kept a clean beginning: no gap, nothing after the failure, readable.
  await page.evaluate(() => { window.__full = false; });
  const stored = (await storedEvents(page)).map(e => e.seq).sort((a, b) => a - b);
  assert.ok(stored.length >= 5 && stored.length < exported.length, `${stored.length} of ${exported.length} stored`);
  assert.deepEqual(stored, [...stored.keys()], 'the stored log has a gap');
  // History in this tab still lists it whole; a reload shows what was stored.
  await page.getByRole('link', { name: 'History' }).click();
  assert.match(await page.locator('.history-row').first().textContent(), /13 turns/);
  await page.reload();
  await page.waitForSelector('.history-row');
  await page.locator('a.history-topic').first().click();
  await page.waitForSelector('.turn');
  const reloaded = await transcript(page);
  assert.ok(reloaded.length >= 2 && reloaded.length < 11, `${reloaded.length} turns after a reload`);
  assert.deepEqual(reloaded.filter(t => t.status === 'done').map(t => t.text), onScreen.slice(0, reloaded.filter(t => t.status === 'done').length).map(t => t.text));
  await context.close();
});

test('another tab holding an older version open: the open gives up at once and says what to do', async () => {
  const context = await w.browser.newContext();
  // The other tab: an older Agora's connection at version 1 that never lets go.
  const old = await context.newPage();
  await old.goto(`${w.site.url}boot.js`); // any page of the origin will do
  await old.evaluate(() => new Promise(ok => { const r = indexedDB.open('agora', 1); r.onsuccess = () => { window.__db = r.result; ok(); }; }));
  // This tab: a newer Agora, which asks for the next version.
  await context.addInitScript(() => {
    const open = IDBFactory.prototype.open;
    IDBFactory.prototype.open = function (name, version) {
      return open.call(this, name, name === 'agora' && version ? version + 1 : version);
    };
  });
  const page = await context.newPage();
  const started = Date.now();
  await page.goto(w.site.url);
  const notice = page.locator('.notice');
  await notice.waitFor({ timeout: 5_000 });
  assert.ok(Date.now() - started < 5_000);
  assert.match(await notice.textContent(), /held open by another tab running an older Agora\. Close or reload the other Agora tabs, then reload this page\. Debates will not be kept after this tab closes/);
  await page.waitForSelector('#start:not([disabled])');
  // The app still works, in memory.
  await w.standin.setScript({ default: { chunk_delay_ms: 1 } });
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await page.fill('#topic', 'Blocked but working?');
  await page.fill('#rounds', '1');
  await page.click('#start');
  await page.waitForSelector('.badge.done', { timeout: 60_000 });
  await context.close();
});

test('a database that never answers: the open gives up after 10 s with a message', async () => {
  const context = await w.browser.newContext();
  await context.addInitScript(() => {
    const open = IDBFactory.prototype.open;
    IDBFactory.prototype.open = function (...args) {
      const req = open.apply(this, args);
      for (const h of ['onsuccess', 'onerror', 'onblocked', 'onupgradeneeded']) {
        Object.defineProperty(req, h, { set() {}, get() { return null; } });
      }
      return req;
    };
  });
  const page = await context.newPage();
  const started = Date.now();
  await page.goto(w.site.url);
  const notice = page.locator('.notice');
  await notice.waitFor({ timeout: 15_000 });
  const waited = Date.now() - started;
  assert.ok(waited >= 9_000 && waited < 15_000, `${waited} ms`);
  assert.match(await notice.textContent(), /did not open within 10 seconds\. Close other Agora tabs and reload this page/);
  await page.waitForSelector('#start:not([disabled])');
  await context.close();
});

test('a newer Agora in another tab is not blocked: this tab lets go and says to reload', async () => {
  await w.standin.setScript({ default: { chunk_delay_ms: 1 } });
  const context = await w.browser.newContext();
  const first = await context.newPage();
  await first.goto(w.site.url);
  await first.waitForSelector('#start:not([disabled])');
  await addConnection(first, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });

  const newer = await context.newPage();
  await newer.addInitScript(() => {
    const open = IDBFactory.prototype.open;
    IDBFactory.prototype.open = function (name, version) {
      return open.call(this, name, name === 'agora' && version ? version + 1 : version);
    };
  });
  await newer.goto(w.site.url);
  await newer.waitForSelector('#start:not([disabled])');
  assert.equal(await newer.locator('.notice').count(), 0, 'the newer tab was blocked');

  await first.fill('#topic', 'Who keeps the database?');
  await first.fill('#rounds', '1');
  await first.click('#start');
  const notice = first.locator('.notice');
  await notice.waitFor({ timeout: 20_000 });
  assert.match(await notice.textContent(), /a newer Agora opened in another tab took over the stored debates; reload this tab to save again/);
  await first.waitForSelector('.badge.done', { timeout: 60_000 });
  await context.close();
});
