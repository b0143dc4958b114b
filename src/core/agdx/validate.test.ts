// The per-kind validity matrix, the caps, the decode errors and the decoder's leniency
// (agdx-v1.md), on envelopes built here with CborWriter, field by field in declaration order.
import { describe, expect, it } from 'vitest';
import { firstDifference, toHex } from '../bytes';
import { CborWriter } from '../cbor/encoder';
import { readSingle } from '../cbor/reader';
import { inspectInput } from '../inspect';
import { flat, type FlatRecord } from '../../../test/support/import-helpers';
import { encodeEnvelope } from './canonical';
import { decodeEnvelope, type MetaValue } from './envelope';
import { matrixFindings, matrixSettled, metaValueSize, validateEnvelope, validateFields } from './validate';
import { DIALECT_07, DIALECTS } from './dialects';
import type { Envelope } from './envelope';
import type { Finding } from '../verdict';

// ---------------------------------------------------------------------------------------------
// A small CBOR builder: JS values to CBOR, maps in the order given
// ---------------------------------------------------------------------------------------------

/** Bytes written as they are (a non-minimal head, a tag, an indefinite item, …). */
class Raw {
  constructor(readonly bytes: Uint8Array) {}
}
const raw = (...parts: (number | Uint8Array)[]) => new Raw(new Uint8Array(parts.flatMap((p) => (typeof p === 'number' ? [p] : [...p]))));
/** A float, written in the shortest exact width (an int would be written as an int). */
class Float {
  constructor(readonly value: number) {}
}

type V = string | number | bigint | boolean | null | Uint8Array | Raw | Float | V[] | { [key: string]: V };

function write(w: CborWriter, v: V): void {
  if (v instanceof Raw) w.append(v.bytes);
  else if (v instanceof Float) w.float(v.value);
  else if (v instanceof Uint8Array) w.bytes(v);
  else if (typeof v === 'string') w.text(v);
  else if (typeof v === 'number' || typeof v === 'bigint') w.int(v);
  else if (typeof v === 'boolean') w.bool(v);
  else if (v === null) w.null();
  else if (Array.isArray(v)) {
    w.head(4, v.length);
    for (const x of v) write(w, x);
  } else {
    const entries = Object.entries(v);
    w.head(5, entries.length);
    for (const [k, x] of entries) {
      w.text(k);
      write(w, x);
    }
  }
}

const cbor = (v: V) => {
  const w = new CborWriter();
  write(w, v);
  return w.finish();
};

/** Envelope fields in declaration (wire) order, as agdx-v1.md lists them. */
const ORDER = [
  'kind',
  'record',
  'conversation',
  'source',
  'target',
  'cause',
  'cause_at',
  'correlation',
  'channel',
  'idempotency_key',
  'deadline_micros',
  'sequence',
  'last',
  'finish_reason',
  'task_state',
  'operation',
  'tool',
  'usage',
  'metadata',
  'must_understand',
  'body',
  'signature',
];

type Fields = Record<string, V | undefined>;

/** An envelope map with its fields in declaration order (unknown keys last); undefined = absent. */
function envelope(fields: Fields, opts: { mapHead?: Raw; indefinite?: boolean } = {}): Uint8Array {
  const present = Object.entries(fields).filter(([, v]) => v !== undefined) as [string, V][];
  const rank = (k: string) => (ORDER.includes(k) ? ORDER.indexOf(k) : ORDER.length);
  present.sort((a, b) => rank(a[0]) - rank(b[0]));
  const w = new CborWriter();
  if (opts.indefinite) w.raw(0xbf);
  else if (opts.mapHead) w.append(opts.mapHead.bytes);
  else w.head(5, present.length);
  for (const [k, v] of present) {
    w.text(k);
    write(w, v);
  }
  if (opts.indefinite) w.raw(0xff);
  return w.finish();
}

const id = (n: number) => {
  const b = new Uint8Array(16);
  b.set([0x01, 0x90, 0x3c, 0x1f, 0xaa]);
  b[15] = n;
  return b;
};
const utf8 = (s: string) => new TextEncoder().encode(s);

function analyse(bytes: Uint8Array): FlatRecord {
  const { records } = inspectInput(0, { name: 'test.cbor', bytes });
  expect(records).toHaveLength(1);
  return flat(records[0]);
}

const errors = (r: FlatRecord) => r.findings.filter((f) => f.severity === 'error');
const errorRules = (r: FlatRecord) => errors(r).map((f) => f.rule);

/** Where the value of top-level `field` sits in `bytes` (found by decoding, independent of the validator). */
function valueSpan(bytes: Uint8Array, field: string): [number, number] {
  const r = readSingle(bytes);
  if (!r.ok || r.value.kind !== 'map') throw new Error('not a map');
  const e = r.value.entries.find((x) => x.key.kind === 'text' && x.key.value === field);
  if (!e) throw new Error(`no ${field}`);
  return [e.value.start, e.value.end];
}

// ---------------------------------------------------------------------------------------------
// Baselines: the smallest valid envelope of each kind
// ---------------------------------------------------------------------------------------------

const KINDS = ['command', 'response', 'event', 'chunk', 'status', 'error'] as const;
type Kind = (typeof KINDS)[number];

const JSON_BODY = utf8('{"x":1}');
const ERROR_BODY = cbor({ code: 6, retryable: false });

const BASE: Record<Kind, Fields> = {
  command: { kind: 'command', record: id(1), conversation: id(2), source: 'planner', correlation: id(5), body: JSON_BODY },
  response: { kind: 'response', record: id(1), conversation: id(2), source: 'planner', correlation: id(5), body: JSON_BODY },
  event: { kind: 'event', record: id(1), conversation: id(2), source: 'planner', body: JSON_BODY },
  // sequence 1: not the opening chunk, not the last.
  chunk: { kind: 'chunk', conversation: id(2), source: 'planner', correlation: id(5), channel: id(6), sequence: 1, body: utf8('tok') },
  // operation progress: not a task.
  status: { kind: 'status', record: id(1), conversation: id(2), source: 'planner', operation: 'progress' },
  error: { kind: 'error', record: id(1), conversation: id(2), source: 'planner', correlation: id(5), body: ERROR_BODY },
};

