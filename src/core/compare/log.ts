// Two logs compared (two conversations, or two inputs: yesterday's run and today's): records
// matched by correlation and kind (and by sequence within a chunk stream), first by the same ids,
// then, for what is left (two runs have ids of their own), by their order: the n-th exchange's
// command with the n-th exchange's command, its answers with its answers, the n-th event with the
// n-th event. For each pair: what changed in its fields (ids apart), its verdicts and, for a
// command, its latency (command to first answer); and what is only on one side.
import { toHex } from '../bytes';
import { agdxRecordTime } from '../time';
import type { LogComparison, LogPair, LogRecordSide } from './model';
import { recordValues, verdictDiff, type CompareSide } from './records';
import { placeBOnly } from './interleave';
import { diffValues } from './structure';

/** Pairs listed; every pair is compared and counted, those past it are not listed. */
export const MAX_LOG_PAIRS = 5_000;
/** Changed fields named per pair (the count says how many in all). */
const FIELDS_NAMED = 6;

export interface LogSide {
  /** An input's name, or a conversation id. */
  label: string;
  records: readonly CompareSide[];
}

/** What a record is to the matching: its keys by ids and by order, its role in words. */
interface Placed {
  side: CompareSide;
  kind: string;
  exact: string | null;
  order: string;
  role: string;
  latency: number | null;
}

const ANSWERS = new Set(['response', 'error']);

function place(records: readonly CompareSide[]): Placed[] {
  const exchanges = new Map<string, number>();
  const streams = new Map<string, number>();
  const counts = new Map<string, number>();
  const next = (key: string) => {
    const n = counts.get(key) ?? 0;
    counts.set(key, n + 1);
    return n;
  };
  // Command → first answer, by correlation: the latency, in µs, where both times are known.
  const command = new Map<string, { side: CompareSide; time: bigint | null }>();
  const latencyOf = new Map<string, number>();
  for (const s of records) {
    const env = s.record.data.envelope;
    if (!env?.correlation) continue;
    const c = toHex(env.correlation);
    const t = agdxRecordTime(s.record.verdict.logTimeMicros, env.record)?.micros ?? null;
    if (env.kind === 'command' && !command.has(c)) command.set(c, { side: s, time: t });
    else if (ANSWERS.has(env.kind) && command.has(c) && !latencyOf.has(c)) {
      const from = command.get(c)!.time;
      // Times as recorded: an answer logged before its command gives a negative latency, shown as it is.
      latencyOf.set(c, from !== null && t !== null ? Number(t - from) : Number.NaN);
    }
  }
  const latency = (s: CompareSide, corr: string | null): number | null => {
    if (corr === null || command.get(corr)?.side !== s) return null;
    const l = latencyOf.get(corr);
    return l === undefined || Number.isNaN(l) ? null : l;
  };
  return records.map((s) => {
    const v = s.record.verdict;
    const env = s.record.data.envelope;
    const kind = v.kind ?? v.format;
    if (!env) {
      // AgentDNA and anything else: by its id (a workflow's tip hash, a card's id), then in order.
      const base = `${v.format}|${kind}`;
      const n = next(base);
      return {
        side: s,
        kind,
        exact: v.id ? `${base}|${v.id}|${next(`${base}|${v.id}`)}` : null,
        order: `${base}|${n}`,
        role: `${kind} ${n + 1}`,
        latency: null,
      };
    }
    const op = env.kind === 'status' ? `:${env.operation ?? ''}` : '';
    const corr = env.correlation ? toHex(env.correlation) : null;
    const chan = env.channel ? toHex(env.channel) : null;
    const seq = env.sequence !== undefined ? String(env.sequence) : null;
    if (corr !== null && !exchanges.has(corr)) exchanges.set(corr, exchanges.size);
    if (chan !== null && !streams.has(chan)) streams.set(chan, streams.size);
    const exchange = corr !== null ? exchanges.get(corr)! : null;
    const stream = chan !== null ? streams.get(chan)! : null;
    const exactBase = `${kind}${op}|c:${corr ?? '-'}|s:${chan ?? '-'}:${seq ?? '-'}`;
    const orderBase = `${kind}${op}|c#${exchange ?? '-'}|s#${stream ?? '-'}:${seq ?? '-'}`;
    const n = next(orderBase);
    const label = `${kind}${op ? ` ${env.operation ?? ''}` : ''}`;
    const role =
      stream !== null
        ? `${label} ${seq ?? '?'} of stream ${stream + 1}`
        : exchange !== null
          ? `${label} of exchange ${exchange + 1}${n ? ` (${n + 1})` : ''}`
          : `${label} ${n + 1}`;
    return {
      side: s,
      kind,
      exact: corr !== null || chan !== null ? `${exactBase}|${next(exactBase)}` : null,
      order: `${orderBase}|${n}`,
      role,
      latency: latency(s, corr),
    };
  });
}

