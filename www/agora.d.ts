// TypeScript declarations for agora.js, Agora's module for other pages. Field names are
// snake_case, as in Agora's JSON exports and the scripts the scripted provider plays, so a
// configuration, a script and a result read the same here as in those files.
// Kept true by tests/e2e/api.test.mjs: tests/e2e/api/sample.ts type-checks against this
// file (tsc) and then runs, compiled, against the release build; every event kind and
// finding kind the five formats record is checked to be declared here.

export type FormatId = 'classic' | 'duelogic' | 'forecast' | 'crux' | 'council';

/** What `runDebate` runs. Give `format` and `topic` (the format's default debate, as the
 * app's setup screen first offers it), or a whole `config` copied from an export
 * (`events[0].kind.DebateStarted.config`). */
export interface DebateRequest {
  format?: FormatId;
  /** The topic (a forecast's question). With `config`: the same debate on this topic. */
  topic?: string;
  /** Merged over the format's default options, key by key (see an export's config for
   * each format's options, e.g. `{ rounds: 3 }` for classic, `{ aspects: 2 }` for crux).
   * A key the format does not have is refused. */
  options?: Record<string, unknown>;
  config?: DebateConfig;
  /** At least one. The first runs every seat that `seats` does not place elsewhere. */
  connections: ConnectionSpec[];
  /** By seat id: `moderator`, `position-a`, `position-b` (classic); `arbiter`, `chair-1`…
   * (duelogic); `optimist`, `pessimist`, `contrarian`, `historian`, `judge` (forecast);
   * `persona-1`…, `analyst` (crux); `member-1`…, `chair`, `analyst` (council). */
  seats?: Record<string, SeatSpec>;
  /** Dollars the debate may spend. Reaching it stops the run (the promise rejects). */
  spending_cap?: number;
  /** Documents the debaters may quote (numbered `S1`, `S2`… after any `config` carries).
   * Each speech gets the most relevant passages; every `<quote>…</quote>` a debater
   * writes is checked word for word against them and shown verified or not found. */
  sources?: { title?: string; text: string }[];
  /** Judges, the Arbiter and the analyst get passages too, in the room their prompts leave.
   * Off (the default), they see only the quotes and whether each was verified. */
  judges_read_sources?: boolean;
  /** Seats (by id) whose speeches may use their provider's web search: OpenAI's search
   * models, Anthropic's web search tool, Gemini's Google Search grounding, OpenRouter's
   * web search. A seat that does not argue, or a connection that cannot search, is refused.
   * The pages cited show under the turn and become sources `W1`, `W2`… */
  search_web?: string[];
}

export type ProviderKind = 'open_ai_compatible' | 'open_router' | 'anthropic' | 'gemini' | 'scripted';

export interface ConnectionSpec {
  /** How `seats` name it; `c1`, `c2`… by position when absent. */
  id?: string;
  kind: ProviderKind;
  label?: string;
  /** e.g. `https://api.openai.com/v1`: https, or http on this machine only. */
  base_url?: string;
  /** The model its seats use unless a seat names another. */
  model?: string;
  /** Sent only to `base_url`; never part of the result, an event or an error. */
  api_key?: string;
  /** What a `scripted` connection plays: no key, no network. */
  script?: Script;
  context_tokens?: number;
  /** Calls at once (1 to 32). */
  concurrency?: number;
  /** A stream silent this long counts as cut (5,000 to 3,600,000 ms). */
  stall_ms?: number;
  /** How an OpenAI-compatible server takes a JSON Schema. When absent, OpenAI's form is
   * tried first and, whenever the server refuses one, the next in this order. */
  schema_form?: SchemaForm;
}

export type SchemaForm = 'json_schema' | 'json_object_schema' | 'ollama_format' | 'json_object' | 'prompt_only';

export interface SeatSpec {
  /** A connection's `id` (default: the first connection). */
  connection?: string;
  /** Default: the connection's model. */
  model?: string;
}

/** The scripted provider's script, the same JSON the test stand-in plays. Calls that no
 * answer matches get generated text (or `default`). */
export interface Script {
  answers?: ScriptAnswer[];
  default?: ScriptAnswer;
}

export type Purpose = 'moderation' | 'argument' | 'summary' | 'evaluation' | 'extraction' | 'check';

export interface ScriptAnswer {
  /** Matches this seat id; absent matches any. */
  seat?: string;
  purpose?: Purpose;
  /** Matches calls whose path starts with this (`round/1/argument`). */
  path?: string;
  /** 0-based count of earlier calls with the same seat and purpose (retries included). */
  occurrence?: number;
  text?: string;
  /** The text as streamed pieces (else `text` is streamed word by word). */
  chunks?: string[];
  first_delay_ms?: number;
  chunk_delay_ms?: number;
  usage?: { input_tokens: number; output_tokens: number };
  finish?: FinishReason;
  fault?: ScriptFault;
  /** Stream the chunks forever: only Agora's own bounds on a call stop it. */
  endless?: boolean;
}

