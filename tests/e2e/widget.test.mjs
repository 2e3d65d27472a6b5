// The <agora-debate> widget against the release build, on www/embed.html (a host page
// with loud styles of its own): the recorded debate shows every turn and finding with no
// model called; the live widget runs a debate against the stand-in and the host page hears
// its events; styles do not cross the shadow root either way; and a host page whose
// Content Security Policy forbids WebAssembly shows the visitor why nothing appears. On
// another origin, a key the visitor types into a `visitor-key` widget stays in Agora's
// frame, out of the host page's reach, and the debate still runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { world, serveDist, ROOT, expectPageProblem } from './harness.mjs';

const w = world('e2e-classic.json');
const recorded = JSON.parse(readFileSync(join(ROOT, 'www/examples/duelogic.json'), 'utf8'));
const count = (pred) => recorded.events.filter(e => typeof e.kind === 'object' && pred(e.kind)).length;

async function embedPage(width = 1280) {
  const context = await w.browser.newContext({ viewport: { width, height: 1000 } });
  const page = await context.newPage();
  const requests = [];
  const errors = [];
  page.on('request', r => requests.push(r.url()));
  page.on('pageerror', e => errors.push(e.message));
  await page.goto(`${w.site.url}embed.html`);
  return { context, page, requests, errors };
}

test('the recorded widget shows every turn and finding, and nothing is called', async () => {
  const { page, requests, errors, context } = await embedPage();
  const widget = page.locator('#recorded');
  await widget.locator('.badge.done').waitFor({ timeout: 30_000 });
  // Every turn but the Arbiter's evaluations (shown as scorecards) and the interruption
  // checks (folded analysis calls). A stored debate is drawn a slice at a time: wait for
  // the last turn.
  const turns = count(k => k.TurnStarted && !['evaluation', 'check'].includes(k.TurnStarted.purpose));
  await widget.locator('.turn').nth(turns - 1).waitFor();
  assert.equal(await widget.locator('.turn').count(), turns, 'every turn');
  assert.equal(await widget.locator('.scorecard').count(), count(k => k.FindingRecorded?.body.Evaluation), 'every evaluation');
  assert.equal((await widget.locator('h1.topic').textContent()).trim(), recorded.events[0].kind.DebateStarted.config.topic);
  // Replay works inside the widget.
  await widget.getByRole('button', { name: 'Replay' }).click();
  await widget.locator('.replay input[type=range]').waitFor();
  assert.ok(requests.every(u => u.startsWith(w.site.url)), `only Agora's own files were fetched: ${requests.filter(u => !u.startsWith(w.site.url))}`);
  // The page's widgets were on it before the module defined them: each is drawn once.
  assert.equal(requests.filter(u => u.endsWith('examples/duelogic.json')).length, 1, 'the debate\'s file is fetched once');
  assert.deepEqual(await w.standin.log(), [], 'no model was called');
  assert.deepEqual(errors, []);
  await context.close();
});

test('recorded crux, forecast and council debates show their cards, charts and verdicts in the widget', async () => {
  const context = await w.browser.newContext();
  const page = await context.newPage();
  await page.route(`${w.site.url}formats-host.html`, r => r.fulfill({ contentType: 'text/html',
    body: '<!doctype html><title>Host</title><script type="module" src="./agora.js"></script><div id="here"></div>' }));
  await page.goto(`${w.site.url}formats-host.html`);
  const expected = await page.evaluate(async () => {
    const { runDebate } = await import('./agora.js');
    const scripted = [{ kind: 'scripted', script: {} }];
    const out = {};
    for (const [format, options] of [['crux', { aspects: 1, max_exchanges: 4 }], ['forecast', { rounds: 2 }], ['council', { second_round: true }]]) {
      const debate = await runDebate({ format, topic: `A recorded ${format} debate`, options, connections: scripted });
      const el = document.createElement('agora-debate');
      el.id = format;
      const json = document.createElement('script');
      json.type = 'application/json';
      json.textContent = JSON.stringify(debate);
      el.append(json);
      document.getElementById('here').append(el);
      const findings = debate.events.filter(e => e.kind.FindingRecorded).map(e => e.kind.FindingRecorded.body);
      out[format] = { cards: findings.filter(b => b.CruxCard).length, outcomes: debate.events[0].kind.DebateStarted.config.options.forecast?.outcomes.length,
        ballots: findings.filter(b => b.Council?.Ballot).length };
    }
    return out;
  });
  assert.ok(expected.crux.cards >= 1);
  await page.locator('#crux .crux-deck .crux-card').first().waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('#crux .crux-deck .crux-card').count(), expected.crux.cards, 'every crux card in the deck');
  await page.locator('#forecast .fc-chart').first().waitFor();
  assert.equal(await page.locator('#forecast .fc-chart').count(), expected.forecast.outcomes, 'a chart per outcome');
  assert.match(await page.locator('#forecast .fc-headline').textContent(), /Most likely/);
  // The council's ballots, ranking and verdict, its three members revised and reviewed.
  assert.equal(expected.council.ballots, 3);
  await page.locator('#council .council-panel .council-worth').waitFor();
  assert.equal(await page.locator('#council .council-ballot').count(), 3);
  assert.match(await page.locator('#council .council-ranking h3').textContent(), /revised answers/);
  await context.close();
});

