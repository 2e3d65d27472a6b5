// The in-page model's worker: wllama (llama.cpp compiled to WebAssembly, copied beside this
// file by the release build from package-lock.json's @wllama/wllama) loads a GGUF
// model and generates here, off the page's main thread. It also downloads models, checks
// them and keeps them in the Origin Private File System. Messages: see agora-inpage.js.
import { Wllama } from './wllama/index.js';
import { inspect, tooLarge } from './gguf.js';
import { dir, keyFor, nameOf, cachedFile, mb } from './models.js';

const WASM = new URL('./wllama/wllama.wasm', import.meta.url).href;
const quiet = { debug() {}, log() {}, warn() {}, error: (...a) => console.error(...a) };

let wllama = null;
let loadAbort = null;
let genAbort = null;
let queue = Promise.resolve();

onmessage = (e) => {
  const m = e.data;
  // Stop and Cancel act at once; everything else runs one after the other.
  if (m.op === 'stop') return genAbort?.abort();
  if (m.op === 'cancelLoad') return loadAbort?.abort();
  queue = queue.then(() => handle(m));
};

async function handle(m) {
  try {
    const out = await ops[m.op](m);
    postMessage({ id: m.id, ok: true, value: out });
  } catch (err) {
    const aborted = err?.name === 'AbortError' || err?.name === 'WllamaAbortError';
    postMessage({ id: m.id, ok: false, aborted, kept: !!wllama, message: String(err?.message || err) });
  }
}

// Streams a URL into OPFS under a temporary name, renamed only once complete and checked, so
// a cut or cancelled download leaves nothing behind.
async function download(url, key, memoryGb, signal, progress) {
  let res;
  try {
    res = await fetch(url, { signal });
  } catch (err) {
    if (signal.aborted) throw err;
    throw new Error(`The download of ${url} failed (${err.message}). Check the address and your connection; the server must also allow this page to fetch it (CORS).`);
  }
  if (!res.ok) throw new Error(`The download of ${url} failed: the server answered ${res.status} ${res.statusText}.`);
  const total = Number(res.headers.get('content-length')) || 0;
  // Refused before a byte is downloaded (a compressed body's length says nothing).
  const big = total && !res.headers.get('content-encoding') && tooLarge(total, memoryGb);
  if (big?.refuse) {
    res.body.cancel();
    throw new Error(big.message);
  }
  const d = await dir();
  // A download a closed tab left unfinished is never resumed: it only takes space.
  for await (const [name] of d.entries()) if (name.endsWith('.part')) await d.removeEntry(name).catch(() => {});
  const tmp = `${key}.part`;
  const handle = await d.getFileHandle(tmp, { create: true });
  const out = await handle.createWritable();
  let loaded = 0;
  const reader = res.body.getReader();
  try {
    for (;;) {
      let chunk;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (signal.aborted) throw err;
        throw new Error(`The download was cut after ${mb(loaded)}${total ? ` of ${mb(total)}` : ''} (${err.message}). Nothing was kept; try again.`);
      }
      if (chunk.done) break;
      await out.write(chunk.value);
      loaded += chunk.value.byteLength;
      progress(loaded, total);
    }
    if (total && loaded !== total && !res.headers.get('content-encoding')) {
      throw new Error(`The download was cut after ${mb(loaded)} of ${mb(total)}. Nothing was kept; try again.`);
    }
    await out.close();
  } catch (err) {
    await out.abort().catch(() => {});
    await d.removeEntry(tmp).catch(() => {});
    throw err;
  }
  return { handle, tmp, file: await handle.getFile() };
}

const ops = {
  async load({ source, memoryGb, threads, maxCtx }) {
    loadAbort = new AbortController();
    const signal = loadAbort.signal;
    let last = 0;
    const progress = (loaded, total) => {
      const now = performance.now();
      if (now - last < 200 && loaded !== total) return;
      last = now;
      postMessage({ progress: { loaded, total } });
    };
    let file, name, fromCache = false, staged = null, key = null;
    if (source.kind === 'file') {
      file = source.file;
      name = file.name;
    } else {
      key = await keyFor(source.url);
      name = nameOf(key);
      file = await cachedFile(key);
      fromCache = !!file;
      if (!file) {
        staged = await download(source.url, key, memoryGb, signal, progress);
        file = staged.file;
      }
    }
    try {
      // Not a GGUF, truncated, or too large: said before wllama sees it.
      const info = await inspect(file, name, memoryGb);
      if (signal.aborted) throw new DOMException('Cancelled', 'AbortError');
      postMessage({ progress: { phase: `Starting ${name}…` } });
      if (wllama) await wllama.exit().catch(() => {});
      wllama = new Wllama({ default: WASM }, { suppressNativeLog: true, logger: quiet });
      const nCtx = Math.min(info.contextLength || 2048, maxCtx);
      await wllama.loadModel([file], { n_ctx: nCtx, n_threads: threads, n_gpu_layers: 0 });
      // Complete and loadable: only now does it become the cached copy.
      if (staged) await staged.handle.move(key);
      return {
        name,
        bytes: file.size,
        nCtx: wllama.getLoadedContextInfo().n_ctx,
        nCtxTrain: info.contextLength,
        threads: wllama.getNumThreads(),
        multi: wllama.isMultithread(),
        fromCache,
        warning: info.warning,
      };
    } catch (err) {
      if (staged) await (await dir()).removeEntry(staged.tmp).catch(() => {});
      if (wllama && !wllama.isModelLoaded()) wllama = null;
      throw err;
    } finally {
      loadAbort = null;
    }
  },

  async generate({ req, id }) {
    if (!wllama?.isModelLoaded()) throw new Error('No model is loaded in this browser.');
    genAbort = new AbortController();
    let usage = null, finish = 'stop', count = 0;
    try {
      await wllama.createChatCompletion({
        messages: req.messages,
        max_tokens: req.max_tokens,
        stream_options: req.stream_options,
        temperature: req.temperature ?? 0.7,
        // `req` is the OpenAI-compatible body; a schema is followed by grammar, as
        // llama.cpp's server does.
        response_format: req.response_format,
        stream: true,
        abortSignal: genAbort.signal,
        onData: (chunk) => {
          const c = chunk.choices?.[0];
          const text = c?.delta?.content;
          if (text) {
            count++;
            postMessage({ token: text, id });
          }
          if (c?.finish_reason) finish = c.finish_reason;
          if (chunk.usage) usage = chunk.usage;
        },
      });
    } finally {
      genAbort = null;
    }
    // Without a usage report, about four characters a token (src/engine/tokens.rs).
    const chars = req.messages.reduce((n, m) => n + m.content.length, 0);
    return {
      input: usage?.prompt_tokens ?? Math.ceil(chars / 4),
      output: usage?.completion_tokens ?? count,
      estimated: !usage,
      length: finish === 'length',
    };
  },

};
