// Going offline pauses the debate with a message; when the connection returns it goes on by
// itself, and nothing said before is lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { world, openApp, addConnection, transcript } from './harness.mjs';

const w = world('e2e-slow.json');

test('offline pauses the debate and the online event resumes it', async () => {
  await w.standin.setScript({ default: { chunks: ['One ', 'two ', 'three ', 'four ', 'five.'], chunk_delay_ms: 60 } });
  const { page, context } = await openApp(w.browser, w.site.url);
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await page.fill('#topic', 'Does the internet make us smarter?');
  await page.fill('#rounds', '1');
  await page.click('#start');
  await page.waitForFunction(() => document.querySelectorAll('.turn[data-status="done"]').length >= 2, null, { timeout: 20_000 });
  await context.setOffline(true);
  await page.waitForSelector('.note:has-text("You are offline")', { timeout: 20_000 });
  const whileOffline = (await transcript(page)).filter(t => t.status === 'done').length;
  await page.waitForTimeout(1_500);
  assert.equal((await transcript(page)).filter(t => t.status === 'done').length, whileOffline, 'nothing finishes while offline');
  await context.setOffline(false);
  await page.waitForSelector('.badge.done', { timeout: 60_000 });
  const turns = await transcript(page);
  assert.equal(turns.filter(t => t.status === 'done').length, 11);
  await page.reload();
  await page.waitForSelector('.badge.done');
  assert.equal((await transcript(page)).filter(t => t.status === 'done').length, 11);
});
