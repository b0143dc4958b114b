// Sharing with bodies redacted, through the worker session: AgentDNA payloads leave nothing in the
// link, and an input with parts that cannot be blanked waits for the person's decision.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toBase64, utf8Encode } from '../core/bytes';
import { encodeEnvelope } from '../core/agdx/canonical';
import { decodePermalink } from '../core/share/permalink';
import { InspectorSession } from './session';

const root = resolve(__dirname, '../..');
const read = (p: string) => new Uint8Array(readFileSync(resolve(root, p)));
const view = (selectedKey: number | null) => ({ selectedKey, selected: null, tab: 'records', viewport: null, filters: {} });
const load = (session: InspectorSession, files: [string, Uint8Array][]) =>
  session.load(files.map(([name, bytes]) => ({ name, data: new Blob([bytes.slice()]) })));

describe('a redacted share of an AgentDNA workflow', () => {
  const workflow = read('vectors/agentdna/synthetic/synthetic_valid_fanin_dag.serialized.json');
  const payloads: string[] = [];
  const collect = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) k === 'payload' && typeof x === 'string' ? payloads.push(x) : collect(x);
  };
  collect(JSON.parse(new TextDecoder().decode(workflow)));

  it('carries no payload text in the decoded link, and the opener is told the signatures cannot be re-checked', async () => {
    expect(payloads.length).toBeGreaterThan(3);
    const a = new InspectorSession();
    await load(a, [['wf.json', workflow]]);
    const full = await decodePermalink((await a.share(view(0), false, false)).fragment);
    const fullText = full.ok ? new TextDecoder().decode(full.state.inputs[0].bytes) : '';
    expect(fullText).toContain(payloads[0].slice(0, 10));

    const shared = await a.share(view(0), true, false);
    expect(shared.problems).toEqual([]);
    expect(shared.redaction).toEqual([{ input: 0, name: 'wf.json', blanked: [`${payloads.length} AgentDNA payloads`], unblankable: [] }]);
    const opened = await decodePermalink(shared.fragment);
    if (!opened.ok) throw new Error(opened.error.message);
    expect(opened.state.redacted).toBe(true);
    const linkText = new TextDecoder().decode(opened.state.inputs[0].bytes);
    // No payload, however JSON escaped it, and no word of one that the rest of the document lacks.
    const skeleton = fullText.replace(/"payload":"(?:[^"\\]|\\.)*"/g, '');
    for (const p of payloads) {
      expect(linkText).not.toContain(p);
      expect(linkText).not.toContain(JSON.stringify(p).slice(1, -1));
      for (const word of p.match(/[A-Za-z_]{4,}/g) ?? []) if (!skeleton.includes(word)) expect(linkText, word).not.toContain(word);
    }
    expect(linkText).not.toMatch(/Orchestrator|Summarize|produce_task_spec|boom/);

    const b = new InspectorSession();
    const reopened = await b.open(shared.fragment);
    expect(reopened.error).toBeNull();
    expect(reopened.records[0]).toMatchObject({ format: 'agentdna.workflow', decoded: true, redacted: true });
    expect(b.detail(0)!.signature.reason).toContain('redacted');
  });
});

describe('parts redaction cannot blank', () => {
  // An Iggy export whose payload base64 escapes its slashes: the base64 cannot be found to blank.
  const env = encodeEnvelope({ kind: 'event', conversation: new Uint8Array(16).fill(2), source: 'planner', body: new Uint8Array(48).fill(0xff) });
  const escaped = utf8Encode(`{"messages":[{"offset":1,"payload":"${toBase64(env).replace(/\//g, '\\/')}"}]}`);
  const plain = read('vectors/agdx/made/signed_command.bin');

  it('no link until the person decides; then the input is left out, or shared as it is', async () => {
    const a = new InspectorSession();
    await load(a, [
      ['escaped.json', escaped],
      ['signed.bin', plain],
    ]);
    const asked = await a.share(view(1), true, true);
    expect(asked.fragment).toBe('');
    expect(asked.bundle).toBeNull();
    expect(asked.problems).toEqual([expect.stringMatching(/^escaped\.json: record 0: its payload's base64 could not be found/)]);
    expect(asked.redaction!.map((x) => [x.name, x.unblankable.length])).toEqual([
      ['escaped.json', 1],
      ['signed.bin', 0],
    ]);

    const left = await decodePermalink((await a.share(view(1), true, false, 'leave-out')).fragment);
    if (!left.ok) throw new Error(left.error.message);
    expect(left.state.inputs.map((i) => i.name)).toEqual(['signed.bin']);
    // The selection follows its record into the shorter list.
    expect(left.state.view.selected).toEqual({ input: 0, index: 0 });

    const included = await decodePermalink((await a.share(view(1), true, false, 'include')).fragment);
    if (!included.ok) throw new Error(included.error.message);
    expect(included.state.inputs.map((i) => i.name)).toEqual(['escaped.json', 'signed.bin']);
    expect(included.state.view.selected).toEqual({ input: 1, index: 0 });
  });

  it('a selection inside a left-out input is dropped', async () => {
    const a = new InspectorSession();
    await load(a, [
      ['escaped.json', escaped],
      ['signed.bin', plain],
    ]);
    const left = await decodePermalink((await a.share(view(0), true, false, 'leave-out')).fragment);
    expect(left.ok && left.state.view.selected).toBeNull();
  });
});
