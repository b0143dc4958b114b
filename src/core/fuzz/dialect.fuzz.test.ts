// Random envelopes of the laser-sdk 0.7 dialect (agdx-gen envelope07Arb: lineage, cost, paused,
// session statuses and 0.7's bodies, well formed and broken): the fast path and the general decoder
// read their canonical bytes alike (or the fast path leaves them), and a record read in bulk gets the
// verdict it gets read in full.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeEnvelope } from '../agdx/canonical';
import { decodeEnvelope } from '../agdx/envelope';
import { readCanonicalEnvelope } from '../agdx/fast';
import { readSingle } from '../cbor/reader';
import { inspectInput } from '../inspect';
import { isValid, verdictFields } from '../verdict';
import { envelope07Arb, normEnvelope } from '../../../test/support/agdx-gen';
import { params, TIMEOUT } from '../../../test/support/fuzz';

describe('the 0.7 dialect: fast and general paths agree', () => {
  it('on random 0.7 envelopes: the same envelope, the same verdict, the same acceptance', { timeout: TIMEOUT }, () => {
    const seen = { fast: 0, general: 0, valid: 0, invalid: 0, undecoded: 0, dialect07: 0 };
    fc.assert(
      fc.property(envelope07Arb, (env) => {
        const bytes = encodeEnvelope(env);
        const item = readSingle(bytes);
        expect(item.ok).toBe(true);
        const general = item.ok ? decodeEnvelope(item.value) : null;
        const fast = readCanonicalEnvelope(bytes, 0);
        if (fast) {
          expect(general?.ok).toBe(true);
          expect(fast.end).toBe(bytes.length);
          if (general?.ok) expect(normEnvelope(fast.envelope)).toEqual(normEnvelope(general.value.envelope));
        }
        const bulkRead = inspectInput(0, { name: 'x.bin', bytes }, undefined, false).records;
        const fullRead = inspectInput(0, { name: 'x.bin', bytes }, undefined, true).records;
        expect(bulkRead).toHaveLength(1);
        // Field by field: a bulk-read verdict makes some when asked (fast-record.ts BulkRecord).
        expect(verdictFields(bulkRead[0].verdict)).toEqual(verdictFields(fullRead[0].verdict));
        const v = fullRead[0].verdict;
        // A bulk read takes the fast way only for a record with nothing to report (fast-record.ts).
        if (v.findings.length) seen.general++;
        else seen.fast++;
        if (v.dialect === '0.7') seen.dialect07++;
        if (!v.decoded) seen.undecoded++;
        else if (isValid(v)) seen.valid++;
        else seen.invalid++;
      }),
      params('dialect07-paths', 0.3),
    );
    // Both paths, and every verdict, were exercised.
    for (const [k, n] of Object.entries(seen)) expect(n, k).toBeGreaterThan(0);
  });
});
