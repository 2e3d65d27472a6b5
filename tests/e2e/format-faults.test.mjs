// Provider faults in duelogic, forecast and crux (classic has its own, failures.test.mjs):
// each format runs its scripted debate through a 429 with Retry-After, a 500 twice, a stream
// cut mid-answer and a silent stream, finishes, and shows the same transcript, findings and
// cost after a reload; a 401 on one seat holds it with the message until Resume; and a tab
// closed mid-turn resumes with no call repeated but the one cut off, and none lost.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveDist, startStandin, launch, openApp, addConnection, transcript, storedEvents, ROOT } from './harness.mjs';

/** Each format: its script, how its setup screen is filled in, and where each fault meets
 * it: a seat, a purpose and which of that seat's requests for it (0-based, retries counted,
 * as the stand-in counts them); the attempts after the fault fall through to the script. */
const FORMATS = {
  duelogic: {
    script: 'e2e-duelogic.json',
    setUp: async page => {
      await page.getByRole('radio', { name: 'Duelogic' }).check();
      await page.fill('#duelogic-rounds', '1');
      await page.getByLabel('Chair 2 framework').selectOption('virtue');
    },
    faults: { rate: ['arbiter', 'moderation', 0], server: ['chair-2', 'argument', 0], cut: ['chair-1', 'argument', 0], silent: ['arbiter', 'summary', 0], auth: ['chair-2', 'argument', 0] },
  },
  forecast: {
    script: 'e2e-forecast.json',
    setUp: async page => {
      await page.getByRole('radio', { name: 'Forecast' }).check();
      await page.getByLabel('Outcome 1 label').fill('Passes');
      await page.getByLabel('Outcome 2 label').fill('Fails');
      await page.click('#add-outcome');
      await page.getByLabel('Outcome 3 id').fill('delay');
      await page.getByLabel('Outcome 3 label').fill('Delayed to next session');
    },
    faults: { rate: ['optimist', 'argument', 0], server: ['pessimist', 'argument', 0], cut: ['historian', 'argument', 0], silent: ['judge', 'summary', 0], auth: ['historian', 'argument', 0] },
  },
  crux: {
    script: 'e2e-crux.json',
    setUp: async page => {
      await page.getByRole('radio', { name: 'Crux' }).check();
      await page.fill('#crux-aspects', '1');
      await page.fill('#crux-exchanges', '6');
    },
    // persona-2's second argument call is its third request (the first is cut and retried).
    faults: { rate: ['analyst', 'extraction', 0], server: ['persona-1', 'argument', 0], cut: ['persona-2', 'argument', 0], silent: ['persona-2', 'argument', 2], auth: ['persona-1', 'argument', 0] },
  },
};

let site, browser;
before(async () => { site = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); site?.close(); });

/** Runs `body` with a stand-in playing `script`, stopped afterwards whatever happens. */
async function withStandin(script, body) {
  const standin = await startStandin(script);
  try {
    return await body(standin);
  } finally {
    standin.close();
  }
}

async function scriptOf(name) {
  return JSON.parse(await readFile(join(ROOT, 'tests/scripts', name), 'utf8'));
}

/** The script with `extra` answers matched before its own. */
async function withFaults(name, extra) {
  const s = await scriptOf(name);
  return { ...s, answers: [...extra, ...(s.answers ?? [])] };
}

async function setUpDebate(page, standin, f, topic, key = '') {
  await addConnection(page, { name: 'Stand-in', url: `${standin.base}/v1`, model: 'standin', key, callHeader: true });
  // A short silence limit, so the silent stream is given up on in seconds.
  await page.click('#edit-connection');
  await page.fill('#conn-silence', '5');
  await page.click('#conn-save');
  await f.setUp(page);
  await page.fill('#topic', topic);
}

/** What a reader sees of a debate: every turn, every finding and the cost. */
async function seen(page) {
  return {
    turns: await transcript(page),
    findings: await page.$$eval('.finding, .scorecard, .crux-card, .fc-chart, .fc-verdict, .chair-row', els => els.map(e => e.textContent.replace(/\s+/g, ' ').trim())),
    cost: await page.textContent('#costs'),
  };
}

/** The paths the stand-in was asked, with how many times each. */
async function asked(standin) {
  const counts = {};
  for (const r of await standin.log()) counts[r.path] = (counts[r.path] ?? 0) + 1;
  return counts;
}

/** The path of a seat's `n`th request with a purpose. */
async function pathAt(standin, [seat, purpose, n]) {
  return (await standin.log()).filter(r => r.seat === seat && r.purpose === purpose)[n]?.path;
}

