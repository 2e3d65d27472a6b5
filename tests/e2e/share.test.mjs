// Share links against the release build: a finished debate of each format is shared, and
// the link opened in a fresh browser context with empty storage shows the same turns and
// findings, read-only, with nothing stored until "Keep a copy". A tampered link and a debate
// too large for a link are refused with a message. Debates run on the in-page scripted
// provider (no key, no network), added through the connection form as a user would.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { serveDist, launch, openApp, transcript, dumpIndexedDb } from './harness.mjs';

const w = {};
before(async () => { w.site = await serveDist(); w.browser = await launch(); });
after(async () => { await w.browser?.close(); w.site?.close(); });

async function addScripted(page, script = {}) {
  await page.getByRole('button', { name: /Add a connection/ }).click();
  await page.selectOption('#conn-provider', { label: 'Scripted test answers (no key, no network)' });
  await page.fill('#conn-script', JSON.stringify(script));
  await page.click('#conn-save');
}

/** What a reader sees of the debate: the section's text without the share banner and panel. */
async function reading(page) {
  return page.evaluate(() => {
    const d = document.querySelector('section.debate').cloneNode(true);
    // The announcer says the last turn of a debate run live, for screen readers; a debate
    // opened from a link was not run here. Only the sharer's own copy can be resolved (a
    // resolution it had is shown in both, and compared: none here).
    d.querySelectorAll('.shared-banner, .share-panel, #announcer, .fc-resolve-form').forEach(e => e.remove());
    d.querySelectorAll('.fc-resolution').forEach(e => { if (!e.querySelector('#resolution-line')) e.remove(); });
    return d.innerText;
  });
}

async function shareLink(page) {
  await page.click('#share');
  await page.locator('#share-url').waitFor();
  return page.locator('#share-url').inputValue();
}

const FORMATS = {
  Classic: async page => page.fill('#rounds', '1'),
  Duelogic: async () => {},
  Forecast: async () => {},
  Crux: async page => { await page.fill('#crux-aspects', '1'); await page.fill('#crux-exchanges', '4'); },
  Council: async () => {},
};

for (const [format, shorten] of Object.entries(FORMATS)) {
  test(`a finished ${format.toLowerCase()} debate shared by link opens the same, read-only, in an empty browser`, async () => {
    const { page, context } = await openApp(w.browser, w.site.url);
    await addScripted(page);
    await page.getByRole('radio', { name: format }).check();
    await page.fill('#topic', `Shared ${format}: should cities ban cars?`);
    await shorten(page);
    await page.click('#start');
    await page.locator('.badge.done').waitFor({ timeout: 90_000 });
    const turns = await transcript(page);
    const findings = await page.locator('.finding, .crux-card').count();
    const seen = await reading(page);
    const url = await shareLink(page);
    assert.ok(url.startsWith(`${w.site.url}#share=1.`), url.slice(0, 80));
    await context.close();

    // A stranger's browser: nothing stored, no connection of the sharer's.
    const other = await w.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page2 = await other.newPage();
    const errors = [];
    page2.on('pageerror', e => errors.push(e.message));
    await page2.goto(url);
    await page2.locator('.shared-banner').waitFor({ timeout: 30_000 });
    await page2.locator('.badge.done').waitFor();
    assert.deepEqual(await transcript(page2), turns, 'the same turns');
    assert.equal(await page2.locator('.finding, .crux-card').count(), findings, 'the same findings');
    assert.equal(await reading(page2), seen, 'the same page, word for word');
    assert.equal(await page2.locator('#resume').count(), 0, 'a shared debate does not resume');
    assert.equal(await dumpIndexedDb(page2).then(d => d.includes('Shared ')), false, 'nothing stored before Keep a copy');

    // Replay works from the link's log.
    await page2.getByRole('button', { name: 'Replay' }).click();
    await page2.locator('.replay input[type=range]').waitFor();

    await page2.click('#keep-copy');
    await page2.waitForURL(/\?debate=/);
    await page2.locator('.badge.done').waitFor();
    assert.deepEqual(await transcript(page2), turns, 'the kept copy is the same debate');
    await page2.getByRole('link', { name: 'History' }).click();
    await page2.getByText(`Shared ${format}: should cities ban cars?`).waitFor();
    assert.deepEqual(errors, []);
    await other.close();
  });
}

