// The compare requests through the worker's session and handler table: two records, two inputs,
// two conversations, the "Compare with…" search, and a comparison carried by a link or bundle.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LogComparison, RecordComparison } from '../core/compare/model';
import type { WireMessage } from '../wire/protocol';
import { answer } from './answer';
import { inspectorHandlers } from './handlers';
import { InspectorSession } from './session';

const root = resolve(__dirname, '../..');
const read = (p: string) => new Uint8Array(readFileSync(resolve(root, p)));
const load = (session: InspectorSession, ...paths: string[]) => session.load(paths.map((p) => ({ name: p.split('/').pop()!, data: new Blob([read(p)]) })));

const WORKFLOWS = [
  'vectors/agentdna/synthetic/synthetic_valid_fanin_dag.serialized.json',
  'vectors/agentdna/synthetic/synthetic_tampered_intermediate_payload_only.serialized.json',
];

describe('compare in the worker', () => {
  it('two records of different inputs: fields, canonical bytes and what it means for signatures', async () => {
    const s = new InspectorSession();
    await load(s, 'vectors/agdx/made/conversation.cborseq', 'vectors/agdx/made/signed_command.bin');
    // The sequence's command (key 0) against the signed command (key 7).
    const c = s.compare({ scope: 'records', a: 0, b: 7 }) as RecordComparison;
    expect(c.type).toBe('records');
    expect([c.a.inputName, c.a.index, c.b.inputName, c.b.index]).toEqual(['conversation.cborseq', 0, 'signed_command.bin', 0]);
    expect(c.bytes?.what).toBe('agdx-canonical');
    // The signed command is the sequence's command with a signature added: nothing else differs.
    expect(c.fields.rows.filter((r) => r.status !== 'same' && r.depth === 0).map((r) => [r.path, r.status])).toEqual([['signature', 'added']]);
    expect(c.signature.verdict).toBe('identical');
    expect(c.signature.details).toContain("B's signature would verify A too, which carries none.");
    expect(c.verdicts.b.signature).toBe('unknown_key');
    expect(s.compare({ scope: 'records', a: 0, b: 99 })).toBeNull();
    // Record 6 of the sequence does not decode: only the envelope has a signing input.
    expect((s.compare({ scope: 'records', a: 0, b: 6 }) as RecordComparison).signature.headline).toMatch(/^Only A has a signing input/);
    expect((s.compare({ scope: 'records', a: 6, b: 0 }) as RecordComparison).signature.headline).toMatch(/^Only B has a signing input/);
  });

  it('two workflows envelope by envelope, and two inputs record by record', async () => {
    const s = new InspectorSession();
    await load(s, ...WORKFLOWS);
    const c = s.compare({ scope: 'records', a: 0, b: 1 }) as RecordComparison;
    // Six envelopes each (the fan-in's shared parent is one envelope, met twice), all paired by their
    // claimed hash; only the intermediate envelope's payload was changed, its hash kept.
    expect(c.workflow?.counts).toEqual({ same: 5, differing: 1, onlyA: 0, onlyB: 0 });
    const logs = s.compare({ scope: 'inputs', a: 0, b: 1 }) as LogComparison;
    expect(logs.type).toBe('logs');
    expect(logs.pairs).toHaveLength(1);
    expect(logs.pairs[0].verdicts.length).toBeGreaterThan(0);
    expect(s.compare({ scope: 'inputs', a: 0, b: 5 })).toBeNull();
  });

  it('two conversations (by id)', async () => {
    const s = new InspectorSession();
    await load(s, 'vectors/agdx/made/conversation.cborseq', 'vectors/agdx/made/conversation_http_v07.json');
    const [a, b] = [s.detail(0)!.summary.conversation!, s.detail(8)!.summary.conversation!];
    const c = s.compare({ scope: 'conversations', a, b }) as LogComparison;
    expect(c.scope).toBe('conversations');
    expect(c.a.label).toBe(a);
    // A: command, chunks 0, 7 and 8, response, the invalid command (the truncated event has no
    // conversation). B: command, chunks 0, 1, 1 (the duplicate), 3 and 4, response, event, status,
    // error. Paired by their place: the command, chunk 0 and the response, each changed (the two
    // logs were made apart); the rest is on one side only.
    expect([c.a.records, c.b.records]).toEqual([6, 10]);
    expect(c.counts).toEqual({ same: 0, changed: 3, onlyA: 3, onlyB: 7 });
    expect(c.pairs.some((p) => p.a && p.b)).toBe(true);
    expect(s.compare({ scope: 'conversations', a, b: 'NOPE' })).toBeNull();
  });

  it('the "Compare with…" search: the near record’s kind first, by text, by #index', async () => {
    const s = new InspectorSession();
    await load(s, 'vectors/agdx/made/conversation.cborseq', 'vectors/agdx/made/signed_command.bin');
    const kind = s.detail(0)!.summary.kind;
    const near = s.compareCandidates('', 0, 50);
    expect(near.keys).not.toContain(0);
    expect(near.keys.every((k) => s.detail(k)!.summary.kind === kind)).toBe(true);
    expect(near.keys).toContain(7);
    expect(s.compareCandidates('signed_command', 0, 50).keys).toEqual([7]);
    expect(s.compareCandidates('#4', null, 50).keys).toEqual([4]);
    const capped = s.compareCandidates('agdx', null, 2);
    expect(capped.keys).toHaveLength(2);
    expect(capped.total).toBeGreaterThan(2);
  });

  it('a link carries the compared pair, which its opener gets back as keys; a left-out input drops it', async () => {
    const a = new InspectorSession();
    await load(a, ...WORKFLOWS);
    const view = { selectedKey: 0, selected: null, tab: 'compare', viewport: null, filters: {}, compare: { a: 0, b: 1, scope: 'records' as const } };
    const shared = await a.share(view, false, true);
    const b = new InspectorSession();
    const opened = await b.open(shared.fragment);
    expect(opened.view?.compare).toEqual({ a: 0, b: 1, scope: 'records' });
    expect((b.compare({ scope: 'records', a: 0, b: 1 }) as RecordComparison).workflow?.counts.differing).toBe(1);
    const fromBundle = await new InspectorSession().load([{ name: 'x.eibundle', data: new Blob([shared.bundle!.slice()]) }]);
    expect(fromBundle.view?.compare).toEqual({ a: 0, b: 1, scope: 'records' });
    // Without a compared pair, none comes back.
    const plain = await new InspectorSession().open((await a.share({ ...view, compare: null }, false, false)).fragment);
    expect(plain.view?.compare).toBeNull();
  });

  it('answers through the handler table', async () => {
    const s = new InspectorSession();
    await load(s, ...WORKFLOWS);
    const posted: WireMessage[] = [];
    await answer(inspectorHandlers(s), { id: 1, type: 'compare', body: { scope: 'records', a: 0, b: 1 } }, (m) => posted.push(m));
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ id: 1, kind: 'reply', reply: { type: 'records' } });
    await answer(inspectorHandlers(s), { id: 2, type: 'compareCandidates', body: { text: '', near: 0, limit: 10 } }, (m) => posted.push(m));
    expect(posted[1]).toMatchObject({ id: 2, kind: 'reply', reply: { keys: [1], total: 1 } });
  });
});
