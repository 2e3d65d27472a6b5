// Provider failures in the browser, one per row of the table in issue "Every provider a
// user brings": what the user sees, and that nothing already said is lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { world, openApp, addConnection, transcript } from './harness.mjs';

const w = world('e2e-classic.json');

// The round summary (the moderator's first summary call) meets the fault; everything else
// answers quickly.
const atRoundSummary = fault => ({
  answers: [{ seat: 'moderator', purpose: 'summary', occurrence: 0, fault, text: 'Half a summary that breaks off here', chunk_delay_ms: 20 }],
  default: { chunk_delay_ms: 2 },
});

/** The transcript on screen is the same after a reload (it comes from IndexedDB then). */
async function sameAfterReload(page, ready = '.badge.done') {
  const turns = await transcript(page);
  await page.reload();
  await page.waitForSelector(ready);
  assert.deepEqual(await transcript(page), turns);
}

async function start(page, topic) {
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin-model', key: 'sk-old', callHeader: true });
  await page.fill('#topic', topic);
  await page.fill('#rounds', '1');
  await page.click('#start');
}

test('429: the wait counts down, then the debate carries on', async () => {
  await w.standin.setScript(atRoundSummary({ status: 429, headers: { 'retry-after': '2' }, body: 'rate limited' }));
  const { page } = await openApp(w.browser, w.site.url);
  await start(page, 'Rate limits are a fact of life?');
  const note = page.locator('.note.retry');
  await note.waitFor({ timeout: 20_000 });
  assert.match(await note.textContent(), /HTTP 429/);
  assert.match(await note.textContent(), /Trying again \(attempt 2 of 4\) in [12] s/);
  await page.waitForSelector('.badge.done', { timeout: 30_000 });
  const turns = await transcript(page);
  assert.equal(turns.filter(t => t.status === 'done').length, 11);
  assert.equal(turns.filter(t => t.status === 'failed').length, 0, 'no turn shows as failed: its call was answered');
  assert.equal(turns.filter(t => t.status === 'retried').length, 1, 'the failed attempt stays visible, as a quiet note');
  await page.reload();
  await page.waitForSelector('.badge.done');
  assert.deepEqual(await transcript(page), turns);
});

test("429 with the provider's reset headers instead of Retry-After: the wait follows them", async () => {
  await w.standin.setScript(atRoundSummary({
    status: 429,
    headers: { 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '5s', 'x-ratelimit-reset-requests': '20ms' },
    body: 'rate limited',
  }));
  const { page } = await openApp(w.browser, w.site.url);
  await start(page, 'Reset headers tell the wait?');
  const note = page.locator('.note.retry');
  await note.waitFor({ timeout: 20_000 });
  // The used-up token limit resets in 5 s (plain backoff would wait about 1 s); the 20 ms
  // request reset is not the one that matters.
  assert.match(await note.textContent(), /Trying again \(attempt 2 of 4\) in [45] s/);
  await page.waitForSelector('.badge.done', { timeout: 30_000 });
});

for (const status of [500, 502, 503, 529]) {
  test(`${status}: retried with backoff`, async () => {
    await w.standin.setScript(atRoundSummary({ status }));
    const { page } = await openApp(w.browser, w.site.url);
    await start(page, `Servers fail with ${status}?`);
    await page.waitForSelector('.note.retry', { timeout: 20_000 });
    await page.waitForSelector('.badge.done', { timeout: 30_000 });
    const log = await w.standin.log();
    assert.equal(log.filter(r => r.path === 'round/1/summary').length, 2);
    await sameAfterReload(page);
  });
}

test('503 on every attempt: after the cap the debate pauses, and Resume goes on once the provider is back', async () => {
  await w.standin.setScript({
    answers: [0, 1, 2, 3].map(occurrence => ({ seat: 'moderator', purpose: 'summary', occurrence, fault: { status: 503 } })),
    default: { chunk_delay_ms: 2 },
  });
  const { page } = await openApp(w.browser, w.site.url);
  await start(page, 'Outages last?');
  const note = page.locator('.note.error').first();
  await note.waitFor({ timeout: 60_000 });
  assert.match(await note.textContent(), /HTTP 503.*gave up after 4 attempts.*paused at this turn/);
  assert.equal(await page.textContent('.progress .badge'), 'Paused');
  const done = (await transcript(page)).filter(t => t.status === 'done').length;
  assert.equal(done, 7, 'everything said before the outage is kept');
  // The held debate's transcript is stored as it stands.
  await sameAfterReload(page, '#resume');
  await page.click('#resume');
  await page.waitForSelector('.badge.done', { timeout: 30_000 });
  assert.equal((await w.standin.log()).filter(r => r.path === 'round/1/summary').length, 5);
});

test('a stream cut mid-turn is retried; the cut attempt stays visible and is not fed on', async () => {
  await w.standin.setScript(atRoundSummary({ cut_after_bytes: 18 }));
  const { page } = await openApp(w.browser, w.site.url);
  await start(page, 'Streams break?');
  await page.waitForSelector('.badge.done', { timeout: 30_000 });
  const failed = (await transcript(page)).filter(t => t.status === 'retried');
  assert.equal(failed.length, 1);
  assert.equal(failed[0].text, 'Half a summary tha');
  const later = (await w.standin.log()).filter(r => r.path.startsWith('closing') || r.path === 'summary');
  assert.ok(later.length === 3 && later.every(r => !JSON.stringify(r.messages).includes('Half a summary tha')));
  await sameAfterReload(page);
});

