// The local model Agora uses with no key: a GGUF run by llama.cpp behind the part of OpenAI's
// chat completions API that Agora speaks, on a port of this computer.
//
// llama.cpp comes prebuilt from the npm registry (node-llama-cpp's packages carry a build for
// each x86-64 CPU family and load the one the CPU runs), so nothing is compiled on install.
// What it serves, as llama.cpp's own servers do:
//   GET  /v1/models             the one model, under --alias
//   POST /v1/chat/completions   streamed (SSE, with usage when asked) or not; a JSON Schema in
//                               llama.cpp's form, {"type": "json_object", "schema": …}, or
//                               plain JSON mode, is held by a grammar; OpenAI's form
//                               ({"type": "json_schema"}) is refused with a 400 naming
//                               response_format, as llama-cpp-python refuses it, so Agora asks
//                               again in llama.cpp's form (src/session/schema_forms.rs), whose
//                               schema it bounds for a grammar (src/llm/grammar_schema.rs)
//   GET  /health
// Requests are answered one at a time, in order. The model's state after each answer is kept
// in one of --slots sequences, and a request goes to the one whose kept prompt shares the
// longest beginning with its own: a seat's next turn (its system prompt and the debate so
// far) reads only what is new.
//
//   node local-model/server.mjs --model FILE.gguf [--alias NAME] [--host 127.0.0.1]
//        [--port 8081] [--ctx 4096] [--slots 4] [--threads 1]
import http from 'node:http';
import { parseArgs } from 'node:util';
import { getLlama, resolveChatWrapper, LlamaGrammarEvaluationState } from 'node-llama-cpp';
import { chatHistory, readSampling, ApiError } from './request.mjs';

const { values: opt } = parseArgs({
  options: {
    model: { type: 'string' },
    alias: { type: 'string', default: 'local' },
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '8081' },
    ctx: { type: 'string', default: '4096' },
    slots: { type: 'string', default: '4' },
    // One thread by default: on a machine doing other work, llama.cpp's spinning threads
    // slowed prompt reading tenfold when they outnumbered the free cores.
    threads: { type: 'string', default: '1' },
  },
});
if (!opt.model) {
  console.error('usage: node server.mjs --model FILE.gguf [--alias NAME] [--port 8081]');
  process.exit(2);
}

// build: "never": only the prebuilt binaries; never a download or a compile.
const llama = await getLlama({ gpu: false, build: 'never', logLevel: 'warn' });
const model = await llama.loadModel({ modelPath: opt.model });
const context = await model.createContext({
  contextSize: Number(opt.ctx),
  sequences: Number(opt.slots),
  threads: Number(opt.threads),
});
const slots = Array.from({ length: Number(opt.slots) }, () => ({ seq: context.getSequence(), used: 0 }));
const chatWrapper = resolveChatWrapper(model);
const grammars = new Map();
let clock = 0;

/** The grammar a request's response_format asks for, if any (kept per schema). */
async function grammarFor(format) {
  if (format == null || format.type === 'text') return null;
  if (format.type === 'json_schema') {
    throw new ApiError(400, "response_format of type 'json_schema' is not supported by this server: send the JSON Schema as {\"type\": \"json_object\", \"schema\": …}, llama.cpp's form");
  }
  if (format.type !== 'json_object') throw new ApiError(400, `response_format of type '${format.type}' is not supported`);
  const key = JSON.stringify(format.schema ?? null);
  if (!grammars.has(key)) {
    try {
      grammars.set(key, format.schema ? await llama.createGrammarForJsonSchema(format.schema) : await llama.getGrammarFor('json'));
    } catch (e) {
      throw new ApiError(400, `response_format's schema could not be turned into a grammar: ${e.message}`);
    }
  }
  return grammars.get(key);
}

/** The slot for a prompt: the one whose kept tokens it mostly continues (half of them at
 * least, as llama.cpp's server judges a slot similar), else the least recently used, so that
 * a seat's kept turn is not overwritten by a prompt sharing only the template's first tokens. */
