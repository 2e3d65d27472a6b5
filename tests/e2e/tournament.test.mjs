// Tournaments against the scripted stand-in (tests/scripts/e2e-tournament.json, where every
// judge always answers "A"): three contestants on two motions with a panel of two judges,
// stopped and run on, its leaderboard, position bias and agreement read on screen, one of
// its debates opened, its CSV downloaded and the page read again after a reload; and a
// person on the panel judging blind, "could not be judged" included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { world, openApp, addConnection, ROOT, fullScreenshot, axeAudit, settledLeaderboard } from './harness.mjs';

const w = world('e2e-tournament.json');
const SHOTS = join(ROOT, 'tests/e2e/artifacts');

/** Fills one entrant row: its connection by label and its model. */
async function entrant(page, what, n, model) {
  await page.getByLabel(`${what} ${n} connection`).selectOption({ label: 'Stand-in' });
  await page.getByLabel(`${what} ${n} model`).fill(model);
}

/** Adds the stand-in and fills the tournament form: `models` argue `motions`, judged by
 * `judges` (a model name, or 'me'). */
async function setUp(page, { models, motions, judges, cap }) {
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'host', callHeader: true, concurrency: 4 });
  await page.getByRole('link', { name: 'Tournaments' }).click();
  await page.waitForSelector('#start-tournament');
  await page.fill('#tournament-name', 'Stand-in cup');
  for (let i = 0; i < models.length; i++) {
    if (i >= 2) await page.click('#add-contestant');
    await entrant(page, 'Contestant', i + 1, models[i]);
  }
  await page.fill('#motions', motions.join('\n'));
  for (let i = 0; i < judges.length; i++) {
    if (i >= 1) await page.click('#add-judge');
    if (judges[i] === 'me') await page.getByLabel(`Judge ${i + 1} connection`).selectOption({ label: 'Me (I judge blind)' });
    else await entrant(page, 'Judge', i + 1, judges[i]);
  }
  await page.getByLabel('Host connection').selectOption({ label: 'Stand-in' });
  await page.getByLabel('Host model').fill('host');
  if (cap) {
    await page.click('details.costs summary');
    await page.fill('#tournament-cap', cap);
  }
}

/** The plan line once the cost is worked out (a slice of debates per browser task). */
async function planLine(page) {
  await page.waitForFunction(() => !/working out/.test(document.querySelector('#tournament-plan')?.textContent ?? 'working out'));
  return page.locator('#tournament-plan').textContent();
}

const cells = (page, sel) => page.locator(sel).evaluateAll(rows =>
  rows.map(r => [...r.querySelectorAll('th, td')].map(c => c.textContent.trim())));

