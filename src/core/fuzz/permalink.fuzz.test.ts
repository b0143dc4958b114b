// The permalink and bundle decoders under any text or bytes: never a throw or a rejected promise,
// always a state or a permalink/* code; a damaged link never opens as another view; a payload that
// passes the checksum but holds hostile CBOR is refused or read into a well-formed state, with no
// value silently changed (`__proto__` filter keys kept, big numbers not rounded).
import { deflateRawSync } from 'node:zlib';
import { sha256 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toBase64 } from '../bytes';
import { decodeBundle, decodePermalink, encodeBundle, encodePermalink, type ShareResult, type ShareState } from '../share/permalink';
import { redactInput } from '../share/redact';
import { encodeEnvelope } from '../agdx/canonical';
import { inspect } from '../inspect';
import { envelopeArb } from '../../../test/support/agdx-gen';
import {
  boundedAsync,
  cat,
  encodeModel,
  hostileString,
  MINIMAL,
  modelArb,
  params,
  PERMALINK_CODES,
  styleArb,
  TIMEOUT,
  utf8,
  type Model,
} from '../../../test/support/fuzz';

function checkShare(r: ShareResult, where: string): void {
  if (!r.ok) {
    expect(PERMALINK_CODES.has(r.error.code), `${where}: ${r.error.code}`).toBe(true);
    expect(r.error.message.length).toBeGreaterThan(0);
    return;
  }
  // A state that opens is well-formed: what the app relies on.
  const s = r.state;
  expect(Array.isArray(s.inputs)).toBe(true);
  for (const i of s.inputs) {
    expect(typeof i.name).toBe('string');
    expect(i.bytes).toBeInstanceOf(Uint8Array);
  }
  expect(typeof s.redacted).toBe('boolean');
  expect(typeof s.view.tab).toBe('string');
  if (s.view.selected) {
    expect(Number.isSafeInteger(s.view.selected.input) && s.view.selected.input >= 0, `${where}: selected.input ${s.view.selected.input}`).toBe(true);
    expect(Number.isSafeInteger(s.view.selected.index) && s.view.selected.index >= 0, `${where}: selected.index ${s.view.selected.index}`).toBe(true);
  }
  if (s.view.viewport) {
    for (const k of ['x', 'y', 'zoom'] as const) expect(Number.isFinite(s.view.viewport[k])).toBe(true);
    expect(s.view.viewport.zoom, `${where}: zoom`).toBeGreaterThan(0);
  }
  for (const v of Object.values(s.view.filters)) expect(typeof v).toBe('string');
}

/** A link whose checksum is right for whatever payload it holds (a crafted, not a damaged, link). */
function craft(payload: Uint8Array): string {
  return `v1.${toBase64(cat(sha256(payload).subarray(0, 8), deflateRawSync(payload)), true)}`;
}

const text = (v: string): Model => ({ t: 'text', v });
const uint = (v: bigint): Model => ({ t: 'uint', v });
const map = (entries: [string, Model][]): Model => ({ t: 'map', entries: entries.map(([k, v]) => [text(k), v]) });

