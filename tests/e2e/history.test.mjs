// What a user does around a debate: evidence and questions reach the next turns' prompts,
// one debate runs in one tab only, and history's search and filters find debates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { world, openApp, addConnection, transcript } from './harness.mjs';

const w = world('e2e-slow.json');
const SLOW = { default: { chunks: ['This ', 'answer ', 'streams ', 'slowly ', 'enough ', 'to ', 'act.'], chunk_delay_ms: 150 } };
const FAST = { default: { chunk_delay_ms: 2 } };

async function start(page, topic, { rounds = '1' } = {}) {
  await page.fill('#topic', topic);
  await page.fill('#rounds', rounds);
  await page.click('#start');
  await page.waitForURL(/debate=/);
  return page.url();
}

test('evidence and a question show up in the next turns\' prompts, checked at the stand-in', async () => {
  await w.standin.setScript(SLOW);
  const { page } = await openApp(w.browser, w.site.url);
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await start(page, 'Should homework be banned?');
  await page.waitForSelector('.turn[data-status="streaming"]');
  await page.fill('#ask-input', 'A 2019 meta-analysis found no benefit of homework before age 11.');
  await page.click('#add-evidence');
  await page.fill('#ask-input', 'What about children with no quiet place to study?');
  await page.click('#ask');
  await page.waitForSelector('.badge.done', { timeout: 90_000 });

  // Both show in the transcript as the user's.
  const body = await page.locator('.transcript').textContent();
  assert.match(body, /Evidence submitted: A 2019 meta-analysis/);
  assert.match(body, /What about children with no quiet place to study\?/);
  // The first prompt did not carry them; the last ones do.
  const log = await w.standin.log();
  const prompt = r => JSON.stringify(r.messages);
  assert.ok(!prompt(log[0]).includes('meta-analysis'));
  // The last speeches, not the scores, which read what was said and nothing else.
  const later = log.filter(r => !/^score\/|\/repair$/.test(r.path)).slice(-3);
  assert.ok(later.every(r => prompt(r).includes('2019 meta-analysis')), 'the evidence reaches every later prompt');
  assert.ok(later.every(r => prompt(r).includes('no quiet place to study')), 'the question reaches every later prompt');
});

test('a double click on Start starts one debate', async () => {
  await w.standin.setScript(FAST);
  const { page } = await openApp(w.browser, w.site.url);
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await page.fill('#topic', 'Should museums return looted art?');
  await page.fill('#rounds', '1');
  await page.dblclick('#start');
  await page.waitForSelector('.badge.done', { timeout: 60_000 });
  const paths = (await w.standin.log()).map(r => r.path);
  assert.equal(paths.length, new Set(paths).size, `a call was made twice: ${paths}`);
  await page.getByRole('link', { name: 'History' }).click();
  await page.waitForSelector('.history-row');
  assert.equal(await page.locator('.history-row').count(), 1);
});

test('a second tab on the same debate does not run it', async () => {
  await w.standin.setScript(SLOW);
  const { page, context } = await openApp(w.browser, w.site.url);
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  const url = await start(page, 'Is a hot dog a sandwich?');
  await page.waitForSelector('.turn[data-status="streaming"]');

  const second = await context.newPage();
  await second.goto(url);
  await second.waitForSelector('.turn');
  await second.click('#resume');
  const said = await second.getByRole('alert').textContent();
  assert.match(said, /running in another tab of this browser/);
  // The first tab goes on alone: each call once.
  await page.waitForSelector('.badge.done', { timeout: 90_000 });
  const paths = (await w.standin.log()).map(r => r.path);
  assert.equal(paths.length, new Set(paths).size, `a call was made twice: ${paths}`);
  // 11 turns and the 2 scores of a formal debate, each repaired (this script answers in prose).
  assert.equal(paths.length, 15);
  // Once the first tab has let go, the second one may continue (here: it is finished).
  await second.reload();
  await second.waitForSelector('.badge.done');
  assert.equal((await transcript(second)).filter(t => t.status === 'done').length, 11);
});

test('search and filters find the right debates', async () => {
  await w.standin.setScript(FAST);
  const { page } = await openApp(w.browser, w.site.url);
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await start(page, 'Should cities ban private cars from their centres?');
  await page.waitForSelector('.badge.done', { timeout: 60_000 });
  await page.getByRole('link', { name: 'New debate' }).click();
  await page.selectOption('#connection', { label: 'Stand-in' });
  await w.standin.setScript(SLOW);
  await start(page, 'Is nuclear power essential to reaching net zero?');
  await page.waitForSelector('.turn[data-status="streaming"]');
  await page.click('#stop');
  await page.waitForSelector('.badge.stopped');

  await page.getByRole('link', { name: 'History' }).click();
  const topics = async () => page.$$eval('.history-row .history-topic', as => as.map(a => a.textContent));
  await page.waitForSelector('.history-row');
  const all = await topics();
  assert.ok(all.length >= 2);
  assert.match(await page.locator('#storage').textContent(), /Stored in this browser: [\d.]+ MB of the [\d.]+ [MG]B it allows this site\./);

  // Words in any order and case.
  await page.fill('#history-search', 'CARS cities');
  assert.deepEqual(await topics(), ['Should cities ban private cars from their centres?']);
  assert.match(await page.locator('#history-count').textContent(), /^1 of \d+ debates match$/);
  await page.fill('#history-search', 'cars nuclear');
  assert.deepEqual(await topics(), []);
  await page.fill('#history-search', '');

  await page.selectOption('#history-status', 'stopped');
  assert.deepEqual(await topics(), ['Is nuclear power essential to reaching net zero?']);
  await page.selectOption('#history-status', '');
  await page.selectOption('#history-format', 'Duelogic');
  assert.deepEqual(await topics(), []);
  await page.selectOption('#history-format', 'Classic');
  assert.equal((await topics()).length, all.length);

  // Started today: everything; from tomorrow: nothing.
  const day = d => d.toLocaleDateString('en-CA');
  await page.fill('#history-from', day(new Date()));
  assert.equal((await topics()).length, all.length);
  await page.fill('#history-from', day(new Date(Date.now() + 86_400_000)));
  assert.deepEqual(await topics(), []);
  await page.fill('#history-from', '');

  // Deleting a row hands the focus to the row that takes its place, then to the one
  // before when the last row goes.
  const rows = await topics();
  await page.locator('.history-row').first().locator('.ask-delete').click();
  await page.waitForFunction(() => document.activeElement?.matches('.confirm-delete'));
  await page.keyboard.press('Enter');
  await page.waitForFunction(n => document.querySelectorAll('.history-row').length === n - 1, rows.length);
  await page.waitForFunction(() => document.activeElement?.matches('.history-row a.history-topic'), null, { timeout: 10_000 });
  assert.equal(await page.evaluate(() => document.activeElement.textContent), rows[1], 'the next row has the focus');
  const left = await topics();
  await page.locator('.history-row').last().locator('.ask-delete').click();
  await page.locator('.history-row').last().locator('.confirm-delete').click();
  await page.waitForFunction(n => document.querySelectorAll('.history-row').length === n - 1, left.length);
  await page.waitForFunction(() => document.activeElement?.matches('.history-row a.history-topic, #history-search'), null, { timeout: 10_000 });
  const focused = await page.evaluate(() => document.activeElement.textContent || document.activeElement.id);
  assert.equal(focused, left.length > 1 ? left.at(-2) : 'history-search', 'the row before the last has the focus');
});
