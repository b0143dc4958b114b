// Folds the log into the state AGDX consumers keep (agent registry, quarantine, run registry) and
// per-conversation summaries, in log order, optionally only up to a position (the time slider).
// Pure and deterministic: it reads the log's entries (log/entry.ts), never a record; findings are returned, not applied.
import { TASK_STATES, TERMINAL_TASK_STATES, codeName } from '../agdx/dictionaries';
import type { EntrySequence, LocateField, LogEntry, LogFacts } from '../log/entry';
import { Column } from '../log/grow';
import { finding, type FindingRuleId } from '../rules';
import {
  FOLD_RULES,
  type AgentState,
  type ConversationSummary,
  type FoldFinding,
  type FoldOptions,
  type FoldResult,
  type QuarantineBacking,
  type QuarantineFact,
  type RunState,
} from './model';
import type { Finding } from '../verdict';
import { isoFromMicros } from '../time';
import { foldSessions } from './sessions';
import { emptyUsage, UsageSum } from './usage';

/** What a fold needs of the log that does not depend on asOf: computed once per log (and per key change). */
export interface PreparedLog {
  readonly facts: LogFacts;
  /** The entries in log order (LogEntry.sortKey: log time, then input, then position), each made when read. */
  readonly order: EntrySequence;
  /** Where a finding's field is in its record's bytes. */
  readonly locate: LocateField | undefined;
}

export function prepareFold(facts: LogFacts, locate?: LocateField): PreparedLog {
  // Each entry knows its place in that order (LogEntry.logOrder): no sort, no sortKey strings.
  return { facts, order: facts.inLogOrder(), locate };
}

/** The records with an envelope, in log order (the positions `asOf` counts): what the Folds panel's slider reads. */
export function logOrderRecords(prepared: PreparedLog): number[] {
  return Array.from(prepared.order, (e) => e.record);
}

/** Folds the log in log order (see FoldResult). `asOf` is a position in that order. */
export function foldLog(facts: LogFacts, options: FoldOptions = {}): FoldResult {
  return foldPrepared(prepareFold(facts), options);
}

/** A time as people read it: ISO 8601 (when in range) and the µs it came from. */
export function describeTime(t: bigint | null): string {
  const iso = t === null ? null : isoFromMicros(t);
  return t === null ? 'an unknown time' : iso !== null ? `${iso} (${t} µs)` : `${t} µs`;
}

function backingOf(e: LogEntry): QuarantineBacking {
  const s = e.signature;
  switch (s.status) {
    case 'unsigned':
      return 'unsigned';
    case 'valid':
      return s.trusted ? 'operator-signed' : 'non-operator-signed';
    case 'invalid':
    case 'malformed':
      return 'invalid-signature';
    default:
      return 'unverified';
  }
}

function backingSentence(backing: QuarantineBacking, reason: string): string {
  switch (backing) {
    case 'operator-signed':
      return `signed by a trusted operator key (${reason})`;
    case 'unsigned':
      return "unsigned: it rests on the registry topic's write access, which the inspector cannot see";
    case 'non-operator-signed':
      return `signed, but not by a key trusted as an operator's (${reason}); only an operator key may sign a quarantine or unquarantine, so it is flagged ${FOLD_RULES.unauthorised}. It still takes effect: a consumer applies what the topic holds`;
    case 'invalid-signature':
      return `its signature does not check out (${reason}), so it is flagged ${FOLD_RULES.unauthorised}. It still takes effect: a consumer applies what the topic holds`;
    case 'unverified':
      return `signed, but the signature could not be checked (${reason}): as for an unsigned fact, it rests on the registry topic's write access`;
  }
}

/**
 * Who a quarantine fact is by: its source, or, when a valid signature names another signer (an
 * operator key of "ops" under a source that claims "planner"), both: `"ops", claimed as "planner"`.
 */
function issuerWords(issuer: string, signature: { status: string; signer: string | null }): string {
  const signer = signature.status === 'valid' ? signature.signer : null;
  return signer !== null && signer !== issuer ? `${JSON.stringify(signer)}, claimed as ${JSON.stringify(issuer)}` : JSON.stringify(issuer);
}

function describeFact(f: QuarantineFact): string {
  return `the ${f.op} of ${JSON.stringify(f.target)} by ${issuerWords(f.issuer, f.signature)} at record ${f.recordIndex} (${describeTime(f.time)}; ${f.backing})`;
}