/** A value to add for each matrix field. */
const ADD: Record<string, V> = {
  record: id(1),
  correlation: id(5),
  channel: id(6),
  sequence: 3,
  last: true,
  finish_reason: 'stop',
  idempotency_key: 'k-1',
  deadline_micros: 1717171777000000,
  task_state: 2,
  operation: 'chat',
  tool: 'search',
  usage: { input_tokens: 10, output_tokens: 20 },
  body: JSON_BODY,
};

// The matrix of agdx-v1.md, read for the baselines above: chunk at sequence 1 without last (so the
// conditional chunk cells read as X or R), status with operation progress (not task), error
// without channel. The conditional cells are tested on their own below.
type P = 'R' | 'O' | 'X';
const MATRIX: Record<string, Record<Kind, P>> = {
  //                command   response  event     chunk     status    error
  record: { command: 'R', response: 'R', event: 'R', chunk: 'O', status: 'R', error: 'R' },
  correlation: { command: 'R', response: 'R', event: 'O', chunk: 'R', status: 'O', error: 'R' },
  channel: { command: 'X', response: 'X', event: 'X', chunk: 'R', status: 'X', error: 'O' },
  sequence: { command: 'X', response: 'X', event: 'X', chunk: 'R', status: 'X', error: 'X' },
  last: { command: 'X', response: 'X', event: 'X', chunk: 'O', status: 'O', error: 'X' },
  finish_reason: { command: 'X', response: 'O', event: 'X', chunk: 'X', status: 'X', error: 'X' },
  idempotency_key: { command: 'O', response: 'O', event: 'O', chunk: 'X', status: 'X', error: 'X' },
  deadline_micros: { command: 'O', response: 'X', event: 'X', chunk: 'X', status: 'X', error: 'X' },
  task_state: { command: 'X', response: 'O', event: 'X', chunk: 'X', status: 'O', error: 'O' },
  operation: { command: 'O', response: 'O', event: 'O', chunk: 'X', status: 'R', error: 'O' },
  tool: { command: 'O', response: 'O', event: 'O', chunk: 'O', status: 'X', error: 'O' },
  usage: { command: 'X', response: 'O', event: 'O', chunk: 'X', status: 'O', error: 'O' },
  body: { command: 'R', response: 'R', event: 'R', chunk: 'R', status: 'O', error: 'R' },
};

function expectOnly(r: FlatRecord, rule: string): Finding {
  expect(r.decoded).toBe(true);
  expect(errorRules(r)).toEqual([rule]);
  expect(r.valid).toBe(false);
  return errors(r)[0];
}

function expectValid(r: FlatRecord) {
  expect(r.error).toBeNull();
  expect(r.decoded).toBe(true);
  expect(errors(r)).toEqual([]);
  expect(r.valid).toBe(true);
}

describe('baselines', () => {
  it.each(KINDS)('the %s baseline is valid, canonical and without findings', (kind) => {
    const bytes = envelope(BASE[kind]);
    const r = analyse(bytes);
    expect(r.format).toBe('agdx.envelope');
    expect(r.kind).toBe(kind);
    expect(r.findings).toEqual([]);
    expect(r.valid).toBe(true);
    expect(toHex(encodeEnvelope(r.envelope!))).toBe(toHex(bytes));
  });
});

describe('validity matrix (agdx-v1.md), one cell at a time', () => {
  const cells = Object.entries(MATRIX).flatMap(([field, row]) => KINDS.map((kind) => ({ field, kind, p: row[kind] })));

  it.each(cells)('$kind / $field: $p', ({ field, kind, p }) => {
    const base = BASE[kind];
    const inBase = base[field] !== undefined;
    if (p === 'R') {
      expect(inBase, 'a required field is in the baseline').toBe(true);
      const r = analyse(envelope({ ...base, [field]: undefined }));
      const f = expectOnly(r, `agdx/matrix/${field}`);
      expect(f.path).toBe(field);
      expect(f.span).toBeNull();
      expect(f.message).toContain(kind);
    } else if (p === 'X') {
      expect(inBase).toBe(false);
      const bytes = envelope({ ...base, [field]: ADD[field] });
      const r = analyse(bytes);
      const f = expectOnly(r, `agdx/matrix/${field}`);
      expect(f.path).toBe(field);
      // The span is the field's value bytes.
      expect(f.span).toEqual(valueSpan(bytes, field));
      expect(toHex(bytes.subarray(...f.span!))).toBe(toHex(cbor(ADD[field])));
    } else {
      // Optional: present and absent are both valid.
      expectValid(analyse(envelope({ ...base, [field]: inBase ? base[field] : ADD[field] })));
      expectValid(analyse(envelope({ ...base, [field]: undefined })));
    }
  });

  it('conversation and source are required everywhere; target, cause, cause_at, metadata, signature optional everywhere', () => {
    for (const kind of KINDS) {
      const optional = {
        target: 'executor',
        cause: id(9),
        cause_at: new Uint8Array(20),
        metadata: { role: 'user' },
        signature: { scheme: 1, key_id: new Uint8Array(8), bytes: new Uint8Array(64) },
      };
      const r = analyse(envelope({ ...BASE[kind], ...optional }));
      expectValid(r);
      expect(r.findings.filter((f) => f.rule.startsWith('agdx/matrix/'))).toEqual([]);
    }
  });
});

