// The AGDX dialects as data: what each generation of writers puts on the wire. `0.0.1` is the
// laser-wire 0.0.1 crate of agdx-v1.md; `0.7` is what laser-sdk writes from its 0.7.0 release on
// (vectors/agdx/laser-sdk-ts-0.7.0/ORIGIN.md; its TypeScript wire port is the spec where agdx-v1.md
// is silent). The general decoder (envelope.ts), the fast path (fast.ts), the canonical encoder
// (canonical.ts), the validator (validate.ts), the body readers (bodies.ts) and the header checks
// (headers.ts) all read these tables, so a rule is written once; a later dialect is one more entry,
// whose additions over the one before it are also what marks a record as written in it.
//
// Every dialect keeps its predecessor's fields in their order and adds to them (0.7 put `parent` and
// `root` between `conversation` and `source`): the last dialect's field list is the union, and a
// record's own fields in it are in the order of whichever dialect wrote it. This file imports
// nothing: the readers of each body shape are named here and live with the bodies.
import type { Severity } from '../rules';

export const KINDS = ['command', 'response', 'event', 'chunk', 'status', 'error'] as const;
export type Kind = (typeof KINDS)[number];

/**
 * How a field is written (and so read, by both decoders, and encoded): `id` a 16-byte byte string,
 * `position` a 20-byte log position, `text`, `uint` (u64), `u8`, `true` (a bool written only when
 * true), `nonzero` (a u64 written only when not 0), `bytes` (written only when not empty), and the
 * structs `usage`, `metadata` and `signature`.
 */
export type WireType = 'kind' | 'id' | 'position' | 'text' | 'uint' | 'u8' | 'true' | 'nonzero' | 'bytes' | 'usage' | 'metadata' | 'signature';

export interface FieldSpec {
  readonly name: string;
  readonly wire: WireType;
}

/** A body with a shape of its own: the reader that reads it (bodies.ts), by name. */
export type BodyShapeName = 'session' | 'session_parking' | 'state_delta' | 'state_snapshot' | 'context_manifest' | 'context_compaction' | 'context_retrieval';

export interface BodyShape {
  readonly shape: BodyShapeName;
  /**
   * A key whose presence in a CBOR map body marks the record as this dialect's, for an operation an
   * earlier dialect already had under another shape (0.0.1's state sync carried a JSON Patch body).
   */
  readonly marker?: string;
}

/** An Iggy header only this dialect writes (by name; by kind or value when older writers had the name too). */
export interface HeaderMark {
  readonly name: string;
  readonly kind?: string;
  readonly value?: string;
}

export interface DialectHeaders {
  /** The header kinds gen_ai.conversation.id may have: `uint128` (little-endian), `string` (the Crockford id). */
  readonly conversation: readonly string[];
  /** `agdx.to` = `*` addresses every agent (a record without a target). */
  readonly broadcast: boolean;
  /** `gen_ai.agent.id` names the source. */
  readonly agent: boolean;
  /** `agdx.parent_conv` / `agdx.root_conv` name the envelope's parent and root. */
  readonly lineage: boolean;
  readonly marks: readonly HeaderMark[];
}

export interface Dialect {
  readonly id: '0.0.1' | '0.7';
  /** Who writes it, for people. */
  readonly writer: string;
  /** The envelope's fields in declaration order (encode order, signing order). */
  readonly fields: readonly FieldSpec[];
  readonly usage: readonly string[];
  /** Task state codes and their names (A2A v0.3 order; unknown codes are `unrecognized-N`). */
  readonly taskStates: Readonly<Record<number, string>>;
  readonly terminal: ReadonlySet<number>;
  /** The closed vocabulary of status operations. */
  readonly statusOperations: readonly string[];
  /** Status operations that require task_state. */
  readonly taskStateFor: readonly string[];
  /** Operations, by kind, this dialect gives a meaning the one before it did not (its marks). */
  readonly operations: Readonly<Partial<Record<Kind, readonly string[]>>>;
  /** Bodies with shapes of their own, by `kind/operation`. */
  readonly bodies: Readonly<Record<string, BodyShape>>;
  /** parent and root: root needs parent, neither may be the conversation. */
  readonly lineage: boolean;
  /** The status operation whose records are a session's lifecycle, or null. */
  readonly sessionOperation: string | null;
  /**
   * What an unmet must_understand is: an error (0.0.1's receiver must reject the message), or a
   * warning (0.7's validator accepts the envelope; a receiver that implements none of the bits
   * refuses it when it handles it).
   */
  readonly mustUnderstand: Severity;
  /** The reader refuses, while decoding, an agent id (source, target) or idempotency key outside its caps. */
  readonly idsAtDecode: boolean;
  readonly headers: DialectHeaders;
}

