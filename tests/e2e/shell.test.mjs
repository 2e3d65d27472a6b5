// The setup screen is in the page before the wasm (README, "The prerendered setup screen"):
// a visitor can type a topic, pick a format and a connection and press Start while the app
// downloads, and the app, once started, does all of it again on its own screen and takes
// the copy's place without losing a keystroke or the caret. Other addresses never show it,
// and an app that cannot start says so on it instead of waiting for ever.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveDist, launch, axeAudit, ROOT } from './harness.mjs';

const w = {};
before(async () => {
  w.site = await serveDist({ gzip: true });
  w.browser = await launch();
});
after(async () => { await w.browser?.close(); w.site?.close(); });

/** A page whose first module is held back until `release()` (or refused with `fail`). */
async function heldBack({ width = 390, fail = false, path = '', modelServed = false } = {}) {
  const context = await w.browser.newContext({ viewport: { width, height: 844 } });
  // No local model answers: the visitor's computer has none.
  await context.route('http://127.0.0.1:8081/**', r => r.abort('connectionrefused'));
  // A model file beside the app makes the model inside the page the connection that works.
  if (modelServed) await context.route(/models\/SmolLM2-135M-Instruct\.Q4_1\.gguf$/, r => r.fulfill({ status: 200, headers: { 'Content-Length': '1000' }, body: '' }));
  const page = await context.newPage();
  let release;
  const gate = new Promise(r => { release = r; });
  await page.route(/agora_bg\.wasm$/, async route => (fail ? route.fulfill({ status: 404 }) : gate.then(() => route.continue())));
  await page.goto(`${w.site.url}${path}`);
  return { page, context, release };
}

const shell = page => page.locator('#agora-shell');
/** The app's own screen is shown (the copy has stepped aside). */
const appShown = page => page.waitForSelector('#start:not([disabled])', { timeout: 30_000 });

test('the setup screen is there before the wasm, and is accessible', async () => {
  const { page, context, release } = await heldBack();
  const copy = shell(page);
  await copy.getByRole('textbox', { name: 'Topic' }).waitFor();
  assert.equal(await page.locator('#topic').count(), 0, 'the app has not drawn anything yet');
  assert.ok(await copy.getByRole('button', { name: 'Start debate' }).isEnabled());
  assert.ok(await copy.getByRole('radio', { name: /Classic/ }).isChecked(), 'the default format is picked');
  await page.screenshot({ path: 'artifacts/shell-390.png', fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: 'artifacts/shell-1440.png' });
  assert.deepEqual(await axeAudit(page, 'the prerendered setup screen'), []);
  release();
  await appShown(page);
  assert.equal(await shell(page).count(), 0, 'the copy is gone once the app runs');
  await context.close();
});

test('the page alone draws the setup screen, styled and taking typing, while every other file is still on its way', async () => {
  const context = await w.browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  // Only the page itself arrives: its script, its stylesheet, the wasm and its glue hang.
  let release;
  const gate = new Promise(r => { release = r; });
  const held = [];
  await page.route(url => !/\/some\/sub-path\/(index\.html)?$/.test(url.pathname), async route => {
    held.push(route.request().url());
    await gate;
    await route.continue().catch(() => {});
  });
  await page.goto(w.site.url, { waitUntil: 'commit' });
  const topic = shell(page).getByRole('textbox', { name: 'Topic' });
  await topic.waitFor();
  // Styled: the page's stylesheet is in it (Start is the primary button, not a grey default).
  const start = shell(page).getByRole('button', { name: 'Start debate' });
  const look = await start.evaluate(b => ({ bg: getComputedStyle(b).backgroundColor, radius: getComputedStyle(b).borderRadius }));
  assert.notEqual(look.bg, 'rgb(239, 239, 239)', 'Start has the stylesheet\'s colour');
  assert.notEqual(look.radius, '0px');
  await topic.click();
  await page.keyboard.type('Is a page that needs nothing else fast?');
  assert.equal(await topic.inputValue(), 'Is a page that needs nothing else fast?');
  assert.ok(held.some(u => u.endsWith('agora_bg.wasm')), 'the wasm was on its way meanwhile');
  assert.ok(!held.some(u => /\.css$|shell\.js$/.test(u)), 'nothing the copy needs is fetched');
  release();
  await appShown(page);
  assert.equal(await page.locator('#topic').inputValue(), 'Is a page that needs nothing else fast?');
  await context.close();
});

