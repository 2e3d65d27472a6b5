// Tokens per second and time to first token of SmolLM2-135M run inside the tab (the "In this
// browser" connection, wllama in a Web Worker) in the multi-thread (cross-origin isolated)
// and single-thread modes, beside the native llama.cpp server on the same GGUF. The same
// prompt, greedy, 128 tokens at most; the median of 3 runs after one warm-up. Reported in
// BENCHMARKS.md. Usage (from the repository root, after a release build):
//   bash -c 'source .ci/lib.sh && place_model dist && start_local_model 8081' && node tests/e2e/inpage-bench.mjs
import { serveDist, launch } from './harness.mjs';

const PROMPT = [
  { role: 'system', content: 'You are Position A in a formal debate.' },
  { role: 'user', content: 'Give your opening statement on: Should cities ban private cars from their centres?' },
];
const MAX = 128;
const RUNS = 3;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function inTab(browser, isolate) {
  const site = await serveDist({ isolate });
  const page = await (await browser.newContext()).newPage();
  await page.goto(site.url);
  await page.waitForSelector('#start:not([disabled])');
  const out = await page.evaluate(async ({ PROMPT, MAX, RUNS }) => {
    const m = await window.agoraImport('./inpage/agora-inpage.js');
    const t = performance.now();
    await m.load({ kind: 'served' });
    const loadMs = performance.now() - t;
    const runs = [];
    for (let i = 0; i <= RUNS; i++) {
      const start = performance.now();
      let first = 0;
      const reader = m.generate(JSON.stringify({ messages: PROMPT, max_tokens: MAX, temperature: 0, json: false }));
      for (;;) {
        const { text, end } = await reader.next();
        if (text && !first) first = performance.now();
        if (end) {
          const done = performance.now();
          if (i > 0) runs.push({ ttft: first - start, tps: (end.value.output - 1) / ((done - first) / 1000), tokens: end.value.output });
          break;
        }
      }
    }
    return { loadMs, runs, mode: m.mode() };
  }, { PROMPT, MAX, RUNS });
  site.close();
  return out;
}

async function native(base) {
  const runs = [];
  for (let i = 0; i <= RUNS; i++) {
    const start = performance.now();
    const res = await fetch(`${base}/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'smollm2-135m', messages: PROMPT, max_tokens: MAX, temperature: 0, stream: true }),
    });
    let first = 0, tokens = 0, buf = '';
    const decoder = new TextDecoder();
    for await (const chunk of res.body) {
      buf += decoder.decode(chunk, { stream: true });
      const lines = buf.split('\n');
      buf = lines.pop();
      for (const l of lines) {
        if (!l.startsWith('data: ') || l === 'data: [DONE]') continue;
        if (JSON.parse(l.slice(6)).choices?.[0]?.delta?.content) {
          tokens++;
          if (!first) first = performance.now();
        }
      }
    }
    const done = performance.now();
    if (i > 0) runs.push({ ttft: first - start, tps: (tokens - 1) / ((done - first) / 1000), tokens });
  }
  return { runs };
}

const row = (name, { runs }) => {
  const ttft = median(runs.map((r) => r.ttft));
  const tps = median(runs.map((r) => r.tps));
  console.log(`| ${name} | ${tps.toFixed(1)} | ${Math.round(ttft)} ms | ${median(runs.map((r) => r.tokens))} |`);
};

const browser = await launch();
console.log('| where | tokens/s | time to first token | tokens |');
console.log('|---|---|---|---|');
for (const isolate of [true, false]) {
  const r = await inTab(browser, isolate);
  row(`in the tab, ${r.mode}`, r);
}
await browser.close();
const base = process.env.AGORA_LOCAL_URL || 'http://127.0.0.1:8081/v1';
try {
  row('the local model server (llama.cpp prebuilt, local-model/server.mjs), same GGUF', await native(base));
} catch (e) {
  console.log(`| native server at ${base} | not measured (${e.message}) | | |`);
}