test('a tournament runs, stops, runs on, ranks the models and exports every debate', async () => {
  const { page, consoleLines } = await openApp(w.browser, w.site.url, { width: 1280, height: 900 });
  await setUp(page, { models: ['alpha', 'beta', 'gamma'], motions: ['Cities should ban cars', 'Nuclear power is essential'], judges: ['judge-x', 'judge-y'] });
  await mkdir(SHOTS, { recursive: true });
  await fullScreenshot(page, join(SHOTS, 'tournament-setup-1280.png'));
  await page.setViewportSize({ width: 390, height: 844 });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'the set-up fits a phone');
  await fullScreenshot(page, join(SHOTS, 'tournament-setup-390.png'));
  const setupProblems = await axeAudit(page, 'tournament set-up');
  assert.deepEqual(setupProblems, [], setupProblems.join('\n'));
  await page.setViewportSize({ width: 1280, height: 900 });
  // Before anything runs: what it will do, and what it costs (a local server is free).
  assert.match(await planLine(page),
    /^12 debates and 24 verdicts: \d+ model calls\. Estimated cost \$0\.00, worst case \$0\.00\.$/);
  await page.click('#start-tournament');
  await page.waitForSelector('section.tournament h1');
  assert.equal(await page.locator('section.tournament h1').textContent(), 'Stand-in cup');
  assert.match(page.url(), /\?tournament=/);

  // Stopped on the way, then run on: nothing is done twice.
  await page.waitForFunction(() => /[1-9]\d* of 12 debates/.test(document.querySelector('#tournament-line')?.textContent ?? ''), null, { timeout: 60_000 });
  await page.click('#tournament-stop');
  await page.waitForFunction(() => document.querySelector('#tournament-state')?.textContent === 'Stopped', null, { timeout: 30_000 });
  assert.match(await page.locator('#tournament-line').textContent(), /Stopped by you\./);
  await page.click('#tournament-run');
  await page.waitForFunction(() => document.querySelector('#tournament-state')?.textContent === 'Finished', null, { timeout: 120_000 });
  assert.match(await page.locator('#tournament-line').textContent(), /12 of 12 debates, 24 of 24 verdicts/);

  // The leaderboard, once it counts every debate and verdict (it is counted again a moment
  // after the last event, its intervals worked out in slices): three models, each argued 8
  // debates; wins and losses add up.
  const board = await settledLeaderboard(page, 12, 24);
  assert.equal(board.length, 3, JSON.stringify(board));
  let wins = 0, losses = 0;
  for (const [rank, model, points, wlt, interval] of board) {
    assert.match(model, /^(alpha|beta|gamma)$/);
    const [lo, hi] = interval.split('–').map(Number);
    assert.ok(lo <= Number(points) && Number(points) <= hi, `${points} in ${interval}`);
    const [wi, l, t] = wlt.split('–').map(Number);
    assert.equal(wi + l + t, 8, `${model}: ${wlt}`);
    wins += wi; losses += l;
    assert.ok(Number(rank) >= 1);
  }
  assert.equal(wins, losses);
  // Judges that always answer "A" chose the side they read first every time.
  // Counted like the leaderboard, a moment after the last verdict: waited for, not read once.
  const sideOrder = /got 24 of 24 \(100%\) of the votes for a side/;
  await page.waitForFunction(re => new RegExp(re).test(document.querySelector('#side-order')?.textContent ?? ''), sideOrder.source, { timeout: 10_000 })
    .catch(() => {});
  assert.match(await page.locator('#side-order').textContent(), sideOrder);
  const bias = await cells(page, '#position-bias tbody tr');
  assert.deepEqual(bias.map(r => r[2]), ['12 of 12 (100%)', '12 of 12 (100%)']);
  // Agreement: the pair judged all 12 debates; Fleiss' kappa is shown.
  const agree = await cells(page, '#agreement tbody tr');
  assert.equal(agree.length, 1);
  assert.equal(agree[0][0], 'judge-x and judge-y');
  assert.equal(agree[0][1], '12');
  assert.match(await page.locator('#fleiss').textContent(), /Fleiss' kappa for the panel: (−?\d\.\d\d|—)\./);
  const spending = await cells(page, '#spending tbody tr');
  assert.equal(spending.length, 3 + 1 + 2, 'each contestant, the host and each judge');

  // Every debate is listed and opens as an ordinary debate.
  const debates = await cells(page, '#tournament-debates tbody tr');
  assert.equal(debates.length, 12);
  assert.ok(debates.every(r => r[4] === 'Finished'), JSON.stringify(debates));
  await fullScreenshot(page, join(SHOTS, 'tournament-1280.png'));
  const found = await axeAudit(page, 'tournament page');
  assert.deepEqual(found, [], found.join('\n'));

  // The CSV: the leaderboard, then one line per debate with its own id.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-csv')]);
  assert.equal(download.suggestedFilename(), 'stand-in-cup.csv');
  const csv = await readFile(await download.path(), 'utf8');
  const ids = csv.split('\n').filter(l => /^m\d-\dv\d,/.test(l)).map(l => l.split(',')[1]);
  assert.equal(ids.length, 12);
  assert.equal(new Set(ids).size, 12, 'every debate has its own id');

  const first = page.locator('#tournament-debates tbody tr').first();
  const motion = (await first.locator('td').nth(1).textContent()).trim();
  await first.getByRole('link', { name: 'Open' }).click();
  await page.waitForSelector('section.debate h1.topic');
  assert.equal((await page.locator('section.debate h1.topic').textContent()).trim(), motion);
  await page.waitForSelector('.badge.done');

  // Back to the tournament, and after a reload: the same standing, read from its log.
  await page.goBack();
  await page.waitForSelector('#leaderboard');
  await page.reload();
  await page.waitForFunction(() => document.querySelector('#tournament-state')?.textContent === 'Finished');
  assert.deepEqual((await settledLeaderboard(page, 12, 24)).map(r => r.slice(1, 5)), board.map(r => r.slice(1, 5)));
  // Listed with how far it got.
  await page.getByRole('link', { name: 'Tournaments' }).click();
  await page.waitForSelector('#tournament-list');
  assert.match(await page.locator('#tournament-list').textContent(), /Stand-in cup.*Finished.*12 of 12 debates, 24 of 24 verdicts/);

  // A phone: the page fits its width.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goBack();
  await page.waitForSelector('#leaderboard');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no sideways scroll at 390 px');
  await fullScreenshot(page, join(SHOTS, 'tournament-390.png'));
  // (The page's no-key probes at load may log a refused connection or a 404.)
  assert.ok(!consoleLines.some(l => l.startsWith('error') && !/Failed to load resource/.test(l)), consoleLines.join('\n'));
});

