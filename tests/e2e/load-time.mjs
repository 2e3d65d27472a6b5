// How long until the setup screen can be used, on a slow connection and a slow phone: the
// release build (dist/) served on 127.0.0.1 (gzipped, as a static host serves it), loaded
// by Debian's Chromium with the cache disabled, 10 Mbit/s down, 40 ms round trip and the
// CPU slowed down 4x through the Chrome DevTools Protocol. "Usable" means the topic field
// is shown and takes typing and the Start button is enabled: the prerendered copy's (README,
// "The prerendered setup screen") or, in a build without it, the app's. Also: how long
// until the app itself runs the setup screen (the wasm started, the session built, what was
// done in the copy handed over). Also: how long until a host page shows a recorded debate
// in the <agora-debate> widget (its first turn drawn inside the shadow root), and what that
// page downloads for it. Both with the files gzipped (as any host compresses them) and in
// brotli (a host serving the build's precompressed .br files). Prints every run and the
// median; a figure, not a test.
//
// With PEER_DIST set to another debate app's production build (BENCHMARKS.md says which and
// how it was obtained), that app is loaded in the same run, its cold loads alternating with
// Agora's, and both medians are printed with their ratio: Agora's setup screen against the
// peer's first screen (usable when its topic textarea is there), and the recorded debate in
// the widget against the same peer figure (the peer has no widget).
//
// Usage (from the repository root, after a release build):
//   node tests/e2e/load-time.mjs            # AGORA_LOAD_RUNS=N for other than 5 runs
//   PEER_DIST=path/to/peer/dist node tests/e2e/load-time.mjs
import { resolve } from 'node:path';
import { serveDist, launch } from './harness.mjs';

const RUNS = Number(process.env.AGORA_LOAD_RUNS || 5);
const MBIT = 1e6 / 8; // bytes per second
const NETWORK = { offline: false, latency: 40, downloadThroughput: 10 * MBIT, uploadThroughput: 10 * MBIT };
const CPU_SLOWDOWN = 4;

/** A host page with one recorded debate in the widget. */
const WIDGET_HOST = '<!doctype html><html lang="en"><title>A host page</title><script type="module" src="./agora.js"></script><agora-debate src="examples/duelogic.json"></agora-debate></html>';

/** In the page: notes when the widget's first turn is drawn (inside its shadow root, which
 * a mutation observer on the document does not see, so it is checked every frame). */
function watchWidget() {
  const check = () => {
    if (document.querySelector('agora-debate')?.shadowRoot?.querySelector('.turn')) window.__agoraUsableAt = performance.now();
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

/** In the page: notes when the peer's first screen is usable (its topic field is there). */
function watchPeer() {
  new MutationObserver((_, observer) => {
    if (document.querySelector('textarea')) {
      window.__agoraUsableAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { subtree: true, childList: true });
}

/** In the page: notes when the setup screen becomes usable (its topic field takes typing
 * and its Start button takes a press: the prerendered copy's, www/shell.js, or the app's
 * own), and when the app itself runs it (the app's own Start button is enabled and shown). */
function watchSetup() {
  const ready = (topic, start) => topic && !topic.disabled && start && !start.disabled && topic.checkVisibility();
  const check = () => {
    if (window.__agoraAppAt) return;
    const now = performance.now();
    window.__agoraUsableAt ??= ready(document.getElementById('shell-topic') ?? document.getElementById('topic'),
      document.getElementById('shell-start') ?? document.getElementById('start')) ? now : undefined;
    if (ready(document.getElementById('topic'), document.getElementById('start'))) {
      window.__agoraUsableAt ??= now;
      window.__agoraAppAt = now;
      observer.disconnect();
    }
  };
  // Every change to the page, and every frame (a stylesheet that arrives shows the copy
  // without changing the page): one loop of frames, which a change never starts again.
  const observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, attributes: true });
  const frame = () => { check(); if (!window.__agoraAppAt) requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
}

/** One cold load in a fresh browser context; times in ms since navigation start. */
async function once(browser, url, watch = watchSetup) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', NETWORK);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    // Notes the moment the screen becomes usable, from inside the page (a mutation observer
    // runs right after the DOM change, so polling from outside adds no error).
    await page.addInitScript(watch);
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__agoraUsableAt && (window.__agoraAppAt || !document.getElementById('agora-shell')), null, { timeout: 120_000 });
    return await page.evaluate(() => {
      const all = performance.getEntriesByType('resource');
      // The first screen's module (the split's chunks are other .wasm files).
      const wasm = all.find(e => e.name.endsWith('agora_bg.wasm')) ?? all.find(e => e.name.endsWith('.wasm'));
      const before = all.filter(e => e.responseEnd <= window.__agoraUsableAt);
      return {
        usable: window.__agoraUsableAt, app: window.__agoraAppAt ?? window.__agoraUsableAt, wasmEnd: wasm?.responseEnd ?? NaN, wasmBytes: wasm?.encodedBodySize ?? NaN,
        // Everything fetched before the screen was usable (the page itself aside: add it).
        bytes: (performance.getEntriesByType('navigation')[0]?.encodedBodySize ?? 0) + before.reduce((n, e) => n + e.encodedBodySize, 0),
        files: before.length,
      };
    });
  } finally {
    await context.close();
  }
}

