import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from '../bytes';
import { decodeBundle, decodePermalink, encodeBundle, encodePermalink, MAX_INFLATED, type ShareState } from './permalink';

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
    const hostile = ['', '#', 'v1.', 'v1.!!!!', 'v0.AAAA', 'v999999999999.AAAA', 'javascript:alert(1)', '<script>', 'v1.' + 'A'.repeat(10_000), 'v1.' + '_'.repeat(5)];
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
    // 80 MiB of zeros compresses to a few tens of KiB.
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
