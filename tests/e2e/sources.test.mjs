// Debates on the evidence: sources added on the setup screen (a PDF and pasted text), each
// quote checked against them and shown verified or not found as the stand-in's script
// placed them (one with a "verified" status its writer made up), a verified quote opening its passage, files that cannot be read refused with
// why, and the sources kept through a reload and an export and re-import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { world, openApp, addConnection, settledLeaderboard } from './harness.mjs';
import { setUpTransitForecast } from './transit-forecast.mjs';

const w = world('e2e-sources.json');
const TOPIC = 'Should cities charge cars to enter their centres?';

/** A one-page PDF whose lines are `lines` in Helvetica (a text layer pdf.js reads), with
 * `title` in its information dictionary. No lines: a page with no text, like a scan. */
export function pdf(lines, title = '') {
  const esc = (s) => s.replace(/[\\()]/g, (m) => `\\${m}`);
  const content = `BT /F1 10 Tf 40 800 Td 14 TL ${lines.map((l) => `(${esc(l)}) Tj T*`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< /Title (${esc(title)}) >>`,
  ];
  return pdfFile(objects, '/Info 6 0 R');
}

/** A PDF file of `objects` (numbered from 1, the first the catalog), with its cross-reference
 * table and a trailer carrying `trailer` beside its size and root. */
function pdfFile(objects, trailer) {
  let out = '%PDF-1.4\n';
  const offsets = objects.map((o, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailer} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** RC4, for the standard security handler's password entries (Node's OpenSSL 3 has no
 * RC4 cipher without its legacy provider). */
function rc4(key, data) {
  const S = [...Array(256).keys()];
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + S[i] + key[i % key.length]) & 255;
    [S[i], S[j]] = [S[j], S[i]];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + S[i]) & 255;
    [S[i], S[j]] = [S[j], S[i]];
    out[n] = data[n] ^ S[(S[i] + S[j]) & 255];
  }
  return out;
}

/** A one-page PDF encrypted with a user password (the standard security handler, revision
 * 2, as the PDF reference's algorithms 3.2 to 3.4 compute it): a reader must ask for the
 * password before it can read a word. */
export function encryptedPdf() {
  const md5 = (b) => createHash('md5').update(b).digest();
  const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
  const padded = (pw) => Buffer.concat([Buffer.from(pw, 'latin1'), PAD]).subarray(0, 32);
  const id = Buffer.from('0123456789abcdef0123456789abcdef', 'hex');
  const P = -4;
  const O = rc4(md5(padded('owner')).subarray(0, 5), padded('secret'));
  const p = Buffer.alloc(4); p.writeInt32LE(P);
  const key = md5(Buffer.concat([padded('secret'), O, p, id])).subarray(0, 5);
  const U = rc4(key, PAD);
  const hex = (b) => `<${b.toString('hex')}>`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
    `<< /Filter /Standard /V 1 /R 2 /O ${hex(O)} /U ${hex(U)} /P ${P} >>`,
  ];
  return pdfFile(objects, `/Encrypt 4 0 R /ID [${hex(id)} ${hex(id)}]`);
}

const REPORT = pdf([
  'Stockholm, 2006: the trial in numbers.',
  'The congestion charge cut traffic across the cordon by',
  'about 20 percent, and the cut held after the trial ended.',
  'Retail sales in the zone did not fall.',
], 'Stockholm congestion report');

/** Each quote mark on screen: the seat's turn it is in and what its check says. */
async function marks(page) {
  return page.$$eval('.turn q.src-quote', (qs) => qs.map((q) => `${q.closest('.turn').className.match(/seat-([\w-]+)/)[1]} ${q.dataset.status}`));
}

async function download(page, button) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  return readFile(await d.path(), 'utf8');
}

