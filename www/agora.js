// Agora as a module for other pages, from wherever Agora is hosted:
//   import { runDebate } from 'https://agora.example.org/agora.js'   (the JS API)
//   <script type="module" src="https://agora.example.org/agora.js"></script>
//   <agora-debate src="my-debate.json"></agora-debate>              (the widget)
// The release build (.ci/api-entry.mjs) writes this build's hashed file names below; the
// module, its wasm and the widget's styles are fetched from beside this file, once: when
// runDebate is first called or a widget that draws in this page is put on it.
// Declarations: agora.d.ts, beside this file.
const GLUE = '__AGORA_GLUE__';
const WASM = '__AGORA_WASM__';
const CSS = '__AGORA_CSS__';
// The debate screen's chunk and the shared chunks it needs, beside the glue (README, "How
// the app is split"): a widget fetches them with the module instead of after it. Then
// each format's drawing, `format=file,file …`: the one its debate needs.
const DEBATE_CHUNKS = '__AGORA_DEBATE_CHUNKS__';
const VIEW_CHUNKS = '__AGORA_VIEW_CHUNKS__';
const AGORA_ORIGIN = new URL(import.meta.url).origin;
const EVENTS = ['agora-turn', 'agora-finding', 'agora-finished', 'agora-error'];

let loaded;
const preloaded = new Set();
/** Starts chunks downloading; the module's loader then takes them from the browser's
 * preload cache. */
function preload(files) {
  const glue = new URL(GLUE, import.meta.url);
  for (const file of files) {
    if (!file || preloaded.has(file)) continue;
    preloaded.add(file);
    const link = document.createElement('link');
    Object.assign(link, { rel: 'preload', as: 'fetch', crossOrigin: 'anonymous', href: new URL(file, glue).href });
    document.head.append(link);
  }
}
const preloadDebate = () => preload(DEBATE_CHUNKS.split(' '));
/** A format's drawing (`null`, or a name that is no format's: every format's, for a debate
 * whose format is not known yet). */
function preloadViews(format) {
  const entries = VIEW_CHUNKS.split(' ').map(entry => entry.split('='));
  const known = entries.some(([name]) => name === format?.toLowerCase());
  for (const [name, files = ''] of entries) {
    if (!known || name === format.toLowerCase()) preload(files.split(','));
  }
}
/** The format of an export's JSON, read from its text without parsing it all (a recorded
 * debate may be large): the first event's configuration names it as its options' key. A
 * guess only decides what is fetched early; the app reads the debate itself. */
