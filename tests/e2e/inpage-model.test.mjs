// The "In this browser" connection: SmolLM2-135M run by wllama inside the tab (a Web Worker),
// with no key and no server but the one that serves the page. A one-round classic debate in
// the multi-thread (cross-origin isolated) and the single-thread mode; the model cached
// after its first download; and a clear message for every bad input. Needs the GGUF that
// .ci/lib.sh's place_model links into dist/models/ (the local model's tier runs it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { serveDist, launch, openApp, transcript, ROOT } from './harness.mjs';

const GGUF = 'models/SmolLM2-135M-Instruct.Q4_1.gguf';
const enabled = existsSync(join(ROOT, 'dist', GGUF));
const skip = !enabled && `dist/${GGUF} is missing (bash -c 'source .ci/lib.sh && place_model dist')`;
let browser;
before(async () => { if (enabled) browser = await launch(); });
after(async () => { await browser?.close(); });

const status = (page) => page.locator('#inpage-status span').textContent();
const error = (page) => page.locator('#inpage-error').textContent();

/** Picks the connection and waits for its panel. */
async function pickInPage(page) {
  await page.selectOption('#connection', 'inpage');
  await page.waitForSelector('#inpage-status span');
}

/** Waits until the panel is neither loading nor empty-handed; returns [status, error]. */
async function settled(page, timeout = 120_000) {
  await page.waitForFunction(() => document.querySelector('#inpage-load')?.disabled === false
    && (document.querySelector('#inpage-error').textContent || /context/.test(document.querySelector('#inpage-status span').textContent)), null, { timeout });
  return [await status(page), await error(page)];
}

/** A turn that ended by itself, or at the longest answer. */
const FINISHED = '.turn[data-status="done"], .turn[data-status="truncated"]';

/** Runs a one-round classic debate, turns of at most `longest` tokens, to its end or, with
 * `stopAfter`, until that many turns are finished (then Stop), and watches it from inside
 * the page (no polling from here, which would itself load the main thread): every length
 * each turn's text is seen at, and the main thread's long tasks from the first token on,
 * with the scripts of any long animation frame to tell where one came from. Returns the
 * finished turns. */
async function debate(page, { longest = 48, stopAfter } = {}) {
  await page.fill('#inpage-max', String(longest));
  await page.dispatchEvent('#inpage-max', 'change');
  await page.getByRole('button', { name: 'Should voting be compulsory in democracies?' }).click();
  await page.fill('#rounds', '1');
  // Educational: eleven spoken turns and no scores, which a 135M model cannot write as JSON.
  await page.selectOption('#style', 'educational');
  await page.evaluate(() => {
    window.seen = [];
    window.longTasks = [];
    window.slowFrames = [];
    let generating = false;
    const look = () => {
      document.querySelectorAll('.turn').forEach((t, i) => {
        const n = t.querySelector('.md')?.textContent.length ?? 0;
        const s = (window.seen[i] ??= []);
        if (!s.includes(n)) s.push(n);
        if (n > 0 && !generating) {
          generating = true;
          new PerformanceObserver(l => window.longTasks.push(...l.getEntries().map(e => Math.round(e.duration)))).observe({ type: 'longtask' });
          new PerformanceObserver(l => window.slowFrames.push(...l.getEntries().filter(e => e.blockingDuration > 0).map(e =>
            `${Math.round(e.duration)} ms frame, blocking ${Math.round(e.blockingDuration)} ms: ${e.scripts.map(s => `${s.invoker} ${s.sourceURL.split('/').pop()} ${Math.round(s.duration)} ms`).join('; ')}`))).observe({ type: 'long-animation-frame' });
        }
      });
    };
    new MutationObserver(look).observe(document.querySelector('main'), { subtree: true, childList: true, characterData: true });
  });
  await page.click('#start');
  if (stopAfter) {
    await page.waitForFunction(([finished, n]) => document.querySelectorAll(finished).length >= n, [FINISHED, stopAfter], { timeout: 900_000, polling: 500 });
    await page.click('#stop');
    await page.waitForSelector('.badge.stopped');
  } else {
    await page.waitForSelector('.badge.done, .badge.failed, .note.error', { timeout: 1_500_000 });
  }
  const { seen, longTasks, slowFrames } = await page.evaluate(() => ({ seen: window.seen, longTasks: window.longTasks, slowFrames: window.slowFrames }));
  const turns = (await transcript(page)).filter(t => ['done', 'truncated'].includes(t.status));
  return { seen, longTasks, slowFrames, turns };
}

