// Agora as a module for other pages: `import { runDebate } from '<where Agora is hosted>/agora.js'`.
// The release build (.ci/api-entry.mjs) writes this build's hashed file names below; the
// module and its wasm are fetched from beside this file, once, on first use.
// Declarations: agora.d.ts, beside this file.
const GLUE = '__AGORA_GLUE__';
const WASM = '__AGORA_WASM__';

let loaded;
function load() {
  loaded ??= import(new URL(GLUE, import.meta.url).href).then(async (m) => {
    await m.default({ module_or_path: new URL(WASM, import.meta.url) });
    return m;
  });
  return loaded;
}

/** Runs a debate with no UI; resolves to the finished debate (the app's JSON export). */
export async function runDebate(config, options) {
  return (await load()).runDebate(config, options);
}
