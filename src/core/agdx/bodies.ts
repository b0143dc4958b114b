// Bodies and capsules: AgentErrorBody, AgentCard, BodyRef, quarantine agent ids, and bodies by
// content type. Each reader gives a tree (with spans into the record's bytes) and findings.
import type { Span } from '../bytes';
import { toHex, utf8Length, utf8OrNull } from '../bytes';
import type { CborItem } from '../cbor/reader';
import { readItemAt, untag } from '../cbor/reader';
import { toDiagnostic } from '../cbor/diagnostic';
import type { BodyView, FieldNode } from '../model';
import { finding, type BodyCodec } from '../rules';
import { bodyShapeOf, DIALECT_001, type Dialect } from './dialects';
import { CONTENT_TYPES, ERROR_CODES, HEALTH, codeName } from './dictionaries';
import { shapedBody } from './shaped-bodies';
import { FieldError, readBool, readBytes, readSmallUint, readText, readUint, structEntries } from './fields';
import { cborNode } from './tree';
import type { Finding } from '../verdict';

export interface CapsuleReading {
  tree: FieldNode;
  summary: string;
  findings: Finding[];
}

/** The tree of a capsule read without detail (bulk loading): details are rebuilt on demand. */
const NO_TREE: FieldNode = { path: '', label: '', display: '', type: '', span: null, keySpan: null };

const spanOf = (item: CborItem): Span => [item.start, item.end];

/** AgentErrorBody: code u8, message?, retryable (absent = false), detail map?. */
export function readErrorBody(item: CborItem, path: string, detail = true): CapsuleReading {
  const { fields } = structEntries(item, 'an error body');
  const code = fields.get('code');
  if (!code) throw new FieldError('agdx/field-type', 'an error body requires code', item.start);
  const codeValue = readSmallUint(code.value, `${path}.code`, 255);
  const message = fields.get('message') ? readText(fields.get('message')!.value, `${path}.message`) : undefined;
  const retryable = fields.get('retryable') ? readBool(fields.get('retryable')!.value, `${path}.retryable`) : false;
  const summary = `${codeName(ERROR_CODES, codeValue)}${message ? `: ${message}` : ''}${retryable ? ' (retryable)' : ''}`;
  // The tree (and the closure that describes its code) only with detail: bulk loading reads every error body.
  const tree = detail ? { ...cborNode(item, path, path.split('.').pop()!, null, errorCodeDescriber(path, codeValue)), display: summary } : NO_TREE;
  return { tree, summary, findings: [] };
}

function errorCodeDescriber(path: string, codeValue: number): (p: string, it: CborItem) => Partial<FieldNode> | undefined {
  return (p, it) => {
    if (p === `${path}.code` && untag(it).kind === 'uint') return { display: `${codeName(ERROR_CODES, codeValue)} (${codeValue})` };
    return undefined;
  };
}

