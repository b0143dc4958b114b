// The AgentDNA parent_envelope DAG: one node per distinct envelope, edges child → parent.
//
// Envelopes are de-duplicated by hash: the same envelope met again (fan-in repeats a parent in
// the document; several workflows share an ancestor) is one node with several occurrences. A
// different envelope claiming a hash already taken is a node of its own beside it, flagged
// `duplicate` (and so is the first holder of that hash). A child names its parents by hash only;
// when a hash has several holders, the edge goes to the one whose content matches the hash.
import type { WorkflowReport } from '../agentdna/model';
import type { AgentDnaGraph, AgentDnaNodeInput, EnvelopeNode, GhostNode, GraphEdge, MissingParent } from './model';
import { findCycles } from './scc';
import { shortened } from '../short-id';

const pad = (n: number, width: number) => String(Math.max(0, Math.trunc(n))).padStart(width, '0');

/** What makes two inputs with the same hash the same envelope. */
function identityOf(e: AgentDnaNodeInput): string {
  if (e.identity !== undefined) return `id:${e.identity}`;
  // Same hash and both contents match it: the same content (SHA-256).
  if (e.hashOk) return 'content-matches-hash';
  return JSON.stringify([e.from, e.to, e.epoch, [...e.parents].sort(), e.signature, e.didMatch]);
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

export function buildAgentDnaGraph(envelopes: readonly AgentDnaNodeInput[]): AgentDnaGraph {
  const nodes: EnvelopeNode[] = [];
  const holders = new Map<string, { identity: string; node: EnvelopeNode }[]>();
  for (const e of envelopes) {
    const identity = identityOf(e);
    const list = holders.get(e.hash) ?? [];
    const same = list.find((h) => h.identity === identity);
    if (same) {
      same.node.occurrences.push({ recordIndex: e.recordIndex, path: e.path });
      continue;
    }
    const node: EnvelopeNode = {
      id: list.length === 0 ? `dna:${e.hash}` : `dna:${e.hash}~${list.length + 1}`,
      kind: 'envelope',
      label: `${shortened(e.from, 14, 0)}${e.to ? ` → ${shortened(e.to, 14, 0)}` : ''} · ${e.hash.slice(0, 8)}`,
      group: null,
      sortKey: `${pad(e.epoch ?? 0, 16)}:${pad(e.recordIndex, 9)}:${e.path}`,
      recordIndex: e.recordIndex,
      cycle: false,
      hash: e.hash,
      from: e.from,
      to: e.to,
      epoch: e.epoch,
      hashOk: e.hashOk,
      signature: e.signature,
      didMatch: e.didMatch,
      path: e.path,
      occurrences: [{ recordIndex: e.recordIndex, path: e.path }],
      tampered: !e.hashOk || e.signature !== 'valid',
      duplicate: false,
    };
    list.push({ identity, node });
    holders.set(e.hash, list);
    nodes.push(node);
  }
  for (const list of holders.values()) if (list.length > 1) for (const h of list) h.node.duplicate = true;

  // The node a parent hash leads to: the holder whose content matches the hash, else the first.
  const target = (hash: string) => {
    const list = holders.get(hash);
    if (!list) return null;
    return (list.find((h) => h.node.hashOk) ?? list[0]).node;
  };

  const edges: GraphEdge[] = [];
  const edgeIds = new Set<string>();
  const missing: MissingParent[] = [];
  const ghosts = new Map<string, GhostNode>();
  const inputsOf = new Map<EnvelopeNode, AgentDnaNodeInput>();
  for (const e of envelopes) {
    const list = holders.get(e.hash)!;
    const node = list.find((h) => h.identity === identityOf(e))!.node;
    if (!inputsOf.has(node)) inputsOf.set(node, e);
  }
  for (const node of nodes) {
    const e = inputsOf.get(node)!;
    for (const parentHash of e.parents) {
      let to: string;
      const p = target(parentHash);
      if (p) to = p.id;
      else {
        const gid = `ghost:dna:${parentHash}`;
        let g = ghosts.get(gid);
        if (!g) {
          g = {
            id: gid,
            kind: 'ghost',
            label: `missing ${parentHash === '' ? '(no hash)' : parentHash.slice(0, 8)}`,
            group: null,
            sortKey: node.sortKey,
            recordIndex: null,
            cycle: false,
            refs: [{ via: 'parent_envelope', ref: parentHash }],
            note: parentHash === '' ? 'a parent without a hash: the signed message cannot be formed' : null,
          };
          ghosts.set(gid, g);
        }
        if (node.sortKey < g.sortKey) g.sortKey = node.sortKey;
        to = gid;
        missing.push({ from: node.id, ref: parentHash, via: 'parent_envelope' });
      }
      const id = `${node.id}>${to}:parent_envelope`;
      if (edgeIds.has(id)) continue;
      edgeIds.add(id);
      edges.push({ id, from: node.id, to, via: 'parent_envelope', count: 1, note: null });
    }
  }

  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const adj: number[][] = nodes.map(() => []);
  for (const e of edges) {
    const a = index.get(e.from);
    const b = index.get(e.to);
    if (a !== undefined && b !== undefined) adj[a].push(b);
  }
  const byKey = (a: EnvelopeNode, b: EnvelopeNode) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0);
  const cycles = findCycles(nodes.length, adj).map((c) => c.map((i) => nodes[i]).sort(byKey));
  for (const c of cycles) for (const n of c) n.cycle = true;

  const all = [...nodes, ...ghosts.values()].sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
  return { kind: 'agentdna', nodes: all, edges, missing, cycles: cycles.map((c) => c.map((n) => n.id)) };
}
