// A panic in the release build (which aborts) shows a banner with its message and a Reload
// button instead of leaving a page that silently stopped answering.
//
// The panic is a real one, through no test-only code in the app: the browser's
// createElement is made to fail once, as a broken or hostile environment could, and Leptos
// panics on that failure (it unwraps it) when the next view is built.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openApp, expectPageProblem } from './harness.mjs';

let site, browser;
before(async () => { site = await serveDist(); browser = await launch(); });
after(async () => { await browser?.close(); site?.close(); });

test('a panic shows a banner with its message, and Reload brings the app back', async () => {
  // The panic aborts the wasm ("unreachable"), which is what this test makes happen.
  expectPageProblem(/uncaught error .*: unreachable/);
  const { page, consoleLines } = await openApp(browser, site.url);
  assert.equal(await page.locator('#panic').count(), 0);

  // Broken from the click on, so the failure meets the view that click builds, not whatever
  // else the page was drawing at the time (a chunk fetched in the background, say).
  await page.evaluate(() => {
    document.addEventListener('click', () => {
      const original = Document.prototype.createElement;
      Document.prototype.createElement = function () {
        Document.prototype.createElement = original;
        throw new DOMException('createElement failed on purpose', 'InvalidStateError');
      };
    }, { capture: true, once: true });
  });
  await page.getByRole('button', { name: /Add a connection/ }).click();

  const banner = page.locator('#panic');
  await banner.waitFor();
  assert.equal(await banner.getAttribute('role'), 'alert');
  assert.match(await banner.textContent(), /Agora hit a bug and stopped\./);
  assert.match(await banner.locator('code').textContent(), /createElement failed on purpose/);
  assert.ok(await banner.isVisible());
  // Keyboard users land on the way out.
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Reload');
  assert.ok(consoleLines.some(l => l.startsWith('error: Agora hit a bug')), consoleLines.join('\n'));
  // The dead page below is dimmed and takes no clicks.
  assert.ok(await page.evaluate(() => document.elementFromPoint(innerWidth / 2, innerHeight - 20)?.closest('#panic') != null));
  // The form never appeared: the app really stopped.
  assert.equal(await page.locator('#conn-name').count(), 0);

  await Promise.all([page.waitForEvent('load'), banner.getByRole('button', { name: 'Reload' }).click()]);
  await page.waitForSelector('#start:not([disabled])');
  assert.equal(await page.locator('#panic').count(), 0);
  await page.getByRole('button', { name: /Add a connection/ }).click();
  await page.waitForSelector('#conn-name');
});
