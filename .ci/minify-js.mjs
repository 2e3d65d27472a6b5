// Minifies the JS glue of a release build with terser and refreshes its Subresource
// Integrity hash in index.html. Trunk's own minifier gives up on wasm-bindgen's glue
// ("RequiredTokenNotFound") and leaves it as it is; this pass only compresses and mangles
// local names, so it does not depend on the glue's wording and survives wasm-bindgen
// upgrades. Usage: node .ci/minify-js.mjs dist
import { readFile, writeFile, readdir } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join, resolve, dirname } from 'node:path';
import { createRequire } from 'node:module';

const dist = resolve(process.argv[2] ?? 'dist');
const require = createRequire(join(dirname(new URL(import.meta.url).pathname), '../package.json'));
const { minify } = require('terser');

const sri = bytes => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
let html = await readFile(join(dist, 'index.html'), 'utf8');
// boot.js (www/boot.js, the starter the Content Security Policy allows instead of an inline
// script, and the service worker of the in-page model's threads) and frame.js (the visitor-key
// widget's frame) are a few lines of our own and carry no integrity hash: minified as they
// are, nothing to refresh. So is shell.js (www/shell.js, the prerendered setup screen's
// script, which .ci/prerender.mjs then writes into the page with its hash in the policy), a
// classic script rather than a module: it runs before the page is painted.
const OWN = ['boot.js', 'frame.js', 'shell.js'];
for (const name of OWN) {
  const path = join(dist, name);
  const module = name !== 'shell.js';
  const out = await minify(await readFile(path, 'utf8'), { module, compress: { passes: 2 }, mangle: true });
  await writeFile(path, out.code);
}
// The wasm's glue and its chunks' loader sit in the split's folder (.ci/split-wasm.mjs).
const top = await readdir(dist);
const split = top.filter(f => /^wasm-[0-9a-f]+$/.test(f));
const nested = (await Promise.all(split.map(async d => (await readdir(join(dist, d))).map(f => `${d}/${f}`)))).flat();
for (const name of [...top, ...nested].filter(f => f.endsWith('.js') && !OWN.includes(f))) {
  const path = join(dist, name);
  const before = await readFile(path);
  const out = await minify(before.toString('utf8'), { module: true, compress: { passes: 2 }, mangle: true });
  if (!out.code) throw new Error(`terser produced nothing for ${name}`);
  const old = sri(before);
  if (!html.includes(old)) throw new Error(`index.html does not carry the integrity hash of ${name}`);
  await writeFile(path, out.code);
  html = html.split(old).join(sri(Buffer.from(out.code)));
  console.log(`  minified ${name}: ${before.length} → ${out.code.length} bytes`);
}
await writeFile(join(dist, 'index.html'), html);
