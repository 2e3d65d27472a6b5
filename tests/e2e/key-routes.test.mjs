// Where a key may go: a connection moved to another origin loses its key;
// every base URL the rule refuses is refused by Save and by "List the provider's models",
// and a stored one by "Test connection" and by a debate, before anything leaves the page;
// a Gemini model name cannot reshape the URL; the Request view is the sent request byte for
// byte, only the key replaced.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { world, openApp, addConnection, startStandin } from './harness.mjs';

const w = world('e2e-classic.json');
let other; // a second server: another origin
before(async () => { other = await startStandin('e2e-classic.json'); });
after(() => other?.close());

const requests = async s => (await fetch(`${s.base}/__requests`)).json();

/** Waits until the element's text matches (the view updates after the click's handler). */
async function waitText(page, selector, re) {
  await page.waitForFunction(([sel, src, flags]) => new RegExp(src, flags).test(document.querySelector(sel)?.textContent ?? ''),
    [selector, re.source, re.flags], { timeout: 5_000 }).catch(async () => {
    assert.fail(`${selector} says ${JSON.stringify(await page.locator(selector).textContent().catch(() => null))}, not ${re}`);
  });
}
const authorized = r => r.headers.authorization !== undefined;

/** Every request the page makes that is not for its own files. */
// The page's own no-key probes at load (does the local model server answer, is a model
// file served beside the app?): no key, no connection of the user's.
const PROBE = /^http:\/\/127\.0\.0\.1:8081\/v1\/models$|\/models\/SmolLM2-135M-Instruct\.Q4_1\.gguf$/;

function outgoing(page, site) {
  const seen = [];
  page.on('request', r => { if (!r.url().startsWith(site) && !PROBE.test(r.url())) seen.push(`${r.method()} ${r.url()}`); });
  return seen;
}

test('a connection moved to another origin drops its key; a new path on the same origin keeps it', async () => {
  await w.standin.setScript({ default: { chunk_delay_ms: 1 } });
  await other.setScript({ default: { chunk_delay_ms: 1 } });
  const key = 'sk-moving-0123456789abcdef';
  const { page } = await openApp(w.browser, w.site.url);
  await page.getByRole('button', { name: /Add a connection/ }).click();
  await page.fill('#conn-name', 'Mover');
  await page.fill('#conn-url', `${w.standin.base}/v1`);
  await page.fill('#conn-model', 'standin');
  await page.fill('#conn-key', key);
  await page.check('#conn-remember');
  await page.check('#conn-call-header');
  await page.click('#conn-save');
  assert.equal(await page.evaluate(() => Object.keys(localStorage).filter(k => k.startsWith('agora.key.')).length), 1);

  // Same origin, another path: the key stays (nothing to warn about).
  await page.click('#edit-connection');
  await page.fill('#conn-url', `${w.standin.base}/another/path/v1`);
  assert.equal(await page.locator('#conn-key-dropped').count(), 0);
  await page.click('#conn-save');
  await page.click('#test-connection');
  await page.locator('p.ok[role=status]').waitFor();
  assert.ok((await requests(w.standin)).every(authorized), 'the key went with the same-origin request');

  // Another origin: the form says the key stays behind, and neither List nor Save nor
  // the next call sends it there.
  await page.click('#edit-connection');
  await page.fill('#conn-url', `${other.base}/v1`);
  await page.locator('#conn-key-dropped').waitFor();
  assert.match(await page.getAttribute('#conn-key', 'placeholder'), /Enter the key again/);
  await page.click('#conn-list-models');
  await page.locator('.connection-form [role=status]:has-text("model listed")').waitFor();
  await page.click('#conn-save');
  await page.click('#test-connection');
  await page.locator('p.ok[role=status]').waitFor();
  const there = await requests(other);
  assert.deepEqual(there.map(r => `${r.method} ${r.target}`), ['GET /v1/models', 'POST /v1/chat/completions']);
  assert.ok(!there.some(authorized), `the key reached the new origin: ${JSON.stringify(there.map(r => r.headers))}`);
  assert.ok(!JSON.stringify(there).includes(key));
  assert.deepEqual(await page.evaluate(() => Object.keys(localStorage).filter(k => k.startsWith('agora.key.'))), [],
    'the remembered key was removed with it');

  // Typing the key for the new address is what sends it there.
  await page.click('#edit-connection');
  await page.fill('#conn-key', 'sk-for-the-new-server-42');
  await page.click('#conn-save');
  await page.click('#test-connection');
  await page.waitForFunction(() => document.querySelector('p.ok[role=status]'));
  assert.ok((await requests(other)).slice(-1).every(authorized));
});

