// The reference fixtures (vectors/agdx/laser-wire-0.0.1, the laser-wire 0.0.1 crate's own golden
// files) and the Iggy layouts made from them: every envelope decodes field by field as the
// reference wrote it, re-encodes byte for byte, and is accepted or rejected for the reason its
// name gives. Expected values are literal data below, read from the fixtures' CBOR by hand.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { fromHex, toBase64, toCrockford, toHex } from '../bytes';
import { CborWriter } from '../cbor/encoder';
import { readSingle, untag } from '../cbor/reader';
import { inspectInput } from '../inspect';
import { flat, inspectedOf, type FlatRecord } from '../../../test/support/import-helpers';
import { buildReport } from '../report';
import { encodeEnvelope, signingInputSegments } from './canonical';
import { decodeEnvelope, type Envelope, type MetaValue } from './envelope';
import type { Finding } from '../verdict';

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const VECTORS = new URL('../../../vectors/agdx/', import.meta.url);
const LASER = 'laser-wire-0.0.1/';

function vector(rel: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(rel, VECTORS)));
}
const laser = (name: string) => vector(LASER + name);

function hex(text: string): Uint8Array {
  const b = fromHex(text);
  if (!b) throw new Error(`bad hex in test: ${text}`);
  return b;
}

const utf8 = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const big = (v: number | bigint | undefined) => (v === undefined ? undefined : BigInt(v));

function inspectOne(name: string, bytes: Uint8Array): { format: string; records: FlatRecord[] } {
  const { input, records: read } = inspectInput(0, { name, bytes });
  const records = read.map((r) => flat(r));
  return { format: input.format, records };
}

function only(name: string, bytes: Uint8Array): FlatRecord {
  const { records } = inspectOne(name, bytes);
  expect(records, `${name} gives one record`).toHaveLength(1);
  return records[0];
}

const errorRules = (r: FlatRecord) => r.findings.filter((f) => f.severity === 'error').map((f) => f.rule);
const rules = (r: FlatRecord) => r.findings.map((f) => f.rule);

