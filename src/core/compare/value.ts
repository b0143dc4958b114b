// The values a structural diff compares: one neutral shape (scalars, byte strings, maps, lists)
// built from what a record is: an AGDX envelope (its decoded fields, the body read per content
// type), JSON (AgentDNA documents, JSON bodies and policies, by the lossless reader: exact numbers,
// the last of duplicate keys as json.loads keeps it), CBOR items (capsule bodies), or, for any other
// record, its field tree as shown.
import { toHex, utf8OrNull } from '../bytes';
import { toDiagnostic } from '../cbor/diagnostic';
import { readSingle, untag, type CborItem } from '../cbor/reader';
import { bodyShapeOf } from '../agdx/dialects';
import { envelopeDialect } from '../agdx/validate';
import { CONTENT_TYPES, SIGNATURE_SCHEMES, TASK_STATES, codeName } from '../agdx/dictionaries';
import { ENVELOPE_FIELDS, USAGE_FIELDS, type Envelope, type MetaValue } from '../agdx/envelope';
import type { Header } from '../agdx/iggy';
import { displayHeader } from '../agdx/iggy';
import { ID_FIELDS, formatId, formatLogPosition, formatMicros } from '../agdx/tree';
import { readJson, type JsonValue } from '../json/lossless';
import type { FieldNode } from '../model';
import type { BodyReading } from './model';

export type DiffValue =
  /** `key` is the value exactly (equal keys of equal types: equal values); `display` is how it reads. */
  | { kind: 'scalar'; type: string; key: string; display: string }
  | { kind: 'bytes'; bytes: Uint8Array; display: string }
  | { kind: 'map'; type: string; entries: ReadonlyArray<readonly [string, DiffValue]> }
  | { kind: 'list'; type: string; items: readonly DiffValue[] };

const MAX_DEPTH = 128;

export const scalar = (type: string, key: string, display = key): DiffValue => ({ kind: 'scalar', type, key, display });

/** Bytes as hex (cut after 64 bytes), or an id in Crockford base32. */
function bytesValue(bytes: Uint8Array, display?: string): DiffValue {
  return {
    kind: 'bytes',
    bytes,
    display: display ?? (bytes.length > 64 ? `${toHex(bytes.subarray(0, 64))}… (${bytes.length} bytes)` : toHex(bytes) || '(empty)'),
  };
}

/** How a value reads on one line: a scalar's display, a container's size. */
export function displayOf(v: DiffValue): string {
  switch (v.kind) {
    case 'scalar':
    case 'bytes':
      return v.display;
    case 'map':
      return `{${v.entries.length} ${v.entries.length === 1 ? 'entry' : 'entries'}}`;
    case 'list':
      return `[${v.items.length} item${v.items.length === 1 ? '' : 's'}]`;
  }
}

const fingerprints = new WeakMap<object, string>();

