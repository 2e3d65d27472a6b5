// Trunk's post-build hook (Trunk.toml): splits the app's wasm into the first screen's module
// and a chunk per later screen (src/ui/chunks.rs; README, "How the app is split").
//
// Trunk runs wasm-bindgen itself on the whole wasm, and a split has to come before it
// (trunk-rs/trunk#1022): so this hook takes the linked wasm cargo wrote (with its
// relocations, .cargo/config.toml), splits it with wasm-split-cli, runs wasm-bindgen on the
// first module and wasm-opt on every file, puts them all in one folder named by their
// content's hash (`wasm-<hash>/`: the glue and the loader import each other by fixed names,
// and the folder's name changes with any of them), and points index.html at it instead of
// Trunk's unsplit pair, which it removes.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync, readdirSync, rmSync, mkdirSync, renameSync, existsSync } from 'node:fs';
import { tmpdir, availableParallelism } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { mergeChunks } from './merge-chunks.mjs';

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error('split-wasm.mjs is a Trunk hook: run `trunk build`, which sets TRUNK_STAGING_DIR');
const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const release = process.env.TRUNK_PROFILE === 'release';
// The tools .ci/lib.sh installs, also when `trunk build` runs outside it.
process.env.PATH = [join(root, 'node_modules/.bin'), join(process.env.HOME ?? '', '.cargo/bin'), process.env.PATH].join(':');
const run = (cmd, args) => {
  try {
    return execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] }).toString();
  } catch (e) {
    // A tool .ci/lib.sh installs (ensure_wasm_split, ensure_wasm_bindgen) is missing.
    if (e.code === 'ENOENT') throw new Error(`${cmd} is not installed: bash .ci/serve (or .ci/test) installs it`);
    throw e;
  }
};

const meta = JSON.parse(run('cargo', ['metadata', '--no-deps', '--format-version', '1']));
const linked = join(meta.target_directory, 'wasm32-unknown-unknown', release ? 'release' : 'debug', 'agora.wasm');
const htmlPath = join(staging, 'index.html');
let html = readFileSync(htmlPath, 'utf8');
const attr = name => {
  const m = html.match(new RegExp(`data-${name}=["']?\\.?/?([^"' >]+)`));
  if (!m) throw new Error(`index.html has no data-${name} (Trunk.toml's pattern_script)`);
  return m[1];
};
const trunkJs = attr('js'), trunkWasm = attr('wasm');

