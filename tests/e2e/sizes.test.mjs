// Hostile sizes: a 100 KB topic, position, question or person's turn is refused
// with a message and changes nothing; a 5 MB answer and an answer that never ends are cut
// at the call's bound and marked, and the debate goes on. Nothing hangs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { world, openApp, addConnection, transcript, dumpIndexedDb } from './harness.mjs';

const w = world('e2e-classic.json');
// 100,000 characters that stay 100,000 when trimmed.
const BIG = `${'Lorem ipsum dolor sit amet, '.repeat(3_600).slice(0, 99_999)}.`;

async function setUp(page) {
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await page.fill('#topic', 'Should limits be generous?');
  await page.fill('#rounds', '1');
}

test('a 100 KB topic or position is refused before anything starts', async () => {
  await w.standin.setScript({ default: { chunk_delay_ms: 1 } });
  const { page } = await openApp(w.browser, w.site.url);
  await setUp(page);
  const refused = async (why) => {
    await page.click('#start');
    await page.waitForFunction(re => [...document.querySelectorAll('p.error[role=alert]')].some(p => new RegExp(re).test(p.textContent)), why.source);
  };
  await page.fill('#topic', BIG);
  await refused(/The topic is 100000 characters long; the limit is 2000/);
  await page.fill('#topic', 'Should limits be generous?');
  await page.fill('#stance-a', BIG);
  await refused(/The position of Position A is 100000 characters long; the limit is 2000/);
  assert.equal(new URL(page.url()).search, '', 'no debate was opened');
  assert.deepEqual(await w.standin.log(), [], 'no model was called');
  assert.equal(await dumpIndexedDb(page).then(d => d.includes('Lorem ipsum')), false);
});

test('a 100 KB question or turn is refused with a message; a short one then goes through', async () => {
  await w.standin.setScript({ default: { chunk_delay_ms: 40 } });
  const { page } = await openApp(w.browser, w.site.url);
  await setUp(page);
  await page.locator('details.seats summary').click();
  await page.getByLabel('Position B connection').selectOption({ label: "Me (I type this seat's turns)" });
  await page.click('#start');

  const ask = page.locator('#ask-input');
  await ask.fill(BIG);
  await page.getByRole('button', { name: 'Ask' }).click();
  await page.getByText(/This question is 100000 characters long; the limit is 2000\. Shorten it/).waitFor();
  assert.equal(await ask.inputValue(), BIG, 'the question is kept to shorten');

  const box = page.locator('.human-input textarea');
  await box.waitFor({ timeout: 20_000 });
  await box.fill(BIG);
  await page.getByRole('button', { name: 'Submit turn' }).click();
  await page.locator('.human-input p.error').getByText(/This turn is 100000 characters long; the limit is 20000/).waitFor();
  assert.equal(await box.inputValue(), BIG, 'the turn is kept to shorten');
  await box.fill('Short and to the point.');
  await page.getByRole('button', { name: 'Submit turn' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.turn').length >= 4, null, { timeout: 20_000 });
  assert.ok(!(await dumpIndexedDb(page)).includes('Lorem ipsum'), 'a refused text was stored');
  assert.ok(!JSON.stringify(await w.standin.log()).includes('Lorem ipsum'), 'a refused text reached a model');
});

test('a 5 MB answer and an answer that never ends are cut at the call\'s bound and marked', async () => {
  await w.standin.setScript({
    answers: [
      { seat: 'position-a', path: 'opening/', chunks: ['word '.repeat(1_000_000)] },
      { seat: 'position-b', path: 'opening/', chunks: ['again ', 'and again '], endless: true },
    ],
    default: { chunk_delay_ms: 1 },
  });
  const { page } = await openApp(w.browser, w.site.url);
  await setUp(page);
  const started = Date.now();
  await page.click('#start');
  await page.waitForSelector('.badge.done', { timeout: 60_000 });
  const turns = await transcript(page);
  assert.equal(turns.length, 11, 'the debate went on to its end');
  const [huge, endless] = ['Position A', 'Position B'].map(s => turns.find(t => t.speaker === s));
  for (const t of [huge, endless]) {
    assert.equal(t.status, 'limit', `${t.speaker} is not marked as cut at Agora's limit`);
    assert.ok(t.text.length > 1_000 && t.text.length <= 16_000, `${t.speaker}: ${t.text.length} characters kept`);
  }
  assert.match(await page.locator('.turn[data-status="limit"]').first().textContent(), /Cut at Agora's size limit for one answer/);
  assert.ok((await dumpIndexedDb(page)).length < 500_000, 'the store holds the bounded turns only');
  console.log(`# 5 MB and endless answers cut, debate done in ${Date.now() - started} ms`);
});
