// Comparing two records (fields, canonical bytes, signatures, verdicts), two AgentDNA workflows
// envelope by envelope, and two logs record by record, over records read by the real importers.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeEnvelope, signingInputSegments } from '../agdx/canonical';
import { decodeEnvelope, type Envelope } from '../agdx/envelope';
import { bytesEqual, concatBytes, toHex, utf8Encode } from '../bytes';
import { readSingle } from '../cbor/reader';
import { SEED7, envelopeArb, signEnvelope } from '../../../test/support/agdx-gen';
import { params } from '../../../test/support/fuzz';
import { inspectInput } from '../inspect';
import * as ed from '@noble/ed25519';
import { applyKeys } from '../agdx/verify';
import { parseKeys, type RegistryEntry } from '../keys/keys';
import { isValid } from '../verdict';
import { compareLogs } from './log';
import type { LogComparison } from './model';
import { compareRecords, type CompareSide } from './records';

const root = resolve(__dirname, '../../..');
const vector = (p: string) => new Uint8Array(readFileSync(resolve(root, 'vectors', p)));

/** The laser command envelope, decoded, to change and re-encode. */
function baseCommand(): Envelope {
  const r = readSingle(vector('agdx/laser-wire-0.0.1/agent_command.bin'));
  if (!r.ok) throw new Error(r.error.message);
  const d = decodeEnvelope(r.value);
  if (!d.ok) throw new Error(d.error.message);
  return d.value.envelope;
}

/** Every record of one input of `bytes`, as compare sides (keys from `first`). */
function sides(name: string, bytes: Uint8Array, first = 0, input = 0, keys?: RegistryEntry[]): CompareSide[] {
  const { records: read, workflows } = inspectInput(input, { name, bytes });
  const records = keys ? applyKeys(read, keys) : read;
  return records.map((record, i) => ({
    key: first + i,
    record,
    inputName: name,
    valid: isValid(record.verdict),
    findings: record.verdict.findings,
    workflow: workflows.find((w) => w.record === i) ?? null,
  }));
}
const side = (name: string, env: Envelope) => sides(name, encodeEnvelope(env))[0];
const json = (v: unknown) => utf8Encode(JSON.stringify(v));

