// Writes dist/agora.js, the stable entry other pages import (runDebate, the widget), from
// www/agora.js with this build's hashed file names (the module, its wasm, and the app's
// stylesheet, which also styles the widget's shadow root), and puts its TypeScript
// declarations (www/agora.d.ts) beside it. Usage: node .ci/api-entry.mjs dist
import { readFile, writeFile, copyFile, rm } from 'node:fs/promises';
import { join, resolve, dirname } from 'node:path';
import { createRequire } from 'node:module';

const dist = resolve(process.argv[2] ?? 'dist');
const www = join(dirname(new URL(import.meta.url).pathname), '../www');
const require = createRequire(join(www, '../package.json'));
const { minify } = require('terser');

// This build's files, as .ci/split-wasm.mjs wrote them down; not part of the site.
const built = JSON.parse(await readFile(join(dist, 'build.json'), 'utf8'));
await rm(join(dist, 'build.json'));
const source = (await readFile(join(www, 'agora.js'), 'utf8'))
  .replace('__AGORA_GLUE__', `./${built.glue}`)
  .replace('__AGORA_WASM__', `./${built.wasm}`)
  .replace('__AGORA_CSS__', `./${built.stylesheet}`)
  // Relative to the glue's folder, in the form index.html's starter carries them (www/boot.js).
  .replace('__AGORA_DEBATE_CHUNKS__', built.debate.join(' '))
  .replace('__AGORA_VIEW_CHUNKS__', Object.entries(built.views).map(([format, files]) => `${format}=${files.join(',')}`).join(' '));
const out = await minify(source, { module: true, compress: { passes: 2 }, mangle: true });
await writeFile(join(dist, 'agora.js'), out.code);
await copyFile(join(www, 'agora.d.ts'), join(dist, 'agora.d.ts'));
console.log(`  wrote agora.js (${built.glue}) and agora.d.ts`);
