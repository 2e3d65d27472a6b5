// A council of three members against the scripted stand-in, set up through the form as a
// user would: the members answer, rank each other's answers blind, and the chair writes the
// final answer and a minority report. On screen: every ballot with the order its reviewer
// saw, the Borda ranking with each reviewer's leanings, the vote of the first answers and
// the verdict on whether deliberating changed it; then the Markdown export carries them, a
// reload shows the same from the stored log, and a failed chair leaves the ranking standing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { world, openApp, addConnection, transcript, ROOT, fullScreenshot, axeAudit } from './harness.mjs';

const w = world('e2e-council.json');
const SHOTS = join(ROOT, 'tests/e2e/artifacts');

async function download(page, button) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  return readFile(await d.path(), 'utf8');
}

async function startCouncil(page, topic) {
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await page.getByRole('radio', { name: 'Council' }).check();
  await page.fill('#topic', topic);
  // Three members to start with; one renamed.
  assert.equal(await page.locator('.council-member').count(), 3);
  await page.getByLabel('Member 2 name').fill('Skeptic');
  await page.click('#start');
}

test('a council of three answers, reviews blind, and says whether deliberating changed the vote', async () => {
  const { page, consoleLines } = await openApp(w.browser, w.site.url, { width: 1440, height: 1000 });
  // The form keeps between two and eight members.
  await page.getByRole('radio', { name: 'Council' }).check();
  for (let i = 0; i < 5; i++) await page.click('#add-member');
  assert.equal(await page.locator('.council-member').count(), 8);
  assert.equal(await page.locator('#add-member').isDisabled(), true, 'no ninth member');
  for (let i = 0; i < 5; i++) await page.locator('.remove-member').last().click();
  assert.equal(await page.locator('.council-member').count(), 3);

  await startCouncil(page, 'Should a small software company move to a four-day week?');
  await page.locator('.badge.done').waitFor({ timeout: 90_000 });

  // The answers and the chair's two texts are turns; the reviews, the vote and the check
  // are analysis, folded under their findings.
  const turns = await transcript(page);
  const spoken = turns.map(t => `${t.speaker}: ${t.label}`);
  for (const s of ['Member 1: Answer', 'Skeptic: Answer', 'Member 3: Answer', 'Chair: Final answer', 'Chair: Minority report']) {
    assert.ok(spoken.includes(s), `${s} in ${spoken.join(' | ')}`);
  }
  assert.match(turns.find(t => t.label === 'Minority report').text, /cover for the fifth day/);

  // Three ballots, each saying which label was whose answer.
  const ballots = page.locator('.council-ballot');
  assert.equal(await ballots.count(), 3);
  const first = await ballots.first().textContent();
  assert.match(first, /Member 1's ballot/);
  assert.match(first, /Shown as A: (Member 1|Skeptic|Member 3) · B: .* · C: /);
  assert.equal(await ballots.first().locator('li').count(), 3);
  assert.equal(await ballots.first().locator('li.own').count(), 1, 'its own answer is marked after the fact');

  // The ranking is the Borda count of the ballots on screen: k − 1 points for the best of
  // k down to 0, nothing to a reviewer's own answer from its own ballot.
  const expected = await page.$$eval('.council-ballot', cards => {
    const points = {};
    for (const card of cards) {
      const items = [...card.querySelectorAll('li')];
      items.forEach((li, i) => {
        const name = li.querySelector('b').textContent;
        points[name] ??= 0;
        if (!li.classList.contains('own')) points[name] += items.length - 1 - i;
      });
    }
    return points;
  });
  const ranking = page.locator('.council-ranking');
  assert.match(await ranking.locator('h3').textContent(), /Borda count over 3 ballots/);
  const standings = await ranking.locator('.council-standings tbody tr').evaluateAll(rows =>
    rows.map(r => [r.querySelector('th').textContent, Number(r.querySelectorAll('td')[1].textContent)]));
  assert.equal(standings.length, 3);
  for (const [name, points] of standings) assert.equal(points, expected[name], `${name}'s points`);
  assert.ok(standings.every((s, i) => i === 0 || standings[i - 1][1] >= s[1]), 'best first');
  assert.equal(await ranking.locator('.council-bias tbody tr').count(), 3);
  assert.match(await ranking.locator('.council-bias').textContent(), /Self-preference.*Position bias/s);

  // The vote of the first answers, and the verdict, also kept in view above the transcript.
  const vote = page.locator('.council-vote');
  assert.match(await vote.textContent(), /Majority: 2 of 3 first answers/);
  assert.match(await vote.locator('li.majority').textContent(), /Member 1, Skeptic/);
  const verdict = page.locator('.council-panel .council-worth');
  assert.match(await verdict.textContent(), /The final answer confirmed the vote\./);
  assert.match(await verdict.textContent(), /adds the dissent's condition on cover/);
  assert.match(await verdict.locator('.council-spend').textContent(), /First answers\s*3 calls.*Deliberation on top\s*5 calls/s);

  await axeAudit(page, 'council');
  await mkdir(SHOTS, { recursive: true });
  await fullScreenshot(page, join(SHOTS, 'council-1440.png'));
  await page.setViewportSize({ width: 390, height: 900 });
  await page.waitForTimeout(100);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, 'no horizontal scroll at 390 px');
  await fullScreenshot(page, join(SHOTS, 'council-390.png'));

  // The Markdown export carries the ballots, the ranking, the vote and the verdict.
  const md = await download(page, '#export-md');
  assert.match(md, /Council ranking/);
  assert.match(md, /Borda over 3 ballots/);
  assert.match(md, /Vote of the first answers.*majority \(2 of 3\)/s);
  assert.match(md, /Was the debate worth it\?.*confirmed the vote/s);
  assert.match(md, /Minority report/);
  // Each ballot names its reviewer, so a reason is not read as the ranked member's own.
  assert.match(md, /\*\*Ballot of Member 1\*\*.*\*\*Ballot of Skeptic\*\*.*\*\*Ballot of Member 3\*\*/s);

  // A reload shows the same from the stored log.
  await page.reload();
  await page.locator('.badge.done').waitFor();
  // The council's drawing arrives in a chunk of its own, after the log is read.
  await page.locator('.council-panel .council-worth').waitFor();
  assert.equal(await page.locator('.council-ballot').count(), 3);
  assert.match(await page.locator('.council-panel .council-worth').textContent(), /confirmed the vote/);
  assert.ok(!consoleLines.some(l => l.startsWith('pageerror')), consoleLines.join('\n'));
});

test('a chair that fails leaves the answers and the ranking standing, and says what broke', async () => {
  const script = JSON.parse(await readFile(join(ROOT, 'tests/scripts/e2e-council.json'), 'utf8'));
  script.answers.unshift({ path: 'chair/final', fault: { status: 400, body: 'This model cannot write that.' } });
  await w.standin.setScript(script);
  const { page } = await openApp(w.browser, w.site.url);
  await startCouncil(page, 'Should a small software company move to a four-day week?');
  await page.locator('.badge.done').waitFor({ timeout: 90_000 });
  const failed = page.locator('.council-chair-failed');
  await failed.waitFor();
  assert.match(await failed.textContent(), /The chair \(standin via Stand-in\) gave no final answer: .*400/);
  assert.match(await failed.textContent(), /answers and their ranking stand/);
  assert.equal(await page.locator('.council-ranking').count(), 1);
  assert.match(await page.locator('.council-panel .council-worth').textContent(), /could not be compared with the vote.*The chair gave no final answer/s);
});

test('a ballot that cannot be read says why on screen, under its call, and is not counted', async () => {
  const script = JSON.parse(await readFile(join(ROOT, 'tests/scripts/e2e-council.json'), 'utf8'));
  const review = script.answers.find(a => a.path === 'review/' && a.seat === 'member-3');
  // Two answers ranked A: the repair is asked and answers the same, so the ballot stays unread.
  review.text = JSON.stringify({ ranking: [{ label: 'A', reason: 'First.' }, { label: 'A', reason: 'Again.' }, { label: 'B', reason: 'Last.' }] });
  await w.standin.setScript(script);
  const { page } = await openApp(w.browser, w.site.url);
  await startCouncil(page, 'Should a small software company move to a four-day week?');
  await page.locator('.badge.done').waitFor({ timeout: 90_000 });
  const unread = page.locator('.analysis-call summary .analysis-unread');
  await unread.first().waitFor();
  assert.match(await unread.first().textContent(), /not read: .*A is ranked twice/);
  assert.match(await page.locator('.council-unread').textContent(), /Not counted \(no readable ballot\): Member 3/);
  assert.match(await page.locator('.council-ranking h3').textContent(), /Borda count over 2 ballots/);
});
