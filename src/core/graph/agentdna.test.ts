import { describe, expect, it } from 'vitest';
import { buildAgentDnaGraph } from './agentdna';
import type { AgentDnaNodeInput, EnvelopeNode } from './model';
import { reportGraphOf } from '../../../test/support/graph-helpers';

const H = (c: string) => c.repeat(64).slice(0, 64);
const env = (hash: string, parents: string[], more: Partial<AgentDnaNodeInput> = {}): AgentDnaNodeInput => ({
  recordIndex: 0,
  hash,
  from: 'bafybmi-agent',
  to: null,
  epoch: 1_700_000_000,
  parents,
  hashOk: true,
  signature: 'valid',
  didMatch: true,
  path: 'envelope',
  ...more,
});

describe('buildAgentDnaGraph', () => {
  // tip → (a, b); a → root; b → root (fan-in on root, which the document repeats under a and b).
  const workflow = [
    env(H('t'), [H('a'), H('b')], { path: 'envelope', epoch: 4 }),
    env(H('a'), [H('r')], { path: 'envelope.parent_envelope[0]', epoch: 2 }),
    env(H('b'), [H('r')], { path: 'envelope.parent_envelope[1]', epoch: 3, signature: 'invalid' }),
    env(H('r'), [], { path: 'envelope.parent_envelope[0].parent_envelope[0]', epoch: 1 }),
    env(H('r'), [], { path: 'envelope.parent_envelope[1].parent_envelope[0]', epoch: 1 }),
  ];

  it('one node per distinct envelope, fan-in drawn, edges child → parent', () => {
    const g = buildAgentDnaGraph(workflow);
    expect(g.nodes.map((n) => n.id)).toEqual([`dna:${H('r')}`, `dna:${H('a')}`, `dna:${H('b')}`, `dna:${H('t')}`]);
    const root = g.nodes[0] as EnvelopeNode;
    expect(root.occurrences.map((o) => o.path)).toEqual(['envelope.parent_envelope[0].parent_envelope[0]', 'envelope.parent_envelope[1].parent_envelope[0]']);
    expect(g.edges.filter((e) => e.to === root.id).map((e) => e.from)).toEqual([`dna:${H('a')}`, `dna:${H('b')}`]);
    expect(g.edges.every((e) => e.via === 'parent_envelope')).toBe(true);
    expect(g.edges).toHaveLength(4);
    expect(g.missing).toEqual([]);
    expect(g.cycles).toEqual([]);
  });

  it('a node is tampered when its hash does not hold or its signature is not valid', () => {
    const g = buildAgentDnaGraph([...workflow, env(H('x'), [H('t')], { hashOk: false, path: 'other', recordIndex: 1 })]);
    const tampered = (g.nodes as EnvelopeNode[]).filter((n) => n.tampered).map((n) => n.id);
    expect(tampered).toEqual([`dna:${H('b')}`, `dna:${H('x')}`]);
  });

  it('a different envelope claiming a taken hash is its own node, flagged duplicate; parents resolve to the genuine one', () => {
    const forged = env(H('a'), [], { hashOk: false, from: 'bafybmi-mallory', path: 'envelope.parent_envelope[2]', epoch: 2 });
    const g = buildAgentDnaGraph([...workflow, forged]);
    const holders = (g.nodes as EnvelopeNode[]).filter((n) => n.hash === H('a'));
    expect(holders.map((n) => [n.id, n.duplicate, n.tampered])).toEqual([
      [`dna:${H('a')}`, true, false],
      [`dna:${H('a')}~2`, true, true],
    ]);
    expect(g.edges.find((e) => e.from === `dna:${H('t')}` && e.to.startsWith(`dna:${H('a')}`))!.to).toBe(`dna:${H('a')}`);
    expect(reportGraphOf([], g).nodes).toBe(5);
  });

  it('an envelope given twice with an identity is one node; a different identity is a duplicate', () => {
    const g = buildAgentDnaGraph([
      env(H('a'), [], { identity: 'x', hashOk: false }),
      env(H('a'), [], { identity: 'x', hashOk: false, path: 'again' }),
      env(H('a'), [], { identity: 'y', hashOk: false, path: 'forged' }),
    ]);
    expect(g.nodes.map((n) => [n.id, (n as EnvelopeNode).occurrences.length])).toEqual([
      [`dna:${H('a')}`, 2],
      [`dna:${H('a')}~2`, 1],
    ]);
  });

  it('a parent hash that no envelope holds is a ghost and a missing entry', () => {
    const g = buildAgentDnaGraph([env(H('t'), [H('z'), ''])]);
    expect(g.nodes.filter((n) => n.kind === 'ghost').map((n) => n.id)).toEqual([`ghost:dna:${H('z')}`, 'ghost:dna:']);
    expect(g.missing).toEqual([
      { from: `dna:${H('t')}`, ref: H('z'), via: 'parent_envelope' },
      { from: `dna:${H('t')}`, ref: '', via: 'parent_envelope' },
    ]);
    const report = reportGraphOf([], g);
    expect(report.nodes).toBe(1);
    expect(report.edges).toEqual([]);
  });

  it('reports parent_envelope edges beside AGDX ones, envelopes named by their hash', () => {
    const report = reportGraphOf([], buildAgentDnaGraph(workflow));
    expect(report.edges).toContainEqual({ from: H('t'), to: H('a'), via: 'parent_envelope' });
    expect(report.nodes).toBe(4);
    expect(report.streams).toEqual([]);
  });
});
