// The app is split: the setup screen comes first, every other screen, each format's drawing
// and the formats' runs come in chunks of wasm fetched after it (README, "How the app is
// split"). A chunk that cannot be fetched (offline, a deploy that replaced the files) says
// so with a Reload button; the rest of the app keeps working, and nothing is lost.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, serveDist, startStandin, launch, openApp, addConnection, axeAudit } from './harness.mjs';

const DIST = process.env.AGORA_DIST || join(ROOT, 'dist');
const folder = readdirSync(DIST).find(f => /^wasm-[0-9a-f]+$/.test(f));
/** Chunk files answered 404 while listed here, as after a deploy that replaced them. */
const gone = new Set();
/** Chunk files whose answer waits for the promise listed here (a connection that stalls). */
const held = new Map();
const chunkRoute = name => async (req, res) => {
  if (gone.has(name)) return res.writeHead(404).end();
  await held.get(name);
  res.writeHead(200, { 'Content-Type': 'application/wasm' }).end(readFileSync(join(DIST, folder, name)));
};
const w = {};
before(async () => {
  w.site = await serveDist({
    routes: {
      ...Object.fromEntries(['split_history.wasm', 'split_formats.wasm', 'split_debate.wasm', 'split_duelogic_views.wasm'].map(n => [`${folder}/${n}`, chunkRoute(n)])),
      'api-host.html': (req, res) => res.writeHead(200, { 'Content-Type': 'text/html' })
        .end('<!doctype html><html lang="en"><title>A page using Agora</title><p>Host page</p></html>'),
      'widget-host.html': (req, res) => res.writeHead(200, { 'Content-Type': 'text/html' })
        .end('<!doctype html><html lang="en"><title>A host page</title><script type="module" src="./agora.js"></script><agora-debate id="d" src="examples/duelogic.json"></agora-debate></html>'),
    },
  });
  w.standin = await startStandin('e2e-classic.json');
  w.browser = await launch();
});
after(async () => { await w.browser?.close(); w.standin?.close(); w.site?.close(); });

test('the first screen comes with the first module, and every chunk follows in the background', async () => {
  const { page } = await openApp(w.browser, w.site.url);
  const fetched = await page.evaluate(() => performance.getEntriesByType('resource').map(e => e.name));
  const chunks = readdirSync(join(DIST, folder)).filter(f => f.startsWith('split_') && f.endsWith('.wasm'));
  assert.ok(chunks.includes('split_debate.wasm') && chunks.includes('split_formats.wasm'), `chunks: ${chunks}`);
  // Once usable, every chunk is fetched in the background; History then opens at once.
  await page.waitForFunction(n => performance.getEntriesByType('resource').filter(e => /split_\w+\.wasm$/.test(e.name)).length >= n, chunks.length);
  assert.ok(fetched.some(u => u.endsWith('/agora_bg.wasm')), 'the first module');
  await page.getByRole('link', { name: 'History' }).click();
  await page.waitForSelector('#history-search', { timeout: 10_000 });
  assert.equal(await page.locator('.chunk-failed').count(), 0);
});

