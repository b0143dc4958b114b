// The AGDX v1 envelope (agdx-v1.md): its fields in wire order, and a decoder as lenient as the
// Rust reference (laser-wire 0.0.1), which keeps each field's bytes for the hex view and findings.
import type { Span } from '../bytes';
import type { CborItem } from '../cbor/reader';
import { isNull, untag } from '../cbor/reader';
import { KINDS, LATEST, type Kind } from './dialects';
import {
  FieldError,
  describeItem,
  fieldError,
  mapHead,
  readBool,
  readBytes,
  readSmallUint,
  readText,
  readUint,
  structEntries,
  type ReadContext,
} from './fields';
import type { DecodeError } from '../verdict';

export { KINDS, type Kind } from './dialects';

/**
 * Field names in declaration (wire) order: the newest dialect's list (dialects.ts), which holds
 * every field any dialect has, each in its place (a record's own fields are in its dialect's order).
 */
export const ENVELOPE_FIELDS: readonly EnvelopeField[] = LATEST.fields.map((f) => f.name as EnvelopeField);
export type EnvelopeField = keyof Envelope;
/** ENVELOPE_FIELDS as a set, made once (the decoder and the classifier ask it for every field). */
export const ENVELOPE_FIELD_SET: ReadonlySet<string> = new Set(ENVELOPE_FIELDS);

/** The usage fields every dialect knows between them, in order (input_tokens and output_tokens required). */
export const USAGE_FIELDS: readonly UsageField[] = LATEST.usage as readonly UsageField[];
export type UsageField = keyof Usage;

export type MetaValue =
  | { type: 'text'; value: string }
  | { type: 'int'; value: number | bigint }
  | { type: 'float'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'null' }
  | { type: 'list'; items: MetaValue[] };

export interface Usage {
  input_tokens: number | bigint;
  output_tokens: number | bigint;
  reasoning_output_tokens?: number | bigint;
  cache_read_input_tokens?: number | bigint;
  cache_creation_input_tokens?: number | bigint;
  /** 0.7: the cost in micro-units of the deployment's currency. */
  cost_micros?: number | bigint;
}

export interface SignatureContext {
  content_type?: number;
  agent_version?: number;
}

export interface SignatureCapsule {
  scheme: number;
  key_id: Uint8Array;
  bytes: Uint8Array;
  context?: SignatureContext;
}

export interface Envelope {
  kind: Kind;
  record?: Uint8Array;
  conversation: Uint8Array;
  /** 0.7: the conversation this one was spawned from. */
  parent?: Uint8Array;
  /** 0.7: the first conversation of the tree (requires parent). */
  root?: Uint8Array;
  source: string;
  target?: string;
  cause?: Uint8Array;
  cause_at?: Uint8Array;
  correlation?: Uint8Array;
  channel?: Uint8Array;
  idempotency_key?: string;
  deadline_micros?: number | bigint;
  sequence?: number | bigint;
  /** Present only when true on the wire (the reference never writes false). */
  last?: boolean;
  finish_reason?: string;
  task_state?: number;
  operation?: string;
  tool?: string;
  usage?: Usage;
  /** Sorted bytewise by key, as a BTreeMap is. */
  metadata?: Map<string, MetaValue>;
  must_understand?: number | bigint;
  body?: Uint8Array;
  signature?: SignatureCapsule;
}

/** Where a field was found: the key's bytes, the value's bytes, and the item (for the tree). */
export interface FieldLocation {
  key: Span;
  value: Span;
  item: CborItem;
}

export interface UnknownField {
  name: string;
  key: Span;
  value: Span;
  item: CborItem;
}

export interface DecodedEnvelope {
  envelope: Envelope;
  /** Keyed by dotted path: `kind`, `usage.input_tokens`, `metadata.role`, `signature.key_id`. */
  locations: Map<string, FieldLocation>;
  unknown: UnknownField[];
  /** Fields written as explicit null (absent to the reference, not canonical). */
  nulls: string[];
  /** The `last` field was written as false (absent to the reference, not canonical). */
  explicitFalse: string[];
}

export type EnvelopeResult = { ok: true; value: DecodedEnvelope } | { ok: false; error: DecodeError & { offset: number } };

const span = (item: CborItem): Span => [item.start, item.end];

// A list may hold lists: the reference's value type is recursive (laser-wire's Value::List(Vec<Value>),
// the TypeScript port's decodeValue), and a list's size for the caps is recursive too.
function readMetaValue(item: CborItem, path: string): MetaValue {
  const it = untag(item);
  switch (it.kind) {
    case 'text':
      return { type: 'text', value: readText(it, path) };
    case 'uint':
    case 'nint':
      return { type: 'int', value: it.value };
    case 'float':
      return { type: 'float', value: it.value };
    case 'simple':
      if (it.value === 20 || it.value === 21) return { type: 'bool', value: it.value === 21 };
      if (it.value === 22 || it.value === 23) return { type: 'null' };
      break;
    case 'array':
      return { type: 'list', items: it.items.map((x, i) => readMetaValue(x, `${path}[${i}]`)) };
  }
  return fieldError('agdx/field-type', `${path} must be text, an integer, a float, a bool, null or a list of these; found ${describeItem(it)}`, item.start);
}

