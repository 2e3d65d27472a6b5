// The page locks itself down: a whole debate whose models write
// hostile Markdown runs, reloads, opens from history and exports with no Content Security
// Policy violation; scripts, styles, frames, forms and connections the page did not ship
// are refused; a link shows where it goes; the Markdown export carries no live HTML.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { world, addConnection, expectPageProblem } from './harness.mjs';

const w = world('e2e-classic.json');

const HOSTILE = [
  'Consider <img src=https://t.example/p.gif onerror="window.__pwned=1"> this',
  'and <script>window.__pwned=2</script> that, ![tracker](https://t.example/pixel.png)',
  'with [your bank](https://bank.example@evil.example/login) and [a script](javascript:window.__pwned=3)',
  'and https://plain.example/page too.',
].join(' ');

/** A fresh page that records every CSP violation from its first script on. */
async function watchedPage() {
  const context = await w.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', e =>
      window.__violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  const csp = [];
  page.on('console', m => { if (/Content Security Policy/i.test(m.text())) csp.push(m.text()); });
  await page.goto(w.site.url);
  await page.waitForSelector('#start:not([disabled])');
  return { context, page, csp };
}

test('a whole debate with hostile Markdown runs with no CSP violation, links show their host, the export is inert', async () => {
  await w.standin.setScript({ default: { text: HOSTILE, chunk_delay_ms: 1 } });
  const { context, page, csp } = await watchedPage();
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await page.fill('#topic', 'Is <b>markup</b> in a topic harmless?');
  await page.fill('#rounds', '1');
  await page.click('#start');
  await page.waitForSelector('.badge.done', { timeout: 60_000 });

  // Links say where they go before a click: the browser's own reading of the URL.
  const turn = page.locator('.turn .md').first();
  const bank = turn.locator('a', { hasText: 'your bank' });
  assert.equal(await bank.getAttribute('href'), 'https://bank.example@evil.example/login');
  assert.equal(await bank.getAttribute('title'), 'https://bank.example@evil.example/login');
  assert.equal(await bank.locator('xpath=following-sibling::span[1]').textContent(), ' (evil.example)');
  assert.equal(await turn.locator('.md-image .md-host').first().textContent(), ' (t.example)');
  assert.equal(await turn.locator('a', { hasText: 'https://plain.example/page' }).count(), 1);
  assert.equal(await turn.locator('a[href^="javascript"]').count(), 0);
  assert.equal(await turn.locator('img, script').count(), 0);
  assert.match(await turn.textContent(), /<img src=https:\/\/t\.example\/p\.gif/, 'raw HTML shows as text');

  // Exports, history and a reload add no violation either.
  const [md] = await Promise.all([page.waitForEvent('download'), page.click('#export-md')]);
  const text = await readFile(await md.path(), 'utf8');
  await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  await page.getByRole('link', { name: 'History' }).click();
  await page.locator('a.history-topic').first().click();
  await page.waitForSelector('.badge.done');
  await page.reload();
  await page.waitForSelector('.badge.done');
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(csp, []);

  // The Markdown file renders as text: no tag, no image, no script link; links kept.
  assert.ok(!text.includes('<'), 'a raw tag is live in the export');
  assert.ok(!text.includes('!['), 'an image would load in a Markdown viewer');
  assert.ok(!/\]\(\s*javascript:/i.test(text), 'a javascript: link is live in the export');
  assert.ok(text.includes('&lt;img src=https://t.example/p.gif'), 'the raw HTML is still there, as text');
  assert.ok(text.includes('[your bank](https://bank.example@evil.example/login)'));
  assert.ok(text.startsWith('# Is &lt;b>markup&lt;/b> in a topic harmless?'));
  await context.close();
});

test('a script, style, frame, form or connection the page did not ship is refused', async () => {
  // What this test injects is refused by the policy, as it must be.
  expectPageProblem(/CSP violation/);
  const { context, page } = await watchedPage();
  const outcome = await page.evaluate(async () => {
    const out = {};
    const add = (tag, props) => { const e = Object.assign(document.createElement(tag), props); document.body.append(e); return e; };
    add('script', { textContent: 'window.__inline = 1' });
    add('script', { src: 'data:text/javascript,window.__data=1' });
    add('script', { src: 'https://cdn.example/evil.js' });
    const div = add('div', {});
    div.setAttribute('onclick', 'window.__attr = 1');
    div.click();
    div.setAttribute('style', 'color: rgb(1, 2, 3)');
    out.styled = getComputedStyle(div).color === 'rgb(1, 2, 3)';
    add('style', { textContent: 'body { color: rgb(4, 5, 6) }' });
    out.sheet = getComputedStyle(document.body).color === 'rgb(4, 5, 6)';
    setTimeout('window.__timer = 1', 0);
    add('iframe', { src: 'https://frame.example/' });
    add('object', { data: 'https://object.example/x.swf' });
    add('img', { src: 'https://img.example/x.png' });
    add('base', { href: 'https://base.example/' });
    out.base = document.baseURI.startsWith('https://base.example');
    try { await fetch('http://192.0.2.1/v1/models'); out.fetchPlainHttp = 'sent'; } catch { out.fetchPlainHttp = 'refused'; }
    try { await fetch('http://10.0.0.1:8080/v1/models'); out.fetchLan = 'sent'; } catch { out.fetchLan = 'refused'; }
    add('form', { action: 'https://form.example/collect', method: 'post' }).requestSubmit();
    await new Promise(r => setTimeout(r, 200));
    out.ran = [window.__inline, window.__data, window.__attr, window.__timer];
    out.policy = document.querySelector('meta[http-equiv="Content-Security-Policy"]').content;
    return out;
  });
  assert.deepEqual(outcome.ran, [undefined, undefined, undefined, undefined], 'a script the page did not ship ran');
  // eval itself cannot be tried from here (DevTools' own evaluation is exempt from the
  // policy), so the policy is read: no 'unsafe-eval', no 'unsafe-inline'.
  assert.doesNotMatch(outcome.policy, /'unsafe-eval'|'unsafe-inline'|\s\*(;|\s|$)/);
  assert.equal(outcome.styled, false, 'an inline style attribute applied');
  assert.equal(outcome.sheet, false, 'an inline <style> applied');
  assert.equal(outcome.base, false, '<base> moved the page\'s URLs');
  assert.equal(outcome.fetchPlainHttp, 'refused');
  assert.equal(outcome.fetchLan, 'refused');
  // A refused form submission is reported after the submission is tried, which on a busy
  // machine can be later than the 200 ms above: wait for it rather than guess.
  await page.waitForFunction(() => (window.__violations ?? []).some(v => v.startsWith('form-action')), null, { timeout: 5_000 })
    .catch(() => {});
  const seen = (await page.evaluate(() => window.__violations)).map(v => v.split(' ')[0]);
  for (const directive of ['script-src-elem', 'script-src-attr', 'style-src-attr', 'style-src-elem', 'script-src',
    'frame-src', 'object-src', 'img-src', 'base-uri', 'connect-src', 'form-action']) {
    assert.ok(seen.includes(directive), `no ${directive} violation in ${seen}`);
  }
  // What the base-URL rule allows is what the policy allows: https anywhere, this machine's http.
  const allowed = await page.evaluate(async base => {
    const r = await fetch(`${base}/v1/models`);
    return r.status;
  }, w.standin.base);
  assert.equal(allowed, 200);
  assert.equal(page.url(), w.site.url, 'the form was not sent');
  await context.close();
});