/** Exactly one of `status`, `cut_after_bytes` or `stall_after_bytes`. */
export interface ScriptFault {
  /** An HTTP error (400–599) instead of an answer; `headers` such as `retry-after`. */
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Stream this many bytes, then drop the connection. */
  cut_after_bytes?: number;
  /** Stream this many bytes, then go silent for `stall_ms`. */
  stall_after_bytes?: number;
  stall_ms?: number;
}

export interface RunOptions {
  /** Every event of the debate's log as it is recorded, and its streaming text. */
  onEvent?: (update: AgoraUpdate) => void;
  /** Aborting stops the call in flight; the promise rejects with an `AbortError`. */
  signal?: AbortSignal;
}

export type AgoraUpdate =
  | { type: 'event'; event: AgoraEvent }
  | { type: 'delta'; call: string; seat: string; text: string }
  | { type: 'notice'; message: string };

/** The finished debate: the same JSON as the app's export, which the app imports. */
export interface AgoraDebate {
  agora_export: 1;
  schema: number;
  events: AgoraEvent[];
  cost?: {
    currency: 'USD';
    total: number;
    by_seat: Record<string, number | null>;
    estimated: boolean;
    unpriced_seats: string[];
  };
}

/** Why a run did not complete: `AgoraError` (a failed call, a key the provider refused,
 * the spending cap) or the DOM's `AbortError`; `debate` holds the log so far. */
export interface AgoraRunError extends Error {
  name: 'AgoraError' | 'AbortError';
  debate?: AgoraDebate;
}

export function runDebate(request: DebateRequest, options?: RunOptions): Promise<AgoraDebate>;

// ---- the event log ----

export interface CallKey { path: string; occurrence: number }
export interface Usage { input_tokens: number; output_tokens: number; estimated: boolean }
/** `size_limit` and `time_limit`: cut at Agora's own bound on one answer's size or one
 * call's time (`limit` in debates recorded before the two were told apart). */
export type FinishReason = 'stop' | 'length' | 'cut' | 'limit' | 'size_limit' | 'time_limit';
export type Outcome = 'completed' | 'stopped' | 'failed';

export interface AgoraEvent {
  seq: number;
  /** Milliseconds since the Unix epoch. */
  at_ms: number;
  kind: EventKind;
}

export type EventKind =
  | { DebateStarted: { schema: number; config: DebateConfig; seed: number; planned_calls: number } }
  | { PhaseStarted: { key: string; title: string; round?: number | null } }
  | { TurnQueued: { call: CallKey; seat: string; purpose: Purpose; label: string } }
  | { TurnStarted: { call: CallKey; seat: string; purpose: Purpose; label: string; request_hash: string; human: boolean; request?: string } }
  | { TurnFinished: { call: CallKey; seat: string; text: string; reasoning?: string; usage: Usage; finish: FinishReason } }
  | { WebSearched: { call: CallKey; seat: string; web: { citations?: { url: string; title?: string; cited_text?: string }[]; failed?: string } } }
  | { TurnFailed: { call: CallKey; seat: string; partial: string; error: string } }
  | { RetryScheduled: { call: CallKey; attempt: number; max_attempts: number; wait_ms: number; reason: string } }
  | { CallSkipped: { call: CallKey; seat: string; reason: string; failed?: boolean } }
  | { DecisionRecorded: { key: string; value: unknown } }
  | { FindingRecorded: Finding }
  /** How a structured answer was read: from the first answer, after one repair, or not. */
  | { StructuredRead: { call: CallKey; seat: string; outcome: 'parsed' | 'repaired' | 'unread'; problem?: string } }
  | { InputReceived: { before: CallKey; input: Record<string, unknown> } }
  | { Paused: { reason: string; needs_resume?: boolean } }
  | 'Resumed'
  | { Error: { message: string } }
  | { Finished: { outcome: Outcome; message?: string | null } };

export interface DebateConfig {
  topic: string;
  seats: SeatConfig[];
  /** The seat analysis calls run on. */
  analyst: string;
  /** One key, the format: `{ classic: {…} }`. */
  options: { [format in FormatId]?: Record<string, unknown> };
  spending_cap?: number;
  forked_from?: { debate: string; call: string; label: string };
  sources?: Source[];
  judges_read_sources?: boolean;
  search_web?: string[];
}

export interface Source {
  /** `S1`, `S2`… for the user's documents; `E1`… for evidence added while it ran (pages a
   * web search cited, `W1`…, come from `WebSearched` events, never from a configuration). */
  id: string;
  title: string;
  origin: { kind: 'file'; name: string } | { kind: 'pasted' } | { kind: 'evidence' };
  text: string;
}

