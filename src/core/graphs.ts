// Both graphs for a set of inspected records: the AGDX causal graph and the AgentDNA
// parent_envelope DAG of every workflow. Used by the report and by the worker's graph view.
import type { WorkflowReport } from './agentdna/model';
import { foldPrepared, prepareFold, type PreparedLog } from './folds';
import { buildAgdxGraph, buildAgentDnaGraph, type AgdxGraph, type AgdxGraphOptions, type AgentDnaGraph, type AgentDnaNodeInput } from './graph';
import type { Finding } from './model';
import { isValid, type RecordResult } from './records';

export interface Graphs {
  agdx: AgdxGraph;
  agentdna: AgentDnaGraph;
}

/** Every distinct envelope of every workflow, as the DAG builder takes them. */
export function agentDnaInputs(workflows: readonly WorkflowReport[]): AgentDnaNodeInput[] {
  const out: AgentDnaNodeInput[] = [];
  for (const w of workflows) {
    for (const e of w.envelopes) {
      const epoch = e.epoch !== null && /^-?\d+(\.\d+)?$/.test(e.epoch) ? Number(e.epoch) : null;
      out.push({
        recordIndex: w.record,
        hash: e.hash,
        from: e.from ?? '',
        to: e.to,
        epoch,
        parents: e.parents,
        hashOk: e.hash_ok,
        signature: e.signature,
        didMatch: e.did_match,
        path: e.path,
        identity: `${e.content_hash ?? ''}|${e.signature_hex ?? ''}|${e.parents.join(',')}`,
      });
    }
  }
  return out;
}

export function buildGraphs(records: readonly RecordResult[], workflows: readonly WorkflowReport[], options: AgdxGraphOptions = {}): Graphs {
  return { agdx: buildAgdxGraph(records, options), agentdna: buildAgentDnaGraph(agentDnaInputs(workflows)) };
}

/**
 * Puts findings that depend on the whole log (the graph's `agdx/graph/*`, the folds' `agdx/fold/*`)
 * on their records, replacing earlier ones of the same family: they are redone when records are added.
 */
export function annotateLogFindings(records: RecordResult[], rulePrefix: string, findings: readonly { recordIndex: number; finding: Finding }[]): void {
  const byRecord = new Map<number, Finding[]>();
  for (const g of findings) byRecord.set(g.recordIndex, [...(byRecord.get(g.recordIndex) ?? []), g.finding]);
  records.forEach((r, i) => {
    const add = byRecord.get(i);
    if (!add && !r.findings.some((f) => f.rule.startsWith(rulePrefix))) return;
    r.findings = [...r.findings.filter((f) => !f.rule.startsWith(rulePrefix)), ...(add ?? [])];
    r.valid = isValid(r.decoded, r.findings);
  });
}

/**
 * Graph and fold findings, both, for a set of records (after loading or after the keys changed).
 * Returns the log prepared for folding, for whoever folds it next: the fold reads each record as it
 * stood before the fold's own findings (invalidBeforeFold), so adding them leaves it right.
 */
export function annotateLog(records: RecordResult[]): PreparedLog {
  annotateLogFindings(records, 'agdx/graph/', buildAgdxGraph(records).findings);
  const prepared = prepareFold(records);
  annotateLogFindings(records, 'agdx/fold/', foldPrepared(prepared).findings);
  return prepared;
}