const FIELDS_001: readonly FieldSpec[] = [
  { name: 'kind', wire: 'kind' },
  { name: 'record', wire: 'id' },
  { name: 'conversation', wire: 'id' },
  { name: 'source', wire: 'text' },
  { name: 'target', wire: 'text' },
  { name: 'cause', wire: 'id' },
  { name: 'cause_at', wire: 'position' },
  { name: 'correlation', wire: 'id' },
  { name: 'channel', wire: 'id' },
  { name: 'idempotency_key', wire: 'text' },
  { name: 'deadline_micros', wire: 'uint' },
  { name: 'sequence', wire: 'uint' },
  { name: 'last', wire: 'true' },
  { name: 'finish_reason', wire: 'text' },
  { name: 'task_state', wire: 'u8' },
  { name: 'operation', wire: 'text' },
  { name: 'tool', wire: 'text' },
  { name: 'usage', wire: 'usage' },
  { name: 'metadata', wire: 'metadata' },
  { name: 'must_understand', wire: 'nonzero' },
  { name: 'body', wire: 'bytes' },
  { name: 'signature', wire: 'signature' },
];

const TASK_STATES_001: Readonly<Record<number, string>> = {
  1: 'submitted',
  2: 'working',
  3: 'input-required',
  4: 'completed',
  5: 'canceled',
  6: 'failed',
  7: 'rejected',
  8: 'auth-required',
  9: 'unknown',
};
const TERMINAL = new Set([4, 5, 6, 7]);

const USAGE_001 = ['input_tokens', 'output_tokens', 'reasoning_output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'];
const STATUS_OPERATIONS_001 = ['task', 'card', 'progress', 'quarantine', 'unquarantine'];

export const DIALECT_001: Dialect = {
  id: '0.0.1',
  writer: 'laser-wire 0.0.1 (agdx-v1.md)',
  fields: FIELDS_001,
  usage: USAGE_001,
  taskStates: TASK_STATES_001,
  terminal: TERMINAL,
  statusOperations: STATUS_OPERATIONS_001,
  taskStateFor: ['task'],
  operations: {},
  bodies: {},
  lineage: false,
  sessionOperation: null,
  mustUnderstand: 'error',
  idsAtDecode: false,
  headers: { conversation: ['uint128'], broadcast: false, agent: false, lineage: false, marks: [] },
};

/** `fields` with `added` put right after the field named `after`. */
function inserted(fields: readonly FieldSpec[], after: string, added: readonly FieldSpec[]): FieldSpec[] {
  const at = fields.findIndex((f) => f.name === after) + 1;
  if (at === 0) throw new TypeError(`dialects: no field ${after}`);
  return [...fields.slice(0, at), ...added, ...fields.slice(at)];
}

export const DIALECT_07: Dialect = {
  id: '0.7',
  writer: 'laser-sdk 0.7 and later (its TypeScript wire port)',
  fields: inserted(FIELDS_001, 'conversation', [
    { name: 'parent', wire: 'id' },
    { name: 'root', wire: 'id' },
  ]),
  usage: [...USAGE_001, 'cost_micros'],
  taskStates: { ...TASK_STATES_001, 10: 'paused' },
  terminal: TERMINAL,
  statusOperations: ['task', 'session', 'card', 'progress', 'quarantine', 'unquarantine'],
  taskStateFor: ['task', 'session'],
  operations: {
    status: ['session'],
    event: ['session_parked', 'session_unparked', 'context_assembled', 'context_compacted', 'context_retrieved', 'policy_decision'],
    command: ['session_pause', 'session_resume', 'session_cancel', 'force_cancel'],
  },
  bodies: {
    'status/session': { shape: 'session' },
    'event/session_parked': { shape: 'session_parking' },
    'event/session_unparked': { shape: 'session_parking' },
    'event/state_delta': { shape: 'state_delta', marker: 'base_revision' },
    'event/state_snapshot': { shape: 'state_snapshot', marker: 'base_revision' },
    'event/context_assembled': { shape: 'context_manifest' },
    'event/context_compacted': { shape: 'context_compaction' },
    'event/context_retrieved': { shape: 'context_retrieval' },
  },
  lineage: true,
  sessionOperation: 'session',
  mustUnderstand: 'warning',
  idsAtDecode: true,
  headers: {
    conversation: ['uint128', 'string'],
    broadcast: true,
    agent: true,
    lineage: true,
    marks: [
      { name: 'gen_ai.conversation.id', kind: 'string' },
      { name: 'agdx.to', value: '*' },
      { name: 'gen_ai.agent.id' },
      { name: 'agdx.parent_conv' },
      { name: 'agdx.root_conv' },
    ],
  },
};

