// Starts Agora. Trunk's own starter is an inline <script>, which the page's Content
// Security Policy refuses (script-src 'self'); Trunk.toml's pattern_script loads this file
// instead and hands it the build's hashed file names in data attributes.
// Imports beside this file (the in-page model, dist/inpage/, when used).
window.agoraImport = (url) => import(url);
const names = document.querySelector('script[data-wasm]').dataset;
const { default: init } = await import(names.js);
await init({ module_or_path: names.wasm });
