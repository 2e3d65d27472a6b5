// Runs inside www/frame.html, on Agora's own origin, for a widget whose visitor types a key
// (<agora-debate visitor-key> on another site). The page around the frame sends the
// debate's configuration (never a key) by postMessage; the visitor types the key here,
// where that page's scripts cannot reach; the widget's events go back by postMessage.
// Origins are checked both ways: this frame takes messages only from its parent at the
// origin named in its address (`?host=`), and posts only to that origin.
import './agora.js';

const EVENTS = ['agora-turn', 'agora-finding', 'agora-finished', 'agora-error'];
const host = new URLSearchParams(location.search).get('host');
// Where the browser says who frames this page (Chromium, Safari), it must be `host`.
const framer = location.ancestorOrigins?.[0];

function refuse(text) {
  const p = document.createElement('p');
  p.textContent = text;
  document.body.replaceChildren(p);
}

if (window.parent === window || !host) {
  refuse('This page runs a debate inside an <agora-debate visitor-key> widget on another site; open Agora itself to run one here.');
} else if (framer && framer !== host) {
  refuse(`This frame was told it is embedded by ${host}, but ${framer} embeds it: nothing runs.`);
} else {
  const post = (message) => window.parent.postMessage(message, host);
  addEventListener('message', (e) => {
    if (e.origin !== host || e.source !== window.parent || e.data?.agora !== 'config') return;
    const el = document.createElement('agora-debate');
    el.setAttribute('ask-keys', '');
    for (const name of EVENTS) el.addEventListener(name, (ev) => post({ agora: name, detail: ev.detail }));
    el.config = e.data.config;
    document.body.replaceChildren(el);
  });
  new ResizeObserver(() => post({ agora: 'height', height: document.documentElement.scrollHeight }))
    .observe(document.documentElement);
  post({ agora: 'ready' });
}
