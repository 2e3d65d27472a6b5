// Benchmark: a tournament at scale, in headless Chromium on the release build. Eight
// contestants, both sides of every pairing, a panel of three model judges, all on one
// scripted connection with no delay (the page's own scripted provider: no network), with
// the tournament's page open so its leaderboard and table update on every event. Run on 1
// motion (56 debates, 168 verdicts) and on 10 motions (560 debates, 1,680 verdicts):
// - wall time from Start to Finished;
// - bytes written per tournament event: its log record and the summary row written with it
//   (read back from IndexedDB), against the number of events;
// - the largest main-thread task while it ran (goal: none over 50 ms) and how many passed
//   50 ms;
// - IndexedDB's size for the whole run (navigator.storage.estimate);
// - the time to open the finished tournament from the list, until its leaderboard is drawn
//   (goal: under 500 ms), and after a reload, app start included.
// A figure, not a test. Run (from the repository root, after a release build):
//   node tests/e2e/tournament-bench.mjs [motions…]   (default: 1 10)
import { serveDist, launch, openApp } from './harness.mjs';

const CONTESTANTS = 8;
const JUDGES = 3;
const runs = (process.argv.slice(2).length ? process.argv.slice(2) : ['1', '10']).map(Number);

const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function addScripted(page) {
  await page.getByRole('button', { name: /Add a connection/ }).click();
  await page.selectOption('#conn-provider', { label: 'Scripted test answers (no key, no network)' });
  await page.fill('#conn-name', 'Bench');
  await page.fill('#conn-script', JSON.stringify({ default: { chunk_delay_ms: 0 } }));
  await page.fill('#conn-concurrency', '8');
  await page.click('#conn-save');
}

async function fill(page, motions) {
  await page.getByRole('link', { name: 'Tournaments' }).click();
  await page.waitForSelector('#start-tournament');
  await page.fill('#tournament-name', `Scale ${motions}`);
  const row = async (what, n, model) => {
    await page.getByLabel(`${what} ${n} connection`).selectOption({ label: 'Bench' });
    await page.getByLabel(`${what} ${n} model`).fill(model);
  };
  for (let i = 0; i < CONTESTANTS; i++) {
    if (i >= 2) await page.click('#add-contestant');
    await row('Contestant', i + 1, `model-${i + 1}`);
  }
  for (let i = 0; i < JUDGES; i++) {
    if (i >= 1) await page.click('#add-judge');
    await row('Judge', i + 1, `judge-${i + 1}`);
  }
  await page.getByLabel('Host connection').selectOption({ label: 'Bench' });
  await page.getByLabel('Host model').fill('host');
  await page.fill('#motions', Array.from({ length: motions }, (_, i) => `Motion number ${i + 1}: cities should do thing ${i + 1}`).join('\n'));
}

/** Every record of the tournament's log and its summary row, as stored. */
async function stored(page, id) {
  return page.evaluate(async id => {
    const db = await new Promise((ok, fail) => { const r = indexedDB.open('agora'); r.onsuccess = () => ok(r.result); r.onerror = fail; });
    const all = (store, range) => new Promise(ok => { const r = db.transaction(store).objectStore(store).getAll(range); r.onsuccess = () => ok(r.result); });
    const events = await all('tournament_events', IDBKeyRange.bound([id, 0], [id, 4294967295]));
    const summary = await all('tournaments', id);
    db.close();
    const sizes = events.map(r => r.json.length);
    return { events: sizes.length, mean: sizes.reduce((a, b) => a + b, 0) / sizes.length, max: Math.max(...sizes), summary: summary[0].json.length };
  }, id);
}

async function run(browser, site, motions) {
  const { page, context, consoleLines } = await openApp(browser, site.url, { width: 1280, height: 900 });
  page.on('pageerror', async e => console.log(`page error: ${e.message}: ${await page.locator('#panic').textContent().catch(() => '')}`));
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver(l => { for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]); }).observe({ type: 'longtask' });
  });
  await addScripted(page);
  await fill(page, motions);
  await page.waitForFunction(() => !/working out/.test(document.querySelector('#tournament-plan').textContent));
  const plan = await page.locator('#tournament-plan').textContent();
  const t0 = Date.now();
  // Tasks while it runs, from Start on: the form's own (its estimate of hundreds of
  // debates as the motions are typed) are counted apart.
  await page.evaluate(() => { window.__started = performance.now(); });
  await page.click('#start-tournament');
  await page.waitForSelector('#tournament-state');
  const id = new URL(page.url()).searchParams.get('tournament');
  await page.waitForFunction(() => document.querySelector('#tournament-state')?.textContent === 'Finished', null, { timeout: 3 * 3600_000, polling: 1000 });
  const wall = (Date.now() - t0) / 1000;
  const [long, setupLong] = await page.evaluate(() => [
    window.__long.filter(([at]) => at >= window.__started).map(([, ms]) => ms),
    window.__long.filter(([at]) => at < window.__started).map(([, ms]) => ms),
  ]);
  const bytes = await stored(page, id);
  const usage = await page.evaluate(async () => (await navigator.storage.estimate()).usage);
  if (await page.locator('#panic').count()) throw new Error(`the page panicked: ${await page.locator('#panic').textContent()}\n${consoleLines.slice(-20).join('\n')}`);
  // Opening it: from the list, until the leaderboard's rows are drawn.
  const opens = [];
  for (let i = 0; i < 3; i++) {
    await page.getByRole('link', { name: 'Tournaments' }).click();
    await page.waitForSelector(`#tournament-list [data-id="${id}"] a`);
    const ms = await page.evaluate(async id => {
      const t = performance.now();
      document.querySelector(`#tournament-list [data-id="${id}"] a`).click();
      while (!document.querySelector('#leaderboard tbody tr')) await new Promise(r => requestAnimationFrame(r));
      return performance.now() - t;
    }, id);
    opens.push(ms);
  }
  const reloads = [];
  for (let i = 0; i < 3; i++) {
    await page.reload();
    await page.waitForSelector('#leaderboard tbody tr', { timeout: 60_000 });
    reloads.push(await page.evaluate(() => performance.now()));
  }
  await context.close();
  return { motions, plan, wall, long, setupLong, bytes, usage, opens, reloads };
}

const site = await serveDist();
const browser = await launch();
try {
  for (const motions of runs) {
    const r = await run(browser, site, motions);
    const debates = motions * CONTESTANTS * (CONTESTANTS - 1);
    const over = r.long.filter(d => d > 50);
    console.log(`${debates} debates, ${debates * JUDGES} verdicts (${r.plan})`);
    console.log(`  wall time ${r.wall.toFixed(1)} s`);
    console.log(`  tournament log: ${r.bytes.events} events, ${r.bytes.mean.toFixed(0)} bytes per record on average (largest ${r.bytes.max}), plus a ${r.bytes.summary}-byte summary row with each`);
    console.log(`  while it ran: longest main-thread task ${r.long.length ? Math.max(...r.long).toFixed(0) : 0} ms; ${over.length} over 50 ms (the set-up form before it: longest ${r.setupLong.length ? Math.max(...r.setupLong).toFixed(0) : 0} ms)`);
    console.log(`  IndexedDB holds ${(r.usage / 1e6).toFixed(1)} MB`);
    console.log(`  open from the list to the drawn leaderboard: median ${median(r.opens).toFixed(0)} ms (${r.opens.map(x => x.toFixed(0)).join(', ')}); after a reload, app start included: median ${median(r.reloads).toFixed(0)} ms`);
  }
} finally {
  await browser.close();
  site.close();
}