const median = xs => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const ms = x => `${Math.round(x)} ms`;
const runsOf = (rs, key = 'usable') => `${rs.map(r => Math.round(r[key])).join(', ')} ms`;

/** Every figure with the files sent as `encoding` says; the peer's loads alternate with
 * Agora's, so both meet the same moments of a shared machine. */
async function measure(browser, encoding) {
  const brotli = encoding === 'brotli';
  const site = await serveDist({ gzip: true, brotli, routes: { 'widget-host.html': (req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(WIDGET_HOST) } });
  // The peer's build names its files from the root ("/assets/…").
  const peer = process.env.PEER_DIST
    ? await serveDist({ gzip: true, brotli, brotliMissing: true, dir: resolve(process.env.PEER_DIST), base: '/' }) : null;
  try {
    // Warm-up: the server compresses each file once.
    await once(browser, site.url);
    if (peer) await once(browser, peer.url, watchPeer);
    const runs = [], theirs = [], widget = [];
    for (let i = 0; i < RUNS; i++) {
      runs.push(await once(browser, site.url));
      if (peer) theirs.push(await once(browser, peer.url, watchPeer));
      widget.push(await once(browser, `${site.url}widget-host.html`, watchWidget));
    }
    const usable = median(runs.map(r => r.usable));
    const wasmEnd = median(runs.map(r => r.wasmEnd));
    const how = brotli ? 'in brotli' : 'gzipped';
    console.log(`  load time to a usable setup screen (10 Mbit/s down, 40 ms RTT, CPU 4x slower, cache off, ${encoding})`);
    console.log(`    runs:   ${runsOf(runs)}`);
    console.log(`    median: ${ms(usable)} (${runs[0].bytes} bytes in ${runs[0].files} files fetched by then)`);
    const app = median(runs.map(r => r.app));
    console.log(`  load time to the app running the setup screen (what was done in the prerendered copy handed over)`);
    console.log(`    runs:   ${runsOf(runs, 'app')}`);
    console.log(`    median: ${ms(app)} (first module's wasm, ${runs[0].wasmBytes} bytes ${how}, downloaded by ${ms(wasmEnd)})`);
    const ours = median(widget.map(r => r.usable));
    console.log(`  load time to a recorded debate in the widget on a host page (same conditions)`);
    console.log(`    runs:   ${runsOf(widget)}`);
    console.log(`    median: ${ms(ours)} (${widget[0].bytes} bytes fetched by then: agora.js, the module, its wasm, the debate screen's chunks, the widget's styles and the debate)`);
    if (peer) {
      const other = median(theirs.map(r => r.usable));
      console.log(`  the peer (PEER_DIST), its first screen usable (topic field there), same conditions`);
      console.log(`    runs:   ${runsOf(theirs)}`);
      console.log(`    median: ${ms(other)} (${theirs[0].bytes} bytes in ${theirs[0].files} files fetched by then)`);
      console.log(`    ratio, Agora's setup screen to the peer's (${encoding}): ${(usable / other).toFixed(2)}`);
      console.log(`    ratio, Agora's app running it to the peer's first screen (${encoding}): ${(app / other).toFixed(2)}`);
      console.log(`    ratio, a recorded debate in Agora's widget to the peer's first screen (${encoding}): ${(ours / other).toFixed(2)}`);
    }
  } finally {
    site.close();
    peer?.close();
  }
}

const browser = await launch();
try {
  await measure(browser, 'gzip');
  // A host that serves the build's precompressed .br files (.ci/precompress.mjs).
  await measure(browser, 'brotli');
} finally {
  await browser.close();
}
