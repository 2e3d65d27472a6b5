// The prerendered setup screen (README, "The prerendered setup screen"). The build copies
// the setup screen the app draws into index.html (.ci/prerender.mjs), inside
// <div id="agora-shell">, so a visitor sees it and can type a topic, pick a format, fill
// in fields and press Start while the wasm is still downloading. This script, which the
// build puts just before the copy (so it runs before the copy is painted):
// - shows the copy only on the setup's address (src/ui/route.rs: any other screen's
//   address opens that screen, never a setup screen that then changes);
// - writes down what the visitor does in it, in order: a field's new value, a button
//   pressed, a section opened, the form sent;
// - when the app has started (www/boot.js calls `agoraShell.takeOver()`), does the same to
//   the app's own elements, hidden until then, and swaps them in at once, keeping the focus
//   and the caret: nothing typed or chosen is lost, and a Start pressed early starts.
// Without JavaScript the copy stays hidden (style.css) and the <noscript> note says why.
(() => {
  const root = document.documentElement;
  // The setup's address: no screen named in the query, no shared debate in the fragment
  // (the same rule as Route::parse, which reads every pair: an empty id names nothing).
  const q = new URLSearchParams(location.search);
  const names = ['debate', 'tournament'].some(k => q.getAll(k).some(Boolean))
    || q.getAll('view').some(v => ['history', 'ledger', 'tournaments'].includes(v));
  if (names || location.hash.startsWith('#share=')) return;
  root.classList.add('shell-on');

  const log = [];
  const inShell = e => e instanceof Element && e.closest('#agora-shell');
  const record = entry => { log.push(entry); };

  // What the visitor does, from the capture phase (the copy has no handlers of its own).
  document.addEventListener('input', e => {
    const el = e.target;
    if (!inShell(el)) return;
    // The field's count follows, as the app's does (the app counts characters).
    const count = el.closest('label')?.querySelector('.hint');
    if (count && /^\d+ \/ /.test(count.textContent)) count.textContent = count.textContent.replace(/^\d+/, [...el.value].length);
    const last = log[log.length - 1];
    // A run of keystrokes in one field is one entry: its latest value.
    if (last?.kind === 'value' && last.el === el) log.pop();
    record({ kind: 'value', el });
  }, true);
  document.addEventListener('change', e => {
    const el = e.target;
    if (!inShell(el)) return;
    record({ kind: 'value', el });
    // The picked format's card is marked, as the app marks it.
    if (el.type === 'radio') {
      for (const r of el.form.querySelectorAll(`input[type="radio"][name="${CSS.escape(el.name)}"]`)) {
        r.closest('label')?.classList.toggle('selected', r.checked);
      }
    }
  }, true);
  document.addEventListener('toggle', e => {
    if (inShell(e.target)) record({ kind: 'open', el: e.target });
  }, true);
  document.addEventListener('click', e => {
    const button = inShell(e.target) && e.target.closest('button[type="button"]');
    if (!button) return;
    // A suggested topic fills the field at once, as it does in the app.
    if (button.classList.contains('chip')) {
      const topic = document.getElementById('shell-topic');
      topic.value = button.textContent;
      topic.dispatchEvent(new Event('input', { bubbles: true }));
    } else record({ kind: 'click', el: button });
  }, true);
  document.addEventListener('submit', e => {
    if (!inShell(e.target)) return;
    e.preventDefault();
    record({ kind: 'submit', el: e.target });
    const start = document.getElementById('shell-start');
    start.textContent = 'Starting…';
    start.setAttribute('aria-busy', 'true');
  }, true);
  // A file dropped on the page before the app is there would open it in place of Agora.
  for (const type of ['dragover', 'drop']) {
    document.addEventListener(type, e => { if (root.classList.contains('shell-on')) e.preventDefault(); }, true);
  }

  /** The app's element that stands where `el` stands in the copy. */
  const counterpart = el => {
    const shell = document.getElementById('agora-shell');
    const live = sel => [...document.querySelectorAll(sel)].filter(x => !shell.contains(x));
    if (el.id.startsWith('shell-')) return document.getElementById(el.id.slice(6));
    const label = el.getAttribute('aria-label');
    if (label) return live(`${el.tagName}[aria-label="${CSS.escape(label)}"]`)[0];
    if (el.type === 'radio') return live(`input[type="radio"][name="${CSS.escape(el.name)}"][value="${CSS.escape(el.value)}"]`)[0];
    // A button or a section by its words, within the same kind of element.
    const words = (el.tagName === 'DETAILS' ? el.querySelector('summary') : el)?.textContent.trim();
    const tag = el.tagName.toLowerCase();
    const cls = el.classList[0] ? `.${CSS.escape(el.classList[0])}` : '';
    return live(`${tag}${cls}`).find(x => (tag === 'details' ? x.querySelector('summary') : x)?.textContent.trim() === words);
  };

  /** Does one thing the visitor did to the app's own element. */
  const replay = ({ kind, el }) => {
    // The form is sent as its Start button sends it.
    const to = kind === 'submit' ? document.getElementById('start') : counterpart(el);
    if (!to) return;
    if (kind === 'click') to.click();
    else if (kind === 'open') to.open = el.open;
    else if (kind === 'submit') to.form?.requestSubmit(to);
    else if (el.type === 'checkbox' || el.type === 'radio') {
      if (to.checked !== el.checked) to.click();
    } else {
      if (el.type === 'file') to.files = el.files;
      else to.value = el.value;
      to.dispatchEvent(new Event('input', { bubbles: true }));
      to.dispatchEvent(new Event('change', { bubbles: true }));
    }
  };

  // The app reacts to each step a moment later (Leptos runs its effects as tasks).
  const settle = () => new Promise(r => setTimeout(r, 0));

  window.agoraShell = {
    /** Called once the app is mounted (hidden behind the copy): replays what was done in
     * the copy, then shows the app in its place. */
    async takeOver() {
      const shell = document.getElementById('agora-shell');
      // A page built without the copy (no Chromium at build time) shows the app at once.
      if (!shell) root.classList.remove('shell-on');
      if (!shell || !root.classList.contains('shell-on')) return;
      // What the visitor does during the replay is replayed too, until nothing is left.
      while (log.length) {
        // One step that cannot be done (an element the app no longer draws) skips only itself.
        try { replay(log.shift()); } catch (e) { console.error('Agora: a step taken before the app started was not repeated', e); }
        await settle();
      }
      const focused = shell.contains(document.activeElement) ? document.activeElement : null;
      const to = focused && counterpart(focused);
      const { scrollX, scrollY } = window;
      shell.remove();
      root.classList.remove('shell-on');
      window.scrollTo(scrollX, scrollY);
      if (to) {
        to.focus({ preventScroll: true });
        if (typeof focused.selectionStart === 'number' && typeof to.setSelectionRange === 'function') {
          try { to.setSelectionRange(focused.selectionStart, focused.selectionEnd, focused.selectionDirection); } catch { /* a field without a caret */ }
        }
      }
    },
    /** The app could not start: the copy says so instead of waiting for ever. */
    failed(message) {
      const shell = document.getElementById('agora-shell');
      if (!shell) return;
      const note = document.createElement('div');
      note.className = 'panic-banner';
      note.setAttribute('role', 'alert');
      const strong = document.createElement('strong');
      strong.textContent = 'Agora could not start.';
      const p = document.createElement('p');
      p.textContent = `${message} Nothing you typed was sent anywhere.`;
      const reload = document.createElement('button');
      reload.type = 'button';
      reload.textContent = 'Reload';
      reload.addEventListener('click', () => location.reload());
      note.append(strong, p, reload);
      shell.prepend(note);
      shell.querySelectorAll('button[type="submit"]').forEach(b => { b.disabled = true; });
    },
  };
})();
