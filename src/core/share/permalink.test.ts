import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { concatBytes, fromBase64, toBase64 } from '../bytes';
import { decodeBundle, decodePermalink, encodeBundle, encodePermalink, inflate, MAX_INFLATED, ShareTooLargeError, type ShareState } from './permalink';

const state: ShareState = {
  inputs: [
    { name: 'conv.cborseq', bytes: new Uint8Array([0xa3, 1, 2, 3, 255, 0]) },
    { name: 'export.json', bytes: new TextEncoder().encode('{"messages":[]}') },
  ],
  redacted: false,
  view: { selected: { input: 1, index: 0 }, tab: 'graph', viewport: { x: -12.5, y: 40, zoom: 0.75 }, filters: { kind: 'command' } },
};

describe('permalink codec', () => {
  it('round-trips the inputs and the view', async () => {
    const link = await encodePermalink(state);
    expect(link.startsWith('v1.')).toBe(true);
    expect(link).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    const back = await decodePermalink(`#${link}`);
    expect(back).toEqual({ ok: true, state });
  });

  it('round-trips any inputs and views (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ name: fc.string(), bytes: fc.uint8Array({ maxLength: 200 }) }), { maxLength: 4 }),
        fc.boolean(),
        fc.option(fc.record({ input: fc.nat(10), index: fc.nat(1000) }), { nil: null }),
        async (inputs, redacted, selected) => {
          const s: ShareState = { inputs, redacted, view: { selected, tab: 'records', viewport: null, filters: {} } };
          const back = await decodePermalink(await encodePermalink(s));
          expect(back).toEqual({ ok: true, state: s });
        },
      ),
      { numRuns: 100, seed: 3 },
    );
  });

  it('carries a compared pair; a link without one (every older link) opens without it', async () => {
    const compared: ShareState = {
      ...state,
      view: { ...state.view, compare: { a: { input: 0, index: 2 }, b: { input: 1, index: 0 }, scope: 'conversations' } },
    };
    expect(await decodePermalink(await encodePermalink(compared))).toEqual({ ok: true, state: compared });
    const old = await decodePermalink(await encodePermalink(state));
    expect(old.ok && 'compare' in old.state.view).toBe(false);
  });

  it('a compared pair with a scope this version does not know is left out; one that names no record is damaged', async () => {
    const view = (compare: unknown) => ({ ...state, view: { ...state.view, compare } }) as unknown as ShareState;
    const newer = await decodePermalink(await encodePermalink(view({ a: { input: 0, index: 0 }, b: { input: 0, index: 1 }, scope: 'timelines' })));
    expect(newer.ok && 'compare' in newer.state.view).toBe(false);
    for (const bad of [
      { a: { input: -1, index: 0 }, b: { input: 0, index: 1 }, scope: 'records' },
      { a: 'x', b: { input: 0, index: 1 }, scope: 'inputs' },
    ]) {
      const r = await decodePermalink(await encodePermalink(view(bad)));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('permalink/damaged');
    }
  });

  it('a link from a newer version says so', async () => {
    const link = (await encodePermalink(state)).replace(/^v1\./, 'v2.');
    const r = await decodePermalink(link);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('permalink/newer-version');
      expect(r.error.message).toContain('newer');
    }
  });

  it('any one changed character gives the damaged message, never a wrong view', async () => {
    const link = await encodePermalink(state);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 3; i < link.length; i++) {
      const c = link[i];
      const other = alphabet[(alphabet.indexOf(c) + 17) % alphabet.length];
      const r = await decodePermalink(link.slice(0, i) + other + link.slice(i + 1));
      expect(r.ok, `changed char ${i}`).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('permalink/damaged');
    }
  });

  it('a truncated link is damaged, at every length', async () => {
    const link = await encodePermalink(state);
    for (let n = 0; n < link.length; n++) {
      const r = await decodePermalink(link.slice(0, n));
      expect(r.ok).toBe(false);
    }
  });

  it('hostile fragments give an error with a code, never an exception', async () => {
    const hostile = [
      '',
      '#',
      'v1.',
      'v1.!!!!',
      'v0.AAAA',
      'v999999999999.AAAA',
      'javascript:alert(1)',
      '<script>',
      'v1.' + 'A'.repeat(10_000),
      'v1.' + '_'.repeat(5),
    ];
    for (const h of hostile) {
      const r = await decodePermalink(h);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toMatch(/^permalink\//);
    }
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), async (s) => {
        const r = await decodePermalink(`v1.${s}`);
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('a compression bomb is refused before it is inflated whole', async () => {
    // 24 MiB of zeros compresses to a few tens of KiB.
    const zeros = new Uint8Array(MAX_INFLATED + 16 * 1024 * 1024);
    const cs = new CompressionStream('deflate-raw');
    const w = cs.writable.getWriter();
    void w.write(zeros).then(() => w.close());
    const compressed = new Uint8Array(await new Response(cs.readable).arrayBuffer());
    const packed = new Uint8Array(8 + compressed.length);
    packed.set(compressed, 8);
    const r = await decodePermalink(`v1.${toBase64(packed, true)}`);
    expect(r).toMatchObject({ ok: false, error: { code: 'permalink/too-large' } });
  });
});

describe('the decompressed size limit (8 MiB)', () => {
  /** Deflate of `n` zero bytes, written by hand (fixed Huffman: a literal 0, then copies of 258 at distance 1), so no test allocates the output. */
  function zerosDeflated(n: number): Uint8Array {
    const out: number[] = [];
    let acc = 0;
    let bits = 0;
    const put = (value: number, count: number) => {
      for (let i = 0; i < count; i++) {
        acc |= ((value >> i) & 1) << bits;
        if (++bits === 8) {
          out.push(acc);
          acc = 0;
          bits = 0;
        }
      }
    };
    // Huffman codes are written most significant bit first.
    const code = (value: number, length: number) => {
      let r = 0;
      for (let i = 0; i < length; i++) r |= ((value >> i) & 1) << (length - 1 - i);
      put(r, length);
    };
    put(1, 1); // final block
    put(1, 2); // fixed Huffman
    code(0x30, 8); // literal 0
    let left = n - 1;
    while (left >= 258 + 3 || left === 258) {
      code(0b11000101, 8); // length code 285: 258 bytes
      code(0, 5); // distance code 0: distance 1
      left -= 258;
    }
    for (; left > 0; left--) code(0x30, 8);
    code(0, 7); // end of block (256)
    if (bits) out.push(acc);
    return Uint8Array.from(out);
  }
  const link = (deflated: Uint8Array) => `v1.${toBase64(concatBytes(new Uint8Array(8), deflated), true)}`;
  const bundle = (deflated: Uint8Array) => concatBytes(new TextEncoder().encode('EIBUNDLE'), Uint8Array.of(1), new Uint8Array(8), deflated);

  it('the hand-made deflate is what it claims (small sizes decompress to that many zeros)', async () => {
    for (const n of [1, 258, 259, 300, 1000, 5000]) {
      const out = new Uint8Array(
        await new Response(new Blob([zerosDeflated(n) as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate-raw'))).arrayBuffer(),
      );
      expect(out.length, `${n}`).toBe(n);
      expect(out.every((b) => b === 0)).toBe(true);
    }
  });

  it('a link that would decompress to one byte more than 8 MiB is refused, and says so', async () => {
    const r = await decodePermalink(link(zerosDeflated(MAX_INFLATED + 1)));
    expect(r).toMatchObject({ ok: false, error: { code: 'permalink/too-large' } });
    if (!r.ok) expect(r.error.message).toMatch(/^This link would decompress to more than 8 MiB/);
  });

  it('exactly 8 MiB decompressed is within the limit (then checked as usual: here the checksum fails)', async () => {
    const r = await decodePermalink(link(zerosDeflated(MAX_INFLATED)));
    expect(r).toMatchObject({ ok: false, error: { code: 'permalink/damaged' } });
  });

  it('a bundle past 8 MiB says it is a bundle', async () => {
    const r = await decodeBundle(bundle(zerosDeflated(MAX_INFLATED + 1)));
    expect(r).toMatchObject({ ok: false, error: { code: 'permalink/too-large' } });
    if (!r.ok) expect(r.error.message).toMatch(/^This bundle would decompress to more than 8 MiB/);
  });

  it('decompression stops as the output passes the limit: a 1 GiB bomb is fed to the decompressor only in part', async () => {
    // Count what reaches the decompressor: decompress-then-check would feed all of it.
    const Real = globalThis.DecompressionStream;
    let fed = 0;
    class Counting {
      readonly writable: WritableStream<Uint8Array>;
      readonly readable: ReadableStream<Uint8Array>;
      constructor(format: CompressionFormat) {
        const real = new Real(format);
        const into = real.writable.getWriter();
        // Each write is passed on and waited for, so the count is what the decompressor has taken.
        this.writable = new WritableStream<Uint8Array>({
          async write(chunk) {
            fed += chunk.length;
            await into.write(chunk as Uint8Array<ArrayBuffer>);
          },
          close: () => into.close(),
          abort: (reason) => into.abort(reason),
        });
        this.readable = real.readable as ReadableStream<Uint8Array>;
      }
    }
    const bomb = zerosDeflated(1024 * 1024 * 1024);
    vi.stubGlobal('DecompressionStream', Counting);
    try {
      const r = await inflate(bomb, MAX_INFLATED);
      expect(r).toBe('too-large');
    } finally {
      vi.unstubAllGlobals();
    }
    // 8 MiB of output takes about 53 KB of this input (13 bits per 258 bytes); the bomb is 6.8 MB.
    expect(bomb.length).toBeGreaterThan(6_000_000);
    expect(fed).toBeLessThan(bomb.length / 20);
  });

  it('a share that would not open (past 8 MiB) is refused when made, naming the size', async () => {
    const big: ShareState = { ...state, inputs: [{ name: 'big.bin', bytes: new Uint8Array(MAX_INFLATED) }] };
    await expect(encodePermalink(big)).rejects.toBeInstanceOf(ShareTooLargeError);
    await expect(encodeBundle(big)).rejects.toThrow(/8\.0 MiB; a link or bundle holds at most 8 MiB/);
    // Just under the limit it is made and opens.
    const small = await encodePermalink({ ...state, inputs: [{ name: 'big.bin', bytes: new Uint8Array(MAX_INFLATED - 1000) }] });
    expect((await decodePermalink(small)).ok).toBe(true);
  });

  it('a link holds no key material: only the inputs and the view', async () => {
    const link = await encodePermalink(state);
    const packed = fromBase64(link.slice(3))!;
    expect(packed.length).toBeGreaterThan(8);
    const back = await decodePermalink(link);
    expect(back.ok && Object.keys(back.state).sort()).toEqual(['inputs', 'redacted', 'view']);
  });
});

describe('bundles', () => {
  it('round-trip and refuse damage', async () => {
    const bundle = await encodeBundle(state);
    expect(new TextDecoder().decode(bundle.subarray(0, 8))).toBe('EIBUNDLE');
    expect(await decodeBundle(bundle)).toEqual({ ok: true, state });
    const damaged = bundle.slice();
    damaged[damaged.length - 3] ^= 0x40;
    expect((await decodeBundle(damaged)).ok).toBe(false);
    const newer = bundle.slice();
    newer[8] = 9;
    expect(await decodeBundle(newer)).toMatchObject({ ok: false, error: { code: 'permalink/newer-version' } });
  });
});
