// Signature checks answered by another thread (the page's verifier pool) give what checking them
// in place gives: the benchmark's generated workflows (really signed) read whole, in parts with a
// pool, and with a pool that never answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentdnaWorkflows } from '../../../test/support/generate';
import { inspectInput, inspectInputBatches } from '../inspect';
import { readJson } from '../json/lossless';
import { readAgentDna, readAgentDnaParts, type AgentDnaPart } from '../import/agentdna';
import type { InspectedRecord } from '../records';
import { isValid } from '../verdict';
import type { WorkflowReport } from './model';
import { checkSignatureText, completeWorkflow, isRecoveredPending, installSecpWasm, RECOVERY_PENDING, type SignatureCheck } from './signature';
import { runSignatureJob, SignatureResults, type SignatureJob } from './signature-jobs';
import { secpWasmForTests } from '../../../test/support/secp';

beforeAll(() => installSecpWasm(secpWasmForTests()));
afterAll(() => installSecpWasm(null));

const said = ({ verdict: v }: InspectedRecord) => ({
  index: v.index,
  kind: v.kind,
  valid: isValid(v),
  signature: v.signature,
  findings: v.findings,
  summary: v.summary,
});

/** A pool on the next turns of the event loop, running the jobs as a verifier worker does. */
function fakePool(): { check: (jobs: SignatureJob[]) => Promise<SignatureCheck[]>; jobs: number } {
  const pool = {
    jobs: 0,
    check: async (jobs: SignatureJob[]) => {
      pool.jobs += jobs.length;
      await new Promise((r) => setTimeout(r, 0));
      // Through a structured clone, as postMessage hands them over.
      return structuredClone(jobs.map(runSignatureJob));
    },
  };
  return pool;
}

/** Drives a read that may wait: awaits each wait, collects the parts. */
async function drive(parts: Generator<AgentDnaPart | { wait: Promise<void> }>): Promise<{ parts: AgentDnaPart[]; waits: number }> {
  const out: AgentDnaPart[] = [];
  let waits = 0;
  for (const p of parts) {
    if ('wait' in p) {
      waits++;
      await p.wait;
    } else out.push(p);
  }
  return { parts: out, waits };
}

function rebased(parts: Array<{ records: InspectedRecord[]; workflows: WorkflowReport[] }>): WorkflowReport[] {
  let base = 0;
  return parts.flatMap((p) => {
    const out = p.workflows.map((w) => ({ ...w, record: w.record + base }));
    base += p.records.length;
    return out;
  });
}

describe("the benchmark's generated AgentDNA workflows", () => {
  it('are really signed: every envelope verifies and is bound to its DID, all three modes pass, s both high and low', () => {
    const text = new TextEncoder().encode(agentdnaWorkflows(6, 5));
    const { records, workflows } = inspectInput(0, { name: 'w.json', bytes: text });
    expect(records.length).toBe(6);
    expect(records.every((r) => isValid(r.verdict) && r.verdict.signature.status === 'valid')).toBe(true);
    const envelopes = workflows.flatMap((w) => w.envelopes);
    expect(envelopes.length).toBe(30);
    expect(envelopes.every((e) => e.hash_ok && e.signature === 'valid' && e.did_match && e.key_source === 'did' && e.rule === 'truncate')).toBe(true);
    expect(workflows.every((w) => w.modes.light === 1000 && w.modes.heavy === 1000 && w.modes.boundary === 1000)).toBe(true);
    expect(new Set(envelopes.map((e) => e.high_s))).toEqual(new Set([true, false]));
  });
});