function slotFor(tokens) {
  const shared = kept => {
    let i = 0;
    while (i < kept.length && i < tokens.length && kept[i] === tokens[i]) i++;
    return i;
  };
  const similar = slots
    .map(s => ({ s, kept: s.seq.contextTokens.length, n: shared(s.seq.contextTokens) }))
    .filter(c => c.kept > 0 && c.n * 2 >= c.kept)
    .sort((a, b) => b.n - a.n);
  return similar[0]?.s ?? [...slots].sort((a, b) => a.used - b.used)[0];
}

/** Generates an answer, calling `onText` with each new piece of text. */
async function complete(body, onText, gone) {
  const history = chatHistory(body.messages);
  const sampling = readSampling(body);
  const grammar = await grammarFor(body.response_format);
  const tokens = chatWrapper.generateContextState({ chatHistory: history }).contextText.tokenize(model.tokenizer);
  const room = context.contextSize - tokens.length;
  if (room <= 0) {
    throw new ApiError(400, `Requested tokens (${tokens.length}) exceed context window of ${context.contextSize}`);
  }
  const maxTokens = Math.min(sampling.maxTokens ?? room, room);
  const slot = slotFor(tokens);
  slot.used = ++clock;
  const { seq } = slot;
  const started = performance.now();
  // Keeps the shared beginning, drops the rest; at least one token is read again, as the
  // next token is sampled from the last one read.
  await seq.adaptStateToTokens(tokens, false);
  if (seq.nextTokenIndex >= tokens.length) {
    await seq.eraseContextTokenRanges([{ start: tokens.length - 1, end: seq.nextTokenIndex }]);
  }
  const cached = seq.nextTokenIndex;
  const grammarEvaluationState = grammar ? new LlamaGrammarEvaluationState({ model, grammar }) : undefined;
  const stops = [...sampling.stop, ...(grammar?.stopGenerationTriggers ?? []).map(String).filter(t => t.length > 0)];
  const out = [];
  let sent = 0, text = '', finish = 'length', firstAt = null;
  const evaluation = seq.evaluate(tokens.slice(cached), {
    temperature: sampling.temperature,
    topK: 40,
    topP: sampling.topP,
    minP: 0.05,
    seed: sampling.seed,
    grammarEvaluationState,
    repeatPenalty: { penalty: 1.1, punishTokens: () => out.slice(-64) },
  });
  for await (const token of evaluation) {
    firstAt ??= performance.now();
    if (model.isEogToken(token)) { finish = 'stop'; break; }
    out.push(token);
    text = model.detokenize(out);
    const stop = stops.map(s => text.indexOf(s, Math.max(0, sent - s.length))).filter(i => i >= 0);
    if (stop.length) { text = text.slice(0, Math.min(...stop)); finish = 'stop'; }
    // A grammar for JSON lets whitespace follow the value: the answer ends with the value.
    if (grammar && finish !== 'stop' && /[}\]]$/.test(text) && parses(text)) finish = 'stop';
    // A character split over two tokens waits for its second half.
    if (!text.endsWith('\uFFFD') && text.length > sent) { onText(text.slice(sent)); sent = text.length; }
    if (finish === 'stop' || gone()) break;
    if (out.length >= maxTokens) break;
  }
  if (gone()) finish = 'cancelled';
  if (grammar?.trimWhitespaceSuffix) text = text.trimEnd();
  // As llama.cpp's server reports them: what was kept, read and generated, and how long each took.
  const timings = {
    cache_n: cached,
    prompt_n: tokens.length - cached,
    prompt_ms: Math.round((firstAt ?? performance.now()) - started),
    predicted_n: out.length,
    predicted_ms: Math.round(performance.now() - (firstAt ?? started)),
  };
  console.log(`answered: ${JSON.stringify(timings)}, ${finish}`);
  return {
    text: text.endsWith('\uFFFD') ? text.slice(0, sent) : text,
    finish,
    usage: { prompt_tokens: tokens.length, completion_tokens: out.length, total_tokens: tokens.length + out.length },
    timings,
  };
}

