// Checks that a built page keeps its Content Security Policy: it has one, and every inline
// <script> and <style> is one the policy names by its SHA-256 (the prerendered setup
// screen's www/shell.js and the stylesheet, .ci/prerender.mjs), so none is refused on load
// and no other can run. Usage: node .ci/check-csp.mjs dist/index.html
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';

const path = process.argv[2];
const html = await readFile(path, 'utf8');
const fail = why => { console.error(`${path} ${why}`); process.exit(1); };
const meta = html.match(/<meta[^>]*http-equiv="?Content-Security-Policy[^>]*>/i)?.[0];
const policy = meta?.match(/content="([^"]*)"/i)?.[1];
if (!policy) fail('has no Content Security Policy');
const sources = name => policy.split(';').map(d => d.trim().split(/\s+/)).find(([d]) => d === name)?.slice(1) ?? [];
for (const [tag, directive] of [['script', 'script-src'], ['style', 'style-src']]) {
  for (const [, attrs, body] of html.matchAll(new RegExp(`<${tag}(\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'gi'))) {
    if (tag === 'script' && /\ssrc=/i.test(attrs ?? '')) continue;
    // The browser hashes the element's text as parsed: line breaks made plain.
    const hash = `'sha256-${createHash('sha256').update(body.replace(/\r\n?/g, '\n')).digest('base64')}'`;
    if (!sources(directive).includes(hash)) fail(`has an inline <${tag}> its Content Security Policy's ${directive} does not name (${hash}), so it would be refused`);
  }
}