describe('compareRecords: two AGDX envelopes', () => {
  const base = { ...baseCommand(), metadata: new Map([['priority', { type: 'text' as const, value: 'high' }]]), body: json({ q: 'weather', n: 1 }) };
  const a = side('a.cbor', signEnvelope(base, SEED7));
  const b = side('b.cbor', signEnvelope({ ...base, body: json({ q: 'news', n: 1 }) }, SEED7));

  it('fields: the body compared as JSON, member by member; the signature bytes changed with it', () => {
    const c = compareRecords(a, b);
    expect(c.fields.body).toEqual({ a: 'json', b: 'json', compared: 'json' });
    const changed = c.fields.rows.filter((r) => r.status === 'changed' && !r.container);
    expect(changed.map((r) => [r.path, r.a, r.b])).toEqual([
      ['body.q', '"weather"', '"news"'],
      ['signature.bytes', expect.any(String), expect.any(String)],
    ]);
    expect(c.fields.rows.find((r) => r.path === 'body.n')).toMatchObject({ status: 'same', a: '1', b: '1' });
    expect(c.fields.rows.find((r) => r.path === 'metadata.priority')?.status).toBe('same');
    expect(c.fields.counts).toEqual({ added: 0, removed: 0, changed: 2 });
  });

  it('signature: "same signing input except `body`": a signature over one does not cover the other', () => {
    const s = compareRecords(a, b).signature;
    expect(s.verdict).toBe('different');
    expect(s.headline).toBe('Different signing input: a signature over one does not cover the other.');
    expect(s.except).toEqual(['body']);
    expect(s.details[0]).toBe('Same signing input except `body`.');
    expect(s.segments).toEqual({ domain: true, context: true, envelope: false });
  });

  it('canonical bytes: the differing stretches are in the body and the signature, aligned', () => {
    const d = compareRecords(a, b).bytes!;
    expect(d.what).toBe('agdx-canonical');
    expect(d.identical).toBe(false);
    expect(bytesEqual(d.a, encodeEnvelope(a.record.data.envelope!))).toBe(true);
    const changed = d.ranges.filter((r) => r.op === 'changed');
    expect(new Set(changed.flatMap((r) => r.fields))).toEqual(new Set(['body', 'signature']));
    // The stretches cover both encodings, in order, and equal ones are equal.
    let [i, j] = [0, 0];
    for (const r of d.ranges) {
      expect([r.a[0], r.b[0]]).toEqual([i, j]);
      if (r.op === 'equal') expect(bytesEqual(d.a.subarray(...r.a), d.b.subarray(...r.b))).toBe(true);
      [i, j] = [r.a[1], r.b[1]];
    }
    expect([i, j]).toEqual([d.a.length, d.b.length]);
  });

  it('identical signing inputs: the same signature verifies both when both verdicts say so (and an unsigned copy would be covered by it)', () => {
    const signed = signEnvelope(base, SEED7);
    const keys = parseKeys(toHex(ed.getPublicKey(SEED7)), { agent: base.source }).keys;
    const keyed = (name: string, env: Envelope) => sides(name, encodeEnvelope(env), 0, 0, keys)[0];
    const copy = compareRecords(keyed('a', signed), keyed('b', signed)).signature;
    expect(copy.verdict).toBe('identical');
    expect(copy.headline).toBe('Signing inputs identical: the same signature verifies both.');
    expect(copy.details).toContain('Both carry the same signature bytes.');
    // Without the key, nothing verifies either: the headline says what each side's verdict says.
    expect(compareRecords(side('a', signed), side('b', signed)).signature.headline).toBe(
      'Signing inputs identical: a signature over one would cover the other. On both the signature cannot be checked (unknown key).',
    );
    const { signature: _, ...unsigned } = signed;
    const one = compareRecords(side('a', signed), side('b', unsigned as Envelope)).signature;
    expect(one.verdict).toBe('identical');
    expect(one.headline).toBe(
      'Signing inputs identical: a signature over one would cover the other. On A the signature cannot be checked (unknown key); on B there is no signature.',
    );
    expect(one.details).toContain("A's signature would verify B too, which carries none.");
    // The same signature bytes over another input: it can hold for one at most.
    const replayed = compareRecords(side('a', signed), side('b', { ...signed, body: json({ q: 'news', n: 1 }) })).signature;
    expect(replayed.details).toContain('Both carry the same signature bytes, over different inputs: it can hold for one of them at most.');
  });

  it('nested metadata and usage: members added, removed and changed; a different signed context is named', () => {
    const other = {
      ...base,
      metadata: new Map([
        ['priority', { type: 'text' as const, value: 'low' }],
        ['tags', { type: 'list' as const, items: [{ type: 'text' as const, value: 'x' }] }],
      ]),
      usage: { input_tokens: 10, output_tokens: 3 },
    };
    const c = compareRecords(a, side('c', signEnvelope(other, SEED7)));
    const rows = Object.fromEntries(c.fields.rows.map((r) => [r.path, r.status]));
    expect(rows).toMatchObject({
      'metadata.priority': 'changed',
      'metadata.tags': 'added',
      'metadata.tags[0]': 'added',
      usage: 'added',
      'usage.input_tokens': 'added',
      body: 'same',
    });
    expect(c.signature.except).toEqual(['usage', 'metadata']);
    const withContext = signEnvelope(base, SEED7);
    withContext.signature = { ...withContext.signature!, context: { content_type: 1 } };
    expect(compareRecords(a, side('d', withContext)).signature.except).toEqual(['the signed context']);
  });

  it('bodies that do not both decode alike are compared as bytes', () => {
    const c = compareRecords(a, side('e', { ...base, body: utf8Encode('plain words') }));
    expect(c.fields.body).toEqual({ a: 'json', b: 'text', compared: 'bytes' });
    expect(c.fields.rows.find((r) => r.path === 'body')).toMatchObject({ status: 'changed' });
  });

  it('verdicts side by side: what differs in words, and rules found on one side only', () => {
    const invalid = side('f', { ...base, kind: 'status', operation: 'nonsense', correlation: undefined });
    const v = compareRecords(a, invalid).verdicts;
    expect(v.a.valid).toBe(true);
    expect(v.b.valid).toBe(false);
    expect(v.changes).toContain('valid on A, not on B');
    expect(v.onlyB).toContain('agdx/matrix/operation');
  });

  it('a laser-sdk 0.7 session body is read as CBOR whatever agdx.ct says (its shape is its own), member by member', () => {
    // The Iggy export of the vectors with every agdx.ct saying JSON (1) instead of CBOR (3).
    const exportJson = JSON.parse(new TextDecoder().decode(vector('agdx/laser-sdk-ts-0.7.0/iggy_export.json'))) as {
      messages: { user_headers: { key: { value: string }; value: { value: string } }[] }[];
    };
    for (const m of exportJson.messages) for (const h of m.user_headers) if (atob(h.key.value) === 'agdx.ct') h.value.value = btoa('\x01');
    const exported = sides('export.json', json(exportJson));
    const byType = (t: string) => exported.find((x) => x.record.verdict.displayType === t)!;
    expect(exported.length).toBe(35);
    const s = compareRecords(byType('session.started'), byType('session.paused'));
    expect(s.verdicts.changes).toContain('display type session.started → session.paused');
    expect(s.fields.body).toMatchObject({ a: 'cbor', b: 'cbor', compared: 'cbor' });
    // The start's fields, member by member: the agent it names is gone from the transition.
    expect(s.fields.rows.some((r) => r.path.startsWith('body.') && r.status === 'removed')).toBe(true);
  });
});