/** AgentCard: name?, version?, capabilities? (≤ 64), ttl_micros?. */
export function readCard(item: CborItem, path: string, detail = true): CapsuleReading {
  const { fields } = structEntries(item, 'an agent card');
  const findings: Finding[] = [];
  const name = fields.get('name') ? readText(fields.get('name')!.value, `${path}.name`) : undefined;
  const version = fields.get('version') ? readText(fields.get('version')!.value, `${path}.version`) : undefined;
  const caps = fields.get('capabilities');
  let count = 0;
  if (caps) {
    const list = untag(caps.value);
    if (list.kind !== 'array') throw new FieldError('agdx/field-type', 'capabilities must be an array', caps.value.start);
    count = list.items.length;
    if (count > 64) {
      findings.push(finding('agdx/cap/capabilities', `${path}.capabilities`, `the card lists ${count} capabilities, more than 64`, spanOf(caps.value)));
    }
    list.items.forEach((c, i) => {
      const { fields: cf } = structEntries(c, `capability ${i}`);
      if (!cf.get('skill_id')) throw new FieldError('agdx/field-type', `capability ${i} requires skill_id`, c.start);
      readText(cf.get('skill_id')!.value, `${path}.capabilities[${i}].skill_id`);
      for (const k of ['cost_class', 'latency_class', 'health'] as const) {
        if (cf.get(k)) readSmallUint(cf.get(k)!.value, `${path}.capabilities[${i}].${k}`, 255);
      }
      if (cf.get('max_concurrency')) readSmallUint(cf.get('max_concurrency')!.value, `${path}.capabilities[${i}].max_concurrency`, 0xffffffff);
      if (cf.get('load')) readSmallUint(cf.get('load')!.value, `${path}.capabilities[${i}].load`, 0xffff);
    });
  }
  const ttl = fields.get('ttl_micros') ? readUint(fields.get('ttl_micros')!.value, `${path}.ttl_micros`) : undefined;
  const describe = (p: string, it: CborItem): Partial<FieldNode> | undefined => {
    const v = untag(it);
    if (p.endsWith('.health') && v.kind === 'uint') return { display: `${codeName(HEALTH, Number(v.value))} (${v.value})` };
    if (p.endsWith('.load') && v.kind === 'uint') return { display: `${Number(v.value) / 10}% (${v.value} per mille)` };
    if (p === `${path}.ttl_micros` && v.kind === 'uint') return { display: `${Number(v.value) / 1e6} s (${v.value} µs)` };
    return undefined;
  };
  const summary = `${name ?? '(unnamed)'}${version ? ` ${version}` : ''}, ${count} capabilit${count === 1 ? 'y' : 'ies'}${ttl !== undefined ? `, ttl ${Number(ttl) / 1e6} s` : ''}`;
  const tree = detail ? { ...cborNode(item, path, path.split('.').pop()!, null, describe), display: summary } : NO_TREE;
  return { tree, summary, findings };
}

/** BodyRef: reference text (1..1024 bytes), size_bytes u64, sha256 bstr 32, encryption u8?. */
export function readBodyRef(item: CborItem, path: string, detail = true): CapsuleReading {
  const { fields } = structEntries(item, 'a body reference');
  const findings: Finding[] = [];
  const ref = fields.get('reference');
  if (!ref) throw new FieldError('agdx/field-type', 'a body reference requires reference', item.start);
  const reference = readText(ref.value, `${path}.reference`);
  const n = utf8Length(reference);
  if (n < 1 || n > 1024) {
    findings.push(finding('agdx/cap/body_ref', `${path}.reference`, `reference is ${n} bytes; it must be 1..1024`, spanOf(ref.value)));
  }
  if (!fields.get('size_bytes')) throw new FieldError('agdx/field-type', 'a body reference requires size_bytes', item.start);
  const size = readUint(fields.get('size_bytes')!.value, `${path}.size_bytes`);
  const sha = fields.get('sha256');
  if (!sha) throw new FieldError('agdx/field-type', 'a body reference requires sha256', item.start);
  readBytes(sha.value, `${path}.sha256`, { jsonView: false }, 32);
  if (fields.get('encryption')) readSmallUint(fields.get('encryption')!.value, `${path}.encryption`, 255);
  const summary = `${reference} (${size} bytes)`;
  const tree = detail
    ? {
        ...cborNode(item, path, path.split('.').pop()!, null, (p) =>
          p === `${path}.reference` ? { hint: 'A reference is shown as text and never followed.' } : undefined,
        ),
        display: summary,
      }
    : NO_TREE;
  return { tree, summary, findings };
}

export interface BodyContext {
  kind: string;
  operation?: string;
  /** The agdx.ct header when the record has headers. */
  contentType: number | null;
  /** The record's dialect: its bodies with shapes of their own are read as those shapes (0.0.1 when not said). */
  dialect?: Dialect;
  /** The record's task_state (a session status's body depends on it). */
  taskState?: number;
}

export interface BodyReading {
  view: BodyView;
  node: FieldNode | null;
  findings: Finding[];
}

/**
 * Whether readBody without detail can find anything in a body of this context: false where it
 * reads every body without a finding, whatever its bytes (a guessed, plain-text or undecoded one),
 * so bulk loading (import/fast-record.ts) skips reading those. It follows readBody's order of
 * cases; bodies.test.ts holds readBody to no finding, over bytes of every kind, for every context
 * this is false of.
 */
