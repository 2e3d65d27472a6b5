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
const attr = name => {
  const m = name === 'css-file'
    ? html.match(/href=["']?\.?\/?(style-[^"' >]+\.css)/)
    : html.match(new RegExp(`data-${name}=["']?\\.?/?([^"' >]+)`));
  if (!m) throw new Error(`index.html names no ${name} file (Trunk.toml's pattern_script)`);
  return `./${m[1]}`;
};
const source = (await readFile(join(www, 'agora.js'), 'utf8'))
  .replace('__AGORA_GLUE__', attr('js'))
  .replace('__AGORA_WASM__', attr('wasm'))
  .replace('__AGORA_CSS__', attr('css-file'));
const out = await minify(source, { module: true, compress: { passes: 2 }, mangle: true });
await writeFile(join(dist, 'agora.js'), out.code);
await copyFile(join(www, 'agora.d.ts'), join(dist, 'agora.d.ts'));
console.log(`  wrote agora.js (${attr('js')}) and agora.d.ts`);
