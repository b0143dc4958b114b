import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readItemAt } from '../cbor/reader';
import { agdxSequence } from '../../../test/support/generate';
import { bytesEqual } from '../bytes';
import { envelopeArb, envelopeFields } from '../../../test/support/agdx-gen';
import { encodeModel, type Model } from '../../../test/support/fuzz';
import { encodeEnvelope } from './canonical';
import { decodeEnvelope, type Envelope, type MetaValue } from './envelope';
import { IdViews, readCanonicalEnvelope } from './fast';

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

  it('reads within `end` exactly as it reads bytes that stop there', () => {
    // Every cut of every envelope of a mixed sequence, then of a last chunk with no body: its last
    // byte is last = true, a one-byte value, so the cut just before it must refuse it too.
    const lastChunk = encodeEnvelope({
      kind: 'chunk',
      conversation: new Uint8Array(16).fill(7),
      source: 'a',
      channel: new Uint8Array(16).fill(9),
      sequence: 2,
      last: true,
    });
    expect(lastChunk[lastChunk.length - 1]).toBe(0xf5);
    const mixed = agdxSequence(60);
    const seq = new Uint8Array(mixed.length + 2 * lastChunk.length);
    seq.set(mixed);
    seq.set(lastChunk, mixed.length);
    seq.set(lastChunk, mixed.length + lastChunk.length);
    let start = 0;
    while (start < seq.length) {
      const whole = readCanonicalEnvelope(seq, start)!;
      for (let cut = start; cut <= whole.end; cut++) {
        const windowed = readCanonicalEnvelope(seq, start, undefined, cut);
        const copied = readCanonicalEnvelope(seq.slice(0, cut), start);
        expect(windowed === null, `${start}..${cut}`).toBe(copied === null);
        expect(windowed === null, `${start}..${cut}`).toBe(cut < whole.end);
      }
      expect(readCanonicalEnvelope(seq, start, undefined, whole.end)!.envelope).toEqual(whole.envelope);
      start = whole.end;
    }
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

describe('the canonical fast path on any envelope', () => {
  const enc = new TextEncoder();

  it('reads the canonical bytes of any envelope as the general decoder does, or leaves them to it (property)', () => {
    let fast = 0;
    let runs = 0;
    fc.assert(
      fc.property(envelopeArb, (env) => {
        runs++;
        const bytes = encodeEnvelope(env);
        const r = readCanonicalEnvelope(bytes, 0, new IdViews(bytes.length));
        const g = general(bytes);
        if (!r) return;
        fast++;
        expect(g).not.toBeNull();
        expect(r.envelope).toEqual(g!.envelope);
        expect(r.end).toBe(g!.end);
      }),
      { numRuns: 1500, seed: 16 },
    );
    // Declining is for what is outside the canonical subset (metadata past its caps, a float
    // metadata value of NaN's other forms…), not the common case.
    expect(fast).toBeGreaterThan(runs * 0.9);
  });

  it('reads text that is not ASCII (agent ids, operations, metadata keys and values) as the general decoder does', () => {
    const base: Envelope = {
      kind: 'command',
      record: new Uint8Array(16).fill(1),
      conversation: new Uint8Array(16).fill(2),
      source: 'plänner ✓',
      target: '代理-𝄞',
      correlation: new Uint8Array(16).fill(3),
      operation: 'résumé',
      body: enc.encode('{}'),
    };
    for (const metadata of [
      new Map<string, MetaValue>([
        ['clé', { type: 'text', value: 'värde' }],
        ['😀', { type: 'list', items: [{ type: 'text', value: '\ufeffbom' }] }],
      ]),
      undefined,
    ]) {
      const bytes = encodeEnvelope({ ...base, metadata });
      const r = readCanonicalEnvelope(bytes, 0);
      expect(r).not.toBeNull();
      expect(r!.envelope).toEqual(general(bytes)!.envelope);
      expect(r!.envelope.source).toBe('plänner ✓');
    }
  });

  it('leaves keys out of declaration order, an unknown or misspelt kind, and invalid UTF-8 to the general decoder', () => {
    const event = new Uint8Array(readFileSync(resolve(dir, 'agent_event.bin')));
    const g = general(event)!;
    // kind and record swapped: the same fields, out of wire order.
    const swapped = encodeModelOf([...fieldsOf(g.envelope)].sort((a, b) => (a[0] === 'record' ? -1 : b[0] === 'record' ? 1 : 0)));
    expect(readCanonicalEnvelope(swapped, 0)).toBeNull();
    expect(general(swapped)?.envelope).toEqual(g.envelope);
    for (const kind of ['Event', 'events', 'evnt', '']) {
      const bytes = encodeModelOf(fieldsOf(g.envelope).map(([k, v]) => (k === 'kind' ? [k, { t: 'text', v: kind }] : [k, v])));
      expect(readCanonicalEnvelope(bytes, 0)).toBeNull();
      expect(general(bytes)).toBeNull();
    }
    // The source's text made invalid UTF-8 (a lone continuation byte): declined, then refused.
    const source = enc.encode(g.envelope.source);
    const at = indexOfBytes(event, source);
    const broken = event.slice();
    broken[at] = 0x80;
    expect(readCanonicalEnvelope(broken, 0)).toBeNull();
    expect(general(broken)).toBeNull();
  });

  it('shares one view per repeated id of an input (conversation, correlation, the record a cause names), each equal to its bytes', () => {
    const seq = agdxSequence(300);
    const ids = new IdViews(seq.length);
    const envelopes: Envelope[] = [];
    for (let pos = 0; pos < seq.length; ) {
      const r = readCanonicalEnvelope(seq, pos, ids)!;
      const g = general(seq, pos)!;
      expect(r.envelope).toEqual(g.envelope);
      envelopes.push(r.envelope);
      pos = r.end;
    }
    // The generator's conversations are 50 records long, causes name the record before.
    expect(envelopes[1].conversation).toBe(envelopes[0].conversation);
    const caused = envelopes.findIndex((e, i) => i > 0 && e.cause !== undefined && envelopes[i - 1].record !== undefined);
    expect(caused).toBeGreaterThan(0);
    expect(envelopes[caused].cause).toBe(envelopes[caused - 1].record);
    // Different ids are never one view.
    expect(envelopes[0].conversation).not.toBe(envelopes[60].conversation);
    expect(envelopes[0].conversation).not.toEqual(envelopes[60].conversation);
  });

  it('IdViews gives every id a view of exactly its own bytes, through collisions and repeats (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(3000), { minLength: 1, maxLength: 3000 }),
        fc.integer({ min: 0, max: 15 }),
        fc.constantFrom(0, 1000, 1 << 20),
        (picks, shift, sizeHint) => {
          // A pool of ids that differ in few bytes (as ULIDs of one millisecond do), picked with repeats.
          const pool = new Uint8Array(16 * 3001 + shift);
          for (let i = 0; i <= 3000; i++) {
            pool[shift + i * 16 + 15] = i & 255;
            pool[shift + i * 16 + 14] = i >> 8;
          }
          // A table of 16 slots (many collisions) up to the largest.
          const ids = new IdViews(sizeHint);
          let previous: Uint8Array | null = null;
          for (const p of picks) {
            const at = shift + p * 16;
            const v = ids.view(pool, at);
            expect(v).toEqual(pool.subarray(at, at + 16));
            // The same id twice in a row is the same view.
            if (previous && bytesEqual(previous, v)) expect(v).toBe(previous);
            previous = v;
          }
        },
      ),
      { numRuns: 60, seed: 16 },
    );
  });
});