export function bodyCanHaveFindings(kind: string, operation: string | undefined, contentType: number | null, dialect: Dialect = DIALECT_001): boolean {
  if (kind === 'error') return true;
  // A shaped body's reading finds what its shape's check does; a session status's body is judged
  // by the validator (validate.ts checkSession), so its reading finds nothing.
  const shape = operation !== undefined ? bodyShapeOf(dialect, kind, operation) : null;
  if (shape !== null) return shape.shape !== 'session';
  if (kind === 'status' && (operation === 'card' || operation === 'quarantine' || operation === 'unquarantine')) return true;
  return contentType === 1 || contentType === 3 || contentType === 8;
}

/**
 * Reads a body. `bytes` holds the whole record; the body's content sits at [start, end), so the
 * nested CBOR keeps spans into the same bytes as the envelope. Without `detail` (bulk loading) only
 * the findings are worked out: the same findings, without the views.
 */
export function readBody(bytes: Uint8Array, start: number, end: number, ctx: BodyContext, detail = true): BodyReading {
  // Written without per-call closures: this runs once per record of a large log.
  const span: Span = [start, end];
  const findings: Finding[] = [];
  const ctReason = ctx.contentType !== null ? `${codeName(CONTENT_TYPES, ctx.contentType)} (agdx.ct = ${ctx.contentType})` : null;

  if (ctx.kind === 'error') return capsuleBody(bytes, span, findings, detail, 'error_body', 'AgentErrorBody (error kind)', readErrorBody);
  const shape = ctx.operation !== undefined ? bodyShapeOf(ctx.dialect ?? DIALECT_001, ctx.kind, ctx.operation) : null;
  if (shape) return shapedBody(bytes, start, end, shape, ctx, detail);
  if (ctx.kind === 'status' && ctx.operation === 'card') return capsuleBody(bytes, span, findings, detail, 'card', 'AgentCard (status card)', readCard);
  if (ctx.kind === 'status' && (ctx.operation === 'quarantine' || ctx.operation === 'unquarantine')) {
    const content = bytes.subarray(start, end);
    const id = utf8OrNull(content);
    if (id === null) warn(findings, 'agent_id', `the ${ctx.operation} body is not UTF-8`, span);
    return { view: { rendering: 'agent_id', reason: `agent id (${ctx.operation})`, text: id ?? toHex(content), span }, node: null, findings };
  }
  switch (ctx.contentType) {
    case 1:
      return jsonBody(bytes.subarray(start, end), span, ctReason!, findings, detail);
    case 3: {
      const item = nestedCbor(bytes, start, end);
      if (typeof item === 'string') {
        warn(findings, 'cbor', `the body does not parse as CBOR: ${item}`, span);
        return { view: { rendering: 'hex', reason: ctReason!, text: toHex(bytes.subarray(start, end)), span }, node: null, findings };
      }
      return {
        view: { rendering: 'cbor', reason: ctReason!, text: detail ? toDiagnostic(item) : '', span },
        node: detail ? cborNode(item, 'body', 'body', null) : null,
        findings,
      };
    }
    case 8:
      return capsuleBody(bytes, span, findings, detail, 'body_ref', ctReason!, readBodyRef);
    case 0: {
      if (!detail) return { view: { rendering: 'text', reason: ctReason!, text: '', span }, node: null, findings };
      const content = bytes.subarray(start, end);
      const text = utf8OrNull(content);
      return { view: { rendering: text !== null ? 'text' : 'hex', reason: ctReason!, text: text ?? toHex(content), span }, node: null, findings };
    }
    case null:
      // A guess has no findings: without detail there is nothing to do.
      return detail
        ? guessBody(bytes, bytes.subarray(start, end), span, end)
        : { view: { rendering: 'raw', reason: 'no agdx.ct header', text: '', span }, node: null, findings };
    default:
      // msgpack, bson, avro, protobuf, arrow, any, or an unknown code: no schema here.
      return {
        view: { rendering: 'hex', reason: `${ctReason}: shown as hex (no decoder for it here)`, text: detail ? toHex(bytes.subarray(start, end)) : '', span },
        node: null,
        findings,
      };
  }
}

