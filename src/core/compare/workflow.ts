// Two AgentDNA workflows envelope by envelope: matched first by their claimed hash (the same
// envelope in both DAGs, wherever it sits), then by their place in the DAG (the same path from the
// tip), the rest on one side only. For each pair: which hashed fields differ, and both sides' hash
// and signature verdicts.
import type { EnvelopeReport, WorkflowReport } from '../agentdna/model';
import { placeBOnly } from './interleave';
import type { EnvelopeField, EnvelopePair, EnvelopeSide, WorkflowDiff } from './model';

function side(e: EnvelopeReport, index: number): EnvelopeSide {
  return {
    index,
    path: e.path,
    hash: e.hash,
    from: e.from,
    to: e.to,
    epoch: e.epoch,
    payload: e.payload,
    status: e.status_code,
    parents: e.parents,
    hashOk: e.hash_ok,
    signature: e.signature,
    didMatch: e.did_match,
    trusted: e.trusted,
  };
}

function differs(a: EnvelopeSide, b: EnvelopeSide): EnvelopeField[] {
  const out: EnvelopeField[] = [];
  if (a.payload !== b.payload) out.push('payload');
  if (a.from !== b.from) out.push('from');
  if (a.to !== b.to) out.push('to');
  if (a.epoch !== b.epoch) out.push('epoch');
  if (a.status !== b.status) out.push('status');
  if (a.parents.join('\n') !== b.parents.join('\n')) out.push('parents');
  if (a.hash !== b.hash) out.push('hash');
  return out;
}

const verdictsDiffer = (a: EnvelopeSide, b: EnvelopeSide) =>
  a.hashOk !== b.hashOk || a.signature !== b.signature || a.didMatch !== b.didMatch || a.trusted !== b.trusted;

/** The envelope-by-envelope comparison of two workflows (in A's order, B's own envelopes where they fall in B). */
export function compareWorkflows(a: WorkflowReport, b: WorkflowReport): WorkflowDiff {
  if (!a || !b || !Array.isArray(a.envelopes) || !Array.isArray(b.envelopes)) throw new TypeError('compareWorkflows: two workflow reports');
  const as = a.envelopes.map(side);
  const bs = b.envelopes.map(side);
  const partner = new Array<number>(as.length).fill(-1);
  const how = new Array<'hash' | 'position' | null>(as.length).fill(null);
  const taken = new Set<number>();
  // By hash: the first unmatched envelope of B claiming the same hash.
  const byHash = new Map<string, number[]>();
  bs.forEach((e, j) => {
    if (!e.hash) return;
    const list = byHash.get(e.hash);
    if (list) list.push(j);
    else byHash.set(e.hash, [j]);
  });
  as.forEach((e, i) => {
    const j = byHash.get(e.hash)?.find((x) => !taken.has(x));
    if (j === undefined) return;
    partner[i] = j;
    how[i] = 'hash';
    taken.add(j);
  });
  // By place in the DAG: the same path from the tip.
  const byPath = new Map(bs.map((e, j) => [e.path, j]));
  as.forEach((e, i) => {
    if (partner[i] >= 0) return;
    const j = byPath.get(e.path);
    if (j === undefined || taken.has(j)) return;
    partner[i] = j;
    how[i] = 'position';
    taken.add(j);
  });
  const pairs: EnvelopePair[] = [];
  const counts = { same: 0, differing: 0, onlyA: 0, onlyB: 0 };
  // B's own envelopes go after the pair holding the B envelope before them.
  const { lead, after: bOnlyAfter } = placeBOnly(partner, bs.length);
  const onlyB = (j: number) => {
    counts.onlyB++;
    pairs.push({ a: null, b: bs[j], matchedBy: null, differs: [], verdictsDiffer: false });
  };
  lead.forEach(onlyB);
  as.forEach((e, i) => {
    const j = partner[i];
    if (j < 0) {
      counts.onlyA++;
      pairs.push({ a: e, b: null, matchedBy: null, differs: [], verdictsDiffer: false });
    } else {
      const d = differs(e, bs[j]);
      const v = verdictsDiffer(e, bs[j]);
      if (d.length || v) counts.differing++;
      else counts.same++;
      pairs.push({ a: e, b: bs[j], matchedBy: how[i], differs: d, verdictsDiffer: v });
    }
    bOnlyAfter.get(i)?.forEach(onlyB);
  });
  return { pairs, modes: { a: { ...a.modes }, b: { ...b.modes } }, counts };
}
