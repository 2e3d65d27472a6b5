// Usage and cost as a user meets them: the model list in the connection form, prices and
// the estimate before Start, cost per turn, per seat and per debate while it runs, a
// spending cap that pauses and a raised cap that goes on, the exact request under a turn
// (key redacted), and the Markdown and JSON exports with the cost in them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { world, openApp } from './harness.mjs';

const w = world('e2e-classic.json');
const KEY = 'sk-cost-test-7c1e55';

async function download(page, button) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  return { name: d.suggestedFilename(), text: await readFile(await d.path(), 'utf8') };
}

test('prices, estimate, live cost, spending cap, request view and exports', async () => {
  // Every call reports 1,000 tokens in and 200 out.
  await w.standin.setScript({ default: { chunk_delay_ms: 5, usage: { input_tokens: 1000, output_tokens: 200 } } });
  const { page } = await openApp(w.browser, w.site.url);

  // The connection form lists the provider's models.
  await page.getByRole('button', { name: /Add a connection/ }).click();
  await page.selectOption('#conn-provider', 'Other OpenAI-compatible');
  await page.fill('#conn-name', 'Stand-in');
  await page.fill('#conn-url', `${w.standin.base}/v1`);
  await page.fill('#conn-model', '');
  await page.fill('#conn-key', KEY);
  await page.click('#conn-list-models');
  await page.getByText('1 model listed').waitFor();
  assert.deepEqual(await page.$$eval('#conn-models option', os => os.map(o => o.value)), ['standin']);
  await page.fill('#conn-model', 'standin');
  await page.fill('#conn-concurrency', '2');
  await page.check('#conn-call-header');
  await page.click('#conn-save');

  await page.fill('#topic', 'Is a spending cap a good idea?');
  await page.fill('#rounds', '1');
  // Educational: eleven calls, none of them scores, so each costs the same.
  await page.selectOption('#style', 'educational');
  // The stand-in runs on this machine, and a local server is free until priced.
  assert.equal(await page.textContent('#plan'), '11 model calls planned · estimated cost $0.00–$0.00');
  await page.click('details.costs summary');
  await page.fill('#spending-cap', '0.02');
  // A price that cannot be read is refused with the reason, not dropped.
  await page.fill('[aria-label="standin input price"]', '3,5');
  await page.dispatchEvent('[aria-label="standin input price"]', 'change');
  assert.match(await page.locator('.price-row [role=alert]').innerText(), /not a price/);
  await page.fill('[aria-label="standin input price"]', '3');
  await page.dispatchEvent('[aria-label="standin input price"]', 'change');
  await page.fill('[aria-label="standin output price"]', '15');
  await page.dispatchEvent('[aria-label="standin output price"]', 'change');
  assert.equal(await page.locator('.price-row [role=alert]').count(), 0);
  assert.match(await page.textContent('#plan'), /11 model calls planned · estimated cost \$0\.\d{4}–\$0\.\d{4}/);
  await page.click('#start');

  // $0.006 a call: a call starts only if its worst case (its prompt and its whole answer
  // limit) fits in what the cap of $0.02 leaves, so the debate pauses before the cap is
  // passed and says what the next call could cost and the cap that lets it start.
  const note = page.locator('.note', { hasText: 'could cost up to' });
  await note.waitFor({ timeout: 30_000 });
  const made = (await w.standin.log()).length;
  await page.waitForTimeout(1500);
  assert.equal((await w.standin.log()).length, made, 'no call goes out while the cap holds');
  assert.equal(await page.locator('.badge').first().textContent(), 'Paused');
  assert.ok(made >= 2 && made <= 3, `${made} calls before the cap`);
  const spent = Number(/^Cost \$(\d+\.\d+) of a \$0\.0200 cap/.exec(await page.textContent('#costs'))[1]);
  assert.ok(Math.abs(spent - 0.006 * made) < 1e-9 && spent <= 0.02, `spent $${spent}`);
  const [, next, atLeast] = /could cost up to \$(\d+\.\d+).*to at least \$(\d+\.\d+)/.exec(await note.textContent());
  assert.ok(Number(next) > 0.02 - spent && Number(atLeast) >= spent + Number(next), await note.textContent());
  // The cap it names is enough: that very call goes out.
  await page.fill('#cap-input', atLeast);
  await page.click('form.cap button');
  await page.waitForFunction(n => document.querySelectorAll('.turn .usage').length > n, made, { timeout: 30_000 });
  // The stand-in logs a request once its answer has gone out, which can be just after
  // the page shows the answer's usage: wait for it, briefly.
  for (let t = 0; (await w.standin.log()).length <= made && t < 50; t++) await page.waitForTimeout(100);
  assert.ok((await w.standin.log()).length > made, 'the call the named cap allows goes out');
  await page.fill('#cap-input', '1');
  await page.click('form.cap button');
  await page.waitForSelector('.badge.done', { timeout: 60_000 });
  assert.equal((await w.standin.log()).length, 11);
  assert.match(await page.textContent('#costs'), /^Cost \$0\.0660 of a \$1\.00 cap/);
  const meta = await page.$$eval('.turn .usage', us => us.map(u => u.textContent));
  assert.equal(meta.length, 11);
  assert.ok(meta.every(m => m === '1000 tokens in, 200 out · $0.0060'), meta.join('\n'));

  // The exact request under a turn, with the key replaced.
  await page.click('.turn >> nth=0 >> details.request summary');
  const request = await page.textContent('.turn >> nth=0 >> details.request pre');
  assert.ok(request.startsWith(`POST ${w.standin.base}/v1/chat/completions`), request);
  assert.match(request, /Authorization: Bearer \[key\]/);
  assert.match(request, /"stream_options"/);
  assert.ok(!request.includes(KEY));

  // Exports: the transcript with its cost, and the whole log with a cost summary.
  const md = await download(page, '#export-md');
  assert.equal(md.name, 'is-a-spending-cap-a-good-idea.md');
  assert.match(md.text, /^# Is a spending cap a good idea\?/);
  assert.match(md.text, /\| \*\*Total\*\* \| \*\*\$0\.0660\*\* \|/);
  assert.match(md.text, /> Spending cap set to \$1\.00\./);
  const json = await download(page, '#export-json');
  const doc = JSON.parse(json.text);
  assert.ok(Math.abs(doc.cost.total - 0.066) < 1e-9);
  assert.equal(doc.events.filter(e => e.kind.TurnFinished).length, 11);
  for (const f of [md, json]) assert.ok(!f.text.includes(KEY), `${f.name} holds the key`);

  // After a reload the cost is the same: it comes from the log and the prices it started with.
  const costs = await page.textContent('#costs');
  await page.reload();
  await page.waitForSelector('.badge.done');
  assert.equal(await page.textContent('#costs'), costs);
});

// On a slow machine Chromium once left the cap field inside the just-opened "Prices" section
// with a zero-size box (hidden to scripts and test drivers, though painted) until the next
// full paint. A CPU slowed fifteenfold brings that back, as it did 2 runs in 5 before the
// fix: each field of the opened section must be fillable at once.
test('fields in an opened section can be filled at once on a slow machine', async () => {
  const { page, context } = await openApp(w.browser, w.site.url);
  await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: 15 });
  for (let i = 0; i < 6; i++) {
    await page.fill('#topic', `Slow machine ${i}`);
    await page.fill('#rounds', String(i % 3 + 1));
    await page.click('details.costs summary');
    await page.fill('#spending-cap', `0.0${i + 1}`, { timeout: 5000 });
    assert.equal(await page.inputValue('#spending-cap'), `0.0${i + 1}`);
    await page.click('details.seats summary');
    await page.selectOption('details.seats select >> nth=0', { index: 0 }, { timeout: 5000 });
    await page.click('details.costs summary');
    await page.click('details.seats summary');
  }
  await context.close();
});