function warn(findings: Finding[], codec: BodyCodec, message: string, at: Span): void {
  findings.push(finding(`agdx/body/${codec}`, 'body', message, at));
}

/** The body `bytes[start, end)` as one CBOR item, or why it is not one. */
function nestedCbor(bytes: Uint8Array, start: number, end: number): CborItem | string {
  const r = readItemAt(bytes.subarray(0, end), start);
  if (!r.ok) return `${r.error.message} (${r.error.code} at byte ${r.error.offset})`;
  if (r.value.end !== end) return `${end - r.value.end} bytes after the CBOR item (at byte ${r.value.end})`;
  return r.value;
}

/** A body that is a capsule (`span` its content's place in `bytes`), read by `read`. */
function capsuleBody(
  bytes: Uint8Array,
  span: Span,
  findings: Finding[],
  detail: boolean,
  rendering: string,
  reason: string,
  read: (item: CborItem, path: string, detail: boolean) => CapsuleReading,
): BodyReading {
  const [start, end] = span;
  const item = nestedCbor(bytes, start, end);
  if (typeof item === 'string') {
    warn(findings, 'cbor', `the ${rendering.replace('_', ' ')} body is not CBOR: ${item}`, span);
    return { view: { rendering: 'hex', reason, text: detail ? toHex(bytes.subarray(start, end)) : '', span }, node: null, findings };
  }
  try {
    const r = read(item, 'body', detail);
    findings.push(...r.findings);
    return { view: { rendering, reason, text: detail ? `${r.summary}\n${toDiagnostic(item)}` : r.summary, span }, node: detail ? r.tree : null, findings };
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    warn(findings, 'cbor', `the body is CBOR but not a valid ${rendering.replace('_', ' ')}: ${e.message}`, [e.offset, end]);
    return {
      view: { rendering: 'cbor', reason, text: detail ? toDiagnostic(item) : '', span },
      node: detail ? cborNode(item, 'body', 'body', null) : null,
      findings,
    };
  }
}

function jsonBody(content: Uint8Array, span: Span, reason: string, findings: Finding[], detail: boolean): BodyReading {
  const text = utf8OrNull(content);
  if (text !== null) {
    try {
      const parsed = JSON.parse(text);
      return { view: { rendering: 'json', reason, text: detail ? JSON.stringify(parsed, null, 2) : '', span }, node: null, findings };
    } catch (e) {
      findings.push(finding('agdx/body/json', 'body', `the body does not parse as JSON: ${(e as Error).message}`, span));
    }
  } else {
    findings.push(finding('agdx/body/json', 'body', 'the body is not UTF-8, so not JSON', span));
  }
  return { view: { rendering: text !== null ? 'text' : 'hex', reason, text: detail ? (text ?? toHex(content)) : '', span }, node: null, findings };
}

/** No agdx.ct (a bare envelope): JSON if it parses, else CBOR if it parses whole, else text or hex. */
function guessBody(bytes: Uint8Array, content: Uint8Array, span: Span, end: number): BodyReading {
  const text = utf8OrNull(content);
  if (text !== null && /^\s*[[{"]/.test(text)) {
    try {
      return {
        view: { rendering: 'json', reason: 'no agdx.ct header: read as JSON because it parses', text: JSON.stringify(JSON.parse(text), null, 2), span },
        node: null,
        findings: [],
      };
    } catch {
      /* not JSON: fall through */
    }
  }
  if (text === null) {
    const r = readItemAt(bytes.subarray(0, end), span[0]);
    if (r.ok && r.value.end === end) {
      return {
        view: { rendering: 'cbor', reason: 'no agdx.ct header: read as CBOR because it parses', text: toDiagnostic(r.value), span },
        node: cborNode(r.value, 'body', 'body', null),
        findings: [],
      };
    }
  }
  return {
    view: { rendering: text !== null ? 'text' : 'hex', reason: 'no agdx.ct header: shown as raw', text: text ?? toHex(content), span },
    node: null,
    findings: [],
  };
}