test('a debate over a PDF and pasted text shows each quote verified or not found, opens its passage, and keeps its sources', async () => {
  const { page } = await openApp(w.browser, w.site.url);
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await page.fill('#topic', TOPIC);
  await page.fill('#rounds', '1');
  await page.locator('.sources-form > summary').click();

  // Files that cannot be read are refused, each with why; the PDF beside them is read.
  await page.setInputFiles('#source-files', [
    { name: 'stockholm.pdf', mimeType: 'application/pdf', buffer: REPORT },
    { name: 'scan.pdf', mimeType: 'application/pdf', buffer: pdf([]) },
    { name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('just some text, not a PDF') },
    { name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
    { name: 'locked.pdf', mimeType: 'application/pdf', buffer: encryptedPdf() },
  ]);
  await page.locator('.source-item', { hasText: 'Stockholm congestion report' }).waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => document.querySelectorAll('.source-error').length === 4, null, { timeout: 30_000 });
  const errors = await page.locator('.source-error').allTextContents();
  assert.ok(errors.some((e) => /“scan\.pdf”.*no text to read.*a scan/.test(e)), errors.join('\n'));
  assert.ok(errors.some((e) => /“notes\.pdf”.*not a PDF/.test(e)), errors.join('\n'));
  assert.ok(errors.some((e) => /“photo\.png” is not a kind of file Agora reads/.test(e)), errors.join('\n'));
  assert.ok(errors.some((e) => /“locked\.pdf”.*encrypted with a password/.test(e)), errors.join('\n'));

  await page.fill('#source-title', 'Residents survey');
  await page.fill('#source-text', 'Two thirds of residents said the streets felt safer after the trial.\n\nOne in ten said they drove less.');
  await page.click('#add-source');
  assert.deepEqual(await page.locator('.source-item .source-id').allTextContents(), ['S1', 'S2']);
  // A pasted text with nothing in it is refused; the two sources stay.
  await page.click('#add-source');
  await page.getByText('has no text to quote').waitFor();
  assert.equal(await page.locator('.source-item').count(), 2);

  await page.click('#start');
  await page.waitForSelector('.badge.done', { timeout: 60_000 });

  // As the script placed them: each of Position A's turns quotes both sources word for word
  // (the PDF's words across a line break), Position B's quotes words no source has.
  const shown = await marks(page);
  const a = shown.filter((m) => m.startsWith('position-a'));
  const b = shown.filter((m) => m.startsWith('position-b'));
  assert.ok(a.length >= 6 && a.every((m) => m.endsWith('verified')), shown.join('\n'));
  assert.ok(b.length >= 3 && b.every((m) => m.endsWith('not-found')), shown.join('\n'));
  const counts = await page.locator('.quote-counts li').allTextContents();
  assert.deepEqual(counts, [
    `Position A: ${a.length} quotes, ${a.length} verified, 0 not found`,
    `Position B: ${b.length} quotes, 0 verified, ${b.length} not found`,
  ]);
  assert.match(await page.locator('.turn.seat-position-b details.quotes').first().textContent(), /Not found in any source/);
  // Position B wrote its quote's tag with a status of its own: it is checked afresh, and
  // the tag's attributes are not shown.
  assert.doesNotMatch(await page.locator('.turn.seat-position-b .md').first().textContent(), /status=|<quote/);

  // The stand-in got the passages with each speech, and later prompts the checks.
  const log = await w.standin.log();
  const speech = log.find((r) => r.seat === 'position-a');
  assert.match(speech.messages[0].content, /\[S1 ¶1 · Stockholm congestion report\]/);
  const carries = (r) => r.messages.some((m) => /<quote status="not found">shops in the zone/.test(m.content));
  assert.ok(log.some(carries), 'a later prompt carries the check');

  // A verified quote opens its passage with its words highlighted.
  await page.locator('.turn.seat-position-a button.open-source').first().click();
  const viewer = page.locator('.source-viewer');
  await viewer.waitFor();
  assert.match(await viewer.locator('h3').textContent(), /Stockholm congestion report/);
  assert.match(await viewer.locator('mark').textContent(), /^The congestion charge cut traffic across the cordon by\s+about 20 percent$/);
  await viewer.getByRole('button', { name: 'Close' }).click();
  await viewer.waitFor({ state: 'detached' });

  // A reload reads the sources back from IndexedDB and checks the same.
  await page.reload();
  await page.waitForSelector('.badge.done');
  await page.waitForSelector('.turn q.src-quote[data-status]');
  assert.deepEqual(await marks(page), shown);

  // The JSON export carries the sources; re-imported, the debate checks its quotes the same.
  const json = await download(page, '#export-json');
  const config = JSON.parse(json).events[0].kind.DebateStarted.config;
  assert.deepEqual(config.sources.map((s) => [s.id, s.title, s.origin.kind]), [
    ['S1', 'Stockholm congestion report', 'file'], ['S2', 'Residents survey', 'pasted'],
  ]);
  const md = await download(page, '#export-md');
  assert.match(md, /Quote verified in S1 ¶1 \(Stockholm congestion report\)/);
  assert.match(md, /\| Position B \| \d+ \| 0 \| \d+ \|/);

  await page.getByRole('link', { name: 'History' }).click();
  await page.locator('.history-row').first().getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Delete for good' }).click();
  await page.waitForSelector('text=No debates yet.');
  const { writeFile, mkdtemp } = await import('node:fs/promises');
  const dir = await mkdtemp('/tmp/agora-sources-');
  await writeFile(`${dir}/debate.json`, json);
  await page.setInputFiles('#import-file', `${dir}/debate.json`);
  await page.getByText(`Imported “${TOPIC}”.`).waitFor();
  await page.locator('a.history-topic').click();
  await page.waitForSelector('.badge.done');
  await page.waitForSelector('.turn q.src-quote[data-status]');
  assert.deepEqual(await marks(page), shown);
});