export interface SeatConfig {
  id: string;
  name: string;
  stance?: string | null;
  participant:
    | { model: { connection: string; connection_label: string; model: string; context_tokens: number; price?: { input: number; output: number } } }
    | 'human';
}

export interface Finding {
  key: string;
  about?: CallKey;
  /** The seat it is about (the speaker judged, the role forecasting…). */
  seat?: string;
  body: FindingBody;
}

export interface Criterion { name: string; weight: number; value: number; max: number; reason: string }

export interface CruxCard {
  room: string;
  question: string;
  crux: string;
  sides: { seat: string; position: string; [more: string]: unknown }[];
  kind: string;
  diagnosis: string;
  resolved: boolean;
  resolution: string;
}

/** One key, the finding's kind. */
export type FindingBody =
  | { Evaluation: { adherence: number; consistent: boolean; honesty: string; requires_interjection: boolean; reason: string; [more: string]: unknown } }
  | { Score: { rubric: string; criteria: Criterion[]; total: number } }
  | { Interjection: { violation: string; text: string } }
  | { Interruption: { by: string; reason: string; trigger: string; urgency: number; kept_chars: number } }
  | { Probabilities: { outcomes: { outcome: string; probability: number }[]; confidence: number } }
  | { CruxCard: CruxCard }
  | { CruxNotExtracted: { room: string; reason: string } }
  | { Summary: { title: string; text: string } }
  | { Aspects: { label: string; question: string }[] }
  | { Disagreement: Record<string, unknown> }
  | { RoomCheck: { kind: string; done: boolean; crux: string; note: string } }
  | { PositionShift: { shifted: boolean; from: string; to: string; moved_by: string } }
  /** The forecast panel's findings: probabilities by role and round, scores, the blend. */
  | { Forecast: Record<string, unknown> }
  | { Unscored: { what: string; reason: string } }
  | { FactCheck: { claims: { claim: string; verdict: 'supported' | 'disputed' | 'false' | 'unverifiable'; [more: string]: unknown }[] } }
  /** A classic moderator's note on a turn that broke a rule, ran long or left the topic. */
  | { ModeratorNote: { breach: string; rule?: string; note: string } }
  | { Council: CouncilFinding };

/** What a council's calls and deliberation cost: `dollars` is null when a seat had no price. */
export interface Spend { calls: number; tokens: number; dollars: number | null }

/** A council's findings, one key: a reviewer's ballot (the seats in the order shown as A,
 * B, C…, and its ranking best first), the Borda ranking with each reviewer's leanings, the
 * vote of the first answers, a chair that gave no final answer, and whether deliberating
 * confirmed or changed the vote. */
export type CouncilFinding =
  | { Ballot: { round: number; shown: string[]; ranking: { seat: string; name: string; label: string; reason: string }[] } }
  | { Ranking: { round: number; standings: { seat: string; name: string; points: number; firsts: number; lasts: number }[];
      ties: string[]; ballots: number; unread: string[];
      biases: { reviewer: string; name: string; own_place: number | null; of: number; others_place: number | null; self_preference: number | null; position_bias: number | null }[] } }
  | { Vote: { groups: { answer: string; seats: string[]; names: string[] }[]; majority: number | null; answers: number } }
  | { ChairFailed: { message: string } }
  | { Worth: { verdict: 'confirmed' | 'changed' | 'no_majority' | 'undecided'; vote: string; reason: string; first: Spend; deliberation: Spend } };

// ---- the widget ----

/** `<agora-debate>`: a recorded debate (`src`: an export's URL or a `#share=1.…` link; or
 * inline JSON in a child `<script type="application/json">`), or a live one (`config`,
 * whose format and topic the `format` and `topic` attributes override). */
export class AgoraDebateElement extends HTMLElement {
  /** A live debate, as `runDebate` takes it; setting it (re)starts the widget. */
  config: DebateRequest | undefined;
}

/** `agora-finished`'s detail. */
export interface AgoraFinished { id: string; outcome: Outcome; message: string | null; debate: AgoraDebate }

declare global {
  interface HTMLElementTagNameMap { 'agora-debate': AgoraDebateElement }
  interface HTMLElementEventMap {
    /** A turn finished (its `TurnFinished` event). */
    'agora-turn': CustomEvent<AgoraEvent>;
    /** A finding was recorded: an evaluation, a score, probabilities, a crux card… */
    'agora-finding': CustomEvent<AgoraEvent>;
    'agora-finished': CustomEvent<AgoraFinished>;
    /** The widget could not show or run its debate, or the debate is held (a refused key). */
    'agora-error': CustomEvent<{ message: string }>;
  }
}