test('a tampered share link is refused with a message and stores nothing', async () => {
  const { page, context } = await openApp(w.browser, w.site.url);
  await addScripted(page);
  await page.fill('#topic', 'A link that will be changed on the way');
  await page.fill('#rounds', '1');
  await page.click('#start');
  await page.locator('.badge.done').waitFor({ timeout: 60_000 });
  const url = await shareLink(page);
  await context.close();

  const other = await w.browser.newContext();
  const page2 = await other.newPage();
  const data = url.indexOf('#share=1.') + '#share=1.'.length;
  const cut = url.slice(0, data + Math.floor((url.length - data) * 0.6));
  // One character of the data changed, in the middle: the checksum does not match.
  const i = data + Math.floor((url.length - data) / 2);
  const flipped = url.slice(0, i) + (url[i] === 'A' ? 'B' : 'A') + url.slice(i + 1);
  const refusals = [
    [cut, /This share link is damaged/],
    [flipped, /This share link is damaged/],
    [`${w.site.url}#share=1.not*base64`, /This share link is damaged \(not base64url/],
    [`${w.site.url}#share=2.abc`, /This share link is not one this version of Agora reads/],
    [`${w.site.url}#share=1.${'A'.repeat(150_000)}`, /This share link is 150,000 characters long, more than any Agora makes/],
  ];
  // Something stored already, which a refused link must leave as it is.
  await page2.goto(url);
  await page2.click('#keep-copy');
  await page2.waitForURL(/\?debate=/);
  const before = await dumpIndexedDb(page2);
  for (const [bad, why] of refusals) {
    await page2.goto('about:blank');
    await page2.goto(bad);
    const error = page2.locator('.card.empty p.error');
    await error.waitFor({ timeout: 30_000 });
    assert.match(await error.textContent(), why, bad.slice(0, 120));
    assert.equal(await page2.locator('.turn').count(), 0);
  }
  assert.equal(await dumpIndexedDb(page2), before, 'nothing stored changed');
  await other.close();
});

test('a debate too large for a link says so, with its size, and points to the JSON file', async () => {
  // Ten rounds of answers that do not compress (random text, each under the call's bound).
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&()*+,-./:;<=>?@[]^_{|}~';
  const random = n => Array.from(randomBytes(n), b => chars[b % chars.length]).join('');
  const answers = [];
  for (const seat of ['moderator', 'position-a', 'position-b']) {
    for (const purpose of ['moderation', 'argument']) {
      for (let occurrence = 0; occurrence < 12; occurrence++) answers.push({ seat, purpose, occurrence, text: random(3900) });
    }
  }
  const { page } = await openApp(w.browser, w.site.url);
  await addScripted(page, { answers });
  await page.fill('#topic', 'A very long debate');
  await page.fill('#rounds', '10');
  await page.click('#start');
  await page.locator('.badge.done').waitFor({ timeout: 120_000 });
  await page.click('#share');
  const error = page.locator('#share-error');
  await error.waitFor();
  assert.match(await error.textContent(), /would make a link of [\d,]+ characters, over the 100,000 a link can safely carry.*Export it as JSON/);
});

test('Continue from here on a shared debate keeps a copy and goes on on the visitor\'s own connection', async () => {
  const { page, context } = await openApp(w.browser, w.site.url);
  await addScripted(page);
  await page.fill('#topic', 'A debate to carry on elsewhere');
  await page.fill('#rounds', '1');
  await page.click('#start');
  await page.locator('.badge.done').waitFor({ timeout: 60_000 });
  const url = await shareLink(page);
  const turns = await page.locator('.turn').count();
  await context.close();

  const other = await w.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page2 = await other.newPage();
  await page2.goto(url);
  await page2.locator('.shared-banner').waitFor({ timeout: 30_000 });
  // The visitor's own connection, with answers of its own to tell them apart.
  await page2.getByRole('link', { name: 'New debate' }).click();
  await addScripted(page2, { default: { text: 'The visitor\'s own model carries on from here.' } });
  await page2.goBack();
  await page2.locator('.shared-banner').waitFor({ timeout: 30_000 });
  await page2.getByRole('button', { name: 'Continue from here' }).nth(1).click();
  const panel = page2.getByRole('dialog', { name: 'Continue from here' });
  assert.equal(await panel.getByRole('option', { name: 'the same models' }).count(), 0, 'the sharer\'s connections are not offered');
  await panel.getByRole('combobox').selectOption({ label: 'Scripted test answers (no key, no network)' });
  await panel.getByRole('button', { name: 'Fork and continue' }).click();
  await page2.waitForURL(/\?debate=/);
  await page2.locator('.badge.done').waitFor({ timeout: 60_000 });
  assert.match(await page2.locator('.forked-from').textContent(), /Forked from another debate/);
  assert.ok((await page2.locator('.turn').count()) >= turns - 1);
  assert.match(await page2.locator('.transcript').innerText(), /The visitor's own model carries on from here\./);
  // The shared original was kept, so the fork's link back leads somewhere.
  await page2.locator('.forked-from a').click();
  await page2.locator('.badge.done').waitFor();
  assert.equal(await page2.locator('.turn').count(), turns);
  await other.close();
});

/** Opens `url` in an empty browser and hands the page to `check`. */
async function inEmptyBrowser(url, check) {
  const other = await w.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await other.newPage();
  const errors = [];
  page.on('pageerror', e => errors.push(e.message));
  try {
    await page.goto(url);
    await check(page);
    assert.deepEqual(errors, []);
  } finally {
    await other.close();
  }
}

test('one crux card and one forecast are shared on their own, with or without the whole debate', async () => {
  const { page, context } = await openApp(w.browser, w.site.url);
  await addScripted(page);
  await page.getByRole('radio', { name: 'Crux' }).check();
  await page.fill('#topic', 'A card to share alone');
  await FORMATS.Crux(page);
  await page.click('#start');
  await page.locator('.badge.done').waitFor({ timeout: 90_000 });
  const card = page.locator('.crux-card').first();
  const crux = await card.locator('.crux-text').textContent();
  await card.getByRole('button', { name: 'Share this card' }).click();
  const cardOnly = await card.locator('#share-url').inputValue();
  await card.locator('.share-whole').check();
  await page.waitForFunction(old => document.querySelector('.crux-card #share-url')?.value !== old, cardOnly);
  const withWhole = await card.locator('#share-url').inputValue();
  assert.ok(cardOnly.length < withWhole.length, `the card alone is shorter (${cardOnly.length} < ${withWhole.length})`);
  assert.match(cardOnly, /&focus=/);

  await inEmptyBrowser(cardOnly, async p => {
    const alone = p.locator('.focused .crux-card');
    await alone.waitFor({ timeout: 30_000 });
    assert.equal(await p.locator('.focused .crux-card').count(), 1);
    assert.equal(await alone.locator('.crux-text').textContent(), crux);
    assert.match(await p.locator('.focused h1.topic').textContent(), /A card to share alone/);
    await p.locator('#alone-note').waitFor();
    assert.equal(await p.locator('#see-whole').count(), 0, 'no whole debate in this link');
  });
  await inEmptyBrowser(withWhole, async p => {
    await p.locator('.focused .crux-card').waitFor({ timeout: 30_000 });
    await p.locator('#see-whole').click();
    await p.locator('.turn').first().waitFor();
    assert.ok(await p.locator('.crux-card').count() >= 1);
  });

  // A forecast's final distribution.
  await page.getByRole('link', { name: 'New debate' }).click();
  await page.getByRole('radio', { name: 'Forecast' }).check();
  await page.selectOption('#connection', { label: 'Scripted test answers (no key, no network)' });
  await page.fill('#topic', 'Will a forecast travel alone?');
  await page.click('#start');
  await page.locator('.badge.done').waitFor({ timeout: 90_000 });
  const finals = await page.$$eval('.fc-chart .bar.series-final', bars => bars.map(b => b.dataset.value));
  await page.getByRole('button', { name: 'Share this forecast' }).click();
  const forecast = await page.locator('.fc-share #share-url').inputValue();
  await context.close();
  await inEmptyBrowser(forecast, async p => {
    await p.locator('.focused .fc-alone .fc-chart').first().waitFor({ timeout: 30_000 });
    assert.deepEqual(await p.$$eval('.focused .fc-chart .bar.series-final', bars => bars.map(b => b.dataset.value)), finals, 'the same final distribution');
    assert.equal(await p.locator('.focused .fc-chart .bar:not(.summary)').count(), 0, 'no role bars without the debate');
    assert.match(await p.locator('.focused .fc-headline').textContent(), /Most likely/);
  });
});