/** Every dialect, oldest first. */
export const DIALECTS: readonly Dialect[] = [DIALECT_001, DIALECT_07];
/** The newest: its field list holds every field any dialect has, each in its place. */
export const LATEST: Dialect = DIALECTS[DIALECTS.length - 1];

/** The bare minimum of a record the dialect is told from: what any reader of it has at hand. */
export interface DialectInput {
  readonly kind: string;
  readonly task_state?: number;
  readonly operation?: string;
  readonly usage?: object;
  readonly body?: Uint8Array;
  /** The envelope's other fields (those present are not undefined). */
  readonly [field: string]: unknown;
}

/** One header as the dialect check needs it: its name, kind and (for strings) text. */
export interface DialectHeader {
  readonly name: string;
  readonly kind: string;
  readonly text: string | null;
}

export interface DialectVerdict {
  readonly dialect: Dialect;
  /** The field paths (`parent`, `usage.cost_micros`, `task_state`, `operation`, `body`) and headers (`headers.<name>`) that decided it. */
  readonly evidence: readonly string[];
}

/**
 * Whether a body (a CBOR map) holds the text key `marker` at its top level: read from the bytes,
 * without decoding the body (a definite or indefinite map of text keys; anything else is no).
 */
export type BodyHasKey = (body: Uint8Array, key: string) => boolean;

/** No evidence of a dialect: one shared, frozen list (the oldest dialect's, and every record that is not an envelope). */
export const NO_EVIDENCE: readonly string[] = Object.freeze([]);
const OLDEST: DialectVerdict = Object.freeze({ dialect: DIALECTS[0], evidence: NO_EVIDENCE });

/**
 * What a dialect adds over the one before it, worked out once from the tables: each addition is a
 * bit of a record's evidence (fields, usage fields, then task_state, operation, body, then the
 * header marks), so a record's evidence is a number, and each number's list of names is made once.
 */
interface Additions {
  readonly dialect: Dialect;
  readonly fields: readonly string[];
  readonly usage: readonly string[];
  readonly taskStates: ReadonlySet<number>;
  /** The body markers (BodyShape.marker), by kind and operation. */
  readonly markers: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** The operations the dialect adds, by kind. */
  readonly operations: ReadonlyMap<string, ReadonlySet<string>>;
  /** The evidence names by bit. */
  readonly names: readonly string[];
  readonly verdicts: Map<number, DialectVerdict>;
}

function bodyMarkers(dialect: Dialect): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [at, shape] of Object.entries(dialect.bodies)) {
    if (!shape.marker) continue;
    const [kind, operation] = at.split('/');
    if (!out.has(kind)) out.set(kind, new Map());
    out.get(kind)!.set(operation, shape.marker);
  }
  return out;
}

const ADDITIONS: readonly Additions[] = DIALECTS.slice(1)
  .map((dialect, i) => {
    const before = DIALECTS[i];
    const fields = dialect.fields.map((f) => f.name).filter((n) => !before.fields.some((b) => b.name === n));
    const usage = dialect.usage.filter((u) => !before.usage.includes(u));
    const names = [...fields, ...usage.map((u) => `usage.${u}`), 'task_state', 'operation', 'body', ...dialect.headers.marks.map((m) => `headers.${m.name}`)];
    if (names.length > 30) throw new TypeError(`dialect ${dialect.id}: more additions than evidence bits`);
    return {
      dialect,
      fields,
      usage,
      taskStates: new Set(
        Object.keys(dialect.taskStates)
          .map(Number)
          .filter((c) => before.taskStates[c] === undefined),
      ),
      markers: bodyMarkers(dialect),
      operations: new Map(Object.entries(dialect.operations).map(([kind, ops]) => [kind, new Set(ops)])),
      names,
      verdicts: new Map<number, DialectVerdict>(),
    };
  })
  .reverse();

