// The bodies with shapes of their own that laser-sdk 0.7 writes (dialects.ts `bodies`): a session
// status's SessionStart, SessionTransition or SessionEnd, a parked record's SessionParking, the state
// sync events' StateDelta (an RFC 6902 patch) and StateSnapshot, and the context events'
// ContextManifest, ContextCompaction and ContextRetrieval. Each is read as the 0.7 TypeScript port
// reads it: the same fields, the same order of checks and the same words when one fails (the port
// stops at its first failure, and so does each reader here), into typed values (for the field tree,
// the comparison, and the session fold that will read them). A failure names the field's path
// (`body.sdk.language`) and its item, whose span indexes the bytes the body was read from.
//
// The CBOR underneath is read as the envelope is: tags skipped, a bignum taken where an integer
// belongs, a float never an integer (the port's cborg would refuse non-minimal heads and tags, and
// read a float 3.0 as 3: the same departures the envelope's own reading makes, docs/report.md).
import { hasControlChar, utf8Length } from '../bytes';
import type { CborItem } from '../cbor/reader';
import { readItemAt, untag } from '../cbor/reader';
import type { Dialect } from './dialects';
import type { MetaValue } from './envelope';

/** Why a body is not its shape: the port's words, the field's path, and the item it is about (null: the body as a whole). */
export class ShapeError {
  constructor(
    readonly message: string,
    readonly path: string,
    readonly item: CborItem | null,
  ) {}
}

const fail = (message: string, path: string, item: CborItem | null): never => {
  throw new ShapeError(message, path, item);
};

// ---------------------------------------------------------------------------------------------
// Typed values
// ---------------------------------------------------------------------------------------------

/** A log position (cause_at's layout): stream, topic, partition u32, offset u64, big-endian in 20 bytes. */
export interface Position {
  stream: number;
  topic: number;
  partition: number;
  offset: bigint;
}

export interface SessionStart {
  label?: string;
  namespace?: string;
  agent: string;
  sdk: { language: string; version: string };
  parent?: Uint8Array;
  root?: Uint8Array;
  idle_timeout_micros?: bigint;
  budget?: { tokens?: bigint; cost_micros?: bigint };
  tags: string[];
}

export interface SessionTransition {
  actor?: string;
  acknowledges?: Position;
}

export interface AgentError {
  code: number;
  message?: string;
  retryable: boolean;
  detail?: Map<string, MetaValue>;
}

export interface SessionEnd {
  reason?: string;
  error?: AgentError;
}

export type SessionBody = { shape: 'start'; value: SessionStart } | { shape: 'transition'; value: SessionTransition } | { shape: 'end'; value: SessionEnd };

/** Where a record points (the port's SourceRef): a log record, a key-value entry or a memory. */
export type SourceRef =
  | { kind: 'message'; stream: number; topic: number; partition: number; offset: bigint; generation?: bigint; conversation?: string }
  | { kind: 'kv'; namespace: string; key: string }
  | { kind: 'memory'; id: string };

export interface SessionParking {
  source: SourceRef;
  role: string;
  request: Position;
}

/** A JSON value as the state events carry it (objects without a prototype). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export type PatchOp =
  | { op: 'add' | 'replace' | 'test'; path: string; value: Json }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; path: string; from: string };

export interface StateDelta {
  base_revision: bigint;
  patch: PatchOp[];
  op_id: string;
}

export interface StateSnapshot {
  base_revision: bigint;
  document: Json;
}

export type Fragment =
  | { kind: 'message' | 'summary'; at: SourceRef; tokens: number; bytes: number }
  | { kind: 'memory'; id: string; version?: bigint; digest?: Uint8Array; tokens: number; bytes: number }
  | { kind: 'kv'; namespace: string; key: string; version?: bigint; digest?: Uint8Array; tokens: number; bytes: number }
  | { kind: 'state'; key: string; revision: bigint; tokens: number; bytes: number };

export interface ContextManifest {
  policy: string;
  policy_version: string;
  fragments: Fragment[];
  tokens: bigint;
  bytes: bigint;
  frontier: [number, number, bigint][];
  correlation?: Uint8Array;
}

export interface ContextCompaction {
  summary_at: SourceRef;
  covered: [number, number, bigint, bigint][];
  summarizer: { name: string; version: string };
}

export interface ContextRetrieval {
  query?: string;
  items: [string, number][];
}

// The caps the port checks (its limits.ts), as docs/report.md lists them.
export const MAX_AGENT_ID_BYTES = 256;
export const MAX_SESSION_LABEL_BYTES = 256;
export const MAX_NAMESPACE_BYTES = 128;
export const MAX_SESSION_TAGS = 16;
export const MAX_SESSION_TAG_BYTES = 64;
export const MAX_STATE_PATCH_OPS = 256;
export const MAX_STATE_DOCUMENT_BYTES = 8 * 1024 * 1024;
export const MAX_MANIFEST_FRAGMENTS = 1024;

// ---------------------------------------------------------------------------------------------
// Reading a map as the port reads it
// ---------------------------------------------------------------------------------------------

type Entry = { key: CborItem; value: CborItem };

/** A map's text-keyed entries, with the path its fields' paths start with and the port's words for it. */
class Fields {
  // The map's entries, searched in order: a body's maps are small, and most are read once.
  private readonly entries: readonly Entry[];
  constructor(
    readonly item: CborItem,
    readonly context: string,
    readonly path: string,
  ) {
    const it = untag(item);
    if (it.kind !== 'map') fail(`expected a CBOR map for ${context}`, path, item);
    this.entries = (it as Extract<CborItem, { kind: 'map' }>).entries;
  }

