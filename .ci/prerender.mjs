// Puts the setup screen, as the app draws it on a first visit, into dist/index.html, so a
// visitor sees it and can type a topic while the wasm downloads (README, "The prerendered
// setup screen"). The release build is loaded in headless Chromium, the setup screen's DOM
// is copied with every control's state written into attributes (a copy of the DOM keeps
// attributes, not what a script set), comments (Leptos' markers) dropped and ids prefixed
// with `shell-` (the app's own elements keep theirs: the page never has two `#topic`). The
// copy goes into `<div id="agora-shell">`, after www/shell.js, which shows it on the setup's
// address, keeps what the visitor does in it and hands that to the app when it starts.
//
// Needs Chromium (ensure_chromium); without it the page is built without the copy and the
// app draws the setup screen itself, as before. Usage: node .ci/prerender.mjs dist
import { readFile, writeFile, access } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const dist = resolve(process.argv[2] ?? 'dist');
const chromium = process.env.AGORA_CHROMIUM || '/usr/bin/chromium';
try {
  await access(chromium);
} catch {
  console.log(`  no Chromium at ${chromium}: index.html is built without the prerendered setup screen`);
  process.exit(0);
}
// The e2e tier's server and browser (tests/e2e's lockfile, installed by ensure_npm).
const { serveDist, launch } = await import('../tests/e2e/harness.mjs');

const indexPath = join(dist, 'index.html');
const html = await readFile(indexPath, 'utf8');
const MARK = '<div id="agora-shell"';
if (html.includes(MARK)) throw new Error('index.html already holds a prerendered setup screen');

const site = await serveDist({ dir: dist, base: '/' });
const browser = await launch();
let shell;
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  // The copy is what a first visitor sees before anything answered: the local model's probe
  // never answers here, so no "not answering" wording is frozen into the page.
  await page.route(/:8081\//, () => {});
  await page.goto(site.url);
  await page.waitForSelector('#start:not([disabled])');
  shell = await page.evaluate(() => {
    const copy = document.createElement('div');
    for (const child of document.body.children) {
      if (!['SCRIPT', 'NOSCRIPT'].includes(child.tagName)) copy.append(child.cloneNode(true));
    }
    // Every control's state, as attributes (the clone has the same controls in the same order).
    const originals = [...document.body.querySelectorAll('input, textarea, select')]
      .filter(e => !e.closest('script, noscript'));
    const copies = [...copy.querySelectorAll('input, textarea, select')];
    if (originals.length !== copies.length) throw new Error('the copy lost a control');
    originals.forEach((from, i) => {
      const to = copies[i];
      if (from.tagName === 'TEXTAREA') to.textContent = from.value;
      else if (from.tagName === 'SELECT') {
        [...from.options].forEach((o, j) => to.options[j].toggleAttribute('selected', o.selected));
      } else if (from.type === 'checkbox' || from.type === 'radio') to.toggleAttribute('checked', from.checked);
      else if (from.type !== 'file') to.setAttribute('value', from.value);
    });
    // Ids and the attributes that point at them get the prefix.
    const refs = ['for', 'aria-labelledby', 'aria-describedby', 'aria-controls', 'list', 'form'];
    for (const e of copy.querySelectorAll('*')) {
      if (e.id) e.id = `shell-${e.id}`;
      for (const name of refs) {
        const v = e.getAttribute(name);
        if (v) e.setAttribute(name, v.split(/\s+/).map(id => `shell-${id}`).join(' '));
      }
    }
    // Links relative to the page, whatever path it was served from here.
    for (const a of copy.querySelectorAll('a[href]')) {
      const url = new URL(a.getAttribute('href'), location.href);
      if (url.origin === location.origin) a.setAttribute('href', `./${url.search}${url.hash}`);
    }
    const walker = document.createTreeWalker(copy, NodeFilter.SHOW_COMMENT);
    const comments = [];
    while (walker.nextNode()) comments.push(walker.currentNode);
    comments.forEach(c => c.remove());
    return copy.innerHTML;
  });
} finally {
  await browser.close();
  site.close();
}
if (!shell.includes('id="shell-topic"') || !shell.includes('id="shell-start"')) {
  throw new Error('the prerendered setup screen has no topic field or Start button');
}
// Its script runs before the copy is parsed, so nothing is painted before it decides whether
// to show it; placed in the body, after the head's preloads, it delays none of them.
const out = html.replace(/<\/noscript>/, `</noscript><script src="./shell.js"></script>${MARK}>${shell}</div>`);
if (out === html) throw new Error('index.html has no <noscript> to put the setup screen after');
await writeFile(indexPath, out);
console.log(`  prerendered the setup screen into index.html (${shell.length} bytes)`);
