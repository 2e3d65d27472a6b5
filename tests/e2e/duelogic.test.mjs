// A duelogic episode against the scripted stand-in: the intro, a chair cut off mid-speech
// by another, scorecards filling in under each turn, the Arbiter's interjection, the
// chairs panel and the closing; no horizontal overflow on a phone. Then Listen, with the
// page's speech synthesis replaced by a recording stub.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { world, openApp, addConnection, transcript, ROOT, fullScreenshot } from './harness.mjs';

const w = world('e2e-duelogic.json');
const SHOTS = join(ROOT, 'tests/e2e/artifacts');

async function runEpisode(page, rounds = 1) {
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await page.getByRole('radio', { name: 'Duelogic' }).check();
  await page.fill('#topic', 'Should cities ban private cars from their centres?');
  await page.fill('#duelogic-rounds', String(rounds));
  await page.getByLabel('Chair 2 framework').selectOption('virtue');
  await page.click('#start');
  await page.waitForSelector('.badge.done', { timeout: 60_000 });
}

test('a duelogic episode shows its intro, scorecards, an interjection, an interruption and the closing', async () => {
  const { page } = await openApp(w.browser, w.site.url, { width: 1440, height: 1000 });
  await runEpisode(page);
  const turns = await transcript(page);
  assert.deepEqual(turns.map(t => `${t.speaker}: ${t.label}`), [
    'The Arbiter: Introduction',
    'Chair 1: Argument',
    'Chair 2: Interruption',
    'Chair 1: Answer and resume',
    'Chair 2: Argument',
    'The Arbiter: Interjection',
    'Chair 2: Answer to the Arbiter',
    'The Arbiter: Closing',
  ]);
  assert.match(turns[0].text, /Welcome to Duelogic/);
  assert.match(turns.at(-1).text, /This has been Duelogic/);

  // Chair 1 was cut at the sentence after the check, and the cut is shown where it happened.
  const cut = page.locator('.turn.was-cut');
  assert.equal(await cut.count(), 1);
  assert.equal(turns[1].status, 'cut');
  assert.match(turns[1].text, /Fewer cars means fewer deaths\.$/);
  assert.doesNotMatch(turns[1].text, /cleaner air/);
  assert.match(await cut.locator('.cut-marker').textContent(), /Cut off by Chair 2: factual correction \(urgency 85%\)/);

  // Scorecards under each chair's argument, with the numbers the analyst gave.
  const cards = page.locator('.scorecard');
  assert.deepEqual(await cards.evaluateAll(cs => cs.map(c => c.dataset.adherence)), ['82', '31']);
  assert.match(await cards.nth(1).textContent(), /Steel-man\s*weak/);
  assert.match(await cards.nth(1).textContent(), /Self-critique\s*absent/);
  assert.match(await page.locator('.interjection-flag').textContent(), /called out Chair 2 for straw-manning/);

  // The chairs side by side.
  const rows = page.locator('.chair-row');
  assert.equal(await rows.count(), 2);
  assert.match(await rows.nth(0).textContent(), /82/);
  assert.match(await rows.nth(1).textContent(), /Called out\s*1/);
  assert.match(await page.locator('.chair-panel').textContent(), /factual correction ×1/);

  await mkdir(SHOTS, { recursive: true });
  await fullScreenshot(page, join(SHOTS, 'duelogic-1440.png'));
  await page.setViewportSize({ width: 390, height: 900 });
  await page.waitForTimeout(100);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, 'no horizontal scroll at 390 px');
  await fullScreenshot(page, join(SHOTS, 'duelogic-390.png'));
  // A reload shows the same episode, scorecards and all, from the stored log.
  await page.reload();
  await page.waitForSelector('.badge.done');
  assert.deepEqual(await page.locator('.scorecard').evaluateAll(cs => cs.map(c => c.dataset.adherence)), ['82', '31']);
});

