// Benchmark: a forecast panel (the five default roles, three rounds: 31 calls) in headless
// Chromium against the stand-in at a stated per-call latency and token rate, run twice:
// with the connection taking 10 calls at once (Agora's parallel schedule) and with 1 (a
// sequential schedule). Prints each run's wall-clock time (the debate's own, from its first
// to its last event) against the critical path of the format's call graph (each round's
// arguments at once, each score after its argument, the next round after the last score,
// the synthesis after all):
//   3 × (argument + score) + synthesis,
// every call taking latency + (chunks − 1) / rate. Run: node tests/e2e/forecast-bench.mjs
import { serveDist, startStandin, launch, openApp } from './harness.mjs';

const LATENCY_MS = 400; // time to the first token
const TOKENS_PER_S = 50; // one chunk is one token
const CHUNK_MS = 1000 / TOKENS_PER_S;
const CHUNKS = { argument: 60, score: 12, synthesis: 80 };
const duration = n => LATENCY_MS + (n - 1) * CHUNK_MS;
const CRITICAL = 3 * (duration(CHUNKS.argument) + duration(CHUNKS.score)) + duration(CHUNKS.synthesis);
const SEQUENTIAL = 15 * (duration(CHUNKS.argument) + duration(CHUNKS.score)) + duration(CHUNKS.synthesis);

/** `text` cut into `n` pieces of about the same length. */
function chunked(text, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(text.slice(Math.floor(i * text.length / n), Math.floor((i + 1) * text.length / n)));
  return out;
}

function script() {
  const ids = ['yes', 'no'];
  const answers = [];
  const probs = { optimist: 0.7, pessimist: 0.3, contrarian: 0.45, historian: 0.55, judge: 0.5 };
  for (const [role, p] of Object.entries(probs)) {
    const arg = {
      argument: `The ${role} weighs the evidence: ` + 'the record shows steady support and real risks alike. '.repeat(4),
      outcome_supported: p >= 0.5 ? 'yes' : 'no', evidence: ['committee record', 'whip counts'],
      rebuts: [role === 'optimist' ? 'pessimist' : 'optimist'], references: ['round 1: committee support'],
      probabilities: ids.map((id, i) => ({ outcome: id, probability: i === 0 ? p : 1 - p })), confidence: 0.7,
    };
    if (role === 'historian') arg.precedents = [
      { event: 'A', date: '1990', outcome: 'passed', similarity: 0.6, relevance: 'same path' },
      { event: 'B', date: '2009', outcome: 'failed', similarity: 0.5, relevance: 'same veto' }];
    const chunks = chunked(JSON.stringify(arg), CHUNKS.argument);
    if (chunks.length !== CHUNKS.argument) throw new Error('argument chunks');
    answers.push({ seat: role, purpose: 'argument', chunks, first_delay_ms: LATENCY_MS, chunk_delay_ms: CHUNK_MS });
  }
  const synthesis = JSON.stringify({ probabilities: [{ outcome: 'yes', probability: 0.6 }, { outcome: 'no', probability: 0.4 }],
    confidence: 0.7, rationale: 'On balance the evidence leans to passage, with the upper house as the risk. '.repeat(2),
    disagreements: [{ topic: 'Upper house', positions: [{ role: 'optimist', stance: 'passes', strength: 0.7 }], resolved: false }],
    insights: [{ insight: 'Timing decides', source_role: 'historian', round: 2, impact: 'high', affected_outcomes: ['yes'] }] });
  answers.unshift({ path: 'synthesis', chunks: chunked(synthesis, CHUNKS.synthesis), first_delay_ms: LATENCY_MS, chunk_delay_ms: CHUNK_MS });
  const score = JSON.stringify({ logical_strength: 0.8, evidence_quality: 0.7, novelty: 0.5, reason: 'Sound and sourced, with a fresh angle.' });
  answers.push({ purpose: 'evaluation', chunks: chunked(score, CHUNKS.score), first_delay_ms: LATENCY_MS, chunk_delay_ms: CHUNK_MS });
  return { answers };
}

async function run(browser, site, standin, concurrency) {
  await standin.setScript(script());
  const { page, context } = await openApp(browser, site.url, { width: 1280, height: 900 });
  await page.getByRole('button', { name: /Add a connection/ }).click();
  await page.fill('#conn-name', `Stand-in ×${concurrency}`);
  await page.fill('#conn-url', `${standin.base}/v1`);
  await page.fill('#conn-model', 'standin');
  await page.check('#conn-call-header');
  await page.fill('#conn-concurrency', String(concurrency));
  await page.click('#conn-save');
  await page.getByRole('radio', { name: 'Forecast' }).check();
  await page.fill('#topic', 'Will the transit bill pass this year?');
  const t0 = Date.now();
  await page.click('#start');
  await page.waitForSelector('.badge.done, .badge.failed', { timeout: 120_000 });
  const outer = Date.now() - t0;
  const wall = Number(await page.locator('.fc-verdict').getAttribute('data-wall-ms'));
  const calls = (await standin.log()).length;
  await context.close();
  return { wall, outer, calls };
}

const site = await serveDist();
const standin = await startStandin('e2e-forecast.json');
const browser = await launch();
try {
  console.log(`Per call: ${LATENCY_MS} ms to the first token, ${TOKENS_PER_S} tokens/s; argument ${CHUNKS.argument}, score ${CHUNKS.score}, synthesis ${CHUNKS.synthesis} tokens.`);
  console.log(`Critical path of the seed's call graph: ${CRITICAL} ms; sequential: ${SEQUENTIAL} ms.`);
  for (const concurrency of [10, 1]) {
    const r = await run(browser, site, standin, concurrency);
    const vsCritical = r.wall / CRITICAL;
    console.log(`${concurrency === 1 ? 'sequential (1 at once)' : 'parallel (10 at once)'}: ${r.calls} calls, ${r.wall} ms (${vsCritical.toFixed(3)}× critical path; ${(r.wall / SEQUENTIAL).toFixed(3)}× sequential sum); click to done ${r.outer} ms`);
  }
} finally {
  await browser.close(); standin.close(); site.close();
}