const work = mkdtempSync(join(tmpdir(), 'agora-split-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const split = join(work, 'split'), out = join(work, 'out');
mkdirSync(split); mkdirSync(out);
const FEATURES = ['--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
  '--enable-mutable-globals', '--enable-reference-types', '--enable-multivalue'];
const started = Date.now();
const took = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
run('wasm-split-cli', ['--target', 'web', '--out-name', 'agora', linked, split]);
const splitFiles = readdirSync(split).filter(f => f.startsWith('split_') && f.endsWith('.wasm'));
if (!splitFiles.length) throw new Error(`wasm-split-cli found no split point in ${linked}: was it built with the "split" feature?`);
// The shared chunks fetched together, joined (.ci/merge-chunks.mjs).
const { files: joined, loads } = mergeChunks(split, FEATURES);
const chunks = [...splitFiles, ...joined];
console.log(`split and joined the chunks (${took()})`);
run('wasm-bindgen', ['--target', 'web', '--keep-lld-exports', '--out-dir', out, '--out-name', 'agora', join(split, 'agora.wasm')]);
for (const f of readdirSync(out)) if (f.endsWith('.d.ts')) rmSync(join(out, f));
renameSync(join(split, '__wasm_split.js'), join(out, '__wasm_split.js'));

// wasm-opt on every file, two at a time (the first module takes longest). `-Oz` once, not
// `--converge` (which repeats it until nothing changes): that tripled the first module's
// optimisation (86 s against 30 s on a 2-core machine) for 0.09% of its gzipped bytes.
const optimise = (from, to) => new Promise((ok, fail) => {
  const args = release
    ? ['-Oz', '--strip-producers', '--low-memory-unused', ...FEATURES, from, '-o', to]
    : ['-O0', '--strip-producers', ...FEATURES, from, '-o', to];
  const p = spawn('wasm-opt', args, { stdio: 'inherit' });
  p.on('error', e => fail(new Error(`wasm-opt could not run (${e.message}): install npm's binaryen (bash -c 'source .ci/lib.sh && ensure_npm')`)));
  p.on('exit', code => (code === 0 ? ok() : fail(new Error(`wasm-opt failed on ${from}`))));
});
const queue = [[join(out, 'agora_bg.wasm'), join(out, 'agora_bg.wasm')], ...chunks.map(c => [join(split, c), join(out, c)])];
await Promise.all(Array.from({ length: Math.min(2, availableParallelism()) }, async () => {
  while (queue.length) { const [from, to] = queue.shift(); await optimise(from, to); }
}));

console.log(`optimised ${chunks.length + 1} files with wasm-opt (${took()} since the split began)`);
if (!existsSync(join(out, 'agora.js'))) throw new Error('wasm-bindgen wrote no agora.js');
const files = readdirSync(out).sort();
const hash = createHash('sha256');
for (const f of files) hash.update(f).update(readFileSync(join(out, f)));
const folder = `wasm-${hash.digest('hex').slice(0, 16)}`;
const target = join(staging, folder);
renameSync(out, target);
rmSync(join(staging, trunkJs), { force: true });
rmSync(join(staging, trunkWasm), { force: true });

// index.html: the starter and the preload links name the new files, with their integrity.
const sri = f => `sha384-${createHash('sha384').update(readFileSync(join(target, f))).digest('base64')}`;
const swap = (oldName, newName) => {
  html = html.replace(/<link\b[^>]*>/g, tag => !tag.includes(oldName) ? tag : tag
    .replace(/integrity=("[^"]*"|'[^']*'|[^\s>]+)/, `integrity="${sri(newName)}"`));
  html = html.split(oldName).join(`${folder}/${newName}`);
};
swap(trunkJs, 'agora.js');
swap(trunkWasm, 'agora_bg.wasm');
// What the debate screen's chunk needs (its own file and the shared chunks it waits for, as
// merge-chunks.mjs read them from the loader), and what each format's drawing needs beside
// it: a debate link, a share link and the widget fetch them all at once, beside the first
// module, instead of after it (www/boot.js, www/agora.js).
const filesOf = name => {
  if (!loads[name]) throw new Error(`the loader has no ${name} chunk (src/ui/chunks.rs, src/ui/formats/mod.rs)`);
  return loads[name];
};
const debateFiles = filesOf('debate');
// `format=file,file …`, a format's drawing and the shared chunks it needs beyond the
// debate screen's.
const views = Object.keys(loads).filter(k => k.endsWith('_views'))
  .map(name => `${name.replace(/_views$/, '')}=${filesOf(name).filter(f => !debateFiles.includes(f)).join(',')}`);
if (!views.length) throw new Error('the loader has no format\'s drawing (src/ui/formats/mod.rs)');
html = html.replace(/<script\b([^>]*)data-wasm=/, `<script$1data-debate="${debateFiles.join(' ')}" data-views="${views.join(' ')}" data-wasm=`);
// The loader is imported by the glue: fetched beside it rather than after it.
const loaderLink = `<link rel="modulepreload" href="./${folder}/__wasm_split.js" integrity="${sri('__wasm_split.js')}" crossorigin>`;
html = html.replace('</head>', `${loaderLink}</head>`);
if (!html.includes(`${folder}/agora.js`) || !html.includes(`${folder}/agora_bg.wasm`)) {
  throw new Error('index.html does not name the split files: has Trunk.toml\'s pattern_script changed?');
}
writeFileSync(htmlPath, html);
// What the later steps need to know of this build, handed to them as data (.ci/api-entry.mjs
// reads it, and removes it: it is not part of the site).
const stylesheet = readdirSync(staging).find(f => /^style-[0-9a-f]+\.css$/.test(f));
if (!stylesheet) throw new Error('Trunk wrote no hashed stylesheet (index.html\'s data-trunk rel="css")');
writeFileSync(join(staging, 'build.json'), JSON.stringify({
  glue: `${folder}/agora.js`,
  wasm: `${folder}/agora_bg.wasm`,
  stylesheet,
  // Relative to the glue's folder: what a debate link, a share link and the widget fetch
  // beside the first module.
  debate: debateFiles,
  views: Object.fromEntries(views.map(v => v.split('=')).map(([format, files]) => [format, files ? files.split(',') : []])),
}, null, 2));
const size = f => readFileSync(join(target, f)).length;
console.log(`split the wasm into ${folder}/: agora_bg.wasm ${size('agora_bg.wasm')} bytes, ${chunks.length} chunks (${chunks.map(size).reduce((a, b) => a + b, 0)} bytes)`);
