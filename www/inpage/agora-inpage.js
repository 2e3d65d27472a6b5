// The page's side of the "In this browser" connection: a few functions the app's Rust code
// calls (src/llm/inpage.rs), talking to worker.js, where wllama runs. Loaded only when that
// connection is used, by www/boot.js's import(); nothing here is part of the first load.

import { list, remove as removeModel, mb, keyFor } from './models.js';

// The copy of SmolLM2-135M that `bash .ci/serve` places beside the app.
export const SERVED = new URL('../models/SmolLM2-135M-Instruct.Q4_1.gguf', import.meta.url).href;
const MAX_CTX = 4096;
// The longest answer a call may generate here, in tokens: a small model on a CPU writes a
// few to a few dozen tokens a second, and rambles when let go, so a turn is kept short
// unless the user asks for more (the panel's "Longest answer" field).
// It and the address of the last model loaded from one are kept in localStorage (no key is
// ever among them), so the next visit starts that model from this browser's cache.
const KEPT = 'agora.inpage';
const kept = (() => { try { return JSON.parse(localStorage.getItem(KEPT)) || {}; } catch { return {}; } })();
const keep = (more) => { Object.assign(kept, more); try { localStorage.setItem(KEPT, JSON.stringify(kept)); } catch {} };
let maxAnswer = kept.maxAnswer >= 16 && kept.maxAnswer <= 4096 ? kept.maxAnswer : 400;

let worker = null;
let nextId = 1;
const pending = new Map();
let onProgress = null;
const onToken = new Map();
let loading = null;
let loaded = null;
let state = { busy: false, line: '', error: '' };

const isolated = () => self.crossOriginIsolated === true;
const threads = () => (isolated() ? Math.max(1, Math.min(navigator.hardwareConcurrency || 1, 4)) : 1);

/// The threads a model runs on, and why: several only in a cross-origin isolated page.
function how(n, multi) {
  return multi ? `${n} threads (cross-origin isolated)` : `1 thread${isolated() ? '' : ' (this page is not cross-origin isolated)'}`;
}

/// The threads the next model loaded will run on.
export const mode = () => how(threads(), threads() > 1);

const views = new Set();

function set(next) {
  state = { ...state, ...next };
  for (const v of views) v();
}

function el(tag, props = {}, ...kids) {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...kids);
  return e;
}

/// Fills the element `id` with the connection's controls ('inpage-panel') or the list of
/// models kept in this browser ('cached-models'). Text only ever goes in as text.
export function mount(id) {
  const root = document.getElementById(id);
  if (root) (id === 'inpage-panel' ? panel : shelf)(root);
}

