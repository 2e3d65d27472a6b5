// Benchmark: five streams at once (a forecast round: the five default roles argue at the
// same time) at 200 tokens/s each, in headless Chromium with the CPU slowed 4× through the
// DevTools protocol, against the stand-in. Two rounds, so ten streams in all. Reports:
// - long tasks (main-thread tasks over 50 ms) while the arguments stream;
// - token-to-screen latency: each streamed token carries the time the stand-in wrote it
//   (`{now_ms}`), and the page notes the frame in which it is first drawn, in the streaming
//   argument or (a stream's last tokens) the read argument that replaces it. p50, p95, max.
// A figure, not a test. Run (from the repository root, after a release build and
// `cargo build --bin agora-standin`): node tests/e2e/streams-bench.mjs
import { serveDist, startStandin, launch, openApp, addConnection } from './harness.mjs';

const TOKENS_PER_S = 200;
// Per argument: 1 s of streaming each. A stamp ("t" and 13 digits) is longer than a token,
// so this is about 3 KB of text, under the output bound of a 500-token answer (4 KB).
const TOKENS = 200;
const CPU_SLOWDOWN = 4;

function script() {
  // The argument's text is streamed one stamp per chunk; the rest of the JSON after it.
  const head = '{"argument": "';
  const tail = (p) => JSON.stringify({
    outcome_supported: p >= 0.5 ? 'yes' : 'no', evidence: ['committee record'], rebuts: ['optimist'],
    references: ['round 1: committee support'], confidence: 0.7,
    probabilities: [{ outcome: 'yes', probability: p }, { outcome: 'no', probability: 1 - p }],
    precedents: [{ event: 'A', date: '1990', outcome: 'passed', similarity: 0.6, relevance: 'same path' },
      { event: 'B', date: '2009', outcome: 'failed', similarity: 0.5, relevance: 'same veto' }],
  }).replace(/^\{/, '", ');
  const probs = { optimist: 0.7, pessimist: 0.3, contrarian: 0.45, historian: 0.55, judge: 0.5 };
  const answers = Object.entries(probs).map(([seat, p]) => ({
    seat, purpose: 'argument', first_delay_ms: 200, chunk_delay_ms: 1000 / TOKENS_PER_S,
    chunks: [head, ...Array.from({ length: TOKENS }, () => 't{now_ms} '), tail(p)],
  }));
  answers.push({ purpose: 'evaluation', text: JSON.stringify({ logical_strength: 0.8, evidence_quality: 0.7, novelty: 0.5, reason: 'Sound.' }) });
  return { answers };
}

/** In the page: long tasks, and the frame in which each stamped token is first drawn. */
function watch() {
  window.__longTasks = [];
  new PerformanceObserver(list => { for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, ms: e.duration }); })
    .observe({ type: 'longtask', buffered: true });
  window.__seen = []; // [written ms, drawn ms]
  let pending = [];
  const frame = () => {
    const drawn = performance.timeOrigin + performance.now();
    for (const w of pending) window.__seen.push([w, drawn]);
    pending = [];
  };
  // Each role's streaming argument is read from where its last read stopped (the text
  // element may be replaced as it grows; the role's card stays).
  const read = new WeakMap();
  const observer = new MutationObserver(records => {
    for (const r of records) {
      const nodes = r.type === 'characterData' ? [r.target] : [...r.addedNodes];
      // The argument as it streams, and then the card's read argument that replaces it:
      // a stream's last tokens may come with the end of the answer and show only there.
      const hosts = [];
      for (const n of nodes) {
        const el = n.nodeType === 3 ? n.parentElement : n;
        const up = el?.closest?.('.fc-text:not(.hint)');
        if (up) hosts.push(up);
        else if (el?.querySelectorAll) hosts.push(...el.querySelectorAll('.fc-text:not(.hint)'));
      }
      for (const host of hosts) {
        const text = host.textContent;
        // A stream is its role's card and its first stamp (a role streams once a round).
        const card = host.closest('.fc-card');
        if (!read.has(card)) read.set(card, new Map());
        const streams = read.get(card);
        const id = text.slice(0, 14);
        const from = streams.get(id) ?? 0;
        // A stamp cut at the end of a streaming text waits for the next read.
        const upTo = host.classList.contains('streaming') ? text.lastIndexOf(' ') + 1 : text.length;
        if (upTo > from) {
          for (const m of text.slice(from, upTo).matchAll(/t(\d{13})/g)) pending.push(Number(m[1]));
          streams.set(id, upTo);
        }
      }
    }
    if (pending.length) requestAnimationFrame(frame);
  });
  const start = () => observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  if (document.body) start(); else addEventListener('DOMContentLoaded', start);
}

const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.round((xs.length - 1) * p))];

const site = await serveDist();
const standin = await startStandin('e2e-forecast.json');
const browser = await launch();
try {
  await standin.setScript(script());
  const { page, context } = await openApp(browser, site.url, { width: 1280, height: 900 });
  await addConnection(page, { name: 'Stand-in', url: `${standin.base}/v1`, model: 'standin', callHeader: true });
  await page.getByRole('radio', { name: 'Forecast' }).check();
  await page.fill('#topic', 'Will the transit bill pass this year?');
  await page.fill('#forecast-rounds', '2');
  await page.evaluate(watch);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  const clicked = await page.evaluate(() => performance.now());
  await page.click('#start');
  await page.waitForSelector('.badge.done, .badge.failed', { timeout: 300_000 });
  const ended = await page.evaluate(() => performance.now());
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  const { longTasks, seen } = await page.evaluate(() => ({ longTasks: window.__longTasks, seen: window.__seen }));
  const lat = seen.map(([w, d]) => d - w).sort((a, b) => a - b);
  const calls = (await standin.log()).filter(c => c.purpose === 'argument').length;
  const over = longTasks.filter(t => t.start >= clicked).map(t => `${Math.round(t.ms)} ms at +${Math.round(t.start - clicked)} ms`);
  const before = longTasks.filter(t => t.start < clicked).map(t => Math.round(t.ms));
  const paths = (await standin.log()).filter(c => c.purpose === 'argument').map(c => c.path);
  console.log(`${calls} arguments streamed, five at a time, ${TOKENS} tokens each at ${TOKENS_PER_S} tokens/s; CPU slowed ${CPU_SLOWDOWN}×.`);
  console.log(`tokens seen on screen: ${lat.length} of ${calls * TOKENS}`);
  console.log(`token to screen: p50 ${pct(lat, 0.5).toFixed(0)} ms, p95 ${pct(lat, 0.95).toFixed(0)} ms, max ${lat.at(-1).toFixed(0)} ms`);
  console.log(`long tasks (over 50 ms) from Start to the end: ${over.length ? over.join(', ') : 'none'} (before Start, while the page loaded: ${before.join(', ') || 'none'})`);
  const first = seen.length ? Math.min(...seen.map(([, d]) => d)) - (await page.evaluate(() => performance.timeOrigin)) - clicked : 0;
  console.log(`(from Start: first token drawn at +${Math.round(first)} ms, the forecast done at +${Math.round(ended - clicked)} ms)`);
  if (calls !== 10) console.log(`arguments asked: ${paths.join(' ')}`);
  await context.close();
} finally {
  await browser.close(); standin.close(); site.close();
}
