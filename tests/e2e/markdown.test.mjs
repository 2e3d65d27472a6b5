// Markdown that streams in small chunks is rendered incrementally: a finished block's
// elements are created once and stay while later blocks arrive, and the result is the same
// as rendering the whole text at once (which is what a reload does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { world, openApp, addConnection } from './harness.mjs';

const w = world('e2e-slow.json');

const TEXT = [
  'First paragraph with **bold**,',
  'a second line and a [link](https://example.org/a).',
  '',
  '1. one',
  '2. two',
  '   - nested',
  '',
  '3. three, after a gap',
  '',
  '```',
  'code line',
  '',
  'after a blank line in the fence',
  '```',
  '',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '',
  '> quoted',
  '',
  '## A heading',
  '',
  'Last paragraph, *emphasis* at the end.',
].join('\n');

test('streamed Markdown keeps finished blocks and renders like the whole text', async () => {
  const chunks = TEXT.match(/[\s\S]{1,6}/g);
  await w.standin.setScript({ default: { chunks, chunk_delay_ms: 8 } });
  const { page } = await openApp(w.browser, w.site.url);
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await page.fill('#topic', 'Does Markdown stream well?');
  await page.fill('#rounds', '1');
  await page.click('#start');

  // Mark the first turn's first paragraph as soon as the list after it has started.
  const status = await page.waitForFunction(() => {
    const turn = document.querySelector('.turn');
    const md = turn?.querySelector('.md');
    if (!md?.querySelector('ol')) return false;
    md.firstElementChild.agoraMark = true;
    return turn.dataset.status;
  }, null, { timeout: 20_000, polling: 5 });
  assert.equal(await status.jsonValue(), 'streaming', 'marked while the turn was still streaming');
  await page.waitForSelector('.badge.done', { timeout: 60_000 });
  // The same element, never rebuilt while the rest of the turn streamed in.
  assert.equal(await page.$eval('.turn .md', md => md.firstElementChild.agoraMark === true), true);

  const live = await page.$$eval('.turn .md', mds => mds.map(md => md.innerHTML));
  assert.equal(live.length, 11);
  const first = live[0];
  for (const html of ['<strong>bold</strong>', '<a href="https://example.org/a"', '<ol start="3">',
    '<pre><code>code line\n\nafter a blank line in the fence\n</code></pre>', '<table>', '<blockquote>', '<h4>', '<em>emphasis</em>']) {
    assert.ok(first.includes(html), `${html} missing from ${first}`);
  }
  assert.equal(first.match(/<pre>/g).length, 1, 'the fence is one code block');

  await page.reload();
  await page.waitForSelector('.badge.done');
  assert.deepEqual(await page.$$eval('.turn .md', mds => mds.map(md => md.innerHTML)), live);
});
