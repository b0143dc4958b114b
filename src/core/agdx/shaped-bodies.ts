// The bodies with shapes of their own (dialects.ts `bodies`, read by shapes.ts) as a record shows
// them: a line saying what the body says, its field tree with ids, positions, codes and times made
// readable, and, for the shapes only a body check judges (parking, state, context), the finding
// when the body is not its shape. A session status's body is judged by the validator (it makes the
// envelope invalid, validate.ts); here it is only shown.
import type { Span } from '../bytes';
import { toHex } from '../bytes';
import { toDiagnostic } from '../cbor/diagnostic';
import type { CborItem } from '../cbor/reader';
import { untag } from '../cbor/reader';
import type { BodyView, FieldNode } from '../model';
import type { Finding } from '../verdict';
import { finding, type FindingRuleId } from '../rules';
import { DIALECT_001, taskStateName, type BodyShape, type BodyShapeName, type Dialect } from './dialects';
import { ERROR_CODES, codeName } from './dictionaries';
import {
  bodyItem,
  readContextCompaction,
  readContextManifest,
  readContextRetrieval,
  readSessionEnd,
  readSessionParking,
  readSessionStart,
  readSessionTransition,
  readStateDelta,
  readStateSnapshot,
  sessionShapeFor,
  ShapeError,
  startKeys,
  type Position,
  type SourceRef,
} from './shapes';
import { cborNode, formatId } from './tree';
import { plural } from '../plural';

/** What a shaped body is read with: the record's kind, operation, dialect and task state. */
export interface ShapeContext {
  kind: string;
  operation?: string;
  dialect?: Dialect;
  taskState?: number;
}

/** A body's reading (bodies.ts BodyReading): its view, its field-tree node, its findings. */
export interface ShapeReading {
  view: BodyView;
  node: FieldNode | null;
  findings: Finding[];
}

/**
 * Each shape: what it is called, the finding a body that is not one gets (none: the validator's),
 * and its reader, which throws ShapeError for a body that is not one and otherwise gives its one
 * line, with `detail` (without, only the check is made: bulk loading reads every such body).
 */
interface ShapeView {
  name: string;
  context: string;
  rule: FindingRuleId | null;
  read: (item: CborItem, detail: boolean) => string;
}

const position = (p: Position) => `stream ${p.stream}, topic ${p.topic}, partition ${p.partition}, offset ${p.offset}`;
const source = (s: SourceRef) =>
  s.kind === 'message'
    ? `log record ${position(s)}${s.generation !== undefined ? ` (topic generation ${s.generation})` : ''}`
    : s.kind === 'kv'
      ? `key-value ${s.namespace}/${s.key}`
      : `memory ${s.id}`;