// The whole debate once, on several threads (the faster way); on one thread its first two
// turns, which prove the same of that mode (streamed, bounded, counted, in the worker, free,
// downloaded once) in a fraction of the time.
for (const mode of ['multi-thread', 'single-thread']) {
  const whole = mode === 'multi-thread';
  test(`${whole ? 'a one-round classic debate runs entirely' : 'the first turns of a classic debate run'} in the tab (${mode})`, { skip, timeout: 2_400_000 }, async () => {
    const site = await serveDist({ isolate: whole });
    try {
      const { page, context, consoleLines } = await openApp(browser, site.url);
      await pickInPage(page);
      assert.match(await status(page), whole ? /runs on \d+ threads \(cross-origin isolated\)/ : /runs on 1 thread \(this page is not cross-origin isolated\)/);
      const t0 = Date.now();
      const { seen, longTasks, slowFrames, turns } = await debate(page, { stopAfter: whole ? undefined : 2 });
      const seconds = (Date.now() - t0) / 1000;
      console.log(`in the tab, ${mode}: ${turns.length} turns of a one-round classic debate in ${seconds.toFixed(0)} s; longest main-thread task while generating ${Math.max(0, ...longTasks)} ms`);
      for (const f of slowFrames) console.log(`  ${f}`);
      if (whole) {
        assert.ok(await page.locator('.badge.done').isVisible(), `the debate failed: ${JSON.stringify(turns.at(-1))}\n${consoleLines.join('\n')}`);
        assert.equal(turns.length, 11);
      } else {
        assert.ok(turns.length >= 2, `${turns.length} turns finished\n${consoleLines.join('\n')}`);
      }
      turns.forEach((t, i) => {
        assert.ok(t.text.trim().length > 0, `${t.speaker} ${t.label} is empty`);
        // Streamed: the turn was seen on screen at several lengths, not only at its end.
        const lengths = seen[i].filter(n => n > 0 && n < t.text.length);
        assert.ok(lengths.length >= 1, `${t.speaker} ${t.label} appeared all at once`);
      });
      // No answer went past the panel's "Longest answer".
      const usages = await page.$$eval(FINISHED.split(', ').map(t => `${t} .usage`).join(', '), us => us.map(u => u.textContent));
      const outs = usages.map(u => Number(/(\d+) out/.exec(u)?.[1]));
      assert.equal(outs.length, turns.length);
      assert.ok(outs.every(n => n > 0 && n <= 48), `tokens out per turn: ${outs}`);
      // Counted by the model (wllama's usage report), not estimated from the text's length.
      assert.ok(usages.every(u => !u.includes('estimated')), usages.join('\n'));
      // The model runs in a Web Worker, off the page's thread. How long the page's own tasks
      // were while it generated is printed above: a timing, for BENCHMARKS.md, not a test.
      assert.ok(page.workers().length >= 1, 'the model runs in a worker');
      // Free: the cost line says $0.
      assert.match(await page.locator('body').textContent(), /\$0(\.0+)?\b/);
      // Downloaded once; the first screen only asked whether it is served (HEAD), once.
      assert.equal(site.seen.filter(p => p.endsWith('.gguf')).length, 1);
      assert.ok(site.probed.filter(p => p.endsWith('.gguf')).length <= 1, `asked ${site.probed}`);
      await context.close();
    } finally {
      site.close();
    }
  });
}

