// A person takes a seat: the debate waits for their turn, shows it like any other, and the
// models answer it. Pause holds the debate at the next turn until Continue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { world, openApp, addConnection, transcript } from './harness.mjs';

const w = world('e2e-classic.json');

test('a person can take Position B and type its turns', async () => {
  const { page } = await openApp(w.browser, w.site.url);
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await page.fill('#topic', 'Should homework be abolished?');
  await page.fill('#rounds', '1');
  await page.locator('details.seats summary').click();
  await page.getByLabel('Position B connection').selectOption({ label: "Me (I type this seat's turns)" });
  await page.click('#start');

  const box = page.locator('.human-input textarea');
  await box.waitFor({ timeout: 20_000 });
  assert.equal(await page.locator('.turn').last().locator('.speaker').textContent(), 'Position B');
  await box.fill('Homework teaches **independence**; abolish busywork, not practice.');
  await page.getByRole('button', { name: 'Submit turn' }).click();

  // The next model turn sees what the person wrote.
  await page.waitForFunction(() => document.querySelectorAll('.turn').length >= 4, null, { timeout: 20_000 });
  const turns = await transcript(page);
  assert.equal(turns[2].text, 'Homework teaches independence; abolish busywork, not practice.');
  const log = await w.standin.log();
  const next = log.find(r => r.path === 'round/1/argument/position-a');
  assert.ok(JSON.stringify(next.messages).includes('abolish busywork'), 'the model was given the human turn');
  assert.ok(!log.some(r => r.seat === 'position-b'), 'no model was called for the human seat');
});

test('Pause holds the debate at the next turn and Continue goes on', async () => {
  const { page } = await openApp(w.browser, w.site.url);
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await page.fill('#topic', 'Should cities plant more trees?');
  await page.fill('#rounds', '1');
  await page.click('#start');
  await page.waitForSelector('.turn');
  await page.click('#pause');
  await page.waitForSelector('.note:has-text("Paused by the user.")', { timeout: 20_000 });
  const paused = (await transcript(page)).length;
  await page.waitForTimeout(1_000);
  assert.equal((await transcript(page)).length, paused, 'no new turn starts while paused');
  assert.match(await page.locator('.progress .badge').textContent(), /Paused/);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForSelector('.badge.done', { timeout: 60_000 });
  assert.equal((await transcript(page)).length, 11);
});