  private entry(key: string): Entry | undefined {
    for (const e of this.entries) {
      const k = e.key.kind === 'tag' ? untag(e.key) : e.key;
      if (k.kind === 'text' && k.value === key) return e;
    }
    return undefined;
  }

  has(key: string): boolean {
    return this.entry(key) !== undefined;
  }
  get(key: string): CborItem | undefined {
    return this.entry(key)?.value;
  }
  at(key: string): string {
    return `${this.path}.${key}`;
  }
  private required(key: string): CborItem {
    const v = this.get(key);
    if (v === undefined) fail(`missing required field \`${key}\` in ${this.context}`, this.at(key), this.item);
    return v!;
  }

  optString(key: string): string | undefined {
    const v = this.get(key);
    return v === undefined ? undefined : this.string(v, key);
  }
  reqString(key: string): string {
    return this.string(this.required(key), key);
  }
  private string(v: CborItem, key: string): string {
    const it = untag(v);
    if (it.kind !== 'text') fail(`field \`${key}\` in ${this.context} must be a string`, this.at(key), v);
    return (it as Extract<CborItem, { kind: 'text' }>).value;
  }

  optBytes(key: string): { value: Uint8Array; item: CborItem } | undefined {
    const v = this.get(key);
    return v === undefined ? undefined : { value: this.bytes(v, key), item: v };
  }
  reqBytes(key: string): { value: Uint8Array; item: CborItem } {
    const v = this.required(key);
    return { value: this.bytes(v, key), item: v };
  }
  private bytes(v: CborItem, key: string): Uint8Array {
    const it = untag(v);
    if (it.kind !== 'bytes') fail(`field \`${key}\` in ${this.context} must be bytes`, this.at(key), v);
    return (it as Extract<CborItem, { kind: 'bytes' }>).value;
  }

  optU64(key: string): bigint | undefined {
    const v = this.get(key);
    return v === undefined ? undefined : u64(v, key, this.context, this.at(key));
  }
  reqU64(key: string): bigint {
    return u64(this.required(key), key, this.context, this.at(key));
  }
  reqU32(key: string): number {
    return small(this.required(key), key, this.context, this.at(key), 0xffffffff);
  }
  reqU8(key: string): number {
    return small(this.required(key), key, this.context, this.at(key), 0xff);
  }
  reqBool(key: string): boolean {
    const v = this.required(key);
    const it = untag(v);
    if (it.kind !== 'simple' || (it.value !== 20 && it.value !== 21)) fail(`field \`${key}\` in ${this.context} must be a boolean`, this.at(key), v);
    return (it as Extract<CborItem, { kind: 'simple' }>).value === 21;
  }
  optMap(key: string): Fields | undefined {
    const v = this.get(key);
    return v === undefined ? undefined : new Fields(v, `${this.context}.${key}`, this.at(key));
  }
  reqMap(key: string): Fields {
    return new Fields(this.required(key), `${this.context}.${key}`, this.at(key));
  }
  optArray<T>(key: string, read: (item: CborItem, index: number, path: string) => T): T[] {
    const v = this.get(key);
    return v === undefined ? [] : this.array(v, key, read);
  }
  reqArray<T>(key: string, read: (item: CborItem, index: number, path: string) => T): T[] {
    return this.array(this.required(key), key, read);
  }
  private array<T>(v: CborItem, key: string, read: (item: CborItem, index: number, path: string) => T): T[] {
    const it = untag(v);
    if (it.kind !== 'array') fail(`field \`${key}\` in ${this.context} must be an array`, this.at(key), v);
    return (it as Extract<CborItem, { kind: 'array' }>).items.map((x, i) => read(x, i, `${this.at(key)}[${i}]`));
  }
}

/** The unsigned integer an item holds (a bignum included), or null: floats and negatives are not. */
function integer(v: CborItem): bigint | null {
  let it = v;
  while (it.kind === 'tag' && it.tag !== 2 && it.tag !== 3) it = it.item;
  if (it.kind === 'tag') {
    const c = it.item;
    if (c.kind !== 'bytes' || it.tag === 3) return null;
    let n = 0n;
    for (const b of c.value) n = (n << 8n) | BigInt(b);
    return n;
  }
  return it.kind === 'uint' ? BigInt(it.value) : null;
}

