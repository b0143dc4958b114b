// The report's graph section for an Iggy export, through the command line.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../core/report';
import { run, type CliIo } from './main';

const root = resolve(__dirname, '../..');

async function report(...files: string[]): Promise<Report> {
  let out = '';
  const io: CliIo = {
    readFile: async (p) => new Uint8Array(readFileSync(resolve(root, p))),
    readStdin: async () => new Uint8Array(),
    stdout: (t) => (out += t),
    stderr: () => {},
  };
  await run(['inspect', '--json', ...files], io);
  return JSON.parse(out) as Report;
}

const id = (n: number) => `01J0Y1ZAG0000000000000000${n}`;

describe('graph section of report@1 for vectors/agdx/made/conversation_http_v07.json', () => {
  it('has the causal edges, the missing parent, the stream and the disagreement', async () => {
    const r = await report('vectors/agdx/made/conversation_http_v07.json');
    const g = r.graph;
    expect(g.nodes).toBe(10);
    expect(g.edges).toEqual([
      { from: id(2), to: id(1), via: 'cause' },
      { from: id(2), to: id(1), via: 'cause_at' },
      { from: id(5), to: id(1), via: 'cause' },
      { from: id(5), to: 'rec:0:5', via: 'cause_at' },
    ]);
    expect(g.missing).toEqual([{ from: id(3), ref: id(9), via: 'cause' }]);
    expect(g.cycles).toEqual([]);
    expect(g.streams).toHaveLength(1);
    // Chunks 0, 1, 1, 3, 4 in log order: 1 again is a duplicate, 3 reveals the gap at 2 (the end, not late), 4 is late.
    expect(g.streams[0]).toMatchObject({ chunks: 5, duplicates: 1, after_terminal: 1, gaps: [2], terminal: 'gap', purpose: 'chat' });
    const error = r.records.find((x) => x.id === id(5))!;
    expect(error.findings.map((f) => f.rule)).toContain('agdx/graph/cause-mismatch');
    expect(g.correlations.map((c) => c.from).sort()).toEqual([id(2), id(4), id(5), 'rec:0:1'].sort());
  });

  it('an AgentDNA workflow gives its parent_envelope DAG', async () => {
    const r = await report('vectors/agentdna/synthetic/synthetic_valid_fanin_dag.serialized.json');
    expect(r.graph.nodes).toBe(6);
    expect(r.graph.edges.every((e) => e.via === 'parent_envelope')).toBe(true);
    expect(r.graph.edges).toHaveLength(6);
    expect(r.workflows).toHaveLength(1);
    expect(r.workflows[0]).toMatchObject({ record: 0, modes: { light: 1000, heavy: 1000, boundary: 1000 } });
  });
});

describe('agents, runs and conversations in report@1 for an Iggy export', () => {
  it('folds vectors/agdx/made/registry_log_http_v07.json', async () => {
    const r = await report('vectors/agdx/made/registry_log_http_v07.json');
    const agent = (id: string) => r.agents.find((a) => a.id === id)!;
    expect(agent('booker')).toMatchObject({ alive: false, quarantined: false });
    expect(agent('planner')).toMatchObject({ alive: true, quarantined: false });
    expect(agent('rogue').quarantined).toBe(true);
    expect(agent('rogue').quarantine.map((q) => [q.op, q.backing])).toEqual([
      ['quarantine', 'unsigned'],
      ['unquarantine', 'unsigned'],
      ['quarantine', 'unsigned'],
    ]);
    expect(r.runs).toHaveLength(1);
    expect(r.runs[0]).toMatchObject({ id: 'run-9', terminal: 'completed', after_terminal: 1 });
    expect(r.runs[0].history.map((h) => h.state)).toEqual(['submitted', 'working', 'completed', 'working']);
    expect(r.conversations).toHaveLength(1);
    expect(r.conversations[0].usage_total).toMatchObject({ input: '1200', output: '300', reasoning: '50' });
    const rules = r.records.flatMap((x) => x.findings.map((f) => f.rule));
    expect(rules.filter((x) => x === 'agdx/fold/dead')).toHaveLength(2);
    expect(rules.filter((x) => x === 'agdx/fold/quarantined')).toHaveLength(1);
    expect(rules.filter((x) => x === 'agdx/fold/after-terminal')).toHaveLength(1);
  });
});
