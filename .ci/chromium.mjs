// Debian's Chromium through playwright-core (never a downloaded browser), with the flags a
// machine with a closed network needs. The build (.ci/prerender.mjs), the end-to-end tests
// (tests/e2e/harness.mjs) and the benchmarks launch it from here.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

/** Tests run in its headless shell (Debian's chromium-headless-shell: the same Blink and V8
 * without the browser's own user interface, what Playwright runs headless tests in), which
 * takes about a quarter less CPU for the same test (BENCHMARKS.md, "The test command");
 * the build and benchmarks use the whole browser, as users run it. AGORA_CHROMIUM names
 * another. */
export const BROWSER = process.env.AGORA_CHROMIUM
  || (process.env.NODE_TEST_CONTEXT && existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

/** The browser, headless, with `args` after the flags every launch uses. */
export function launchChromium(args = []) {
  return chromium.launch({
    executablePath: BROWSER,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', ...args],
  });
}
