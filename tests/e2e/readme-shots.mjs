// The README's screenshots, taken from the gallery of example debates on the release build:
// each example skipped to its end, on a wide (1280 px) and a narrow (390 px) viewport, the
// first screen a visitor with no key sees, and the widget on www/embed.html. Run by `bash .ci/screenshots`, which builds
// dist/ first when it is stale; the pictures go to docs/screenshots/.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { launch, serveDist, ROOT } from './harness.mjs';

const OUT = join(ROOT, 'docs/screenshots');
const EXAMPLES = ['classic', 'duelogic', 'forecast', 'crux', 'council'];
/** What each example's picture opens on: its format's main findings. */
const ANCHORS = { classic: '.sources-line', duelogic: '.turn.was-cut', forecast: '.fc-headline', crux: '.crux-deck', council: '.council-panel' };
const VIEWPORTS = [{ name: '1280', width: 1280, height: 900 }, { name: '390', width: 390, height: 844 }];

await mkdir(OUT, { recursive: true });
const site = await serveDist({ routes: { 'models/SmolLM2-135M-Instruct.Q4_1.gguf': (req, res) => res.writeHead(404).end() } });
const browser = await launch();
try {
  for (const vp of VIEWPORTS) {
    const context = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, colorScheme: 'light' });
    // A visitor's computer: no local model server.
    await context.route('http://127.0.0.1:8081/**', r => r.abort('connectionrefused'));
    const page = await context.newPage();
    await page.goto(site.url);
    await page.waitForSelector('#gallery[open]', { timeout: 30_000 });
    await page.screenshot({ path: join(OUT, `first-screen-${vp.name}.png`) });
    for (const name of EXAMPLES) {
      await page.goto(`${site.url}?example=${name}`);
      await page.waitForSelector('#replay-exit', { timeout: 30_000 });
      await page.click('#replay-exit');
      await page.waitForFunction(() => !document.querySelector('.transcript[aria-busy="true"]'));
      // Where the format's findings begin, just under the bars that stay at the top.
      await page.evaluate(sel => {
        const el = document.querySelector(sel) ?? document.querySelector('.debate-head');
        window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY);
        // Then back by what stays on top (the bar, the progress line) and a little air.
        const covered = Math.max(...[...document.querySelectorAll('.topbar, .progress')]
          .map(b => b.getBoundingClientRect().bottom).filter(b => b > 0 && b < window.innerHeight / 2), 0);
        window.scrollBy(0, -(covered + 16));
      }, ANCHORS[name]);
      // Turns off screen are drawn as they come into view (content-visibility): let them paint.
      await page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(OUT, `example-${name}-${vp.name}.png`) });
      console.log(`  docs/screenshots/example-${name}-${vp.name}.png`);
    }
    // A site owner's page: www/embed.html, an example in the widget, and a live one beside it.
    await page.goto(`${site.url}embed.html`);
    await page.locator('#recorded .badge.done').waitFor({ timeout: 30_000 });
    await page.screenshot({ path: join(OUT, `widget-${vp.name}.png`) });
    console.log(`  docs/screenshots/widget-${vp.name}.png`);
    await context.close();
  }
} finally {
  await browser.close();
  site.close();
}
