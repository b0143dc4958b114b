// The session fold: a 0.7-dialect conversation with `session` statuses folded into the session its
// agents lived (docs/report.md "Sessions"): who started it with which SDK and budget, its lineage,
// each state change in log order, how it ended, its usage and cost against the budget, and the work
// parked while it was paused with the records that unparked it. Its findings (agdx/session/*
// lifecycle rules) are on the records they concern. A reducer of its own over the prepared log,
// the same order and the same asOf as the other folds (fold.ts calls it).
import { ERROR_CODES, codeName } from '../agdx/dictionaries';
import { DIALECT_07, taskStateName } from '../agdx/dialects';
import type { Position, SessionParking } from '../agdx/shapes';
import type { EntrySequence, LocateField, LogEntry } from '../log/entry';
import { recordsByPosition } from '../log/positions';
import type { Finding } from '../verdict';
import { finding, type FindingRuleId } from '../rules';
import { SESSION_RULES, type FoldFinding, type ParkedWork, type SessionState, type SessionStep } from './model';
import { emptyUsage } from './usage';

const NONE = 0;
const SUBMITTED = 1;
const WORKING = 2;
const INPUT_REQUIRED = 3;
const COMPLETED = 4;
const CANCELED = 5;
const FAILED = 6;
const REJECTED = 7;
const AUTH_REQUIRED = 8;
const PAUSED = 10;

/**
 * The session lifecycle: the states a session may move to from each state (NONE: its first status).
 * A session starts submitted or working (a start without a submission); it works, may wait for input
 * or authorisation, pause and resume, and ends once in a terminal state. A repeated state is not a
 * change the lifecycle has (a resume is working after paused).
 */
export const SESSION_LIFECYCLE: ReadonlyMap<number, readonly number[]> = new Map([
  [NONE, [SUBMITTED, WORKING]],
  [SUBMITTED, [WORKING, CANCELED, FAILED, REJECTED]],
  [WORKING, [INPUT_REQUIRED, AUTH_REQUIRED, PAUSED, COMPLETED, CANCELED, FAILED]],
  [INPUT_REQUIRED, [WORKING, CANCELED, FAILED]],
  [AUTH_REQUIRED, [WORKING, CANCELED, FAILED]],
  [PAUSED, [WORKING, CANCELED, FAILED]],
]);

export function lifecycleAllows(from: number, to: number): boolean {
  return SESSION_LIFECYCLE.get(from)?.includes(to) ?? false;
}

const toBig = (v: number | bigint | undefined): bigint => (v === undefined ? 0n : BigInt(v));

interface Work {
  state: SessionState;
  /** The current state's code (NONE before the first status). */
  code: number;
  terminalAt: number | null;
  terminalText: string;
  parked: Map<string, ParkedWork>;
}

const positionText = (p: { stream: number; topic: number; partition: number; offset: bigint }) =>
  `stream ${p.stream}, topic ${p.topic}, partition ${p.partition}, offset ${p.offset}`;

function parkingKey(p: SessionParking): string {
  const s = p.source;
  return s.kind === 'message' ? `${p.role}\u0000${s.stream}:${s.topic}:${s.partition}:${s.offset}:${s.generation ?? ''}` : `${p.role}\u0000${s.kind}`;
}

const plainPosition = (p: Position) => ({ stream: p.stream, topic: p.topic, partition: p.partition, offset: p.offset });