describe('compareRecords: two AgentDNA workflows, envelope by envelope', () => {
  const wf = (name: string) => sides(name, vector(`agentdna/synthetic/synthetic_${name}.serialized.json`))[0];

  it('an intermediate payload changed without rehashing: matched by hash, payload differs, hash verdict differs', () => {
    const c = compareRecords(wf('valid_fanin_dag'), wf('tampered_intermediate_payload_only'));
    const w = c.workflow!;
    expect(w.modes.a).toEqual({ light: 1000, heavy: 1000, boundary: 1000 });
    expect(w.modes.b).toEqual({ light: 1000, heavy: 2002, boundary: 1000 });
    const differing = w.pairs.filter((p) => p.differs.length || p.verdictsDiffer);
    expect(differing).toHaveLength(1);
    expect(differing[0].matchedBy).toBe('hash');
    expect(differing[0].differs).toEqual(['payload']);
    expect(differing[0].a!.hashOk).toBe(true);
    expect(differing[0].b!.hashOk).toBe(false);
    expect(w.counts).toMatchObject({ differing: 1, onlyA: 0, onlyB: 0 });
    // The tips' signed messages are the same (the tip's parents claim the same hashes).
    expect(c.signature.verdict).toBe('identical');
    expect(c.bytes!.what).toBe('agentdna-content');
    // But what verifies on each side is that side's verdict: B's chain does not, and the comparison
    // never says the same signature verifies both (issue 26: it did, beside B's "Signature invalid").
    expect(c.verdicts.b.signature).toBe('invalid');
    expect(c.signature.headline).toBe(
      "Signed messages identical: a signature over one would cover the other. On A the signature holds (valid, not trusted); on B the tip's signature holds, but the chain does not verify (invalid).",
    );
    expect(c.signature.headline).not.toMatch(/verifies both/);
    expect(c.signature.details.find((d) => d.startsWith('B '))).toMatch(/the chain does not verify \(invalid\)\.$/);
    expect(c.signature.details.join(' ')).not.toMatch(/B is signed[^.]*valid, not trusted/);
  });

  it('a tip payload changed: the tip differs in payload (and its claimed hash stays), the message differs in `payload`', () => {
    const c = compareRecords(wf('valid_fanin_dag'), wf('tampered_tip_payload'));
    const tip = c.workflow!.pairs[0];
    expect(tip.a!.path).toBe('envelope');
    expect(tip.differs).toContain('payload');
    expect(c.signature.verdict).toBe('different');
    expect(c.signature.except).toContain('payload');
    expect(c.fields.rows.find((r) => r.path === 'envelope.payload')?.status).toBe('changed');
  });

  it('different DAGs: what is on one side only', () => {
    const w = compareRecords(wf('valid_single_root'), wf('valid_fanin_dag')).workflow!;
    // The single root is the fan-in's deepest envelope: matched by hash; the other six are B's own.
    expect(w.pairs.filter((p) => p.matchedBy === 'hash')).toHaveLength(1);
    expect(w.counts.onlyB).toBe(5);
    expect(w.pairs.filter((p) => p.a === null)).toHaveLength(5);
  });
});