function u64(v: CborItem, key: string, context: string, path: string): bigint {
  const n = integer(v);
  if (n === null) fail(`field \`${key}\` in ${context} must be an unsigned integer`, path, v);
  if (n! > 0xffffffffffffffffn) fail(`field \`${key}\` in ${context} must fit u64`, path, v);
  return n!;
}

function small(v: CborItem, key: string, context: string, path: string, max: number): number {
  const n = integer(v);
  if (n === null || n > BigInt(max)) fail(`field \`${key}\` in ${context} must be an unsigned integer at most ${max}`, path, v);
  return Number(n);
}

/** What the port's parseAgentId refuses in an agent id (non-empty, at most 256 UTF-8 bytes, no C0, DEL or C1 character), or null. */
export function agentIdProblem(value: string): string | null {
  if (value.length === 0) return 'agent id must not be empty';
  const n = utf8Length(value);
  if (n > MAX_AGENT_ID_BYTES) return `agent id is ${n}B, exceeds cap ${MAX_AGENT_ID_BYTES}B`;
  if (hasControlChar(value)) return 'agent id must not contain control characters';
  return null;
}

/** What the port's validateSessionStart refuses in a label (over 256 bytes, or a control character), or null. */
export function labelProblem(label: string): string | null {
  return utf8Length(label) > MAX_SESSION_LABEL_BYTES || CONTROL.test(label) ? 'session label exceeds its cap or contains a control character' : null;
}

/** What the key-value namespace rule (the port's validateNamespace) refuses: empty, over 128 bytes, an ASCII control byte; or null. */
export function namespaceProblem(ns: string): string | null {
  if (ns.length === 0) return 'namespace must not be empty';
  const n = utf8Length(ns);
  if (n > MAX_NAMESPACE_BYTES) return `namespace is ${n}B, exceeds cap ${MAX_NAMESPACE_BYTES}B`;
  for (let i = 0; i < ns.length; i++) {
    const c = ns.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return 'namespace must not contain ASCII control characters';
  }
  return null;
}

const CONTROL = /\p{Cc}/u;

/** An agent id, or the failure its problem is. */
function agentId(value: string, path: string, item: CborItem | undefined): string {
  const problem = agentIdProblem(value);
  if (problem !== null) fail(problem, path, item ?? null);
  return value;
}

function id16(b: { value: Uint8Array; item: CborItem }, path: string): Uint8Array {
  if (b.value.length !== 16) fail(`id bytes must be 16 bytes, got ${b.value.length}`, path, b.item);
  return b.value;
}

function position(b: { value: Uint8Array; item: CborItem }, path: string): Position {
  if (b.value.length !== 20) fail(`log position must be 20 bytes, got ${b.value.length}`, path, b.item);
  const dv = new DataView(b.value.buffer, b.value.byteOffset, 20);
  return { stream: dv.getUint32(0), topic: dv.getUint32(4), partition: dv.getUint32(8), offset: dv.getBigUint64(12) };
}

/** The port's singleVariantTag: a map of exactly one entry, keyed by the variant's text tag. */
function variant(v: CborItem | undefined, context: string, path: string, parent: CborItem): { tag: string; inner: CborItem; item: CborItem } {
  if (v === undefined) return fail(`expected a CBOR map for ${context}`, path, parent);
  const it = untag(v);
  if (it.kind !== 'map') return fail(`expected a CBOR map for ${context}`, path, v);
  if (it.entries.length !== 1) return fail(`expected exactly one variant tag in ${context}`, path, v);
  const k = untag(it.entries[0].key);
  if (k.kind !== 'text') return fail(`variant tag in ${context} must be a string`, path, v);
  return { tag: k.value, inner: it.entries[0].value, item: v };
}

function sourceRef(v: CborItem | undefined, context: string, path: string, parent: CborItem): SourceRef {
  const { tag, inner } = variant(v, context, path, parent);
  const inPath = `${path}.${tag}`;
  switch (tag) {
    case 'Message': {
      const f = new Fields(inner, context, inPath);
      const conversation = f.optString('conversation');
      const generation = f.optU64('generation');
      const ref: SourceRef = {
        kind: 'message',
        stream: f.reqU32('stream'),
        topic: f.reqU32('topic'),
        partition: f.reqU32('partition'),
        offset: f.reqU64('offset'),
      };
      if (generation !== undefined) ref.generation = generation;
      if (conversation !== undefined) ref.conversation = conversation;
      return ref;
    }
    case 'Kv': {
      const f = new Fields(inner, context, inPath);
      return { kind: 'kv', namespace: f.reqString('namespace'), key: f.reqString('key') };
    }
    case 'Memory':
      return { kind: 'memory', id: new Fields(inner, context, inPath).reqString('id') };
    default:
      return fail(`\`${tag}\` is not a recognized source ref variant`, path, v!);
  }
}

