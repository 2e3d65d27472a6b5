// The API key is the user's: after a debate it is in no IndexedDB store, no export format,
// no request shown under a turn and no console line, with or without "Remember"; without
// it, it is nowhere in web storage; with it, it is in exactly one localStorage entry of its
// own and survives a reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { world, openApp, dumpIndexedDb } from './harness.mjs';

const w = world('e2e-classic.json');

async function webStorage(page) {
  return page.evaluate(() => Object.entries(localStorage).map(([k, v]) => ({ k, v, where: 'local' }))
    .concat(Object.entries(sessionStorage).map(([k, v]) => ({ k, v, where: 'session' }))));
}

async function debate(page, key, remember) {
  await page.getByRole('button', { name: /Add a connection/ }).click();
  await page.selectOption('#conn-provider', 'Other OpenAI-compatible');
  await page.fill('#conn-name', 'Stand-in');
  await page.fill('#conn-url', `${w.standin.base}/v1`);
  await page.fill('#conn-model', 'standin');
  await page.fill('#conn-key', key);
  if (remember) await page.check('#conn-remember');
  await page.check('#conn-call-header');
  await page.click('#conn-save');
  await page.fill('#topic', `Keys, remembered: ${remember}`);
  await page.fill('#rounds', '1');
  await page.click('#start');
  await page.waitForSelector('.badge.done', { timeout: 60_000 });
}

for (const remember of [false, true]) {
  test(`the key leaves no trace ${remember ? 'but its own entry when remembered' : 'when not remembered'}`, async () => {
    await w.standin.setScript({ default: { chunk_delay_ms: 2 } });
    const key = `sk-trace-${remember ? 'kept' : 'gone'}-5f3a9c`;
    const { page, context, consoleLines } = await openApp(w.browser, w.site.url);
    await debate(page, key, remember);
    assert.ok((await w.standin.log()).every(r => r.authorized), 'the key was sent to the provider');

    assert.ok(!(await dumpIndexedDb(page)).includes(key), 'the key reached IndexedDB');
    for (const button of ['#export-md', '#export-json']) {
      const [d] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
      const text = await readFile(await d.path(), 'utf8');
      assert.ok(text.includes('Keys, remembered'), `${button} exported the debate`);
      assert.ok(!text.includes(key), `the key reached the ${button} file`);
    }
    // The request shown under each turn names the key's header but not the key.
    const requests = await page.$$eval('details.request pre', ps => ps.map(p => p.textContent));
    assert.equal(requests.length, 11);
    assert.ok(requests.every(r => r.includes('Authorization: Bearer [key]') && !r.includes(key)));
    assert.ok(!consoleLines.join('\n').includes(key), 'the key reached the console');
    const holding = (await webStorage(page)).filter(e => e.v.includes(key) || e.k.includes(key));
    if (remember) {
      assert.equal(holding.length, 1, JSON.stringify(holding));
      assert.match(holding[0].k, /^agora\.key\.c-stand-in-/);
      assert.equal(holding[0].v, key);
      assert.equal(holding[0].where, 'local');
    } else {
      assert.deepEqual(holding, []);
    }

    // After a reload the connection is still there; its key only if it was remembered.
    await w.standin.setScript({ default: { chunk_delay_ms: 2 } });
    const again = await context.newPage();
    await again.goto(w.site.url);
    await again.waitForSelector('#start:not([disabled])');
    await again.selectOption('#connection', { label: 'Stand-in' });
    await again.fill('#topic', 'After a reload');
    await again.fill('#rounds', '1');
    await again.click('#start');
    await again.waitForSelector('.badge.done', { timeout: 60_000 });
    const sent = (await w.standin.log()).map(r => r.authorized);
    assert.ok(sent.length === 13 && sent.every(a => a === remember), `authorized after reload: ${sent}`);
    assert.ok(!(await dumpIndexedDb(again)).includes(key), 'the key reached IndexedDB after the reload');
  });
}