test('a share link opens in the widget too, through src or the share attribute', async () => {
  const fragment = `share=1.${deflateSync(JSON.stringify(recorded)).toString('base64url')}`;
  const context = await w.browser.newContext();
  const page = await context.newPage();
  const html = `<!doctype html><title>Host</title><script type="module" src="./agora.js"></script>
    <agora-debate id="a" src="${w.site.url}#${fragment}"></agora-debate><agora-debate id="b" share="#${fragment}"></agora-debate>`;
  await page.route(`${w.site.url}shared-host.html`, r => r.fulfill({ contentType: 'text/html', body: html }));
  await page.goto(`${w.site.url}shared-host.html`);
  for (const id of ['a', 'b']) {
    await page.locator(`#${id} .badge.done`).waitFor({ timeout: 30_000 });
    assert.equal(await page.locator(`#${id} .scorecard`).count(), count(k => k.FindingRecorded?.body.Evaluation));
  }
  await context.close();
});

test('the live widget runs a debate against the stand-in and the host page hears its events', async () => {
  await w.standin.setScript({ default: { chunk_delay_ms: 2 } });
  const { page, errors, context } = await embedPage(390);
  const heard = [];
  await page.exposeFunction('heard', (name, detail) => heard.push({ name, detail }));
  await page.evaluate(({ base }) => {
    for (const name of ['agora-turn', 'agora-finding', 'agora-finished', 'agora-error']) {
      document.addEventListener(name, e => window.heard(name, e.detail));
    }
    const live = document.getElementById('live');
    live.setAttribute('format', 'duelogic'); // attributes take the place of the config's own
    live.setAttribute('topic', 'Is a widget a good way to show a debate?');
    live.config = {
      format: 'crux', topic: 'A topic the attribute replaces', options: { rounds: 1 },
      connections: [{ kind: 'open_ai_compatible', label: 'Stand-in', base_url: `${base}/v1`, model: 'standin' }],
    };
  }, { base: w.standin.base });
  const live = page.locator('#live');
  await live.getByRole('button', { name: 'Start debate' }).click();
  await live.locator('.badge.done').waitFor({ timeout: 60_000 });
  assert.equal(await live.locator('h1.topic').textContent(), 'Is a widget a good way to show a debate?');
  assert.match(await live.locator('.debate-head .kicker').textContent(), /Duelogic debate/);
  const turns = await live.locator('.turn').count();
  assert.ok(turns >= 4, `${turns} turns`);
  await page.waitForFunction(() => document.getElementById('log').textContent.includes('live: agora-finished completed'));
  const evaluations = heard.filter(h => h.name === 'agora-finding' && h.detail.kind.FindingRecorded.body.Evaluation);
  assert.ok(evaluations.length >= 2, `the host heard each chair's evaluation (${evaluations.length})`);
  assert.ok(!(await page.locator('#log').textContent()).includes('agora-error'), 'no error before the config was set, nor after');
  const finished = heard.find(h => h.name === 'agora-finished').detail;
  assert.equal(finished.outcome, 'completed');
  assert.deepEqual(heard.filter(h => h.name === 'agora-finding').map(h => h.detail.seq),
    finished.debate.events.filter(e => e.kind.FindingRecorded).map(e => e.seq), 'one agora-finding per finding of the debate');
  assert.deepEqual(heard.filter(h => h.name === 'agora-turn').map(h => h.detail.seq),
    finished.debate.events.filter(e => e.kind.TurnFinished).map(e => e.seq), 'one agora-turn per finished turn (the Arbiter\'s evaluations too)');
  assert.ok((await w.standin.log()).length >= turns, 'the stand-in answered');

  // Styles: the host's rules do not reach in, and the widget's do not leak out.
  const styles = await page.evaluate(() => {
    const inner = document.getElementById('live').shadowRoot;
    const p = inner.querySelector('.turn .md p');
    const turn = inner.querySelector('.turn');
    const host = document.querySelector('.host-text');
    return {
      innerTransform: getComputedStyle(p).textTransform,
      innerColor: getComputedStyle(p).color,
      turnDisplay: getComputedStyle(turn).display,
      innerFont: getComputedStyle(inner.querySelector('.agora-root')).fontFamily,
      hostColor: getComputedStyle(host).color,
      hostTransform: getComputedStyle(host).textTransform,
      hostFont: getComputedStyle(document.body).fontFamily,
      sheets: document.styleSheets.length,
    };
  });
  assert.equal(styles.innerTransform, 'none', 'the host\'s uppercase stays out');
  assert.notEqual(styles.innerColor, 'rgb(187, 0, 0)', 'the host\'s red stays out');
  assert.notEqual(styles.turnDisplay, 'none', 'the host\'s .turn rule stays out');
  assert.doesNotMatch(styles.innerFont, /Georgia/);
  assert.equal(styles.hostColor, 'rgb(187, 0, 0)', 'the host keeps its own colours');
  assert.equal(styles.hostTransform, 'uppercase');
  assert.match(styles.hostFont, /Georgia/);
  assert.equal(styles.sheets, 1, 'no stylesheet added to the host page');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the live widget takes sources and a seat that searches the web, and checks the quotes against both', async () => {
  // Every call gets the same answer (the widget sends no call header); only a call that
  // asked to search gets the citation.
  await w.standin.setScript({ default: {
    chunk_delay_ms: 2,
    text: 'The report says <quote>traffic fell by a fifth in the first year</quote>, the city page that <quote>buses ran on time</quote>, and nobody said <quote>shops closed in their hundreds</quote>.',
    citations: [{ url: 'https://example.org/city', title: 'City transport page', cited_text: 'Since the charge began, buses ran on time.' }],
  } });
  const { page, errors, context } = await embedPage(390);
  await page.evaluate(({ base }) => {
    const live = document.getElementById('live');
    live.config = {
      format: 'classic', topic: 'Should cities charge cars to enter?', options: { rounds: 1 },
      connections: [{ kind: 'open_router', label: 'Router stand-in', base_url: `${base}/v1`, model: 'openai/gpt-4o-mini', api_key: 'sk-or-test' }],
      sources: [{ title: 'Traffic report', text: 'Traffic fell by a fifth in the first year.' }],
      search_web: ['position-a'],
    };
  }, { base: w.standin.base });
  const live = page.locator('#live');
  await live.getByRole('button', { name: 'Start debate' }).click();
  await live.locator('.badge.done').waitFor({ timeout: 60_000 });
  assert.deepEqual(await live.locator('.sources-line .source-list li').allTextContents(), ['S1 · Traffic report', 'W1 · City transport page']);
  // Position A searched: its turn lists the page, and its quote of the page verifies (the
  // page is a source from then on); the invented quote is not found anywhere.
  const a = live.locator('.turn.seat-position-a').first();
  assert.match(await a.locator('.web-cited summary').textContent(), /1 page cited/);
  assert.deepEqual(await a.locator('q.src-quote').evaluateAll((qs) => qs.map((q) => q.dataset.status)), ['verified', 'verified', 'not-found']);
  assert.equal(await live.locator('.turn.seat-position-b .web-cited').count(), 0, 'position B did not search');
  const searched = (await w.standin.log()).filter((r) => r.search).length;
  assert.ok(searched >= 1, 'the stand-in was asked to search');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a widget configured before agora.js defines it keeps its config, and one moved with moveBefore keeps its debate', async () => {
  const context = await w.browser.newContext({ viewport: { width: 390, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', e => errors.push(e.message));
  // A classic script creates, configures and places the element before the module runs.
  await page.route(`${w.site.url}early-host.html`, r => r.fulfill({ contentType: 'text/html', body: `<!doctype html><html lang="en"><title>Host</title>
    <div id="first"></div><div id="second"></div>
    <script>
      const el = document.createElement('agora-debate');
      el.id = 'early';
      el.config = { format: 'classic', topic: 'Configured before Agora arrived', options: { rounds: 1 }, connections: [{ kind: 'scripted', script: {} }] };
      document.getElementById('first').append(el);
      document.addEventListener('agora-error', e => { window.problem = e.detail.message; });
    </script>
    <script type="module" src="./agora.js"></script></html>` }));
  await page.goto(`${w.site.url}early-host.html`);
  const early = page.locator('#early');
  await early.getByRole('button', { name: 'Start debate' }).click();
  await early.locator('.badge.done').waitFor({ timeout: 60_000 });
  assert.equal(await early.locator('h1.topic').textContent(), 'Configured before Agora arrived');
  // Moved elsewhere on the page (moveBefore: Chromium 133 and later): the same finished
  // debate, not a new widget waiting for Start.
  const turns = await early.locator('.turn').count();
  await page.evaluate(() => document.getElementById('second').moveBefore(document.getElementById('early'), null));
  assert.equal(await page.locator('#second > #early').count(), 1);
  assert.equal(await early.locator('.badge.done').count(), 1, 'still finished');
  assert.equal(await early.locator('.turn').count(), turns, 'the same turns');
  assert.equal(await early.getByRole('button', { name: 'Start debate' }).count(), 0);
  assert.equal(await page.evaluate(() => window.problem), undefined);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a host page whose Content Security Policy forbids WebAssembly shows why the widget is empty', async () => {
  // The host page's own policy refuses the wasm: that refusal is what this test is about.
  expectPageProblem(/CSP violation in .*strict\.html/);
  const context = await w.browser.newContext();
  const page = await context.newPage();
  const html = `<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'">
    <title>Strict host</title><script type="module" src="./agora.js"></script>
    <agora-debate id="d" src="examples/duelogic.json"></agora-debate>`;
  await page.route(`${w.site.url}strict.html`, r => r.fulfill({ contentType: 'text/html', body: html }));
  // Listening from the start: the module is fetched as soon as the widget is on the page,
  // and a refused wasm can be reported before the page has loaded.
  await page.addInitScript(() => {
    window.heard = new Promise(ok => document.addEventListener('agora-error', e => ok(e.detail.message)));
  });
  await page.goto(`${w.site.url}strict.html`);
  const heard = page.evaluate(() => window.heard);
  const error = page.locator('#d p.error[role=alert]');
  await error.waitFor({ timeout: 30_000 });
  assert.equal(await heard, await error.textContent(), 'the host page hears the same message');
  assert.match(await error.textContent(), /This debate cannot be shown\. This page's Content Security Policy does not let Agora run: its script-src needs 'wasm-unsafe-eval'/);
  await context.close();
});

test('a visitor\'s key typed into a visitor-key widget on another site stays out of that site\'s reach', async () => {
  await w.standin.setScript({ default: { chunk_delay_ms: 2 } });
  const SECRET = 'sk-visitor-secret-4242';
  const agora = await serveDist({ cors: true }); // http://127.0.0.1:…
  const hostHtml = `<!doctype html><html lang="en"><title>Someone else's site</title>
    <script type="module" src="${agora.url}agora.js"></script>
    <h1>Another site</h1><agora-debate id="w" visitor-key></agora-debate>
    <script type="module">
      window.heard = [];
      for (const name of ['agora-turn', 'agora-finding', 'agora-finished', 'agora-error'])
        document.addEventListener(name, e => window.heard.push({ name, detail: e.detail }));
      document.getElementById('w').config = {
        format: 'classic', topic: 'Whose key is it?', options: { rounds: 1 },
        connections: [
          { kind: 'open_ai_compatible', label: 'Stand-in', base_url: '${w.standin.base}/v1', model: 'standin' },
          // The host could point a key anywhere: the visitor is shown where, and asked.
          { kind: 'open_ai_compatible', label: 'OpenAI', base_url: 'https://keys.example.net/v1', model: 'gpt' },
        ],
      };
    </script></html>`;
  const host = createServer((req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(hostHtml));
  await new Promise(r => host.listen(0, '127.0.0.1', r));
  const hostUrl = `http://localhost:${host.address().port}/`; // another origin than Agora's
  const context = await w.browser.newContext();
  const page = await context.newPage();
  const logs = [];
  page.on('console', m => logs.push(m.text()));
  page.on('pageerror', e => logs.push(e.message));
  try {
    await page.goto(hostUrl);
    const frame = page.frameLocator('#w iframe');
    const keys = frame.locator('input.widget-key');
    await keys.first().waitFor({ timeout: 30_000 });
    assert.deepEqual(await frame.locator('.widget-key-origin').allTextContents(),
      [`Sent only to ${w.standin.base}`, 'Sent only to https://keys.example.net']);
    await keys.nth(1).fill('sk-would-leak');
    await frame.getByRole('button', { name: 'Start debate' }).click();
    await frame.getByText(/Your key would go to https:\/\/keys\.example\.net, which is not a provider Agora knows/).waitFor();
    await keys.nth(1).fill('');
    await keys.first().fill(SECRET);
    await frame.getByRole('button', { name: 'Start debate' }).click();
    await page.waitForFunction(() => window.heard.some(h => h.name === 'agora-finished'), null, { timeout: 60_000 });
    const seen = await page.evaluate(async () => {
      const frame = document.getElementById('w').shadowRoot.querySelector('iframe');
      let reach;
      try { reach = frame.contentWindow.document.body.innerHTML; } catch (e) { reach = e.name; }
      return {
        reach,
        contentDocument: frame.contentDocument,
        finished: window.heard.find(h => h.name === 'agora-finished').detail.outcome,
        turns: window.heard.filter(h => h.name === 'agora-turn').length,
        everything: JSON.stringify(window.heard) + document.documentElement.outerHTML + JSON.stringify({ ...localStorage }),
      };
    });
    assert.equal(seen.reach, 'SecurityError', 'the host page cannot read the frame');
    assert.equal(seen.contentDocument, null);
    assert.equal(seen.finished, 'completed');
    assert.ok(seen.turns >= 5, `${seen.turns} turns heard`);
    assert.ok(!seen.everything.includes(SECRET), 'the key is nowhere the host page can read');
    const calls = (await (await fetch(`${w.standin.base}/__requests`)).json()).filter(r => r.target.includes('chat/completions') && r.body.includes('Whose key is it?'));
    assert.ok(calls.length >= seen.turns, `${calls.length} calls reached the provider`);
    for (const c of calls) {
      const auth = Object.entries(c.headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
      assert.equal(auth, `Bearer ${SECRET}`, 'each call carried the visitor\'s key');
    }
  } catch (e) {
    await page.screenshot({ path: 'artifacts/visitor-key-failure.png' });
    console.log(logs.join('\n'));
    throw e;
  } finally {
    await context.close();
    host.close();
    agora.close();
  }
});

test('each example of the gallery shows whole in a widget on a page of another origin, with nothing called', async () => {
  const NAMES = ['classic', 'duelogic', 'forecast', 'crux', 'council'];
  const agora = await serveDist({ cors: true }); // http://127.0.0.1:…
  const hostHtml = `<!doctype html><html lang="en"><title>A site with examples</title>
    <script type="module" src="${agora.url}agora.js"></script>
    ${NAMES.map(n => `<h2>${n}</h2><agora-debate id="${n}" src="${agora.url}examples/${n}.json"></agora-debate>`).join('\n')}
    </html>`;
  const host = createServer((req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(hostHtml));
  await new Promise(r => host.listen(0, '127.0.0.1', r));
  const context = await w.browser.newContext();
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  page.on('pageerror', e => errors.push(e.message));
  page.on('request', r => requests.push(r.url()));
  try {
    const hostUrl = `http://localhost:${host.address().port}/`; // another origin than Agora's
    await page.goto(hostUrl);
    for (const name of NAMES) {
      const example = JSON.parse(readFileSync(join(ROOT, `www/examples/${name}.json`), 'utf8'));
      const topic = example.events[0].kind.DebateStarted.config.topic;
      const widget = page.locator(`#${name}`);
      await widget.locator('.badge.done').waitFor({ timeout: 30_000 });
      await widget.locator('.transcript:not([aria-busy="true"])').waitFor();
      assert.equal((await widget.locator('h1.topic').textContent()).trim(), topic, name);
      // Each format's own view: a forecast's arguments are its forecasters' cards.
      const shown = name === 'forecast' ? '.fc-card' : '.turn[data-status="done"]';
      assert.ok(await widget.locator(shown).count() >= 5, `${name}: its turns`);
      assert.equal(await widget.locator('.turn[data-status="failed"]').count(), 0, name);
      assert.doesNotMatch(await widget.textContent(), /stands in for a model|Scripted (answer|notes|crux|reason)\b/, `${name}: no filler`);
    }
    const elsewhere = requests.filter(u => !u.startsWith(agora.url) && !u.startsWith(hostUrl));
    assert.deepEqual(elsewhere, [], 'nothing but the host page and Agora\'s own files: no model was called');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    host.close();
    agora.close();
  }
});