function foldFinding(prepared: PreparedLog, e: LogEntry, rule: FindingRuleId, severity: Finding['severity'], path: string, message: string): FoldFinding {
  return { recordIndex: e.record, finding: finding(rule, path, message, prepared.locate?.(e.record, path) ?? null, severity) };
}

/** An agent while folding: its state, plus what its findings quote (built once, not per record). */
interface AgentWork {
  state: AgentState;
  /** The state's record lists while folding (kept whole by `done`). */
  asSource: Column<Int32Array>;
  asTarget: Column<Int32Array>;
  usage: UsageSum;
  /** describeFact of the fact that set the current quarantine state. */
  factText: string;
  /** The latest card in words, for agdx/fold/dead. */
  cardText: string;
}

interface RunWork {
  state: RunState;
  conversations: Set<string>;
  agents: Set<string>;
  terminalText: string;
}

interface ConversationWork {
  state: ConversationSummary;
  agents: Set<string>;
  runs: Set<string>;
  usage: Map<string, UsageSum>;
  total: UsageSum;
}

const NO_RECORDS = new Int32Array(0);
/** An agent's records, 4 bytes each, grown by copying (a log may have many agents, each its own list). */
const recordList = () => new Column((n) => new Int32Array(n), { maxBytes: 0, initial: 8 });

const later = (a: bigint | null, b: bigint | null): bigint | null => (a === null ? b : b === null ? a : b > a ? b : a);
const earlier = (a: bigint | null, b: bigint | null): bigint | null => (a === null ? b : b === null ? a : b < a ? b : a);