// ---------------------------------------------------------------------------------------------
// The body as one CBOR map
// ---------------------------------------------------------------------------------------------

/** A repeated text or integer key in any map of the item (the port's cborg refuses one anywhere), or null. */
function repeatedKey(item: CborItem): CborItem | null {
  switch (item.kind) {
    case 'tag':
      return repeatedKey(item.item);
    case 'array':
      for (const x of item.items) {
        const r = repeatedKey(x);
        if (r) return r;
      }
      return null;
    case 'map': {
      const entries = item.entries;
      // Pairwise for the small maps bodies hold (nothing allocated); by a set of names past that.
      const seen = entries.length > 16 ? new Set<string>() : null;
      for (let i = 0; i < entries.length; i++) {
        const k = untag(entries[i].key);
        if (k.kind === 'text' || k.kind === 'uint' || k.kind === 'nint') {
          if (seen) {
            const name = `${k.kind === 'text' ? 't' : 'i'}${k.value}`;
            if (seen.has(name)) return entries[i].key;
            seen.add(name);
          } else {
            for (let j = 0; j < i; j++) {
              const o = untag(entries[j].key);
              if ((o.kind === 'text') === (k.kind === 'text') && (o.kind === 'text' || o.kind === 'uint' || o.kind === 'nint') && o.value === k.value)
                return entries[i].key;
            }
          }
        }
        const r = repeatedKey(entries[i].value);
        if (r) return r;
      }
      return null;
    }
    default:
      return null;
  }
}

/**
 * The body's one CBOR item, as the port's decodeOne and expectMap read it, or the failure in the
 * port's words. The body is `bytes[start, end)`: its items' spans index `bytes` (the record's bytes
 * when the caller has them, else the body itself from 0).
 */
export function bodyItem(bytes: Uint8Array, start: number, end: number, context: string): CborItem {
  const r = readItemAt(bytes.subarray(0, end), start);
  if (!r.ok) return fail(`failed to decode ${context}: ${r.error.message}`, 'body', null);
  if (r.value.end !== end) return fail(`failed to decode ${context}: ${end - r.value.end} bytes after the CBOR item`, 'body', null);
  const dup = repeatedKey(r.value);
  if (dup) return fail(`failed to decode ${context}: a map repeats a key`, 'body', dup);
  if (untag(r.value).kind !== 'map') return fail(`expected a CBOR map for ${context}`, 'body', r.value);
  return r.value;
}

// ---------------------------------------------------------------------------------------------
// Sessions
// ---------------------------------------------------------------------------------------------

/** Which body a session status of `state` carries: a start (submitted; working with agent or sdk), an end (terminal), else a transition. */
export function sessionShapeFor(state: number, item: CborItem, terminal: ReadonlySet<number>): SessionBody['shape'] {
  if (state === 1) return 'start';
  if (state === 2) return startKeys(item) ? 'start' : 'transition';
  return terminal.has(state) ? 'end' : 'transition';
}

/** Whether a body map names the agent or the SDK: what tells a start from a transition (the port's isSessionStart). */
export function startKeys(item: CborItem): boolean {
  const it = untag(item);
  return (
    it.kind === 'map' &&
    it.entries.some((e) => {
      const k = untag(e.key);
      return k.kind === 'text' && (k.value === 'agent' || k.value === 'sdk');
    })
  );
}

/** The session body of a status in `state` (the map `item`), as the port's validator decodes it. */
export function readSessionBody(item: CborItem, state: number, terminal: ReadonlySet<number>): SessionBody {
  const shape = sessionShapeFor(state, item, terminal);
  if (shape === 'start') return { shape, value: readSessionStart(item) };
  if (shape === 'end') return { shape, value: readSessionEnd(item) };
  return { shape, value: readSessionTransition(item) };
}

/** What a record needs to have its shaped body read: its kind, operation, task state and body bytes. */
export interface ShapedRecord {
  readonly kind: string;
  readonly operation?: string;
  readonly task_state?: number;
  readonly body?: Uint8Array;
}

/**
 * A session status's body as a session fold reads it (the same readers the validator judges it
 * with): the SessionStart, SessionTransition or SessionEnd its state calls for. Null when the record
 * is not a status of its dialect's session operation, has no task state or body, or its body is not
 * the shape its state calls for (the record's agdx/session/body finding says why).
 */
export function sessionBodyOf(env: ShapedRecord, dialect: Dialect): SessionBody | null {
  if (env.kind !== 'status' || dialect.sessionOperation === null || env.operation !== dialect.sessionOperation) return null;
  if (env.task_state === undefined || !env.body?.length) return null;
  return shapedOrNull(() => readSessionBody(bodyItem(env.body!, 0, env.body!.length, 'session body'), env.task_state!, dialect.terminal));
}

/**
 * A parked or unparked record's SessionParking (what waits, and for which request), or null when
 * the record's dialect gives its operation no parking body, or the body is not one (the record's
 * agdx/session/parking finding says why).
 */
