// Benchmark: how close each format's schedule comes to the critical path of its call graph.
// Each format's default debate (classic with scoring on) runs in headless Chromium against
// the stand-in, every call taking LATENCY_MS to its first token and then streaming at
// TOKENS_PER_S (one chunk is one token): prose turns PROSE chunks, structured answers
// (scores, evaluations, checks, cards…) JSON chunks, so a call of n chunks takes
//   D(n) = LATENCY_MS + (n − 1) × 1000 / TOKENS_PER_S.
// The critical path is the longest chain of the format's specified call graph (calls that
// the format runs at once count once; see ARCHITECTURE.md, "Formats"):
//   classic   opening, 2 statements, per round 4 arguments and a summary, 2 closings,
//             the final summary and 2 scores, one after another;
//   duelogic  introduction, per round and chair the speech and its evaluation, closing;
//   forecast  per round every role's argument at once, each score after its argument;
//             the synthesis after the last round;
//   crux      the aspects, the openings at once, per aspect three minirounds (each at
//             once), its summary and the detection, the room (both positions at once, 14
//             turns, an exit check after turns 3, 5, …, 13, the convergence check and the
//             card), then the closings at once, the shifts and the summary.
// Prints wall time (the debate's own, first to last stored event) ÷ critical path per
// format; the goal is ≤ 1.03. Forecast also runs on a connection that takes one call at a
// time, to show what the parallel schedule saves. A figure, not a test.
// Run (from the repository root, after a release build and `cargo build --bin agora-standin`):
//   node tests/e2e/orchestration-bench.mjs [classic|duelogic|forecast|crux|council …]
import { serveDist, startStandin, launch, openApp, storedEvents, addConnection } from './harness.mjs';

const LATENCY_MS = 400;
const TOKENS_PER_S = 50;
const CHUNK_MS = 1000 / TOKENS_PER_S;
const PROSE = 40;
const JSON_CHUNKS = 12;
const D = n => LATENCY_MS + (n - 1) * CHUNK_MS;
const P = D(PROSE);
const J = D(JSON_CHUNKS);

/** `text` cut into `n` pieces of about the same length. */
function chunked(text, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(text.slice(Math.floor(i * text.length / n), Math.floor((i + 1) * text.length / n)));
  if (out.some(c => !c)) throw new Error(`too short to cut in ${n}: ${text}`);
  return out;
}
const timed = (match, value, n = JSON_CHUNKS) => ({
  ...match, chunks: chunked(typeof value === 'string' ? value : JSON.stringify(value), n),
  first_delay_ms: LATENCY_MS, chunk_delay_ms: CHUNK_MS,
});
// Prose without the phrases that start duelogic's interruption checks.
const prose = timed({}, 'The case rests on what people on these streets do every day and on who pays. '.repeat(3), PROSE);

const classic = {
  setup: async page => { await page.check('#scoring'); },
  script: () => ({
    answers: [timed({ path: 'score/' }, {
      logical_coherence: { score: 8, reason: 'Each step follows.' }, evidence: { score: 6, reason: 'One city cited.' },
      responsiveness: { score: 7, reason: 'Answered access.' }, persuasiveness: { score: 9, reason: 'Concrete.' },
      rule_adherence: { score: 10, reason: 'Kept to each turn.' },
    })],
    default: prose,
  }),
  calls: 18,
  critical: 1 * P + 2 * P + 2 * (4 * P + P) + 2 * P + P + 2 * J,
};

const duelogic = {
  script: () => ({
    answers: [timed({ purpose: 'evaluation' }, {
      steel_manning: { attempted: true, quality: 'strong', notes: 'Fair to the rival view.' },
      self_critique: { attempted: true, quality: 'adequate', notes: 'Named a weakness.' },
      framework_consistency: { consistent: true, violations: [] }, intellectual_honesty: { score: 'high', issues: [] },
      adherence_score: 82, requires_interjection: false, interjection_reason: '',
    })],
    default: prose,
  }),
  calls: 10,
  critical: P + 2 * 2 * (P + J) + P,
};

