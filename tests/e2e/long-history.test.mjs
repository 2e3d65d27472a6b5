// A long debate (200 turns of about 2,000 characters of Markdown each, with the request
// behind every turn) opens from history drawn a slice at a time: the first turns are on
// screen while the rest are still being built, and no browser task builds more than a few
// dozen turns, so the page keeps answering while it fills. How long the main thread is held
// is a timing and lives in the benchmark (long-history-bench.mjs, BENCHMARKS.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { world } from './harness.mjs';
import { TURNS, historyWithLongDebate, openLongDebate } from './long-debate.mjs';

const w = world('e2e-classic.json');

test(`a ${TURNS}-turn debate opens from history a slice of turns at a time`, async () => {
  const { page } = await historyWithLongDebate(w);
  // The number of turns on screen each time the page changed it: a MutationObserver's
  // callback runs at the end of the task that changed the page, so each entry is what one
  // task (or part of one) added.
  await page.evaluate(() => {
    window.__counts = [];
    new MutationObserver(() => {
      const n = document.querySelectorAll('.turn').length;
      if (n !== window.__counts.at(-1)) window.__counts.push(n);
    }).observe(document.body, { childList: true, subtree: true });
  });
  await openLongDebate(page);
  const counts = (await page.evaluate(() => window.__counts)).filter(n => n > 0);
  const steps = counts.map((n, i) => n - (counts[i - 1] ?? 0));
  console.log(`# turns on screen as the debate opened: ${counts.join(', ')}`);
  assert.equal(counts.at(-1), TURNS, 'every turn ends up on screen');
  assert.ok(counts.length >= 4, `the turns arrive in slices, not at once: ${counts.join(', ')}`);
  assert.ok(Math.max(...steps) <= 48, `no change adds more than 48 turns: ${steps.join(', ')}`);
  assert.deepEqual([...counts].sort((a, b) => a - b), counts, 'turns once shown stay shown');
  // The turns are in order: round 1's first speaker first, the last turn last.
  const first = await page.locator('.turn').first().textContent();
  const last = await page.locator('.turn').last().textContent();
  assert.match(first, /Point 0\.1/);
  assert.match(last, new RegExp(`Point ${TURNS - 1}\\.6`));
});
