// Part of .ci/split-wasm.mjs: joins wasm-split-cli's shared chunks so that a screen fetches a
// handful of files, not dozens (README, "How the app is split").
//
// wasm-split-cli puts the code two or more split points reach into a chunk per *set* of
// split points reaching it. Each format's drawing is a split point of its own
// (src/ui/formats/mod.rs), and with five of them beside the debate screen the sets
// multiply: a debate's screen and its format needed about 90 files, and on a slow phone
// each file costs more than the bytes the split saved (BENCHMARKS.md, "Load time").
//
// A format's drawing is only ever fetched for the debate screen, so here it counts as the
// debate screen: the chunks whose sets are then alike are joined into one file. A chunk
// imports nothing but what the first module shares (`__wasm_split`: its memory, its table,
// globals such as the stack pointer), it places its functions in that table at slots fixed
// when the wasm was split, and its data at fixed addresses, so joining chunks changes what
// is fetched, not what runs. wasm-merge joins them; since it would import the memory once per
// chunk, a small hub module imports each thing once and the chunks take it from the hub.
// The loader (`__wasm_split.js`) is written again with the joined files.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** binaryen's library, loaded once in this process for the text form of wasm files and back:
 * the command-line wasm-dis and wasm-as are the same library started afresh for every call
 * (about half a second each), and a build joins a hundred chunks and more. */
const binaryen = (await import('binaryen').catch(e => {
  throw new Error(`binaryen is not installed (${e.message}): bash -c 'source .ci/lib.sh && ensure_npm'`);
})).default;
// wasm-opt's feature flags, as binaryen's library names them (the command line's bulk memory
// is two features in the library).
const FEATURE = {
  '--enable-bulk-memory': ['BulkMemory', 'BulkMemoryOpt'], '--enable-nontrapping-float-to-int': ['NontrappingFPToInt'],
  '--enable-sign-ext': ['SignExt'], '--enable-mutable-globals': ['MutableGlobals'],
  '--enable-reference-types': ['ReferenceTypes'], '--enable-multivalue': ['Multivalue'],
};
const featureSet = flags => flags.flatMap(flag => {
  if (!FEATURE[flag]) throw new Error(`merge-chunks.mjs does not know the feature ${flag}`);
  return FEATURE[flag].map(name => binaryen.Features[name]);
}).reduce((set, feature) => set | feature, binaryen.Features.MVP);

/** The split point a split point's code counts as: a format's drawing is the debate's. */
const loadedWith = name => (name.endsWith('_views') ? 'debate' : name);