describe('conditional cells', () => {
  const task = { ...BASE.status, operation: 'task', correlation: id(5), task_state: 2 };

  it('status with operation task requires correlation', () => {
    expectValid(analyse(envelope(task)));
    const f = expectOnly(analyse(envelope({ ...task, correlation: undefined })), 'agdx/matrix/correlation');
    expect(f.message).toContain('task');
    // Not required for other operations.
    for (const op of ['card', 'progress', 'quarantine', 'unquarantine'])
      expectValid(analyse(envelope({ ...BASE.status, operation: op, body: utf8('planner') })));
  });

  it('status with operation task requires task_state; other operations may carry it', () => {
    expectOnly(analyse(envelope({ ...task, task_state: undefined })), 'agdx/matrix/task_state');
    expectValid(analyse(envelope({ ...BASE.status, operation: 'progress', task_state: 2 })));
    expectValid(analyse(envelope({ ...BASE.status, operation: 'progress', task_state: undefined })));
  });

  it('status task without correlation and task_state lists both', () => {
    const r = analyse(envelope({ ...task, correlation: undefined, task_state: undefined }));
    expect(errorRules(r).sort()).toEqual(['agdx/matrix/correlation', 'agdx/matrix/task_state']);
  });

  it('status operation is required and from the closed vocabulary', () => {
    for (const op of ['task', 'card', 'progress', 'quarantine', 'unquarantine']) {
      const r = analyse(envelope({ ...task, operation: op }));
      expect(errorRules(r), op).toEqual([]);
    }
    for (const op of ['telemetry', 'Task', 'chat', '']) {
      const bytes = envelope({ ...BASE.status, operation: op });
      const f = expectOnly(analyse(bytes), 'agdx/matrix/operation');
      expect(f.span).toEqual(valueSpan(bytes, 'operation'));
    }
    expectOnly(analyse(envelope({ ...BASE.status, operation: undefined })), 'agdx/matrix/operation');
  });

  it('status may carry last = true', () => {
    expectValid(analyse(envelope({ ...BASE.status, last: true })));
  });

  const open = { ...BASE.chunk, sequence: 0, operation: 'chat' };

  it('the opening chunk (sequence 0) requires operation from chat, reasoning, tool_args', () => {
    for (const op of ['chat', 'reasoning', 'tool_args']) expectValid(analyse(envelope({ ...open, operation: op })));
    expectOnly(analyse(envelope({ ...open, operation: undefined })), 'agdx/matrix/operation');
    for (const op of ['summarize', 'task', 'Chat']) {
      const bytes = envelope({ ...open, operation: op });
      const f = expectOnly(analyse(bytes), 'agdx/matrix/operation');
      expect(f.span).toEqual(valueSpan(bytes, 'operation'));
    }
  });

  it('a chunk after sequence 0 must not carry operation', () => {
    for (const seq of [1, 2, 1000]) expectOnly(analyse(envelope({ ...BASE.chunk, sequence: seq, operation: 'chat' })), 'agdx/matrix/operation');
  });

  it('deadline_micros only on the opening chunk', () => {
    expectValid(analyse(envelope({ ...open, deadline_micros: 1717171777000000 })));
    for (const seq of [1, 5]) {
      const bytes = envelope({ ...BASE.chunk, sequence: seq, deadline_micros: 1717171777000000 });
      const f = expectOnly(analyse(bytes), 'agdx/matrix/deadline_micros');
      expect(f.span).toEqual(valueSpan(bytes, 'deadline_micros'));
    }
  });

  it('chunk finish_reason and usage only with last', () => {
    const last = { ...BASE.chunk, last: true };
    expectValid(analyse(envelope({ ...last, finish_reason: 'stop', usage: { input_tokens: 1, output_tokens: 2 } })));
    expectOnly(analyse(envelope({ ...BASE.chunk, finish_reason: 'stop' })), 'agdx/matrix/finish_reason');
    expectOnly(analyse(envelope({ ...BASE.chunk, usage: { input_tokens: 1, output_tokens: 2 } })), 'agdx/matrix/usage');
  });

  it('chunk body is required unless last', () => {
    expectOnly(analyse(envelope({ ...BASE.chunk, body: undefined })), 'agdx/matrix/body');
    expectValid(analyse(envelope({ ...BASE.chunk, body: undefined, last: true, finish_reason: 'stop' })));
    expectValid(analyse(envelope({ ...BASE.chunk, last: true })));
    // An empty body counts as none.
    expectOnly(analyse(envelope({ ...BASE.chunk, body: new Uint8Array(0) })), 'agdx/matrix/body');
  });

  it('an empty body is no body for command, response, event and error', () => {
    for (const kind of ['command', 'response', 'event', 'error'] as const) {
      expectOnly(analyse(envelope({ ...BASE[kind], body: new Uint8Array(0) })), 'agdx/matrix/body');
    }
  });

  it('an opening chunk that is also the last chunk is valid', () => {
    expectValid(analyse(envelope({ ...open, last: true, finish_reason: 'stop', body: undefined })));
  });

  it('error may carry sequence only with channel', () => {
    expectValid(analyse(envelope({ ...BASE.error, channel: id(6), sequence: 4 })));
    const bytes = envelope({ ...BASE.error, sequence: 4 });
    const f = expectOnly(analyse(bytes), 'agdx/matrix/sequence');
    expect(f.path).toBe('sequence');
  });

  it('a chunk without sequence is reported once (no operation or deadline noise)', () => {
    const r = analyse(envelope({ ...BASE.chunk, sequence: undefined }));
    expect(errorRules(r)).toEqual(['agdx/matrix/sequence']);
  });
});

