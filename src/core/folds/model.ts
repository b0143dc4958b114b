// The state AGDX consumers fold the log into, as the inspector reconstructs it: the agent
// registry (cards, liveness), quarantine, the run registry, per-conversation summaries.
// Record indices index the `records` array the fold was given (the report's `records` too).
import type { CardData } from '../agdx/card';
import type { SignatureStatus } from '../model';
import type { Finding } from '../verdict';

/** Usage totals (advisory: the envelope's token counts summed as written). */
export interface UsageTotals {
  input: bigint;
  output: bigint;
  reasoning: bigint;
  cache_read: bigint;
  cache_creation: bigint;
  /** 0.7: cost in micro-units (0 when no record carried one). */
  cost_micros: bigint;
  /** How many records carried usage. */
  records: number;
}

export interface SeenAt {
  recordIndex: number;
  time: bigint | null;
}

export interface AgentCardState {
  card: CardData;
  /** The status card record it came from, and that record's time. */
  recordIndex: number;
  time: bigint | null;
  /** card time + ttl_micros, when both are known. */
  expiresAt: bigint | null;
}

export interface AgentState {
  id: string;
  firstSeen: SeenAt;
  lastSeen: SeenAt;
  /** Records with this agent as source / as target, in log order (4 bytes each: a log's agents list every record twice). */
  asSource: Int32Array;
  asTarget: Int32Array;
  /** The latest card that decoded; null when none was seen. */
  card: AgentCardState | null;
  /** Status card records from this agent (decoded or not). */
  cardCount: number;
  /** Card records whose body did not decode as an AgentCard (the previous card stays). */
  cardProblems: { recordIndex: number; message: string }[];
  ttlMicros: bigint | null;
  /** At the fold's clock (`FoldResult.now`): true alive, false dead, null undecidable. */
  alive: boolean | null;
  aliveReason: string;
  quarantined: boolean;
  /** The fact that set the current quarantine state (a quarantine, or the unquarantine that lifted it). */
  quarantineFact: QuarantineFact | null;
  /** Every quarantine / unquarantine fact naming this agent, in log order. */
  quarantineFacts: QuarantineFact[];
  /** Token usage of the records this agent sent. */
  usage: UsageTotals;
}

/**
 * How far a quarantine fact is backed. The registry topic's write access authorises it (the
 * inspector cannot see that); the signature says more:
 * - operator-signed: the signature verifies and is trusted, which for quarantine means an operator key;
 * - unsigned: no signature, so it rests on the topic's access control alone;
 * - non-operator-signed: the signature verifies but is not trusted as an operator's (an agent key,
 *   a revoked key, a key outside its window, or a relabelled codec: `signature.reason` says which);
 * - invalid-signature: the signature does not verify, or is malformed;
 * - unverified: signed, but the key is not in the registry or the scheme is unknown, so whether it
 *   is an operator's cannot be told (it rests on the topic's access control, as an unsigned one does).
 */
export type QuarantineBacking = 'operator-signed' | 'unsigned' | 'non-operator-signed' | 'invalid-signature' | 'unverified';

export interface QuarantineFact {
  recordIndex: number;
  time: bigint | null;
  op: 'quarantine' | 'unquarantine';
  /** The body as UTF-8: the agent quarantined or released; null when the body is empty or not UTF-8. */
  target: string | null;
  /** The record's source (a claim). */
  issuer: string;
  backing: QuarantineBacking;
  /** The record's signature verdict, as verify.ts gave it. */
  signature: { status: SignatureStatus; trusted: boolean; signer: string | null; keyId: string | null; reason: string };
  /** false when the fact changed nothing: no target, or a dead-letter payload (never delivered). */
  applied: boolean;
  sentence: string;
}

export interface TaskStateEntry {
  /** The AGDX task_state code and its name (A2A v0.3 TaskState names; `unrecognized-N` otherwise). */
  code: number;
  state: string;
  /** A2A's `final`: the envelope's `last`. */
  final: boolean;
  terminal: boolean;
  time: bigint | null;
  recordIndex: number;
  source: string;
  /** Written after the run had already reached a terminal state (flagged agdx/fold/after-terminal). */
  afterTerminal: boolean;
}

export interface RunState {
  id: string;
  /** Every record carrying metadata `run` = id, in log order. */
  records: number[];
  /** Task states of the status records of this run, in log order. */
  history: TaskStateEntry[];
  /** The latest state before any terminal (the terminal once reached), or null with no history. */
  current: string | null;
  /** The first terminal state, or null while the run is open. */
  terminal: string | null;
  terminalRecordIndex: number | null;
  /** Task states written after the terminal one. */
  afterTerminal: number;
  conversations: string[];
  agents: string[];
  firstTime: bigint | null;
  lastTime: bigint | null;
}

export interface RecordSet {
  count: number;
  records: number[];
}

