// A JSON array of AgentDNA workflows read in parts (readAgentDnaParts, inspectInputBatches) gives
// what reading it whole gives: same records, same verdicts, workflows pointing at the same records.
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectInput, inspectInputBatches } from '../inspect';
import { readJson } from '../json/lossless';
import type { RecordResult } from '../records';
import { readAgentDna, readAgentDnaParts, type AgentDnaPart, type WorkflowReport } from './index';

const dir = resolve(__dirname, '../../../vectors/agentdna/synthetic');
const workflows = readdirSync(dir)
  .filter((f) => f.endsWith('.serialized.json'))
  .sort()
  .map((f) => readFileSync(resolve(dir, f), 'utf8').trim());
const text = new TextEncoder().encode(`[\n${workflows.join(',\n')}\n]`);
const root = () => {
  const parsed = readJson(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
};
/** Workflows of parts that each index their own records, put back in the input's numbering. */
function rebased(parts: Array<{ records: RecordResult[]; workflows: WorkflowReport[] }>): WorkflowReport[] {
  let base = 0;
  return parts.flatMap((p) => {
    const out = p.workflows.map((w) => ({ ...w, record: w.record + base }));
    base += p.records.length;
    return out;
  });
}

/** What a record says, without its redo closure. */
const said = (r: RecordResult) => ({ index: r.index, kind: r.kind, format: r.format, valid: r.valid, signature: r.signature, findings: r.findings.map((f) => f.rule), span: r.inputSpan });

describe('AgentDNA workflows in parts', () => {
  it('has several workflows to split', () => {
    expect(workflows.length).toBeGreaterThanOrEqual(4);
  });

  it('gives the same records and workflows in parts of 2 as whole', () => {
    const whole = readAgentDna(0, text, root());
    const parts = [...readAgentDnaParts(0, text, root(), undefined, { partSize: 2, partMs: Infinity })].filter((p): p is AgentDnaPart => !('wait' in p));
    expect(parts.length).toBe(Math.ceil(workflows.length / 2));
    const records = parts.flatMap((p) => p.records);
    expect(records.map(said)).toEqual(whole.records.map(said));
    // Each part's workflows index its own records.
    expect(rebased(parts)).toEqual(whole.workflows);
    // Progress only moves forward, and the last part ends with the document.
    const ends = parts.map((p) => p.end);
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
    expect(ends[ends.length - 1]).toBe(root().end);
  });

  it('streams from inspectInputBatches, the summary on the last batch only', () => {
    const whole = inspectInput(0, { name: 'w.json', bytes: text }, undefined, false);
    const batches = [...inspectInputBatches(0, { name: 'w.json', bytes: text }, undefined, 2)];
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.slice(0, -1).every((b) => b.input === null)).toBe(true);
    expect(batches[batches.length - 1].input).toEqual(whole.input);
    expect(batches.flatMap((b) => b.records).map(said)).toEqual(whole.records.map(said));
    expect(rebased(batches)).toEqual(whole.workflows);
  });

  it('refuses a part size below one', () => {
    expect(() => readAgentDnaParts(0, text, root(), undefined, { partSize: 0 }).next()).toThrow(TypeError);
  });
});
