// The AgentDNA parser (readAgentDna, through inspectInput): workflows, bare envelopes, cards and
// card histories of any shape and content never throw and always give records with verdicts or
// coded errors; envelopes built and signed here verify (hash, signature, all three modes) whatever
// their payload; a valid workflow keeps its verdicts among broken inputs; hostile keys stay data.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineDiff } from '../compare/lines';
import { didOf } from '../agentdna/did';
import { readAgentDna } from '../import/agentdna';
import { publicKeyOf } from '../agentdna/ecdsa';
import { fromHex } from '../bytes';
import { inspect, inspectInput } from '../inspect';
import { isValid } from '../verdict';
import { readJson } from '../json/lossless';
import { build, documentText, SIGNERS, keys, VALID, type Obj } from '../../../test/support/agentdna-arbitraries';
import { bounded, checkRecords, checkResult, hostileString, params, same, TIMEOUT, utf8, verdictOf } from '../../../test/support/fuzz';

describe('AgentDNA documents of any shape', () => {
  it('never throw: records with verdicts or coded errors, workflow reports that index them', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(documentText, (text) => {
        const bytes = utf8(text);
        const r = bounded('inspect AgentDNA', () => inspect([{ name: 'doc.json', bytes }]));
        checkResult(r, [bytes.length], 'agentdna');
        for (const w of r.workflows) {
          expect(w.envelopes.length).toBeGreaterThan(0);
          for (const e of w.envelopes) {
            expect(['valid', 'invalid', 'malformed', 'unsigned']).toContain(e.signature);
            // A signature is never valid unless a recovered key is bound to the signer.
            if (e.signature === 'valid') expect(e.did_match).toBe(true);
          }
          for (const edge of w.edges) {
            expect(edge.from_index).toBeLessThan(w.envelopes.length);
            expect(edge.to_index).toBeLessThan(w.envelopes.length);
          }
        }
        expect(({} as Record<string, unknown>).x).toBeUndefined();
      }),
      params('agentdna-any', 0.1),
    );
  });

  it('readAgentDna directly, on any JSON value, never throws and never reports an internal error', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(fc.oneof(documentText, fc.json({ maxDepth: 4 })), (text) => {
        const bytes = utf8(text);
        const parsed = readJson(bytes);
        if (!parsed.ok) return;
        const { records, workflows } = readAgentDna(0, bytes, parsed.value);
        checkRecords(records, bytes.length, 'readAgentDna');
        for (const w of workflows) expect(w.record).toBeLessThan(records.length);
      }),
      params('agentdna-direct', 0.1),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Envelopes built and signed here (the synthetic keys are public test keys)
// ---------------------------------------------------------------------------------------------

const payloadArb: fc.Arbitrary<unknown> = fc.oneof(
  hostileString.filter((s) => s.length > 0),
  fc.jsonValue({ maxDepth: 2 }).filter((v) => v !== null && v !== '' && typeof v !== 'number'),
);

describe('workflows signed here verify, whatever their content', () => {
  it('hash ok, every signature valid and DID-bound, all three modes 1000; a changed payload is caught', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            signer: fc.constantFrom(...SIGNERS),
            payload: payloadArb,
            epoch: fc.integer({ min: 0, max: 2 ** 40 }),
            to: fc.option(hostileString, { nil: undefined }),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        fc.boolean(),
        (steps, tamper) => {
          // A chain: each step's parent is the one before it.
          let parents: Obj[] = [];
          let tip: Obj = {};
          for (const s of steps) {
            tip = build(s.signer, { payload: s.payload, epoch: s.epoch, ...(s.to !== undefined ? { to: s.to } : {}) }, parents);
            parents = [tip];
          }
          const doc = { id: 'Qm', type: 'intent_workflow', version: '2.0', info: {}, envelope: tamper ? { ...tip, payload: 'tampered' } : tip };
          const bytes = utf8(JSON.stringify(doc));
          const { records, workflows } = inspectInput(0, { name: 'signed.json', bytes });
          checkRecords(records, bytes.length, 'signed workflow');
          expect(workflows).toHaveLength(1);
          const w = workflows[0];
          expect(w.envelopes).toHaveLength(steps.length);
          if (tamper) {
            expect(isValid(records[0].verdict)).toBe(false);
            expect(w.envelopes[0].hash_ok).toBe(false);
            expect(w.modes.light).toBe(2001);
          } else {
            expect(w.envelopes.every((e) => e.hash_ok && e.signature === 'valid' && e.did_match)).toBe(true);
            expect(w.modes).toEqual({ light: 1000, heavy: 1000, boundary: 1000 });
            expect(records[0].verdict.signature.status).toBe('valid');
          }
        },
      ),
      params('agentdna-signed', 0.02, 10),
    );
  });

  it('a valid workflow among broken inputs keeps its verdicts and its workflow report', { timeout: TIMEOUT }, () => {
    const broken = fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      documentText.map(utf8),
      fc.constantFrom(utf8('{"type":"intent_workflow","envelope":'), utf8('[{"data":"{"}]')),
    );
    fc.assert(
      fc.property(fc.nat(VALID.length - 1), fc.array(broken, { maxLength: 2 }), fc.array(broken, { maxLength: 2 }), (which, before, after) => {
        const alone = inspect([{ name: 'wf.json', bytes: VALID[which] }]);
        const files = [...before, VALID[which], ...after].map((bytes, i) => ({ name: `f${i}`, bytes }));
        const r = inspect(files);
        checkResult(
          r,
          files.map((f) => f.bytes.length),
          'among broken',
        );
        const mine = r.records.map((rec, i) => [rec, i] as const).filter(([rec]) => rec.verdict.input === before.length);
        expect(mine).toHaveLength(1);
        same(verdictOf(mine[0][0]), verdictOf(alone.records[0]));
        const w = r.workflows.find((x) => x.record === mine[0][1]);
        expect(w?.modes).toEqual(alone.workflows[0].modes);
        expect(w?.envelopes.map((e) => [e.hash, e.hash_ok, e.signature])).toEqual(alone.workflows[0].envelopes.map((e) => [e.hash, e.hash_ok, e.signature]));
      }),
      params('agentdna-among-broken', 0.01, 10),
    );
  });
});