export function parkingOf(env: ShapedRecord, dialect: Dialect): SessionParking | null {
  if (env.operation === undefined || !env.body) return null;
  if (dialect.bodies[`${env.kind}/${env.operation}`]?.shape !== 'session_parking') return null;
  return shapedOrNull(() => readSessionParking(bodyItem(env.body!, 0, env.body!.length, 'session parking')));
}

function shapedOrNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch (e) {
    if (e instanceof ShapeError) return null;
    throw e;
  }
}

export function readSessionStart(item: CborItem): SessionStart {
  const f = new Fields(item, 'session start', 'body');
  const label = f.optString('label');
  const namespace = f.optString('namespace');
  const sdk = f.reqMap('sdk');
  const parent = f.optBytes('parent');
  const root = f.optBytes('root');
  const idle = f.optU64('idle_timeout_micros');
  const budget = f.optMap('budget');
  const tags = f.optArray('tags', (x, i, path) => {
    const t = untag(x);
    if (t.kind !== 'text') fail(`session tag ${i} must be a string`, path, x);
    return (t as Extract<CborItem, { kind: 'text' }>).value;
  });
  const start: SessionStart = {
    agent: agentId(f.reqString('agent'), f.at('agent'), f.get('agent')),
    sdk: { language: sdk.reqString('language'), version: sdk.reqString('version') },
    tags,
  };
  if (label !== undefined) start.label = label;
  if (namespace !== undefined) start.namespace = namespace;
  if (parent) start.parent = id16(parent, f.at('parent'));
  if (root) start.root = id16(root, f.at('root'));
  if (idle !== undefined) start.idle_timeout_micros = idle;
  if (budget) {
    const b: NonNullable<SessionStart['budget']> = {};
    const tokens = budget.optU64('tokens');
    const cost = budget.optU64('cost_micros');
    if (tokens !== undefined) b.tokens = tokens;
    if (cost !== undefined) b.cost_micros = cost;
    start.budget = b;
  }
  // The port's validateSessionStart.
  const labelWrong = start.label !== undefined ? labelProblem(start.label) : null;
  if (labelWrong !== null) fail(labelWrong, f.at('label'), f.get('label')!);
  const namespaceWrong = start.namespace !== undefined ? namespaceProblem(start.namespace) : null;
  if (namespaceWrong !== null) fail(namespaceWrong, f.at('namespace'), f.get('namespace')!);
  if (start.root !== undefined && start.parent === undefined) fail('session root requires a parent', f.at('root'), f.get('root')!);
  if (start.tags.length > MAX_SESSION_TAGS) fail('session has too many tags', f.at('tags'), f.get('tags')!);
  const long = start.tags.findIndex((t) => utf8Length(t) > MAX_SESSION_TAG_BYTES);
  if (long >= 0) fail('session tag exceeds its byte cap', `${f.at('tags')}[${long}]`, f.get('tags')!);
  return start;
}

/** Why a start body's lineage is not the envelope's (the port's validateStartAncestry), or null. */
export function startLineageMismatch(start: SessionStart, parent: Uint8Array | undefined, root: Uint8Array | undefined): string | null {
  const same = (a: Uint8Array | undefined, b: Uint8Array | undefined) =>
    a === undefined ? b === undefined : b !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);
  return same(start.parent, parent) && same(start.root, root) ? null : 'session ancestry must match envelope parent and root';
}

export function readSessionTransition(item: CborItem): SessionTransition {
  const f = new Fields(item, 'session transition', 'body');
  const actor = f.optString('actor');
  const acknowledges = f.optBytes('acknowledges');
  const out: SessionTransition = {};
  if (actor !== undefined) out.actor = agentId(actor, f.at('actor'), f.get('actor'));
  if (acknowledges) out.acknowledges = position(acknowledges, f.at('acknowledges'));
  return out;
}

export function readSessionEnd(item: CborItem): SessionEnd {
  const f = new Fields(item, 'session end', 'body');
  const reason = f.optString('reason');
  const error = f.optMap('error');
  const out: SessionEnd = {};
  if (reason !== undefined) out.reason = reason;
  if (error) out.error = readAgentError(error);
  return out;
}

/** The port's decodeAgentErrorBody (an AgentErrorBody inside another body). */
function readAgentError(f: Fields): AgentError {
  const message = f.optString('message');
  const detail = f.optMap('detail');
  const out: AgentError = { code: f.reqU8('code'), retryable: f.has('retryable') ? f.reqBool('retryable') : false };
  if (message !== undefined) out.message = message;
  if (detail) {
    const values = new Map<string, MetaValue>();
    const d = untag(detail.item) as Extract<CborItem, { kind: 'map' }>;
    for (const e of d.entries) {
      const k = untag(e.key);
      if (k.kind !== 'text') fail(`expected a string-keyed map in ${f.context}`, detail.path, e.key);
      const name = (k as Extract<CborItem, { kind: 'text' }>).value;
      values.set(name, value(e.value, `${f.context}.${name}`, `${detail.path}.${name}`));
    }
    out.detail = values;
  }
  return out;
}