const VIEWS: Record<Exclude<BodyShapeName, 'session'>, ShapeView> = {
  session_parking: {
    name: 'SessionParking',
    context: 'session parking',
    rule: 'agdx/session/parking',
    read: (item, detail) => {
      const p = readSessionParking(item);
      if (!detail) return '';
      return `${p.role} holds ${source(p.source)}, parked by the request at ${position(p.request)}`;
    },
  },
  state_delta: {
    name: 'StateDelta',
    context: 'state delta',
    rule: 'agdx/state/delta',
    read: (item, detail) => {
      const d = readStateDelta(item);
      if (!detail) return '';
      return `base revision ${d.base_revision}, op id ${d.op_id}, ${plural(d.patch.length, 'operation')}: ${d.patch.map((o) => `${o.op} ${o.path}`).join(', ')}\n${JSON.stringify(d.patch, null, 2)}`;
    },
  },
  state_snapshot: {
    name: 'StateSnapshot',
    context: 'state snapshot',
    rule: 'agdx/state/snapshot',
    read: (item, detail) => {
      const s = readStateSnapshot(item);
      if (!detail) return '';
      return `base revision ${s.base_revision}\n${JSON.stringify(s.document, null, 2)}`;
    },
  },
  context_manifest: {
    name: 'ContextManifest',
    context: 'context manifest',
    rule: 'agdx/context/manifest',
    read: (item, detail) => {
      const m = readContextManifest(item);
      if (!detail) return '';
      return `policy ${m.policy} ${m.policy_version}, ${plural(m.fragments.length, 'fragment')} (${m.fragments.map((f) => f.kind).join(', ')}), ${m.tokens} tokens, ${m.bytes} bytes${m.correlation ? `, for the call ${formatId(m.correlation).display}` : ''}`;
    },
  },
  context_compaction: {
    name: 'ContextCompaction',
    context: 'context compaction',
    rule: 'agdx/context/compaction',
    read: (item, detail) => {
      const c = readContextCompaction(item);
      if (!detail) return '';
      return `summary at ${source(c.summary_at)} by ${c.summarizer.name} ${c.summarizer.version}, covering ${c.covered.map(([t, p, a, b]) => `topic ${t} partition ${p} offsets ${a}–${b}`).join('; ')}`;
    },
  },
  context_retrieval: {
    name: 'ContextRetrieval',
    context: 'context retrieval',
    rule: 'agdx/context/retrieval',
    read: (item, detail) => {
      const r = readContextRetrieval(item);
      if (!detail) return '';
      return `${r.query !== undefined ? `query ${JSON.stringify(r.query)}: ` : ''}${plural(r.items.length, 'item')}${r.items.length ? ` (${r.items.map(([id, score]) => `${id} ${score}`).join(', ')})` : ''}`;
    },
  },
};

/** A session status's body: a start, a transition or an end by its state (guessed from its keys without one). */
function sessionView(item: CborItem, state: number | undefined, terminal: ReadonlySet<number>): { name: string; line: string } {
  const shape =
    state !== undefined ? sessionShapeFor(state, item, terminal) : startKeys(item) ? 'start' : hasKey(item, 'reason', 'error') ? 'end' : 'transition';
  const when = state !== undefined ? ` (${taskStateName(state)})` : '';
  if (shape === 'start') {
    const s = readSessionStart(item);
    const parts = [
      `agent ${s.agent}`,
      `sdk ${s.sdk.language} ${s.sdk.version}`,
      s.label !== undefined ? `label ${JSON.stringify(s.label)}` : '',
      s.namespace !== undefined ? `namespace ${s.namespace}` : '',
      s.parent ? `parent ${formatId(s.parent).display}` : '',
      s.root ? `root ${formatId(s.root).display}` : '',
      s.idle_timeout_micros !== undefined ? `idle timeout ${Number(s.idle_timeout_micros) / 1e6} s` : '',
      s.budget
        ? `budget ${[s.budget.tokens !== undefined ? `${s.budget.tokens} tokens` : '', s.budget.cost_micros !== undefined ? `${s.budget.cost_micros} µ` : ''].filter(Boolean).join(', ')}`
        : '',
      s.tags.length ? `tags ${s.tags.join(', ')}` : '',
    ];
    return { name: `SessionStart${when}`, line: parts.filter(Boolean).join(', ') };
  }
  if (shape === 'end') {
    const e = readSessionEnd(item);
    const error = e.error
      ? `${codeName(ERROR_CODES, e.error.code)}${e.error.message !== undefined ? `: ${e.error.message}` : ''}${e.error.retryable ? ' (retryable)' : ''}`
      : '';
    return { name: `SessionEnd${when}`, line: [e.reason !== undefined ? `reason ${JSON.stringify(e.reason)}` : 'no reason', error].filter(Boolean).join(', ') };
  }
  const t = readSessionTransition(item);
  return {
    name: `SessionTransition${when}`,
    line: [t.actor !== undefined ? `by ${t.actor}` : 'no actor', t.acknowledges ? `acknowledging the control record at ${position(t.acknowledges)}` : '']
      .filter(Boolean)
      .join(', '),
  };
}

function hasKey(item: CborItem, ...keys: string[]): boolean {
  const it = untag(item);
  return (
    it.kind === 'map' &&
    it.entries.some((e) => {
      const k = untag(e.key);
      return k.kind === 'text' && keys.includes(k.value);
    })
  );
}