/** The verdict of `add`'s dialect with the evidence of `mask`: one frozen verdict per mask. */
function verdictOf(add: Additions, mask: number): DialectVerdict {
  let v = add.verdicts.get(mask);
  if (!v) {
    v = Object.freeze({ dialect: add.dialect, evidence: Object.freeze(add.names.filter((_, bit) => mask & (1 << bit))) });
    add.verdicts.set(mask, v);
  }
  return v;
}

/**
 * The dialect a record's fields (and headers) show: the newest one whose additions over the one
 * before it are there, with those additions as its evidence (a body's shape only when nothing else
 * shows it); the oldest when nothing newer is. Runs once per record of a large log: a 0.0.1
 * record costs a few property reads.
 */
export function dialectOf(env: DialectInput, hasKey: BodyHasKey, headers?: readonly DialectHeader[] | null): DialectVerdict {
  for (const add of ADDITIONS) {
    const dialect = add.dialect;
    let mask = 0;
    let bit = 0;
    for (const name of add.fields) {
      if (env[name] !== undefined) mask |= 1 << bit;
      bit++;
    }
    const usage = env.usage as Record<string, unknown> | undefined;
    for (const u of add.usage) {
      if (usage !== undefined && usage[u] !== undefined) mask |= 1 << bit;
      bit++;
    }
    if (env.task_state !== undefined && add.taskStates.has(env.task_state)) mask |= 1 << bit;
    bit++;
    if (env.operation !== undefined) {
      if (add.operations.get(env.kind)?.has(env.operation)) mask |= 1 << bit;
      else if (mask === 0) {
        // The body's shape is read only when nothing cheaper has shown the dialect already.
        const marker = add.markers.get(env.kind)?.get(env.operation);
        if (marker !== undefined && env.body && hasKey(env.body, marker)) mask |= 1 << (bit + 1);
      }
    }
    bit += 2;
    if (headers) {
      const marks = dialect.headers.marks;
      for (let m = 0; m < marks.length; m++) {
        const mark = marks[m];
        if (
          headers.some((h) => h.name === mark.name && (mark.kind === undefined || mark.kind === h.kind) && (mark.value === undefined || mark.value === h.text))
        )
          mask |= 1 << (bit + m);
      }
    }
    if (mask !== 0) return verdictOf(add, mask);
  }
  return OLDEST;
}

/** The shape of the body of a `kind` record with `operation` in `dialect`, or null when it has none of its own. */
export function bodyShapeOf(dialect: Dialect, kind: string, operation: string): BodyShape | null {
  // Asked once per record of a large log, and most operations have no shape: answered without
  // making the key's text then.
  if (!shapedOperations(dialect).has(operation)) return null;
  const at = `${kind}/${operation}`;
  return Object.hasOwn(dialect.bodies, at) ? dialect.bodies[at] : null;
}

const SHAPED_OPERATIONS = new WeakMap<Dialect, ReadonlySet<string>>();

/** The operations `dialect` gives a body shape (in the `kind/operation` keys of its bodies), worked out once. */
function shapedOperations(dialect: Dialect): ReadonlySet<string> {
  let ops = SHAPED_OPERATIONS.get(dialect);
  if (!ops) SHAPED_OPERATIONS.set(dialect, (ops = new Set(Object.keys(dialect.bodies).map((at) => at.slice(at.indexOf('/') + 1)))));
  return ops;
}

/** A dialect by its id (a report's `agdx_dialect`), or null. */
export function dialectById(id: string): Dialect | null {
  return DIALECTS.find((d) => d.id === id) ?? null;
}

/** The name of task state `code` in `dialect`: its name, or `unrecognized-N`. */
export function taskStateName(code: number, dialect: Dialect = LATEST): string {
  return dialect.taskStates[code] ?? `unrecognized-${code}`;
}