describe('every violation is listed (the reference stops at the first)', () => {
  it('a command breaking seven cells gives seven matrix findings', () => {
    const bytes = envelope({
      ...BASE.command,
      correlation: undefined,
      body: undefined,
      channel: id(6),
      sequence: 2,
      last: true,
      task_state: 3,
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    const r = analyse(bytes);
    expect(r.decoded).toBe(true);
    expect(errorRules(r).sort()).toEqual(['correlation', 'body', 'channel', 'sequence', 'last', 'task_state', 'usage'].map((f) => `agdx/matrix/${f}`).sort());
    for (const f of errors(r)) {
      const field = f.rule.slice('agdx/matrix/'.length);
      expect(f.path).toBe(field);
      if (field === 'correlation' || field === 'body') expect(f.span).toBeNull();
      else expect(f.span).toEqual(valueSpan(bytes, field));
    }
  });

  it('matrix, caps and must_understand together', () => {
    const r = analyse(envelope({ ...BASE.event, task_state: 1, tool: 't'.repeat(257), must_understand: 1, idempotency_key: '' }));
    expect(errorRules(r).sort()).toEqual(['agdx/cap/idempotency_key', 'agdx/cap/tool', 'agdx/matrix/task_state', 'agdx/must-understand']);
  });
});

// ---------------------------------------------------------------------------------------------
// Caps
// ---------------------------------------------------------------------------------------------

describe('caps', () => {
  it.each([
    ['operation', 'command'],
    ['tool', 'command'],
    ['finish_reason', 'response'],
  ] as const)('%s: 256 bytes fine, 257 too many (counted in UTF-8 bytes)', (field, kind) => {
    expectValid(analyse(envelope({ ...BASE[kind], [field]: 'a'.repeat(256) })));
    expectValid(analyse(envelope({ ...BASE[kind], [field]: 'é'.repeat(128) })));
    const bytes = envelope({ ...BASE[kind], [field]: 'a'.repeat(257) });
    const f = expectOnly(analyse(bytes), `agdx/cap/${field}`);
    expect(f.path).toBe(field);
    expect(f.span).toEqual(valueSpan(bytes, field));
    // 129 two-byte characters: 258 bytes.
    expectOnly(analyse(envelope({ ...BASE[kind], [field]: 'é'.repeat(129) })), `agdx/cap/${field}`);
  });

  it('idempotency_key is 1..64 bytes', () => {
    for (const k of ['k', 'k'.repeat(64), 'ü'.repeat(32)]) expectValid(analyse(envelope({ ...BASE.command, idempotency_key: k })));
    for (const k of ['', 'k'.repeat(65), 'ü'.repeat(33)]) {
      const f = expectOnly(analyse(envelope({ ...BASE.command, idempotency_key: k })), 'agdx/cap/idempotency_key');
      expect(f.path).toBe('idempotency_key');
    }
  });

  it.each(['source', 'target'] as const)('%s: an agent id is 1..256 bytes without control characters', (field) => {
    for (const v of ['a', 'a'.repeat(256), 'agent.with-dots_and:colons', 'ag€nt']) expectValid(analyse(envelope({ ...BASE.command, [field]: v })));
    for (const v of ['', 'a'.repeat(257), 'bad\u0007agent', 'new\nline', 'del\u007f', 'c1\u0085', 'tab\t']) {
      const bytes = envelope({ ...BASE.command, [field]: v });
      const r = analyse(bytes);
      expect(r.decoded, JSON.stringify(v)).toBe(true);
      const f = expectOnly(r, 'agdx/cap/agent_id');
      expect(f.path).toBe(field);
      expect(f.span).toEqual(valueSpan(bytes, field));
    }
  });

  /** A metadata map in bytewise key order. */
  const meta = (entries: [string, V][]) => Object.fromEntries([...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
  const withMeta = (entries: [string, V][]) => envelope({ ...BASE.command, metadata: meta(entries) });
  const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${String(i).padStart(2, '0')}`);

  it('metadata: 32 entries fine, 33 too many', () => {
    const ok = analyse(withMeta(keys(32).map((k) => [k, 1])));
    expectValid(ok);
    expect(ok.findings).toEqual([]);
    const f = expectOnly(analyse(withMeta(keys(33).map((k) => [k, 1]))), 'agdx/cap/metadata');
    expect(f.path).toBe('metadata');
    expect(f.message).toContain('33');
  });

  it('metadata: a key of 256 bytes is fine, 257 too long', () => {
    expectValid(analyse(withMeta([['k'.repeat(256), 'v']])));
    const f = expectOnly(analyse(withMeta([['k'.repeat(257), 'v']])), 'agdx/cap/metadata');
    expect(f.path).toBe(`metadata.${'k'.repeat(257)}`);
  });

  it('metadata: a value of 1024 bytes is fine, 1025 too long', () => {
    expectValid(analyse(withMeta([['note', 'v'.repeat(1024)]])));
    const bytes = withMeta([['note', 'v'.repeat(1025)]]);
    const f = expectOnly(analyse(bytes), 'agdx/cap/metadata');
    expect(f.path).toBe('metadata.note');
    expect(f.message).toContain('1025');
  });

  it('metadata value size rule: a list is the sum of 1 + each item; any other scalar is 9', () => {
    const ints = (n: number): V[] => Array.from({ length: n }, (_, i) => i);
    expect(metaValueSize({ type: 'list', items: [{ type: 'int', value: 1 }, { type: 'text', value: 'abc' }, { type: 'null' }] })).toBe(10 + 4 + 10);
    expect(metaValueSize({ type: 'float', value: 1.5 })).toBe(9);
    expect(metaValueSize({ type: 'bool', value: true })).toBe(9);
    expect(metaValueSize({ type: 'text', value: 'é' })).toBe(2);
    // 102 ints: 1020; plus a 3-byte text: 1024 (fine); a 4-byte text: 1025 (too long).
    expectValid(analyse(withMeta([['list', [...ints(102), 'abc']]])));
    expectOnly(analyse(withMeta([['list', [...ints(102), 'abcd']]])), 'agdx/cap/metadata');
    // 103 ints: 1030, although the CBOR of it is far smaller.
    expectOnly(analyse(withMeta([['list', ints(103)]])), 'agdx/cap/metadata');
    // 101 booleans and a null: 1020, with 'abc' 1024 (fine); 102 booleans and a null: 1030.
    expectValid(analyse(withMeta([['list', [...Array(101).fill(true), null, 'abc']]])));
    expectOnly(analyse(withMeta([['list', [...Array(102).fill(true), null]]])), 'agdx/cap/metadata');
  });

  it('metadata: keys plus values up to 8192 bytes, measured with the size rule', () => {
    // 7 × (2-byte key + 1022-byte text) = 7168; k7: a list of 100 ints (1000) = 1002 → 8170;
    // k8: a bool (9) → 8181; k9: null (9) → 8192 exactly.
    const base: [string, V][] = Array.from({ length: 7 }, (_, i) => [`k${i}`, 'v'.repeat(1022)] as [string, V]);
    const list = Array.from({ length: 100 }, (_, i) => i) as V[];
    const exact: [string, V][] = [...base, ['k7', list], ['k8', true], ['k9', null]];
    const ok = analyse(withMeta(exact));
    expectValid(ok);
    expect(ok.findings).toEqual([]);
    // A float is a scalar of 9 too.
    expectValid(analyse(withMeta([...base, ['k7', list], ['k8', new Float(1.5)], ['k9', null]])));
    // One more list item ('a': 1 + 1) → 8194.
    const over = analyse(withMeta([...base, ['k7', [...list, 'a']], ['k8', true], ['k9', null]]));
    const f = expectOnly(over, 'agdx/cap/metadata');
    expect(f.path).toBe('metadata');
    expect(f.message).toContain('8194');
    // One more byte of key → 8193.
    expectOnly(analyse(withMeta([...base, ['k7', list], ['k8', true], ['k9x', null]])), 'agdx/cap/metadata');
  });

  it('metadata: several caps broken at once are all listed', () => {
    const entries: [string, V][] = keys(33).map((k) => [k, 'v'.repeat(300)]);
    entries.push(['z'.repeat(257), 'v'.repeat(1025)]);
    const r = analyse(withMeta(entries));
    const paths = errors(r).map((f) => [f.rule, f.path]);
    expect(paths).toContainEqual(['agdx/cap/metadata', 'metadata']);
    expect(paths.filter(([, p]) => p === `metadata.${'z'.repeat(257)}`)).toHaveLength(2);
    // entries (34 > 32) and total (34 × ~303 > 8192) are two findings on `metadata`.
    expect(paths.filter(([, p]) => p === 'metadata')).toHaveLength(2);
  });
});

describe('must_understand', () => {
  it('any set bit is unmet: error with the mask as 16 hex digits', () => {
    for (const [mask, hex] of [
      [1n, '0000000000000001'],
      [5n, '0000000000000005'],
      [0x8000000000000000n, '8000000000000000'],
      [0xffffffffffffffffn, 'ffffffffffffffff'],
    ] as const) {
      const bytes = envelope({ ...BASE.event, must_understand: mask });
      const f = expectOnly(analyse(bytes), 'agdx/must-understand');
      expect(f.message).toContain(hex);
      expect(f.path).toBe('must_understand');
      expect(f.span).toEqual(valueSpan(bytes, 'must_understand'));
    }
  });

  it('must_understand = 0 is absent (decoded and valid, but not canonical)', () => {
    const r = analyse(envelope({ ...BASE.event, must_understand: 0 }));
    expectValid(r);
    expect(r.envelope!.must_understand).toBeUndefined();
    expect(r.findings.map((f) => f.rule)).toEqual(['agdx/noncanonical']);
  });
});

// ---------------------------------------------------------------------------------------------
// Decode errors
// ---------------------------------------------------------------------------------------------

function decodeError(bytes: Uint8Array, code: string, offset: number): FlatRecord {
  const r = analyse(bytes);
  expect(r.decoded).toBe(false);
  expect(r.valid).toBe(false);
  expect(r.error).not.toBeNull();
  expect(r.error!.code).toBe(code);
  expect(r.error!.offset).toBe(offset);
  expect(r.envelope).toBeNull();
  expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
  return r;
}

describe('decode errors', () => {
  it('an unknown kind → agdx/unknown-kind at the kind value', () => {
    for (const kind of ['request', 'Command', '']) {
      const bytes = envelope({ ...BASE.command, kind });
      const r = decodeError(bytes, 'agdx/unknown-kind', valueSpan(bytes, 'kind')[0]);
      expect(r.format).toBe('agdx.envelope');
      expect(r.error!.message).toContain(JSON.stringify(kind));
    }
  });

  it.each(['conversation', 'source', 'kind'])('no %s → agdx/missing-field at the map', (field) => {
    const r = decodeError(envelope({ ...BASE.command, [field]: undefined }), 'agdx/missing-field', 0);
    expect(r.error!.message).toContain(field);
  });

  it('agdx/missing-field points at the head of the map that lacks the field (a non-minimal head, after a tag)', () => {
    const text = (s: string) => [0x60 + s.length, ...new TextEncoder().encode(s)];
    const entries = [...text('kind'), ...text('event'), ...text('source'), ...text('a')];
    // A two-entry map whose head is written in three bytes (b9 00 02).
    const wide = analyse(Uint8Array.from([0xb9, 0x00, 0x02, ...entries]));
    expect(wide.error).toMatchObject({ code: 'agdx/missing-field', offset: 0, span: [0, 3] });
    // The self-describe tag (d9 d9 f7) before the map is not the map's head.
    const tagged = analyse(Uint8Array.from([0xd9, 0xd9, 0xf7, 0xa2, ...entries]));
    expect(tagged.error).toMatchObject({ code: 'agdx/missing-field', offset: 3, span: [3, 4] });
    // An indefinite-length map: its one head byte.
    const open = analyse(Uint8Array.from([0xbf, ...entries, 0xff]));
    expect(open.error).toMatchObject({ code: 'agdx/missing-field', span: [0, 1] });
    // Other decode errors keep to their offset.
    expect(analyse(envelope({ ...BASE.command, kind: 'request' })).error!.span).toBeUndefined();
  });

  it.each(['conversation', 'source', 'kind'])('%s = null → agdx/missing-field', (field) => {
    decodeError(envelope({ ...BASE.command, [field]: null }), 'agdx/missing-field', 0);
  });

  it.each([
    ['record', new Uint8Array(15)],
    ['record', new Uint8Array(17)],
    ['conversation', new Uint8Array(0)],
    ['correlation', new Uint8Array(32)],
    ['cause', new Uint8Array(8)],
    ['cause_at', new Uint8Array(16)],
  ] as const)('%s of the wrong length → agdx/field-type', (field, value) => {
    const bytes = envelope({ ...BASE.command, [field]: value });
    const r = decodeError(bytes, 'agdx/field-type', valueSpan(bytes, field)[0]);
    expect(r.error!.message).toContain(field);
  });

  it.each([
    ['conversation', 'text-id'],
    ['record', 12],
    ['source', 7],
    ['kind', 1],
    ['target', id(1)],
    ['sequence', 'one'],
    ['sequence', -1],
    ['deadline_micros', new Float(1.5)],
    ['last', 1],
    ['task_state', 256],
    ['usage', { input_tokens: 1 }],
    ['usage', { input_tokens: 1, output_tokens: 'many' }],
    ['metadata', { nested: { a: 1 } }],
    ['metadata', { bytes: new Uint8Array(2) }],
    ['metadata', 5],
    ['body', 'text body'],
    ['signature', { scheme: 1, key_id: new Uint8Array(8) }],
  ] as const)('%s = %j → agdx/field-type', (field, value) => {
    const bytes = envelope({ ...BASE.command, [field]: value as V });
    const r = analyse(bytes);
    expect(r.decoded).toBe(false);
    expect(r.error!.code).toBe('agdx/field-type');
    const [s, e] = valueSpan(bytes, field);
    expect(r.error!.offset).toBeGreaterThanOrEqual(s);
    expect(r.error!.offset).toBeLessThan(e);
  });

  it('usage that is not a map → agdx/not-a-map (what the decoder reports for a struct that is not a map)', () => {
    const bytes = envelope({ ...BASE.response, usage: 5 });
    decodeError(bytes, 'agdx/not-a-map', valueSpan(bytes, 'usage')[0]);
  });

  it('a duplicate key → agdx/duplicate-field at the second key', () => {
    const w = new CborWriter().head(5, 7);
    for (const [k, v] of Object.entries(BASE.command)) {
      w.text(k);
      write(w, v as V);
    }
    const second = w.finish().length;
    w.text('source').text('other');
    const r = decodeError(w.finish(), 'agdx/duplicate-field', second);
    expect(r.error!.message).toContain('source');
  });

  it('a duplicate metadata key → agdx/duplicate-field', () => {
    const bytes = envelope({ ...BASE.command, metadata: raw(0xa2, cbor('a'), cbor(1), cbor('a'), cbor(2)) });
    const [s] = valueSpan(bytes, 'metadata');
    decodeError(bytes, 'agdx/duplicate-field', s + 1 + 2 + 1);
  });

  it('a top-level array is not an envelope → agdx/not-a-map (well-formed CBOR, shown in diagnostic notation)', () => {
    const r = analyse(cbor([BASE.command.kind as V, 1, 2]));
    expect(r.decoded).toBe(false);
    expect(r.format).toBe('unknown');
    expect(r.error).toMatchObject({ code: 'agdx/not-a-map', offset: 0 });
    expect(r.body?.text).toBe('["command", 1, 2]');
  });

  it('a header block followed by an array payload → agdx/not-a-map at the payload', () => {
    const name = utf8('agdx.av');
    const block = new Uint8Array([0x02, name.length, 0, 0, 0, ...name, 0x0b, 4, 0, 0, 0, 1, 0, 0, 0]);
    const payload = cbor(['kind', 'command']);
    const r = analyse(new Uint8Array([...block, ...payload]));
    expect(r.format).toBe('agdx.record');
    expect(r.decoded).toBe(false);
    expect(r.error).toMatchObject({ code: 'agdx/not-a-map', offset: block.length });
  });

  it('an integer key among the fields is kept as an unknown field', () => {
    const bytes = envelope({ ...BASE.command, unused: undefined }, {});
    const w = new CborWriter().head(5, 7).append(bytes.subarray(1)).uint(7).text('seven');
    const r = analyse(w.finish());
    expectValid(r);
    expect(r.findings.filter((f) => f.rule === 'agdx/unknown-field')).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------
// Leniency: what the Rust decoder accepts, decoded and valid, but flagged non-canonical
// ---------------------------------------------------------------------------------------------

describe('leniency', () => {
  const canonical = envelope({ ...BASE.command, target: 'executor', deadline_micros: 5, metadata: { aa: 1, b: 'x' } });

  function lenient(bytes: Uint8Array, extra: string[] = []): FlatRecord {
    const r = analyse(bytes);
    expectValid(r);
    // The value is the same as the canonical one's.
    expect(toHex(encodeEnvelope(r.envelope!))).toBe(toHex(canonical));
    const at = firstDifference(bytes, canonical);
    expect(at).toBeGreaterThanOrEqual(0);
    const nc = r.findings.filter((f) => f.rule === 'agdx/noncanonical');
    expect(nc).toHaveLength(1);
    expect(nc[0].severity).toBe('warning');
    expect(nc[0].message).toMatch(new RegExp(`\\b${at}\\b`));
    expect(nc[0].span![0]).toBe(at);
    expect(r.findings.map((f) => f.rule).sort()).toEqual(['agdx/noncanonical', ...extra].sort());
    return r;
  }

  it('the canonical form has no finding', () => {
    const r = analyse(canonical);
    expect(r.findings).toEqual([]);
    // BTreeMap order is bytewise: aa before b (RFC 8949 length-first order would put b first).
    expect([...r.envelope!.metadata!.keys()]).toEqual(['aa', 'b']);
  });

  it('non-minimal heads (map count, integer, text length)', () => {
    lenient(envelope({ ...BASE.command, target: 'executor', deadline_micros: 5, metadata: { aa: 1, b: 'x' } }, { mapHead: raw(0xb8, 9) }));
    lenient(envelope({ ...BASE.command, target: 'executor', deadline_micros: raw(0x1a, 0, 0, 0, 5), metadata: { aa: 1, b: 'x' } }));
    lenient(envelope({ ...BASE.command, target: raw(0x78, 8, utf8('executor')), deadline_micros: 5, metadata: { aa: 1, b: 'x' } }));
  });

  it('an indefinite-length map, and indefinite (chunked) strings', () => {
    lenient(envelope({ ...BASE.command, target: 'executor', deadline_micros: 5, metadata: { aa: 1, b: 'x' } }, { indefinite: true }));
    const body = BASE.command.body as Uint8Array;
    const chunked = raw(0x5f, cbor(body.subarray(0, 3)), cbor(body.subarray(3)), 0xff);
    const r = lenient(envelope({ ...BASE.command, target: 'executor', deadline_micros: 5, metadata: { aa: 1, b: 'x' }, body: chunked }));
    expect(r.body!.rendering).toBe('json');
    lenient(envelope({ ...BASE.command, target: raw(0x7f, cbor('exec'), cbor('utor'), 0xff), deadline_micros: 5, metadata: { aa: 1, b: 'x' } }));
  });

  it('explicit null for an optional field', () => {
    lenient(envelope({ ...BASE.command, target: 'executor', deadline_micros: 5, tool: null, metadata: { aa: 1, b: 'x' } }));
    lenient(envelope({ ...BASE.command, target: 'executor', cause: null, deadline_micros: 5, metadata: { aa: 1, b: 'x' } }));
  });

  it('a tag around a value', () => {
    lenient(envelope({ ...BASE.command, correlation: raw(0xd8, 0x25, cbor(id(5))), target: 'executor', deadline_micros: 5, metadata: { aa: 1, b: 'x' } }));
    lenient(envelope({ ...BASE.command, kind: raw(0xc0, cbor('command')), target: 'executor', deadline_micros: 5, metadata: { aa: 1, b: 'x' } }));
  });

  it('a bignum (tag 2 around a byte string) where an integer belongs: that integer, as ciborium reads it', () => {
    // deadline_micros 5 as 2(h'0005'): leading zeros do not count.
    lenient(envelope({ ...BASE.command, target: 'executor', deadline_micros: raw(0xc2, cbor(Uint8Array.of(0, 5))), metadata: { aa: 1, b: 'x' } }));
    // Under another tag, which is skipped.
    lenient(envelope({ ...BASE.command, target: 'executor', deadline_micros: raw(0xd8, 0x25, 0xc2, cbor(Uint8Array.of(5))), metadata: { aa: 1, b: 'x' } }));
    const max = analyse(envelope({ ...BASE.command, deadline_micros: raw(0xc2, cbor(new Uint8Array(8).fill(0xff))) }));
    expectValid(max);
    expect(max.envelope!.deadline_micros).toBe(2n ** 64n - 1n);
    // task_state is a u8: a bignum of 255 is one, of 256 is not.
    expect(analyse(envelope({ ...BASE.response, task_state: raw(0xc2, cbor(Uint8Array.of(255))) })).envelope!.task_state).toBe(255);
  });

  it.each([
    ['a negative bignum', raw(0xc3, cbor(Uint8Array.of(1)))],
    ['a bignum past 2^64 - 1', raw(0xc2, cbor(Uint8Array.of(1, 0, 0, 0, 0, 0, 0, 0, 0)))],
    ['tag 2 around an integer, not a byte string', raw(0xc2, cbor(5))],
    ['a bignum of 17 significant bytes', raw(0xc2, cbor(new Uint8Array(17).fill(1)))],
  ])('deadline_micros as %s → agdx/field-type', (_what, value) => {
    const bytes = envelope({ ...BASE.command, deadline_micros: value });
    decodeError(bytes, 'agdx/field-type', valueSpan(bytes, 'deadline_micros')[0]);
  });

  it('a metadata list may hold lists (the reference\u2019s value type is recursive), sized recursively', () => {
    const r = analyse(envelope({ ...BASE.command, metadata: { l: [[1, 'ab'], []] } }));
    expectValid(r);
    expect(r.findings).toEqual([]);
    const nested: MetaValue = {
      type: 'list',
      items: [
        {
          type: 'list',
          items: [
            { type: 'int', value: 1 },
            { type: 'text', value: 'ab' },
          ],
        },
        { type: 'list', items: [] },
      ],
    };
    expect(r.envelope!.metadata!.get('l')).toEqual(nested);
    // [[1, 'ab'], []]: (1 + (1 + 9) + (1 + 2)) + (1 + 0) = 15.
    expect(metaValueSize(nested)).toBe(15);
    // 101 lists of one int (1 + 10 each) = 1111 bytes: over the 1024-byte value cap.
    expectOnly(analyse(envelope({ ...BASE.command, metadata: { l: Array.from({ length: 101 }, () => [1]) } })), 'agdx/cap/metadata');
    // What a list may not hold, at any depth.
    expect(analyse(envelope({ ...BASE.command, metadata: { l: [[new Uint8Array(1)]] } })).error!.code).toBe('agdx/field-type');
    expect(analyse(envelope({ ...BASE.command, metadata: { l: [[{ a: 1 }]] } })).error!.code).toBe('agdx/field-type');
  });

  it('last = false (absent to the reference)', () => {
    const r = lenient(envelope({ ...BASE.command, target: 'executor', deadline_micros: 5, last: false, metadata: { aa: 1, b: 'x' } }));
    expect(r.envelope!.last).toBeUndefined();
    // Not a matrix violation: last = true is what a command may not carry.
    expect(r.findings.some((f) => f.rule === 'agdx/matrix/last')).toBe(false);
  });

  it('keys out of declaration order', () => {
    const w = new CborWriter().head(5, 9);
    const f = { ...BASE.command, target: 'executor', deadline_micros: 5, metadata: { aa: 1, b: 'x' } };
    for (const k of ['source', 'kind', 'record', 'conversation', 'target', 'correlation', 'deadline_micros', 'metadata', 'body'])
      w.text(k), write(w, f[k as keyof typeof f] as V);
    lenient(w.finish());
  });

  it('metadata keys out of bytewise order', () => {
    lenient(envelope({ ...BASE.command, target: 'executor', deadline_micros: 5, metadata: raw(0xa2, cbor('b'), cbor('x'), cbor('aa'), cbor(1)) }));
  });

  it('an unknown key: kept, reported as agdx/unknown-field (info)', () => {
    const bytes = envelope({ ...BASE.command, target: 'executor', deadline_micros: 5, metadata: { aa: 1, b: 'x' }, x_vendor: 'v' });
    const r = lenient(bytes, ['agdx/unknown-field']);
    const u = r.findings.find((f) => f.rule === 'agdx/unknown-field')!;
    expect(u.severity).toBe('info');
    expect(u.path).toBe('x_vendor');
    expect(u.span).toEqual(valueSpan(bytes, 'x_vendor'));
  });

  it('an unknown field holding a simple value the reference cannot parse (not false, true, null, undefined) → agdx/field-type', () => {
    // At the simple value itself: alone, in a list, in a map.
    for (const [simple, at] of [
      [raw(0xe5), 0],
      [raw(0xf8, 0x20), 0],
      [raw(0x82, 1, 0xf3), 2],
      [raw(0xa1, 0x61, 0x61, 0xf8, 0xff), 3],
    ] as const) {
      const bytes = envelope({ ...BASE.command, x_vendor: simple });
      decodeError(bytes, 'agdx/field-type', valueSpan(bytes, 'x_vendor')[0] + at);
    }
    // As a key, at the top or in a struct.
    expect(analyse(envelope({ ...BASE.command, x: raw(0xa1, 0xe5, 0) })).error!.code).toBe('agdx/field-type');
    const w = new CborWriter().head(5, 7);
    for (const [k, v] of Object.entries(BASE.command)) w.text(k), write(w, v as V);
    w.raw(0xf8, 0x40).int(0);
    expect(analyse(w.finish()).error!.code).toBe('agdx/field-type');
    expect(analyse(envelope({ ...BASE.response, usage: raw(0xa3, cbor('input_tokens'), 1, cbor('output_tokens'), 2, 0xe5, 0) })).error!.code).toBe(
      'agdx/field-type',
    );
    // The four it can read are fine there.
    for (const simple of [false, true, null, raw(0xf7)])
      lenient(envelope({ ...BASE.command, target: 'executor', deadline_micros: 5, metadata: { aa: 1, b: 'x' }, x_vendor: simple }), ['agdx/unknown-field']);
  });

  it('floats in metadata: shortest width is canonical, wider is not; ints stay ints', () => {
    const withFloat = (v: V) => envelope({ ...BASE.command, metadata: { f: v } });
    // 1.0 is f9 3c00.
    const one = withFloat(raw(0xf9, 0x3c, 0x00));
    const r1 = analyse(one);
    expectValid(r1);
    expect(r1.findings).toEqual([]);
    expect(r1.envelope!.metadata!.get('f')).toEqual({ type: 'float', value: 1 });
    expect(toHex(encodeEnvelope(r1.envelope!))).toBe(toHex(one));
    // The integer 1 is not the float 1.0.
    const int = analyse(withFloat(1));
    expect(int.findings).toEqual([]);
    expect(int.envelope!.metadata!.get('f')).toEqual({ type: 'int', value: 1 });
    // 1.5 written as a float64.
    const wide = withFloat(raw(0xfb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0));
    const r2 = analyse(wide);
    expectValid(r2);
    expect(r2.findings.map((f) => f.rule)).toEqual(['agdx/noncanonical']);
    expect(toHex(encodeEnvelope(r2.envelope!))).toBe(toHex(withFloat(new Float(1.5))));
    expect(toHex(withFloat(new Float(1.5))).endsWith('f93e00' + toHex(cbor('body')) + toHex(cbor(JSON_BODY)))).toBe(true);
  });

  it('decoder and validator are usable directly', () => {
    const item = readSingle(canonical);
    expect(item.ok).toBe(true);
    if (!item.ok) return;
    const d = decodeEnvelope(item.value);
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect(validateEnvelope(d.value)).toEqual([]);
    const meta: MetaValue | undefined = d.value.envelope.metadata?.get('b');
    expect(meta).toEqual({ type: 'text', value: 'x' });
  });
});

describe('matrixSettled', () => {
  // Every combination of the fields the matrix rules on, for every kind, with and without a tool
  // and an operation, in both dialects.
  const present: [keyof Envelope, unknown][] = [
    ['record', new Uint8Array(16).fill(1)],
    ['correlation', new Uint8Array(16).fill(3)],
    ['channel', new Uint8Array(16).fill(4)],
    ['sequence', 3],
    ['last', true],
    ['finish_reason', 'stop'],
    ['idempotency_key', 'k'],
    ['deadline_micros', 5],
    ['task_state', 2],
    ['usage', { input_tokens: 1, output_tokens: 2 }],
    ['body', Uint8Array.of(0x61)],
  ];
  const envelopes: Envelope[] = [];
  for (const kind of KINDS)
    for (let bits = 0; bits < 1 << present.length; bits++)
      for (const extra of [{}, { tool: 'search' }, { operation: 'task' }, { body: new Uint8Array(0) }, { sequence: 0 }, { last: false }]) {
        const env: Record<string, unknown> = { kind, conversation: new Uint8Array(16).fill(2), source: 'a' };
        present.forEach(([field, value], i) => {
          if (bits & (1 << i)) env[field] = value;
        });
        envelopes.push({ ...env, ...extra } as unknown as Envelope);
      }
  const noSpan = () => null;

  it('is true only where the matrix finds nothing, and for command, response, event and error exactly there', () => {
    let settled = 0;
    for (const env of envelopes)
      for (const dialect of DIALECTS) {
        const found = matrixFindings(env, noSpan, dialect) ?? [];
        const kind = env.kind;
        if (kind === 'status' || kind === 'chunk') expect(matrixSettled(env), kind).toBe(false);
        else expect(matrixSettled(env), `${kind} ${found.map((f) => f.rule).join(' ')}`).toBe(found.length === 0);
        if (matrixSettled(env)) settled++;
      }
    // Many were settled: the property is not passed by settling none.
    expect(settled).toBeGreaterThan(300);
  });

  it("keeps the lineage's findings for a settled envelope, first, as the matrix's own checks give them", () => {
    // parent and root are not among the fields matrixSettled reads: a settled 0.7 envelope still
    // has its lineage judged (root without parent; a parent naming its own conversation).
    const lineages = [{ root: new Uint8Array(16).fill(7) }, { parent: new Uint8Array(16).fill(2) }, { parent: new Uint8Array(16).fill(8) }];
    let judged = 0;
    for (const env of envelopes.filter((e) => matrixSettled(e)))
      for (const lineage of lineages) {
        const withLineage = { ...env, ...lineage } as Envelope;
        expect(matrixSettled(withLineage)).toBe(true);
        const matrix = (matrixFindings(withLineage, noSpan, DIALECT_07) ?? []).map((f) => f.rule);
        const all = validateFields(withLineage, noSpan, DIALECT_07).map((f) => f.rule);
        expect(all.slice(0, matrix.length)).toEqual(matrix);
        judged += matrix.length;
      }
    // Most of them had a lineage finding: the comparison is not between empty lists.
    expect(judged).toBeGreaterThan(300);
  });
});
