// Starts Agora. Trunk's own starter is an inline <script>, which the page's Content
// Security Policy refuses (script-src 'self'); Trunk.toml's pattern_script loads this file
// instead and hands it the build's hashed file names in data attributes.
//
// The same file is also the service worker that makes the page cross-origin isolated on a
// static host that cannot send the COOP/COEP headers, so the in-page model can use several
// threads (registered by www/inpage/agora-inpage.js when the user asks; see the README).
if (self.document) {
  // Wakes the browser's database for this origin while the wasm downloads: the app opens
  // its database as soon as it starts, and on a first visit that open otherwise also waits
  // for the database's start-up (about 130 ms instead of 165 ms; BENCHMARKS.md, "Load
  // time"). Listing the databases opens or creates none.
  // Reading `indexedDB` itself throws where the browser forbids storage to this page (a
  // Firefox that blocks its cookies): the app then says so itself and keeps debates in
  // memory, so nothing here may stop it from starting.
  try { self.indexedDB?.databases?.().catch(() => {}); } catch { /* the app reports it */ }
  // Imports beside this file (the in-page model, dist/inpage/, when used).
  window.agoraImport = (url) => import(url);
  const names = document.querySelector('script[data-wasm]').dataset;
  // A debate link or a share link opens on the debate screen: its chunk's files (README,
  // "How the app is split") download beside the first module instead of after it, with
  // every format's drawing, since which one the debate needs is known only once it is read.
  if (/^\?debate=[^&]/.test(location.search) || location.hash.startsWith('#share=')) {
    const glue = new URL(names.js, location.href);
    const views = (names.views ?? '').split(' ').flatMap(entry => entry.split('=')[1]?.split(',') ?? []);
    for (const file of new Set([...(names.debate ?? '').split(' '), ...views].filter(Boolean))) {
      const link = document.createElement('link');
      Object.assign(link, { rel: 'preload', as: 'fetch', crossOrigin: 'anonymous', href: new URL(file, glue).href });
      document.head.append(link);
    }
  }
  // The app starts behind the prerendered setup screen (www/shell.js), which then hands
  // over what the visitor did in it and steps aside.
  (async () => {
    let m;
    try {
      m = await import(names.js);
      await m.default({ module_or_path: names.wasm });
    } catch (e) {
      console.error(e);
      window.agoraShell?.failed(`The app's files did not load (${e?.message ?? e}): check the connection and reload.`);
      return;
    }
    // A bug while starting shows the app's own banner with Reload (src/app_entry.rs).
    if (window.agoraShell) await window.agoraShell.start(m.startApp);
    else m.startApp();
  })();
} else {
  // Every response this origin's pages get, with the two headers added. (The page loads no
  // cross-origin resource without CORS, so no opaque response comes through here.) The
  // page reloads after registering, and that navigation is the first one this worker serves.
  onfetch = (e) => e.respondWith(fetch(e.request).then((r) => {
    // A redirect the browser follows itself cannot be rebuilt; it needs no headers.
    if (r.type === 'opaqueredirect' || !r.status) return r;
    const headers = new Headers(r.headers);
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
    return new Response(r.body, { status: r.status, statusText: r.statusText, headers });
  }));
}
