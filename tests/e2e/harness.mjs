// Shared by every end-to-end test: one release build (dist/) served under a sub-path, the
// OpenAI-compatible stand-in playing a JSON script, and Debian's Chromium through
// playwright-core (never a downloaded browser).
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { before, after, afterEach } from 'node:test';

import { ROOT, serveDist } from '../../.ci/serve-dist.mjs';
import { launchChromium } from '../../.ci/chromium.mjs';

export { ROOT, SUB_PATH, serveDist } from '../../.ci/serve-dist.mjs';
export { BROWSER } from '../../.ci/chromium.mjs';
// Where .ci/lib.sh builds it (its target directory outside the checkout), else cargo's default.
const STANDIN = process.env.AGORA_STANDIN_BIN || [
  process.env.CARGO_TARGET_DIR && join(process.env.CARGO_TARGET_DIR, 'debug/agora-standin'),
  join(process.env.AGORA_CACHE || join(homedir(), '.cache/agora'), 'target/debug/agora-standin'),
].find(p => p && existsSync(p)) || join(ROOT, 'target/debug/agora-standin');
/** Starts the stand-in with a script file from tests/scripts. */
export async function startStandin(scriptName) {
  const proc = spawn(STANDIN, ['--port', '0', '--script', join(ROOT, 'tests/scripts', scriptName)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise((ok, fail) => {
    const rl = createInterface({ input: proc.stdout });
    rl.once('line', ok);
    proc.once('exit', code => fail(new Error(`stand-in exited with ${code}`)));
  });
  const base = line.replace('listening on ', '').trim();
  return {
    base,
    log: async () => (await fetch(`${base}/__log`)).json(),
    /** Replaces the script (and resets its counters and the log). */
    setScript: async script => {
      const r = await fetch(`${base}/__script`, { method: 'POST', body: JSON.stringify(script) });
      if (!r.ok) throw new Error(await r.text());
    },
    close: () => proc.kill(),
  };
}

// Every page of every test is watched: an uncaught error in a page, or anything the page's
// Content Security Policy refused, fails the test that was running, unless that test named
// it beforehand with `expectPageProblem`. A page whose bars are drawn full because the policy
// dropped their style, or whose wasm threw in a timer, looks fine in a screenshot.
const problems = [];
const expected = [];

/** Lets the running test's pages raise a problem matching `pattern` (a test of a hostile
 * host page, say), which would otherwise fail it. */
export function expectPageProblem(pattern) {
  expected.push(pattern);
}

// Only under the test runner: a benchmark script that imports the harness is no test.
if (process.env.NODE_TEST_CONTEXT) afterEach(() => {
  const found = problems.splice(0);
  const allowed = expected.splice(0);
  const unexpected = found.filter(p => !allowed.some(re => re.test(p)));
  if (unexpected.length) {
    throw new Error(`The page raised what no test expected:\n${unexpected.join('\n')}`);
  }
});

function watchPage(page) {
  page.on('pageerror', e => problems.push(`uncaught error in ${page.url()}: ${e.message}`));
  page.on('console', m => {
    if (m.type() === 'error' && /Content.Security.Policy/i.test(m.text())) {
      problems.push(`CSP violation in ${page.url()}: ${m.text()}`);
    }
  });
}

function watchContext(context) {
  // Refusals the console might not show (a report from a frame, say) are said there too.
  context.addInitScript(() => document.addEventListener('securitypolicyviolation', e => {
    console.error(`Content Security Policy violation: ${e.violatedDirective} refused ${e.blockedURI || 'an inline ' + (e.sample ? `"${e.sample}"` : 'resource')}`);
  }));
  context.on('page', watchPage);
  for (const p of context.pages()) watchPage(p);
  return context;
}

/** Unless a test is about the real local model, its address answers nothing, as on a machine
 * that serves none: the page's first screen asks it whether it is there, and a server left
 * running (`.ci/serve`, or the real model's tier running beside this one) would otherwise
 * change what every test starts from. */
const NO_LOCAL_MODEL = process.env.AGORA_LOCAL_MODEL === '1' ? []
  : ['--host-resolver-rules=MAP 127.0.0.1:8081 ~NOTFOUND, MAP localhost:8081 ~NOTFOUND'];

/** The browser with the flags every end-to-end test uses; every page it opens is watched
 * for uncaught errors and Content Security Policy violations. */
export async function launch() {
  const browser = await launchChromium(NO_LOCAL_MODEL);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => watchContext(await newContext(...args));
  return browser;
}

/** A page with its console and errors collected (tests check the key never appears there). */
export async function openApp(browser, url, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const consoleLines = [];
  page.on('console', m => consoleLines.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', e => consoleLines.push(`pageerror: ${e.message}`));
  await page.goto(url);
  await page.waitForSelector('#start:not([disabled])');
  return { context, page, consoleLines };
}

/** Adds an OpenAI-compatible connection through the form, as a user would. */
export async function addConnection(page, { name, url, model, key = '', callHeader = false, concurrency, provider }) {
  await page.getByRole('button', { name: /Add a connection/ }).click();
  // A provider preset sets the connection's kind (OpenRouter's, say); the rest is filled in.
  if (provider) await page.selectOption('#conn-provider', provider);
  await page.fill('#conn-name', name);
  await page.fill('#conn-url', url);
  await page.fill('#conn-model', model);
  await page.fill('#conn-key', key);
  if (callHeader) await page.check('#conn-call-header');
  // Calls at once; the form's default where not given.
  if (concurrency !== undefined) await page.fill('#conn-concurrency', String(concurrency));
  await page.click('#conn-save');
}

/** Every event stored in this browser profile's Agora database, in key order (debate, seq):
 * one debate's log when the profile ran only one. */
export async function storedEvents(page) {
  return page.evaluate(async () => {
    const db = await new Promise((ok, fail) => { const r = indexedDB.open('agora'); r.onsuccess = () => ok(r.result); r.onerror = fail; });
    const rows = await new Promise(ok => { const r = db.transaction('events').objectStore('events').getAll(); r.onsuccess = () => ok(r.result); });
    db.close();
    return rows.map(r => JSON.parse(r.json));
  });
}

/** Everything stored in the page's IndexedDB databases, as one string. */
export async function dumpIndexedDb(page) {
  return page.evaluate(async () => {
    const out = [];
    for (const { name } of await indexedDB.databases()) {
      const db = await new Promise((ok, fail) => { const r = indexedDB.open(name); r.onsuccess = () => ok(r.result); r.onerror = fail; });
      for (const store of db.objectStoreNames) {
        const rows = await new Promise(ok => { const r = db.transaction(store).objectStore(store).getAll(); r.onsuccess = () => ok(r.result); });
        out.push(JSON.stringify(rows));
      }
      db.close();
    }
    return out.join('\n');
  });
}

/** The transcript on screen: speaker, label and text of every turn. */
export async function transcript(page) {
  // A debate just opened draws its turns once its format's drawing is here, and a long one a
  // slice at a time: the transcript says so with aria-busy, and the whole of it is read.
  await page.waitForFunction(() => !document.querySelector('.transcript[aria-busy="true"]'));
  return page.$$eval('.turn', turns => turns.map(t => ({
    speaker: t.querySelector('.speaker')?.textContent,
    label: t.querySelector('.label')?.textContent,
    text: t.querySelector('.md')?.textContent ?? '',
    status: t.dataset.status,
  })));
}

/** Starts the release build's server, a stand-in playing `scriptName` and a browser before
 * the calling file's tests, and stops them after. Fields are filled in by `before`. */
export function world(scriptName) {
  const w = {};
  before(async () => {
    w.site = await serveDist();
    w.standin = await startStandin(scriptName);
    w.browser = await launch();
  });
  after(async () => { await w.browser?.close(); w.standin?.close(); w.site?.close(); });
  return w;
}

/** A full-page screenshot with every turn painted: turns off screen skip painting
 * (`content-visibility: auto`, for long debates), which a full-page capture would show as
 * empty boxes. Set through the CSSOM, which the page's CSP allows. */
export async function fullScreenshot(page, path) {
  await page.evaluate(() => document.querySelectorAll('.transcript > .turn').forEach(t => { t.style.contentVisibility = 'visible'; }));
  await page.screenshot({ path, fullPage: true });
  await page.evaluate(() => document.querySelectorAll('.transcript > .turn').forEach(t => { t.style.contentVisibility = ''; }));
}

let axeSource;
/** Runs axe-core (npm, pinned in the lockfile) on the page as it stands, in both colour
 * schemes and at 390 and 1280 px; returns one line per serious or critical violation, named
 * by `screen`. The viewport is left as it was. */
export async function axeAudit(page, screen) {
  axeSource ??= await readFile(join(ROOT, 'tests/e2e/node_modules/axe-core/axe.min.js'), 'utf8');
  const found = [];
  const size = page.viewportSize();
  for (const colorScheme of ['light', 'dark']) {
    for (const width of [390, 1280]) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(50);
      if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
      const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
        .filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`));
      for (const v of violations) found.push(`${screen}, ${colorScheme}, ${width} px: ${v}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(size);
  return found;
}

/** Waits until a tournament's leaderboard counts `debates` judged debates and `verdicts`
 * verdicts, its intervals worked out (the page counts again a moment after the events, so
 * a leaderboard read once may be the count before the last verdict), and returns its rows'
 * cells. */
export async function settledLeaderboard(page, debates, verdicts) {
  const line = `Counted from ${debates} judged debate${debates === 1 ? '' : 's'} and ${verdicts} verdict${verdicts === 1 ? '' : 's'}.`;
  await page.waitForFunction(line => document.querySelector('#counted')?.textContent === line
    && !/being worked out/.test(document.querySelector('#leaderboard')?.textContent ?? 'being worked out'), line, { timeout: 30_000 });
  return page.locator('#leaderboard tbody tr').evaluateAll(rows =>
    rows.map(r => [...r.querySelectorAll('th, td')].map(c => c.textContent.trim())));
}
