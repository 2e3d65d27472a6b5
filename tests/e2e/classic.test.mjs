// A classic debate against the scripted stand-in, as a user would run it: start, watch every
// turn stream in, reload, find it in history, open it, delete it. Also checks that the API
// key reaches no storage and no console line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { world, openApp, addConnection, dumpIndexedDb, transcript } from './harness.mjs';

const KEY = 'sk-e2e-SECRET-key-0042';
const w = world('e2e-classic.json');

test('a classic debate streams, survives a reload, shows in history and can be deleted', async () => {
  const { page, consoleLines } = await openApp(w.browser, w.site.url);
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', key: KEY, callHeader: true });
  await page.getByRole('button', { name: 'Should cities ban private cars from their centres?' }).click();
  await page.fill('#rounds', '1');
  await page.click('#start');

  // Turns appear one after another and their text grows while they stream.
  await page.waitForSelector('.turn[data-status="streaming"]');
  const first = await page.locator('.turn .md').first().textContent();
  await page.waitForFunction(len => (document.querySelector('.turn .md')?.textContent.length ?? 0) > len, first.length);
  assert.match(await page.locator('.progress').textContent(), /Running/);

  await page.waitForSelector('.badge.done', { timeout: 60_000 });
  const turns = await transcript(page);
  assert.deepEqual(turns.map(t => `${t.speaker}: ${t.label}`), [
    'Moderator: Opening remarks',
    'Position A: Opening statement', 'Position B: Opening statement',
    'Position A: Argument', 'Position B: Rebuttal', 'Position B: Argument', 'Position A: Rebuttal',
    'Moderator: Round summary',
    'Position A: Closing statement', 'Position B: Closing statement',
    'Moderator: Closing summary',
  ]);
  assert.ok(turns.every(t => t.text.trim().length > 20 && t.status === 'done'), JSON.stringify(turns));
  assert.match(turns[1].text, /Pontevedra/);
  assert.equal(await page.locator('.turn strong', { hasText: 'safer' }).count(), 1, 'Markdown is rendered');
  // Finished, the line counts the calls made, not a fraction of a plan.
  assert.match(await page.locator('.progress').textContent(), /· 13 calls ·/);

  // The stand-in saw the key and the calls in the format's order.
  const log = await w.standin.log();
  assert.equal(log.length, 13, "11 turns and the two scores of a formal debate");
  assert.ok(log.every(r => r.authorized));
  assert.deepEqual(log.map(r => r.seat).slice(0, 3), ['moderator', 'position-a', 'position-b']);

  // The debate has its own link; a reload shows the same transcript from IndexedDB.
  const url = page.url();
  assert.match(url, /\/some\/sub-path\/\?debate=/);
  await page.reload();
  await page.waitForSelector('.badge.done');
  assert.deepEqual(await transcript(page), turns);

  // History lists it; opening it renders the same transcript.
  await page.getByRole('link', { name: 'History' }).click();
  const row = page.locator('.history-row', { hasText: 'Should cities ban private cars' });
  await row.waitFor();
  assert.match(await row.textContent(), /Finished/);
  assert.match(await row.textContent(), /13 turns/);
  await row.locator('a.history-topic').click();
  await page.waitForSelector('.badge.done');
  assert.deepEqual(await transcript(page), turns);
  assert.equal(page.url(), url);

  // Nothing stored and nothing logged carries the key.
  assert.ok(!(await dumpIndexedDb(page)).includes(KEY), 'the key reached IndexedDB');
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  assert.ok(!storage.includes(KEY), 'the key reached web storage');
  assert.ok(!consoleLines.join('\n').includes(KEY), 'the key reached the console');

  // Delete it; it is gone, also after a reload.
  await page.getByRole('link', { name: 'History' }).click();
  await row.getByRole('button', { name: 'Delete' }).click();
  await row.getByRole('button', { name: 'Delete for good' }).click();
  await page.waitForSelector('text=No debates yet.');
  await page.reload();
  await page.waitForSelector('text=No debates yet.');
  assert.ok(!(await dumpIndexedDb(page)).includes('Pontevedra'), 'the transcript is gone from IndexedDB');
  await page.goto(url);
  await page.waitForSelector('text=This debate is not stored in this browser');
});