/** Payload maps shaped like a state, with hostile values in every place. */
const stateModel: fc.Arbitrary<Model> = fc
  .record(
    {
      v: fc.oneof(fc.constant(uint(1n)), modelArb(1)),
      inputs: fc.oneof(
        fc
          .array(
            fc
              .tuple(
                fc.oneof(hostileString.map(text), modelArb(1)),
                fc.oneof(
                  fc.uint8Array({ maxLength: 20 }).map((v): Model => ({ t: 'bytes', v })),
                  modelArb(1),
                ),
              )
              .map(([name, bytes]) =>
                map([
                  ['name', name],
                  ['bytes', bytes],
                ]),
              ),
            { maxLength: 3 },
          )
          .map((items): Model => ({ t: 'array', items })),
        modelArb(2),
      ),
      redacted: fc.oneof(fc.constantFrom<Model>({ t: 'simple', v: 20 }, { t: 'simple', v: 21 }), modelArb(1)),
      view: fc.oneof(
        fc
          .record(
            {
              selected: fc.oneof(
                fc
                  .tuple(
                    fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(uint), fc.constant<Model>({ t: 'nint', v: -1n }), modelArb(1)),
                    fc.oneof(fc.bigInt({ min: 0n, max: 100n }).map(uint), modelArb(1)),
                  )
                  .map(([input, index]) =>
                    map([
                      ['input', input],
                      ['index', index],
                    ]),
                  ),
                modelArb(1),
              ),
              tab: fc.oneof(hostileString.map(text), modelArb(1)),
              viewport: fc.oneof(
                fc
                  .tuple(
                    modelArb(1),
                    modelArb(1),
                    fc.oneof(modelArb(1), fc.constantFrom<Model>({ t: 'uint', v: 0n }, { t: 'nint', v: -2n }, { t: 'float', bits: 0x8000n, width: 16 })),
                  )
                  .map(([x, y, zoom]) =>
                    map([
                      ['x', x],
                      ['y', y],
                      ['zoom', zoom],
                    ]),
                  ),
                modelArb(1),
              ),
              filters: fc
                .array(fc.tuple(fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor')), fc.oneof(hostileString.map(text), modelArb(1))), {
                  maxLength: 3,
                })
                .map((e) => map(e)),
            },
            { requiredKeys: [] },
          )
          .map((v) => map(Object.entries(v) as [string, Model][])),
        modelArb(2),
      ),
      dup: fc.constantFrom<[string, Model][]>([], [['inputs', { t: 'array', items: [] }]], [['v', uint(1n)]], [['__proto__', map([])]]),
    },
    { requiredKeys: ['v', 'inputs'] },
  )
  .map(({ dup, ...rest }) => ({
    t: 'map',
    entries: [...(Object.entries(rest) as [string, Model][]), ...(dup ?? [])].map(([k, v]) => [text(k), v] as [Model, Model]),
  }));

const baseState: ShareState = {
  inputs: [
    { name: '<script>alert(1)</script>.cbor', bytes: Uint8Array.of(0xa1, 0x61, 0x61, 0x01) },
    { name: '__proto__', bytes: utf8('{"__proto__":1}') },
  ],
  redacted: true,
  view: {
    selected: { input: 1, index: 0 },
    tab: 'graph',
    viewport: { x: -1.5, y: 2, zoom: 0.5 },
    filters: { __proto__: 'x', constructor: 'y', kind: 'javascript:alert(1)' } as Record<string, string>,
  },
};
// An object literal's __proto__ sets the prototype: make it an own filter key, as a link carries it.
Object.defineProperty(baseState.view.filters, '__proto__', { value: 'x', enumerable: true, writable: true, configurable: true });

describe('decodePermalink', () => {
  it('any text: a state or a permalink/* code, never a throw', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 80 }),
          hostileString,
          fc.string({ maxLength: 60 }).map((s) => `v1.${s}`),
          fc.base64String({ maxLength: 80 }).map((s) => `#v1.${s.replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '')}`),
          fc.nat().map((n) => `v${n}.AAAA`),
        ),
        async (link) => {
          checkShare(await boundedAsync('decodePermalink', () => decodePermalink(link)), link);
        },
      ),
      params('permalink-text', 0.5),
    );
  });

  it('a link round-trips hostile names, bytes and filter keys (including __proto__) unchanged', { timeout: TIMEOUT }, async () => {
    const back = await decodePermalink(await encodePermalink(baseState));
    expect(back.ok).toBe(true);
    if (back.ok) {
      expect(back.state.inputs).toEqual(baseState.inputs);
      expect(Object.keys(back.state.view.filters).sort()).toEqual(['__proto__', 'constructor', 'kind']);
      expect(Object.getOwnPropertyDescriptor(back.state.view.filters, '__proto__')?.value).toBe('x');
      expect(back.state.view.filters.kind).toBe('javascript:alert(1)');
    }
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('a damaged link (characters changed, inserted, removed, cut) never opens as a different view', { timeout: TIMEOUT }, async () => {
    const link = await encodePermalink(baseState);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.#v%';
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('set', 'insert', 'delete', 'cut'), fc.nat(), fc.nat(alphabet.length - 1)), { minLength: 1, maxLength: 3 }),
        async (ops) => {
          let l = link;
          for (const [op, pos, c] of ops) {
            const at = pos % (l.length + 1);
            if (op === 'set') l = l.slice(0, at) + alphabet[c] + l.slice(at + 1);
            else if (op === 'insert') l = l.slice(0, at) + alphabet[c] + l.slice(at);
            else if (op === 'delete') l = l.slice(0, at) + l.slice(at + 1);
            else l = l.slice(0, at);
          }
          const r = await decodePermalink(l);
          checkShare(r, l);
          if (r.ok) {
            // Only a change that leaves the link as it was (or only its '#') opens, and then the same view.
            expect(l.replace(/^#/, '')).toBe(link);
            expect(r.state.inputs).toEqual(baseState.inputs);
          }
        },
      ),
      params('permalink-damaged', 0.5),
    );
  });

  it('a crafted link with a right checksum and any CBOR payload: refused, or a well-formed state', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(stateModel, modelArb(3)), fc.oneof(styleArb, fc.constant(MINIMAL)), async (m, style) => {
        const link = craft(encodeModel(m, style));
        checkShare(await boundedAsync('crafted', () => decodePermalink(link)), 'crafted');
      }),
      params('permalink-crafted', 0.15),
    );
  });

  it('crafted payloads: random bytes, trailing bytes, a deflate bomb past the limit', { timeout: TIMEOUT }, async () => {
    for (const payload of [new Uint8Array(0), Uint8Array.of(0xff), Uint8Array.of(0xa0, 0x00), new Uint8Array(1000)]) {
      checkShare(await decodePermalink(craft(payload)), 'bytes');
    }
    // 65 MiB of zeros deflates to a few dozen KB: refused as too large, without inflating it all.
    const bomb = new Uint8Array(65 * 1024 * 1024);
    const r = await boundedAsync('deflate bomb', () => decodePermalink(craft(bomb)), 10_000);
    expect(r.ok || r.error.code).toBe('permalink/too-large');
  });
});