/** Folds a prepared log, up to `asOf` (a position in `prepared.order`) when given. */
export function foldPrepared(prepared: PreparedLog, options: FoldOptions = {}): FoldResult {
  const { order } = prepared;
  let limit = order.length;
  if (options.asOf !== undefined) {
    if (!Number.isInteger(options.asOf)) throw new RangeError(`asOf must be an integer position, got ${options.asOf}`);
    limit = Math.max(0, Math.min(order.length, options.asOf + 1));
  }

  const agents = new Map<string, AgentWork>();
  const quarantine: QuarantineFact[] = [];
  const runs = new Map<string, RunWork>();
  const conversations = new Map<string, ConversationWork>();
  const findings: FoldFinding[] = [];
  const bridgeLoopRecords: number[] = [];
  const timeCounts = { log: 0, ulid: 0, none: 0 };
  let now: bigint | null = null;

  const agent = (id: string, i: number, time: bigint | null): AgentWork => {
    let a = agents.get(id);
    if (!a) {
      a = {
        state: {
          id,
          firstSeen: { recordIndex: i, time },
          lastSeen: { recordIndex: i, time },
          asSource: NO_RECORDS,
          asTarget: NO_RECORDS,
          card: null,
          cardCount: 0,
          cardProblems: [],
          ttlMicros: null,
          alive: null,
          aliveReason: '',
          quarantined: false,
          quarantineFact: null,
          quarantineFacts: [],
          usage: emptyUsage(),
        },
        asSource: recordList(),
        asTarget: recordList(),
        usage: new UsageSum(),
        factText: '',
        cardText: '',
      };
      agents.set(id, a);
    } else {
      a.state.lastSeen.recordIndex = i;
      a.state.lastSeen.time = time;
    }
    return a;
  };

  for (let p = 0; p < limit; p++) {
    const e = order.at(p)!;
    const i = e.record;
    const time = e.time;
    timeCounts[e.timeSource ?? 'none']++;
    now = later(now, time);
    // A dead letter's payload was never delivered: it is shown and counted, but changes no state.
    const delivered = e.parent === null;

    const srcWork = agent(e.source, i, time);
    const src = srcWork.state;
    srcWork.asSource.push(i);
    if (e.target !== null) agent(e.target, i, time).asTarget.push(i);

    // A card refreshes its agent before the liveness check: a card from an expired agent revives it.
    if (e.card) {
      src.cardCount++;
      const d = e.card;
      if (!d.ok) src.cardProblems.push({ recordIndex: i, message: d.error });
      else if (delivered) {
        const ttl = d.card.ttlMicros;
        const expiresAt = ttl !== null && time !== null ? time + ttl : null;
        src.card = { card: d.card, recordIndex: i, time, expiresAt };
        src.ttlMicros = ttl;
        srcWork.cardText =
          expiresAt === null ? '' : `its latest card (record ${i}, ${describeTime(time)}) has ttl_micros ${ttl} and expired at ${describeTime(expiresAt)}`;
      }
    }

    // The source's state at this record's place in the log, before the record's own effect.
    if (src.quarantined) {
      findings.push(
        foldFinding(
          prepared,
          e,
          FOLD_RULES.quarantined,
          'warning',
          'source',
          `the source ${JSON.stringify(e.source)} was quarantined at this record: ${srcWork.factText} had not been lifted`,
        ),
      );
    }
    const card = src.card;
    if (card && card.expiresAt !== null && time !== null && time > card.expiresAt) {
      findings.push(
        foldFinding(
          prepared,
          e,
          FOLD_RULES.dead,
          'warning',
          'source',
          `the source ${JSON.stringify(e.source)} was dead at this record's time ${describeTime(time)}: ${srcWork.cardText}`,
        ),
      );
    }

    if (e.kind === 'status' && (e.operation === 'quarantine' || e.operation === 'unquarantine')) {
      const op = e.operation;
      const target = e.quarantineTarget;
      const backing = backingOf(e);
      const applied = delivered && target !== null;
      const what = `${op === 'quarantine' ? 'Quarantine' : 'Unquarantine'} of ${target === null ? '(no agent: the body is empty or not UTF-8)' : JSON.stringify(target)} by ${issuerWords(e.source, e.signature)}`;
      const effect = !delivered
        ? " It is a dead letter's payload, never delivered, so it changes nothing."
        : target === null
          ? ' It names no agent, so it changes nothing.'
          : '';
      const fact: QuarantineFact = {
        recordIndex: i,
        time,
        op,
        target,
        issuer: e.source,
        backing,
        signature: {
          status: e.signature.status,
          trusted: e.signature.trusted,
          signer: e.signature.signer,
          keyId: e.signature.key_id,
          reason: e.signature.reason,
        },
        applied,
        sentence: `${what}: ${backingSentence(backing, e.signature.reason)}.${effect}`,
      };
      quarantine.push(fact);
      if (backing === 'non-operator-signed' || backing === 'invalid-signature') {
        findings.push(
          foldFinding(
            prepared,
            e,
            FOLD_RULES.unauthorised,
            'error',
            'signature',
            `only an operator key may sign a ${op}; ${backing === 'invalid-signature' ? 'this signature does not check out' : "this one verifies but is not trusted as an operator's"}: ${e.signature.reason}`,
          ),
        );
      }
      if (target !== null) {
        const t = agent(target, i, time);
        t.state.quarantineFacts.push(fact);
        if (applied) {
          t.state.quarantined = op === 'quarantine';
          t.state.quarantineFact = fact;
          t.factText = describeFact(fact);
        }
      }
    }

    const run = e.run;
    if (run !== null) {
      let w = runs.get(run);
      if (!w) {
        w = {
          state: {
            id: run,
            records: [],
            history: [],
            current: null,
            terminal: null,
            terminalRecordIndex: null,
            afterTerminal: 0,
            conversations: [],
            agents: [],
            firstTime: null,
            lastTime: null,
          },
          conversations: new Set(),
          agents: new Set(),
          terminalText: '',
        };
        runs.set(run, w);
      }
      const s = w.state;
      s.records.push(i);
      w.conversations.add(e.conversation);
      w.agents.add(e.source);
      s.firstTime = earlier(s.firstTime, time);
      s.lastTime = later(s.lastTime, time);
      if (e.kind === 'status' && e.taskState !== null && delivered) {
        const code = e.taskState;
        const state = codeName(TASK_STATES, code);
        const terminal = TERMINAL_TASK_STATES.has(code);
        const afterTerminal = s.terminal !== null;
        s.history.push({ code, state, final: e.last, terminal, time, recordIndex: i, source: e.source, afterTerminal });
        if (afterTerminal) {
          s.afterTerminal++;
          findings.push(
            foldFinding(
              prepared,
              e,
              FOLD_RULES.afterTerminal,
              'warning',
              'task_state',
              `task state ${state} after ${w.terminalText}; a terminal state is final`,
            ),
          );
        } else {
          s.current = state;
          if (terminal) {
            s.terminal = state;
            s.terminalRecordIndex = i;
            w.terminalText = `run ${JSON.stringify(run)} reached its terminal state ${state} at record ${i}`;
          }
        }
      }
    }

    let c = conversations.get(e.conversation);
    if (!c) {
      c = {
        state: {
          id: e.conversation,
          records: 0,
          agents: [],
          recordsByKind: {},
          firstTime: null,
          lastTime: null,
          invalid: { count: 0, records: [] },
          badlySigned: { count: 0, records: [] },
          usage: new Map(),
          usageTotal: emptyUsage(),
          runs: [],
        },
        agents: new Set(),
        runs: new Set(),
        usage: new Map(),
        total: new UsageSum(),
      };
      conversations.set(e.conversation, c);
    }
    const cs = c.state;
    cs.records++;
    c.agents.add(e.source);
    if (e.target !== null) c.agents.add(e.target);
    cs.recordsByKind[e.kind] = (cs.recordsByKind[e.kind] ?? 0) + 1;
    cs.firstTime = earlier(cs.firstTime, time);
    cs.lastTime = later(cs.lastTime, time);
    if (e.invalid) {
      cs.invalid.count++;
      cs.invalid.records.push(i);
    }
    if (e.signature.status === 'invalid' || e.signature.status === 'malformed') {
      cs.badlySigned.count++;
      cs.badlySigned.records.push(i);
    }
    if (run !== null) c.runs.add(run);

    if (e.usage) {
      srcWork.usage.add(e.usage);
      let u = c.usage.get(e.source);
      if (!u) c.usage.set(e.source, (u = new UsageSum()));
      u.add(e.usage);
      c.total.add(e.usage);
    }

    if (e.bridgeLoop !== null) bridgeLoopRecords.push(i);
  }

  const agentStates = [...agents.values()].map((a) => {
    a.state.asSource = a.asSource.done();
    a.state.asTarget = a.asTarget.done();
    a.state.usage = a.usage.totals();
    liveness(a.state, now);
    return a.state;
  });

  const asOf =
    options.asOf === undefined
      ? null
      : limit === 0
        ? { position: -1, recordIndex: -1, time: null }
        : { position: limit - 1, recordIndex: order.at(limit - 1)!.record, time: order.at(limit - 1)!.time };

  const sessions = foldSessions(order, limit, prepared.locate);
  for (const f of sessions.findings) findings.push(f);

  return {
    folded: limit,
    agents: agentStates,
    quarantine,
    runs: [...runs.values()].map((w) => ({ ...w.state, conversations: [...w.conversations], agents: [...w.agents] })),
    conversations: [...conversations.values()].map((w) => ({
      ...w.state,
      agents: [...w.agents].sort(),
      runs: [...w.runs],
      usage: new Map([...w.usage].map(([k, u]) => [k, u.totals()])),
      usageTotal: w.total.totals(),
    })),
    sessions: sessions.sessions,
    findings,
    bridgeLoops: bridgeLoopRecords.length,
    bridgeLoopRecords,
    now,
    times: timeCounts,
    asOf,
  };
}