for (const [format, f] of Object.entries(FORMATS)) {
  test(`${format}: a 429, a 500 twice, a cut stream and a silent one are retried; the finished debate reads the same after a reload`, { timeout: 180_000 }, async () => {
    await withStandin(f.script, async standin => {
      const at = ([seat, purpose, occurrence], fault, rest = {}, later = 0) => ({ seat, purpose, occurrence: occurrence + later, fault, ...rest });
      await standin.setScript(await withFaults(f.script, [
        at(f.faults.rate, { status: 429, headers: { 'retry-after': '1' }, body: 'rate limited' }),
        at(f.faults.server, { status: 500 }),
        at(f.faults.server, { status: 500 }, {}, 1),
        at(f.faults.cut, { cut_after_bytes: 12 }, { text: 'This answer breaks off here and never ends.' }),
        at(f.faults.silent, { stall_after_bytes: 10, stall_ms: 8_000 }, { text: 'Silence follows these words.' }),
      ]));
      const { page } = await openApp(browser, site.url, { width: 1280, height: 900 });
      await setUpDebate(page, standin, f, 'Should cities ban private cars from their centres?');
      await page.click('#start');
      await page.waitForSelector('.badge.done', { timeout: 150_000 });

      // Each fault's call was asked again until it answered: twice, three times for the 500.
      const counts = await asked(standin);
      for (const [kind, times] of [['rate', 2], ['server', 3], ['cut', 2], ['silent', 2]]) {
        const path = await pathAt(standin, f.faults[kind]);
        assert.ok(path, `${format}: no ${f.faults[kind].join(' ')} call was made`);
        assert.equal(counts[path], times, `${format}: ${kind} fault at ${path}`);
      }
      // The cut and the silent attempts are kept as failed; what they said is not fed on.
      const failed = (await storedEvents(page)).filter(e => 'TurnFailed' in e.kind).map(e => e.kind.TurnFailed.error);
      assert.ok(failed.some(m => /broke off|ended before/.test(m)), `${format}: the cut attempt is kept: ${failed.join(' | ')}`);
      assert.ok(failed.some(m => /sent nothing for 5 seconds/.test(m)), `${format}: the silent attempt is kept: ${failed.join(' | ')}`);
      const prompts = JSON.stringify((await standin.log()).map(r => r.messages));
      assert.ok(!prompts.includes('This answer'), `${format}: a cut answer was fed to a later prompt`);

      const before = await seen(page);
      assert.ok(before.findings.length > 0, `${format}: no findings on screen`);
      await page.reload();
      await page.waitForSelector('.badge.done');
      assert.deepEqual(await seen(page), before, `${format}: the debate reads differently after a reload`);
    });
  });

  test(`${format}: a 401 on one seat holds the debate with the message; Resume goes on from that call`, { timeout: 120_000 }, async () => {
    await withStandin(f.script, async standin => {
      const [seat, purpose, occurrence] = f.faults.auth;
      await standin.setScript(await withFaults(f.script, [
        { seat, purpose, occurrence, fault: { status: 401, body: 'Incorrect API key provided: sk-old' } },
      ]));
      const { page } = await openApp(browser, site.url, { width: 1280, height: 900 });
      await setUpDebate(page, standin, f, 'Should cities ban private cars from their centres?', 'sk-old');
      await page.click('#start');
      const note = page.locator('.note.error').first();
      await note.waitFor({ timeout: 60_000 });
      assert.match(await note.textContent(), /HTTP 401\. Check the API key/);
      assert.ok(!(await note.textContent()).includes('sk-old'), 'the key is redacted');
      assert.equal(await page.textContent('.progress .badge'), 'Paused');
      assert.ok(await page.locator('#resume').isVisible(), 'a held debate offers Resume');
      assert.equal(await page.locator('#pause').count(), 0, 'and not Pause');
      const held = await asked(standin);
      await page.waitForTimeout(500);
      assert.deepEqual(await asked(standin), held, 'nothing more is asked while held');
      await page.click('#resume');
      await page.waitForSelector('.badge.done', { timeout: 90_000 });
      const counts = await asked(standin);
      const failedPath = await pathAt(standin, f.faults.auth);
      for (const [path, n] of Object.entries(counts)) {
        assert.equal(n, path === failedPath ? 2 : 1, `${format}: ${path} asked ${n} times`);
      }
    });
  });

  test(`${format}: a tab closed mid-turn resumes with no call repeated but the one cut off, and none lost`, { timeout: 150_000 }, async () => {
    await withStandin(f.script, async standin => {
      // Every answer streams slowly, so the tab closes in the middle of one.
      const s = await scriptOf(f.script);
      const slow = { ...s, answers: (s.answers ?? []).map(a => ({ ...a, chunk_delay_ms: 40 })), default: { ...(s.default ?? {}), chunk_delay_ms: 40 } };
      await standin.setScript(slow);
      const { page, context } = await openApp(browser, site.url, { width: 1280, height: 900 });
      await setUpDebate(page, standin, f, 'Should cities ban private cars from their centres?');
      await page.click('#start');
      // Some calls answered, and (40 ms a chunk) others still streaming.
      const deadline = Date.now() + 60_000;
      while ((await standin.log()).length < 4 && Date.now() < deadline) await new Promise(r => setTimeout(r, 50));
      await page.waitForTimeout(150);
      const url = page.url();
      await page.close();

      // The same browser profile, a new tab: the debate is there, to be resumed.
      const again = await context.newPage();
      await again.goto(url);
      await again.waitForSelector('#resume', { timeout: 30_000 });
      // What was asked before the resume, read only now: a request the closing tab had sent
      // may reach the stand-in after the close returns (seen on a loaded machine), and it was
      // cut off like the others.
      const asBefore = await asked(standin);
      const finished = new Set((await storedEvents(again)).filter(e => 'TurnFinished' in e.kind).map(e => e.kind.TurnFinished.call.path));
      const inFlight = Object.keys(asBefore).filter(p => !finished.has(p));
      assert.ok(inFlight.length >= 1, `${format}: the tab closed while nothing streamed`);
      await again.click('#resume');
      await again.waitForSelector('.badge.done', { timeout: 120_000 });
      const counts = await asked(standin);
      // Only the calls cut off by the close are asked again, once; nothing asked is lost.
      for (const [p, n] of Object.entries(counts)) {
        assert.equal(n, inFlight.includes(p) ? 2 : 1, `${format}: ${p} asked ${n} times (in flight at the close: ${inFlight.join(', ')})`);
      }
      for (const p of Object.keys(asBefore)) assert.ok(p in counts, `${format}: ${p} lost`);
      const turns = await transcript(again);
      assert.equal(turns.filter(t => t.status === 'streaming').length, 0);
    });
  });
}