function sideOf(p: Placed): LogRecordSide {
  const v = p.side.record.verdict;
  return {
    key: p.side.key,
    index: v.index,
    inputName: p.side.inputName,
    kind: p.kind,
    id: v.id,
    summary: v.summary,
    valid: p.side.valid,
    signature: v.signature.status,
    trusted: v.signature.trusted,
    latencyMicros: p.latency,
  };
}

/** Paths that name ids or signature bytes: they differ between two runs by design. */
const ID_PARTS = new Set(['record', 'conversation', 'cause', 'cause_at', 'correlation', 'channel', 'signature', 'hash', 'id']);
const isIdPath = (path: string) => path.split(/[.[\]]/).some((part) => ID_PARTS.has(part));

/** Two logs compared record by record. */
export function compareLogs(scope: LogComparison['scope'], a: LogSide, b: LogSide, { maxPairs = MAX_LOG_PAIRS }: { maxPairs?: number } = {}): LogComparison {
  if (!a || !b || !Array.isArray(a.records) || !Array.isArray(b.records)) throw new TypeError('compareLogs: two sides with records');
  const pa = place(a.records);
  const pb = place(b.records);
  const partner = new Array<number>(pa.length).fill(-1);
  const how = new Array<'correlation' | 'order' | null>(pa.length).fill(null);
  const taken = new Set<number>();
  const match = (key: (p: Placed) => string | null, by: 'correlation' | 'order') => {
    const index = new Map<string, number>();
    pb.forEach((p, j) => {
      const k = key(p);
      if (k !== null && !taken.has(j) && !index.has(k)) index.set(k, j);
    });
    pa.forEach((p, i) => {
      if (partner[i] >= 0) return;
      const k = key(p);
      const j = k === null ? undefined : index.get(k);
      if (j === undefined || taken.has(j)) return;
      partner[i] = j;
      how[i] = by;
      taken.add(j);
    });
  };
  match((p) => p.exact, 'correlation');
  match((p) => p.order, 'order');

  const pairs: LogPair[] = [];
  const counts = { same: 0, changed: 0, onlyA: 0, onlyB: 0 };
  let omitted = 0;
  const emit = (pair: LogPair) => {
    if (pairs.length < maxPairs) pairs.push(pair);
    else omitted++;
  };
  // B's own records go after the pair holding the B record before them.
  const { lead, after } = placeBOnly(partner, pb.length);
  const onlyB = (j: number) => {
    counts.onlyB++;
    emit({ a: null, b: sideOf(pb[j]), status: 'added', matchedBy: null, role: pb[j].role, fields: [], ids: [], changes: 0, verdicts: [], latency: null });
  };
  lead.forEach(onlyB);
  pa.forEach((p, i) => {
    const j = partner[i];
    if (j < 0) {
      counts.onlyA++;
      emit({ a: sideOf(p), b: null, status: 'removed', matchedBy: null, role: p.role, fields: [], ids: [], changes: 0, verdicts: [], latency: null });
    } else {
      const q = pb[j];
      const values = recordValues(p.side.record, q.side.record, { unknownFields: false });
      const d = diffValues(values.a, values.b, { maxRows: 0 });
      const fields: string[] = [];
      const ids: string[] = [];
      for (const c of d.changes) (isIdPath(c.path) ? ids : fields).push(c.path);
      const verdicts = verdictDiff(p.side, q.side).changes;
      const command = p.kind === 'command' || q.kind === 'command';
      const latency = command ? { a: p.latency, b: q.latency } : null;
      const changed = fields.length > 0 || verdicts.length > 0 || (latency !== null && latency.a !== latency.b);
      if (changed) counts.changed++;
      else counts.same++;
      emit({
        a: sideOf(p),
        b: sideOf(q),
        status: changed ? 'changed' : 'same',
        matchedBy: how[i],
        role: p.role,
        fields: fields.length > FIELDS_NAMED ? [...fields.slice(0, FIELDS_NAMED), `… ${fields.length - FIELDS_NAMED} more`] : fields,
        ids: ids.length > FIELDS_NAMED ? [...ids.slice(0, FIELDS_NAMED), `… ${ids.length - FIELDS_NAMED} more`] : ids,
        changes: d.changes.length,
        verdicts,
        latency,
      });
    }
    after.get(i)?.forEach(onlyB);
  });
  return { type: 'logs', scope, a: { label: a.label, records: a.records.length }, b: { label: b.label, records: b.records.length }, pairs, counts, omitted };
}