/** A ULID-like id: `ms` in its first 48 bits, `n` in its last byte. */
function ulid(ms: number, n: number): Uint8Array {
  const id = new Uint8Array(16);
  new DataView(id.buffer).setUint32(0, Math.floor(ms / 65536));
  new DataView(id.buffer).setUint16(4, ms % 65536);
  id[15] = n;
  return id;
}

/** A conversation (a run): command → chunk stream → response, and an event; ids of its own, times from t0. */
function run(t0: number, salt: number, { latencyMs, answer, event = true }: { latencyMs: number; answer: string; event?: boolean }): Uint8Array {
  const conversation = ulid(t0, 200 + salt);
  const correlation = ulid(t0, 100 + salt);
  const channel = ulid(t0, 150 + salt);
  const base = { conversation, source: 'planner', target: 'worker' };
  const envs: Envelope[] = [
    { ...base, kind: 'command', record: ulid(t0, 1 + salt), correlation, body: json({ ask: 'summarize' }) },
    {
      ...base,
      kind: 'chunk',
      record: ulid(t0 + 10, 2 + salt),
      channel,
      sequence: 0,
      operation: 'chat',
      source: 'worker',
      target: 'planner',
      body: utf8Encode('Hel'),
    },
    { ...base, kind: 'chunk', record: ulid(t0 + 20, 3 + salt), channel, sequence: 1, last: true, source: 'worker', target: 'planner', body: utf8Encode('lo') },
    { ...base, kind: 'response', record: ulid(t0 + latencyMs, 4 + salt), correlation, source: 'worker', target: 'planner', body: json({ answer }) },
  ];
  if (event) envs.push({ ...base, kind: 'event', record: ulid(t0 + latencyMs + 5, 5 + salt), body: json({ done: true }) });
  return concatBytes(...envs.map((e) => encodeEnvelope(e)));
}

/** The counts a log comparison's listed pairs add up to, by their status. */
function tally(c: LogComparison): LogComparison['counts'] {
  const n = (status: string) => c.pairs.filter((p) => p.status === status).length;
  return { same: n('same'), changed: n('changed'), onlyA: n('removed'), onlyB: n('added') };
}

