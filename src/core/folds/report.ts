// report@1's `agents`, `runs` and `conversations` sections (docs/report.md, "Folds"): the fold as
// JSON. Times, ttl and token counts are strings of decimal digits (they may pass 2^53); record
// references are indices into the report's `records`.
import type { CapabilityData, ContentShape } from '../agdx/card';
import { StreamedArray } from '../report-json';
import type { AgentState, ConversationSummary, FoldResult, QuarantineFact, RunState, SessionState, UsageTotals } from './model';

const str = (v: bigint | null): string | null => (v === null ? null : v.toString());

export interface ReportUsage {
  input: string;
  output: string;
  reasoning: string;
  cache_read: string;
  cache_creation: string;
  cost_micros: string;
  records: number;
}

export interface ReportQuarantineFact {
  record: number;
  time: string | null;
  op: 'quarantine' | 'unquarantine';
  target: string | null;
  issuer: string;
  backing: QuarantineFact['backing'];
  signature: { status: string; trusted: boolean; signer: string | null; key_id: string | null; reason: string };
  applied: boolean;
  sentence: string;
}

export interface ReportCapability {
  skill_id: string;
  input: ContentShape | null;
  output: ContentShape | null;
  cost_class: number | null;
  latency_class: number | null;
  max_concurrency: number | null;
  health: number | null;
  health_name: string | null;
  load: number | null;
}

export interface ReportAgent {
  id: string;
  first_seen: { record: number; time: string | null };
  last_seen: { record: number; time: string | null };
  as_source: number[];
  as_target: number[];
  card: {
    record: number;
    time: string | null;
    name: string | null;
    version: string | null;
    ttl_micros: string | null;
    expires_at: string | null;
    capabilities: ReportCapability[];
  } | null;
  cards: number;
  card_problems: { record: number; message: string }[];
  alive: boolean | null;
  alive_reason: string;
  quarantined: boolean;
  /** The record of the fact that set the current quarantine state, or null. */
  quarantine_record: number | null;
  quarantine: ReportQuarantineFact[];
  usage: ReportUsage;
}

export interface ReportRun {
  id: string;
  records: number[];
  history: { state: string; code: number; final: boolean; terminal: boolean; time: string | null; record: number; source: string; after_terminal: boolean }[];
  state: string | null;
  terminal: string | null;
  terminal_record: number | null;
  after_terminal: number;
  conversations: string[];
  agents: string[];
  first_time: string | null;
  last_time: string | null;
}

export interface ReportConversation {
  id: string;
  records: number;
  agents: string[];
  records_by_kind: Record<string, number>;
  first_time: string | null;
  last_time: string | null;
  invalid: { count: number; records: number[] };
  badly_signed: { count: number; records: number[] };
  usage: Record<string, ReportUsage>;
  usage_total: ReportUsage;
  runs: string[];
}

type ReportPosition = { stream: number; topic: number; partition: number; offset: string };

export interface ReportSession {
  conversation: string;
  label: string | null;
  namespace: string | null;
  agent: string | null;
  sdk: { language: string; version: string } | null;
  parent: string | null;
  root: string | null;
  history: {
    state: string;
    code: number;
    record: number;
    time: string | null;
    body: 'start' | 'transition' | 'end' | null;
    disallowed: boolean;
    after_end: boolean;
  }[];
  state: string | null;
  terminal: string | null;
  end: { reason: string | null; error: { code: number; name: string; message: string | null; retryable: boolean } | null; record: number } | null;
  budget: { tokens: string | null; cost_micros: string | null } | null;
  usage: ReportUsage;
  tokens: string;
  over_budget: { record: number; dimension: 'tokens' | 'cost_micros'; ceiling: string; spent: string } | null;
  parked: {
    role: string;
    source: ReportPosition & { generation: string | null };
    source_record: number | null;
    request: ReportPosition;
    parked_record: number | null;
    unparked_record: number | null;
  }[];
  records: number[];
  first_time: string | null;
  last_time: string | null;
}

export interface ReportFolds {
  agents: ReportAgent[];
  runs: ReportRun[];
  conversations: ReportConversation[];
  sessions: ReportSession[];
}

export function reportUsage(u: UsageTotals): ReportUsage {
  return {
    input: u.input.toString(),
    output: u.output.toString(),
    reasoning: u.reasoning.toString(),
    cache_read: u.cache_read.toString(),
    cache_creation: u.cache_creation.toString(),
    cost_micros: u.cost_micros.toString(),
    records: u.records,
  };
}

function reportFact(f: QuarantineFact): ReportQuarantineFact {
  return {
    record: f.recordIndex,
    time: str(f.time),
    op: f.op,
    target: f.target,
    issuer: f.issuer,
    backing: f.backing,
    signature: { status: f.signature.status, trusted: f.signature.trusted, signer: f.signature.signer, key_id: f.signature.keyId, reason: f.signature.reason },
    applied: f.applied,
    sentence: f.sentence,
  };
}

const capability = (c: CapabilityData): ReportCapability => ({
  skill_id: c.skillId,
  input: c.input,
  output: c.output,
  cost_class: c.costClass,
  latency_class: c.latencyClass,
  max_concurrency: c.maxConcurrency,
  health: c.health,
  health_name: c.healthName,
  load: c.load,
});

/** A column's numbers as a list, copied by index: Array.from over a typed array takes its iterator, five times slower (a million records' lists). */
function numbers(column: Int32Array): number[] {
  const out = new Array<number>(column.length);
  for (let i = 0; i < column.length; i++) out[i] = column[i];
  return out;
}