test('a screen whose chunk cannot be fetched says so with Reload, and the rest of the app still works', async () => {
  gone.add('split_history.wasm');
  try {
    const context = await w.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${w.site.url}?view=history`);
    const alert = page.locator('.chunk-failed[role="alert"]');
    await alert.waitFor({ timeout: 15_000 });
    assert.match(await alert.textContent(), /This part of Agora could not be loaded\..*offline.*newer version.*reload the page/s);
    await page.screenshot({ path: 'artifacts/chunk-missing-390.png' });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: 'artifacts/chunk-missing-1440.png' });
    assert.deepEqual(await axeAudit(page, 'a missing chunk'), []);
    // The app around it still answers.
    await page.getByRole('link', { name: 'New debate' }).click();
    await page.waitForSelector('#topic');
    await page.getByRole('link', { name: 'History' }).click();
    await alert.waitFor();
    // The files are back: Reload brings the screen.
    gone.delete('split_history.wasm');
    await Promise.all([page.waitForEvent('load'), alert.getByRole('button', { name: 'Reload' }).click()]);
    await page.waitForSelector('#history-search');
    assert.equal(await page.locator('.chunk-failed').count(), 0);
    assert.match(await page.title(), /History/);
    await context.close();
  } finally {
    gone.delete('split_history.wasm');
  }
});

test('a debate started while the formats\' chunk cannot be fetched stops with a message, and Resume runs it after a reload', async () => {
  gone.add('split_formats.wasm');
  try {
    const { page } = await openApp(w.browser, w.site.url);
    await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
    await page.fill('#topic', 'Should cities ban private cars from their centres?');
    await page.fill('#rounds', '1');
    await page.click('#start');
    const note = page.locator('.note.error').first();
    await note.waitFor({ timeout: 30_000 });
    assert.match(await note.textContent(), /could not load the part of the app that runs debates.*reload the page, then resume the debate/);
    gone.delete('split_formats.wasm');
    await Promise.all([page.waitForEvent('load'), note.getByRole('button', { name: 'Reload' }).click()]);
    await page.click('#resume');
    await page.waitForSelector('.badge.done', { timeout: 60_000 });
  } finally {
    gone.delete('split_formats.wasm');
  }
});

test('runDebate, when the formats\' chunk cannot be fetched, rejects with what the page\'s code can do, and runs after a reload', async () => {
  const context = await w.browser.newContext();
  const page = await context.newPage();
  const run = () => page.evaluate(async () => {
    const agora = await import('./agora.js');
    try {
      const debate = await agora.runDebate({ format: 'classic', topic: 'Should cities ban cars?', connections: [{ kind: 'scripted', script: {} }], options: { rounds: 1 } });
      return { outcome: 'resolved', events: debate.events.length };
    } catch (e) {
      return { name: e.name, message: e.message, events: e.debate?.events.length ?? 0 };
    }
  });
  gone.add('split_formats.wasm');
  try {
    await page.goto(`${w.site.url}api-host.html`);
    const failed = await run();
    assert.equal(failed.name, 'AgoraError');
    assert.match(failed.message, /could not load the part of the app that runs debates.*Reload the page, then call runDebate again\./);
    assert.doesNotMatch(failed.message, /resume/i, 'code has no debate to resume');
    assert.ok(failed.events > 0, 'the rejection carries the debate as far as it went');
  } finally {
    gone.delete('split_formats.wasm');
  }
  await page.reload();
  const ran = await run();
  assert.equal(ran.outcome, 'resolved', JSON.stringify(ran));
  await context.close();
});

test('a screen whose chunk stalls says so after a while, with Reload, and appears when the chunk arrives', async () => {
  let arrive;
  held.set('split_history.wasm', new Promise(r => { arrive = r; }));
  try {
    const context = await w.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${w.site.url}?view=history`);
    await page.locator('.chunk-wait[aria-busy="true"]').waitFor();
    const slow = page.locator('.chunk-slow[role="status"]');
    await slow.waitFor({ timeout: 15_000 });
    assert.match(await slow.textContent(), /Still loading this part of Agora….*slow or has stopped answering.*keeps waiting/s);
    assert.ok(await slow.getByRole('button', { name: 'Reload' }).isVisible());
    await page.screenshot({ path: 'artifacts/chunk-slow-390.png' });
    assert.deepEqual(await axeAudit(page, 'a stalled chunk'), []);
    // It kept waiting: the screen comes as soon as the file does.
    arrive();
    await page.waitForSelector('#history-search', { timeout: 15_000 });
    assert.equal(await page.locator('.chunk-slow, .chunk-failed').count(), 0);
    await context.close();
  } finally {
    arrive();
    held.delete('split_history.wasm');
  }
});

/** The widget's host page with `file` missing: the message the widget shows in place of
 * what the file holds, and that the host page heard it too. */
async function widgetWithout(file, check) {
  gone.add(file);
  try {
    const context = await w.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      window.heard = new Promise(ok => document.addEventListener('agora-error', e => ok(e.detail.message)));
    });
    await page.goto(`${w.site.url}widget-host.html`);
    const alert = page.locator('#d .chunk-failed[role="alert"]');
    await alert.waitFor({ timeout: 15_000 });
    assert.match(await alert.textContent(), /This part of Agora could not be loaded\..*offline.*newer version/s);
    assert.ok(await alert.getByRole('button', { name: 'Reload' }).isVisible());
    await check?.(page);
    assert.match(await page.evaluate(() => window.heard), /^This part of Agora could not be loaded\. You may be offline/);
    await context.close();
  } finally {
    gone.delete(file);
  }
}

test('a widget whose debate screen cannot be fetched says so inside it, and the host page hears it', async () => {
  await widgetWithout('split_debate.wasm');
});

test('a recorded debate in the widget fetches its own format\'s drawing beside the module, and no other format\'s', async () => {
  const context = await w.browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${w.site.url}widget-host.html`);
  // Drawn with its format's own decorations: the Arbiter's scorecards under the chairs' turns.
  await page.locator('#d .scorecard').first().waitFor({ timeout: 30_000 });
  const fetched = await page.evaluate(() => performance.getEntriesByType('resource')
    .filter(e => /_views\.wasm$/.test(e.name)).map(e => ({ file: e.name.split('/').pop(), by: e.initiatorType })));
  // Preloaded by agora.js from the debate's file, not asked for by the module once it ran.
  assert.deepEqual(fetched, [{ file: 'split_duelogic_views.wasm', by: 'link' }]);
  await context.close();
});

test('a debate whose format\'s drawing cannot be fetched shows its head, says so with Reload, and the host page hears it', async () => {
  await widgetWithout('split_duelogic_views.wasm', async page => {
    assert.match(await page.locator('#d h1.topic').textContent(), /Should social media platforms be required by law/);
    // No turn is drawn without its format's decorations.
    assert.equal(await page.locator('#d .turn').count(), 0);
    await page.screenshot({ path: 'artifacts/views-missing-390.png' });
  });
});