describe('compareLogs: two runs of a conversation', () => {
  const t0 = Date.UTC(2026, 0, 2, 3, 4, 5);
  const yesterday = sides('yesterday.cborseq', run(t0, 0, { latencyMs: 120, answer: 'short' }));
  const today = sides('today.cborseq', run(t0 + 86_400_000, 7, { latencyMs: 340, answer: 'longer', event: false }), 100, 1);

  it('matches by order when the ids differ: the command and its answer, the stream chunk by chunk', () => {
    const c = compareLogs('inputs', { label: 'yesterday.cborseq', records: yesterday }, { label: 'today.cborseq', records: today });
    expect(c.pairs.map((p) => [p.role, p.matchedBy, p.a?.kind ?? null, p.b?.kind ?? null])).toEqual([
      ['command of exchange 1', 'order', 'command', 'command'],
      ['chunk 0 of stream 1', 'order', 'chunk', 'chunk'],
      ['chunk 1 of stream 1', 'order', 'chunk', 'chunk'],
      ['response of exchange 1', 'order', 'response', 'response'],
      ['event 1', null, 'event', null],
    ]);
    expect(c.counts).toEqual({ same: 2, changed: 2, onlyA: 1, onlyB: 0 });
    expect(c.pairs.map((p) => p.status)).toEqual(['changed', 'same', 'same', 'changed', 'removed']);
    expect(tally(c)).toEqual(c.counts);
    // B against A: what was only on A is only on B, counted and marked alike.
    const back = compareLogs('inputs', { label: 't', records: today }, { label: 'y', records: yesterday });
    expect(back.counts.onlyB).toBe(1);
    expect(tally(back)).toEqual(back.counts);
  });

  it('what changed: fields (ids apart), and the command’s latency', () => {
    const c = compareLogs('inputs', { label: 'y', records: yesterday }, { label: 't', records: today });
    const command = c.pairs[0];
    expect(command.latency).toEqual({ a: 120_000, b: 340_000 });
    expect(command.fields).toEqual([]);
    expect(command.ids).toEqual(expect.arrayContaining(['record', 'conversation', 'correlation']));
    const response = c.pairs[3];
    expect(response.fields).toEqual(['body.answer']);
    expect(response.latency).toBeNull();
    // A chunk with the same content and other ids is the same.
    expect(c.pairs[1].fields).toEqual([]);
    expect(c.pairs[1].changes).toBeGreaterThan(0);
  });

  it('matches by correlation first when the ids are shared (a log read twice, one record changed)', () => {
    const bytes = run(t0, 0, { latencyMs: 120, answer: 'short' });
    const again = sides('again', bytes, 100, 1);
    const c = compareLogs('inputs', { label: 'a', records: yesterday }, { label: 'b', records: again });
    expect(c.pairs.filter((p) => p.matchedBy === 'correlation').map((p) => p.a!.kind)).toEqual(['command', 'chunk', 'chunk', 'response']);
    expect(c.pairs.find((p) => p.a?.kind === 'event')?.matchedBy).toBe('order');
    expect(c.counts).toEqual({ same: 5, changed: 0, onlyA: 0, onlyB: 0 });
    expect(tally(c)).toEqual(c.counts);
  });

  it('lists at most maxPairs and counts the rest', () => {
    const c = compareLogs('inputs', { label: 'y', records: yesterday }, { label: 't', records: today }, { maxPairs: 2 });
    expect(c.pairs).toHaveLength(2);
    expect(c.omitted).toBe(3);
    expect(c.counts.same + c.counts.changed + c.counts.onlyA + c.counts.onlyB).toBe(5);
  });
});

describe('compareRecords on random envelopes', () => {
  it('never throws; the byte stretches cover both encodings; identical signing inputs exactly when their bytes are equal', () => {
    const runs = params('compare-records', 0.25);
    // Cases where both sides decoded, so the signing-input checks below ran.
    let checked = 0;
    fc.assert(
      fc.property(envelopeArb, envelopeArb, fc.boolean(), (x, y, near) => {
        // Half the pairs are near (one field of B taken from A's), where the diff has most to say.
        const other = near ? { ...x, body: y.body, metadata: y.metadata } : y;
        const [a, b] = [sides('x', encodeEnvelope(x))[0], sides('y', encodeEnvelope(other))[0]];
        const c = compareRecords(a, b);
        const d = c.bytes!;
        let [i, j] = [0, 0];
        for (const r of d.ranges) {
          expect([r.a[0], r.b[0]]).toEqual([i, j]);
          [i, j] = [r.a[1], r.b[1]];
        }
        expect([i, j]).toEqual([d.a.length, d.b.length]);
        if (!a.record.data.envelope || !b.record.data.envelope) return;
        checked++;
        const si = signingInputSegments(a.record.data.envelope);
        const sj = signingInputSegments(b.record.data.envelope);
        const same = bytesEqual(concatBytes(si.context, si.envelope), concatBytes(sj.context, sj.envelope));
        expect(c.signature.verdict).toBe(same ? 'identical' : 'different');
        if (!same) expect(c.signature.except.length).toBeGreaterThan(0);
        // The field diff sees a difference exactly where the canonical bytes differ (bodies read as
        // JSON or CBOR aside: two spellings of one value are the same value).
        const changes = c.fields.counts.added + c.fields.counts.removed + c.fields.counts.changed;
        const structural = c.fields.body?.compared === 'json' || c.fields.body?.compared === 'cbor';
        if (bytesEqual(d.a, d.b)) expect(changes).toBe(0);
        else if (!structural) expect(changes).toBeGreaterThan(0);
      }),
      runs,
    );
    expect(checked).toBeGreaterThan(runs.numRuns / 3);
  });
});