function panel(root) {
  const source = el('select', { id: 'inpage-source', ariaLabel: 'Where the model comes from' },
    el('option', { value: 'served' }, 'SmolLM2-135M, served beside Agora'),
    el('option', { value: 'file' }, 'A .gguf file on this device'),
    el('option', { value: 'url' }, 'A .gguf file at an address'));
  const file = el('input', { id: 'inpage-file', type: 'file', accept: '.gguf', hidden: true, ariaLabel: 'Model file' });
  const url = el('input', { id: 'inpage-url', hidden: true, ariaLabel: 'Model address', placeholder: 'https://huggingface.co/…/resolve/main/model.gguf' });
  const longest = el('input', { id: 'inpage-max', type: 'number', min: 16, max: 4096, step: 1, value: maxAnswer, ariaLabel: 'Longest answer in tokens' });
  longest.onchange = (e) => {
    e.stopPropagation();
    const n = Math.round(Number(longest.value));
    const ok = longest.value.trim() !== '' && n >= 16 && n <= 4096;
    if (ok) keep({ maxAnswer: (maxAnswer = n) });
    longest.value = maxAnswer;
    const told = /^The longest answer/.test(state.error);
    if (!ok || told) set({ error: ok ? '' : `The longest answer is a number of tokens from 16 to 4,096; it stays at ${maxAnswer}.` });
  };
  if (kept.url) {
    source.value = 'url';
    url.value = kept.url;
  }
  const go = el('button', { id: 'inpage-load', type: 'button', className: 'secondary' }, 'Load model');
  const line = el('span');
  // Shown while a model downloads: what is in, of the whole when the server says its size.
  const bar = el('progress', { id: 'inpage-progress', hidden: true, max: 1, ariaLabel: 'Download progress' });
  const cancel = el('button', { id: 'inpage-cancel', type: 'button', className: 'link', hidden: true }, 'Cancel');
  const error = el('p', { id: 'inpage-error', className: 'error', role: 'alert' });
  // On a host that cannot send the COOP/COEP headers, boot.js as a service worker adds them.
  const threads = el('button', { id: 'inpage-threads', type: 'button', className: 'link', hidden: isolated() || !navigator.serviceWorker },
    'Use several threads (reloads the page)');
  threads.onclick = async () => {
    try {
      const base = new URL('../', import.meta.url);
      await navigator.serviceWorker.register(new URL('boot.js', base), { type: 'module', scope: base.href });
      await navigator.serviceWorker.ready;
      location.reload();
    } catch (err) {
      set({ error: `Could not start the service worker (${err.message}).` });
    }
  };
  source.onchange = (e) => {
    e.stopPropagation();
    file.hidden = source.value !== 'file';
    url.hidden = source.value !== 'url';
  };
  file.onchange = url.onchange = (e) => e.stopPropagation();
  go.onclick = () => {
    const kind = source.value;
    if (kind === 'file' && !file.files[0]) return set({ error: 'Choose a .gguf file first.' });
    if (kind === 'url' && !/^https?:\/\//.test(url.value.trim())) return set({ error: 'Enter the model file\'s full address (https://…).' });
    load({ kind, file: file.files[0], url: url.value.trim() }).catch(() => {});
  };
  cancel.onclick = cancelLoad;
  root.className = 'subcard inpage';
  root.replaceChildren(el('div', { className: 'row' }, source, file, url, go),
    el('label', { className: 'field' }, el('span', { className: 'label' }, 'Longest answer (tokens)'), longest),
    bar, el('p', { id: 'inpage-status', className: 'hint', role: 'status' }, line, ' ', cancel, threads), error);
  let told = null;
  const draw = () => {
    if (!root.isConnected) return views.delete(draw);
    line.textContent = state.line || `Nothing loaded yet: the first call loads ${kept.url ? `${decodeURIComponent(kept.url.split('/').pop())}, kept in this browser` : 'SmolLM2-135M, served beside Agora'}. It runs on ${mode()}.`;
    bar.hidden = state.progress === undefined;
    if (state.progress === null) bar.removeAttribute('value');
    else if (state.progress !== undefined) bar.value = state.progress;
    cancel.hidden = !state.busy;
    go.disabled = state.busy;
    error.textContent = state.error;
    if (loaded && told !== loaded) {
      // The connection takes the model's name and context window (src/ui/inpage.rs).
      told = loaded;
      root.agoraLoaded = { ctx: loaded.nCtx, model: loaded.name.replace(/\.gguf$/i, '') };
      root.dispatchEvent(new Event('change'));
    }
  };
  views.add(draw);
  draw();
}

async function shelf(root) {
  const models = await list();
  if (!models.length || !root.isConnected) return root.replaceChildren();
  root.replaceChildren(el('section', { className: 'card' }, el('h2', {}, 'Models kept in this browser'),
    el('p', { className: 'hint' }, 'For the connection "In this browser": the next visit starts them without a download.'),
    el('ul', {}, ...models.map((m) => {
      const del = el('button', { className: 'link danger-text', type: 'button' }, 'Delete');
      del.onclick = async () => {
        await removeModel(m.key);
        // The next first call no longer finds it here: it loads the served model again.
        if (kept.url && (await keyFor(kept.url)) === m.key) keep({ url: undefined });
        shelf(root);
      };
      return el('li', { className: 'cached-model' }, `${m.name} · ${mb(m.bytes)} `, del);
    }))));
}

function start() {
  if (worker) return worker;
  worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = ({ data }) => {
    if (data.token !== undefined) return onToken.get(data.id)?.(data.token);
    if (data.progress) return onProgress?.(data.progress);
    const p = pending.get(data.id);
    pending.delete(data.id);
    if (!p) return;
    if (data.ok) p.resolve(data.value);
    else p.reject(Object.assign(new Error(data.message), { aborted: data.aborted, kept: data.kept }));
  };
  worker.onerror = (e) => {
    // The worker died (out of memory, most often): every call in flight fails with why.
    const why = new Error(`The in-page model stopped (${e.message || 'out of memory?'}). Load it again.`);
    for (const p of pending.values()) p.reject(why);
    pending.clear();
    worker = null;
    loaded = null;
    set({ busy: false, line: '', error: why.message });
  };
  return worker;
}

function call(msg, token) {
  const w = start();
  const id = nextId++;
  if (token) onToken.set(id, token);
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage({ ...msg, id });
  }).finally(() => onToken.delete(id));
}

