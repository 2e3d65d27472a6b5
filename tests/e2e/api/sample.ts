// A page's use of Agora's module, type-checked against www/agora.d.ts by `tsc` and then
// run, compiled, in Chromium by ../api.test.mjs. The module is passed in (a page imports
// it from wherever Agora is hosted), so only its types are imported here.
import type * as Agora from '../../../www/agora.js';

export interface Ran {
  format: Agora.FormatId;
  outcome: Agora.Outcome | undefined;
  turns: number;
  deltas: number;
  events: string[];
  findings: string[];
  /** Every event `onEvent` saw, in order, by seq: the log the result holds. */
  heard: number[];
  seqs: number[];
  cost: number | undefined;
}

/** The kind of an event or finding: the one key of its object (or the string itself). */
function kindOf(v: object | string): string {
  return typeof v === 'string' ? v : Object.keys(v)[0];
}

/** One debate of `format` on a scripted connection: no key, no network. */
export async function runOne(agora: typeof Agora, format: Agora.FormatId, script: Agora.Script = {}): Promise<Ran> {
  const heard: number[] = [];
  let deltas = 0;
  const request: Agora.DebateRequest = {
    format,
    topic: 'Should cities ban cars from their centres?',
    connections: [{ kind: 'scripted', script, label: 'Demo script' }],
    options: format === 'classic' ? { rounds: 1 } : format === 'crux' ? { aspects: 2 } : {},
  };
  const debate: Agora.AgoraDebate = await agora.runDebate(request, {
    onEvent: (u: Agora.AgoraUpdate) => {
      if (u.type === 'event') heard.push(u.event.seq);
      else if (u.type === 'delta') deltas += u.text.length > 0 ? 1 : 0;
    },
  });
  const last = debate.events[debate.events.length - 1].kind;
  return {
    format,
    outcome: typeof last !== 'string' && 'Finished' in last ? last.Finished.outcome : undefined,
    turns: debate.events.filter(e => kindOf(e.kind) === 'TurnFinished').length,
    deltas,
    events: [...new Set(debate.events.map(e => kindOf(e.kind)))],
    findings: [
      ...new Set(
        debate.events.flatMap(e =>
          typeof e.kind !== 'string' && 'FindingRecorded' in e.kind ? [kindOf(e.kind.FindingRecorded.body)] : [],
        ),
      ),
    ],
    heard,
    seqs: debate.events.map(e => e.seq),
    cost: debate.cost?.total,
  };
}

/** Aborts a run once its first turn has started streaming; returns what the rejection said. */
export async function abortMidway(agora: typeof Agora): Promise<{ name: string; message: string; events: number; finished: string | undefined }> {
  const controller = new AbortController();
  const slow: Agora.Script = { default: { text: 'A slow answer, one word at a time, that never gets far.', chunk_delay_ms: 200 } };
  try {
    await agora.runDebate(
      { format: 'classic', topic: 'A debate cut short', connections: [{ kind: 'scripted', script: slow }] },
      { signal: controller.signal, onEvent: u => { if (u.type === 'delta') controller.abort(); } },
    );
    return { name: 'resolved', message: '', events: 0, finished: undefined };
  } catch (e) {
    const err = e as Agora.AgoraRunError;
    const events = err.debate?.events ?? [];
    const last = events[events.length - 1]?.kind;
    return {
      name: err.name,
      message: err.message,
      events: events.length,
      finished: last && typeof last !== 'string' && 'Finished' in last ? last.Finished.outcome : undefined,
    };
  }
}

/** A page listening to a widget: the element and its events are typed too. */
export function watch(el: Agora.AgoraDebateElement, onCard: (card: Agora.CruxCard) => void): () => void {
  const finding = (e: CustomEvent<Agora.AgoraEvent>) => {
    const kind = e.detail.kind;
    if (typeof kind !== 'string' && 'FindingRecorded' in kind) {
      const body = kind.FindingRecorded.body;
      if ('CruxCard' in body) onCard(body.CruxCard);
    }
  };
  const finished = (e: CustomEvent<Agora.AgoraFinished>) => {
    if (e.detail.outcome !== 'completed') console.warn(e.detail.message);
  };
  el.addEventListener('agora-finding', finding);
  el.addEventListener('agora-finished', finished);
  return () => {
    el.removeEventListener('agora-finding', finding);
    el.removeEventListener('agora-finished', finished);
  };
}
