// A bulk-read envelope's data lets its envelope go and reads it again from the input: the same
// envelope, the same body span, whichever the reader asks for first.
import { describe, expect, it } from 'vitest';
import { agdxSequence } from '../../../test/support/generate';
import { inspectInputBatches } from '../inspect';
import type { InspectedRecord } from '../records';
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