test('a person judges blind: no side is named until their verdicts are in', async () => {
  const { page } = await openApp(w.browser, w.site.url, { width: 1280, height: 900 });
  await setUp(page, { models: ['alpha', 'beta'], motions: ['Cities should ban cars'], judges: ['judge-x', 'me'] });
  assert.match(await planLine(page), /^2 debates and 4 verdicts: \d+ model calls/);
  await page.click('#start-tournament');
  await page.waitForFunction(() => /Your verdicts: 2 debates waiting/.test(document.querySelector('#your-verdicts-title')?.textContent ?? ''), null, { timeout: 60_000 });
  await page.waitForFunction(() => /Waiting for your verdicts/.test(document.querySelector('#tournament-line')?.textContent ?? ''));
  // Blind: no result, no side, no model name anywhere on the page but the panel's.
  assert.ok(await page.locator('#blind-note').isVisible());
  assert.ok(await page.locator('#results-hidden').isVisible());
  assert.equal(await page.locator('#leaderboard').count(), 0);
  assert.equal(await page.locator('#tournament-downloads').count(), 0);
  const debates = await cells(page, '#tournament-debates tbody tr');
  assert.ok(debates.every(r => r[2] === 'hidden' && r[3] === 'hidden'), JSON.stringify(debates));
  assert.equal(await page.locator('#tournament-debates a').count(), 0, 'no debate opens (it names its models) while judging');
  assert.equal(await page.locator('#tournament-state').textContent(), 'Waiting');
  const cards = page.locator('.verdict-card');
  await page.waitForSelector('.verdict-card .blind-side');
  const card = await cards.first().textContent();
  assert.ok(!/alpha|beta/i.test(card), card);
  assert.match(card, /\[a model\]/, 'a model named in a turn is masked');
  // Each turn under its own label, with its round.
  const labels = await cards.first().locator('.blind-side').first().locator('h5').allTextContents();
  assert.ok(labels.includes('Opening statement') && labels.includes('Round 1 · Argument'), labels.join(' | '));

  await fullScreenshot(page, join(SHOTS, 'tournament-judging-1280.png'));
  await page.setViewportSize({ width: 390, height: 844 });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'the cards fit a phone');
  await fullScreenshot(page, join(SHOTS, 'tournament-judging-390.png'));
  await page.setViewportSize({ width: 1280, height: 900 });
  const judging = await axeAudit(page, 'a person judging');
  assert.deepEqual(judging, [], judging.join('\n'));

  // A card keeps what was typed while the page is redrawn.
  await cards.nth(1).getByLabel('This debate could not be judged').check();
  await cards.nth(1).getByLabel('Why (optional)').fill('Both sides said the same thing.');
  await cards.first().getByRole('button', { name: 'Give verdict' }).click();
  assert.match(await cards.first().locator('[role=alert]').textContent(), /Choose A, B/);
  await cards.first().getByLabel('A', { exact: true }).check();
  await cards.first().getByLabel('Why (optional)').fill('Clearer.');
  await cards.first().getByRole('button', { name: 'Give verdict' }).click();
  await page.waitForFunction(() => /1 debate waiting/.test(document.querySelector('#your-verdicts-title')?.textContent ?? ''));
  const left = page.locator('.verdict-card');
  assert.equal(await left.count(), 1);
  assert.ok(await left.getByLabel('This debate could not be judged').isChecked());
  assert.equal(await left.getByLabel('Why (optional)').inputValue(), 'Both sides said the same thing.');
  await left.getByRole('button', { name: 'Give verdict' }).click();

  // Verdicts in: the results, the sides and the downloads are shown.
  await page.waitForFunction(() => document.querySelector('#tournament-state')?.textContent === 'Finished', null, { timeout: 30_000 });
  await page.waitForSelector('#left-out');
  assert.match(await page.locator('#left-out').textContent(), /1 where a person could not judge the debate/);
  const bias = await cells(page, '#position-bias tbody tr');
  assert.equal(bias[1][0], 'A person');
  assert.match(bias[1][4], /1 could not be judged/);
  const shown = await cells(page, '#tournament-debates tbody tr');
  assert.ok(shown.every(r => /^(alpha|beta)$/.test(r[2])), JSON.stringify(shown));
  assert.equal(await page.locator('#tournament-debates a').count(), 2);
  await fullScreenshot(page, join(SHOTS, 'tournament-person-1280.png'));

  // Which judge agrees with you: the model judge's verdict beside the person's, on the one
  // debate both judged (the other the person could not judge); too few to tell yet.
  await page.getByRole('link', { name: 'Tournaments' }).click();
  const you = page.locator('#judges-and-you');
  await you.waitFor();
  const row = (await cells(page, '#judges-and-you tbody tr'))[0];
  assert.match(row[0], /^judge-x/);
  assert.equal(row[1], '1', 'one shared verdict');
  assert.match(row[2], /^[01] of 1$/);
  assert.match(row[3], /Too few shared verdicts to tell \(it takes 10\)/);
  assert.equal(row[4], '1');
});

test('a duelogic tournament seats the contestants as the two chairs and the host as the Arbiter', async () => {
  const { page } = await openApp(w.browser, w.site.url, { width: 1280, height: 900 });
  await setUp(page, { models: ['alpha', 'beta'], motions: ['Cities should ban cars'], judges: ['judge-x'] });
  await page.getByRole('radio', { name: 'Duelogic' }).check();
  assert.match(await planLine(page), /^2 debates and 2 verdicts: \d+ model calls/);
  await page.click('#start-tournament');
  await page.waitForFunction(() => document.querySelector('#tournament-state')?.textContent === 'Finished', null, { timeout: 120_000 });
  await page.locator('#tournament-debates tbody tr').first().getByRole('link', { name: 'Open' }).click();
  await page.waitForSelector('.badge.done');
  const seats = await page.locator('.seat-list').textContent();
  assert.match(seats, /alpha/);
  assert.match(seats, /beta/);
  assert.match(seats, /host/);
  assert.ok(await page.locator('.turn.seat-arbiter').count() > 0, 'the host speaks as the Arbiter');
});
