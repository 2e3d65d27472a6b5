// A visitor's first debate on a hosted page: a static host has no local model server and
// may not serve a model file. The page finds out which no-key connection works (without
// holding up the first screen), starts the visitor on the best one, offers the choices
// plainly when none works, and words a failed local model for this page: `bash .ci/serve`
// is named only where the run command served it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { launch, serveDist, ROOT } from './harness.mjs';

const SHOTS = join(ROOT, 'tests/e2e/artifacts');

const MODEL = 'models/SmolLM2-135M-Instruct.Q4_1.gguf';
let browser;
after(async () => { await browser?.close(); });

/** Opens `site` with nothing listening at the local model's address. */
async function visit(site) {
  browser ??= await launch();
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  // Whatever runs on this machine, the visitor's computer has no model server.
  await context.route('http://127.0.0.1:8081/**', r => r.abort('connectionrefused'));
  const page = await context.newPage();
  await page.goto(site.url);
  await page.waitForSelector('#start:not([disabled])');
  return page;
}

const noModel = { [MODEL]: (req, res) => res.writeHead(404).end() };

test('with no local server and no served model, the choices are offered and the demo runs a suggested topic', async () => {
  const site = await serveDist({ routes: noModel });
  try {
    const page = await visit(site);
    await page.waitForSelector('#no-key');
    await mkdir(SHOTS, { recursive: true });
    await page.locator('#no-key').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'visitor-choices-390.png') });
    assert.equal(await page.locator('#connection').inputValue(), '', 'no connection that would fail at once');
    assert.match(await page.locator('#connection option[value="local"]').textContent(), /not answering on this computer/);
    await page.locator('.suggestions .chip').first().click();
    // Start without a choice says what to do, and starts nothing.
    await page.click('#start');
    assert.match(await page.locator('.setup [role=alert]').textContent(), /Choose a connection first/);
    assert.match(page.url(), /sub-path\/$/);

    await page.click('#use-demo');
    assert.equal(await page.locator('#connection').inputValue(), 'demo');
    assert.equal(await page.locator('#no-key').count(), 0);
    await page.click('#start');
    await page.waitForSelector('.badge.done', { timeout: 90_000 });
    assert.equal(await page.locator('.turn[data-status="failed"], .note.error, [role=alert]').count(), 0);
    assert.ok(await page.locator('.turn[data-status="done"]').count() > 5);
  } finally {
    site.close();
  }
});

test('with the model file served beside the app, the model inside the page is the default', async () => {
  const site = await serveDist({ routes: { [MODEL]: (req, res) => res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(req.method === 'HEAD' ? undefined : 'GGUF') } });
  try {
    const page = await visit(site);
    await page.waitForFunction(() => document.querySelector('#connection')?.value === 'inpage');
    assert.equal(await page.locator('#no-key').count(), 0);
  } finally {
    site.close();
  }
});

/** Starts a debate on the (unreachable) local model and returns what the page says. */
async function localModelFails(site) {
  const page = await visit(site);
  await page.waitForSelector('#no-key');
  await page.selectOption('#connection', 'local');
  await page.fill('#topic', 'Should cities ban private cars from their centres?');
  await page.click('#start');
  await page.waitForFunction(() => /Could not reach http:\/\/127\.0\.0\.1:8081/.test(document.querySelector('section.debate')?.textContent ?? ''), null, { timeout: 30_000 });
  const said = await page.locator('section.debate').textContent();
  await page.click('#stop').catch(() => {});
  return said;
}

test('an unreachable local model says what to do on this page, and names the run command only where it served the page', async () => {
  const hosted = await serveDist({ routes: noModel });
  try {
    const said = await localModelFails(hosted);
    assert.match(said, /no local model server on this computer/);
    assert.match(said, /scripted test answers/);
    assert.doesNotMatch(said, /\.ci\/serve/);
  } finally {
    hosted.close();
  }
  const served = await serveDist({ routes: noModel, headers: { 'Server-Timing': 'agora-serve' } });
  try {
    const said = await localModelFails(served);
    assert.match(said, /`bash \.ci\/serve` starts it/);
  } finally {
    served.close();
  }
});
