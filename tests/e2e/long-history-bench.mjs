// Benchmark: opening a debate of 200 turns (about 2,000 characters of Markdown each, with
// the request behind every turn) from History. A `PerformanceObserver` for `longtask`
// entries (main-thread tasks over 50 ms) records from the click until a second after the
// last turn is on screen. Prints, per run, the time until all turns are on screen and the
// long tasks. A figure, not a test. Run (from the repository root, after a release build
// and `cargo build --bin agora-standin`): node tests/e2e/long-history-bench.mjs [runs]
import { serveDist, startStandin, launch } from './harness.mjs';
import { TURNS, historyWithLongDebate, openLongDebate } from './long-debate.mjs';

const RUNS = Number(process.argv[2] ?? 4);
const w = { site: await serveDist(), standin: await startStandin('e2e-classic.json'), browser: await launch() };
try {
  for (let run = 1; run <= RUNS; run++) {
    const { page, context, bytes } = await historyWithLongDebate(w);
    await page.evaluate(() => {
      window.__long = [];
      new PerformanceObserver(list => window.__long.push(...list.getEntries().map(e => ({ start: e.startTime, ms: e.duration }))))
        .observe({ type: 'longtask' });
    });
    const clicked = await page.evaluate(() => performance.now());
    await openLongDebate(page);
    const shown = await page.evaluate(() => performance.now());
    await page.waitForTimeout(1_000); // work left for after the last turn shows counts too
    const long = (await page.evaluate(() => window.__long)).filter(t => t.start >= clicked);
    console.log(`run ${run}: ${TURNS} turns (${(bytes / 1024).toFixed(0)} KB of events) on screen ${(shown - clicked).toFixed(0)} ms after the click; ` +
      `long tasks: ${long.length ? long.map(t => `${t.ms.toFixed(0)} ms`).join(', ') : 'none'}`);
    await context.close();
  }
} finally {
  await w.browser.close(); w.standin.close(); w.site.close();
}