test('a tournament over a source: judges who have not seen it weigh the checked quotes, and the leaderboard counts them', async () => {
  const { page } = await openApp(w.browser, w.site.url);
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'host', callHeader: true, concurrency: 4 });
  await page.getByRole('link', { name: 'Tournaments' }).click();
  await page.waitForSelector('#start-tournament');
  await page.fill('#tournament-name', 'Evidence cup');
  for (const [n, model] of [[1, 'alpha'], [2, 'beta']]) {
    await page.getByLabel(`Contestant ${n} connection`).selectOption({ label: 'Stand-in' });
    await page.getByLabel(`Contestant ${n} model`).fill(model);
  }
  await page.fill('#motions', TOPIC);
  await page.getByLabel('Judge 1 connection').selectOption({ label: 'Stand-in' });
  await page.getByLabel('Judge 1 model').fill('judge-x');
  await page.getByLabel('Host connection').selectOption({ label: 'Stand-in' });
  await page.getByLabel('Host model').fill('host');
  await page.locator('.sources-form > summary').click();
  await page.setInputFiles('#source-files', [{ name: 'stockholm.pdf', mimeType: 'application/pdf', buffer: REPORT }]);
  await page.locator('.source-item', { hasText: 'Stockholm congestion report' }).waitFor({ timeout: 30_000 });
  await page.fill('#source-title', 'Residents survey');
  await page.fill('#source-text', 'Two thirds of residents said the streets felt safer after the trial.');
  await page.click('#add-source');
  assert.equal(await page.locator('#judges-read-sources').isChecked(), false, 'by default the judges do not read the sources');
  await page.click('#start-tournament');
  await page.waitForFunction(() => document.querySelector('#tournament-state')?.textContent === 'Finished', null, { timeout: 120_000 });

  // Each model's quotes over its two debates (one on each side): the first side's seat
  // quotes the sources word for word, the second's quotes words they do not have.
  const rows = await settledLeaderboard(page, 2, 2);
  assert.equal(rows.length, 2, JSON.stringify(rows));
  const head = await page.locator('#leaderboard thead th').allTextContents();
  const q = head.findIndex((h) => h.trim() === 'Quotes');
  assert.ok(q > 0, head.join('|'));
  for (const r of rows) assert.match(r[q], /^\d+ \(\d+ verified, \d+ not found\)$/, r.join('|'));
  const total = rows.map((r) => r[q].match(/^(\d+) \((\d+) verified, (\d+) not found/).slice(1).map(Number))
    .reduce((a, b) => a.map((x, i) => x + b[i]));
  assert.ok(total[1] > 0 && total[2] > 0, `verified and not found both counted: ${total}`);

  // The judge got each quote with its check and how to weigh it, never the passages.
  const log = await w.standin.log();
  const verdicts = log.filter((r) => r.path.startsWith('verdict/'));
  assert.ok(verdicts.length >= 2, JSON.stringify(log.map((r) => [r.seat, r.purpose, r.path])));
  for (const v of verdicts) {
    const prompt = v.messages.map((m) => m.content).join('\n');
    assert.match(prompt, /<quote status="verified" passage="S\d ¶1">/);
    assert.match(prompt, /<quote status="not found">shops in the zone lost half their trade<\/quote>/);
    assert.match(prompt, /occurs in no source/);
    assert.doesNotMatch(prompt, /\[S1 ¶1 · /, 'a judge who has not seen the sources gets no passage');
  }
});