const formatOf = (json) => json.slice(0, 65536).match(/"options"\s*:\s*\{\s*"(\w+)"/)?.[1] ?? null;

function load() {
  // The wasm's download starts with the glue's instead of after it: one round trip less.
  loaded ??= (() => {
    const wasm = fetch(new URL(WASM, import.meta.url));
    wasm.catch(() => {}); // reported by the glue's init below
    return import(new URL(GLUE, import.meta.url).href).then(async (m) => {
      await m.default({ module_or_path: wasm });
      return m;
    });
  })();
  return loaded;
}

/** Runs a debate with no UI; resolves to the finished debate (the app's JSON export). */
export async function runDebate(config, options) {
  return (await load()).runDebate(config, options);
}

/**
 * <agora-debate>: a recorded debate (`src`: an export's URL, `#share=1.…`, or inline JSON
 * in a child <script type="application/json">) or a live one (the `config` property, as
 * runDebate takes it; the `format` and `topic` attributes override its own). Its view lives in a shadow root with styles of its own. Events
 * (bubbling, composed): agora-turn, agora-finding, agora-finished, agora-error.
 * Attributes: `autostart` (no Start button), `keep` (keep live debates in this page's
 * IndexedDB; off, they are in memory only), `visitor-key` (the visitor types the key, in
 * a frame served from Agora's origin that this page's scripts cannot read).
 */
export class AgoraDebateElement extends HTMLElement {
  static observedAttributes = ['src', 'share', 'format', 'topic'];
  #config;
  #widget;
  #generation = 0;
  /** Drawn since it was last put on the page. An element already on the page when this
   * module defines it hears each attribute, then that it is connected: only the last
   * draws, or the debate's file would be fetched twice. */
  #drawn = false;

  constructor() {
    super();
    // A page may set `config` before this module defines the element (an element created,
    // configured and put on the page by a script that ran first): that own property would
    // hide the accessor below for good. Take it over.
    if (Object.hasOwn(this, 'config')) {
      const value = this.config;
      delete this.config;
      this.#config = value;
    }
  }

  get config() { return this.#config; }
  set config(value) { this.#config = value; if (this.#drawn) this.#render(); }

  connectedCallback() { this.#drawn = true; this.#render(); }
  disconnectedCallback() { this.#drawn = false; this.#stop(); }
  /** Moved within the page by `moveBefore()`: the debate goes on where it was put, instead
   * of being stopped and drawn again. */
  connectedMoveCallback() {}
  attributeChangedCallback() { if (this.#drawn) this.#render(); }

  #stop() {
    this.#generation += 1;
    this.#widget?.unmount();
    this.#widget?.free?.(); // the wasm side's handle
    this.#widget = undefined;
  }

  /** Says in place why nothing shows, and tells the host page. */
  #fail(root, why) {
    const csp = /Content Security Policy|unsafe-eval/i.test(why)
      ? ' This page\'s Content Security Policy does not let Agora run: its script-src needs \'wasm-unsafe-eval\' and Agora\'s address.'
      : /Failed to fetch|NetworkError|Load failed|import/i.test(why)
        ? ' Agora\'s files could not be fetched: the network, or this page\'s Content Security Policy (script-src and connect-src need Agora\'s address).'
        : '';
    const p = document.createElement('p');
    p.className = 'error';
    p.setAttribute('role', 'alert');
    p.textContent = `This debate cannot be shown.${csp} (${why})`;
    root.replaceChildren(p);
    this.#emit('agora-error', { message: p.textContent });
  }

  #emit(name, detail) {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  /** What to show: `{ recorded }`, `{ share }` or `{ request }`. */
  async #source() {
    const src = this.getAttribute('share') ?? this.getAttribute('src');
    if (src?.includes('#share=')) return { share: src.slice(src.indexOf('#') + 1) };
    if (src) {
      const url = new URL(src, document.baseURI);
      let r;
      try { r = await fetch(url); } catch (e) { throw new Error(`${src} could not be fetched (${e.message}). Check the address, and that this page's Content Security Policy allows it (connect-src).`); }
      if (!r.ok) throw new Error(`${src} could not be fetched: HTTP ${r.status}.`);
      return { recorded: await r.text() };
    }
    const inline = this.querySelector('script[type="application/json"]');
    if (inline) return { recorded: inline.textContent };
    // A live debate: the config property, with the `format` and `topic` attributes (when
    // given) taking the place of its own.
    const format = this.getAttribute('format');
    const topic = this.getAttribute('topic');
    if (this.#config || format || topic) {
      const request = { ...this.#config };
      if (format) request.format = format;
      if (topic) request.topic = topic;
      return { request };
    }
    return {};
  }

  /** Visitor-key mode: the debate runs in frame.html on Agora's origin; the config goes
   * in and the events come out by postMessage, each side checking the other's origin. */
  #frame(root) {
    const frame = document.createElement('iframe');
    frame.title = 'Agora debate';
    frame.src = new URL(`frame.html?host=${encodeURIComponent(location.origin)}`, import.meta.url).href;
    frame.style.cssText = 'display:block;width:100%;height:24rem;border:0;';
    const generation = this.#generation;
    const onMessage = (e) => {
      if (generation !== this.#generation) return removeEventListener('message', onMessage);
      if (e.origin !== AGORA_ORIGIN || e.source !== frame.contentWindow) return;
      const { agora, detail, height } = e.data ?? {};
      if (agora === 'ready') this.#source().then(({ request }) => frame.contentWindow.postMessage({ agora: 'config', config: request }, AGORA_ORIGIN));
      else if (agora === 'height') frame.style.height = `${Math.ceil(height)}px`;
      else if (EVENTS.includes(agora)) this.#emit(agora, detail);
    };
    addEventListener('message', onMessage);
    root.replaceChildren(frame);
    // A host whose policy forbids Agora's frames (frame-src) gets an empty frame and no
    // error event: silence from it is the sign.
    let ready = false;
    const waited = setTimeout(() => {
      if (!ready && generation === this.#generation) {
        this.#fail(root, `the frame from ${AGORA_ORIGIN} did not start within 20 seconds; this page's Content Security Policy may forbid it (frame-src needs Agora's address)`);
      }
    }, 20_000);
    const onReady = (e) => { if (e.origin === AGORA_ORIGIN && e.source === frame.contentWindow && e.data?.agora === 'ready') ready = true; };
    addEventListener('message', onReady);
    this.#widget = { unmount: () => { clearTimeout(waited); removeEventListener('message', onMessage); removeEventListener('message', onReady); frame.remove(); } };
  }

  async #render() {
    this.#stop();
    const generation = this.#generation;
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    if (this.hasAttribute('visitor-key') && (this.#config || this.hasAttribute('topic'))) return this.#frame(root);
    const style = document.createElement('link');
    style.rel = 'stylesheet';
    style.href = new URL(CSS, import.meta.url).href;
    const mount = document.createElement('div');
    mount.className = 'agora-root';
    root.replaceChildren(style, mount);
    try {
      // The module downloads while the debate's own file does (a page that sets `config`
      // later needs it as well), except for a visitor-key widget waiting for its config: that
      // debate runs in Agora's frame, which loads the module itself.
      const module = this.hasAttribute('visitor-key') ? null : load();
      if (module) preloadDebate();
      module?.catch(() => {}); // awaited below when there is something to show
      const source = await this.#source();
      // Nothing to show yet (the page sets `config` later): wait for it quietly.
      if (!source.recorded && !source.share && !source.request) return;
      if (module && source.recorded) preloadViews(formatOf(source.recorded));
      else if (module && source.share) preloadViews(null);
      else if (module) preloadViews(source.request.format ?? Object.keys(source.request.config?.options ?? {})[0] ?? null);
      const glue = await (module ?? load());
      if (generation !== this.#generation) return; // replaced meanwhile
      this.#widget = glue.mountWidget(mount, {
        ...source,
        app_url: new URL('./', import.meta.url).href,
        keep: this.hasAttribute('keep'),
        autostart: this.hasAttribute('autostart'),
        // Only inside frame.html: a key typed there is out of the host page's reach.
        ask_keys: this.hasAttribute('ask-keys') && window.parent !== window && location.origin === AGORA_ORIGIN,
      }, (name, detail) => this.#emit(name, detail));
    } catch (e) {
      if (generation !== this.#generation) return;
      // A host whose Content Security Policy forbids wasm or Agora's origin ends here.
      this.#fail(mount, String(e.message ?? e));
    }
  }
}

if (!customElements.get('agora-debate')) customElements.define('agora-debate', AgoraDebateElement);
