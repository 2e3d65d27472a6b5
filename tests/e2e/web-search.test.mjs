// The provider's web search, against the stand-in behind an OpenRouter connection (which
// sends OpenRouter's search tool and reads its `url_citation` annotations): a connection
// that cannot search says why, a seat switched on searches while the other does not, the
// pages it cited show as links under its turn and become sources the other seat's quote is
// checked against, and a search the provider refuses leaves the turn written without it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { world, openApp, addConnection } from './harness.mjs';

const w = world('e2e-web-search.json');
const TOPIC = 'Should cities charge cars to enter their centres?';

/** The setup with a plain stand-in connection (which cannot search) and an OpenRouter one
 * pointed at the stand-in (which can), the latter chosen for every seat. */
async function setUp() {
  const { page } = await openApp(w.browser, w.site.url);
  await addConnection(page, { name: 'Plain stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await page.locator('.web-search-form > summary').click();
  const plain = page.locator('.seat-search', { hasText: 'Position A' });
  assert.equal(await plain.locator('input.search-web').isDisabled(), true);
  assert.match(await plain.locator('.cannot-search').textContent(), /no web search Agora knows of/);

  await page.getByRole('button', { name: /Add a connection/ }).click();
  await page.selectOption('#conn-provider', 'OpenRouter');
  assert.match(await page.locator('#conn-web-search').textContent(), /can search the web on your key \(OpenRouter's web search tool\)/);
  await page.getByRole('button', { name: /Close/ }).first().click();
  await addConnection(page, { provider: 'OpenRouter', name: 'Router stand-in', url: `${w.standin.base}/v1`, model: 'openai/gpt-4o-mini', key: 'sk-or-test', callHeader: true });
  await page.fill('#topic', TOPIC);
  await page.fill('#rounds', '1');
  return page;
}

test('a seat that searches shows the pages cited, which become sources the other seat quotes', async () => {
  const page = await setUp();
  const a = page.locator('input.search-web[data-seat="position-a"]');
  assert.equal(await a.isDisabled(), false);
  await a.check();
  assert.match(await page.locator('.web-search-form > summary').textContent(), /on for 1 seat/);
  await page.click('#start');
  await page.waitForSelector('.badge.done', { timeout: 60_000 });

  // Only position A's speeches asked the provider to search.
  const log = (await w.standin.log()).filter((r) => r.purpose);
  for (const r of log) {
    assert.equal(r.search, r.seat === 'position-a' && r.purpose === 'argument', `${r.seat} ${r.purpose}`);
  }

  // Its first turn lists the two web pages (never the hostile address), as links that open
  // apart from Agora, with the words the provider returned.
  const cited = page.locator('.turn.seat-position-a .web-cited').first();
  assert.match(await cited.locator('summary').textContent(), /Searched the web · 2 pages cited/);
  await cited.locator('summary').click();
  const links = cited.locator('a');
  assert.deepEqual(await links.evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.rel, a.target])), [
    ['https://example.org/stockholm-trial', 'noopener noreferrer nofollow', '_blank'],
    ['https://example.org/map', 'noopener noreferrer nofollow', '_blank'],
  ]);
  assert.match(await cited.textContent(), /Traffic across the cordon fell by about 20 percent during the trial\./);
  assert.equal(await page.locator('a[href^="javascript"]').count(), 0);
  assert.doesNotMatch(await page.locator('main').textContent(), /A hostile link|never shown/);

  // The pages are the debate's sources W1 and W2; position B's quote of W1 is verified and
  // its made-up one is not; W1 opens in the viewer with its address.
  const sources = await page.locator('.sources-line .source-list li').allTextContents();
  assert.deepEqual(sources, ['W1 · Stockholm congestion trial', 'W2 · example.org']);
  const marks = await page.locator('.turn.seat-position-b').first().locator('q.src-quote').evaluateAll((qs) => qs.map((q) => q.dataset.status));
  assert.deepEqual(marks, ['verified', 'not-found']);
  const speech = log.find((r) => r.seat === 'position-b' && r.purpose === 'argument');
  assert.match(speech.messages[0].content, /\[W1 ¶1 · Stockholm congestion trial\]/);
  await cited.locator('button.source-id', { hasText: 'W2' }).click();
  const viewer = page.locator('.source-viewer');
  await viewer.waitFor();
  assert.match(await viewer.textContent(), /https:\/\/example\.org\/map/);
  assert.match(await viewer.textContent(), /has not read the page/);
  await page.context().close();
});

test('a search the provider refuses is asked again without it, and the turn says so', async () => {
  await w.standin.setScript({
    answers: [
      { seat: 'position-a', purpose: 'argument', occurrence: 0, fault: { status: 400, body: 'web search is not available for this model' } },
      { seat: 'position-a', purpose: 'argument', text: 'From what I know, traffic fell.', chunk_delay_ms: 2 },
    ],
    default: { chunk_delay_ms: 2 },
  });
  const page = await setUp();
  await page.locator('input.search-web[data-seat="position-a"]').check();
  await page.click('#start');
  await page.waitForSelector('.badge.done', { timeout: 60_000 });
  const first = page.locator('.turn.seat-position-a').first();
  assert.match(await first.locator('.md').textContent(), /From what I know, traffic fell\./);
  const note = await first.locator('.web-failed').textContent();
  assert.match(note, /refused the web search \(web search is not available for this model\); this turn was written without it/);
  assert.equal(await page.locator('.turn.seat-position-a .turn-status.error').count(), 0, 'no failed attempt is shown');
  await page.context().close();
});
