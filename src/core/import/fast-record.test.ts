// A bulk-read envelope's data lets its envelope go and reads it again from the input: the same
// envelope, the same body span, whichever the reader asks for first; its verdict says what the
// general read's does.
import { describe, expect, it } from 'vitest';
import { agdxSequence, BENCH_PUBLIC_KEY } from '../../../test/support/generate';
import { applyKeys } from '../agdx/verify';
import { toHex } from '../bytes';
import { inspectInput, inspectInputBatches } from '../inspect';
import { parseKeys } from '../keys/keys';
import type { InspectedRecord } from '../records';
import { verdictFields } from '../verdict';
import { letGoOfEnvelopes } from './fast-record';

const read = (bytes: Uint8Array): InspectedRecord[] =>
  [...inspectInputBatches(0, { name: 'x', bytes }, undefined, 7, { digest: false })].flatMap((b) => b.records);

describe('bulk-read envelopes let go', () => {
  const bytes = agdxSequence(60, { dialect: '0.7' });
  const mixed = agdxSequence(60);

  it.each([
    ['0.0.1 mix', mixed],
    ['0.7 mix', bytes],
  ])('%s: the envelope read again is the envelope read first, and nothing is held after', (_, input) => {
    const records = read(input);
    const held = records.map((r) => ({ envelope: r.data.envelope, bodySpan: r.data.bodySpan, headers: r.data.headers, logPosition: r.data.logPosition }));
    expect(records.filter((r) => r.data.envelope !== null).length).toBe(60);
    letGoOfEnvelopes(records);
    const again = records.map((r) => ({ envelope: r.data.envelope, bodySpan: r.data.bodySpan, headers: r.data.headers, logPosition: r.data.logPosition }));
    expect(again).toEqual(held);
    // Read anew each time: no envelope object is kept by the record.
    const letGo = records.filter((r) => {
      const first = r.data.envelope;
      return first !== r.data.envelope;
    });
    expect(letGo.length).toBeGreaterThan(50);
    // The body span is where the body's bytes are in the record's view.
    for (const r of records) {
      const env = r.data.envelope!;
      const span = r.data.bodySpan;
      if (!env.body) expect(span).toBeNull();
      else expect(r.data.view.subarray(span![0], span![1])).toEqual(env.body);
    }
  });
});

describe('bulk-read envelopes let go after a key change', () => {
  const keys = parseKeys(JSON.stringify({ keys: [{ agent: 'agent-0', public_key: toHex(BENCH_PUBLIC_KEY) }] })).keys;

  it('a record whose verdict a key change renewed lets its envelope go too', () => {
    const keyed = applyKeys(read(agdxSequence(60)), keys);
    // Some records are new objects around the same data (their signature part changed).
    const renewed = keyed.filter((r) => (r.data as unknown) !== r);
    expect(renewed.length).toBeGreaterThan(5);
    letGoOfEnvelopes(keyed);
    // Each is read anew when asked: none is held.
    const held = renewed.filter((r) => {
      const first = r.data.envelope;
      return first === r.data.envelope;
    });
    expect(held).toEqual([]);
  });
});

describe('bulk-read verdicts', () => {
  // A key for the generated logs' signer: applying it gives every signed record a new signature part.
  const keys = parseKeys(JSON.stringify({ keys: [{ agent: 'agent-0', public_key: toHex(BENCH_PUBLIC_KEY) }] })).keys;

  it.each([
    ['0.0.1 mix', agdxSequence(80)],
    ['0.7 mix', agdxSequence(80, { dialect: '0.7' })],
  ])('%s: say field by field what the general read says, before and after their envelopes are let go and with keys applied', (_, input) => {
    const bulk = read(input);
    const full = inspectInput(0, { name: 'x', bytes: input }, undefined, true).records;
    // Most are read the fast way (their verdicts make some fields when asked): the comparison is of those.
    expect(bulk.filter((r) => Object.getPrototypeOf(r.verdict) !== Object.prototype).length).toBeGreaterThan(40);
    const fields = (rs: readonly InspectedRecord[]) => rs.map((r) => verdictFields(r.verdict));
    expect(fields(bulk)).toEqual(fields(full));
    letGoOfEnvelopes(bulk);
    expect(fields(bulk)).toEqual(fields(full));
    // A key change makes new verdicts (verdict.ts withSignature): those keep the fields made when asked.
    const keyedBulk = applyKeys(bulk, keys);
    const keyedFull = applyKeys(full, keys);
    const bulkValid = keyedBulk.filter((r) => r.verdict.signature.status === 'valid' && Object.getPrototypeOf(r.verdict) !== Object.prototype);
    expect(bulkValid.length).toBeGreaterThan(5);
    expect(fields(keyedBulk)).toEqual(fields(keyedFull));
  });
});