// Each refused base URL, with the reason the form gives. The Anthropic one without a
// scheme is the case that used to become a fetch relative to the page: the key went to
// whoever serves Agora.
const refused = port => [
  ['Anthropic', 'api.anthropic.com/v1', /full address starting with https:\/\//],
  ['Other OpenAI-compatible', '//api.example.com/v1', /full address/],
  ['Other OpenAI-compatible', 'ftp://api.example.com/v1', /not ftp:\/\//],
  ['Other OpenAI-compatible', 'javascript:alert(1)//x', /full address/],
  ['OpenAI', 'http://api.openai.com/v1', /must use https:\/\//],
  ['Other OpenAI-compatible', `http://192.168.1.20:${port}/v1`, /only for a server on this machine/],
  ['Other OpenAI-compatible', `http://localhost.evil.example:${port}/v1`, /must use https/],
  ['Google Gemini', `http://user:secret@127.0.0.1:${port}/v1beta`, /user name or password/],
  ['OpenAI', 'https://api.openai.com@evil.example/v1', /user name or password/],
  ['OpenRouter', 'https://openrouter.ai/api/v1?debug=1', /query string/],
  ['Other OpenAI-compatible', `http://127.0.0.1:${port}/v1#frag`, /query string/],
  ['Other OpenAI-compatible', `http://[::1]:${port}/v1`, /Use http:\/\/localhost instead/],
  ['Other OpenAI-compatible', 'https://api.example.com\\@evil.example/v1', /backslashes/],
  ['Other OpenAI-compatible', 'https://api.example.com:99999/v1', /port/],
];

test('every refused base URL is refused by Save and by List, and nothing leaves the page', async () => {
  await w.standin.setScript({ default: { chunk_delay_ms: 1 } });
  const { page } = await openApp(w.browser, w.site.url);
  const seen = outgoing(page, w.site.url);
  const own = [];
  page.on('request', r => { if (r.url().startsWith(w.site.url) && !/\.(js|wasm|css|svg|html)$|\/$/.test(r.url()) && !PROBE.test(r.url())) own.push(r.url()); });
  await page.getByRole('button', { name: /Add a connection/ }).click();
  for (const [provider, url, why] of refused(new URL(w.standin.base).port)) {
    await page.selectOption('#conn-provider', provider);
    await page.fill('#conn-url', url);
    await page.fill('#conn-model', 'some-model');
    await page.fill('#conn-key', 'sk-never-sent-0123456789');
    await page.click('#conn-list-models');
    await waitText(page, '.connection-form .row [role=status].error', why);
    await page.click('#conn-save');
    await waitText(page, '.connection-form p.error[role=alert]', why);
  }
  await page.waitForTimeout(300);
  assert.deepEqual(seen, [], 'a request left the page');
  assert.deepEqual(own, [], 'a request went to the page\'s own server');
  assert.deepEqual(await requests(w.standin), []);
  assert.equal(await page.locator('#connection option:not([value=""])').count(), 3, 'only the built-in connections exist (local model, in this browser, the demo)');
});

test('a stored connection with a bad URL (from an older Agora) is refused by Test and by a debate', async () => {
  await w.standin.setScript({ default: { chunk_delay_ms: 1 } });
  const context = await w.browser.newContext();
  await context.addInitScript(() => {
    // Not in the blank document a new page starts with, which has no storage.
    if (location.protocol === 'about:' || localStorage.getItem('agora.connections')) return;
    localStorage.setItem('agora.connections', JSON.stringify([{ id: 'c-old', label: 'Old Anthropic',
      kind: 'anthropic', base_url: 'api.anthropic.com/v1', default_model: 'claude-x', context_tokens: 200000,
      concurrency: 2, stall_ms: 60000, remember_key: true }]));
    localStorage.setItem('agora.key.c-old', 'sk-ant-stored-0123456789');
  });
  const page = await context.newPage();
  const seen = outgoing(page, w.site.url);
  const own = [];
  // A provider's endpoints (…/messages, …/models), not the page's own files that share a word
  // with them (inpage/models.js, fetched whenever the in-page panel is drawn).
  page.on('request', r => { if (/\/(messages|models)$/.test(new URL(r.url()).pathname) && !PROBE.test(r.url())) own.push(r.url()); });
  await page.goto(w.site.url);
  await page.waitForSelector('#start:not([disabled])');
  await page.selectOption('#connection', { label: 'Old Anthropic' });
  await page.click('#test-connection');
  await waitText(page, 'p.error[role=status]', /full address starting with https/);
  await page.fill('#topic', 'Old URLs never get a key?');
  await page.fill('#rounds', '1');
  await page.click('#start');
  await page.getByText(/full address starting with https.*Edit connection/).first().waitFor({ timeout: 20_000 });
  assert.deepEqual(seen, []);
  assert.deepEqual(own, []);
  await context.close();
});

test('a Gemini model name is one path segment: ?, # and /.. cannot reshape the URL', async () => {
  await w.standin.setScript({ default: { chunk_delay_ms: 1 } });
  const { page } = await openApp(w.browser, w.site.url);
  await page.getByRole('button', { name: /Add a connection/ }).click();
  await page.selectOption('#conn-provider', 'Google Gemini');
  await page.fill('#conn-url', `${w.standin.base}/v1beta`);
  const model = 'gemini-x?alt=json&key=leak#frag/../../../__script';
  await page.fill('#conn-model', model);
  await page.fill('#conn-key', 'AIza-test-key-0123456789');
  await page.click('#conn-save');
  await page.fill('#model', model);
  await page.click('#test-connection');
  await page.locator('p.error[role=status]').waitFor({ timeout: 20_000 });
  const sent = await requests(w.standin);
  assert.deepEqual(sent.map(r => `${r.method} ${r.target}`), [
    'POST /v1beta/models/gemini-x%3Falt%3Djson%26key%3Dleak%23frag%2F..%2F..%2F..%2F__script:streamGenerateContent?alt=sse',
  ]);
  assert.equal(sent[0].headers['x-goog-api-key'], 'AIza-test-key-0123456789', 'the key goes in its header, never the URL');
});

test('the Request view is the sent request, byte for byte, with only the key replaced', async () => {
  await w.standin.setScript({ default: { chunk_delay_ms: 1 } });
  const key = 'sk-view-0123456789';
  const { page } = await openApp(w.browser, w.site.url);
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', key, callHeader: true });
  // Words a key-shaped guess would have mangled, and markup, stay as written.
  const topic = 'Is a risk-free, task-based sk-proj-NOTAKEY plan <b>better</b> "quoted" ünïcode?';
  await page.fill('#topic', topic);
  await page.fill('#rounds', '1');
  await page.click('#start');
  await page.waitForSelector('.badge.done', { timeout: 60_000 });
  const shown = await page.$$eval('details.request pre', ps => ps.map(p => p.textContent));
  const sent = (await requests(w.standin)).filter(r => r.method === 'POST');
  // A request view under each of the 11 turns; the 2 scores of a formal debate are sent too.
  assert.equal(shown.length, 11);
  assert.equal(sent.length, 13);
  for (const view of shown) {
    const [head, body] = [view.slice(0, view.indexOf('\n\n')), view.slice(view.indexOf('\n\n') + 2)];
    const [first, ...headers] = head.split('\n');
    const call = headers.find(h => h.startsWith('X-Agora-Call: ')).slice('X-Agora-Call: '.length);
    const match = sent.find(r => r.headers['x-agora-call'] === call);
    assert.ok(match, `no request was sent for ${call}`);
    assert.equal(first, `POST ${w.standin.base}${match.target}`);
    assert.equal(body, match.body, `${call}: the body shown is not the body sent`);
    assert.ok(body.includes(JSON.stringify(topic).slice(1, -1)), 'the topic is in the body as written');
    for (const h of headers) {
      const [name, value] = [h.slice(0, h.indexOf(': ')), h.slice(h.indexOf(': ') + 2)];
      assert.equal(value, match.headers[name.toLowerCase()].replace(key, '[key]'), `${call}: header ${name}`);
    }
  }
  assert.ok(shown.every(v => v.includes('Authorization: Bearer [key]') && !v.includes(key)));
});