const ID_PATHS = /\.(parent|root|correlation)$/;
const POSITION_PATHS = /\.(acknowledges|request)$/;

/** Field-tree readings inside a shaped body: ids in Crockford, positions, times, codes. */
function describe(path: string, it: CborItem): Partial<FieldNode> | undefined {
  const v = untag(it);
  if (v.kind === 'bytes' && ID_PATHS.test(path) && v.value.length === 16) {
    const id = formatId(v.value);
    return { display: id.display, hint: id.hint };
  }
  if (v.kind === 'bytes' && POSITION_PATHS.test(path) && v.value.length === 20) {
    const dv = new DataView(v.value.buffer, v.value.byteOffset, 20);
    return { display: `stream ${dv.getUint32(0)}, topic ${dv.getUint32(4)}, partition ${dv.getUint32(8)}, offset ${dv.getBigUint64(12)}` };
  }
  if (v.kind === 'uint' && path.endsWith('_micros') && !path.endsWith('cost_micros')) return { display: `${Number(v.value) / 1e6} s (${v.value} µs)` };
  if (v.kind === 'uint' && path === 'body.error.code') return { display: `${codeName(ERROR_CODES, Number(v.value))} (${v.value})` };
  return undefined;
}

/**
 * Reads a body with a shape of its own at `bytes[start, end)`. Without `detail` (bulk loading) only
 * the findings are worked out.
 */
export function shapedBody(bytes: Uint8Array, start: number, end: number, shape: BodyShape, ctx: ShapeContext, detail: boolean): ShapeReading {
  const span: Span = [start, end];
  const findings: Finding[] = [];
  const dialect = ctx.dialect ?? DIALECT_001;
  const view = shape.shape === 'session' ? null : VIEWS[shape.shape];
  const context = view?.context ?? 'session body';
  const hex = (reason: string): BodyView => ({ rendering: 'hex', reason, text: detail ? toHex(bytes.subarray(start, end)) : '', span });
  let item: CborItem;
  try {
    item = bodyItem(bytes, start, end, context);
  } catch (e) {
    if (!(e instanceof ShapeError)) throw e;
    if (view?.rule) findings.push(finding(view.rule, e.path, `the body is not a ${view.name}: ${e.message}`, e.item ? [e.item.start, e.item.end] : span));
    return { view: hex(`${view?.name ?? 'session body'} (${ctx.kind} ${ctx.operation}): not one CBOR map`), node: null, findings };
  }
  let name = view?.name ?? 'session body';
  let line: string;
  let rendering: string = shape.shape;
  try {
    if (view) line = view.read(item, detail);
    else {
      const s = sessionView(item, ctx.taskState, dialect.terminal);
      name = s.name;
      line = s.line;
      rendering = `session_${s.name.slice('Session'.length).split(' ')[0].toLowerCase()}`;
    }
  } catch (e) {
    if (!(e instanceof ShapeError)) throw e;
    if (view?.rule) findings.push(finding(view.rule, e.path, `the body is not a ${view.name}: ${e.message}`, e.item ? [e.item.start, e.item.end] : span));
    const reason = `${name} (${ctx.kind} ${ctx.operation}), which this body is not: ${e.message}`;
    return {
      view: { rendering: 'cbor', reason, text: detail ? toDiagnostic(item) : '', span },
      node: detail ? cborNode(item, 'body', 'body', null, describe) : null,
      findings,
    };
  }
  if (!detail) return { view: { rendering, reason: name, text: '', span }, node: null, findings };
  const text = shape.shape === 'state_delta' || shape.shape === 'state_snapshot' ? `${line}` : `${line}\n${toDiagnostic(item)}`;
  const tree = { ...cborNode(item, 'body', 'body', null, describe), display: `${name}: ${line.split('\n')[0]}` };
  return { view: { rendering, reason: `${name} (${ctx.kind} ${ctx.operation})`, text, span }, node: tree, findings };
}
