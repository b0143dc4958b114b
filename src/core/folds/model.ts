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
  /** Records with this agent as source / as target, in log order. */
  asSource: number[];
  asTarget: number[];
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
  records: number[];
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
  /** A position in `order`: fold only records up to and including it. Below 0 folds nothing. */
  asOf?: number;
}

export interface FoldResult {
  /** Indices of every record with an envelope, in log order (all of them, whatever asOf). */
  order: number[];
  /** How many positions of `order` were folded. */
  folded: number;
  agents: AgentState[];
  quarantine: QuarantineFact[];
  runs: RunState[];
  conversations: ConversationSummary[];
  findings: FoldFinding[];
  /** Records whose metadata bridge_hops repeats a bridge id (a routing loop). */
  bridgeLoops: number;
  bridgeLoopRecords: number[];
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
