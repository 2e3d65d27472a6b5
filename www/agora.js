// Agora as a module for other pages, from wherever Agora is hosted:
//   import { runDebate } from 'https://agora.example.org/agora.js'   (the JS API)
//   <script type="module" src="https://agora.example.org/agora.js"></script>
//   <agora-debate src="my-debate.json"></agora-debate>              (the widget)
// The release build (.ci/api-entry.mjs) writes this build's hashed file names below; the
// module, its wasm and the widget's styles are fetched from beside this file, once, on
// first use. Declarations: agora.d.ts, beside this file.
const GLUE = '__AGORA_GLUE__';
const WASM = '__AGORA_WASM__';
const CSS = './agora-widget.css';

let loaded;
function load() {
  loaded ??= import(new URL(GLUE, import.meta.url).href).then(async (m) => {
    await m.default({ module_or_path: new URL(WASM, import.meta.url) });
    return m;
  });
  return loaded;
}

/** Runs a debate with no UI; resolves to the finished debate (the app's JSON export). */
export async function runDebate(config, options) {
  return (await load()).runDebate(config, options);
}

/**
 * <agora-debate>: a recorded debate (`src`: an export's URL, `#share=1.…`, or inline JSON
 * in a child <script type="application/json">) or a live one (the `config` property, as
 * runDebate takes it). Its view lives in a shadow root with styles of its own. Events
 * (bubbling, composed): agora-turn, agora-finding, agora-finished, agora-error.
 * Attributes: `autostart` (no Start button), `keep` (keep live debates in this page's
 * IndexedDB; off, they are in memory only).
 */
export class AgoraDebateElement extends HTMLElement {
  static observedAttributes = ['src', 'share'];
  #config;
  #widget;
  #generation = 0;

  get config() { return this.#config; }
  set config(value) { this.#config = value; if (this.isConnected) this.#render(); }

  connectedCallback() { this.#render(); }
  disconnectedCallback() { this.#stop(); }
  attributeChangedCallback() { if (this.isConnected) this.#render(); }

  #stop() {
    this.#generation += 1;
    this.#widget?.unmount();
    this.#widget = undefined;
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
    if (this.#config) return { request: this.#config };
    return {};
  }

  async #render() {
    this.#stop();
    const generation = this.#generation;
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    const style = document.createElement('link');
    style.rel = 'stylesheet';
    style.href = new URL(CSS, import.meta.url).href;
    const mount = document.createElement('div');
    mount.className = 'agora-root';
    root.replaceChildren(style, mount);
    try {
      const source = await this.#source();
      const glue = await load();
      if (generation !== this.#generation) return; // replaced meanwhile
      this.#widget = glue.mountWidget(mount, {
        ...source,
        app_url: new URL('./', import.meta.url).href,
        keep: this.hasAttribute('keep'),
        autostart: this.hasAttribute('autostart'),
      }, (name, detail) => this.#emit(name, detail));
    } catch (e) {
      if (generation !== this.#generation) return;
      // A host whose Content Security Policy forbids wasm or Agora's origin ends here.
      const p = document.createElement('p');
      p.className = 'error';
      p.setAttribute('role', 'alert');
      p.textContent = `This debate cannot be shown: ${e.message ?? e}`;
      mount.replaceChildren(p);
      this.#emit('agora-error', { message: p.textContent });
    }
  }
}

if (!customElements.get('agora-debate')) customElements.define('agora-debate', AgoraDebateElement);