describe('IdViews on a hash collision', () => {
  it('two ids of the same hash get each its own view (the bytes decide, not the hash)', () => {
    // Two ids made to collide in IdViews' hash (its constants, here on purpose): the first and last
    // words differ, their products cancel. If the hash changes, the precondition below says so.
    const K0 = 0x9e3779b1;
    const K3 = 0x27d4eb2f;
    let inv = K3;
    for (let i = 0; i < 5; i++) inv = Math.imul(inv, 2 - Math.imul(K3, inv));
    const a = [0x01020304, 5, 6, 7];
    const b0 = 0x01020305;
    const b3 = Math.imul(Math.imul(a[0], K0) ^ Math.imul(b0, K0) ^ Math.imul(a[3], K3), inv);
    const bytes = new Uint8Array(32);
    const dv = new DataView(bytes.buffer);
    for (const [i, w] of [a[0], a[1], a[2], a[3], b0, a[1], a[2], b3].entries()) dv.setUint32(i * 4, w >>> 0);
    const ids = new IdViews(1 << 20);
    const first = ids.view(bytes, 0);
    const other = ids.view(bytes, 16);
    expect(other).toEqual(bytes.subarray(16, 32));
    expect(other).not.toBe(first);
    const again = ids.view(bytes, 0);
    expect(again).toEqual(bytes.subarray(0, 16));
    // Precondition: they shared a slot (the second evicted the first), so the hashes did collide.
    expect(again).not.toBe(first);
  });
});

/** The fields of an envelope as a model map, in the order given, and its bytes. */
function fieldsOf(env: Envelope): [string, Model][] {
  return envelopeFields(env);
}
function encodeModelOf(fields: [string, Model][]): Uint8Array {
  return encodeModel({ t: 'map', entries: fields.map(([k, v]) => [{ t: 'text', v: k }, v]) });
}
function indexOfBytes(hay: Uint8Array, needle: Uint8Array): number {
  for (let i = 0; i + needle.length <= hay.length; i++) if (bytesEqual(hay.subarray(i, i + needle.length), needle)) return i;
  return -1;
}
