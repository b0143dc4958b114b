import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readItemAt } from '../cbor/reader';
import { agdxSequence } from '../../../bench/generate';
import { encodeEnvelope } from './canonical';
import { decodeEnvelope, type MetaValue } from './envelope';
import { readCanonicalEnvelope } from './fast';

const dir = resolve(__dirname, '../../../vectors/agdx/laser-wire-0.0.1');

/** The general decoder's envelope, or null when it does not decode. */
function general(bytes: Uint8Array, start = 0) {
  const item = readItemAt(bytes, start);
  if (!item.ok) return null;
  const d = decodeEnvelope(item.value);
  return d.ok ? { envelope: d.value.envelope, end: item.value.end } : null;
}

describe('the canonical fast path', () => {
  it('reads every canonical fixture envelope exactly as the general decoder does', () => {
    let fast = 0;
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.bin'))) {
      const bytes = new Uint8Array(readFileSync(resolve(dir, f)));
      const r = readCanonicalEnvelope(bytes, 0);
      const g = general(bytes);
      if (!r) continue;
      fast++;
      expect(g, f).not.toBeNull();
      expect(r.envelope, f).toEqual(g!.envelope);
      expect(r.end, f).toBe(g!.end);
    }
    expect(fast).toBeGreaterThanOrEqual(20);
  });

  it('agrees with the general decoder on a generated sequence of mixed kinds', () => {
    const seq = agdxSequence(400);
    let pos = 0;
    let n = 0;
    while (pos < seq.length) {
      const r = readCanonicalEnvelope(seq, pos)!;
      expect(r).not.toBeNull();
      const g = general(seq, pos)!;
      expect(r.envelope).toEqual(g.envelope);
      expect(r.end).toBe(g.end);
      pos = r.end;
      n++;
    }
    expect(n).toBe(400);
  });

  it('never accepts what is not canonical, and never disagrees with the general decoder (property)', () => {
    const command = new Uint8Array(readFileSync(resolve(dir, 'agent_command_signed.bin')));
    fc.assert(
      fc.property(fc.nat(command.length - 1), fc.integer({ min: 1, max: 255 }), fc.boolean(), (at, delta, cut) => {
        const bytes = command.slice();
        bytes[at] ^= delta;
        const input = cut ? bytes.subarray(0, at + 1) : bytes;
        const r = readCanonicalEnvelope(input, 0);
        if (!r) return;
        // Accepted: the bytes must be the canonical encoding of what both decoders read.
        const g = general(input)!;
        expect(g).not.toBeNull();
        expect(r.envelope).toEqual(g.envelope);
        expect(encodeEnvelope(r.envelope)).toEqual(input.subarray(0, r.end));
      }),
      { numRuns: 3000, seed: 5 },
    );
  });

  it('leaves metadata past its caps (more than 32 entries, a list longer than a value may be) to the general decoder, building nothing for it', () => {
    const event = decodeEnvelope((readItemAt(new Uint8Array(readFileSync(resolve(dir, 'agent_event.bin'))), 0) as { ok: true; value: never }).value);
    if (!event.ok) throw new Error('fixture');
    const withMetadata = (entries: [string, MetaValue][]) => encodeEnvelope({ ...event.value.envelope, metadata: new Map(entries) });
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${String(i).padStart(3, '0')}`);
    // Up to those counts the fast path reads it (what the caps then say is validateFields' to find).
    expect(readCanonicalEnvelope(withMetadata(keys(32).map((k) => [k, { type: 'null' }])), 0)).not.toBeNull();
    expect(readCanonicalEnvelope(withMetadata([['l', { type: 'list', items: Array(1024).fill({ type: 'null' }) }]]), 0)).not.toBeNull();
    // One past: the general decoder, which reports agdx/cap/metadata (or refuses an item bomb).
    const entries33 = withMetadata(keys(33).map((k) => [k, { type: 'null' }]));
    expect(readCanonicalEnvelope(entries33, 0)).toBeNull();
    expect(general(entries33)?.envelope.metadata?.size).toBe(33);
    const list1025 = withMetadata([['l', { type: 'list', items: Array(1025).fill({ type: 'null' }) }]]);
    expect(readCanonicalEnvelope(list1025, 0)).toBeNull();
    expect(general(list1025)).not.toBeNull();
  });

  it('sends non-canonical forms to the general decoder', () => {
    const cases = ['a1646b696e64f6', 'bf646b696e6465766576656e74ff', 'a1d818646b696e64'];
    for (const hex of cases) expect(readCanonicalEnvelope(Uint8Array.from(Buffer.from(hex, 'hex')), 0)).toBeNull();
    // And a canonical one does take the fast path (so the nulls above are not the only answer it gives).
    expect(readCanonicalEnvelope(new Uint8Array(readFileSync(resolve(dir, 'agent_event.bin'))), 0)).not.toBeNull();
  });
});
