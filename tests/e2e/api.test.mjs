// The JS API against the release build: a page on the same host imports dist/agora.js and
// runs a debate of each format on the scripted provider (no key, no network), aborts one
// midway, and gets errors that name the wrong field. The calls are made by
// api/sample.ts, type-checked against dist/agora.d.ts by tsc first and then run compiled,
// so the declarations and the module cannot drift apart.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveDist, launch, ROOT } from './harness.mjs';

const w = {};
const HOST_PAGE = '<!doctype html><html lang="en"><title>A page using Agora</title><body><p>Host page</p></body></html>';

before(async () => {
  // Type-check the sample against the declarations, then compile it for the browser.
  const out = mkdtempSync(join(tmpdir(), 'agora-api-'));
  const tsc = join(import.meta.dirname, 'node_modules/typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(import.meta.dirname, 'api'), '--outDir', out], { stdio: 'inherit' });
  const sample = readFileSync(join(out, 'sample.js'));
  const reply = (type, body) => (req, res) => res.writeHead(200, { 'Content-Type': type }).end(body);
  w.site = await serveDist({ routes: { 'host.html': reply('text/html', HOST_PAGE), 'sample.js': reply('text/javascript', sample) } });
  w.browser = await launch();
});
after(async () => { await w.browser?.close(); w.site?.close(); });

async function hostPage() {
  const context = await w.browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', e => errors.push(e.message));
  await page.goto(`${w.site.url}host.html`);
  return { page, errors };
}

/** The keys a union in agora.d.ts declares (`| { Name: …`), to hold the runtime to it. */
function declared(union) {
  const dts = readFileSync(join(ROOT, 'dist/agora.d.ts'), 'utf8');
  const start = dts.indexOf(`export type ${union} =`);
  const body = dts.slice(start, dts.indexOf(';\n', start));
  return new Set([...body.matchAll(/\|\s*(?:\{\s*(\w+):|'(\w+)')/g)].map(m => m[1] ?? m[2]));
}

test('runDebate runs each of the five formats on a scripted connection and returns the export', async () => {
  const { page, errors } = await hostPage();
  const runs = await page.evaluate(async () => {
    const agora = await import('./agora.js');
    const sample = await import('./sample.js');
    const out = [];
    for (const f of ['classic', 'duelogic', 'forecast', 'crux', 'council']) out.push(await sample.runOne(agora, f));
    return out;
  });
  const events = declared('EventKind');
  const findings = declared('FindingBody');
  for (const r of runs) {
    assert.equal(r.outcome, 'completed', `${r.format} completed`);
    assert.ok(r.turns >= 4, `${r.format}: ${r.turns} turns`);
    assert.ok(r.deltas > r.turns, `${r.format}: the text streamed (${r.deltas} deltas)`);
    assert.deepEqual(r.heard, r.seqs, `${r.format}: onEvent heard every event of the result, in order`);
    assert.equal(r.cost, 0, `${r.format}: a script costs nothing`);
    for (const e of r.events) assert.ok(events.has(e), `${r.format}: event ${e} is declared in agora.d.ts`);
    for (const f of r.findings) assert.ok(findings.has(f), `${r.format}: finding ${f} is declared in agora.d.ts`);
  }
  const byFormat = Object.fromEntries(runs.map(r => [r.format, r.findings]));
  assert.ok(byFormat.duelogic.includes('Evaluation'), `duelogic evaluates: ${byFormat.duelogic}`);
  assert.ok(byFormat.forecast.includes('Forecast'), `forecast forecasts: ${byFormat.forecast}`);
  assert.ok(byFormat.crux.includes('Aspects') && byFormat.crux.includes('CruxCard'), `crux finds aspects and cards: ${byFormat.crux}`);
  assert.ok(byFormat.council.includes('Council'), `the council ranks and says whether it was worth it: ${byFormat.council}`);
  for (const r of runs) assert.ok(!r.findings.includes('Unscored'), `${r.format}: generated answers follow each call's schema: ${r.findings}`);
  assert.deepEqual(errors, []);
  assert.equal(await page.locator('body').innerText(), 'Host page', 'the API put nothing on the host page');
});

test('an aborted run stops midway and rejects with an AbortError holding the debate so far', async () => {
  const { page } = await hostPage();
  const r = await page.evaluate(async () => {
    const agora = await import('./agora.js');
    const sample = await import('./sample.js');
    return sample.abortMidway(agora);
  });
  assert.equal(r.name, 'AbortError', r.message);
  assert.equal(r.finished, 'stopped');
  assert.ok(r.events > 2 && r.events < 12, `stopped early: ${r.events} events`);
});

test('a wrong configuration is refused with the field named, and a refused key stops the run with its reason', async () => {
  const { page } = await hostPage();
  const r = await page.evaluate(async () => {
    const { runDebate } = await import('./agora.js');
    const reason = async (p) => p.then(() => 'resolved', e => `${e.name}: ${e.message}`);
    const scripted = { kind: 'scripted', script: {} };
    return {
      format: await reason(runDebate({ format: 'debate-club', topic: 't', connections: [scripted] })),
      script: await reason(runDebate({ format: 'classic', topic: 't', connections: [{ kind: 'scripted', script: { answers: [{ seat: 'moderator', frist_delay_ms: 3 }] } }] })),
      option: await reason(runDebate({ format: 'classic', topic: 't', connections: [scripted], options: { roundz: 3 } })),
      onEvent: await reason(runDebate({ format: 'classic', topic: 't', connections: [scripted] }, { onEvent: 'yes' })),
      key: await runDebate({
        format: 'classic', topic: 'A key the provider refuses',
        connections: [{ kind: 'scripted', script: { answers: [{ seat: 'position-a', fault: { status: 401, body: 'invalid api key' } }] } }],
      }).then(() => null, e => ({ name: e.name, message: e.message, turns: e.debate.events.filter(x => x.kind.TurnFinished).length })),
      retried: await runDebate({
        format: 'classic', topic: 'A rate limit', options: { rounds: 1 },
        connections: [{ kind: 'scripted', script: { answers: [{ seat: 'position-a', occurrence: 0, fault: { status: 429, headers: { 'retry-after': '1' } } }] } }],
      }).then(d => d.events.filter(x => x.kind.RetryScheduled).map(x => x.kind.RetryScheduled.wait_ms)),
    };
  });
  assert.match(r.format, /^TypeError: .*`format`.*classic/);
  assert.match(r.script, /^TypeError: .*`connections\[0\]\.script\.answers\[0\]\.frist_delay_ms`/);
  assert.match(r.option, /^TypeError: .*`options\.roundz`.*rounds/);
  assert.match(r.onEvent, /^TypeError: .*`onEvent`/);
  assert.equal(r.key.name, 'AgoraError');
  assert.match(r.key.message, /401|key/i);
  assert.ok(r.key.turns >= 1, 'the debate so far comes with the error');
  assert.equal(r.retried.length, 1, 'one retry after the 429');
  assert.ok(r.retried[0] >= 1000, `waited as Retry-After said: ${r.retried[0]} ms`);
});