describe('decodeBundle', () => {
  it('any bytes, with or without the magic and any version byte: a state or a permalink/* code', { timeout: TIMEOUT }, async () => {
    const magic = utf8('EIBUNDLE');
    const good = await encodeBundle(baseState);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 60 }),
          fc.tuple(fc.integer({ min: 0, max: 255 }), fc.uint8Array({ maxLength: 60 })).map(([v, rest]) => cat(magic, Uint8Array.of(v), rest)),
          fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([at, b]) => {
            const x = good.slice();
            x[at % x.length] ^= b || 1;
            return x;
          }),
        ),
        async (bytes) => {
          const r = await boundedAsync('decodeBundle', () => decodeBundle(bytes));
          checkShare(r, 'bundle');
          if (r.ok) expect(bytes).toEqual(good);
        },
      ),
      params('permalink-bundle', 0.5),
    );
  });

  it('version byte 0 is refused (there is no format v0), like a v0 link', { timeout: TIMEOUT }, async () => {
    const good = await encodeBundle(baseState);
    const v0 = good.slice();
    v0[8] = 0;
    const r = await decodeBundle(v0);
    expect(r.ok || r.error.code).toBe('permalink/not-a-link');
    const link = await decodePermalink((await encodePermalink(baseState)).replace(/^v1\./, 'v0.'));
    expect(link.ok || link.error.code).toBe('permalink/not-a-link');
  });
});

describe('redaction before sharing', () => {
  const inputArb = fc.oneof(
    fc.uint8Array({ maxLength: 120 }),
    fc.array(envelopeArb, { minLength: 1, maxLength: 3 }).map((es) => cat(...es.map((e) => encodeEnvelope(e)))),
    fc
      .array(envelopeArb, { minLength: 1, maxLength: 3 })
      .map((es) => utf8(`{"messages":[${es.map((e) => `{"offset":1,"payload":"${toBase64(encodeEnvelope(e))}"}`).join(',')}]}`)),
    envelopeArb.map((e) => utf8(toBase64(encodeEnvelope(e)))),
  );

  it('any input: never a throw; bodies and undecoded bytes blanked in place (same records), or what could not be is listed', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(inputArb, (bytes) => {
        const { records } = inspect([{ name: 'in', bytes }]);
        const r = redactInput(bytes, records);
        for (const p of r.unblankable) expect(typeof p).toBe('string');
        if (r.unblankable.length) return;
        const again = inspect([{ name: 'redacted', bytes: r.bytes }]).records;
        // What decoded still does, as the same records; what did not is blanked whole and still does not.
        const shape = ({ verdict: x }: (typeof records)[number]) => [x.decoded, x.decoded ? x.format : null, x.kind];
        expect(again.map(shape)).toEqual(records.map(shape));
        for (const { data: x } of again) {
          if (!x.envelope?.body || !x.bodySpan) continue;
          expect(
            x.view.subarray(x.bodySpan[0], x.bodySpan[1]).every((b) => b === 0),
            'a body left unblanked',
          ).toBe(true);
        }
      }),
      params('share-redact', 0.1),
    );
  });
});
