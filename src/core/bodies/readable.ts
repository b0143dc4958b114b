// The bodies with shapes of their own (agdx/shapes.ts) as a person reads them in a record's detail:
// a session body's fields as labelled values, a StateDelta's operations and the state they make
// from the conversation's last snapshot, a StateSnapshot's document as a tree, a context event's
// fragments with their token counts. Every pointer into the log (a parked record, an acknowledged
// control record, a fragment's message) is resolved to the record at that position when the load
// has it. Built on demand for the record opened, from the log's entries and the records' envelopes;
// a body that is not its shape has no readable form (its body view and findings say why).
import { bodyShapeOf, dialectById, taskStateName, type Dialect } from '../agdx/dialects';
import { ERROR_CODES, codeName } from '../agdx/dictionaries';
import type { Envelope } from '../agdx/envelope';
import {
  bodyItem,
  readContextCompaction,
  readContextManifest,
  readContextRetrieval,
  readSessionBody,
  readSessionParking,
  readStateDelta,
  readStateSnapshot,
  ShapeError,
  type Fragment,
  type Json,
  type Position,
  type SourceRef,
  type StateDelta,
  type StateSnapshot,
} from '../agdx/shapes';
import { formatId } from '../agdx/tree';
import type { LogEntry } from '../log/entry';
import type { RecordAtPosition } from '../log/positions';
import type { FieldNode } from '../model';
import type { InspectedRecord } from '../records';
import { plural } from '../plural';
import { applyPatch } from './json-patch';

/** A record a body points at, as the detail links to it. */
export interface PointedRecord {
  record: number;
  label: string;
}

/** One labelled value of a body. `points`: the record the value points at (null: not in this load); absent when the value is no pointer. */
export interface BodyField {
  label: string;
  value: string;
  points?: PointedRecord | null;
}

/** One RFC 6902 operation as listed: `value` as JSON text. */
export interface PatchOperationView {
  op: string;
  path: string;
  from?: string;
  value?: string;
}

/** A delta applied on the way from the snapshot to this one (this one last): null outcome when it applied, else why not. */
export interface StateStep {
  record: PointedRecord;
  failure: string | null;
}

/** The state after a StateDelta: applied to the conversation's last snapshot before it, or why there is none to show. */
export type StateAfter =
  | { status: 'applied'; snapshot: PointedRecord; steps: StateStep[]; document: FieldNode[]; note: string | null }
  | { status: 'failed'; snapshot: PointedRecord; steps: StateStep[]; reason: string }
  | { status: 'no-snapshot'; reason: string };

/** A context fragment (or a retrieved item): what it is, its token and byte counts, the record it points at. */
export interface FragmentView {
  kind: string;
  what: string;
  tokens: number | null;
  bytes: number | null;
  score?: number;
  points?: PointedRecord | null;
}

/** A body in readable form: its shape's name, its labelled values, and the parts its shape has. */
export interface ReadableBody {
  /** The shape as dialects.ts names it, a session body by its kind: session_start, session_transition, session_end, … */
  shape: string;
  /** The port's name for it (`SessionStart`, `StateDelta`), with a session body's state. */
  title: string;
  fields: BodyField[];
  operations?: PatchOperationView[];
  after?: StateAfter;
  /** A snapshot's document as a field tree. */
  document?: FieldNode[];
  fragments?: FragmentView[];
}

/** What a body's reading needs of the load: its entries, the records' envelopes, their labels and positions. */
export interface BodyLog {
  readonly entries: readonly LogEntry[];
  envelopeOf(record: number): Envelope | null;
  labelOf(record: number): string;
  recordAt: RecordAtPosition;
}

/** How many nodes a state document's tree shows before it says how many more there are. */
const TREE_NODES = 2000;
const TEXT_MAX = 300;

const positionText = (p: { stream: number; topic: number; partition: number; offset: bigint }) =>
  `stream ${p.stream}, topic ${p.topic}, partition ${p.partition}, offset ${p.offset}`;

const clip = (s: string) => (s.length > TEXT_MAX ? `${s.slice(0, TEXT_MAX)}… (${s.length} characters)` : s);