/** The port's decodeValue: text, an integer, a float, a bool, null or a list of these. */
function value(v: CborItem, context: string, path: string): MetaValue {
  const it = untag(v);
  switch (it.kind) {
    case 'text':
      return { type: 'text', value: it.value };
    case 'uint':
    case 'nint':
      return { type: 'int', value: it.value };
    case 'float':
      return Number.isInteger(it.value) ? { type: 'int', value: it.value } : { type: 'float', value: it.value };
    case 'simple':
      if (it.value === 20 || it.value === 21) return { type: 'bool', value: it.value === 21 };
      if (it.value === 22) return { type: 'null' };
      break;
    case 'array':
      return { type: 'list', items: it.items.map((x, i) => value(x, `${context}[${i}]`, `${path}[${i}]`)) };
  }
  const big = integer(v);
  if (big !== null) return { type: 'int', value: big };
  return fail(`cannot decode value in ${context}`, path, v);
}

export function readSessionParking(item: CborItem): SessionParking {
  const f = new Fields(item, 'session parking', 'body');
  const out: SessionParking = {
    source: sourceRef(f.get('source'), 'session parking.source', f.at('source'), item),
    role: agentId(f.reqString('role'), f.at('role'), f.get('role')),
    request: position(f.reqBytes('request'), f.at('request')),
  };
  // The port's validateSessionParking.
  if (out.source.kind !== 'message') fail('a parked record must point at a log record', f.at('source'), f.get('source')!);
  else if (out.source.generation === undefined) fail('a parked record must name its source topic generation', f.at('source'), f.get('source')!);
  return out;
}

// ---------------------------------------------------------------------------------------------
// State: JSON documents and RFC 6902 patches
// ---------------------------------------------------------------------------------------------

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The port's cborToJson: CBOR as JSON, integers within the exact range, maps keyed by text. */
function json(v: CborItem | undefined, context: string, path: string, parent: CborItem): Json {
  if (v === undefined) return fail('state document must be JSON', path, parent);
  const it = untag(v);
  switch (it.kind) {
    case 'text':
      return it.value;
    case 'simple':
      if (it.value === 20 || it.value === 21) return it.value === 21;
      if (it.value === 22) return null;
      break;
    case 'float':
      if (Number.isInteger(it.value) && !Number.isSafeInteger(it.value)) fail('state JSON integer is outside the exact number range', path, v);
      return it.value;
    case 'uint':
    case 'nint': {
      const n = BigInt(it.value);
      if (n > SAFE || n < -SAFE) fail('state JSON integer is outside the exact number range', path, v);
      return Number(n);
    }
    case 'array':
      return it.items.map((x, i) => json(x, context, `${path}[${i}]`, v));
    case 'map': {
      const out = Object.create(null) as { [key: string]: Json };
      for (const e of it.entries) {
        const k = untag(e.key);
        if (k.kind !== 'text') fail('state object key must be text', path, e.key);
        const name = (k as Extract<CborItem, { kind: 'text' }>).value;
        out[name] = json(e.value, context, `${path}.${name}`, v);
      }
      return out;
    }
  }
  const big = integer(v);
  if (big !== null) {
    if (big > SAFE) fail('state JSON integer is outside the exact number range', path, v);
    return Number(big);
  }
  return fail('state document must be JSON', path, v);
}

/** The port's jsonBytes: the UTF-8 length of the value's JSON text, after checking it is portable JSON. */
function jsonBytes(value: unknown, path: string, item: CborItem | null): number {
  const portable = (x: unknown): void => {
    if (typeof x === 'number') {
      if (!Number.isFinite(x)) fail('state value must be JSON', path, item);
      if (Number.isInteger(x) && !Number.isSafeInteger(x)) fail('state JSON integer exceeds the exact number range', path, item);
    } else if (Array.isArray(x)) x.forEach(portable);
    else if (x !== null && typeof x === 'object') Object.values(x).forEach(portable);
  };
  portable(value);
  return utf8Length(JSON.stringify(value));
}

function patchOp(v: CborItem, context: string, path: string): PatchOp {
  const f = new Fields(v, context, path);
  const op = f.reqString('op');
  const at = f.reqString('path');
  switch (op) {
    case 'add':
    case 'replace':
    case 'test':
      if (!f.has('value')) fail('state patch value is missing', f.at('value'), v);
      return { op, path: at, value: json(f.get('value'), context, f.at('value'), v) };
    case 'remove':
      return { op, path: at };
    case 'move':
    case 'copy':
      return { op, path: at, from: f.reqString('from') };
    default:
      return fail(`unknown state patch operation ${op}`, f.at('op'), f.get('op')!);
  }
}

