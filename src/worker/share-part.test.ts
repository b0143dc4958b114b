// A link of a part of what is loaded: the selected record, or the filtered ones, each input cut down
// to them where it can be (a CBOR sequence's items, an Iggy export's messages), and opened on them.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agdxSequence } from '../../test/support/generate';
import { decodePermalink } from '../core/share/permalink';
import { InspectorSession } from './session';

const read = (p: string) => new Uint8Array(readFileSync(resolve(__dirname, '../..', p)));
const view = (selectedKey: number | null, filters: Record<string, string> = {}) => ({ selectedKey, selected: null, tab: 'records', viewport: null, filters });
const load = (session: InspectorSession, files: [string, Uint8Array][]) =>
  session.load(files.map(([name, bytes]) => ({ name, data: new Blob([bytes.slice()]) })));

describe('a link of part of what is loaded', () => {
  it('of one selected record out of 10,000 is a few hundred characters, and opens on that record', async () => {
    const a = new InspectorSession();
    const { records } = await load(a, [['log.cborseq', agdxSequence(10_000, { signedEvery: 1_000_000 })]]);
    const pick = records[4711];
    const all = await a.share(view(4711), false, false, undefined, 'all');
    const one = await a.share(view(4711), false, false, undefined, 'selected');
    expect(all.fragment.length).toBeGreaterThan(100_000);
    expect(one.fragment.length).toBeLessThan(2_000);
    const b = new InspectorSession();
    const opened = await b.open(one.fragment);
    expect(opened.error).toBeNull();
    expect(opened.records).toHaveLength(1);
    expect(opened.view?.selectedKey).toBe(0);
    expect(opened.records[0]).toMatchObject({ id: pick.id, kind: pick.kind, source: pick.source, valid: pick.valid });
    expect(opened.inputs[0].name).toBe('log.cborseq');
  });

  it("of the filtered records carries those only, in order, and the link's filter still keeps them all", async () => {
    const a = new InspectorSession();
    const { records } = await load(a, [['log.cborseq', agdxSequence(2_000, { signedEvery: 1_000_000 })]]);
    const kept = records.filter((r) => r.kind === 'error');
    const shared = await a.share(view(kept[3].key, { kind: 'error' }), false, false, undefined, 'filtered');
    const b = new InspectorSession();
    const opened = await b.open(shared.fragment);
    expect(opened.records.map((r) => r.id)).toEqual(kept.map((r) => r.id));
    expect(opened.view?.selectedKey).toBe(3);
    expect(opened.view?.filters).toEqual({ kind: 'error' });
  });

  it('cuts an Iggy export down to its chosen messages, and keeps a record found inside a dead letter with it', async () => {
    const a = new InspectorSession();
    await load(a, [
      ['conv.json', read('vectors/agdx/made/conversation_http_v07.json')],
      ['dead.bin', read('vectors/agdx/laser-wire-0.0.1/agent_dead_letter.bin')],
      ['seq.cborseq', read('vectors/agdx/made/conversation.cborseq')],
    ]);
    // Message 3 of the export, the envelope inside the dead letter (key 11), the sequence's response (key 16).
    const before = [3, 10, 11, 16].map((k) => a.detail(k)!.summary);
    const shared = await a.share({ ...view(3), compare: { a: 11, b: 16, scope: 'records' } }, false, false, undefined, 'selected');
    const state = await decodePermalink(shared.fragment);
    if (!state.ok) throw new Error(state.error.message);
    expect(state.state.inputs.map((i) => i.name)).toEqual(['conv.json', 'dead.bin', 'seq.cborseq']);
    expect(new TextDecoder().decode(state.state.inputs[0].bytes)).toMatch(/^\{"messages":\[\{.*\}\]\}$/s);
    expect(state.state.view.selected).toEqual({ input: 0, index: 0 });
    // The dead letter travels whole (both its records are in it); the inner record keeps its index.
    expect(state.state.view.compare).toEqual({ a: { input: 1, index: 1 }, b: { input: 2, index: 0 }, scope: 'records' });
    const b = new InspectorSession();
    const opened = await b.open(shared.fragment);
    expect(opened.records.map((r) => [r.format, r.kind, r.id])).toEqual(before.map((r) => [r.format, r.kind, r.id]));
    expect(opened.view?.compare).toMatchObject({ a: 2, b: 3 });
  });
});