test('what is typed before the app starts stays, with the focus and the caret, and typing goes on', async () => {
  const { page, context, release } = await heldBack();
  const topic = shell(page).getByRole('textbox', { name: 'Topic' });
  await topic.click();
  await page.keyboard.type('Should cities tax');
  assert.match(await shell(page).locator('.field .hint').first().textContent(), /^17 \/ 2000 characters/, 'the copy counts too');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  release();
  await appShown(page);
  assert.equal(await page.locator('#topic').inputValue(), 'Should cities tax');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'topic', 'the focus moved to the app\'s own field');
  assert.equal(await page.evaluate(() => document.activeElement.selectionStart), 15, 'the caret stayed where it was');
  await page.keyboard.press('End');
  await page.keyboard.type(' cars?');
  assert.equal(await page.locator('#topic').inputValue(), 'Should cities tax cars?');
  // The app counts what was typed in the copy as its own.
  assert.match(await page.locator('.field .hint').first().textContent(), /^23 \/ 2000 characters/);
  await context.close();
});

test('a format, a connection, a section opened and a Start pressed before the app starts are all carried out', async () => {
  const { page, context, release } = await heldBack();
  const copy = shell(page);
  await copy.getByRole('radio', { name: /Duelogic/ }).click();
  // The picked card is marked at once, and the first format's options are set aside.
  assert.match(await copy.locator('label.format', { hasText: 'Duelogic' }).getAttribute('class'), /selected/);
  assert.equal(await copy.locator('#shell-format-note').textContent(), 'Duelogic\'s options appear as soon as Agora has loaded.');
  assert.ok(await copy.locator('#shell-rounds').evaluate(e => e.closest('[inert]') !== null), 'Classic\'s rounds are out of reach');
  assert.ok(await copy.getByRole('textbox', { name: 'Topic' }).isEditable(), 'the topic is every format\'s');
  await copy.getByRole('button', { name: 'Should voting be compulsory in democracies?' }).click();
  assert.equal(await copy.getByRole('textbox', { name: 'Topic' }).inputValue(), 'Should voting be compulsory in democracies?');
  await copy.getByRole('combobox', { name: 'Connection' }).selectOption('demo');
  await copy.locator('details.costs > summary').click();
  await copy.getByRole('button', { name: 'Start debate' }).click();
  assert.equal(await copy.locator('#shell-start').textContent(), 'Starting…', 'the press is acknowledged');
  assert.equal(await copy.locator('#shell-start').getAttribute('aria-busy'), 'true');
  release();
  // The debate starts, with the format, topic and connection picked in the copy.
  await page.waitForSelector('section.debate', { timeout: 30_000 });
  assert.match(await page.locator('section.debate h1, section.debate h2').first().textContent(), /Should voting be compulsory in democracies\?/);
  assert.match(page.url(), /[?&]debate=/);
  await page.waitForSelector('.badge.done', { timeout: 90_000 });
  assert.equal(await page.locator('.turn[data-status="failed"], .note.error').count(), 0);
  assert.ok(await page.locator('.chair-panel').count() > 0, 'a Duelogic debate: its chairs\' panel');
  assert.ok(await page.locator('.scorecard').count() > 0, 'the Arbiter scored it');
  await context.close();
});

test('a section opened and a field filled before the app starts are kept when nothing is pressed', async () => {
  const { page, context, release } = await heldBack({ width: 1440 });
  const copy = shell(page);
  await copy.locator('details.costs > summary').click();
  await copy.getByRole('spinbutton', { name: /Spending cap/ }).fill('0.25');
  await copy.getByRole('spinbutton', { name: 'Rounds of argument' }).fill('3');
  release();
  await appShown(page);
  assert.ok(await page.locator('details.costs').evaluate(d => d.open), 'the section stays open');
  assert.equal(await page.locator('#spending-cap').inputValue(), '0.25');
  assert.equal(await page.locator('#rounds').inputValue(), '3');
  assert.match(await page.locator('#plan').textContent(), /model calls planned/);
  await context.close();
});

// The one list of addresses Route::parse is held to as well (its native test).
const ROUTES = JSON.parse(readFileSync(join(ROOT, 'tests/routes.json'), 'utf8')).addresses;

test('the addresses of other screens never show the setup screen first; those of the setup show the copy', async () => {
  for (const { address, screen } of ROUTES) {
    const { page, context, release } = await heldBack({ path: address });
    if (screen === 'setup') {
      await shell(page).getByRole('textbox', { name: 'Topic' }).waitFor();
      release();
      await appShown(page);
    } else {
      await page.waitForLoadState('domcontentloaded');
      assert.ok(await shell(page).isHidden(), `${address} opens ${screen}: the copy is hidden`);
      release();
    }
    await context.close();
  }
});

