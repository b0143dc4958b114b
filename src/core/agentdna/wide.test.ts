// A workflow as wide as its input allows (issue 23): a tip with 125,000 tiny parents was refused
// with "Maximum call stack size exceeded" (its parents spread into one call); now every walk over
// parents is a loop, and it is read, reported and streamed like any other.
import { describe, expect, it } from 'vitest';
import { inspect } from '../inspect';
import { buildReport } from '../report';

const PARENTS = 125_000;
const workflow = new TextEncoder().encode(JSON.stringify({ envelope: { from: 'tip', payload: 'x', parent_envelope: Array(PARENTS).fill({ from: 'p' }) } }));

describe('a workflow whose tip has 125,000 parents', () => {
  it('is inspected: one workflow, its envelopes, no internal error', () => {
    const result = inspect([{ name: 'wide.json', bytes: workflow }], { detail: false });
    expect(result.inputs[0].format).toBe('agentdna-workflow');
    expect(result.records.map((r) => r.verdict.error?.message ?? null).filter((m) => m?.includes('internal error'))).toEqual([]);
    expect(result.workflows).toHaveLength(1);
    // The parents are one envelope, met 125,000 times: the tip and it.
    expect(result.workflows[0].envelopes).toHaveLength(2);
    const report = buildReport(result);
    expect(report.records[0].decoded).toBe(true);
  });
});