export interface ConversationSummary {
  /** Crockford id. */
  id: string;
  /** How many records it has (the report says no more of them; a list was a million numbers kept for a count). */
  records: number;
  /** Sources and targets, sorted. */
  agents: string[];
  recordsByKind: Record<string, number>;
  firstTime: bigint | null;
  lastTime: bigint | null;
  /** Records not valid by their own findings (the log's, the folds' own included, are not counted). */
  invalid: RecordSet;
  /** Records whose signature is invalid or malformed. */
  badlySigned: RecordSet;
  /** Usage per sending agent (in first-seen order), and the conversation's total. */
  usage: Map<string, UsageTotals>;
  usageTotal: UsageTotals;
  runs: string[];
}

export interface FoldFinding {
  recordIndex: number;
  finding: Finding;
}

export interface FoldOptions {
  /** A position in the log order (fold.ts logOrderRecords): fold only records up to and including it. Below 0 folds nothing. */
  asOf?: number;
}

export interface FoldResult {
  /** How many positions of the log order (fold.ts logOrderRecords) were folded. */
  folded: number;
  agents: AgentState[];
  quarantine: QuarantineFact[];
  runs: RunState[];
  conversations: ConversationSummary[];
  findings: FoldFinding[];
  /** Records whose metadata bridge_hops repeats a bridge id (a routing loop). */
  bridgeLoops: number;
  bridgeLoopRecords: number[];
  /** Sessions (0.7 conversations with `session` statuses), first seen first: folds/sessions.ts. */
  sessions: SessionState[];
  /** The fold's clock: the latest time of any folded record (null when none has a time). */
  now: bigint | null;
  /** Folded records by where their time came from. */
  times: { log: number; ulid: number; none: number };
  asOf: { position: number; recordIndex: number; time: bigint | null } | null;
}

export const FOLD_RULES = {
  unauthorised: 'agdx/fold/unauthorised',
  quarantined: 'agdx/fold/quarantined',
  dead: 'agdx/fold/dead',
  afterTerminal: 'agdx/fold/after-terminal',
} as const;

// ---------------------------------------------------------------------------------------------
// Sessions (the 0.7 dialect's conversations with `session` statuses: folds/sessions.ts)
// ---------------------------------------------------------------------------------------------

export type { SessionNote } from '../agdx/session-note';

/** One step of a session's lifecycle: a session status record. */
export interface SessionStep {
  code: number;
  state: string;
  recordIndex: number;
  time: bigint | null;
  /** The body's shape (start, transition, end), or null when the body did not read. */
  body: 'start' | 'transition' | 'end' | null;
  /** The lifecycle does not allow this change from the state before it (flagged agdx/session/transition). */
  disallowed: boolean;
  /** Written after the session's terminal state (flagged agdx/session/after-end). */
  afterEnd: boolean;
}

/** A record parked while its session was paused, and the record that unparked it (null: never). */
export interface ParkedWork {
  role: string;
  /** The parked record's place in the log, as the SessionParking names it. */
  source: { stream: number; topic: number; partition: number; offset: bigint; generation: bigint | null };
  /** The record in this log at that place, when it is here. */
  sourceRecord: number | null;
  /** The pause request the parking answers, as a log position. */
  request: { stream: number; topic: number; partition: number; offset: bigint };
  parkedRecord: number | null;
  unparkedRecord: number | null;
}

export interface SessionBudget {
  tokens: bigint | null;
  costMicros: bigint | null;
}

export interface SessionState {
  /** The conversation (Crockford). */
  conversation: string;
  label: string | null;
  namespace: string | null;
  agent: string | null;
  sdk: { language: string; version: string } | null;
  /** The envelope lineage of the session's records (the first that names one), Crockford. */
  parent: string | null;
  root: string | null;
  history: SessionStep[];
  /** The latest state up to the terminal one, or null without history. */
  state: string | null;
  /** The terminal state reached, or null while the session is open. */
  terminal: string | null;
  end: { reason: string | null; error: { code: number; name: string; message: string | null; retryable: boolean } | null; recordIndex: number } | null;
  /** The first SessionStart's budget, or null without one. */
  budget: SessionBudget | null;
  /** Usage summed over the session's records; `cost_micros` summed too. */
  usage: UsageTotals;
  costMicros: bigint;
  /** Input + output tokens (what the budget's token ceiling counts). */
  tokens: bigint;
  /** The record whose usage first passed the budget, and which ceiling. */
  overBudget: { recordIndex: number; dimension: 'tokens' | 'cost_micros'; ceiling: bigint; spent: bigint } | null;
  parked: ParkedWork[];
  records: number[];
  firstTime: bigint | null;
  lastTime: bigint | null;
}

export const SESSION_RULES = {
  transition: 'agdx/session/transition',
  afterEnd: 'agdx/session/after-end',
  neverUnparked: 'agdx/session/never-unparked',
  overBudget: 'agdx/session/over-budget',
} as const;