function describe(info) {
  const ctx = info.nCtx.toLocaleString('en');
  const from = info.fromCache ? ' · from this browser\'s cache' : '';
  return `${info.name} · ${mb(info.bytes)} · context ${ctx} tokens · ${how(info.threads, info.multi)}${from}`;
}

/// Loads a model: `{kind: 'served'}`, `{kind: 'url', url}` or `{kind: 'file', file}`.
/// Resolves with the context window it runs with.
export function load(source) {
  if (source.kind === 'served') source = { kind: 'url', url: SERVED };
  const t0 = performance.now();
  onProgress = ({ loaded: got, total, phase }) => {
    if (phase) return set({ line: phase, progress: undefined });
    const s = (performance.now() - t0) / 1000;
    const speed = got / Math.max(s, 0.001);
    const left = total ? ` · ${Math.ceil((total - got) / Math.max(speed, 1))} s left` : '';
    const of = total ? ` of ${mb(total)}` : '';
    set({ line: `Downloading ${mb(got)}${of} · ${mb(speed)}/s${left}`, progress: total ? got / total : null });
  };
  set({ busy: true, error: '', line: source.kind === 'file' ? `Reading ${source.file.name}…` : 'Starting the download…' });
  const previous = loaded;
  loading = call({ op: 'load', source, memoryGb: navigator.deviceMemory || 0, threads: threads(), maxCtx: MAX_CTX })
    .then((info) => {
      loaded = info;
      // The next visit starts a model from an address from this browser's cache.
      if (source.kind === 'url') keep({ url: source.url === SERVED ? undefined : source.url });
      set({ busy: false, line: describe(info), error: info.warning || '', progress: undefined });
      return info.nCtx;
    })
    .catch((err) => {
      // A load that fails before the new model replaces the old one keeps the old one.
      loaded = err.kept ? previous : null;
      const error = err.aborted ? 'Cancelled: nothing was downloaded or stored.' : err.message;
      set({ busy: false, line: loaded ? describe(loaded) : '', error, progress: undefined });
      throw new Error(error);
    })
    .finally(() => {
      loading = null;
      onProgress = null;
    });
  return loading;
}

export function cancelLoad() {
  worker?.postMessage({ op: 'cancelLoad' });
}

// The calls waiting for a model to load: Stop reaches them before they start.
const waiting = new Set();

/// One chat completion. `req` is the OpenAI-compatible body as JSON (src/llm/openai.rs). Returns a
/// reader whose `next()` resolves with `{text, end}`: the text since the last call, and at
/// the end `{ok, value: {input, output, estimated, finish}}` or `{ok: false, error}`.
export function generate(req) {
  let text = '';
  let end;
  let wake = null;
  const flush = () => {
    if (wake && (text || end)) {
      const w = wake;
      wake = null;
      w({ text, end });
      text = '';
    }
  };
  const me = { stopped: false };
  waiting.add(me);
  (async () => {
    if (loading) await loading.catch(() => {});
    if (!loaded && !me.stopped) await load(kept.url ? { kind: 'url', url: kept.url } : { kind: 'served' });
    // Stopped while the model loaded: the call never starts.
    if (me.stopped) throw Object.assign(new Error('Stopped'), { aborted: true });
    waiting.delete(me);
    const body = JSON.parse(req);
    // One limit for the worker, whichever name the body gives it (a reasoning model's
    // body says max_completion_tokens). The user's longest answer bounds prose, not an
    // answer that must be whole JSON to be read.
    body.max_tokens = body.max_tokens ?? body.max_completion_tokens ?? maxAnswer;
    if (!body.response_format) body.max_tokens = Math.min(body.max_tokens, maxAnswer);
    return call({ op: 'generate', req: body }, (t) => { text += t; flush(); });
  })().finally(() => waiting.delete(me)).then((value) => { end = { ok: true, value }; flush(); }, (error) => { end = { ok: false, error }; flush(); });
  return { next: () => new Promise((r) => { wake = r; flush(); }) };
}

export function stop() {
  for (const w of waiting) w.stopped = true;
  worker?.postMessage({ op: 'stop' });
}