test('Listen reads each turn in order with its speaker\'s voice, and pause and skip act on it', async () => {
  const { context, page } = await openApp(w.browser, w.site.url);
  // A recording stand-in for the browser's speech synthesis: it "speaks" each utterance in
  // 40 ms unless paused, and remembers what it was asked.
  await context.addInitScript(() => {
    const voices = [{ name: 'Voice A', lang: 'en-US' }, { name: 'Voice B', lang: 'en-GB' }, { name: 'Voice C', lang: 'en-AU' }, { name: 'Voice D', lang: 'en-IE' }];
    const log = [];
    let current = null, timer = null, paused = false;
    const finish = () => { const u = current; current = null; u?.onend?.(new Event('end')); };
    window.__speech = log;
    window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; this.voice = null; this.pitch = 1; this.onend = null; } };
    Object.defineProperty(window, 'speechSynthesis', { value: {
      getVoices: () => voices,
      speak(u) { log.push({ op: 'speak', text: u.text, voice: u.voice?.name, pitch: u.pitch }); current = u; if (!paused && !window.__hold) timer = setTimeout(finish, 40); },
      cancel() { log.push({ op: 'cancel' }); clearTimeout(timer); current = null; },
      pause() { log.push({ op: 'pause' }); paused = true; clearTimeout(timer); },
      resume() { log.push({ op: 'resume' }); paused = false; timer = setTimeout(finish, 40); },
    } });
  });
  await page.reload();
  await page.waitForSelector('#start:not([disabled])');
  await runEpisode(page);
  const turns = await transcript(page);

  await page.click('#listen-play');
  await page.waitForFunction(n => window.__speech.filter(e => e.op === 'speak').length >= n, turns.length);
  const spoken = (await page.evaluate(() => window.__speech)).filter(e => e.op === 'speak');
  assert.deepEqual(spoken.map(s => s.text.slice(0, 20)), turns.map(t => t.text.replace(/[*_#`>|]/g, '').slice(0, 20)));
  // One voice per speaker: the Arbiter, Chair 1 and Chair 2 each keep theirs.
  const voiceOf = {};
  spoken.forEach((s, i) => { (voiceOf[turns[i].speaker] ??= new Set()).add(s.voice); });
  assert.deepEqual(Object.values(voiceOf).map(v => v.size), [1, 1, 1]);
  assert.equal(new Set(Object.values(voiceOf).map(v => [...v][0])).size, 3);

  // The reading ends after the last turn; play again from the start, pause, skip ahead.
  await page.waitForSelector('#listen-stop', { state: 'detached' });
  // From here an utterance lasts until the test moves on.
  await page.evaluate(() => { window.__speech.length = 0; window.__hold = true; });
  await page.click('#listen-prev');
  await page.click('#listen-play'); // pauses the turn just started
  const afterPause = await page.evaluate(() => window.__speech.map(e => e.op));
  assert.ok(afterPause.includes('pause'), afterPause.join());
  await page.waitForTimeout(150);
  assert.equal((await page.evaluate(() => window.__speech)).filter(e => e.op === 'speak').length, 1, 'paused: nothing more is spoken');
  assert.equal(await page.locator('.turn.speaking').count(), 1, 'the transcript follows the reading');
  await page.click('#listen-next');
  const last = (await page.evaluate(() => window.__speech)).filter(e => e.op === 'speak').at(-1);
  assert.equal(last.text.slice(0, 20), turns[1].text.replace(/[*_#`>|]/g, '').slice(0, 20));
});

test('a framework of your own is checked, offered to every chair and kept on this device', async () => {
  const { page } = await openApp(w.browser, w.site.url);
  await page.getByRole('radio', { name: 'Duelogic' }).check();
  await page.getByText('Add your own framework').click();
  await page.fill('#fw-name', 'Stoicism');
  await page.fill('#fw-description', 'Live by reason and accept what is outside your control.');
  await page.click('#fw-save');
  assert.match(await page.locator('.new-framework [role=alert]').textContent(), /needs a core question/);
  await page.fill('#fw-question', 'What here is up to us?');
  await page.fill('#fw-strengths', 'Calm under uncertainty\nFocus on what can be changed');
  await page.fill('#fw-blind-spots', 'Can excuse passivity');
  await page.click('#fw-save');
  await page.getByLabel('Chair 2 framework').selectOption({ label: 'Stoicism' });
  assert.equal(await page.getByLabel('Chair 1 framework').locator('option', { hasText: 'Stoicism' }).count(), 1);
  await page.reload();
  await page.waitForSelector('#start:not([disabled])');
  await page.getByRole('radio', { name: 'Duelogic' }).check();
  assert.equal(await page.getByLabel('Chair 2 framework').locator('option', { hasText: 'Stoicism' }).count(), 1, 'kept after a reload');
});

test('a chair that straw-mans another is interrupted by a check that read what the other chair actually said', async () => {
  const STRAW = 'Virtue ethics people just want to feel good about themselves.';
  await w.standin.setScript({
    answers: [
      { path: 'round/1/chair-2', text: 'Character is formed by habit, and a good city forms good habits in the people who live in it.', chunk_delay_ms: 5 },
      { path: 'round/2/chair-1/check/', first_delay_ms: 30,
        text: JSON.stringify({ should_interrupt: true, interrupting_chair: 'chair-2', reason: 'straw_man_detected', trigger: STRAW, urgency: 0.9, opener: '' }) },
      { path: 'round/2/chair-1/interruption', text: 'Hold on, I said a good city forms good habits; nobody here asked to feel good.', chunk_delay_ms: 5 },
      { path: 'round/2/chair-1', chunks: ['Measured welfare is what counts. ', `${STRAW} `, 'Their comfort is not an argument. ', 'More follows here. ', 'The end.'], chunk_delay_ms: 120 },
    ],
    default: { chunk_delay_ms: 2 },
  });
  const { page } = await openApp(w.browser, w.site.url);
  await runEpisode(page, 2);

  assert.match(await page.locator('.turn.was-cut .cut-marker').first().textContent(), /Cut off by Chair 2: straw man detected/);
  const log = await w.standin.log();
  const check = log.find((r) => r.path?.startsWith('round/2/chair-1/check/'));
  const asked = check.messages.map((m) => m.content).join('\n');
  assert.match(asked, /Should cities ban private cars from their centres\?/, 'the check knows the topic');
  assert.match(asked, /a good city forms good habits in the people who live in it/, 'and what chair 2 actually said');
  assert.match(asked, /Measured welfare is what counts\./, 'and the speech from its start');
  const interruption = log.find((r) => r.path === 'round/2/chair-1/interruption');
  assert.ok(interruption.messages.some((m) => m.content.includes(STRAW)), 'the interrupter is told what it answers');
  assert.match(await page.locator('.turn', { hasText: 'nobody here asked to feel good' }).first().textContent(), /Chair 2/);
  await page.context().close();
});