/** Decodes one envelope from its CBOR item (or the item made from its JSON view). */
export function decodeEnvelope(item: CborItem, ctx: ReadContext = { jsonView: false }): EnvelopeResult {
  try {
    return { ok: true, value: decode(item, ctx) };
  } catch (e) {
    if (e instanceof FieldError)
      return {
        ok: false,
        error: e.span ? { code: e.code, message: e.message, offset: e.offset, span: e.span } : { code: e.code, message: e.message, offset: e.offset },
      };
    throw e;
  }
}

function decode(item: CborItem, ctx: ReadContext): DecodedEnvelope {
  const { fields, others } = structEntries(item, 'an envelope');
  const locations = new Map<string, FieldLocation>();
  const unknown: UnknownField[] = others.map((o) => ({ name: o.name, key: span(o.key), value: span(o.value), item: o.value }));
  const nulls: string[] = [];
  const explicitFalse: string[] = [];
  const known = ENVELOPE_FIELD_SET;
  const present = new Map<string, CborItem>();

  for (const f of fields.values()) {
    if (!known.has(f.name)) {
      unknown.push({ name: f.name, key: span(f.key), value: span(f.value), item: f.value });
      continue;
    }
    locations.set(f.name, { key: span(f.key), value: span(f.value), item: f.value });
    if (isNull(f.value)) nulls.push(f.name);
    else present.set(f.name, f.value);
  }

  for (const required of ['kind', 'conversation', 'source'] as const) {
    if (!present.has(required)) {
      const head = mapHead(item);
      fieldError('agdx/missing-field', `the envelope has no ${required}`, head[0], head);
    }
  }
  const kindItem = present.get('kind')!;
  const kind = readText(kindItem, 'kind');
  if (!(KINDS as readonly string[]).includes(kind)) {
    fieldError('agdx/unknown-kind', `unknown kind ${JSON.stringify(kind)}; expected one of ${KINDS.join(', ')}`, kindItem.start);
  }
  const env: Envelope = {
    kind: kind as Kind,
    conversation: readBytes(present.get('conversation')!, 'conversation', ctx, 16),
    source: readText(present.get('source')!, 'source'),
  };
  // The other fields in declaration order, each by how it is written (dialects.ts).
  const out = env as unknown as Record<string, unknown>;
  for (const { name, wire } of LATEST.fields) {
    const v = present.get(name);
    if (v === undefined || name === 'conversation' || name === 'source') continue;
    switch (wire) {
      case 'kind':
        break;
      case 'id':
        out[name] = readBytes(v, name, ctx, 16);
        break;
      case 'position':
        out[name] = readBytes(v, name, ctx, 20);
        break;
      case 'text':
        out[name] = readText(v, name);
        break;
      case 'uint':
        out[name] = readUint(v, name);
        break;
      case 'u8':
        out[name] = readSmallUint(v, name, 255);
        break;
      case 'true':
        if (readBool(v, name)) out[name] = true;
        else explicitFalse.push(name);
        break;
      case 'nonzero': {
        const n = readUint(v, name);
        if (n !== 0 && n !== 0n) out[name] = n;
        break;
      }
      case 'bytes': {
        const bytes = readBytes(v, name, ctx);
        if (bytes.length > 0) out[name] = bytes;
        break;
      }
      case 'usage':
        env.usage = readUsage(v, locations, unknown);
        break;
      case 'metadata':
        env.metadata = readMetadata(v, locations);
        break;
      case 'signature':
        env.signature = readSignature(v, ctx, locations, unknown);
        break;
    }
  }
  // Every field read: what is left to fail is in what the reference skips (unknown keys and values).
  for (const u of unknown) checkSimpleValues(u.item, u.name);
  for (const o of others) checkSimpleValues(o.key, o.name);
  return { envelope: env, locations, unknown, nulls, explicitFalse };
}

/**
 * An unknown field is skipped, not read, but the Rust reference still parses it (ciborium, for
 * serde's IgnoredAny and for field names), and that fails on a simple value other than false,
 * true, null and undefined. So does the TypeScript port. (In a field that is read, such a value is
 * already the wrong type.)
 */
function checkSimpleValues(item: CborItem, path: string): void {
  switch (item.kind) {
    case 'simple':
      if (item.value < 20 || item.value > 23)
        fieldError('agdx/field-type', `${path} holds simple(${item.value}), which the reference cannot read even where it ignores it`, item.start);
      return;
    case 'tag':
      checkSimpleValues(item.item, path);
      return;
    case 'array':
      for (const x of item.items) checkSimpleValues(x, path);
      return;
    case 'map':
      for (const e of item.entries) {
        checkSimpleValues(e.key, path);
        checkSimpleValues(e.value, path);
      }
      return;
  }
}