export function readStateDelta(item: CborItem): StateDelta {
  const f = new Fields(item, 'state delta', 'body');
  const delta: StateDelta = {
    base_revision: f.reqU64('base_revision'),
    patch: f.reqArray('patch', (x, i, path) => patchOp(x, `state delta.patch[${i}]`, path)),
    op_id: f.reqString('op_id'),
  };
  // The port's validateStateDelta.
  if (delta.patch.length > MAX_STATE_PATCH_OPS) fail('state patch has too many operations', f.at('patch'), f.get('patch')!);
  if (delta.op_id.length === 0) fail('state patch operation id must not be empty', f.at('op_id'), f.get('op_id')!);
  if (jsonBytes(delta.patch, f.at('patch'), f.get('patch')!) > MAX_STATE_DOCUMENT_BYTES)
    fail('state patch exceeds the document byte cap', f.at('patch'), f.get('patch')!);
  return delta;
}

export function readStateSnapshot(item: CborItem): StateSnapshot {
  const f = new Fields(item, 'state snapshot', 'body');
  const snapshot: StateSnapshot = { base_revision: f.reqU64('base_revision'), document: json(f.get('document'), 'state snapshot', f.at('document'), item) };
  if (jsonBytes(snapshot.document, f.at('document'), f.get('document') ?? item) > MAX_STATE_DOCUMENT_BYTES)
    fail('state document exceeds its byte cap', f.at('document'), f.get('document')!);
  return snapshot;
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

function fragment(v: CborItem, context: string, path: string): Fragment {
  const { tag, inner } = variant(v, context, path, v);
  const f = new Fields(inner, context, `${path}.${tag}`);
  const tokens = f.reqU32('tokens');
  const bytes = f.reqU32('bytes');
  switch (tag) {
    case 'Message':
    case 'Summary':
      return { kind: tag === 'Message' ? 'message' : 'summary', at: sourceRef(f.get('at'), context, f.at('at'), inner), tokens, bytes };
    case 'Memory':
    case 'Kv': {
      const version = f.optU64('version');
      const digest = f.optBytes('digest');
      if (digest && digest.value.length !== 32) fail('context fragment digest must be 32 bytes', f.at('digest'), digest.item);
      const optional: { version?: bigint; digest?: Uint8Array } = {};
      if (version !== undefined) optional.version = version;
      if (digest) optional.digest = digest.value;
      return tag === 'Memory'
        ? { kind: 'memory', id: f.reqString('id'), tokens, bytes, ...optional }
        : { kind: 'kv', namespace: f.reqString('namespace'), key: f.reqString('key'), tokens, bytes, ...optional };
    }
    case 'State':
      return { kind: 'state', key: f.reqString('key'), revision: f.reqU64('revision'), tokens, bytes };
    default:
      return fail(`unknown context fragment ${tag}`, path, v);
  }
}

/** An item of a list of integer tuples (a frontier entry, a covered range): `n` integers, u32 then u64s. */
function tuple(v: CborItem, n: number, names: readonly string[], why: string, context: string, path: string): (number | bigint)[] {
  const it = untag(v);
  if (it.kind !== 'array' || it.items.length !== n) fail(why, path, v);
  return (it as Extract<CborItem, { kind: 'array' }>).items.map((x, i) =>
    i < 2 ? small(x, 'value', `${context}.${names[i]}`, `${path}[${i}]`, 0xffffffff) : u64(x, 'value', `${context}.${names[i]}`, `${path}[${i}]`),
  );
}

export function readContextManifest(item: CborItem): ContextManifest {
  const context = 'context manifest';
  const f = new Fields(item, context, 'body');
  const fragments = f.reqArray('fragments', (x, i, path) => fragment(x, `${context}.fragments[${i}]`, path));
  if (fragments.length > MAX_MANIFEST_FRAGMENTS) fail('context manifest has too many fragments', f.at('fragments'), f.get('fragments')!);
  const correlation = f.optBytes('correlation');
  const out: ContextManifest = {
    policy: f.reqString('policy'),
    policy_version: f.reqString('policy_version'),
    fragments,
    tokens: f.reqU64('tokens'),
    bytes: f.reqU64('bytes'),
    frontier: f.reqArray(
      'frontier',
      (x, i, path) =>
        tuple(x, 3, ['topic', 'partition', 'offset'], 'context frontier entry must have three integers', `${context}.frontier[${i}]`, path) as [
          number,
          number,
          bigint,
        ],
    ),
  };
  if (correlation) out.correlation = id16(correlation, f.at('correlation'));
  return out;
}

export function readContextCompaction(item: CborItem): ContextCompaction {
  const context = 'context compaction';
  const f = new Fields(item, context, 'body');
  const summaryAt = sourceRef(f.get('summary_at'), `${context}.summary_at`, f.at('summary_at'), item);
  const covered = f.reqArray(
    'covered',
    (x, i, path) =>
      tuple(x, 4, ['topic', 'partition', 'from', 'to'], 'covered range must have four integers', `${context}.covered[${i}]`, path) as [
        number,
        number,
        bigint,
        bigint,
      ],
  );
  const s = f.reqMap('summarizer');
  return { summary_at: summaryAt, covered, summarizer: { name: s.reqString('name'), version: s.reqString('version') } };
}

export function readContextRetrieval(item: CborItem): ContextRetrieval {
  const context = 'context retrieval';
  const f = new Fields(item, context, 'body');
  const query = f.optString('query');
  const items = f.reqArray('items', (x, i, path): [string, number] => {
    const it = untag(x);
    const score = it.kind === 'array' && it.items.length === 2 ? untag(it.items[1]) : null;
    const isNumber = score !== null && (score.kind === 'float' || ((score.kind === 'uint' || score.kind === 'nint') && typeof score.value === 'number'));
    if (!isNumber) fail('retrieval item must contain an id and score', path, x);
    const [idItem] = (it as Extract<CborItem, { kind: 'array' }>).items;
    const id = untag(idItem);
    if (id.kind !== 'text') fail(`expected a string in ${context}.items[${i}].id`, `${path}[0]`, idItem);
    return [(id as Extract<CborItem, { kind: 'text' }>).value, (score as { value: number }).value];
  });
  const out: ContextRetrieval = { items };
  if (query !== undefined) out.query = query;
  return out;
}

/**
 * Whether a body is a CBOR map with the text key `key` at its top level (dialects.ts BodyHasKey):
 * its heads read where they are and the values skipped, nothing built (the dialect is told for
 * every record of a log). Anything that is not such a map, or does not read, is no.
 */
export function bodyHasKey(body: Uint8Array, key: string): boolean {
  const want = keyBytes(key);
  const top = headAt(body, 0);
  if (top === null || top.major !== 5) return false;
  let p = top.next;
  for (let i = 0; top.count < 0 || i < top.count; i++) {
    if (top.count < 0 && body[p] === 0xff) return false;
    const k = headAt(body, p);
    if (k === null) return false;
    if (k.major === 3 && k.count === want.length && k.next + want.length <= body.length) {
      let j = 0;
      while (j < want.length && body[k.next + j] === want[j]) j++;
      if (j === want.length) return true;
    }
    const afterKey = skip(body, p, 0);
    if (afterKey < 0) return false;
    p = skip(body, afterKey, 0);
    if (p < 0) return false;
  }
  return false;
}

const KEY_BYTES = new Map<string, Uint8Array>();
function keyBytes(key: string): Uint8Array {
  let b = KEY_BYTES.get(key);
  if (!b) KEY_BYTES.set(key, (b = new TextEncoder().encode(key)));
  return b;
}

/** A head at `p`: its major type, its argument (-1 for an indefinite length) and where its content starts. */
function headAt(b: Uint8Array, p: number): { major: number; count: number; next: number } | null {
  if (p >= b.length) return null;
  const ib = b[p];
  const major = ib >> 5;
  const ai = ib & 31;
  if (ai < 24) return { major, count: ai, next: p + 1 };
  if (ai === 31) return major >= 2 && major <= 5 ? { major, count: -1, next: p + 1 } : major === 7 ? { major, count: 0, next: p + 1 } : null;
  const n = ai === 24 ? 1 : ai === 25 ? 2 : ai === 26 ? 4 : ai === 27 ? 8 : 0;
  if (n === 0 || p + 1 + n > b.length) return null;
  let v = 0;
  for (let i = 0; i < n; i++) v = v * 256 + b[p + 1 + i];
  return { major, count: major === 7 ? 0 : v, next: p + 1 + n };
}

/** Where the item at `p` ends, or -1. */
function skip(b: Uint8Array, p: number, depth: number): number {
  if (depth > 64) return -1;
  const h = headAt(b, p);
  if (h === null) return -1;
  switch (h.major) {
    case 0:
    case 1:
    case 7:
      return h.next;
    case 2:
    case 3: {
      if (h.count >= 0) return h.next + h.count <= b.length ? h.next + h.count : -1;
      let q = h.next;
      while (q < b.length && b[q] !== 0xff) {
        q = skip(b, q, depth + 1);
        if (q < 0) return -1;
      }
      return q < b.length ? q + 1 : -1;
    }
    case 6:
      return skip(b, h.next, depth + 1);
    default: {
      // 4 (array) or 5 (map): items, or key-value pairs.
      const per = h.major === 5 ? 2 : 1;
      let q = h.next;
      if (h.count < 0) {
        while (q < b.length && b[q] !== 0xff) {
          q = skip(b, q, depth + 1);
          if (q < 0) return -1;
        }
        return q < b.length ? q + 1 : -1;
      }
      if (h.count * per > b.length - q) return -1;
      for (let i = 0; i < h.count * per; i++) {
        q = skip(b, q, depth + 1);
        if (q < 0) return -1;
      }
      return q;
    }
  }
}
