// The local model server on the real model: what Agora relies on from it. Run by the test
// command's tier 5 (AGORA_GGUF names the model; skipped without it), and alone with
//   AGORA_GGUF=~/.cache/agora/models/SmolLM2-135M-Instruct.Q4_1.gguf node --test local-model/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chatHistory, readSampling } from './request.mjs';

const gguf = process.env.AGORA_GGUF;
const skip = !gguf && 'AGORA_GGUF is not set';
let server, base;

before(async () => {
  if (!gguf) return;
  server = spawn(process.execPath, [fileURLToPath(new URL('server.mjs', import.meta.url)), '--model', gguf, '--alias', 'smollm2-test', '--port', '0', '--slots', '2'], { stdio: ['ignore', 'pipe', 'inherit'] });
  base = await new Promise((resolve, reject) => {
    let seen = '';
    server.stdout.on('data', b => { seen += b; const m = seen.match(/on (http:\/\/\S+\/v1)/); if (m) resolve(m[1]); });
    server.on('exit', code => reject(new Error(`the server exited (${code}) before listening`)));
  });
});
after(() => server?.kill());

const post = (body, headers = {}) => fetch(`${base}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const debater = [{ role: 'system', content: 'You are a debater arguing for compulsory voting. Be brief.' }];

/** A streamed answer's text, its last chunk's finish reason, and its usage chunk. */
async function streamed(body) {
  const res = await post({ ...body, stream: true, stream_options: { include_usage: true } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /text\/event-stream/);
  const events = (await res.text()).split('\n\n').filter(Boolean).map(e => e.replace(/^data: /, ''));
  assert.equal(events.at(-1), '[DONE]', 'the stream ends as OpenAI\'s does');
  const chunks = events.slice(0, -1).map(e => JSON.parse(e));
  const text = chunks.flatMap(c => c.choices.map(x => x.delta.content ?? '')).join('');
  const finish = chunks.flatMap(c => c.choices.map(x => x.finish_reason)).filter(Boolean);
  return { text, finish, usage: chunks.at(-1).usage, timings: chunks.at(-1).timings };
}

test('the model is listed under its alias, and a page of another origin may call it', { skip }, async () => {
  const models = await (await fetch(`${base}/models`)).json();
  assert.deepEqual(models.data.map(m => m.id), ['smollm2-test']);
  const pre = await fetch(`${base}/chat/completions`, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1:8080', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get('access-control-allow-origin'), '*');
  assert.match(pre.headers.get('access-control-allow-headers'), /authorization/);
});

test('a streamed answer stops at its token limit, says so, and counts its tokens', { skip }, async () => {
  const r = await streamed({ messages: [...debater, { role: 'user', content: 'Make your opening case.' }], max_tokens: 12, temperature: 0 });
  assert.ok(r.text.trim().length > 0);
  assert.deepEqual(r.finish, ['length']);
  assert.equal(r.usage.completion_tokens, 12);
  assert.ok(r.usage.prompt_tokens > 10);
  assert.equal(r.usage.total_tokens, r.usage.prompt_tokens + 12);
});

test("a seat's next turn reads only what follows what it read before", { skip }, async () => {
  const first = [...debater, { role: 'user', content: 'Make your opening case.' }];
  const a = await streamed({ messages: first, max_tokens: 8, temperature: 0 });
  // Another seat in between, as in a debate.
  await streamed({ messages: [{ role: 'system', content: 'You argue against it.' }, { role: 'user', content: 'Reply.' }], max_tokens: 4 });
  const b = await streamed({ messages: [...first, { role: 'assistant', content: a.text }, { role: 'user', content: 'Now rebut.' }], max_tokens: 4 });
  assert.ok(b.timings.cache_n >= a.usage.prompt_tokens - 1, `kept ${b.timings.cache_n} of the ${a.usage.prompt_tokens} tokens read before`);
  assert.equal(b.timings.cache_n + b.timings.prompt_n, b.usage.prompt_tokens);
});

test("a JSON Schema in llama.cpp's form holds the answer to it, and the answer ends with the JSON", { skip }, async () => {
  const schema = { type: 'object', properties: { score: { type: 'integer', enum: [1, 2, 3, 4, 5] }, why: { type: 'string', maxLength: 60 } }, required: ['score', 'why'], additionalProperties: false };
  const res = await post({ messages: [...debater, { role: 'user', content: 'Score the case from 1 to 5 and say why.' }], max_tokens: 120, response_format: { type: 'json_object', schema } });
  const body = await res.json();
  const answer = JSON.parse(body.choices[0].message.content);
  assert.equal(body.choices[0].finish_reason, 'stop');
  assert.deepEqual(Object.keys(answer).sort(), ['score', 'why']);
  assert.ok([1, 2, 3, 4, 5].includes(answer.score));
  assert.ok(answer.why.length <= 60);
});

test("OpenAI's schema form is refused with a 400 naming response_format, as Agora's form probe expects", { skip }, async () => {
  const res = await post({ messages: debater, response_format: { type: 'json_schema', json_schema: { name: 'r', schema: { type: 'object' } } } });
  assert.equal(res.status, 400);
  assert.match((await res.json()).error.message, /response_format/);
});

test('bad requests are answered with what is wrong, and the server goes on', { skip }, async () => {
  for (const [body, said] of [['{', /not JSON/], [JSON.stringify({ messages: [] }), /non-empty/], [JSON.stringify({ messages: [{ role: 'robot', content: 'x' }] }), /role 'robot'/]]) {
    const res = await fetch(`${base}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    assert.equal(res.status, 400);
    assert.match((await res.json()).error.message, said);
  }
  const long = 'word '.repeat(5000);
  const over = await post({ messages: [{ role: 'user', content: long }] });
  assert.equal(over.status, 400);
  assert.match((await over.json()).error.message, /exceed context window/);
  assert.equal((await post({ messages: debater, max_tokens: 2 })).status, 200);
});

test('messages become a chat history ending in the model\'s turn; text parts are joined', () => {
  assert.deepEqual(chatHistory([{ role: 'system', content: 's' }, { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }, { role: 'assistant', content: 'c' }]), [
    { type: 'system', text: 's' }, { type: 'user', text: 'ab' }, { type: 'model', response: ['c'] }, { type: 'model', response: [] },
  ]);
  assert.throws(() => chatHistory([{ role: 'user', content: [{ type: 'image_url' }] }]), /only text parts/);
});

test("sampling settings left out take llama.cpp's defaults; out-of-range ones are refused", () => {
  assert.deepEqual(readSampling({}), { maxTokens: undefined, temperature: 0.8, topP: 0.95, seed: undefined, stop: [] });
  assert.equal(readSampling({ max_completion_tokens: 7, max_tokens: 9 }).maxTokens, 7);
  assert.deepEqual(readSampling({ stop: 'END' }).stop, ['END']);
  assert.throws(() => readSampling({ temperature: 3 }), /temperature/);
  assert.throws(() => readSampling({ max_tokens: 0 }), /max_tokens/);
});