function forecastScript() {
  const answers = [];
  const probs = { optimist: 0.7, pessimist: 0.3, contrarian: 0.45, historian: 0.55, judge: 0.5 };
  answers.push(timed({ path: 'synthesis' }, {
    probabilities: [{ outcome: 'yes', probability: 0.6 }, { outcome: 'no', probability: 0.4 }], confidence: 0.7,
    rationale: 'On balance the evidence leans to passage, with the upper house as the risk.',
    disagreements: [{ topic: 'Upper house', positions: [{ role: 'optimist', stance: 'passes', strength: 0.7 }], resolved: false }],
    insights: [{ insight: 'Timing decides', source_role: 'historian', round: 2, impact: 'high', affected_outcomes: ['yes'] }],
  }, PROSE));
  for (const [role, p] of Object.entries(probs)) {
    const arg = {
      argument: `The ${role} weighs the evidence: the record shows steady support and real risks alike.`,
      outcome_supported: p >= 0.5 ? 'yes' : 'no', evidence: ['committee record', 'whip counts'],
      rebuts: [role === 'optimist' ? 'pessimist' : 'optimist'], references: ['round 1: committee support'],
      probabilities: [{ outcome: 'yes', probability: p }, { outcome: 'no', probability: 1 - p }], confidence: 0.7,
    };
    if (role === 'historian') arg.precedents = [
      { event: 'A', date: '1990', outcome: 'passed', similarity: 0.6, relevance: 'same path' },
      { event: 'B', date: '2009', outcome: 'failed', similarity: 0.5, relevance: 'same veto' }];
    answers.push(timed({ seat: role, purpose: 'argument' }, arg, PROSE));
  }
  answers.push(timed({ purpose: 'evaluation' }, { logical_strength: 0.8, evidence_quality: 0.7, novelty: 0.5, reason: 'Sound and sourced.' }));
  return { answers };
}
const forecast = { script: forecastScript, calls: 31, critical: 3 * (P + J) + P };
const forecastOneAtATime = { ...forecast, concurrency: 1, critical: forecast.critical, sequential: 15 * (P + J) + P };

const crux = {
  script: () => {
    const card = {
      crux: 'Whether district-wide shop revenue rises in the first year after a ban.', kind: 'factual',
      sides: [
        { persona: 'persona-1', position: 'Most shops lose revenue in year one.', reasoning: 'Base rates across districts.', would_change_mind: 'District-wide gains in ten cities.' },
        { persona: 'persona-2', position: 'Shops gain within a year.', reasoning: 'Pilot streets.', would_change_mind: 'A district-wide fall after a year.' }],
      diagnosis: 'They measure different things.', resolved: false, resolution: '',
    };
    const answers = [
      timed({ path: 'aspects' }, { aspects: [
        { label: 'Who pays', question: 'Who bears the cost of a car ban in city centres?' },
        { label: 'Access', question: 'Who loses access when cars go?' },
        { label: 'Trade', question: 'Do shops gain or lose?' }] }),
      timed({ purpose: 'extraction', path: 'aspect/' }, { summary: 'The two read the same streets differently.', contested: ['whether shops gain or lose'] }),
      timed({ purpose: 'check', path: 'aspect/' }, {
        has_direct_opposition: true, has_specific_claim: true, topic_relevant: true, personas: ['persona-1', 'persona-2'],
        claim: 'Shops in car-free centres gain revenue within a year.', question: 'Do shops gain revenue within a year?' }),
      ...[1, 2, 3].map(a => timed({ path: `room/${a}/convergence` }, { converged: false, crux_identified: true, crux: 'District-wide revenue in year one.', summary: 'They pinned it down.' })),
      timed({ purpose: 'check', path: 'room/' }, { crux_surfaced: false, crux: '', reason: 'Not yet named.' }),
      timed({ purpose: 'extraction', path: 'room/' }, card),
      timed({ path: 'shifts' }, { shifts: [
        { persona: 'persona-1', shifted: true, from: 'Shops lose.', to: 'Visits rise, revenue unclear.', where: 'The pilot data' },
        { persona: 'persona-2', shifted: false, from: 'Shops gain.', to: 'Shops gain.', where: '' }] }),
      timed({ path: 'summary' }, {
        claims: [{ persona: 'The Actuary', claim: 'Most shops lose revenue in year one.' }, { persona: 'The Founder', claim: 'Shops gain within a year.' }],
        agreements: ['District-wide data is thin.'], evidence: [{ persona: 'The Founder', evidence: 'Pilot streets.' }],
        flip_conditions: [{ persona: 'The Actuary', condition: 'District-wide gains in ten cities.' }], open_questions: ['What happens district-wide?'] }),
    ];
    return { answers, default: prose };
  },
  calls: 103,
  critical: J + P + 3 * (3 * P + J + J + P + 14 * P + 6 * J + J + J) + P + J + J,
};

