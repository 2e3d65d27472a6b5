// Stop aborts the call in flight at once; the partial turn stays; Resume finishes the debate
// without repeating a finished turn. Also: a debate interrupted by closing the tab keeps its
// finished turns and shows the unfinished one as such.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { world, openApp, addConnection, transcript } from './harness.mjs';

const w = world('e2e-slow.json');

async function startSlowDebate(page) {
  await addConnection(page, { name: 'Slow stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await page.fill('#topic', 'Is a hot dog a sandwich?');
  await page.fill('#rounds', '1');
  await page.click('#start');
}

test('Stop aborts the turn in flight at once and Resume completes the debate', async () => {
  const { page } = await openApp(w.browser, w.site.url);
  await startSlowDebate(page);
  // Let the first turn finish and the second start streaming.
  await page.waitForFunction(() => document.querySelectorAll('.turn').length >= 2 && (document.querySelectorAll('.turn .md')[1]?.textContent.length ?? 0) > 10, null, { timeout: 20_000 });
  const before = Date.now();
  await page.click('#stop');
  await page.waitForSelector('.badge.stopped');
  assert.ok(Date.now() - before < 1_500, `stopping took ${Date.now() - before} ms`);
  const stopped = await transcript(page);
  const last = stopped.at(-1);
  assert.equal(last.status, 'failed');
  assert.ok(last.text.length > 0 && !last.text.includes('arriving.'), `partial text kept: ${last.text}`);
  // Nothing more arrives after Stop.
  await page.waitForTimeout(800);
  assert.equal((await transcript(page)).length, stopped.length);

  await page.click('#resume');
  await page.waitForSelector('.badge.done', { timeout: 60_000 });
  const done = await transcript(page);
  const finished = done.filter(t => t.status === 'done');
  assert.equal(finished.length, 11, 'every call finished once');
  // The stopped attempt stays visible, as a quiet note now that Resume asked again.
  assert.equal(done.filter(t => t.status === 'retried').length, 1, 'the stopped attempt stays visible');
  assert.equal(done.filter(t => t.status === 'failed').length, 0, 'no turn is left failed');
  // The finished first turn was replayed, not asked again.
  const calls = (await w.standin.log()).map(r => r.path);
  assert.equal(calls.filter(p => p === 'opening/moderator').length, 1);
});

test('closing the tab mid-debate keeps the finished turns and marks the unfinished one', async () => {
  const { page, context } = await openApp(w.browser, w.site.url);
  await startSlowDebate(page);
  // The in-flight text is saved about once a second and dropped when its turn ends: close
  // the tab as soon as the store holds the second turn's, not after a fixed wait that a
  // loaded machine can overrun into the next turn. It is saved after the first turn's end
  // (the store has one queue), so that turn reads as done.
  const saved = () => page.evaluate(async () => {
    const db = await new Promise((ok, fail) => { const r = indexedDB.open('agora'); r.onsuccess = () => ok(r.result); r.onerror = fail; });
    const rows = await new Promise(ok => { const r = db.transaction('in_flight').objectStore('in_flight').getAll(); r.onsuccess = () => ok(r.result); });
    db.close();
    return rows.some(r => JSON.parse(r.json).call.path !== 'opening/moderator');
  });
  for (const started = Date.now(); !(await saved()); await page.waitForTimeout(100)) {
    assert.ok(Date.now() - started < 20_000, 'the second turn\'s text was never saved');
  }
  const url = page.url();
  await page.close();
  const again = await context.newPage();
  await again.goto(url);
  await again.waitForSelector('.turn');
  const turns = await transcript(again);
  assert.equal(turns[0].status, 'done');
  const unfinished = turns.at(-1);
  assert.equal(unfinished.status, 'interrupted');
  assert.ok(unfinished.text.length > 0, 'the saved part of the turn in flight is shown');
  assert.ok(await again.locator('#resume').isVisible(), 'it can be resumed');
});