function reportAgent(a: AgentState): ReportAgent {
  return {
    id: a.id,
    first_seen: { record: a.firstSeen.recordIndex, time: str(a.firstSeen.time) },
    last_seen: { record: a.lastSeen.recordIndex, time: str(a.lastSeen.time) },
    as_source: numbers(a.asSource),
    as_target: numbers(a.asTarget),
    card: a.card && {
      record: a.card.recordIndex,
      time: str(a.card.time),
      name: a.card.card.name,
      version: a.card.card.version,
      ttl_micros: str(a.card.card.ttlMicros),
      expires_at: str(a.card.expiresAt),
      capabilities: a.card.card.capabilities.map(capability),
    },
    cards: a.cardCount,
    card_problems: a.cardProblems.map((p) => ({ record: p.recordIndex, message: p.message })),
    alive: a.alive,
    alive_reason: a.aliveReason,
    quarantined: a.quarantined,
    quarantine_record: a.quarantineFact?.recordIndex ?? null,
    quarantine: a.quarantineFacts.map(reportFact),
    usage: reportUsage(a.usage),
  };
}

function reportRun(r: RunState): ReportRun {
  return {
    id: r.id,
    // The fold's lists, not copies: a fold is not changed once made.
    records: r.records,
    history: r.history.map((h) => ({
      state: h.state,
      code: h.code,
      final: h.final,
      terminal: h.terminal,
      time: str(h.time),
      record: h.recordIndex,
      source: h.source,
      after_terminal: h.afterTerminal,
    })),
    state: r.current,
    terminal: r.terminal,
    terminal_record: r.terminalRecordIndex,
    after_terminal: r.afterTerminal,
    conversations: [...r.conversations],
    agents: [...r.agents],
    first_time: str(r.firstTime),
    last_time: str(r.lastTime),
  };
}

function reportConversation(c: ConversationSummary): ReportConversation {
  return {
    id: c.id,
    records: c.records,
    agents: [...c.agents],
    records_by_kind: { ...c.recordsByKind },
    first_time: str(c.firstTime),
    last_time: str(c.lastTime),
    invalid: { count: c.invalid.count, records: c.invalid.records },
    badly_signed: { count: c.badlySigned.count, records: c.badlySigned.records },
    usage: Object.fromEntries([...c.usage].map(([k, u]) => [k, reportUsage(u)])),
    usage_total: reportUsage(c.usageTotal),
    runs: [...c.runs],
  };
}

const position = (p: { stream: number; topic: number; partition: number; offset: bigint }): ReportPosition => ({
  stream: p.stream,
  topic: p.topic,
  partition: p.partition,
  offset: p.offset.toString(),
});

function reportSession(s: SessionState): ReportSession {
  return {
    conversation: s.conversation,
    label: s.label,
    namespace: s.namespace,
    agent: s.agent,
    sdk: s.sdk && { ...s.sdk },
    parent: s.parent,
    root: s.root,
    history: s.history.map((h) => ({
      state: h.state,
      code: h.code,
      record: h.recordIndex,
      time: str(h.time),
      body: h.body,
      disallowed: h.disallowed,
      after_end: h.afterEnd,
    })),
    state: s.state,
    terminal: s.terminal,
    end: s.end && { reason: s.end.reason, error: s.end.error && { ...s.end.error }, record: s.end.recordIndex },
    budget: s.budget && { tokens: str(s.budget.tokens), cost_micros: str(s.budget.costMicros) },
    usage: reportUsage(s.usage),
    tokens: s.tokens.toString(),
    over_budget: s.overBudget && {
      record: s.overBudget.recordIndex,
      dimension: s.overBudget.dimension,
      ceiling: s.overBudget.ceiling.toString(),
      spent: s.overBudget.spent.toString(),
    },
    parked: s.parked.map((p) => ({
      role: p.role,
      source: { ...position(p.source), generation: str(p.source.generation) },
      source_record: p.sourceRecord,
      request: position(p.request),
      parked_record: p.parkedRecord,
      unparked_record: p.unparkedRecord,
    })),
    records: [...s.records],
    first_time: str(s.firstTime),
    last_time: str(s.lastTime),
  };
}

/** The fold's report@1 sections (JSON-safe: no bigints, no Maps), as lists: the streamed ones gathered. */
export function toReportFolds(result: FoldResult): ReportFolds {
  return gatheredFolds(streamedReportFolds(result));
}

/** Streamed fold sections as lists. */
export function gatheredFolds({ agents, runs, conversations, sessions }: StreamedReportFolds): ReportFolds {
  return { agents: [...agents.items], runs: [...runs.items], conversations: [...conversations.items], sessions: [...sessions.items] };
}

/**
 * The fold's report@1 sections, each element made as it is written (report-json.ts StreamedArray): a streamed
 * report holds the fold, not a second copy of it as report objects (its agents list each record
 * twice: 160 MB of arrays for ten million records; the tail's other report objects, with the
 * graph's, came to about 170 MB there).
 */
export function streamedReportFolds(result: FoldResult): StreamedReportFolds {
  return {
    agents: madeAsWritten(result.agents, reportAgent),
    runs: madeAsWritten(result.runs, reportRun),
    conversations: madeAsWritten(result.conversations, reportConversation),
    sessions: madeAsWritten(result.sessions, reportSession),
  };
}

export type StreamedReportFolds = { [K in keyof ReportFolds]: StreamedArray<ReportFolds[K][number]> };

function madeAsWritten<T, R>(list: readonly T[], make: (t: T) => R): StreamedArray<R> {
  return new StreamedArray({
    *[Symbol.iterator]() {
      for (const t of list) yield make(t);
    },
  });
}