function readUsage(item: CborItem, locations: Map<string, FieldLocation>, unknown: UnknownField[]): Usage {
  const { fields, others } = structEntries(item, 'usage');
  for (const o of others) {
    checkSimpleValues(o.key, `usage.${o.name}`);
    unknown.push({ name: `usage.${o.name}`, key: span(o.key), value: span(o.value), item: o.value });
  }
  const out: Partial<Usage> = {};
  for (const f of fields.values()) {
    const path = `usage.${f.name}`;
    if (!(USAGE_FIELDS as readonly string[]).includes(f.name)) {
      unknown.push({ name: path, key: span(f.key), value: span(f.value), item: f.value });
      continue;
    }
    locations.set(path, { key: span(f.key), value: span(f.value), item: f.value });
    if (isNull(f.value)) continue;
    out[f.name as keyof Usage] = readUint(f.value, path);
  }
  for (const required of ['input_tokens', 'output_tokens'] as const) {
    if (out[required] === undefined) fieldError('agdx/field-type', `usage has no ${required} (required)`, item.start);
  }
  return out as Usage;
}

function readMetadata(item: CborItem, locations: Map<string, FieldLocation>): Map<string, MetaValue> {
  const it = untag(item);
  if (it.kind !== 'map') fieldError('agdx/field-type', `metadata must be a map, found ${describeItem(it)}`, item.start);
  const entries: [string, MetaValue][] = [];
  const seen = new Set<string>();
  for (const e of it.entries) {
    const key = readText(e.key, 'a metadata key');
    if (seen.has(key)) fieldError('agdx/duplicate-field', `duplicate metadata key ${JSON.stringify(key)}`, e.key.start);
    seen.add(key);
    const path = `metadata.${key}`;
    locations.set(path, { key: span(e.key), value: span(e.value), item: e.value });
    entries.push([key, readMetaValue(e.value, path)]);
  }
  entries.sort((a, b) => compareUtf8(a[0], b[0]));
  return new Map(entries);
}

function readSignature(item: CborItem, ctx: ReadContext, locations: Map<string, FieldLocation>, unknown: UnknownField[]): SignatureCapsule {
  const { fields, others } = structEntries(item, 'signature');
  for (const o of others) {
    checkSimpleValues(o.key, `signature.${o.name}`);
    unknown.push({ name: `signature.${o.name}`, key: span(o.key), value: span(o.value), item: o.value });
  }
  const sig: Partial<SignatureCapsule> = {};
  for (const f of fields.values()) {
    const path = `signature.${f.name}`;
    if (!['scheme', 'key_id', 'bytes', 'context'].includes(f.name)) {
      unknown.push({ name: path, key: span(f.key), value: span(f.value), item: f.value });
      continue;
    }
    locations.set(path, { key: span(f.key), value: span(f.value), item: f.value });
    if (isNull(f.value)) continue;
    // Lengths are checked by the signature verdict (malformed), not here, so a bad capsule is shown.
    if (f.name === 'scheme') sig.scheme = readSmallUint(f.value, path, 255);
    else if (f.name === 'key_id') sig.key_id = readBytes(f.value, path, ctx);
    else if (f.name === 'bytes') sig.bytes = readBytes(f.value, path, ctx);
    else sig.context = readSignatureContext(f.value, locations, unknown);
  }
  for (const required of ['scheme', 'key_id', 'bytes'] as const) {
    if (sig[required] === undefined) fieldError('agdx/field-type', `signature has no ${required} (required)`, item.start);
  }
  return sig as SignatureCapsule;
}

function readSignatureContext(item: CborItem, locations: Map<string, FieldLocation>, unknown: UnknownField[]): SignatureContext {
  const { fields, others } = structEntries(item, 'signature.context');
  for (const o of others) {
    checkSimpleValues(o.key, `signature.context.${o.name}`);
    unknown.push({ name: `signature.context.${o.name}`, key: span(o.key), value: span(o.value), item: o.value });
  }
  const out: SignatureContext = {};
  for (const f of fields.values()) {
    const path = `signature.context.${f.name}`;
    if (f.name !== 'content_type' && f.name !== 'agent_version') {
      unknown.push({ name: path, key: span(f.key), value: span(f.value), item: f.value });
      continue;
    }
    locations.set(path, { key: span(f.key), value: span(f.value), item: f.value });
    if (isNull(f.value)) continue;
    if (f.name === 'content_type') out.content_type = readSmallUint(f.value, path, 255);
    else out.agent_version = readSmallUint(f.value, path, 0xffffffff);
  }
  return out;
}

const utf8 = new TextEncoder();

/** Bytewise comparison of the UTF-8 encodings (a Rust BTreeMap<String, _> order). */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  // Below U+D800, UTF-16 code unit order is UTF-8 byte order: compare code units while they are there.
  const m = Math.min(a.length, b.length);
  for (let i = 0; i < m; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x >= 0xd800 || y >= 0xd800) break;
    if (x !== y) return x - y;
    if (i === m - 1) return a.length - b.length;
  }
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}