test('401: the debate pauses with a message, keeps its transcript, and resumes once the key is fixed', async () => {
  await w.standin.setScript(atRoundSummary({ status: 401, body: 'Incorrect API key provided: sk-old' }));
  const { page } = await openApp(w.browser, w.site.url);
  await start(page, 'Keys expire?');
  await page.locator('.note.error').first().waitFor({ timeout: 30_000 });
  assert.equal(await page.textContent('.progress .badge'), 'Paused');
  const message = await page.locator('.note.error').first().textContent();
  assert.match(message, /Moderator's turn failed: Stand-in \(standin-model\) answered HTTP 401\. Check the API key/);
  assert.ok(!message.includes('sk-old'), 'the key is redacted from the message');
  const before = (await transcript(page)).filter(t => t.status === 'done');
  assert.equal(before.length, 7);
  const url = page.url();
  // A reload ends the paused run in this tab; the log keeps everything said.
  await page.reload();
  await page.waitForSelector('#resume');
  assert.deepEqual((await transcript(page)).filter(t => t.status === 'done'), before);

  // Fix the key. The connection survived the reload (keys do not: they live in memory).
  await page.getByRole('link', { name: 'New debate' }).click();
  await page.selectOption('#connection', { label: 'Stand-in' });
  await page.click('#edit-connection');
  assert.equal(await page.inputValue('#conn-key'), '');
  await page.fill('#conn-key', 'sk-new');
  await page.click('#conn-save');
  // Back to the debate inside the app: a page load would forget the key again.
  await page.getByRole('link', { name: 'History' }).click();
  await page.locator('.history-row a.history-topic', { hasText: 'Keys expire?' }).click();
  assert.equal(page.url(), url);
  await page.waitForSelector('#resume');
  await page.click('#resume');
  await page.waitForSelector('.badge.done', { timeout: 30_000 });
  const note = await page.locator('.note.error').last().textContent().catch(() => '');
  assert.ok(await page.locator('.badge.done').isVisible(), note);
  const after = await transcript(page);
  assert.equal(after.filter(t => t.status === 'done').length, 11);
  const summaries = (await w.standin.log()).filter(r => r.path === 'round/1/summary');
  assert.equal(summaries.length, 2, 'resumed from the failed call, not from the start');
  assert.equal((await w.standin.log()).filter(r => r.path === 'opening/moderator').length, 1);
});

test('404: the debate pauses with a message naming the model, and Resume tries the call again in place', async () => {
  await w.standin.setScript(atRoundSummary({ status: 404, body: 'The model `standin-model` does not exist' }));
  const { page } = await openApp(w.browser, w.site.url);
  await start(page, 'Models vanish?');
  const note = page.locator('.note.error').first();
  await note.waitFor({ timeout: 30_000 });
  assert.match(await note.textContent(), /standin-model.*HTTP 404\. The provider does not know this model.*paused at this turn/);
  assert.equal(await page.textContent('.progress .badge'), 'Paused');
  // Held, not ended: nothing more goes out until the user resumes.
  await page.waitForTimeout(1000);
  assert.equal((await w.standin.log()).filter(r => r.path === 'round/1/summary').length, 1);
  await page.click('#resume');
  await page.waitForSelector('.badge.done', { timeout: 30_000 });
  assert.equal((await w.standin.log()).filter(r => r.path === 'round/1/summary').length, 2);
  assert.equal((await transcript(page)).filter(t => t.status === 'done').length, 11);
  await sameAfterReload(page);
});

test('credit used up and an unknown model hold the debate with what to do, not retried; an overload is tried again', async () => {
  const held = [
    { fault: { status: 429, body: '{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","code":"insufficient_quota"}}' },
      said: /answered HTTP 429\. The account's credit or quota is used up: add credit or raise the limit with the provider, then resume/ },
    { fault: { status: 404, body: '{"error":{"message":"The model `standin-model` does not exist or you do not have access to it.","type":"invalid_request_error","code":"model_not_found"}}' },
      said: /answered HTTP 404\. The provider does not know this model: check its name/ },
  ];
  for (const { fault, said } of held) {
    await w.standin.setScript(atRoundSummary(fault));
    const { page } = await openApp(w.browser, w.site.url);
    await start(page, `Held at HTTP ${fault.status}?`);
    await page.locator('.note.error').first().waitFor({ timeout: 30_000 });
    assert.equal(await page.textContent('.progress .badge'), 'Paused');
    assert.match(await page.locator('.note.error').first().textContent(), said);
    assert.equal(await page.locator('.note.retry').count(), 0, 'waiting cannot fix it: not retried');
    assert.equal((await w.standin.log()).filter(r => r.path === 'round/1/summary').length, 1);
    await page.click('#stop').catch(() => {});
    await page.context().close();
  }
  await w.standin.setScript(atRoundSummary({ status: 529, body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' }));
  const { page } = await openApp(w.browser, w.site.url);
  await start(page, 'Overloaded for everyone?');
  const note = page.locator('.note.retry');
  await note.waitFor({ timeout: 20_000 });
  assert.match(await note.textContent(), /overloaded for everyone just now \(not a limit of this account\)/);
  await page.waitForSelector('.badge.done', { timeout: 30_000 });
});