/** Liveness at the fold's clock: a card older than its ttl_micros means the agent is dead. */
function liveness(a: AgentState, now: bigint | null): void {
  const c = a.card;
  if (!c) {
    a.alive = null;
    a.aliveReason = a.cardProblems.length
      ? `no card of this agent decoded (${a.cardProblems.length} card record${a.cardProblems.length === 1 ? '' : 's'} did not): liveness is unknown`
      : 'no card from this agent in the log: liveness is unknown';
    return;
  }
  const from = `its latest card (record ${c.recordIndex}, ${describeTime(c.time)})`;
  if (c.card.ttlMicros === null) {
    a.alive = true;
    a.aliveReason = `${from} has no ttl_micros, so it does not expire`;
    return;
  }
  if (c.expiresAt === null || now === null) {
    a.alive = null;
    a.aliveReason = `${from} has ttl_micros ${c.card.ttlMicros}, but the card record has no time (no log time, no ULID record id): liveness cannot be decided without a time`;
    return;
  }
  a.alive = now <= c.expiresAt;
  a.aliveReason = a.alive
    ? `${from} is valid until ${describeTime(c.expiresAt)}; the log's time is ${describeTime(now)}`
    : `dead: ${from} has ttl_micros ${c.card.ttlMicros} and expired at ${describeTime(c.expiresAt)}, before the log's time ${describeTime(now)}`;
}
