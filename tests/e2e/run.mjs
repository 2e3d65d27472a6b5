// Runs end-to-end test files a few at a time, each in a node:test process of its own (its
// own browser, stand-in and server, as harness.mjs sets them up), and prints each file's
// report whole when it finishes, with how long it took. Most of an end-to-end test's time is
// spent waiting (for a scripted stream, a retry's backoff, a stall limit), so two files at
// once keep both cores of a small machine busy where one leaves one idle (BENCHMARKS.md,
// "The test command").
//
// The longest files start first, so the last one to finish is a short one: the durations
// of the previous run are kept in $AGORA_CACHE/e2e-durations.json (the test command's
// cache folder); a file never timed counts by its size.
//
// Usage (from tests/e2e):
//   node run.mjs [--jobs N] [file.test.mjs …]     # no files: every *.test.mjs but the
//                                                 # real model's (local-model, inpage-model)
// AGORA_E2E_JOBS sets N too (2 unless set).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { availableParallelism, homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';

const HERE = import.meta.dirname;
/** The real model's files: tier 5 of the test command, with the model server running. */
export const REAL_MODEL = ['local-model.test.mjs', 'inpage-model.test.mjs'];

const args = process.argv.slice(2);
let jobs = Number(process.env.AGORA_E2E_JOBS || 2);
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--jobs') jobs = Number(args[++i]);
  else files.push(basename(args[i]));
}
if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs takes a whole number of files at once, not ${jobs}`);
if (!files.length) files.push(...readdirSync(HERE).filter(f => f.endsWith('.test.mjs') && !REAL_MODEL.includes(f)).sort());
for (const f of files) statSync(join(HERE, f)); // a mistyped name fails here, not as a test

const cache = join(process.env.AGORA_CACHE || join(homedir(), '.cache/agora'), 'e2e-durations.json');
let previous = {};
try { previous = JSON.parse(readFileSync(cache, 'utf8')); } catch { /* the first run */ }
// A file never timed is guessed at 100 ms a byte of test code: roughly what the timed ones take.
const expected = f => previous[f] ?? statSync(join(HERE, f)).size * 0.1;
const queue = [...files].sort((a, b) => expected(b) - expected(a));

const started = Date.now();
const results = [];
async function runFile(file) {
  const t0 = Date.now();
  const child = spawn(process.execPath, ['--test', '--test-reporter=spec', file], { cwd: HERE, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', d => { out += d; });
  child.stderr.on('data', d => { out += d; });
  const code = await new Promise(ok => child.on('close', ok));
  const seconds = (Date.now() - t0) / 1000;
  // The spec reporter's own summary lines ("ℹ pass 7"), added up over the files below.
  const count = word => Number(new RegExp(`^ℹ ${word} (\\d+)$`, 'm').exec(out)?.[1] ?? 0);
  results.push({ file, code, seconds, passed: count('pass'), failed: count('fail') + count('cancelled'), skipped: count('skipped') });
  const mark = code === 0 ? 'passed' : 'FAILED';
  process.stdout.write(`\n── ${file}: ${mark} in ${seconds.toFixed(1)} s ──\n${out}`);
}
await Promise.all(Array.from({ length: Math.min(jobs, queue.length, availableParallelism() * 2) }, async () => {
  while (queue.length) await runFile(queue.shift());
}));

// Kept for the next run's order: this run's times over the last ones.
try {
  mkdirSync(dirname(cache), { recursive: true });
  writeFileSync(cache, JSON.stringify({ ...previous, ...Object.fromEntries(results.map(r => [r.file, Math.round(r.seconds * 10) / 10])) }, null, 1));
} catch (e) { console.error(`(the files' durations were not kept: ${e.message})`); }

const failed = results.filter(r => r.code !== 0);
const total = ((Date.now() - started) / 1000).toFixed(0);
console.log(`\n${results.length} files, ${jobs} at a time, in ${total} s; the longest:`);
for (const r of [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 5)) console.log(`  ${r.seconds.toFixed(1).padStart(6)} s  ${r.file}`);
if (failed.length) {
  console.log(`${failed.length} failed: ${failed.map(r => r.file).join(' ')}`);
  process.exitCode = 1;
}
// Every test of every file, in the one closing line any reader of a test log understands
// (a file that crashed before its tests ran counts as one failure).
const sum = key => results.reduce((n, r) => n + r[key], 0);
const crashed = failed.filter(r => r.failed === 0).length;
console.log(`${sum('passed')} passed, ${sum('failed') + crashed} failed, ${sum('skipped')} skipped`);