test('duelogic and crux debates over a PDF and pasted text mark their speakers’ quotes verified or not found', async () => {
  // Every speech quotes the source once word for word and once with words it does not have.
  await w.standin.setScript({
    answers: [{
      purpose: 'argument',
      text: 'The record says <quote>Two thirds of residents said the streets felt safer</quote>, whatever the claim that <quote>residents moved away in droves</quote>.',
      chunk_delay_ms: 2,
    }],
    default: { chunk_delay_ms: 2 },
  });
  const formats = [
    ['Duelogic', async (page) => page.fill('#duelogic-rounds', '1')],
    ['Crux', async (page) => { await page.fill('#crux-aspects', '1'); await page.fill('#crux-exchanges', '4'); }],
  ];
  for (const [format, options] of formats) {
    const { page } = await openApp(w.browser, w.site.url);
    await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
    await page.getByRole('radio', { name: format }).check();
    await page.fill('#topic', TOPIC);
    await options(page);
    await page.locator('.sources-form > summary').click();
    await page.setInputFiles('#source-files', [{ name: 'stockholm.pdf', mimeType: 'application/pdf', buffer: REPORT }]);
    await page.locator('.source-item', { hasText: 'Stockholm congestion report' }).waitFor({ timeout: 30_000 });
    await page.fill('#source-title', 'Residents survey');
    await page.fill('#source-text', 'Two thirds of residents said the streets felt safer after the trial.');
    await page.click('#add-source');
    await page.click('#start');
    await page.waitForSelector('.badge.done', { timeout: 90_000 });
    await page.waitForSelector('.turn q.src-quote[data-status]');
    const shown = await page.$$eval('.turn q.src-quote', (qs) => qs.map((q) => q.dataset.status));
    const verified = shown.filter((s) => s === 'verified').length;
    const missing = shown.filter((s) => s === 'not-found').length;
    assert.ok(verified >= 2 && verified === missing && verified + missing === shown.length, `${format}: ${shown.join(' ')}`);
    await page.context().close();
  }
});

test('a forecast over a PDF and pasted text counts each role’s quotes, verified and not found', async () => {
  // The transit forecast's script, the optimist's argument quoting the PDF word for word and
  // then a line the sources do not have.
  const script = JSON.parse(await readFile(new URL('../scripts/e2e-forecast.json', import.meta.url), 'utf8'));
  const optimist = script.answers.find((a) => a.seat === 'optimist' && a.purpose === 'argument');
  const said = JSON.parse(optimist.text);
  said.argument = 'The record is plain: <quote>the cut held after the trial ended</quote>, and <quote>every merchant backed the bill</quote>.';
  optimist.text = JSON.stringify(said);
  await w.standin.setScript(script);

  const { page } = await openApp(w.browser, w.site.url);
  await setUpTransitForecast(page, w.standin);
  await page.locator('.sources-form > summary').click();
  await page.setInputFiles('#source-files', [{ name: 'stockholm.pdf', mimeType: 'application/pdf', buffer: REPORT }]);
  await page.locator('.source-item', { hasText: 'Stockholm congestion report' }).waitFor({ timeout: 30_000 });
  await page.fill('#source-title', 'Residents survey');
  await page.fill('#source-text', 'Two thirds of residents said the streets felt safer after the trial.');
  await page.click('#add-source');
  await page.click('#start');
  await page.waitForSelector('.badge.done', { timeout: 90_000 });

  // Each of the optimist's three rounds made one verified quote and one not found; the
  // panel shows its words between quotation marks, never the tags.
  const counts = await page.locator('.sources-line .quote-counts li[data-seat="optimist"]').textContent();
  assert.match(counts, /: 6 quotes, 3 verified, 3 not found/);
  assert.deepEqual(await page.locator('.sources-line .source-list li').allTextContents(), ['S1 · Stockholm congestion report', 'S2 · Residents survey']);
  const panel = (await page.locator('.fc-text').allTextContents()).join('\n');
  assert.match(panel, /“the cut held after the trial ended”/);
  assert.doesNotMatch(panel, /<quote/);
  // Every role got the passages with its argument.
  const log = await w.standin.log();
  const argued = log.find((r) => r.seat === 'optimist' && r.purpose === 'argument');
  assert.ok(argued.messages.some((m) => /\[S1 ¶1 · Stockholm congestion report\]/.test(m.content)));
  await page.context().close();
});
