// The samples (public/samples, the first visit loads those not marked menu-only): byte copies of vectors the tests read (their
// ORIGIN.md says which), and the sample key the signed one is signed by, as a key file.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseKeys } from './core/keys/keys';
import { inspect, inspectInput } from './core/inspect';
import { loadedOnFirstVisit, type Sample } from './ui/sources';

const ROOT = resolve(__dirname, '..');
const read = (p: string) => new Uint8Array(readFileSync(resolve(ROOT, p)));

/** Each sample and the vector it is a copy of. */
const COPIES: Record<string, string> = {
  'conversation.cborseq': 'vectors/agdx/made/conversation.cborseq',
  'sessions_tree_http_v07.json': 'vectors/agdx/sessions/sessions_tree_http_v07.json',
  'record_http_v07.json': 'vectors/agdx/iggy/record_http_v07.json',
  'agent_record.bin': 'vectors/agdx/laser-wire-0.0.1/agent_record.bin',
  'signed_command.bin': 'vectors/agdx/made/signed_command.bin',
  'agentdna_workflow.json': 'vectors/agentdna/synthetic/synthetic_valid_fanin_dag.serialized.json',
  'agent_dead_letter.bin': 'vectors/agdx/laser-wire-0.0.1/agent_dead_letter.bin',
  'agent_error.bin': 'vectors/agdx/laser-wire-0.0.1/agent_error.bin',
  'agent_status_card.bin': 'vectors/agdx/laser-wire-0.0.1/agent_status_card.bin',
  'agent_invalid_status_bad_operation.bin': 'vectors/agdx/laser-wire-0.0.1/agent_invalid_status_bad_operation.bin',
};

describe('the samples', () => {
  const index: Sample[] = JSON.parse(readFileSync(resolve(ROOT, 'public/samples/index.json'), 'utf8'));

  it('are byte copies of their vectors, each listed with a title', () => {
    expect(index.map((s) => s.file).sort()).toEqual(Object.keys(COPIES).sort());
    for (const s of index) {
      expect(s.title.length, s.file).toBeGreaterThan(5);
      expect(read(`public/samples/${s.file}`), s.file).toEqual(read(COPIES[s.file]));
    }
  });

  it('load on the first visit all but the conversation tree, which is in the Samples menu only', () => {
    const first = loadedOnFirstVisit(index).map((s) => s.file);
    expect(first).toHaveLength(index.length - 1);
    expect(first).not.toContain('sessions_tree_http_v07.json');
    expect(index.filter((s) => s.firstVisit !== undefined).map((s) => [s.file, s.firstVisit])).toEqual([['sessions_tree_http_v07.json', false]]);
  });

  it('hold an AgentDNA workflow, and a command signed by the sample key, which trusts it', () => {
    const kinds = index.map((s) =>
      inspectInput(0, { name: s.file, bytes: read(`public/samples/${s.file}`) }, undefined, false).records.map((r) => r.verdict.format),
    );
    expect(kinds.flat()).toContain('agentdna.workflow');
    const key = parseKeys(read('public/samples/sample-key.json'));
    expect(key.problems).toEqual([]);
    expect(key.keys).toHaveLength(1);
    // The first entry of the made vectors' key file: the test seed 32 × 0x07.
    expect(key.keys[0]).toMatchObject({ id: 'fe812c12f3ab4ce6', agent: 'source-agent' });
    expect(parseKeys(read('vectors/agdx/made/keys.json')).keys[0]).toMatchObject({ id: 'fe812c12f3ab4ce6', agent: 'source-agent' });
    const untrusted = inspectInput(0, { name: 'signed', bytes: read('public/samples/signed_command.bin') }).records[0].verdict.signature;
    expect(untrusted).toMatchObject({ status: 'unknown_key', key_id: 'fe812c12f3ab4ce6', trusted: false });
    const trusted = inspect([{ name: 'signed', bytes: read('public/samples/signed_command.bin') }], { keys: key.keys }).records[0].verdict.signature;
    expect(trusted).toMatchObject({ status: 'valid', trusted: true });
  });
});