test('an app that cannot start says so on the setup screen, with Reload, and keeps what was typed', async () => {
  const { page, context } = await heldBack({ fail: true });
  const copy = shell(page);
  await copy.getByRole('textbox', { name: 'Topic' }).fill('Is nuclear power essential?');
  const alert = copy.getByRole('alert');
  await alert.waitFor({ timeout: 15_000 });
  assert.match(await alert.textContent(), /Agora could not start\..*check the connection and reload.*Nothing you typed was sent anywhere/s);
  assert.ok(await copy.getByRole('button', { name: 'Start debate' }).isDisabled(), 'Start no longer promises anything');
  assert.equal(await copy.getByRole('textbox', { name: 'Topic' }).inputValue(), 'Is nuclear power essential?');
  await page.screenshot({ path: 'artifacts/shell-failed-390.png' });
  assert.deepEqual(await axeAudit(page, 'the setup screen of an app that could not start'), []);
  await Promise.all([page.waitForEvent('load'), alert.getByRole('button', { name: 'Reload' }).click()]);
  await context.close();
});

test('a Start pressed early waits for the app to find the connection that works, then starts', async () => {
  const { page, context, release } = await heldBack({ modelServed: true });
  const copy = shell(page);
  await copy.getByRole('textbox', { name: 'Topic' }).fill('Should voting be compulsory in democracies?');
  await copy.getByRole('spinbutton', { name: 'Rounds of argument' }).fill('1');
  await copy.getByRole('button', { name: 'Start debate' }).click();
  release();
  await page.waitForURL(/[?&]debate=/, { timeout: 30_000 });
  assert.equal(await page.getByText('Choose a connection first').count(), 0);
  await context.close();
});

test('an empty topic is not "Starting…", and the app says what is missing once it is here', async () => {
  const { page, context, release } = await heldBack({ modelServed: true });
  const copy = shell(page);
  await copy.getByRole('button', { name: 'Start debate' }).click();
  assert.equal(await copy.locator('#shell-start').textContent(), 'Start debate');
  release();
  await appShown(page);
  await page.locator('.setup [role=alert]', { hasText: 'Enter a topic to debate.' }).waitFor();
  await context.close();
});

test('each step is done with the values of its moment, and a button pressed early acts once', async () => {
  const { page, context, release } = await heldBack({ width: 1440 });
  const copy = shell(page);
  await copy.locator('details.sources-form > summary').click();
  await copy.locator('#shell-source-title').fill('Residents survey');
  await copy.locator('#shell-source-text').fill('Two thirds of residents said the streets felt safer after the trial.');
  const add = copy.getByRole('button', { name: 'Add pasted text' });
  await add.click();
  assert.equal(await add.getAttribute('aria-disabled'), 'true', 'the press is acknowledged');
  // Pressed again (it says it is busy, so only forced): still added once.
  await add.click({ force: true });
  await copy.locator('#shell-source-title').fill('A second title');
  release();
  await appShown(page);
  await page.locator('.source-item', { hasText: 'Residents survey' }).waitFor({ timeout: 15_000 });
  assert.equal(await page.locator('.source-item').count(), 1, 'added once, with the text of its moment');
  assert.equal(await page.locator('#source-title').inputValue(), 'A second title');
  await context.close();
});

test('a field low on a phone\'s screen keeps its place on screen when the app takes over', async () => {
  const { page, context, release } = await heldBack();
  const copy = shell(page);
  const rounds = copy.getByRole('spinbutton', { name: 'Rounds of argument' });
  await rounds.scrollIntoViewIfNeeded();
  await rounds.fill('4');
  const before = await rounds.evaluate(e => e.getBoundingClientRect().top);
  release();
  await appShown(page);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'rounds');
  const after = await page.locator('#rounds').evaluate(e => e.getBoundingClientRect().top);
  assert.ok(Math.abs(after - before) <= 2, `on screen at ${before} px before, ${after} px after`);
  assert.equal(await page.locator('#rounds').inputValue(), '4');
  await context.close();
});

test('a first module that is slow to come says so on the copy, and the app still takes over', async () => {
  const { page, context, release } = await heldBack();
  const note = shell(page).getByRole('status').filter({ hasText: 'Agora is still loading.' });
  await note.waitFor({ timeout: 25_000 });
  assert.match(await note.textContent(), /slow or has stopped answering.*kept/);
  assert.ok(await note.getByRole('button', { name: 'Reload' }).isVisible());
  release();
  await appShown(page);
  await context.close();
});
