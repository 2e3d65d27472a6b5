// The same classic debate against the real local model (llama.cpp serving SmolLM2-135M),
// through the "Local model (no key)" preset. Skipped unless .ci/test started the model.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openApp, transcript } from './harness.mjs';

const enabled = process.env.AGORA_LOCAL_MODEL === '1';
let site, browser;
before(async () => { if (enabled) { site = await serveDist(); browser = await launch(); } });
after(async () => { await browser?.close(); site?.close(); });

test('a classic debate on the local model finishes with every turn non-empty', { skip: !enabled && 'AGORA_LOCAL_MODEL is not 1', timeout: 900_000 }, async () => {
  const { page, consoleLines } = await openApp(browser, site.url);
  assert.equal(await page.locator('#connection').inputValue(), 'local');
  await page.getByRole('button', { name: 'Should voting be compulsory in democracies?' }).click();
  await page.fill('#rounds', '1');
  await page.click('#start');
  await page.waitForSelector('.badge.done, .badge.failed, .note.error', { timeout: 840_000 });
  const turns = await transcript(page);
  assert.ok(await page.locator('.badge.done').isVisible(), `the debate failed: ${JSON.stringify(turns.at(-1))} ${consoleLines.join('\n')}`);
  assert.equal(turns.length, 11);
  for (const t of turns) assert.ok(t.text.trim().length > 0, `${t.speaker} ${t.label} is empty`);
});

test('a duelogic episode on the local model finishes; every evaluation is read or marked unscored', { skip: !enabled && 'AGORA_LOCAL_MODEL is not 1', timeout: 900_000 }, async () => {
  const { page, consoleLines } = await openApp(browser, site.url);
  await page.getByRole('radio', { name: 'Duelogic' }).check();
  await page.fill('#topic', 'Should voting be compulsory in democracies?');
  await page.fill('#duelogic-rounds', '1');
  await page.click('#start');
  await page.waitForSelector('.badge.done, .badge.failed, .note.error', { timeout: 840_000 });
  const turns = await transcript(page);
  assert.ok(await page.locator('.badge.done').isVisible(), `the episode failed: ${JSON.stringify(turns.at(-1))} ${consoleLines.join('\n')}`);
  assert.equal(turns[0].label, 'Introduction');
  assert.equal(turns.at(-1).label, 'Closing');
  for (const t of turns) assert.ok(t.text.trim().length > 0, `${t.speaker} ${t.label} is empty`);
  // Each chair's argument has a scorecard: either the scores, or "not scored".
  const scored = await page.locator('.scorecard[data-adherence]').count();
  const unscored = await page.locator('.scorecard.unscored').count();
  assert.equal(scored + unscored, 2, 'one judgement per chair');
  console.log(`duelogic on the local model: ${scored} of ${scored + unscored} evaluations parsed (${Math.round(100 * scored / (scored + unscored))}%)`);
});

test('a crux debate with two personas on the local model finishes; cards are extracted or marked not extracted', { skip: !enabled && 'AGORA_LOCAL_MODEL is not 1', timeout: 1_500_000 }, async () => {
  const { page, consoleLines } = await openApp(browser, site.url);
  await page.getByRole('radio', { name: 'Crux' }).check();
  await page.fill('#topic', 'Should voting be compulsory in democracies?');
  await page.fill('#crux-aspects', '1');
  await page.fill('#crux-exchanges', '4');
  await page.click('#start');
  await page.waitForSelector('.badge.done, .badge.failed, .note.error', { timeout: 1_440_000 });
  const turns = await transcript(page);
  assert.ok(await page.locator('.badge.done').isVisible(), `the crux debate failed: ${JSON.stringify(turns.at(-1))} ${consoleLines.join('\n')}`);
  for (const t of turns) assert.ok(t.text.trim().length > 0, `${t.speaker} ${t.label} is empty`);
  assert.equal(turns.filter(t => t.label === 'Closing').length, 2);
  // Every room that ran ends in a card or a "not extracted" card, never in nothing.
  const rooms = await page.locator('.turn.in-room').evaluateAll(ts => new Set(ts.map(t => t.id.split('-').slice(0, 3).join('-'))).size);
  const cards = await page.locator('.crux-deck .crux-card:not(.not-extracted)').count();
  const missing = await page.locator('.crux-deck .crux-card.not-extracted').count();
  assert.equal(cards + missing, rooms, 'one card or not-extracted note per room');
  console.log(`crux on the local model: ${rooms} crux room(s), ${cards} card(s) extracted, ${missing} not extracted`);
});
