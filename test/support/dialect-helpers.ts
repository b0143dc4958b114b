// For the dialect tests: CBOR written from plain values, ids and log positions, 0.7 envelopes, and
// one record read the way the command line reads it.
import { CborWriter } from '../../src/core/cbor/encoder';
import type { Header } from '../../src/core/agdx/iggy';
import { inspect } from '../../src/core/inspect';
import { buildReport, type ReportRecord } from '../../src/core/report';
import type { RegistryEntry } from '../../src/core/keys/keys';
import { encodeEnvelope } from '../../src/core/agdx/canonical';
import type { Envelope } from '../../src/core/agdx/envelope';

/** A value written as CBOR: a Map or plain object as a map (keys in order), a number as an integer when it is one, undefined as simple 23. */
export function cbor(value: unknown): Uint8Array {
  const w = new CborWriter();
  write(w, value);
  return w.finish();
}

/** A float, written as one even when its value is integral. */
export class Float {
  constructor(readonly value: number) {}
}

/** Raw CBOR bytes written as they are inside a value. */
export class Raw {
  constructor(readonly bytes: Uint8Array) {}
}

function write(w: CborWriter, v: unknown): void {
  if (v === null) w.null();
  else if (v === undefined) w.raw(0xf7);
  else if (typeof v === 'boolean') w.bool(v);
  else if (typeof v === 'bigint') w.int(v);
  else if (typeof v === 'number') Number.isInteger(v) ? w.int(v) : w.float(v);
  else if (typeof v === 'string') w.text(v);
  else if (v instanceof Float) w.float(v.value);
  else if (v instanceof Raw) w.append(v.bytes);
  else if (v instanceof Uint8Array) w.bytes(v);
  else if (Array.isArray(v)) {
    w.head(4, v.length);
    for (const x of v) write(w, x);
  } else {
    const entries = v instanceof Map ? [...v] : Object.entries(v as object);
    w.head(5, entries.length);
    for (const [k, x] of entries) {
      write(w, k);
      write(w, x);
    }
  }
}

/** The 16-byte id of the number `n` (big-endian), as the vectors number their ids. */
export function id(n: number): Uint8Array {
  const b = new Uint8Array(16);
  new DataView(b.buffer).setUint32(12, n);
  return b;
}

/** A 20-byte log position. */
export function position(stream: number, topic: number, partition: number, offset: bigint): Uint8Array {
  const b = new Uint8Array(20);
  const dv = new DataView(b.buffer);
  dv.setUint32(0, stream);
  dv.setUint32(4, topic);
  dv.setUint32(8, partition);
  dv.setBigUint64(12, offset);
  return b;
}

/** A command of conversation 2 from planner with correlation 3, as the vectors' v01 without its lineage. */
export function command(extra: Partial<Envelope> = {}): Envelope {
  return { kind: 'command', record: id(1), conversation: id(2), source: 'planner', correlation: id(3), body: new TextEncoder().encode('{}'), ...extra };
}

/** A session status in `state` with `body` (a value, written as CBOR), lineage 4 / 5, `last` when the state is terminal. */
export function session(state: number | undefined, body: unknown, extra: Partial<Envelope> = {}): Envelope {
  const env: Envelope = { kind: 'status', record: id(1), conversation: id(2), parent: id(4), root: id(5), source: 'planner', operation: 'session', ...extra };
  if (state !== undefined) env.task_state = state;
  if (state !== undefined && [4, 5, 6, 7].includes(state) && extra.last === undefined) env.last = true;
  if (body !== undefined) env.body = body instanceof Uint8Array ? body : cbor(body);
  return env;
}

/** An event with `operation` and `body` (a value written as CBOR, or bytes). */
export function event(operation: string, body: unknown, extra: Partial<Envelope> = {}): Envelope {
  return {
    kind: 'event',
    record: id(1),
    conversation: id(2),
    source: 'planner',
    operation,
    body: body instanceof Uint8Array ? body : cbor(body),
    ...extra,
  };
}

export const START = { agent: 'planner', sdk: { language: 'typescript', version: '0.7.0' }, parent: id(4), root: id(5) };

/** A header of a string value. */
export const text = (name: string, value: string): Header => ({ name, kind: 'string', value: new TextEncoder().encode(value), span: null });

/** One record as report@1 gives it: bytes (or an envelope, encoded), read as the command line reads a file. */
export function reportOf(input: Envelope | Uint8Array, keys?: readonly RegistryEntry[]): ReportRecord {
  const bytes = input instanceof Uint8Array ? input : encodeEnvelope(input);
  const report = buildReport(inspect([{ name: 'x.bin', bytes }], { keys }));
  if (report.records.length !== 1) throw new Error(`expected one record, got ${report.records.length}`);
  return report.records[0];
}

/** The rules of a record's findings of `severity` (all by default). */
export const rulesOf = (r: ReportRecord, severity?: string) => r.findings.filter((f) => !severity || f.severity === severity).map((f) => f.rule);