/** The sessions of the first `limit` entries of `order` (the log in log order), and their findings. */
export function foldSessions(order: EntrySequence, limit: number, locate?: LocateField): { sessions: SessionState[]; findings: FoldFinding[] } {
  const findings: FoldFinding[] = [];
  // Which conversations are sessions: the ones with a session status (most logs have none: one look per record).
  const isSession = new Set<string>();
  for (let p = 0; p < limit; p++) {
    const e = order.at(p)!;
    if (e.session?.kind === 'status' && e.parent === null) isSession.add(e.conversation);
  }
  if (isSession.size === 0) return { sessions: [], findings };

  const push = (e: LogEntry, rule: FindingRuleId, path: string, message: string) => {
    const f: Finding = finding(rule, path, message, locate?.(e.record, path) ?? null);
    findings.push({ recordIndex: e.record, finding: f });
  };
  const recordAt = recordsByPosition(order);

  const works = new Map<string, Work>();
  const budgetUsage = new Map<string, { tokens: bigint; cost: bigint }>();
  for (let p = 0; p < limit; p++) {
    const e = order.at(p)!;
    if (!isSession.has(e.conversation)) continue;
    let w = works.get(e.conversation);
    if (!w) {
      w = {
        state: {
          conversation: e.conversation,
          label: null,
          namespace: null,
          agent: null,
          sdk: null,
          parent: null,
          root: null,
          history: [],
          state: null,
          terminal: null,
          end: null,
          budget: null,
          usage: emptyUsage(),
          costMicros: 0n,
          tokens: 0n,
          overBudget: null,
          parked: [],
          records: [],
          firstTime: null,
          lastTime: null,
        },
        code: NONE,
        terminalAt: null,
        terminalText: '',
        parked: new Map(),
      };
      works.set(e.conversation, w);
      budgetUsage.set(e.conversation, { tokens: 0n, cost: 0n });
    }
    const s = w.state;
    const time = e.time;
    s.records.push(e.record);
    if (time !== null) {
      if (s.firstTime === null || time < s.firstTime) s.firstTime = time;
      if (s.lastTime === null || time > s.lastTime) s.lastTime = time;
    }
    if (s.parent === null && e.parentConversation !== null) {
      s.parent = e.parentConversation;
      s.root = e.rootConversation;
    }
    // A dead letter's payload was never delivered: listed, but it changes nothing.
    if (e.parent !== null) continue;

    if (w.terminalAt !== null) {
      push(
        e,
        SESSION_RULES.afterEnd,
        'conversation',
        `this ${e.kind}${e.operation ? ` (${e.operation})` : ''} comes after ${w.terminalText}; an ended session has no more records`,
      );
    }

    if (e.usage) {
      const u = e.usage;
      const t = s.usage;
      t.input += toBig(u.input_tokens);
      t.output += toBig(u.output_tokens);
      t.reasoning += toBig(u.reasoning_output_tokens);
      t.cache_read += toBig(u.cache_read_input_tokens);
      t.cache_creation += toBig(u.cache_creation_input_tokens);
      t.records++;
      t.cost_micros += toBig(u.cost_micros);
      s.costMicros = t.cost_micros;
      s.tokens = t.input + t.output;
    }

    const note = e.session;
    if (note?.kind === 'status' && e.taskState !== null) {
      const code = e.taskState;
      const state = taskStateName(code, DIALECT_07);
      const body = note.body;
      const afterEnd = w.terminalAt !== null;
      const disallowed = !afterEnd && !lifecycleAllows(w.code, code);
      const step: SessionStep = { code, state, recordIndex: e.record, time, body: body?.shape ?? null, disallowed, afterEnd };
      s.history.push(step);
      if (disallowed) {
        const from = w.code === NONE ? 'no state (a session starts submitted or working)' : taskStateName(w.code, DIALECT_07);
        const allowed = (SESSION_LIFECYCLE.get(w.code) ?? []).map((c) => taskStateName(c, DIALECT_07)).join(', ');
        push(e, SESSION_RULES.transition, 'task_state', `session state ${state} after ${from}: the lifecycle allows only ${allowed} from there`);
      }
      if (body?.shape === 'start' && s.agent === null) {
        const v = body.value;
        s.agent = v.agent;
        s.sdk = { ...v.sdk };
        s.label = v.label ?? null;
        s.namespace = v.namespace ?? null;
        if (v.budget) s.budget = { tokens: v.budget.tokens ?? null, costMicros: v.budget.cost_micros ?? null };
      }
      if (!afterEnd) {
        w.code = code;
        s.state = state;
        if (DIALECT_07.terminal.has(code)) {
          s.terminal = state;
          w.terminalAt = e.record;
          w.terminalText = `the session's end (${state}, record ${e.record})`;
          const end = body?.shape === 'end' ? body.value : null;
          s.end = {
            reason: end?.reason ?? null,
            error: end?.error
              ? { code: end.error.code, name: codeName(ERROR_CODES, end.error.code), message: end.error.message ?? null, retryable: end.error.retryable }
              : null,
            recordIndex: e.record,
          };
        }
      }
    }

    if (note?.kind === 'parking' && note.parking) {
      const pk = note.parking;
      const key = parkingKey(pk);
      const src = pk.source;
      if (src.kind === 'message') {
        let work = w.parked.get(key);
        if (!work || (note.op === 'parked' && work.parkedRecord !== null)) {
          const source = { stream: src.stream, topic: src.topic, partition: src.partition, offset: src.offset, generation: src.generation ?? null };
          work = { role: pk.role, source, sourceRecord: recordAt(source), request: plainPosition(pk.request), parkedRecord: null, unparkedRecord: null };
          w.parked.set(key, work);
          s.parked.push(work);
        }
        if (note.op === 'parked') work.parkedRecord = e.record;
        else if (work.unparkedRecord === null) work.unparkedRecord = e.record;
      }
    }

    // The budget of the first start against the usage so far: the token ceiling first, then cost.
    const b = s.budget;
    if (b && s.overBudget === null) {
      const breach =
        b.tokens !== null && s.tokens > b.tokens
          ? { dimension: 'tokens' as const, ceiling: b.tokens, spent: s.tokens }
          : b.costMicros !== null && s.costMicros > b.costMicros
            ? { dimension: 'cost_micros' as const, ceiling: b.costMicros, spent: s.costMicros }
            : null;
      if (breach) {
        s.overBudget = { recordIndex: e.record, ...breach };
        push(
          e,
          SESSION_RULES.overBudget,
          e.usage ? 'usage' : 'body',
          breach.dimension === 'tokens'
            ? `the session's input and output tokens reach ${breach.spent} at this record, past its budget of ${breach.ceiling} tokens`
            : `the session's cost reaches ${breach.spent} micro-units at this record, past its budget of ${breach.ceiling}`,
        );
      }
    }
  }

  const byRecord = new Map<number, LogEntry>();
  for (const w of works.values()) {
    for (const pw of w.state.parked) {
      if (pw.parkedRecord === null || pw.unparkedRecord !== null) continue;
      if (byRecord.size === 0)
        for (let p = 0; p < limit; p++) {
          const at = order.at(p)!;
          byRecord.set(at.record, at);
        }
      const e = byRecord.get(pw.parkedRecord)!;
      const ended = w.state.terminal ? `; the session ended ${w.state.terminal} at record ${w.terminalAt} with it still parked` : '';
      push(
        e,
        SESSION_RULES.neverUnparked,
        'body.source',
        `the ${pw.role} record parked at ${positionText(pw.source)} is never unparked in this log${ended}: the work it holds was not handled after the resume`,
      );
    }
  }
  return { sessions: [...works.values()].map((w) => w.state), findings };
}