describe('AgentDNA key material', () => {
  it('any secp256k1 key in a key file (valid, identity-like, off the curve) gives a verdict, never a throw', { timeout: TIMEOUT }, () => {
    const did = keys[SIGNERS[0]].did;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ minLength: 33, maxLength: 33 }),
          fc.uint8Array({ minLength: 65, maxLength: 65 }),
          fc.constantFrom(
            new Uint8Array(33),
            new Uint8Array(65),
            Uint8Array.of(2, ...new Uint8Array(32)),
            Uint8Array.of(4, ...new Uint8Array(64)),
            publicKeyOf(fromHex(keys[SIGNERS[0]].private_key_hex)!),
          ),
        ),
        (key) => {
          expect(didOf(key) === null || typeof didOf(key) === 'string').toBe(true);
          const { records } = inspectInput(0, { name: 'wf.json', bytes: VALID[1] }, [
            { id: 'x', agent: did, algorithm: 'secp256k1', publicKey: key, kind: 'agent', notBeforeMicros: null, notAfterMicros: null, revoked: false },
          ]);
          checkRecords(records, VALID[1].length, 'key file');
        },
      ),
      params('agentdna-keys', 0.05, 10),
    );
  });
});

describe('policy diffs of card histories', () => {
  /** The LCS length, computed the obvious way (small inputs only). */
  function lcs(a: string[], b: string[]): number {
    const t: number[][] = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
    for (let i = a.length - 1; i >= 0; i--)
      for (let j = b.length - 1; j >= 0; j--) t[i][j] = a[i] === b[j] ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1]);
    return t[0][0];
  }

  it('lineDiff: + and - lines come from the right side in order, counts add up, and the kept lines are a longest common subsequence', {
    timeout: TIMEOUT,
  }, () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', '', '<script>', 'allow: *'), { maxLength: 30 });
    fc.assert(
      fc.property(lines, lines, (x, y) => {
        const before = x.join('\n');
        const after = y.join('\n');
        const a = before.split('\n');
        const b = after.split('\n');
        const d = lineDiff(before, after);
        const out = d.text === '' ? [] : d.text.split('\n');
        const plus = out.filter((l) => l.startsWith('+')).map((l) => l.slice(1));
        const minus = out.filter((l) => l.startsWith('-')).map((l) => l.slice(1));
        expect(plus.length).toBe(d.added);
        expect(minus.length).toBe(d.removed);
        expect(a.length - d.removed).toBe(b.length - d.added);
        const isSub = (sub: string[], of: string[]) => {
          let k = 0;
          for (const l of of) if (k < sub.length && sub[k] === l) k++;
          return k === sub.length;
        };
        expect(isSub(plus, b) && isSub(minus, a)).toBe(true);
        // Small inputs stay within the table's budget: the diff is minimal.
        expect(a.length - d.removed).toBe(lcs(a, b));
      }),
      params('agentdna-linediff', 0.25),
    );
  });

  it('long, fully rewritten policies in a long history stay linear (the table is bounded)', { timeout: TIMEOUT }, () => {
    const big = Array.from({ length: 20_000 }, (_, i) => `rule ${i}`).join('\n');
    const other = Array.from({ length: 20_000 }, (_, i) => `rule ${i + 1}x`).join('\n');
    const d = bounded('lineDiff 20,000 × 20,000 lines', () => lineDiff(big, other));
    expect(d.added).toBe(20_000);
    expect(d.removed).toBe(20_000);
    // One changed line in the middle of 20,000: found exactly, the rest folded.
    const lines = big.split('\n');
    lines[10_000] = 'changed';
    const one = bounded('lineDiff one change', () => lineDiff(big, lines.join('\n')));
    expect([one.added, one.removed]).toEqual([1, 1]);
    expect(one.text).toContain('+changed');
  });
});