/** A state document as a field tree (path and labels as JSON Pointer tokens), at most TREE_NODES nodes. */
export function stateTree(document: Json, label = 'document'): FieldNode[] {
  let budget = TREE_NODES;
  const node = (v: Json, path: string, name: string): FieldNode => {
    budget--;
    const n: FieldNode = { path, label: name, display: '', type: '', span: null, keySpan: null };
    if (Array.isArray(v)) {
      n.type = 'array';
      n.display = `[${plural(v.length, 'item')}]`;
      if (v.length)
        n.children = children(
          v.map((x, i) => [String(i), x] as const),
          path,
          (k) => `[${k}]`,
        );
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.keys(v).map((k) => [k, v[k]] as const);
      n.type = 'object';
      n.display = `{${plural(entries.length, 'member')}}`;
      if (entries.length) n.children = children(entries, path, (k) => k);
    } else {
      n.type = v === null ? 'null' : typeof v;
      n.display = typeof v === 'string' ? clip(JSON.stringify(v)) : String(v);
    }
    return n;
  };
  const children = (entries: readonly (readonly [string, Json])[], path: string, name: (k: string) => string): FieldNode[] => {
    const out: FieldNode[] = [];
    for (const [k, x] of entries) {
      if (budget <= 0) {
        out.push({
          path: `${path}/…`,
          label: '…',
          display: `${plural(entries.length - out.length, 'more item')} not shown`,
          type: '',
          span: null,
          keySpan: null,
        });
        break;
      }
      out.push(node(x, `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, name(k)));
    }
    return out;
  };
  return [node(document, 'state', label)];
}

/** Where a source ref points, in words, and the record there when it is a log record. */
function source(s: SourceRef, log: BodyLog): { value: string; points?: PointedRecord | null } {
  if (s.kind === 'kv') return { value: `key-value ${s.namespace}/${s.key}` };
  if (s.kind === 'memory') return { value: `memory ${s.id}` };
  const generation = s.generation !== undefined ? ` (topic generation ${s.generation})` : '';
  return { value: `log record at ${positionText(s)}${generation}`, points: pointed(log, log.recordAt(s)) };
}

function pointed(log: BodyLog, record: number | null): PointedRecord | null {
  return record === null ? null : { record, label: log.labelOf(record) };
}

function position(label: string, p: Position, log: BodyLog): BodyField {
  return { label, value: positionText(p), points: pointed(log, log.recordAt(p)) };
}

const idText = (b: Uint8Array) => formatId(b).display;

/** A session status's body: its fields by the shape its state calls for. */
function sessionBody(env: Envelope, dialect: Dialect, item: ReturnType<typeof bodyItem>, log: BodyLog): ReadableBody {
  const state = env.task_state!;
  const body = readSessionBody(item, state, dialect.terminal);
  const when = ` (${taskStateName(state, dialect)})`;
  const fields: BodyField[] = [];
  const add = (label: string, value: string | undefined) => {
    if (value !== undefined) fields.push({ label, value });
  };
  if (body.shape === 'start') {
    const s = body.value;
    add('Label', s.label);
    add('Namespace', s.namespace);
    add('Agent', s.agent);
    add('SDK', `${s.sdk.language} ${s.sdk.version}`);
    add('Parent conversation', s.parent && idText(s.parent));
    add('Root conversation', s.root && idText(s.root));
    add('Idle timeout', s.idle_timeout_micros !== undefined ? `${Number(s.idle_timeout_micros) / 1e6} s` : undefined);
    add('Budget: tokens', s.budget?.tokens?.toString());
    add('Budget: cost', s.budget?.cost_micros !== undefined ? `${s.budget.cost_micros} µ` : undefined);
    add('Tags', s.tags.length ? s.tags.join(', ') : undefined);
    return { shape: 'session_start', title: `SessionStart${when}`, fields };
  }
  if (body.shape === 'end') {
    const e = body.value;
    add('Reason', e.reason ?? '(none given)');
    if (e.error) {
      add('Error', codeName(ERROR_CODES, e.error.code));
      add('Error message', e.error.message);
      add('Retryable', e.error.retryable ? 'yes' : 'no');
    }
    return { shape: 'session_end', title: `SessionEnd${when}`, fields };
  }
  const t = body.value;
  add('Actor', t.actor ?? '(none given)');
  if (t.acknowledges) fields.push(position('Acknowledges the control record at', t.acknowledges, log));
  return { shape: 'session_transition', title: `SessionTransition${when}`, fields };
}

function operationView(o: StateDelta['patch'][number]): PatchOperationView {
  switch (o.op) {
    case 'remove':
      return { op: o.op, path: o.path };
    case 'move':
    case 'copy':
      return { op: o.op, path: o.path, from: o.from };
    default:
      return { op: o.op, path: o.path, value: clip(JSON.stringify(o.value)) };
  }
}

/** A state event's body read again (an earlier delta, the snapshot), or why it is not its shape. */
function stateBody<T>(env: Envelope | null, read: (item: ReturnType<typeof bodyItem>) => T, context: string): T | string {
  if (!env?.body || env.body.length === 0) return 'it has no body';
  try {
    return read(bodyItem(env.body, 0, env.body.length, context));
  } catch (e) {
    if (e instanceof ShapeError) return e.message;
    throw e;
  }
}

/**
 * The state after the delta at `record`: the last snapshot of its conversation before it in log
 * order, then each delta between them in that order, then this one. A delta that does not apply
 * stops the way (what comes after it would be applied to a state nobody had).
 */
function stateAfter(record: number, delta: StateDelta, log: BodyLog): StateAfter {
  const self = log.entries.find((e) => e.record === record);
  if (!self) return { status: 'no-snapshot', reason: 'the log has not been read to the end yet' };
  const before = log.entries
    .filter((e) => e.conversation === self.conversation && e.parent === null && e.kind === 'event' && e.logOrder < self.logOrder)
    .filter((e) => e.operation === 'state_snapshot' || e.operation === 'state_delta')
    .sort((a, b) => a.logOrder - b.logOrder);
  let from = -1;
  let snapshot: StateSnapshot | null = null;
  for (let i = before.length - 1; i >= 0 && snapshot === null; i--) {
    if (before[i].operation !== 'state_snapshot') continue;
    const read = stateBody(log.envelopeOf(before[i].record), readStateSnapshot, 'state snapshot');
    if (typeof read !== 'string') {
      snapshot = read;
      from = i;
    }
  }
  if (snapshot === null) return { status: 'no-snapshot', reason: 'no StateSnapshot of this conversation comes before this delta in the log' };
  const snapshotRecord = pointed(log, before[from].record)!;
  const deltas: { record: number; delta: StateDelta | string }[] = before
    .slice(from + 1)
    .filter((e) => e.operation === 'state_delta')
    .map((e) => ({ record: e.record, delta: stateBody(log.envelopeOf(e.record), readStateDelta, 'state delta') }));
  deltas.push({ record, delta });
  const steps: StateStep[] = [];
  let document = snapshot.document;
  let revision = snapshot.base_revision;
  const notes: string[] = [];
  for (const d of deltas) {
    const step: StateStep = { record: pointed(log, d.record)!, failure: null };
    steps.push(step);
    if (typeof d.delta === 'string') step.failure = `its body is not a StateDelta: ${d.delta}`;
    else {
      const applied = applyPatch(document, d.delta.patch);
      if (!applied.ok) {
        const o = d.delta.patch[applied.operation];
        step.failure = `operation ${applied.operation + 1} (${o.op} ${o.path}) failed: ${applied.reason}`;
      } else {
        // A delta names the revision it was made against; one that is not the revision reached is applied all the same, and said.
        if (d.delta.base_revision !== revision)
          notes.push(`record ${step.record.label} was made against revision ${d.delta.base_revision}, the state was at ${revision}`);
        document = applied.document;
        revision = d.delta.base_revision + 1n;
      }
    }
    if (step.failure !== null) return { status: 'failed', snapshot: snapshotRecord, steps, reason: step.failure };
  }
  return {
    status: 'applied',
    snapshot: snapshotRecord,
    steps,
    document: stateTree(document, `state (revision ${revision})`),
    note: notes.length ? notes.join('; ') : null,
  };
}

function fragment(f: Fragment, log: BodyLog): FragmentView {
  const counts = { tokens: f.tokens, bytes: f.bytes };
  switch (f.kind) {
    case 'message':
    case 'summary':
      return { kind: f.kind, what: source(f.at, log).value, ...counts, points: source(f.at, log).points };
    case 'memory':
      return { kind: f.kind, what: `memory ${f.id}${f.version !== undefined ? `, version ${f.version}` : ''}`, ...counts };
    case 'kv':
      return { kind: f.kind, what: `key-value ${f.namespace}/${f.key}${f.version !== undefined ? `, version ${f.version}` : ''}`, ...counts };
    case 'state':
      return { kind: f.kind, what: `state ${f.key}, revision ${f.revision}`, ...counts };
  }
}

/**
 * The readable form of the body of `env` (the record `record` of the load `log` is read over), or
 * null: the record's body has no shape of its own in `dialect`, or is not its shape.
 */
export function readableBody(env: Envelope, dialect: Dialect, record: number, log: BodyLog): ReadableBody | null {
  if (!Number.isInteger(record) || record < 0) throw new TypeError('readableBody: a record is a non-negative integer');
  const shape = env.operation !== undefined ? bodyShapeOf(dialect, env.kind, env.operation) : null;
  if (!shape || !env.body || env.body.length === 0) return null;
  try {
    const item = bodyItem(env.body, 0, env.body.length, shape.shape.replace('_', ' '));
    switch (shape.shape) {
      case 'session':
        return env.task_state === undefined ? null : sessionBody(env, dialect, item, log);
      case 'session_parking': {
        const p = readSessionParking(item);
        const at = source(p.source, log);
        return {
          shape: 'session_parking',
          title: 'SessionParking',
          fields: [{ label: 'Role', value: p.role }, { label: 'Parked record', ...at }, position('Parked by the request at', p.request, log)],
        };
      }
      case 'state_delta': {
        const d = readStateDelta(item);
        return {
          shape: 'state_delta',
          title: 'StateDelta',
          fields: [
            { label: 'Base revision', value: d.base_revision.toString() },
            { label: 'Operation id', value: d.op_id },
          ],
          operations: d.patch.map(operationView),
          after: stateAfter(record, d, log),
        };
      }
      case 'state_snapshot': {
        const s = readStateSnapshot(item);
        return {
          shape: 'state_snapshot',
          title: 'StateSnapshot',
          fields: [{ label: 'Revision', value: s.base_revision.toString() }],
          document: stateTree(s.document),
        };
      }
      case 'context_manifest': {
        const m = readContextManifest(item);
        const fields: BodyField[] = [
          { label: 'Policy', value: `${m.policy} ${m.policy_version}` },
          { label: 'Tokens', value: m.tokens.toString() },
          { label: 'Bytes', value: m.bytes.toString() },
        ];
        if (m.frontier.length) fields.push({ label: 'Frontier', value: m.frontier.map(([t, p, o]) => `topic ${t} partition ${p} offset ${o}`).join('; ') });
        if (m.correlation) fields.push({ label: 'For the call', value: idText(m.correlation) });
        return { shape: 'context_manifest', title: 'ContextManifest', fields, fragments: m.fragments.map((f) => fragment(f, log)) };
      }
      case 'context_compaction': {
        const c = readContextCompaction(item);
        return {
          shape: 'context_compaction',
          title: 'ContextCompaction',
          fields: [
            { label: 'Summary', ...source(c.summary_at, log) },
            { label: 'Summarizer', value: `${c.summarizer.name} ${c.summarizer.version}` },
            { label: 'Covers', value: c.covered.map(([t, p, a, b]) => `topic ${t} partition ${p} offsets ${a}–${b}`).join('; ') || '(nothing)' },
          ],
        };
      }
      case 'context_retrieval': {
        const r = readContextRetrieval(item);
        return {
          shape: 'context_retrieval',
          title: 'ContextRetrieval',
          fields: r.query !== undefined ? [{ label: 'Query', value: r.query }] : [],
          fragments: r.items.map(([id, score]) => ({ kind: 'item', what: id, tokens: null, bytes: null, score })),
        };
      }
    }
  } catch (e) {
    if (e instanceof ShapeError) return null;
    throw e;
  }
}

/** The readable form of the body of the load's record `key` (by its envelope and dialect), or null. */
export function readableBodyOf(record: InspectedRecord, key: number, log: BodyLog): ReadableBody | null {
  const env = record.data.envelope;
  const dialect = record.verdict.dialect !== null ? dialectById(record.verdict.dialect) : null;
  return env && dialect ? readableBody(env, dialect, key, log) : null;
}
