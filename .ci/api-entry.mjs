// Writes dist/agora.js, the stable entry other pages import (runDebate, the widget), from
// www/agora.js with this build's hashed file names (the module, its wasm, and the app's
// stylesheet, which also styles the widget's shadow root), and puts its TypeScript
// declarations (www/agora.d.ts) beside it. Usage: node .ci/api-entry.mjs dist
import { readFile, writeFile, copyFile } from 'node:fs/promises';
import { join, resolve, dirname } from 'node:path';
import { createRequire } from 'node:module';

const dist = resolve(process.argv[2] ?? 'dist');
const www = join(dirname(new URL(import.meta.url).pathname), '../www');
const require = createRequire(join(www, '../tests/e2e/package.json'));
const { minify } = require('terser');

const html = await readFile(join(dist, 'index.html'), 'utf8');
/** The file index.html names with `pattern` (its first group), as a relative URL. */
const named = (pattern, what) => {
  const m = html.match(pattern);
  if (!m) throw new Error(`index.html names no ${what}`);
  return `./${m[1]}`;
};
// The module's files from the starter's data attributes (Trunk.toml's pattern_script).
const attr = name => named(new RegExp(`data-${name}=["']?\\.?/?([^"' >]+)`), `${name} file (Trunk.toml's pattern_script)`);
const stylesheet = named(/href=["']?\.?\/?(style-[^"' >]+\.css)/, 'stylesheet');
const source = (await readFile(join(www, 'agora.js'), 'utf8'))
  .replace('__AGORA_GLUE__', attr('js'))
  .replace('__AGORA_WASM__', attr('wasm'))
  .replace('__AGORA_CSS__', stylesheet)
  // Written by .ci/split-wasm.mjs, relative to the glue's folder.
  .replace('__AGORA_DEBATE_CHUNKS__', html.match(/data-debate=["']?([^"'>]+)["']/)?.[1] ?? '')
  .replace('__AGORA_VIEW_CHUNKS__', html.match(/data-views=["']?([^"'>]+)["']/)?.[1] ?? '');
const out = await minify(source, { module: true, compress: { passes: 2 }, mangle: true });
await writeFile(join(dist, 'agora.js'), out.code);
await copyFile(join(www, 'agora.d.ts'), join(dist, 'agora.d.ts'));
console.log(`  wrote agora.js (${attr('js')}) and agora.d.ts`);