/** Index of `needle` in `hay` at or after `from`, or -1. */
function indexOf(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  outer: for (let i = from; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** A copy of `bytes` with the first `from` after `key` replaced by `to` (same length). */
function patchAfter(bytes: Uint8Array, key: string, from: Uint8Array, to: Uint8Array): { bytes: Uint8Array; at: number } {
  expect(to.length).toBe(from.length);
  const k = indexOf(bytes, utf8(key));
  expect(k, `key ${key} is in the bytes`).toBeGreaterThanOrEqual(0);
  const at = indexOf(bytes, from, k + key.length);
  expect(at, `value after ${key} is in the bytes`).toBeGreaterThanOrEqual(0);
  const out = bytes.slice();
  out.set(to, at);
  return { bytes: out, at };
}

const enc = (write: (w: CborWriter) => void) => {
  const w = new CborWriter();
  write(w);
  return w.finish();
};

// Ids of the fixtures: 0x01903c1faa + zeros + n, displayed in Crockford base32.
const idHex = (n: number) => `01903c1faa${'0'.repeat(20)}${n.toString(16).padStart(2, '0')}`;
const ID = (n: number) => `01J0Y1ZAG${'0'.repeat(16)}${n}`;
const SOURCE = 'source-agent';
const DEADLINE = 1717171777000000n;

// ---------------------------------------------------------------------------------------------
// 1. Field by field
// ---------------------------------------------------------------------------------------------

interface Expected {
  file: string;
  kind: string;
  record?: number;
  correlation?: number;
  channel?: number;
  cause?: number;
  cause_at?: string;
  target?: string;
  idempotency_key?: string;
  deadline_micros?: bigint;
  sequence?: bigint;
  last?: true;
  finish_reason?: string;
  task_state?: number;
  operation?: string;
  usage?: Record<string, bigint>;
  metadata?: [string, MetaValue][];
  must_understand?: bigint;
  /** The body as JSON, as text, or as hex. */
  bodyJson?: unknown;
  bodyText?: string;
  bodyHex?: string;
  /** How the body is shown without headers. */
  rendering?: string;
  signature?: { scheme: number; key_id: string; bytes: string };
  /** The agdx/matrix rule the fixture breaks, or must-understand; none for valid ones. */
  violation?: string;
  /** The path of the violating field and whether it is present in the bytes. */
  violationPresent?: boolean;
}

const SIG_BYTES = Array.from({ length: 64 }, (_, i) => i.toString(16).padStart(2, '0')).join('');
const ERROR_BODY_HEX = 'a464636f646506676d657373616765707365617263682074696d6564206f757469726574727961626c65f56664657461696ca167617474656d707403';

const COMMAND: Omit<Expected, 'file'> = {
  kind: 'command',
  record: 1,
  target: 'target-agent',
  correlation: 5,
  idempotency_key: 'order-123-attempt-2',
  deadline_micros: DEADLINE,
  operation: 'chat',
  metadata: [['priority', { type: 'text', value: 'high' }]],
  bodyJson: { ask: 'plan the trip' },
  rendering: 'json',
};

const ENVELOPES: Expected[] = [
  { file: 'agent_command.bin', ...COMMAND },
  { file: 'agent_command_signed.bin', ...COMMAND, signature: { scheme: 1, key_id: '0102030405060708', bytes: SIG_BYTES } },
  {
    file: 'agent_response.bin',
    kind: 'response',
    record: 1,
    cause: 1,
    cause_at: '0000000100000002000000030000000000000029',
    correlation: 5,
    task_state: 4,
    usage: { input_tokens: 1200n, output_tokens: 256n, reasoning_output_tokens: 64n },
    bodyJson: { plan: ['fly', 'drive'] },
    rendering: 'json',
  },
  { file: 'agent_event.bin', kind: 'event', record: 1, bodyJson: { observed: 'user paid' }, rendering: 'json' },
  { file: 'agent_chunk.bin', kind: 'chunk', correlation: 5, channel: 6, sequence: 7n, bodyText: 'tok', rendering: 'text' },
  {
    file: 'agent_chunk_open.bin',
    kind: 'chunk',
    correlation: 5,
    channel: 6,
    deadline_micros: DEADLINE,
    sequence: 0n,
    operation: 'reasoning',
    bodyText: 'thinking',
    rendering: 'text',
  },
  {
    file: 'agent_chunk_terminal.bin',
    kind: 'chunk',
    correlation: 5,
    channel: 6,
    sequence: 8n,
    last: true,
    finish_reason: 'stop',
    usage: { input_tokens: 1200n, output_tokens: 88n, cache_read_input_tokens: 900n },
  },
  { file: 'agent_status_task.bin', kind: 'status', record: 1, correlation: 5, task_state: 2, operation: 'task' },
  { file: 'agent_status_card.bin', kind: 'status', record: 1, operation: 'card' },
  {
    file: 'agent_status_run_metadata.bin',
    kind: 'status',
    record: 1,
    correlation: 5,
    task_state: 2,
    operation: 'task',
    metadata: [['run', { type: 'text', value: 'run-7' }]],
  },
  { file: 'agent_error.bin', kind: 'error', record: 1, correlation: 5, bodyHex: ERROR_BODY_HEX, rendering: 'error_body' },
  {
    file: 'agent_must_understand.bin',
    kind: 'event',
    record: 1,
    must_understand: 5n,
    bodyJson: { feature: 'gated' },
    rendering: 'json',
    violation: 'agdx/must-understand',
    violationPresent: true,
  },
  {
    file: 'agent_invalid_command_no_correlation.bin',
    kind: 'command',
    record: 1,
    bodyText: 'x',
    violation: 'agdx/matrix/correlation',
    violationPresent: false,
  },
  {
    file: 'agent_invalid_error_last.bin',
    kind: 'error',
    record: 1,
    correlation: 5,
    last: true,
    bodyText: 'x',
    violation: 'agdx/matrix/last',
    violationPresent: true,
  },
  {
    file: 'agent_invalid_event_task_state.bin',
    kind: 'event',
    record: 1,
    task_state: 2,
    bodyText: 'x',
    violation: 'agdx/matrix/task_state',
    violationPresent: true,
  },
  {
    file: 'agent_invalid_response_channel.bin',
    kind: 'response',
    record: 1,
    correlation: 5,
    channel: 6,
    bodyText: 'x',
    violation: 'agdx/matrix/channel',
    violationPresent: true,
  },
  {
    file: 'agent_invalid_status_bad_operation.bin',
    kind: 'status',
    record: 1,
    operation: 'telemetry',
    violation: 'agdx/matrix/operation',
    violationPresent: true,
  },
  { file: 'agent_invalid_status_no_operation.bin', kind: 'status', record: 1, violation: 'agdx/matrix/operation', violationPresent: false },
  {
    file: 'agent_invalid_chunk_no_sequence.bin',
    kind: 'chunk',
    correlation: 5,
    channel: 6,
    bodyText: 'x',
    violation: 'agdx/matrix/sequence',
    violationPresent: false,
  },
  {
    file: 'agent_invalid_chunk_open_no_operation.bin',
    kind: 'chunk',
    correlation: 5,
    channel: 6,
    sequence: 0n,
    bodyText: 'x',
    violation: 'agdx/matrix/operation',
    violationPresent: false,
  },
  {
    file: 'agent_invalid_chunk_late_deadline.bin',
    kind: 'chunk',
    correlation: 5,
    channel: 6,
    deadline_micros: DEADLINE,
    sequence: 5n,
    bodyText: 'x',
    violation: 'agdx/matrix/deadline_micros',
    violationPresent: true,
  },
];

/** The envelope fields a row names, for comparing key sets. */
function expectedFields(e: Expected): string[] {
  const keys = ['kind', 'conversation', 'source'];
  const map: [keyof Expected, string][] = [
    ['record', 'record'],
    ['target', 'target'],
    ['cause', 'cause'],
    ['cause_at', 'cause_at'],
    ['correlation', 'correlation'],
    ['channel', 'channel'],
    ['idempotency_key', 'idempotency_key'],
    ['deadline_micros', 'deadline_micros'],
    ['sequence', 'sequence'],
    ['last', 'last'],
    ['finish_reason', 'finish_reason'],
    ['task_state', 'task_state'],
    ['operation', 'operation'],
    ['usage', 'usage'],
    ['metadata', 'metadata'],
    ['must_understand', 'must_understand'],
    ['signature', 'signature'],
  ];
  for (const [k, f] of map) if (e[k] !== undefined) keys.push(f);
  if (e.bodyJson !== undefined || e.bodyText !== undefined || e.bodyHex !== undefined) keys.push('body');
  return keys.sort();
}

describe('laser envelope fixtures decode field by field as the reference wrote them', () => {
  it('covers every agent_* envelope fixture of the reference', () => {
    expect(ENVELOPES.map((e) => e.file).filter((f) => f.startsWith('agent_invalid_'))).toHaveLength(9);
    expect(new Set(ENVELOPES.map((e) => e.file)).size).toBe(ENVELOPES.length);
  });

  it('displays the check id of agdx-v1.md', () => {
    expect(toCrockford(hex('01903c1faa0000000000000000000002'))).toBe('01J0Y1ZAG00000000000000002');
    expect(idHex(2)).toBe('01903c1faa0000000000000000000002');
  });

  it.each(ENVELOPES)('$file', (e) => {
    const bytes = laser(e.file);
    const { format, records } = inspectOne(e.file, bytes);
    expect(format).toBe('cbor');
    expect(records).toHaveLength(1);
    const r = records[0];
    expect(r.format).toBe('agdx.envelope');
    expect(r.decoded).toBe(true);
    expect(r.error).toBeNull();
    expect(r.span).toEqual([0, bytes.length]);
    const env = r.envelope!;
    expect(env).not.toBeNull();

    // Exactly the fields the reference wrote, nothing more.
    expect(Object.keys(env).sort()).toEqual(expectedFields(e));
    expect(env.kind).toBe(e.kind);
    expect(toHex(env.conversation)).toBe(idHex(2));
    expect(toCrockford(env.conversation)).toBe(ID(2));
    expect(env.source).toBe(SOURCE);
    const id = (field: 'record' | 'correlation' | 'channel' | 'cause', n: number | undefined) => {
      if (n === undefined) return expect(env[field]).toBeUndefined();
      expect(toHex(env[field]!)).toBe(idHex(n));
      expect(toCrockford(env[field]!)).toBe(ID(n));
    };
    id('record', e.record);
    id('correlation', e.correlation);
    id('channel', e.channel);
    id('cause', e.cause);
    expect(env.cause_at === undefined ? undefined : toHex(env.cause_at)).toBe(e.cause_at);
    expect(env.target).toBe(e.target);
    expect(env.idempotency_key).toBe(e.idempotency_key);
    expect(big(env.deadline_micros)).toBe(e.deadline_micros);
    expect(big(env.sequence)).toBe(e.sequence);
    expect(env.last).toBe(e.last);
    expect(env.finish_reason).toBe(e.finish_reason);
    expect(env.task_state).toBe(e.task_state);
    expect(env.operation).toBe(e.operation);
    expect(env.tool).toBeUndefined();
    expect(env.usage === undefined ? undefined : Object.fromEntries(Object.entries(env.usage).map(([k, v]) => [k, big(v)]))).toEqual(e.usage);
    expect(env.metadata === undefined ? undefined : [...env.metadata.entries()]).toEqual(e.metadata);
    expect(big(env.must_understand)).toBe(e.must_understand);

    // The body, decoded where it is text.
    if (e.bodyJson !== undefined) expect(JSON.parse(text(env.body!))).toEqual(e.bodyJson);
    else if (e.bodyText !== undefined) expect(text(env.body!)).toBe(e.bodyText);
    else if (e.bodyHex !== undefined) expect(toHex(env.body!)).toBe(e.bodyHex);
    else expect(env.body).toBeUndefined();
    if (e.rendering) expect(r.body?.rendering).toBe(e.rendering);
    if (e.rendering === 'json') expect(JSON.parse(r.body!.text)).toEqual(e.bodyJson);
    if (r.body) expect(text(bytes.subarray(...r.body.span!))).toBe(text(env.body!));

    // The signature capsule.
    if (e.signature) {
      expect(env.signature!.scheme).toBe(e.signature.scheme);
      expect(toHex(env.signature!.key_id)).toBe(e.signature.key_id);
      expect(env.signature!.bytes).toHaveLength(64);
      expect(toHex(env.signature!.bytes)).toBe(e.signature.bytes);
      expect(env.signature!.context).toBeUndefined();
    } else expect(env.signature).toBeUndefined();

    // The report's fields.
    const report = buildReport({ inputs: [{ name: e.file, bytes: bytes.length, sha256: '', format }], records: records.map(inspectedOf) });
    const rr = report.records[0];
    expect(rr).toMatchObject({
      input: 0,
      index: 0,
      format: 'agdx.envelope',
      span: [0, bytes.length],
      decoded: true,
      error: null,
      kind: e.kind,
      id: e.record === undefined ? null : ID(e.record),
      conversation: ID(2),
      source: SOURCE,
      target: e.target ?? null,
      valid: e.violation === undefined,
    });
    if (e.signature) {
      // Placeholder key id and bytes: signed with an unknown key, never valid.
      expect(rr.signature).toMatchObject({ status: 'unknown_key', scheme: 'ed25519', key_id: e.signature.key_id, trusted: false });
    } else expect(rr.signature).toMatchObject({ status: 'unsigned', key_id: null, trusted: false });
  });

  it('reads cause_at as stream 1, topic 2, partition 3, offset 41 (big-endian u32 u32 u32 u64)', () => {
    const env = only('r', laser('agent_response.bin')).envelope!;
    const dv = new DataView(env.cause_at!.buffer, env.cause_at!.byteOffset, 20);
    expect([dv.getUint32(0), dv.getUint32(4), dv.getUint32(8), dv.getBigUint64(12)]).toEqual([1, 2, 3, 41n]);
  });

  it('reads the error body as an AgentErrorBody (tool_failure, retryable)', () => {
    const r = only('e', laser('agent_error.bin'));
    expect(r.body!.rendering).toBe('error_body');
    expect(r.body!.text).toContain('tool_failure');
    expect(r.body!.text).toContain('search timed out');
    expect(r.body!.text).toContain('retryable');
    // The body's span points at the nested CBOR inside the envelope.
    expect(toHex(laser('agent_error.bin').subarray(...r.body!.span!))).toBe(ERROR_BODY_HEX);
  });
});

// ---------------------------------------------------------------------------------------------
// 2. Byte-identical re-encoding
// ---------------------------------------------------------------------------------------------

function payloadOf(bytes: Uint8Array): Uint8Array {
  const r = readSingle(bytes);
  if (!r.ok || r.value.kind !== 'map') throw new Error('not a map');
  const e = r.value.entries.find((x) => {
    const k = untag(x.key);
    return k.kind === 'text' && k.value === 'payload';
  });
  const v = untag(e!.value);
  if (v.kind !== 'bytes') throw new Error('payload is not bytes');
  return v.value;
}

describe('laser envelope fixtures re-encode byte for byte', () => {
  it.each(ENVELOPES.map((e) => e.file))('%s', (file) => {
    const bytes = laser(file);
    const r = only(file, bytes);
    expect(toHex(encodeEnvelope(r.envelope!))).toBe(toHex(bytes));
    expect(rules(r)).not.toContain('agdx/noncanonical');
  });

  it('agent_record.bin: the embedded payload', () => {
    const bytes = laser('agent_record.bin');
    const payload = payloadOf(bytes);
    const r = only('agent_record.bin', bytes);
    expect(r.format).toBe('agdx.record');
    expect(toHex(encodeEnvelope(r.envelope!))).toBe(toHex(payload));
    expect(toHex(payload)).toBe(toHex(laser('agent_command.bin')));
    expect(rules(r)).not.toContain('agdx/noncanonical');
  });

  it('agent_dead_letter.bin: the embedded payload', () => {
    const bytes = laser('agent_dead_letter.bin');
    const payload = payloadOf(bytes);
    const { records } = inspectOne('dl', bytes);
    expect(records).toHaveLength(2);
    expect(toHex(encodeEnvelope(records[1].envelope!))).toBe(toHex(payload));
    for (const r of records) expect(rules(r)).not.toContain('agdx/noncanonical');
  });

  it('the signed command without its signature is the unsigned command (the signed span)', () => {
    const signed = only('s', laser('agent_command_signed.bin')).envelope!;
    expect(toHex(encodeEnvelope(signed, false))).toBe(toHex(laser('agent_command.bin')));
    const seg = signingInputSegments(signed);
    expect(text(seg.domain)).toBe('agdx.signature.v1');
    expect(seg.context).toHaveLength(0);
    expect(toHex(seg.envelope)).toBe(toHex(laser('agent_command.bin')));
  });

  it('typescript_signature.json: the signing input is domain + canonical envelope, and the key id is SHA-256(pk)[0..8]', () => {
    const v = JSON.parse(text(laser('typescript_signature.json'))) as Record<string, string>;
    const input = hex(v.signing_input_hex);
    const domain = utf8('agdx.signature.v1');
    expect(toHex(input.subarray(0, domain.length))).toBe(toHex(domain));
    const item = readSingle(input.subarray(domain.length));
    expect(item.ok).toBe(true);
    if (!item.ok) return;
    const d = decodeEnvelope(item.value);
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    const seg = signingInputSegments(d.value.envelope);
    const joined = new Uint8Array([...seg.domain, ...seg.context, ...seg.envelope]);
    expect(toHex(joined)).toBe(v.signing_input_hex);
    expect(toHex(sha256(hex(v.public_key_hex)).subarray(0, 8))).toBe(v.key_id_hex);
    expect(v.key_id_hex).toBe('fe812c12f3ab4ce6');
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Verdicts: invalid fixtures, must_understand, valid fixtures
// ---------------------------------------------------------------------------------------------

/** The canonical CBOR of the violating field's value, as the fixture holds it. */
const VIOLATION_VALUE: Record<string, Uint8Array> = {
  'agent_invalid_error_last.bin': enc((w) => w.bool(true)),
  'agent_invalid_event_task_state.bin': enc((w) => w.uint(2)),
  'agent_invalid_response_channel.bin': enc((w) => w.bytes(hex(idHex(6)))),
  'agent_invalid_status_bad_operation.bin': enc((w) => w.text('telemetry')),
  'agent_invalid_chunk_late_deadline.bin': enc((w) => w.uint(DEADLINE)),
  'agent_must_understand.bin': enc((w) => w.uint(5)),
};

describe('verdicts', () => {
  const invalid = ENVELOPES.filter((e) => e.violation);
  it.each(invalid)('$file is decoded but rejected with $violation', (e) => {
    const bytes = laser(e.file);
    const r = only(e.file, bytes);
    expect(r.decoded).toBe(true);
    expect(r.valid).toBe(false);
    // Exactly the violation its name implies, nothing else at error severity.
    expect(errorRules(r)).toEqual([e.violation]);
    const f = r.findings.find((x) => x.rule === e.violation)!;
    const field = e.violation!.startsWith('agdx/matrix/') ? e.violation!.slice('agdx/matrix/'.length) : 'must_understand';
    expect(f.path).toBe(field);
    expect(f.severity).toBe('error');
    if (e.violationPresent) {
      expect(f.span).not.toBeNull();
      const [s, end] = f.span!;
      expect(toHex(bytes.subarray(s, end))).toBe(toHex(VIOLATION_VALUE[e.file]));
      // The key just before the value names the field.
      const key = enc((w) => w.text(field));
      expect(toHex(bytes.subarray(s - key.length, s))).toBe(toHex(key));
    } else {
      expect(f.span).toBeNull();
    }
  });

  it('the invalid fixture names map to these rules', () => {
    const expected: Record<string, string> = {
      command_no_correlation: 'correlation',
      error_last: 'last',
      event_task_state: 'task_state',
      response_channel: 'channel',
      status_bad_operation: 'operation',
      status_no_operation: 'operation',
      chunk_no_sequence: 'sequence',
      chunk_open_no_operation: 'operation',
      chunk_late_deadline: 'deadline_micros',
    };
    for (const [name, field] of Object.entries(expected)) {
      const r = only(name, laser(`agent_invalid_${name}.bin`));
      expect(errorRules(r), name).toContain(`agdx/matrix/${field}`);
    }
  });

  it('agent_must_understand gives agdx/must-understand with the unmet mask 0000000000000005', () => {
    const r = only('mu', laser('agent_must_understand.bin'));
    const f = r.findings.filter((x) => x.rule === 'agdx/must-understand');
    expect(f).toHaveLength(1);
    expect(f[0].severity).toBe('error');
    expect(f[0].message).toContain('0000000000000005');
    expect(r.valid).toBe(false);
  });

  const valid = ENVELOPES.filter((e) => !e.violation);
  it.each(valid)('$file has no finding at all', (e) => {
    const r = only(e.file, laser(e.file));
    expect(r.findings).toEqual([]);
    expect(r.valid).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// 4. The laser record and the Iggy layouts
// ---------------------------------------------------------------------------------------------

const RECORD_INPUTS = [
  { file: LASER + 'agent_record.bin', format: 'cbor' },
  { file: 'iggy/record_http_v07.json', format: 'iggy-json(>=0.7)' },
  { file: 'iggy/record_http_v06.json', format: 'iggy-json(0.5-0.6)' },
  { file: 'made/record_http_v04.json', format: 'iggy-json(<=0.4)' },
  { file: 'made/iggy_headers_v07_payload.bin', format: 'iggy-headers(>=0.7)' },
  { file: 'made/iggy_headers_v06_payload.bin', format: 'iggy-headers(<=0.6)' },
];
const JSON_INPUTS = RECORD_INPUTS.filter((x) => x.file.endsWith('.json'));
const BINARY_INPUTS = RECORD_INPUTS.filter((x) => !x.file.endsWith('.json'));

const CONV_LE = '0200000000000000000000aa1f3c9001';

function header(r: FlatRecord, name: string) {
  return r.headers?.find((h) => h.name === name);
}

function checkCommandRecord(r: FlatRecord) {
  expect(r.format).toBe('agdx.record');
  expect(r.decoded).toBe(true);
  expect(r.kind).toBe('command');
  expect(r.id).toBe(ID(1));
  expect(r.conversation).toBe(ID(2));
  expect(r.source).toBe(SOURCE);
  expect(r.target).toBe('target-agent');
  expect(toHex(encodeEnvelope(r.envelope!))).toBe(toHex(laser('agent_command.bin')));
}

describe('agdx.record: the laser record and the Iggy layouts carry the same command', () => {
  it.each(RECORD_INPUTS)('$file', ({ file, format }) => {
    const { format: got, records } = inspectOne(file, vector(file));
    expect(got).toBe(format);
    expect(records).toHaveLength(1);
    const r = records[0];
    checkCommandRecord(r);
    expect(r.valid).toBe(true);
    expect(r.findings).toEqual([]);
    expect(rules(r).filter((x) => x.startsWith('agdx/header/'))).toEqual([]);
    // The four headers, read as the binding defines them.
    expect(r.headers!.map((h) => h.name).sort()).toEqual(['agdx.av', 'agdx.ct', 'agdx.to', 'gen_ai.conversation.id']);
    expect(header(r, 'agdx.av')).toMatchObject({ kind: 'uint32', hex: '01000000', display: '1' });
    expect(header(r, 'agdx.ct')).toMatchObject({ kind: 'uint8', hex: '01', display: '1' });
    expect(header(r, 'agdx.to')).toMatchObject({ kind: 'string', display: 'target-agent' });
    const conv = header(r, 'gen_ai.conversation.id')!;
    expect(conv.kind).toBe('uint128');
    expect(conv.hex).toBe(CONV_LE);
    // Little-endian: reversed, it is the envelope's (big-endian) conversation id.
    expect(toHex(hex(conv.hex).reverse())).toBe(toHex(r.envelope!.conversation));
    expect(conv.display).toContain(ID(2));
    // agdx.ct = 1: the body is JSON and shown as JSON.
    expect(r.body!.rendering).toBe('json');
    expect(JSON.parse(r.body!.text)).toEqual({ ask: 'plan the trip' });
    expect(r.body!.reason).toContain('agdx.ct = 1');
  });

  it.each(JSON_INPUTS)('$file keeps the log time and position (partition 1, offset 41)', ({ file }) => {
    const r = only(file, vector(file));
    expect(r.logTimeMicros).toBe(1717171717000000n);
    expect(r.logPosition).toEqual({ stream: null, topic: null, partition: 1, offset: 41n });
    expect(r.span).toBeNull();
    expect(r.inputSpan).not.toBeNull();
    const report = buildReport({ inputs: [], records: [inspectedOf(r)] });
    expect(report.records[0].log_time_micros).toBe('1717171717000000');
  });

  it.each(BINARY_INPUTS)('$file: header values have spans on their bytes', ({ file }) => {
    const bytes = vector(file);
    const r = only(file, bytes);
    for (const h of r.headers!) {
      expect(h.span, h.name).not.toBeNull();
      expect(toHex(bytes.subarray(...h.span!))).toBe(h.hex);
    }
  });

  it('agent_record.bin: the record spans its payload inside the file', () => {
    const bytes = laser('agent_record.bin');
    const r = only('rec', bytes);
    expect(toHex(bytes.subarray(...r.span!))).toBe(toHex(laser('agent_command.bin')));
  });
});

/** Variants: each input edited so one header disagrees; the rule that must fire and its severity. */
type Edit = 'conversation-be' | 'conversation-other' | 'to' | 'av' | 'ct';

function editBinary(file: string, edit: Edit): { bytes: Uint8Array; at: number } {
  const bytes = vector(file);
  const laserRecord = file.endsWith('agent_record.bin');
  switch (edit) {
    case 'conversation-be':
      return patchAfter(bytes, 'gen_ai.conversation.id', hex(CONV_LE), hex(CONV_LE).reverse());
    case 'conversation-other':
      return patchAfter(bytes, 'gen_ai.conversation.id', hex(CONV_LE), hex('0300000000000000000000aa1f3c9001'));
    case 'to':
      return patchAfter(bytes, 'agdx.to', utf8('target-agent'), utf8('target-agenT'));
    case 'av': {
      const r = laserRecord
        ? patchAfter(bytes, 'agdx.av', hex('4401000000'), hex('4402000000'))
        : patchAfter(bytes, 'agdx.av', hex('0b0400000001000000'), hex('0b0400000002000000'));
      return { bytes: r.bytes, at: r.at + (laserRecord ? 1 : 5) };
    }
    case 'ct': {
      const r = laserRecord ? patchAfter(bytes, 'agdx.ct', hex('4101'), hex('4163')) : patchAfter(bytes, 'agdx.ct', hex('090100000001'), hex('090100000063'));
      return { bytes: r.bytes, at: r.at + (laserRecord ? 1 : 5) };
    }
  }
}

function editJson(file: string, edit: Edit): Uint8Array {
  const doc = JSON.parse(text(vector(file)));
  const m = doc.messages[0];
  const b64 = (b: Uint8Array) => toBase64(b);
  const set = (name: string, value: string) => {
    if (Array.isArray(m.user_headers)) {
      const h = m.user_headers.find((x: { key: { value: string } }) => x.key.value === b64(utf8(name)));
      h.value.value = value;
    } else (m.user_headers ?? m.headers)[name].value = value;
  };
  if (edit === 'conversation-be') set('gen_ai.conversation.id', b64(hex(CONV_LE).reverse()));
  if (edit === 'conversation-other') set('gen_ai.conversation.id', b64(hex('0300000000000000000000aa1f3c9001')));
  if (edit === 'to') set('agdx.to', b64(utf8('other-agent')));
  if (edit === 'av') set('agdx.av', b64(hex('02000000')));
  if (edit === 'ct') set('agdx.ct', b64(hex('63')));
  return utf8(JSON.stringify(doc, null, 2));
}

const EDITS: { edit: Edit; rule: string; severity: Finding['severity']; header: string; message: RegExp; valid: boolean }[] = [
  { edit: 'conversation-be', rule: 'agdx/header/conversation', severity: 'error', header: 'gen_ai.conversation.id', message: /big-endian/, valid: false },
  {
    edit: 'conversation-other',
    rule: 'agdx/header/conversation',
    severity: 'error',
    header: 'gen_ai.conversation.id',
    message: /01J0Y1ZAG00000000000000003/,
    valid: false,
  },
  { edit: 'to', rule: 'agdx/header/to', severity: 'error', header: 'agdx.to', message: /target-agent/, valid: false },
  { edit: 'av', rule: 'agdx/header/av', severity: 'error', header: 'agdx.av', message: /2/, valid: false },
  { edit: 'ct', rule: 'agdx/header/ct', severity: 'info', header: 'agdx.ct', message: /99/, valid: true },
];

describe('header variants', () => {
  const cases = RECORD_INPUTS.flatMap((input) => EDITS.map((e) => ({ ...e, file: input.file })));
  it.each(cases)('$file with $edit → $rule ($severity)', ({ file, edit, rule, severity, header: name, message, valid }) => {
    const json = file.endsWith('.json');
    const edited = json ? { bytes: editJson(file, edit), at: -1 } : editBinary(file, edit);
    const r = only(file, edited.bytes);
    expect(r.decoded).toBe(true);
    expect(r.format).toBe('agdx.record');
    checkCommandRecord(r);
    const headerFindings = r.findings.filter((f) => f.rule.startsWith('agdx/header/'));
    expect(headerFindings.map((f) => f.rule)).toEqual([rule]);
    const f = headerFindings[0];
    expect(f.severity).toBe(severity);
    expect(f.path).toBe(`headers.${name}`);
    expect(f.message).toMatch(message);
    expect(r.valid).toBe(valid);
    if (!json) {
      // The finding points at the header's value bytes.
      expect(f.span).not.toBeNull();
      expect(f.span![0]).toBe(edited.at);
    }
    if (edit === 'conversation-other') expect(f.message).not.toMatch(/big-endian/);
    if (edit === 'ct') {
      expect(r.body!.rendering).toBe('hex');
      expect(r.body!.text).toBe(toHex(utf8('{"ask":"plan the trip"}')));
    }
  });

  it('a laser record whose partition_key names another conversation', () => {
    const { bytes } = patchAfter(laser('agent_record.bin'), 'partition_key', utf8(ID(2)), utf8(ID(3)));
    const r = only('rec', bytes);
    const f = r.findings.filter((x) => x.rule === 'agdx/header/conversation');
    expect(f).toHaveLength(1);
    expect(f[0].path).toBe('partition_key');
    expect(r.valid).toBe(false);
  });

  it('a record without agdx.av is flagged (generic provenance message, not AGDX)', () => {
    const doc = JSON.parse(text(vector('iggy/record_http_v06.json')));
    delete doc.messages[0].user_headers['agdx.av'];
    const r = only('v06', utf8(JSON.stringify(doc)));
    expect(r.findings.map((f) => f.rule)).toEqual(['agdx/header/av']);
  });
});

// ---------------------------------------------------------------------------------------------
// 5. Dead letter, capsules, control frames
// ---------------------------------------------------------------------------------------------

describe('dead letter', () => {
  it('agent_dead_letter.bin gives the capsule and its payload as an envelope', () => {
    const bytes = laser('agent_dead_letter.bin');
    const payload = payloadOf(bytes);
    const { records } = inspectOne('dl', bytes);
    expect(records).toHaveLength(2);
    const [dl, inner] = records;
    expect(dl).toMatchObject({ index: 0, format: 'agdx.dead_letter', decoded: true, valid: true, parent: null, span: [0, bytes.length] });
    expect(dl.summary).toContain('retry_exhausted');
    expect(dl.summary).toContain('5 attempts');
    expect(dl.summary).toContain('stream 1, topic 2, partition 3, offset 99');
    expect(dl.summary).toContain('handler kept failing');
    expect(inner).toMatchObject({
      index: 1,
      format: 'agdx.envelope',
      parent: 0,
      decoded: true,
      valid: true,
      kind: 'command',
      id: ID(1),
      conversation: ID(2),
      source: SOURCE,
    });
    // The payload's span is inside the file and holds the payload verbatim.
    const [s, e] = inner.span!;
    expect(s).toBeGreaterThan(0);
    expect(e).toBeLessThanOrEqual(bytes.length);
    expect(toHex(bytes.subarray(s, e))).toBe(toHex(payload));
    expect(text(inner.envelope!.body!)).toBe('poison');
    const report = buildReport({ inputs: [], records: records.map(inspectedOf) });
    expect(report.records[1].parent).toBe(0);
    expect(report.records[0].parent).toBeUndefined();
  });
});

describe('capsules and control frames', () => {
  it.each([
    ['agent_error_body.bin', 'error_body', 'tool_failure'],
    ['agent_card.bin', 'card', 'trip-planner 1.4.2, 2 capabilities'],
    ['agent_body_ref.bin', 'body_ref', 's3://transcripts/conv-2/msg-9'],
    ['agent_signature.bin', 'signature', 'abababababababab'],
    ['agent_presence.bin', 'presence', 'source-agent'],
  ])('%s is an agdx.capsule of kind %s', (file, kind, summary) => {
    const r = only(file, laser(file));
    expect(r).toMatchObject({ format: 'agdx.capsule', kind, decoded: true, valid: true, error: null, findings: [] });
    expect(r.summary).toContain(summary);
    expect(buildReport({ inputs: [], records: [inspectedOf(r)] }).records[0]).toMatchObject({ format: 'agdx.capsule', kind });
  });

  it.each([
    ['agent_submit.bin', 'submit'],
    ['agent_list_page.bin', 'list_page'],
    ['agent_reply_status.bin', 'reply_status'],
    ['agent_reply_list_page.bin', 'reply_list_page'],
    ['agent_reply_error.bin', 'reply_error'],
  ])('%s is an agdx.control frame of kind %s', (file, kind) => {
    const r = only(file, laser(file));
    expect(r).toMatchObject({ format: 'agdx.control', kind, decoded: true, error: null, envelope: null });
    expect(buildReport({ inputs: [], records: [inspectedOf(r)] }).records[0]).toMatchObject({ format: 'agdx.control', kind });
  });

  it('a control frame with an out-of-range *_micros is still shown (regression: Date threw)', () => {
    const bytes = laser('agent_reply_status.bin').slice();
    // updated_at_micros = 0xe50619c232450d80 (beyond what a Date holds).
    const at = indexOf(bytes, hex('1b000619c232450d80'));
    expect(at).toBeGreaterThan(0);
    bytes[at + 1] = 0xe5;
    const r = only('reply', bytes);
    expect(r).toMatchObject({ format: 'agdx.control', kind: 'reply_status', decoded: true });
    expect(r.error).toBeNull();
  });

  /** An AgentCard with `n` capabilities. */
  function card(n: number): Uint8Array {
    const w = new CborWriter().head(5, 2).text('name').text('big-card').text('capabilities').head(4, n);
    for (let i = 0; i < n; i++) w.head(5, 1).text('skill_id').text(`skill-${i}`);
    return w.finish();
  }

  it('a card with 65 capabilities breaks agdx/cap/capabilities; 64 is fine', () => {
    const r65 = only('card', card(65));
    expect(r65).toMatchObject({ format: 'agdx.capsule', kind: 'card', decoded: true, valid: false });
    expect(errorRules(r65)).toEqual(['agdx/cap/capabilities']);
    const r64 = only('card', card(64));
    expect(r64).toMatchObject({ format: 'agdx.capsule', kind: 'card', decoded: true, valid: true, findings: [] });
  });

  it('a status card envelope whose body lists 65 capabilities breaks agdx/cap/capabilities', () => {
    const body = card(65);
    const w = new CborWriter()
      .head(5, 6)
      .text('kind')
      .text('status')
      .text('record')
      .bytes(hex(idHex(1)))
      .text('conversation')
      .bytes(hex(idHex(2)))
      .text('source')
      .text(SOURCE)
      .text('operation')
      .text('card')
      .text('body')
      .bytes(body);
    const r = only('status', w.finish());
    expect(r.format).toBe('agdx.envelope');
    expect(r.body!.rendering).toBe('card');
    expect(errorRules(r)).toEqual(['agdx/cap/capabilities']);
  });

  /** A BodyRef whose reference is `n` bytes. */
  function bodyRef(n: number): Uint8Array {
    return new CborWriter().head(5, 3).text('reference').text('r'.repeat(n)).text('size_bytes').uint(10).text('sha256').bytes(new Uint8Array(32)).finish();
  }

  it('a BodyRef with a 1025-byte reference breaks agdx/cap/body_ref; 1 and 1024 are fine; 0 is not', () => {
    const r = only('ref', bodyRef(1025));
    expect(r).toMatchObject({ format: 'agdx.capsule', kind: 'body_ref', decoded: true, valid: false });
    expect(errorRules(r)).toEqual(['agdx/cap/body_ref']);
    expect(r.findings[0].path).toBe('capsule.reference');
    for (const n of [1, 1024]) expect(only('ref', bodyRef(n))).toMatchObject({ kind: 'body_ref', valid: true, findings: [] });
    expect(errorRules(only('ref', bodyRef(0)))).toEqual(['agdx/cap/body_ref']);
  });
});

// ---------------------------------------------------------------------------------------------
// The JSON view of the command decodes to the same envelope
// ---------------------------------------------------------------------------------------------

describe('the JSON view', () => {
  it('made/command.json decodes to the command, canonical bytes and all', () => {
    const r = only('command.json', vector('made/command.json'));
    expect(r).toMatchObject({
      format: 'agdx.envelope',
      decoded: true,
      valid: true,
      kind: 'command',
      id: ID(1),
      conversation: ID(2),
      source: SOURCE,
      target: 'target-agent',
    });
    const env: Envelope = r.envelope!;
    expect(toHex(encodeEnvelope(env))).toBe(toHex(laser('agent_command.bin')));
    expect(r.findings).toEqual([]);
  });
});