/** FNV-1a over a string's code units, from `h`. */
function fnv(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * A 64-bit hash of a value, made once per value (children's fingerprints combined, so a whole tree
 * costs its size): equal values have equal fingerprints. Used to align lists; a collision could only
 * make an alignment worse, never two different values the same (the diff compares them itself).
 */
export function fingerprint(v: DiffValue): string {
  const known = fingerprints.get(v);
  if (known !== undefined) return known;
  let parts: string;
  switch (v.kind) {
    case 'scalar':
      parts = `s${v.type.length}:${v.type}${v.key}`;
      break;
    case 'bytes':
      parts = `b${toHex(v.bytes)}`;
      break;
    case 'list':
      parts = `l${v.items.map(fingerprint).join(',')}`;
      break;
    case 'map':
      parts = `m${[...v.entries]
        .map(([k, x]) => `${JSON.stringify(k)}:${fingerprint(x)}`)
        .sort()
        .join(',')}`;
      break;
  }
  const id = `${fnv(2166136261, parts).toString(36)}.${fnv(0x9747b28c, parts).toString(36)}.${parts.length}`;
  fingerprints.set(v, id);
  return id;
}

// ---------- JSON ----------

/** A JSON value (lossless reader): numbers by their text, objects by the last of duplicate keys. */
export function jsonValue(v: JsonValue, depth = 0): DiffValue {
  switch (v.type) {
    case 'string':
      return scalar('string', v.value, JSON.stringify(v.value));
    case 'number':
      return scalar('number', v.text);
    case 'bool':
      return scalar('bool', String(v.value));
    case 'null':
      return scalar('null', 'null');
    case 'array':
      if (depth >= MAX_DEPTH) return scalar('array', `[${v.items.length} items, nested too deep to compare]`);
      return { kind: 'list', type: 'array', items: v.items.map((x) => jsonValue(x, depth + 1)) };
    case 'object': {
      if (depth >= MAX_DEPTH) return scalar('object', `{${v.entries.length} members, nested too deep to compare}`);
      // json.loads keeps the last of repeated keys, at the place of the first.
      const last = new Map<string, JsonValue>();
      for (const e of v.entries) last.set(e.key, e.value);
      return { kind: 'map', type: 'object', entries: [...last].map(([k, x]) => [k, jsonValue(x, depth + 1)] as const) };
    }
  }
}

/** JSON text (UTF-8) as a value, or null when it does not read as JSON. */
export function jsonBytesValue(bytes: Uint8Array): DiffValue | null {
  const r = readJson(bytes, { maxDepth: MAX_DEPTH });
  return r.ok ? jsonValue(r.value) : null;
}

// ---------- CBOR ----------

function cborKeyName(item: CborItem): string {
  const k = untag(item);
  return k.kind === 'text' ? k.value : toDiagnostic(k, 64);
}

/** A CBOR item as a value: text keys by name, others by their diagnostic notation. */
function cborValue(item: CborItem, depth = 0): DiffValue {
  const tag = item.kind === 'tag' ? `tag ${item.tag} ` : '';
  const it = untag(item);
  switch (it.kind) {
    case 'uint':
    case 'nint':
      return scalar(`${tag}int`, String(it.value));
    case 'float':
      return scalar(`${tag}float`, toDiagnostic(it));
    case 'text':
      return scalar(`${tag}text`, it.value, JSON.stringify(it.value));
    case 'bytes':
      return tag ? scalar(`${tag}bytes`, toHex(it.value), displayOf(bytesValue(it.value))) : bytesValue(it.value);
    case 'simple':
      return scalar(`${tag}simple`, toDiagnostic(it));
    case 'array':
      if (depth >= MAX_DEPTH) return scalar('array', toDiagnostic(it, 200));
      return { kind: 'list', type: `${tag}array`, items: it.items.map((x) => cborValue(x, depth + 1)) };
    case 'map': {
      if (depth >= MAX_DEPTH) return scalar('map', toDiagnostic(it, 200));
      const last = new Map<string, CborItem>();
      for (const e of it.entries) last.set(cborKeyName(e.key), e.value);
      return { kind: 'map', type: `${tag}map`, entries: [...last].map(([k, x]) => [k, cborValue(x, depth + 1)] as const) };
    }
    default:
      return scalar('cbor', toDiagnostic(it, 200));
  }
}

// ---------- AGDX envelopes ----------

const int = (v: number | bigint) => scalar('int', String(v));
const text = (s: string) => scalar('text', s, JSON.stringify(s));

function metaValue(v: MetaValue, depth = 0): DiffValue {
  switch (v.type) {
    case 'text':
      return text(v.value);
    case 'int':
      return int(v.value);
    case 'float':
      return scalar('float', Object.is(v.value, -0) ? '-0.0' : String(v.value));
    case 'bool':
      return scalar('bool', String(v.value));
    case 'null':
      return scalar('null', 'null');
    case 'list':
      if (depth >= MAX_DEPTH) return scalar('list', `[${v.items.length} items, nested too deep to compare]`);
      return { kind: 'list', type: 'list', items: v.items.map((x) => metaValue(x, depth + 1)) };
  }
}

/** A body as one side reads it, by its content type (agentdna capsules and CBOR structurally, JSON structurally). */
interface BodyDecoding {
  reading: BodyReading;
  value: DiffValue;
}

/** What a body decodes as: the content type (the `agdx.ct` header, else what the kind says, else a guess) picks the reading. */
function decodeBody(env: Envelope, contentType: number | null): BodyDecoding | null {
  const body = env.body;
  if (!body || body.length === 0) return null;
  const cbor = (): BodyDecoding | null => {
    const r = readSingle(body);
    return r.ok ? { reading: 'cbor', value: cborValue(r.value) } : null;
  };
  const json = (): BodyDecoding | null => {
    const v = jsonBytesValue(body);
    return v ? { reading: 'json', value: v } : null;
  };
  const asText = (): BodyDecoding | null => {
    const s = utf8OrNull(body);
    return s === null ? null : { reading: 'text', value: text(s) };
  };
  const bytes: BodyDecoding = { reading: 'bytes', value: bytesValue(body) };
  if (env.kind === 'error' || (env.kind === 'status' && env.operation === 'card')) return cbor() ?? bytes;
  // A body with a shape of its own (a session status, state, context: dialects.ts) is CBOR whatever agdx.ct says.
  if (env.operation !== undefined && bodyShapeOf(envelopeDialect(env).dialect, env.kind, env.operation)) return cbor() ?? bytes;
  if (env.kind === 'status' && (env.operation === 'quarantine' || env.operation === 'unquarantine')) return asText() ?? bytes;
  switch (contentType) {
    case 1:
      return json() ?? asText() ?? bytes;
    case 3:
    case 8:
      return cbor() ?? bytes;
    case 0:
      return asText() ?? bytes;
    case null: {
      const s = utf8OrNull(body);
      if (s !== null && /^\s*[[{"]/.test(s)) return json() ?? asText()!;
      if (s === null) return cbor() ?? bytes;
      return asText()!;
    }
    default:
      return bytes;
  }
}

/**
 * The two bodies as one comparison reads them: structurally when both decode the same way (JSON
 * and JSON, CBOR and CBOR), as text when both are text, else both as bytes.
 */
export function pairBodies(
  a: { env: Envelope | null; ct: number | null },
  b: { env: Envelope | null; ct: number | null },
): { a: DiffValue | null; b: DiffValue | null; readings: { a: BodyReading | null; b: BodyReading | null; compared: BodyReading } | null } {
  const da = a.env ? decodeBody(a.env, a.ct) : null;
  const db = b.env ? decodeBody(b.env, b.ct) : null;
  if (!da && !db) return { a: null, b: null, readings: null };
  const compared: BodyReading = da && db ? (da.reading === db.reading ? da.reading : 'bytes') : (da ?? db)!.reading;
  const pick = (d: BodyDecoding | null, env: Envelope | null) => (!d ? null : d.reading === compared ? d.value : bytesValue(env!.body!));
  return { a: pick(da, a.env), b: pick(db, b.env), readings: { a: da?.reading ?? null, b: db?.reading ?? null, compared } };
}

/** An envelope's fields in declaration order: ids in Crockford, codes by name, times with their date; `body` as given. */
export function envelopeValue(env: Envelope, body: DiffValue | null): DiffValue {
  const entries: [string, DiffValue][] = [];
  for (const name of ENVELOPE_FIELDS) {
    const v = valueOfField(env, name, body);
    if (v) entries.push([name, v]);
  }
  return { kind: 'map', type: 'envelope', entries };
}

function valueOfField(env: Envelope, name: (typeof ENVELOPE_FIELDS)[number], body: DiffValue | null): DiffValue | null {
  switch (name) {
    case 'kind':
      return text(env.kind);
    case 'record':
    case 'conversation':
    case 'parent':
    case 'root':
    case 'cause':
    case 'correlation':
    case 'channel': {
      const b = env[name];
      return b ? bytesValue(b, ID_FIELDS.has(name) ? formatId(b).display : undefined) : null;
    }
    case 'cause_at':
      return env.cause_at ? bytesValue(env.cause_at, formatLogPosition(env.cause_at)) : null;
    case 'source':
      return text(env.source);
    case 'target':
    case 'idempotency_key':
    case 'finish_reason':
    case 'operation':
    case 'tool': {
      const s = env[name];
      return s === undefined ? null : text(s);
    }
    case 'deadline_micros':
      return env.deadline_micros === undefined
        ? null
        : scalar('int', String(env.deadline_micros), `${formatMicros(env.deadline_micros)} (${env.deadline_micros} µs)`);
    case 'sequence':
      return env.sequence === undefined ? null : int(env.sequence);
    case 'last':
      return env.last ? scalar('bool', 'true') : null;
    case 'task_state':
      return env.task_state === undefined ? null : scalar('int', String(env.task_state), `${codeName(TASK_STATES, env.task_state)} (${env.task_state})`);
    case 'usage': {
      const u = env.usage;
      if (!u) return null;
      return { kind: 'map', type: 'usage', entries: USAGE_FIELDS.filter((k) => u[k] !== undefined).map((k) => [k, int(u[k]!)] as const) };
    }
    case 'metadata': {
      const m = env.metadata;
      if (!m) return null;
      return { kind: 'map', type: 'metadata', entries: [...m].map(([k, v]) => [k, metaValue(v)] as const) };
    }
    case 'must_understand': {
      const mu = env.must_understand;
      if (mu === undefined || mu === 0 || mu === 0n) return null;
      return scalar('int', String(mu), `0x${BigInt(mu).toString(16).padStart(16, '0')}`);
    }
    case 'body':
      return body;
    case 'signature': {
      const s = env.signature;
      if (!s) return null;
      const entries: [string, DiffValue][] = [
        ['scheme', scalar('int', String(s.scheme), `${codeName(SIGNATURE_SCHEMES, s.scheme)} (${s.scheme})`)],
        ['key_id', bytesValue(s.key_id)],
        ['bytes', bytesValue(s.bytes)],
      ];
      if (s.context) {
        const c: [string, DiffValue][] = [];
        if (s.context.content_type !== undefined)
          c.push([
            'content_type',
            scalar('int', String(s.context.content_type), `${codeName(CONTENT_TYPES, s.context.content_type)} (${s.context.content_type})`),
          ]);
        if (s.context.agent_version !== undefined) c.push(['agent_version', int(s.context.agent_version)]);
        entries.push(['context', { kind: 'map', type: 'context', entries: c }]);
      }
      return { kind: 'map', type: 'signature', entries };
    }
  }
}

/** A record's Iggy user headers by name (as the detail shows them). */
export function headersValue(headers: readonly Header[]): DiffValue {
  const last = new Map<string, DiffValue>();
  for (const h of headers) last.set(h.name, scalar(h.kind, toHex(h.value), displayHeader(h)));
  return { kind: 'map', type: 'headers', entries: [...last] };
}

// ---------- field trees ----------

/**
 * A field tree as shown (any record the other readers do not cover: a dead letter, a capsule, a
 * control frame): nodes by label, leaves by their display. A display is cut for long byte strings,
 * so a difference past its first 64 bytes is seen only in the byte diff.
 */
export function treeValue(nodes: readonly FieldNode[], depth = 0): DiffValue {
  const list = nodes.length > 0 && nodes.every((n, i) => n.label === `[${i}]`);
  const child = (n: FieldNode): DiffValue =>
    n.children && n.children.length > 0 && depth < MAX_DEPTH ? treeValue(n.children, depth + 1) : scalar(n.type, n.display);
  if (list) return { kind: 'list', type: 'list', items: nodes.map(child) };
  const last = new Map<string, DiffValue>();
  for (const n of nodes) last.set(n.label, child(n));
  return { kind: 'map', type: 'fields', entries: [...last] };
}