const CHUNK = /\/\* ([^*]*) \*\/\n(const (__chunk_\d+) = makeLoad\(\(\) => \{\n\s*const src = fetch\(new URL\("\.\/(chunk_\d+\.wasm)"[\s\S]*?\n\}\n, \[\]\);\n)/g;
const SPLIT = /export const __wasm_split_load_(\w+) = wrapAsyncCb\(makeLoad\(([\s\S]*?), \[([^\]]*)\]\)\);\n/g;

/** Joins the chunks in `dir` (wasm-split-cli's output) that are fetched together, and
 * rewrites its loader. `features` are wasm-opt's feature flags. Returns the chunks' files
 * and, for each split point, the files its load fetches (its own first, where its code did
 * not all go to shared chunks): this is the one reader of the loader, and the build's later
 * steps take what it found from here. */
export function mergeChunks(dir, features) {
  const loaderPath = join(dir, '__wasm_split.js');
  const loader = readFileSync(loaderPath, 'utf8');
  const start = loader.search(/\/\* |export const __wasm_split_load_/);
  if (start < 0) throw new Error('the split loader has no chunk and no split point');
  const head = loader.slice(0, start);
  const chunks = [...loader.matchAll(CHUNK)].map(m => ({ users: m[1].split(', '), def: m[2], name: m[3], file: m[4] }));
  const splits = [...loader.matchAll(SPLIT)].map(m => ({ name: m[1], fetcher: m[2], deps: m[3].split(',').map(d => d.trim()).filter(Boolean) }));
  // Everything after the head must be understood, or the rewrite would drop part of it.
  const rest = loader.slice(start).replace(CHUNK, '').replace(SPLIT, '');
  if (rest.trim()) throw new Error(`the split loader has a form this hook does not know (wasm-split-cli changed?): ${rest.trim().slice(0, 200)}`);

  // Chunks fetched together: the same split points, once a format's drawing counts as the
  // debate screen.
  const groups = new Map();
  for (const c of chunks) {
    const key = [...new Set(c.users.map(loadedWith))].sort().join(', ');
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(c);
  }
  const groupOf = new Map();
  let defs = '';
  for (const [key, members] of groups) {
    const file = members[0].file;
    if (members.length > 1) merge(dir, members.map(m => m.file), file, features);
    const name = members[0].name;
    for (const m of members) groupOf.set(m.name, name);
    // The first member's own definition (its file now holds the group), as the splitter wrote it.
    defs += `/* ${key} */\n${members[0].def}`;
  }
  for (const s of splits) {
    const deps = [...new Set(s.deps.map(d => groupOf.get(d) ?? (() => { throw new Error(`${s.name} needs ${d}, which the loader does not define`); })()))];
    defs += `export const __wasm_split_load_${s.name} = wrapAsyncCb(makeLoad(${s.fetcher}, [${deps.join(', ')}]));\n`;
  }
  writeFileSync(loaderPath, head + defs);
  const fileOf = new Map([...groups.values()].map(members => [members[0].name, members[0].file]));
  const loads = Object.fromEntries(splits.map(s => {
    // A split point whose code all went to shared chunks fetches no file of its own.
    const own = s.fetcher.match(/new URL\("\.\/([\w.]+)"/)?.[1];
    const deps = [...new Set(s.deps.map(d => fileOf.get(groupOf.get(d))))];
    return [s.name, own ? [own, ...deps] : deps];
  }));
  return { files: [...fileOf.values()], loads };
}

/** A wasm file in binaryen's text form (as wasm-dis prints it). */
function disassemble(file, features) {
  const module = binaryen.readBinary(readFileSync(file), featureSet(features));
  try { return module.emitText(); } finally { module.dispose(); }
}

/** Binaryen's text form as a wasm file (as wasm-as writes it). */
function assemble(text, to, features) {
  const module = binaryen.parseText(text, featureSet(features));
  try {
    if (!module.validate()) throw new Error(`${to} does not validate`);
    writeFileSync(to, module.emitBinary());
  } finally { module.dispose(); }
}

/** wasm-merge joins `files` into `into`, importing `__wasm_split`'s things once (through a
 * hub module) instead of once per file. */
function merge(dir, files, into, features) {
  const texts = files.map(f => disassemble(join(dir, f), features));
  const imports = new Map();
  const IMPORT = /\(import "__wasm_split" "([^"]+)" \((memory|table|global) \$[^\s)]+ ([^)]*\)?)\)\)/g;
  for (const [i, t] of texts.entries()) {
    const found = [...t.matchAll(IMPORT)];
    // Every import of the first module's must reach the hub, or the joined file would
    // import from a module that does not exist.
    if (found.length !== t.split('(import "__wasm_split" ').length - 1) {
      throw new Error(`${files[i]} imports something from __wasm_split this hook does not know (wasm-split-cli changed?)`);
    }
    for (const m of found) imports.set(m[1], { kind: m[2], type: m[3] });
  }
  const hub = `(module\n${[...imports].map(([name, { kind, type }], i) => `  (import "__wasm_split" "${name}" (${kind} $i${i} ${type}))\n  (export "${name}" (${kind} $i${i}))`).join('\n')}\n)\n`;
  const args = [];
  assemble(hub, join(dir, 'hub.wasm'), features);
  args.push(join(dir, 'hub.wasm'), 'hub');
  texts.forEach((t, i) => {
    assemble(t.replace(/\(import "__wasm_split" /g, '(import "hub" '), join(dir, `part${i}.wasm`), features);
    args.push(join(dir, `part${i}.wasm`), `part${i}`);
  });
  for (const f of files) rmSync(join(dir, f));
  execFileSync('wasm-merge', [...features, ...args, '-o', join(dir, into)], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (const f of ['hub.wasm', ...texts.map((_, i) => `part${i}.wasm`)]) rmSync(join(dir, f));
}