test('after a reload the model starts from this browser\'s cache with no second download; History lists and deletes it', { skip, timeout: 300_000 }, async () => {
  const site = await serveDist();
  const requests = () => site.seen.filter(p => p.endsWith('.gguf')).length;
  try {
    const { page, context } = await openApp(browser, site.url);
    // A browser that never loaded a model here: History fetches nothing of the in-page code.
    await page.getByRole('link', { name: 'History' }).click();
    await page.waitForSelector('.history h1');
    await page.waitForTimeout(500);
    assert.deepEqual(site.seen.filter(p => p.includes('/inpage/')), []);
    await page.getByRole('link', { name: 'New debate' }).click();
    await pickInPage(page);
    await page.fill('#inpage-max', '200');
    await page.dispatchEvent('#inpage-max', 'change');
    await page.click('#inpage-load');
    const [first] = await settled(page);
    assert.doesNotMatch(first, /from this browser's cache/);
    assert.equal(requests(), 1);
    // A reload: the model comes from this browser's cache, not from the server.
    await page.goto(site.url);
    await page.waitForSelector('#start:not([disabled])');
    await pickInPage(page);
    await page.click('#inpage-load');
    const [line, problem] = await settled(page);
    assert.equal(problem, '');
    assert.match(line, /from this browser's cache/);
    // The longest answer chosen before the reload is still the one in use.
    assert.equal(await page.inputValue('#inpage-max'), '200');
    assert.equal(requests(), 1, 'the GGUF was downloaded a second time');
    // The History screen lists it, with its size, and can delete it.
    await page.getByRole('link', { name: 'History' }).click();
    const kept = page.locator('.cached-model');
    await kept.first().waitFor();
    assert.match(await kept.first().textContent(), /SmolLM2-135M-Instruct\.Q4_1\.gguf · 98 MB/);
    await kept.first().getByRole('button', { name: 'Delete' }).click();
    await page.waitForFunction(() => !document.querySelector('.cached-model'));
    await context.close();
  } finally {
    site.close();
  }
});

test('a model loaded from an address is the one the next visit\'s first call starts, from the cache', { skip, timeout: 300_000 }, async () => {
  const gguf = await readFile(join(ROOT, 'dist', GGUF));
  const site = await serveDist({
    routes: {
      'other.gguf': (req, res) => {
        res.writeHead(200, { 'Content-Length': gguf.length, 'Content-Type': 'application/octet-stream' });
        res.end(gguf);
      },
    },
  });
  const downloads = () => site.seen.filter(p => p.endsWith('.gguf'));
  try {
    const { page, context } = await openApp(browser, site.url);
    await pickInPage(page);
    assert.equal(await loadUrl(page, `${site.url}other.gguf`), '');
    assert.deepEqual(downloads().map(p => p.split('/').pop()), ['other.gguf']);
    // The next visit: the panel says which model the first call loads, and a call loads it
    // from this browser's cache, not from the server, and not the served SmolLM2.
    await page.goto(site.url);
    await page.waitForSelector('#start:not([disabled])');
    await pickInPage(page);
    assert.match(await status(page), /the first call loads other\.gguf, kept in this browser/);
    assert.equal(await page.inputValue('#inpage-url'), `${site.url}other.gguf`);
    await page.click('#test-connection');
    await page.waitForSelector('p.ok', { timeout: 120_000 });
    assert.match(await status(page), /^other\.gguf · 98 MB · .*from this browser's cache/);
    assert.equal(downloads().length, 1, `downloaded again: ${downloads()}`);
    await context.close();
  } finally {
    site.close();
  }
});

test('Stop ends a turn generated in the tab at once, also while the model loads, and the model takes the next call', { skip, timeout: 600_000 }, async () => {
  const site = await serveDist();
  try {
    const { page, context } = await openApp(browser, site.url);
    // Counts what the model's worker writes, whoever reads it.
    await page.evaluate(() => {
      window.tokensWritten = 0;
      const W = window.Worker;
      window.Worker = class extends W {
        constructor(...a) {
          super(...a);
          this.addEventListener('message', (e) => { if (e.data?.token !== undefined) window.tokensWritten++; });
        }
      };
    });
    await pickInPage(page);
    await page.getByRole('button', { name: 'Should voting be compulsory in democracies?' }).click();
    // Stopped while the first call still loads the model: once loaded, it writes nothing.
    await page.click('#start');
    await page.click('#stop');
    await page.waitForSelector('.badge.stopped');
    await page.getByRole('link', { name: 'New debate' }).click();
    await pickInPage(page);
    await settled(page);
    await page.waitForTimeout(3_000);
    assert.equal(await page.evaluate(() => window.tokensWritten), 0, 'the stopped call ran after the model loaded');
    await page.getByRole('button', { name: 'Should voting be compulsory in democracies?' }).click();
    await page.click('#start');
    await page.waitForFunction(() => (document.querySelector('.turn .md')?.textContent.length ?? 0) > 10, null, { timeout: 300_000 });
    const before = Date.now();
    await page.click('#stop');
    await page.waitForSelector('.badge.stopped');
    assert.ok(Date.now() - before < 1_500, `stopping took ${Date.now() - before} ms`);
    const stopped = await transcript(page);
    await page.waitForTimeout(1_000);
    assert.deepEqual(await transcript(page), stopped, 'text kept arriving after Stop');
    // The worker let go of the stopped call: the next one is answered.
    await page.getByRole('link', { name: 'New debate' }).click();
    await page.selectOption('#connection', 'inpage');
    await page.click('#test-connection');
    await page.waitForSelector('p.ok', { timeout: 120_000 });
    assert.match(await page.textContent('p.ok'), /^Connected: SmolLM2-135M-Instruct\.Q4_1 answered/);
    await context.close();
  } finally {
    site.close();
  }
});

test('on a host that sends no COOP/COEP headers, the service worker makes the page isolated and the model runs on several threads', { skip, timeout: 300_000 }, async () => {
  const site = await serveDist();
  try {
    const { page, context, consoleLines } = await openApp(browser, site.url);
    await pickInPage(page);
    assert.match(await status(page), /runs on 1 thread \(this page is not cross-origin isolated\)/);
    await Promise.all([page.waitForNavigation(), page.click('#inpage-threads')]);
    await page.waitForSelector('#start:not([disabled])');
    assert.equal(await page.evaluate(() => crossOriginIsolated), true);
    await pickInPage(page);
    assert.equal(await page.locator('#inpage-threads').isVisible(), false);
    await page.click('#inpage-load');
    const [line, problem] = await settled(page);
    assert.equal(problem, '', consoleLines.join('\n'));
    assert.match(line, /SmolLM2-135M-Instruct\.Q4_1\.gguf · 98 MB · context 4,096 tokens · \d+ threads \(cross-origin isolated\)/);
    await context.close();
  } finally {
    site.close();
  }
});

/** A GGUF header describing one 4 MB tensor, and `size` bytes in all (a sparse file). */
async function fakeGguf(name, size) {
  const parts = [Buffer.from('GGUF'), u32(3), u64(1), u64(0), u64(1), Buffer.from('t'), u32(1), u64(1_000_000), u32(0), u64(0)];
  const path = join(tmpdir(), name);
  const f = await open(path, 'w');
  await f.write(Buffer.concat(parts));
  await f.truncate(size);
  await f.close();
  return path;
}
function u32(n) { const b = Buffer.alloc(4); b.writeUInt32LE(n); return b; }
function u64(n) { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(n)); return b; }

/** Loads from a file on disk and returns the panel's error. */
async function loadFile(page, file) {
  await page.selectOption('#inpage-source', 'file');
  await page.setInputFiles('#inpage-file', file);
  await page.click('#inpage-load');
  return (await settled(page))[1];
}

/** Loads from an address and returns the panel's error. */
async function loadUrl(page, url) {
  await page.selectOption('#inpage-source', 'url');
  await page.fill('#inpage-url', url);
  await page.click('#inpage-load');
  return (await settled(page))[1];
}

/** What the History screen lists as kept in this browser. */
/** Every file in the folder where models are kept (Origin Private File System), partial
 * downloads included. */
async function keptModels(page) {
  return page.evaluate(async () => {
    const out = [];
    try {
      const d = await (await navigator.storage.getDirectory()).getDirectoryHandle('agora-models');
      for await (const [name] of d.entries()) out.push(name);
    } catch { /* never created: nothing kept */ }
    return out;
  });
}

test('bad input gets a clear message, and nothing is stored', { skip, timeout: 300_000 }, async () => {
  const gguf = await readFile(join(ROOT, 'dist', GGUF));
  let cutAt = 0;
  const site = await serveDist({
    routes: {
      'missing.gguf': (req, res) => res.writeHead(404).end(),
      // Says the whole size, sends 1 MB, and hangs up.
      'cut.gguf': (req, res) => {
        res.writeHead(200, { 'Content-Length': gguf.length, 'Content-Type': 'application/octet-stream' });
        res.write(gguf.subarray(0, 1_000_000), () => { cutAt = 1_000_000; setTimeout(() => res.destroy(), 100); });
      },
      // 1 MB every 200 ms: slow enough to watch the progress line and cancel.
      'slow.gguf': (req, res) => {
        res.writeHead(200, { 'Content-Length': gguf.length, 'Content-Type': 'application/octet-stream' });
        let at = 0;
        const timer = setInterval(() => {
          if (res.destroyed || at >= gguf.length) { clearInterval(timer); res.end(); return; }
          res.write(gguf.subarray(at, at += 1_000_000));
        }, 200);
        req.on('close', () => clearInterval(timer));
      },
    },
  });
  const notGguf = join(tmpdir(), 'notes.gguf');
  const truncated = join(tmpdir(), 'truncated.gguf');
  const huge = await fakeGguf('huge.gguf', 1_500_000_000);
  await writeFile(notGguf, 'These are my notes, not a model.');
  await writeFile(truncated, gguf.subarray(0, gguf.length - 1000));
  try {
    const { page, context, consoleLines } = await openApp(browser, site.url);
    await pickInPage(page);
    assert.match(await loadFile(page, notGguf), /"notes\.gguf" is not a GGUF model file/);
    assert.match(await loadFile(page, truncated), /"truncated\.gguf" is truncated: 1,000 bytes of the 98 MB its header describes are missing/);
    assert.match(await loadUrl(page, `${site.url}missing.gguf`), /The download of .*missing\.gguf failed: the server answered 404/);
    assert.match(await loadUrl(page, `${site.url}cut.gguf`), /The download was cut after 1\.0 MB of 98 MB.*Nothing was kept/);
    assert.equal(cutAt, 1_000_000);

    // A slow download shows bytes, speed and time left, and Cancel stops it.
    await page.fill('#inpage-url', `${site.url}slow.gguf`);
    await page.click('#inpage-load');
    await page.waitForFunction(() => /Downloading \d+(\.\d)? MB of 98 MB · [\d.]+ MB\/s · \d+ s left/.test(document.querySelector('#inpage-status span').textContent));
    const done = await page.getAttribute('#inpage-progress', 'value');
    assert.ok(await page.isVisible('#inpage-progress') && done > 0 && done < 1, `progress bar at ${done}`);
    await page.click('#inpage-cancel');
    assert.match((await settled(page))[1], /Cancelled: nothing was downloaded or stored/);
    assert.equal(await page.isVisible('#inpage-progress'), false);

    // A longest answer that is not a number of tokens from 16 to 4,096 is refused, and kept as it was.
    for (const bad of ['5', '100000', '', '-20']) {
      await page.fill('#inpage-max', bad);
      await page.dispatchEvent('#inpage-max', 'change');
      assert.match(await error(page), /The longest answer is a number of tokens from 16 to 4,096; it stays at 400\./);
      assert.equal(await page.inputValue('#inpage-max'), '400');
    }
    await page.fill('#inpage-max', '200');
    await page.dispatchEvent('#inpage-max', 'change');
    assert.equal(await error(page), '');

    // Nothing of these was kept, and the app goes on working.
    assert.deepEqual(await keptModels(page), []);
    await page.getByRole('link', { name: 'New debate' }).click();
    await page.waitForSelector('#start:not([disabled])');
    assert.equal(consoleLines.filter(l => l.startsWith('pageerror')).length, 0, consoleLines.join('\n'));
    await context.close();

    // A device that reports 0.25 GB of memory: a 1.5 GB model is refused before loading,
    // and the 98 MB one loads with a warning.
    const small = await browser.newContext();
    await small.addInitScript(() => Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => 0.25 }));
    const p2 = await small.newPage();
    await p2.goto(site.url);
    await p2.waitForSelector('#start:not([disabled])');
    await pickInPage(p2);
    assert.match(await loadFile(p2, huge), /needs about 1\.8 GB of memory, more than this device has \(it reports 0\.25 GB\)/);
    await p2.selectOption('#inpage-source', 'served');
    await p2.click('#inpage-load');
    const [line, warning] = await settled(p2);
    assert.match(line, /SmolLM2-135M-Instruct\.Q4_1\.gguf · 98 MB · context 4,096 tokens/);
    assert.match(warning, /more than half of what this device reports \(0\.25 GB\)/);
    await small.close();
  } finally {
    site.close();
    for (const f of [notGguf, truncated, huge]) await rm(f, { force: true });
  }
});
