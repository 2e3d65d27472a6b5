// How a connection asks for structured answers: a server that refuses OpenAI's json_schema
// form (as llama-cpp-python does, with a 500 naming response_format) is asked again in
// llama.cpp's form, the debate goes on, and the connection keeps the form that worked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { world, openApp, addConnection, dumpIndexedDb } from './harness.mjs';

const w = world('e2e-classic.json');
const REFUSAL = "1 validation error: {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\"}";

test("a server refusing OpenAI's schema form is asked in llama.cpp's, and the connection keeps it", async () => {
  await w.standin.setScript({
    answers: [{ seat: 'moderator', purpose: 'evaluation', path: 'score/position-a', occurrence: 0, fault: { status: 500, body: REFUSAL } }],
    default: { chunk_delay_ms: 2 },
  });
  const { page } = await openApp(w.browser, w.site.url);
  await addConnection(page, { name: 'Llama-like', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  assert.match(await page.locator('#structured-mode').textContent(), /not tried on this server yet.*OpenAI's form/);
  await page.fill('#topic', 'Do servers agree on JSON?');
  await page.fill('#rounds', '1');
  await page.check('#scoring');
  await page.click('#start');
  await page.waitForSelector('.badge.done', { timeout: 60_000 });

  // The refused attempt is kept in the debate's log with what happened (scores are not
  // turns of the transcript); both positions are scored, from the first answer each.
  const stored = await dumpIndexedDb(page);
  assert.match(stored, /does not take a JSON Schema in OpenAI's form[^"]*asks again with a JSON Schema in llama\.cpp's form/);
  assert.equal(await page.locator('#structured-reads').getAttribute('data-parsed'), '2');
  assert.equal(await page.locator('.classic-score[data-total]').count(), 2, 'both scores read');
  assert.ok(!(await page.locator('.badge.paused').count()), 'never held');

  // On the wire: OpenAI's form once, then llama.cpp's for every structured call.
  const requests = await (await fetch(`${w.standin.base}/__requests`)).json();
  const forms = requests
    .map(r => JSON.parse(r.body))
    .filter(b => b.response_format)
    .map(b => b.response_format.type + (b.response_format.schema ? '+schema' : ''));
  assert.deepEqual(forms, ['json_schema', 'json_object+schema', 'json_object+schema']);

  // Kept on the connection, and after a reload.
  await page.getByRole('link', { name: /New debate/ }).first().click();
  await page.selectOption('#connection', { label: 'Llama-like' });
  assert.match(await page.locator('#structured-mode').textContent(), /asked for with a JSON Schema in llama\.cpp's form/);
  await page.reload();
  await page.waitForSelector('#start:not([disabled])');
  await page.selectOption('#connection', { label: 'Llama-like' });
  assert.match(await page.locator('#structured-mode').textContent(), /llama\.cpp's form/);
  await page.click('#edit-connection');
  assert.equal(await page.locator('#conn-schema-form').inputValue(), 'json_object_schema');
  // Pointing it at another server finds the form again.
  await page.fill('#conn-url', `${w.standin.base}/v2`);
  assert.equal(await page.locator('#conn-schema-form').inputValue(), 'auto');
});