const council = {
  script: () => ({
    answers: [
      timed({ path: 'review/' }, { ranking: ['A', 'B', 'C'].map(label => ({ label, reason: `Answer ${label} reasons as well as it can.` })) }),
      timed({ path: 'vote' }, { groups: [{ answer: 'Yes, ban them.', members: ['Member 1', 'Member 2'] }, { answer: 'No.', members: ['Member 3'] }] }),
      timed({ path: 'verdict' }, { same: true, reason: 'The final answer keeps the yes.' }),
    ],
    default: prose,
  }),
  calls: 10,
  critical: P + J + P + P,
};

const FORMATS = { classic, duelogic, forecast, crux, council };

async function run(browser, site, standin, name, f, concurrency = 10) {
  await standin.setScript(f.script());
  const { page, context } = await openApp(browser, site.url, { width: 1280, height: 900 });
  await addConnection(page, { name: `Stand-in ×${concurrency}`, url: `${standin.base}/v1`, model: 'standin', callHeader: true, concurrency });
  await page.getByRole('radio', { name: name[0].toUpperCase() + name.slice(1) }).check();
  await page.fill('#topic', 'Should cities ban cars from their centres?');
  await f.setup?.(page);
  await page.click('#start');
  await page.waitForSelector('.badge.done, .badge.failed', { timeout: 600_000 });
  const events = await storedEvents(page);
  const wall = events.at(-1).at_ms - events[0].at_ms;
  const calls = (await standin.log()).length;
  const failed = await page.locator('.badge.failed').count();
  await context.close();
  return { wall, calls, failed };
}

const only = process.argv.slice(2);
const site = await serveDist();
const standin = await startStandin('e2e-forecast.json');
const browser = await launch();
try {
  console.log(`Per call: ${LATENCY_MS} ms to the first token, then ${TOKENS_PER_S} tokens/s; prose ${PROSE} tokens (${P} ms), structured ${JSON_CHUNKS} (${J} ms).`);
  const runs = Object.entries(FORMATS).filter(([n]) => !only.length || only.includes(n)).map(([n, f]) => [n, f, 10]);
  if (!only.length || only.includes('forecast')) runs.push(['forecast', forecastOneAtATime, 1]);
  for (const [name, f, concurrency] of runs) {
    const r = await run(browser, site, standin, name, f, concurrency);
    const label = concurrency === 1 ? `${name} (1 call at a time)` : name;
    const note = r.calls === f.calls && !r.failed ? '' : ` — expected ${f.calls} calls${r.failed ? ', and the debate failed' : ''}`;
    const extra = f.sequential ? `; ${(r.wall / f.sequential).toFixed(3)}× the sum of its calls (${f.sequential} ms)` : '';
    console.log(`${label}: ${r.calls} calls, ${r.wall} ms, critical path ${f.critical} ms: ${(r.wall / f.critical).toFixed(3)}×${extra}${note}`);
  }
} finally {
  await browser.close(); standin.close(); site.close();
}