test('forecast: a role whose every call is refused gives a partial result naming it, with reduced confidence, not a held debate', { timeout: 120_000 }, async () => {
  const f = FORMATS.forecast;
  await withStandin(f.script, async standin => {
    await standin.setScript(await withFaults(f.script, [
      { seat: 'historian', purpose: 'argument', fault: { status: 400, body: 'refused by the content filter' } },
    ]));
    const { page } = await openApp(browser, site.url, { width: 1280, height: 900 });
    await setUpDebate(page, standin, f, 'Will the transit bill pass this year?');
    await page.click('#start');
    await page.waitForSelector('.badge.done, .badge.stopped', { timeout: 90_000 });
    assert.ok(await page.locator('.badge.done').isVisible(), 'the forecast finished rather than being held');
    const verdict = page.locator('.fc-verdict');
    assert.match(await verdict.locator('.fc-flag').first().textContent(), /Partial result: 4 of 5 roles/);
    assert.match(await verdict.textContent(), /Partial result: 4 of 5 roles gave a readable forecast \(Historian did not\)/);
    // The confidence is scaled by the share of roles that answered (4/5 of what it was).
    const confidence = Number((await verdict.locator('.fc-meta').first().textContent()).match(/Confidence (\d+(?:\.\d+)?)%/)[1]);
    assert.ok(confidence > 0 && confidence <= 80, `confidence ${confidence}% is reduced`);
  });
});

test('crux: a card that cannot be extracted shows as not extracted, with a link that goes to its room', { timeout: 120_000 }, async () => {
  const f = FORMATS.crux;
  await withStandin(f.script, async standin => {
    // The card's answer and its repair are both unreadable.
    await standin.setScript(await withFaults(f.script, [
      { seat: 'analyst', path: 'room/1/card', text: 'I would rather not put this in JSON.' },
    ]));
    const { page } = await openApp(browser, site.url, { width: 1280, height: 900 });
    await setUpDebate(page, standin, f, 'Should cities ban private cars from their centres?');
    await page.click('#start');
    await page.waitForSelector('.badge.done', { timeout: 90_000 });
    const missing = page.locator('.crux-deck .crux-card.not-extracted');
    assert.equal(await missing.count(), 1);
    assert.match(await missing.textContent(), /This crux room ran, but its card could not be extracted/);
    assert.equal(await page.locator('.crux-deck .crux-card:not(.not-extracted)').count(), 0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await missing.getByRole('button', { name: "Read the room's exchange" }).click();
    await page.waitForTimeout(300);
    // The room's turn it points to is marked and scrolled into view.
    const target = page.locator('.turn.flash');
    assert.equal(await target.count(), 1);
    assert.ok(await target.evaluate(t => t.classList.contains('in-room')), 'it is a turn of the room');
    const inView = await target.evaluate(t => { const r = t.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; });
    assert.ok(inView, "the room's exchange is scrolled into view");
  });
});
