// Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside every file of a
// release build that compresses: the wasm, JS, CSS, HTML, SVG and JSON. A host that serves
// precompressed files (nginx's brotli_static and gzip_static, Caddy's `precompressed br
// gzip`, and .ci/serve.py here) then sends the smallest form the browser accepts, compressed
// harder than a server does on the fly. Brotli makes the wasm about 23% smaller than
// gzip -9, and the wasm is the first load's largest part (BENCHMARKS.md, "Load time").
// Usage: node .ci/precompress.mjs dist
import { readFile, writeFile, readdir } from 'node:fs/promises';
import { join, resolve, extname } from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const dist = resolve(process.argv[2] ?? 'dist');
const KINDS = new Set(['.wasm', '.js', '.mjs', '.css', '.html', '.svg', '.json']);

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // models/ holds the in-page model's GGUF (a link to a file outside dist/): gguf barely
    // compresses and the browser reads it in ranges.
    if (entry.isDirectory() && entry.name !== 'models') yield* files(path);
    else if (entry.isFile() && KINDS.has(extname(entry.name))) yield path;
  }
}

let raw = 0, br = 0;
for await (const path of files(dist)) {
  const body = await readFile(path);
  const b = brotliCompressSync(body, {
    params: {
      // Quality 11 takes about 2 s a MB: the in-page model's runtime (inpage/wllama, 9 MB,
      // fetched only by that connection's users) gets 9, a second's work.
      [constants.BROTLI_PARAM_QUALITY]: body.length > 4e6 ? 9 : 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      [constants.BROTLI_PARAM_MODE]: extname(path) === '.wasm' ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
    },
  });
  await writeFile(`${path}.br`, b);
  await writeFile(`${path}.gz`, gzipSync(body, { level: 9 }));
  raw += body.length;
  br += b.length;
}
console.log(`  precompressed ${(raw / 1e6).toFixed(1)} MB: ${(br / 1e6).toFixed(2)} MB in brotli (.br), gzip beside it (.gz)`);