describe('signature checks answered by a pool', () => {
  const text = new TextEncoder().encode(agentdnaWorkflows(150, 5));
  const rootOf = (bytes: Uint8Array) => {
    const parsed = readJson(bytes);
    if (!parsed.ok) throw new Error(parsed.error.message);
    return parsed.value;
  };
  const root = () => rootOf(text);
  const whole = readAgentDna(0, text, root());

  it('give the same records and workflows as checking in place; every check went to the pool and every answer was used', async () => {
    const pool = fakePool();
    const results = new SignatureResults(pool.check);
    const { parts, waits } = await drive(readAgentDnaParts(0, text, root(), { signatures: results }, { partSize: 40, partMs: Infinity }));
    expect(waits).toBeGreaterThan(1);
    expect(pool.jobs).toBe(150 * 5);
    expect(results.untaken).toBe(0);
    // Most went the quick way (a proven key); their lists of candidates are completed on demand.
    const lists = parts.flatMap((p) => p.workflows.flatMap((w) => w.envelopes.map((e) => e.recovered)));
    expect(lists.filter(isRecoveredPending).length).toBeGreaterThan(600);
    const completed = parts.map((p) => ({ ...p, workflows: p.workflows.map((w) => completeWorkflow(w)) }));
    expect(parts.flatMap((p) => p.records).map(said)).toEqual(whole.records.map(said));
    expect(rebased(completed)).toEqual(whole.workflows);
    // Completing made new workflows: the read ones keep their lists as they were.
    expect(lists.filter(isRecoveredPending).length).toBeGreaterThan(600);
    expect(lists.filter(isRecoveredPending).every((l) => l.length === 1 && l[0].recovery === RECOVERY_PENDING)).toBe(true);
  });

  it('card states whose data is JSON text: the same as checking in place, every check to the pool and every answer used', async () => {
    // The text is read once, by the checks listed ahead, and the item's reading takes what they read.
    const workflows = (JSON.parse(new TextDecoder().decode(text)) as unknown[]).slice(0, 40);
    const states = new TextEncoder().encode(JSON.stringify(workflows.map((w) => ({ data: JSON.stringify(w) }))));
    const inPlace = readAgentDna(0, states, rootOf(states));
    expect(inPlace.records.length).toBe(40);
    expect(inPlace.records.every((r) => r.verdict.format === 'agentdna.card' && r.verdict.signature.status === 'valid')).toBe(true);
    const pool = fakePool();
    const results = new SignatureResults(pool.check);
    const { parts, waits } = await drive(readAgentDnaParts(0, states, rootOf(states), { signatures: results }, { partSize: 10, partMs: Infinity }));
    expect(waits).toBeGreaterThan(0);
    expect(pool.jobs).toBe(40 * 5);
    expect(results.untaken).toBe(0);
    expect(parts.flatMap((p) => p.records).map(said)).toEqual(inPlace.records.map(said));
    expect(rebased(parts.map((p) => ({ ...p, workflows: p.workflows.map((w) => completeWorkflow(w)) })))).toEqual(inPlace.workflows);
  });

  it('a pool that fails: the checks are made in place, with the same verdicts', async () => {
    const results = new SignatureResults(() => Promise.reject(new Error('worker gone')));
    const { parts } = await drive(readAgentDnaParts(0, text, root(), { signatures: results }, { partSize: 1000, partMs: Infinity }));
    expect(parts.flatMap((p) => p.records).map(said)).toEqual(whole.records.map(said));
    expect(rebased(parts)).toEqual(whole.workflows);
  });

  it('stream from inspectInputBatches: waits carry no records, the rest is what a whole read gives', async () => {
    const pool = fakePool();
    const batches = [];
    for (const b of inspectInputBatches(0, { name: 'w.json', bytes: text }, undefined, 50, { signatures: () => new SignatureResults(pool.check) })) {
      if (b.wait) {
        expect(b.records).toEqual([]);
        await b.wait;
      } else batches.push(b);
    }
    const read = inspectInput(0, { name: 'w.json', bytes: text }, undefined, false);
    const completed = batches.map((b) => ({ ...b, workflows: b.workflows.map((w) => completeWorkflow(w)) }));
    expect(rebased(completed)).toEqual(read.workflows);
    expect(batches.flatMap((b) => b.records).map(said)).toEqual(read.records.map(said));
    expect(batches[batches.length - 1].input).toEqual(read.input);
    expect(pool.jobs).toBe(150 * 5);
  });
});

describe('SignatureResults', () => {
  // An answer told apart by its reason (any check's shape: an empty signature's).
  const answer = (reason: string): SignatureCheck => ({ ...checkSignatureText(null, null, ''), reason });
  it('hands an answer over once, only for the exact signer, message and signature it was computed from, in the order sent', async () => {
    const jobs: SignatureJob[] = [
      { signer: 'did:a', message: 'm1', signature: '30aa' },
      { signer: 'did:b', message: 'm1', signature: '30aa' },
      { signer: 'did:a', message: 'm2', signature: '30aa' },
      { signer: null, message: 'm1', signature: '30aa' },
      { signer: 'did:a', message: 'm1', signature: '30aa' },
    ];
    const results = new SignatureResults(async (js) => js.map((_, i) => answer(`answer ${i}`)));
    await results.submit(jobs);
    expect(results.untaken).toBe(5);
    expect(results.take('did:a', 'm1', '30ab')).toBeUndefined();
    expect(results.take('did:c', 'm1', '30aa')).toBeUndefined();
    expect(results.take('did:a', 'm2', '30aa')?.reason).toBe('answer 2');
    expect(results.take(null, 'm1', '30aa')?.reason).toBe('answer 3');
    expect(results.take('did:a', 'm1', '30aa')?.reason).toBe('answer 0');
    expect(results.take('did:a', 'm1', '30aa')?.reason).toBe('answer 4');
    expect(results.take('did:a', 'm1', '30aa')).toBeUndefined();
    expect(results.take('did:b', 'm1', '30aa')?.reason).toBe('answer 1');
    expect(results.untaken).toBe(0);
  });
  it('keeps nothing when the other side fails or answers a different number of jobs', async () => {
    const job: SignatureJob = { signer: 'did:a', message: 'm', signature: '30' };
    const failed = new SignatureResults(async () => Promise.reject(new Error('verifier failed')));
    await failed.submit([job]);
    expect(failed.take('did:a', 'm', '30')).toBeUndefined();
    const short = new SignatureResults(async () => []);
    await short.submit([job]);
    expect(short.untaken).toBe(0);
  });
});
