// Puts the setup screen, as the app draws it on a first visit, into dist/index.html, so a
// visitor sees it and can type a topic while the wasm downloads (README, "The prerendered
// setup screen"). The release build is loaded in headless Chromium, the setup screen's DOM
// is copied with every control's state written into attributes (a copy of the DOM keeps
// attributes, not what a script set), comments (Leptos' markers) dropped and ids prefixed
// with `shell-` (the app's own elements keep theirs: the page never has two `#topic`). The
// copy goes into `<div id="agora-shell">`, after www/shell.js, which shows it on the setup's
// address, keeps what the visitor does in it and hands that to the app when it starts.
// shell.js and the stylesheet are written into the page, not fetched: as files of their own
// they shared the slow line with the wasm's download, and the copy waited for both (the
// script was requested late, behind the head's preloads; BENCHMARKS.md, "Load time").
// Their SHA-256 go into the Content Security Policy, which still refuses every other
// inline script and style. The stylesheet's file stays for the widget (www/agora.js).
//
// Needs Chromium (ensure_chromium); without it the page is built without the copy and the
// app draws the setup screen itself, as before. Usage: node .ci/prerender.mjs dist
import { readFile, writeFile, access, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';

const dist = resolve(process.argv[2] ?? 'dist');
// Minified by .ci/minify-js.mjs; written into the page below, so not served on its own.
const shellPath = join(dist, 'shell.js');
const script = await readFile(shellPath, 'utf8');
const chromium = process.env.AGORA_CHROMIUM || '/usr/bin/chromium';
try {
  await access(chromium);
} catch {
  console.log(`  no Chromium at ${chromium}: index.html is built without the prerendered setup screen`);
  await rm(shellPath);
  process.exit(0);
}
// A static host's server and Debian's Chromium (playwright-core from package-lock.json).
const { serveDist } = await import('./serve-dist.mjs');
const { launchChromium } = await import('./chromium.mjs');

const indexPath = join(dist, 'index.html');
const html = await readFile(indexPath, 'utf8');
const MARK = '<div id="agora-shell"';
if (html.includes(MARK)) throw new Error('index.html already holds a prerendered setup screen');

const site = await serveDist({ dir: dist, base: '/' });
const browser = await launchChromium();
let shell;
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const problems = [];
  page.on('pageerror', e => problems.push(e.message));
  // The copy is what a first visitor sees before anything answered. The copy is taken the
  // moment Start is enabled, and the checks for a connection that works without a key (the
  // local model, a model file beside the app) are held meanwhile, so no answer of this
  // machine's is frozen into the page.
  await page.route(/:8081\/|\/models\//, () => {});
  await page.goto(site.url);
  await page.waitForSelector('#start:not([disabled])');
  // The parts of the form that belong to the first format: those another format draws
  // otherwise (shell.js sets them aside when the visitor picks another format in the copy).
  await page.evaluate(async () => {
    const form = document.querySelector('form.setup');
    const tick = () => new Promise(r => setTimeout(r, 50));
    const html = () => [...form.children].map(c => c.outerHTML);
    const base = html();
    const own = form.querySelector('input[name="format"]:checked');
    const differs = new Set();
    for (const radio of form.querySelectorAll('input[name="format"]')) {
      if (radio === own) continue;
      radio.click();
      await tick();
      const now = new Set(html());
      base.forEach((h, i) => { if (!now.has(h)) differs.add(i); });
    }
    own.click();
    await tick();
    if (html().join() !== base.join()) throw new Error('the setup form did not come back as it was after trying the other formats');
    // What every format shares (the formats, the topic, the connection, Start) stays usable.
    const shared = '#topic, #connection, #start, input[name="format"]';
    [...form.children].forEach((child, i) => {
      if (!differs.has(i)) return;
      if (!child.querySelector(shared) && !child.matches(shared)) child.setAttribute('data-shell-format-part', '');
      // The row with Start: only its planned-calls line is the format's.
      else if (child.querySelector('#start')) child.querySelector('#plan')?.setAttribute('data-shell-format-part', '');
    });
  });
  shell = await page.evaluate(() => {
    const copy = document.createElement('div');
    for (const child of document.body.children) {
      if (!['SCRIPT', 'NOSCRIPT'].includes(child.tagName)) copy.append(child.cloneNode(true));
    }
    // Nothing the app says about this machine or a failure may ship in every page.
    const said = copy.querySelector('#panic, .notice, [role="alert"], #no-key');
    if (said) throw new Error(`the setup screen showed something it should not keep: ${said.outerHTML.slice(0, 200)}`);
    // Every control's state, as attributes (the clone has the same controls in the same order).
    const originals = [...document.body.querySelectorAll('input, textarea, select')]
      .filter(e => !e.closest('script, noscript'));
    const copies = [...copy.querySelectorAll('input, textarea, select')];
    if (originals.length !== copies.length) throw new Error('the copy lost a control');
    originals.forEach((from, i) => {
      const to = copies[i];
      // A state the app sets as a property (`prop:disabled`) is an attribute in the copy.
      to.toggleAttribute('disabled', from.disabled);
      if (from.tagName === 'TEXTAREA') to.textContent = from.value;
      else if (from.tagName === 'SELECT') {
        [...from.options].forEach((o, j) => to.options[j].toggleAttribute('selected', o.selected));
      } else if (from.type === 'checkbox' || from.type === 'radio') to.toggleAttribute('checked', from.checked);
      else if (from.type !== 'file') to.setAttribute('value', from.value);
    });
    const buttons = [...copy.querySelectorAll('button')];
    [...document.body.querySelectorAll('button')].forEach((b, i) => buttons[i]?.toggleAttribute('disabled', b.disabled));
    // A browser restoring the copy's fields on a reload would fill them without an event,
    // and the app would never hear of it.
    copy.querySelectorAll('form').forEach(f => f.setAttribute('autocomplete', 'off'));
    // Ids and the attributes that point at them get the prefix.
    const refs = ['for', 'aria-labelledby', 'aria-describedby', 'aria-controls', 'aria-owns', 'aria-details',
      'aria-errormessage', 'aria-activedescendant', 'aria-flowto', 'list', 'form', 'headers', 'popovertarget'];
    for (const e of copy.querySelectorAll('*')) {
      if (e.id) e.id = `shell-${e.id}`;
      for (const name of refs) {
        const ids = e.getAttribute(name)?.trim();
        if (ids) e.setAttribute(name, ids.split(/\s+/).map(id => `shell-${id}`).join(' '));
      }
      const href = e.getAttribute('href');
      if (e.tagName === 'A' && href?.startsWith('#') && href.length > 1) e.setAttribute('href', `#shell-${href.slice(1)}`);
    }
    // The app's own addresses, relative to the page whatever path it was served from here.
    for (const a of copy.querySelectorAll('a[href]')) {
      const url = new URL(a.getAttribute('href'), location.href);
      if (url.origin === location.origin && url.pathname === location.pathname) a.setAttribute('href', `./${url.search}${url.hash}`);
    }
    // No inline style or handler (the page's Content Security Policy would refuse them).
    const inline = [...copy.querySelectorAll('*')].find(e => e.hasAttribute('style') || [...e.attributes].some(a => a.name.startsWith('on')));
    if (inline) throw new Error(`the copy holds an inline style or handler: ${inline.outerHTML.slice(0, 200)}`);
    const walker = document.createTreeWalker(copy, NodeFilter.SHOW_COMMENT);
    const comments = [];
    while (walker.nextNode()) comments.push(walker.currentNode);
    comments.forEach(c => c.remove());
    return copy.innerHTML;
  });
  if (problems.length) throw new Error(`the app failed while being copied: ${problems.join('; ')}`);
} finally {
  await browser.close();
  site.close();
}
if (!shell.includes('id="shell-topic"') || !shell.includes('id="shell-start"')) {
  throw new Error('the prerendered setup screen has no topic field or Start button');
}
// Its script runs before the copy is parsed, so nothing is painted before it decides whether
// to show it; placed in the body, after the head's preloads, it delays none of them.
// Text that would end or confuse the element's contents cannot be written inside one, nor
// what the HTML parser changes before the browser hashes it (a carriage return, a NUL).
const inline = (what, tag, text) => {
  if (new RegExp(`</${tag}|<!--|<${tag}|[\r\0]`, 'i').test(text)) throw new Error(`${what} holds text that cannot sit inside an inline <${tag}>`);
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
};
/** The page's policy with `hash` allowed beside 'self' in `directive`. */
const allow = (page, directive, hash) => {
  const out = page.replace(/<meta[^>]*Content-Security-Policy[^>]*>/i,
    meta => meta.replace(`${directive} 'self'`, () => `${directive} 'self' ${hash}`));
  if (out === page) throw new Error(`index.html's Content Security Policy has no ${directive} 'self' to allow the inline one beside`);
  return out;
};
// The stylesheet's <link>, whatever the order of its attributes.
const link = [...html.matchAll(/<link\s[^>]*>/g)].map(([tag]) => [tag, tag.match(/\shref="?\.?\/?(style-[0-9a-f]+\.css)/)?.[1]])
  .find(([tag, href]) => href && /\srel="?stylesheet\b/.test(tag));
if (!link) throw new Error('index.html links no stylesheet to write into it');
const css = await readFile(join(dist, link[1]), 'utf8');
const hashes = { script: inline('shell.js', 'script', script), style: inline(link[1], 'style', css) };
if (!html.includes('</noscript>')) throw new Error('index.html has no <noscript> to put the setup screen after');
// Functions, so a `$` in the copy's text, the script or the stylesheet is never read as a
// replacement pattern.
const out = allow(allow(html, 'script-src', hashes.script), 'style-src', hashes.style)
  .replace(link[0], () => `<style>${css}</style>`)
  .replace('</noscript>', () => `</noscript><script>${script}</script>${MARK}>${shell}</div>`);
await writeFile(indexPath, out);
await rm(shellPath);
console.log(`  prerendered the setup screen into index.html (${shell.length} bytes), with shell.js (${script.length} bytes) and the stylesheet (${css.length} bytes)`);
// A host that sends a policy header of its own must allow these too (README, "Deploy").
console.log(`  the page's policy allows them by hash: script-src ${hashes.script}, style-src ${hashes.style}`);
