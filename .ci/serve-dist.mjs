// Serves a release build (dist/) on 127.0.0.1 as a static host would: under a sub-path,
// gzipped or in brotli when asked, cross-origin isolated or open to other origins. The build
// (.ci/prerender.mjs), the end-to-end tests (tests/e2e/harness.mjs) and the benchmarks use it.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

export const ROOT = resolve(import.meta.dirname, '..');
const DIST = process.env.AGORA_DIST || join(ROOT, 'dist');
/** Served under a sub-path, so every test also proves dist/ works from one. */
export const SUB_PATH = '/some/sub-path/';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** Serves dist/ (or `dir`) on 127.0.0.1 under SUB_PATH (or `base`). With `gzip`, sends what the browser accepts
 * gzipped at level 9, as a static host would (the bundle budget counts those bytes);
 * compressed once, so compressing costs no time in a measurement. With `brotli`, sends the
 * release build's precompressed .br copies instead (.ci/precompress.mjs), as a host set up
 * to serve them does. With `isolate`, sends the
 * COOP/COEP headers that make the page cross-origin isolated (as .ci/serve.py does).
 * `routes` maps a path under SUB_PATH to its own handler `(req, res)`; `seen` lists every
 * path fetched, `probed` every path only asked about (HEAD: the page checks that the model
 * file is served without downloading it). With `cors`, any origin may fetch the files (as static hosts such as
 * GitHub Pages allow), so pages of another origin can load the widget and the API.
 * `headers` are sent with every response (`Server-Timing: agora-serve`, as .ci/serve.py).
 * With `brotliMissing`, a file without a .br copy is compressed at quality 11 once. */
export async function serveDist({ gzip = false, brotli = false, isolate = false, cors = false, routes = {}, headers: extra = {}, dir = DIST, base = SUB_PATH, brotliMissing = false } = {}) {
  const compressed = new Map();
  const seen = [];
  const probed = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    (req.method === 'HEAD' ? probed : seen).push(url.pathname);
    if (cors) res.setHeader('Access-Control-Allow-Origin', '*');
    for (const [name, value] of Object.entries(extra)) res.setHeader(name, value);
    if (isolate) {
      res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
      res.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
    }
    if (!url.pathname.startsWith(base)) { res.writeHead(404).end(); return; }
    let rel = url.pathname.slice(base.length) || 'index.html';
    if (routes[rel]) return routes[rel](req, res);
    const file = normalize(join(dir, rel));
    if (!file.startsWith(dir)) { res.writeHead(403).end(); return; }
    try {
      const headers = { 'Content-Type': TYPES[extname(file)] || 'application/octet-stream' };
      const accepted = req.headers['accept-encoding'] || '';
      // A compressed form is read or made once per file, and the file itself only when sent.
      const encoded = async (key, make) => {
        if (!compressed.has(key)) compressed.set(key, await make());
        return compressed.get(key);
      };
      const br = brotli && /\bbr\b/.test(accepted)
        ? await encoded(`br ${file}`, () => readFile(`${file}.br`).catch(async () => brotliMissing
          // Another build without .br copies (load-time.mjs's peer): made here as ours are.
          ? brotliCompressSync(await readFile(file), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }) : null)) : null;
      if (br) {
        res.writeHead(200, { ...headers, 'Content-Encoding': 'br', Vary: 'Accept-Encoding' }).end(br);
      } else if (gzip && /\bgzip\b/.test(accepted)) {
        const gz = await encoded(`gzip ${file}`, async () => gzipSync(await readFile(file), { level: 9 }));
        res.writeHead(200, { ...headers, 'Content-Encoding': 'gzip' }).end(gz);
      } else {
        // Read before the head is written: a missing file is a 404, not a broken 200.
        const body = await readFile(file);
        res.writeHead(200, headers).end(body);
      }
    } catch { res.writeHead(404).end(); }
  });
  await new Promise(r => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}${base}`, seen, probed, close: () => server.close() };
}