const parses = text => { try { JSON.parse(text); return true; } catch { return false; } };

// One request at a time, in the order they came.
let queue = Promise.resolve();
const inTurn = fn => { const p = queue.then(fn, fn); queue = p.catch(() => {}); return p; };

const cors = req => ({
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': req.headers['access-control-request-headers'] || '*',
  'access-control-allow-private-network': 'true',
  'access-control-max-age': '600',
});
const json = (req, res, status, value) => {
  res.writeHead(status, { ...cors(req), 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
};
const chunk = (id, created, delta, finish) => ({
  id, object: 'chat.completion.chunk', created, model: opt.alias,
  choices: [{ index: 0, delta, finish_reason: finish }],
});

async function chatCompletions(req, res) {
  let body;
  try {
    body = JSON.parse(await readBody(req));
  } catch (e) {
    throw e instanceof ApiError ? e : new ApiError(400, `the request's body is not JSON: ${e.message}`);
  }
  if (body === null || typeof body !== 'object') throw new ApiError(400, "the request's body is not a JSON object");
  const id = `chatcmpl-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const created = Math.floor(Date.now() / 1000);
  let closed = false;
  res.on('close', () => { closed = true; });
  const gone = () => closed && !res.writableEnded;
  if (!body.stream) {
    const r = await inTurn(() => complete(body, () => {}, gone));
    return json(req, res, 200, {
      id, object: 'chat.completion', created, model: opt.alias,
      choices: [{ index: 0, message: { role: 'assistant', content: r.text }, finish_reason: r.finish }],
      usage: r.usage,
      timings: r.timings,
    });
  }
  let head = false;
  const send = value => {
    if (!head) {
      res.writeHead(200, { ...cors(req), 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      head = true;
      res.write(`data: ${JSON.stringify(chunk(id, created, { role: 'assistant', content: '' }, null))}\n\n`);
    }
    res.write(`data: ${JSON.stringify(value)}\n\n`);
  };
  const r = await inTurn(() => (gone() ? null : complete(body, text => send(chunk(id, created, { content: text }, null)), gone)));
  if (!r || gone()) return;
  send(chunk(id, created, {}, r.finish));
  if (body.stream_options?.include_usage) send({ id, object: 'chat.completion.chunk', created, model: opt.alias, choices: [], usage: r.usage, timings: r.timings });
  res.end('data: [DONE]\n\n');
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const parts = [];
    let size = 0;
    req.on('data', b => {
      size += b.length;
      if (size > 16 << 20) { reject(new ApiError(413, 'the request is over 16 MiB')); req.destroy(); }
      else parts.push(b);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

const server = http.createServer(async (req, res) => {
  const path = new URL(req.url, 'http://x').pathname.replace(/\/+$/, '');
  try {
    if (req.method === 'OPTIONS') { res.writeHead(204, cors(req)); return res.end(); }
    if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
      return json(req, res, 200, { object: 'list', data: [{ id: opt.alias, object: 'model', owned_by: 'agora-local-model' }] });
    }
    if (req.method === 'GET' && path === '/health') return json(req, res, 200, { status: 'ok' });
    if (req.method === 'POST' && (path === '/v1/chat/completions' || path === '/chat/completions')) return await chatCompletions(req, res);
    throw new ApiError(404, `no ${req.method} ${path} here: this server answers /v1/models and /v1/chat/completions`);
  } catch (e) {
    const status = e instanceof ApiError ? e.status : 500;
    if (status === 500) console.error(e);
    if (res.headersSent) return res.end();
    json(req, res, status, { error: { message: e.message, type: status === 500 ? 'server_error' : 'invalid_request_error', code: status } });
  }
});
server.listen(Number(opt.port), opt.host, () => {
  console.log(`serving ${opt.alias} (${opt.model}) on http://${opt.host}:${server.address().port}/v1: ${slots.length} slots of ${context.contextSize} tokens, ${opt.threads} thread(s)`);
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { server.close(); process.exit(0); });
