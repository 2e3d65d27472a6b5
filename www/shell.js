// The prerendered setup screen (README, "The prerendered setup screen"). The build copies
// the setup screen the app draws into index.html (.ci/prerender.mjs), inside
// <div id="agora-shell">, so a visitor sees it and can type a topic, pick a format, fill
// in fields and press Start while the wasm is still downloading. This script, which the
// build writes into the page just before the copy (so it runs before the copy is painted,
// with no request of its own; its hash is in the page's Content Security Policy):
// - shows the copy only on the setup's address (src/ui/route.rs: any other screen's
//   address opens that screen, never a setup screen that then changes);
// - writes down what the visitor does in it, in order, with the values of that moment: a
//   field's new value, a format or connection picked, a button pressed, a section opened,
//   the form sent;
// - when the app has started (www/boot.js hands it `startApp`), does the same to the app's
//   own elements, hidden until then, and swaps them in at once, keeping the focus, the
//   caret and where the focused field sits on screen.
// Without JavaScript the copy stays hidden (style.css) and the <noscript> note says why.
(() => {
  const root = document.documentElement;
  // The setup's address: no screen named in the query, no shared debate in the fragment.
  // The same rule as Route::parse (both are held to tests/routes.json): leading '?' and '#'
  // trimmed, every pair read in order, and an empty id names nothing.
  const q = new URLSearchParams(location.search.replace(/^\?+/, ''));
  const names = [...q].some(([k, v]) => (['debate', 'tournament', 'example'].includes(k) && v)
    || (k === 'view' && ['history', 'ledger', 'tournaments'].includes(v)));
  if (names || location.hash.replace(/^#+/, '').startsWith('share=')) {
    // Never shown on this page: out of the way of everything else.
    document.addEventListener('DOMContentLoaded', () => document.getElementById('agora-shell')?.remove());
    return;
  }
  root.classList.add('shell-on');

  const log = [];
  const inShell = e => e instanceof Element && e.closest('#agora-shell');
  const copyOf = id => document.getElementById(`shell-${id}`);
  /** A control's state now: what its step will set on the app's element. */
  const stateOf = el => ({ value: el.value, checked: el.checked, files: el.files });

  /** A field's step: a run of input on one field is one step, holding its latest state;
   * the `change` that ends it adds nothing. */
  const fieldChanged = el => {
    const last = log[log.length - 1];
    if (last?.kind === 'value' && last.el === el) log.pop();
    log.push({ kind: 'value', el, ...stateOf(el) });
  };
  document.addEventListener('input', e => {
    const el = e.target;
    if (!inShell(el)) return;
    // The topic's count follows, as the app's does (the app counts characters).
    const count = el.closest('label')?.querySelector('.hint');
    if (count && /^\d+ \/ /.test(count.textContent)) count.textContent = count.textContent.replace(/^\d+/, () => [...el.value].length);
    fieldChanged(el);
  }, true);
  document.addEventListener('change', e => {
    const el = e.target;
    if (!inShell(el)) return;
    fieldChanged(el);
    if (el.type === 'radio' && el.name === 'format') formatPicked(el);
  }, true);
  document.addEventListener('toggle', e => {
    if (inShell(e.target)) log.push({ kind: 'open', el: e.target, open: e.target.open });
  }, true);
  document.addEventListener('click', e => {
    const button = inShell(e.target) && e.target.closest('button[type="button"]');
    if (!button || button.getAttribute('aria-disabled') === 'true') return;
    // A suggested topic fills the field at once, as it does in the app.
    if (button.classList.contains('chip')) {
      const topic = copyOf('topic');
      topic.value = button.textContent;
      topic.dispatchEvent(new Event('input', { bubbles: true }));
      return;
    }
    // Any other button acts once the app is here: it says so, and a second press is not
    // taken as another (a toggle pressed twice would undo itself, an add would add twice).
    log.push({ kind: 'click', el: button });
    button.setAttribute('aria-disabled', 'true');
    button.classList.add('shell-waiting');
    button.title = 'Agora is still loading: this runs as soon as it is ready';
  }, true);
  document.addEventListener('submit', e => {
    if (!inShell(e.target)) return;
    e.preventDefault();
    log.push({ kind: 'submit', el: e.target });
    // An empty topic is said by the app once it is here, as it says it itself.
    if (!copyOf('topic').value.trim()) return;
    const start = copyOf('start');
    start.dataset.label ??= start.textContent;
    start.textContent = 'Starting…';
    start.setAttribute('aria-busy', 'true');
  }, true);
  // A file dragged onto the page before the app is there would open in place of Agora.
  for (const type of ['dragover', 'drop']) {
    document.addEventListener(type, e => {
      if (root.classList.contains('shell-on') && e.dataTransfer?.types.includes('Files')) e.preventDefault();
    }, true);
  }
  // Text being composed (an input method) is not taken from under the visitor.
  let composing = false;
  document.addEventListener('compositionstart', () => { composing = true; }, true);
  document.addEventListener('compositionend', () => { composing = false; }, true);

  /** Another format than the copy's: its options are the app's to draw, so the copy's
   * (the first format's) are set aside, with a word, until the app is here. */
  const formatPicked = radio => {
    const form = radio.form;
    const own = radio.hasAttribute('checked');
    for (const label of form.querySelectorAll('label.format')) {
      label.classList.toggle('selected', label.contains(radio));
    }
    for (const part of form.querySelectorAll('[data-shell-format-part]')) {
      part.inert = !own;
      part.classList.toggle('shell-set-aside', !own);
    }
    let note = copyOf('format-note');
    if (!own && !note) {
      note = document.createElement('p');
      note.id = 'shell-format-note';
      note.className = 'hint shell-format-note';
      note.setAttribute('role', 'status');
      form.querySelector('[data-shell-format-part]')?.before(note);
    }
    if (note) note.textContent = own ? '' : `${radio.value}'s options appear as soon as Agora has loaded.`;
  };

  /** The app's element that stands where `el` stands in the copy. */
  const counterpart = el => {
    const shell = document.getElementById('agora-shell');
    const live = sel => [...document.querySelectorAll(sel)].filter(x => !shell.contains(x));
    if (el.id.startsWith('shell-')) return document.getElementById(el.id.slice(6));
    const label = el.getAttribute('aria-label');
    if (label) return live(`${el.tagName}[aria-label="${CSS.escape(label)}"]`)[0];
    if (el.type === 'radio') return live(`input[type="radio"][name="${CSS.escape(el.name)}"][value="${CSS.escape(el.value)}"]`)[0];
    const tag = el.tagName.toLowerCase();
    const sel = tag + [...el.classList].map(c => `.${CSS.escape(c)}`).join('') + (el.dataset.seat ? `[data-seat="${CSS.escape(el.dataset.seat)}"]` : '');
    // A button or a section by its words; any other control by its place among its kind.
    const words = x => (tag === 'details' ? x.querySelector('summary') : x)?.textContent.trim();
    if (tag === 'button' || tag === 'details') return live(sel).find(x => words(x) === words(el));
    return live(sel)[[...shell.querySelectorAll(sel)].indexOf(el)];
  };

  /** The app has answered the last step (Leptos runs its effects as tasks). */
  const settle = () => new Promise(r => setTimeout(r, 0));
  /** Waits until `ready()`, for at most `ms`. */
  const until = async (ready, ms) => {
    for (const end = Date.now() + ms; !ready() && Date.now() < end;) await new Promise(r => setTimeout(r, 50));
  };

  /** Does one thing the visitor did, to the app's own element. */
  const replay = async step => {
    const { kind, el } = step;
    if (kind === 'submit') {
      // Start waits for the app to know which connection works without a key (it asks
      // as it starts, src/ui/app.rs): until a connection is chosen (the select's empty
      // "Finding…" choice is gone) or the choices without one are offered (#no-key).
      await until(() => !document.querySelector('#connection option[value=""]') || document.getElementById('no-key'), 6000);
      const start = document.getElementById('start');
      start?.form?.requestSubmit(start);
      return;
    }
    const to = counterpart(el);
    if (!to) return;
    if (kind === 'click') to.click();
    else if (kind === 'open') to.open = step.open;
    else if (el.type === 'checkbox' || el.type === 'radio') {
      if (to.checked !== step.checked) to.click();
    } else if (el.type === 'file') {
      to.files = step.files;
      to.dispatchEvent(new Event('change', { bubbles: true }));
    } else {
      to.value = step.value;
      to.dispatchEvent(new Event('input', { bubbles: true }));
      to.dispatchEvent(new Event('change', { bubbles: true }));
    }
  };

  /** A note at the top of the copy, with Reload. */
  const notice = (role, title, text) => {
    const shell = document.getElementById('agora-shell');
    if (!shell) return;
    copyOf('notice')?.remove();
    const note = document.createElement('div');
    note.id = 'shell-notice';
    note.className = role === 'alert' ? 'panic-banner' : 'shell-slow';
    note.setAttribute('role', role);
    const strong = document.createElement('strong');
    strong.textContent = title;
    const p = document.createElement('p');
    p.textContent = text;
    const reload = document.createElement('button');
    reload.type = 'button';
    reload.textContent = 'Reload';
    reload.addEventListener('click', () => location.reload());
    note.append(strong, p, reload);
    shell.prepend(note);
  };

  // A first module that neither arrives nor fails says so, and keeps waiting.
  const slow = setTimeout(() => notice('status', 'Agora is still loading.',
    'The connection is slow or has stopped answering. What you type here is kept; reloading the page tries again from the start.'), 15000);

  window.agoraShell = {
    /** Starts the app behind the copy (`startApp` mounts it, hidden by style.css), does
     * again what was done in the copy, then shows the app in its place. */
    async start(startApp) {
      clearTimeout(slow);
      const shell = document.getElementById('agora-shell');
      // A page built without the copy (no Chromium at build time) shows the app at once.
      if (!shell) {
        root.classList.remove('shell-on');
        startApp();
        return;
      }
      // The app scrolls to the top as it opens its first screen: the copy stays put.
      const { scrollX, scrollY } = window;
      startApp();
      window.scrollTo(scrollX, scrollY);
      // What the visitor does meanwhile is done too, until nothing is left.
      while (log.length) {
        // One step that cannot be done (an element the app no longer draws) skips only itself.
        try { await replay(log.shift()); } catch (e) { console.error('Agora: a step taken before the app started was not repeated', e); }
        await settle();
      }
      await until(() => !composing, 5000);
      const focused = shell.contains(document.activeElement) ? document.activeElement : null;
      const to = focused && counterpart(focused);
      const top = focused?.getBoundingClientRect().top;
      shell.remove();
      root.classList.remove('shell-on');
      if (to) {
        to.focus({ preventScroll: true });
        // The field stays where it was on screen, whatever the app drew above it.
        window.scrollBy(0, to.getBoundingClientRect().top - top);
        if (typeof focused.selectionStart === 'number' && typeof to.setSelectionRange === 'function') {
          try { to.setSelectionRange(focused.selectionStart, focused.selectionEnd, focused.selectionDirection); } catch { /* a field without a caret */ }
        }
      }
      // What the app said while hidden (an empty topic, a connection's test) is said again
      // now that it shows: a live region is announced when it enters the page.
      for (const alert of document.querySelectorAll('main [role="alert"]')) alert.replaceWith(alert);
    },
    /** The app could not start: the copy says so instead of waiting for ever. */
    failed(message) {
      clearTimeout(slow);
      notice('alert', 'Agora could not start.', `${message} Nothing you typed was sent anywhere.`);
      const start = copyOf('start');
      if (!start) return;
      if (start.dataset.label) start.textContent = start.dataset.label;
      start.removeAttribute('aria-busy');
      start.disabled = true;
    },
  };
})();
