// A long stored debate for the history tests and the benchmark: 200 turns of about 2,000
// characters of Markdown each, with the request behind every turn, built from the events
// of a real one-round debate and written into the page's IndexedDB.
import { openApp, addConnection } from './harness.mjs';

export const TURNS = 200;

/** A model's turn as models write them: paragraphs, a list, emphasis, a link, code. */
function turnText(i) {
  const para = n => `Point ${i}.${n}: the **evidence** from the *Copenhagen* pilot suggests that car-free centres ` +
    'raise footfall for shops and cut injuries, though deliveries and disabled access need planning. ' +
    `See [the study](https://example.org/study/${i}) and compare it with \`baseline_${n}\` figures from earlier years. `;
  return [para(1) + para(2), para(3), '- first, the cost to commuters\n- second, the gain in air quality\n  - measured as PM2.5\n- third, the politics',
    para(4) + para(5), '1. Pilot for a year\n2. Measure\n3. Decide', para(6)].join('\n\n');
}

/** Writes a debate of `TURNS` turns into the page's IndexedDB, built from the events of a
 * real one-round debate (its start, its requests), and returns its id. */
export async function storeLongDebate(page) {
  return page.evaluate(async ({ TURNS, texts }) => {
    const db = await new Promise((ok, fail) => { const r = indexedDB.open('agora'); r.onsuccess = () => ok(r.result); r.onerror = fail; });
    const read = store => new Promise(ok => { const r = db.transaction(store).objectStore(store).getAll(); r.onsuccess = () => ok(r.result); });
    const [summary] = await read('debates');
    const real = (await read('events')).filter(r => r.debate === summary.id).map(r => JSON.parse(r.json)).sort((a, b) => a.seq - b.seq);
    const started = real.find(e => 'DebateStarted' in e.kind);
    // Spoken turns only: a score is folded away, not a turn on screen.
    const turnStarted = real.filter(e => 'TurnStarted' in e.kind && e.kind.TurnStarted.purpose !== 'evaluation');
    const turnFinished = real.find(e => 'TurnFinished' in e.kind);
    const id = `${summary.id}-long`;
    const events = [structuredClone(started)];
    const seats = ['position-a', 'position-b', 'moderator'];
    let at = started.at_ms;
    const push = kind => events.push({ seq: events.length, at_ms: (at += 1500), kind });
    for (let i = 0; i < TURNS; i++) {
      if (i % 10 === 0) push({ PhaseStarted: { key: `round/${i / 10 + 1}`, title: `Round ${i / 10 + 1}`, round: i / 10 + 1 } });
      const seat = seats[i % 3];
      const call = { path: `round/${Math.floor(i / 10) + 1}/turn-${i}/${seat}`, occurrence: 0 };
      const ts = structuredClone(turnStarted[i % turnStarted.length].kind.TurnStarted);
      push({ TurnStarted: { ...ts, call, seat } });
      const tf = structuredClone(turnFinished.kind.TurnFinished);
      push({ TurnFinished: { ...tf, call, seat, text: texts[i] } });
    }
    push({ Finished: { outcome: 'completed', message: null } });
    const s = JSON.parse(summary.json);
    Object.assign(s, { id, topic: `A long debate of ${TURNS} turns`, turns: TURNS, created_ms: s.created_ms + 1, updated_ms: at });
    const tx = db.transaction(['debates', 'events'], 'readwrite');
    tx.objectStore('debates').put({ id, json: JSON.stringify(s) });
    for (const e of events) tx.objectStore('events').put({ debate: id, seq: e.seq, json: JSON.stringify(e) });
    await new Promise((ok, fail) => { tx.oncomplete = ok; tx.onerror = fail; });
    db.close();
    return { id, bytes: events.reduce((n, e) => n + JSON.stringify(e).length, 0) };
  }, { TURNS, texts: Array.from({ length: TURNS }, (_, i) => turnText(i)) });
}

/** Runs a real one-round debate on the stand-in, stores the long one beside it and opens
 * History. Returns the page and the size of the long debate's events. */
export async function historyWithLongDebate(w) {
  await w.standin.setScript({ default: { chunk_delay_ms: 1 } });
  const { page, context } = await openApp(w.browser, w.site.url);
  await addConnection(page, { name: 'Stand-in', url: `${w.standin.base}/v1`, model: 'standin', callHeader: true });
  await page.fill('#topic', 'Should cities ban private cars?');
  await page.fill('#rounds', '1');
  await page.click('#start');
  await page.waitForSelector('.badge.done', { timeout: 60_000 });
  const { bytes } = await storeLongDebate(page);
  await page.goto(`${w.site.url}?view=history`);
  await page.waitForSelector('a.history-topic');
  return { page, context, bytes };
}

/** Clicks the long debate in History and waits until all its turns are on screen. */
export async function openLongDebate(page) {
  await page.getByRole('link', { name: `A long debate of ${TURNS} turns` }).click();
  await page.waitForFunction(n => document.querySelectorAll('.turn').length === n && document.querySelector('.badge.done'), TURNS, { timeout: 60_000 });
}
