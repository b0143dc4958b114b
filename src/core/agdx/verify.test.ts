// Applying keys reads no envelope of an unsigned record (no key changes its verdict), and gives the
// same records as reading every envelope does.
import { describe, expect, it } from 'vitest';
import { agdxSequence, BENCH_PUBLIC_KEY } from '../../../test/support/generate';
import { toHex } from '../bytes';
import { inspectInput } from '../inspect';
import { parseKeys } from '../keys/keys';
import type { InspectedRecord } from '../records';
import { applyKeys, applyKeysWith, verifyEnvelope } from './verify';
import * as ed from '@noble/ed25519';

const keys = parseKeys(JSON.stringify({ keys: [{ agent: 'agent-0', public_key: toHex(BENCH_PUBLIC_KEY) }] })).keys;

/** The records, each counting how often its envelope is read. */
function counted(records: readonly InspectedRecord[]) {
  const reads = new Map<number, number>();
  const out = records.map((r, i): InspectedRecord => {
    const data = r.data;
    return {
      verdict: r.verdict,
      data: new Proxy(data, {
        get(target, key) {
          if (key === 'envelope') reads.set(i, (reads.get(i) ?? 0) + 1);
          return Reflect.get(target, key, target);
        },
      }),
    };
  });
  return { out, reads };
}

describe('applying keys', () => {
  const records = inspectInput(0, { name: 'log', bytes: agdxSequence(40, { signedEvery: 4 }) }).records;
  const unsigned = records.flatMap((r, i) => (r.verdict.signature.status === 'unsigned' ? [i] : []));

  it('reads no envelope of an unsigned record, and changes only the signed ones', async () => {
    expect(unsigned.length).toBeGreaterThan(20);
    // What reading it would give: its verdict as it is (the keys are not asked about an unsigned envelope).
    for (const i of unsigned) {
      const r = records[i];
      const again = verifyEnvelope(r.data.envelope!, {
        keys,
        observed: r.data.observed,
        logTimeMicros: r.verdict.logTimeMicros,
        notCovered: r.verdict.signature.not_covered,
      });
      expect(again).toEqual(r.verdict.signature);
    }
    const pooled = async (jobs: { signature: Uint8Array; message: Uint8Array; publicKey: Uint8Array }[]) =>
      jobs.map((j) => ed.verify(j.signature, j.message, j.publicKey));
    for (const apply of [(rs: InspectedRecord[]) => applyKeys(rs, keys), (rs: InspectedRecord[]) => applyKeysWith(rs, keys, pooled)]) {
      const { out, reads } = counted(records);
      const keyed = await apply(out);
      for (const i of unsigned) {
        expect(reads.get(i) ?? 0).toBe(0);
        expect(keyed[i]).toBe(out[i]);
      }
      expect(keyed.map((r) => r.verdict)).toEqual(applyKeys(records, keys).map((r) => r.verdict));
      expect(keyed.filter((r) => r.verdict.signature.status === 'valid').length).toBe(records.length - unsigned.length);
    }
  });
});
