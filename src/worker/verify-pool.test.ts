// The verifier pool without Workers: ports that answer through the real handlers (verify-handlers.ts)
// on later turns, messages cloned as postMessage clones them. Its sizing (the reading thread's share
// counted), its typed messages, batches taken by whichever verifier is free and by the reading thread,
// failures; and its verdicts, with libsecp256k1 and caches kept warm across batches, equal to noble's
// checked one by one from cold caches: every AgentDNA vector, and random signatures (valid, high-S,
// s flipped, the other recovery id's key, another signer, tampered, malformed hex and DER, key files).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { afterAll, describe, expect, it } from 'vitest';
import { toHex, utf8Encode } from '../core/bytes';
import { didOf } from '../core/agentdna/did';
import { CURVE_N, readDerLenient, recoverCandidates } from '../core/agentdna/ecdsa';
import { signedBytes } from '../core/agentdna/hash';
import type { WorkflowReport } from '../core/agentdna/model';
import {
  checkSignatureText,
  completeRecovered,
  completeWorkflow,
  installSecpWasm,
  RECOVERY_PENDING,
  recoveredLater,
  resetSignatureCaches,
  secpImplementation,
  type SignatureCheck,
} from '../core/agentdna/signature';
import { runSignatureJob, SignatureResults, type SignatureJob } from '../core/agentdna/signature-jobs';
import { secpWasmForTests } from '../../test/support/secp';
import { inspectInput, inspectInputBatches } from '../core/inspect';
import type { InspectedRecord } from '../core/records';
import type { VerifyHandlers, VerifyMessage, VerifyRequest } from '../wire/verify-protocol';
import { answer } from './answer';
import { verifyHandlers } from './verify-handlers';
import { IN_FLIGHT, MAX_VERIFIERS, SIGNATURE_BATCH, VerifyPool, verifierCount, type LocalVerifier, type VerifierPort } from './verify-pool';

const wasm = secpWasmForTests();
afterAll(() => installSecpWasm(null));

/** A verifier worker in this thread: each request answered on a later turn through `handlers`. */
class FakeVerifier implements VerifierPort {
  onmessage: ((e: MessageEvent<VerifyMessage>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  received: VerifyRequest[] = [];
  constructor(private readonly handlers: VerifyHandlers) {}
  postMessage(req: VerifyRequest): void {
    const copy = structuredClone(req);
    this.received.push(copy);
    setTimeout(() => void answer(this.handlers, copy, (m) => this.onmessage?.({ data: structuredClone(m) } as MessageEvent<VerifyMessage>)), 0);
  }
}

const handlers = verifyHandlers(async () => installSecpWasm(wasm));

function pool(cores: number, local: LocalVerifier | null, h: VerifyHandlers = handlers) {
  const verifiers: FakeVerifier[] = [];
  const p = new VerifyPool({
    cores,
    local,
    spawn: () => {
      const v = new FakeVerifier(h);
      verifiers.push(v);
      return v;
    },
  });
  return { pool: p, verifiers };
}

/** The reading thread's share, counting its batches. */
function local(ready = () => true): LocalVerifier & { batches: number[] } {
  const batches: number[] = [];
  return { batches, ready, run: (jobs) => (batches.push(jobs.length), jobs.map(runSignatureJob)) };
}

// ---------------------------------------------------------------------------------------------
// Signatures to check
// ---------------------------------------------------------------------------------------------

const keys = Array.from({ length: 5 }, (_, i) => sha256(utf8Encode(`pool agent ${i}`)));
const didOfKey = (sk: Uint8Array) => didOf(secp256k1.getPublicKey(sk, false))!;
const sign = (e: Uint8Array, sk: Uint8Array) => secp256k1.Signature.fromBytes(secp256k1.sign(e, sk, { prehash: false, lowS: false }));

function intBytes(n: bigint): number[] {
  const h = n.toString(16).padStart(2 * Math.ceil(n.toString(16).length / 2), '0');
  const b = Array.from({ length: h.length / 2 }, (_, i) => Number.parseInt(h.slice(2 * i, 2 * i + 2), 16));
  return b[0] & 0x80 ? [0, ...b] : b;
}
function derHex(r: bigint, s: bigint): string {
  const body = [0x02, intBytes(r).length, ...intBytes(r), 0x02, intBytes(s).length, ...intBytes(s)];
  return toHex(Uint8Array.from([0x30, body.length, ...body]));
}

/** Jobs as a load makes them, many per signer (so the quick check runs), with every kind of trouble among them. */
function randomJobs(count: number): SignatureJob[] {
  const jobs: SignatureJob[] = [];
  for (let i = 0; i < count; i++) {
    const sk = keys[i % keys.length];
    const did = didOfKey(sk);
    const message = toHex(sha256(utf8Encode(`message ${i}`)));
    const rule = i % 7 === 3 ? 'sha256' : 'truncate';
    const sig = sign(signedBytes(message, rule), sk);
    const kind = i % 13;
    let { r, s } = sig;
    let signer: string | null = did;
    let text = message;
    let signature: string | null = null;
    if (kind === 1) s = CURVE_N - s; // the other S: still a signature by the same key
    if (kind === 2) signer = didOfKey(keys[(i + 1) % keys.length]); // another signer's DID
    if (kind === 3) text = toHex(sha256(utf8Encode(`tampered ${i}`)));
    if (kind === 4) {
      // The key of the other recovery id: a key the signature does verify under, whose DID is not the signer's.
      const other = recoverCandidates(r, s, signedBytes(message, rule)).find((c) => toHex(c.publicKey) !== toHex(secp256k1.getPublicKey(sk, false)))!;
      signer = didOf(other.publicKey)!;
    }
    if (kind === 5) signature = 'zz';
    if (kind === 6) signature = derHex(r, s).slice(0, 21);
    if (kind === 7) signature = derHex(r, s).toUpperCase();
    if (kind === 8) signature = derHex(r, s).replace(/^(.{10})../, '$1ff');
    if (kind === 9) signer = null;
    if (kind === 10) signature = derHex(0n, s);
    if (kind === 11) signature = `${derHex(r, s)}00`;
    const job: SignatureJob = { signer, message: text, signature: signature ?? derHex(r, s) };
    if (kind === 12 && i % 2 === 0) Object.assign(job, { signer: `did:example:${i}`, offered: [secp256k1.getPublicKey(sk, true)] }); // a DID made another way, its key in a key file
    if (kind === 12 && i % 2 === 1) job.full = true;
    jobs.push(job);
  }
  return jobs;
}

/** noble's check of each job from cold caches, as checking in place without a pool gives it. */
function reference(jobs: SignatureJob[]): SignatureCheck[] {
  installSecpWasm(null);
  return jobs.map((j) => {
    resetSignatureCaches();
    const extra = j.offered && j.signer !== null ? new Map([[j.signer, j.offered]]) : undefined;
    return checkSignatureText(j.signer, j.message, j.signature, extra);
  });
}

/** An answer with a quick check's list of candidates completed (by noble), as taking it and opening the record do. */
function completed(check: SignatureCheck, job: SignatureJob): SignatureCheck {
  installSecpWasm(null);
  recoveredLater(check, job.signer, job.message, job.signature);
  return { ...check, recovered: completeRecovered(check.recovered) };
}

// ---------------------------------------------------------------------------------------------

describe('the verifier pool', () => {
  it('is sized to the cores with the reading thread counted: cores − 1 verifier workers, at least one', () => {
    expect([1, 2, 3, 4, 8, 64, Number.NaN].map(verifierCount)).toEqual([1, 1, 2, 3, 7, MAX_VERIFIERS, 1]);
    expect(pool(4, null).pool.size).toBe(3);
    expect(pool(2, local()).verifiers).toHaveLength(1);
  });

  it('sends typed requests of its map, in batches, to whichever verifier is free and to the reading thread', async () => {
    installSecpWasm(wasm);
    resetSignatureCaches();
    const mine = local();
    // Workers that answer once let go: meanwhile the reading thread takes what they cannot hold.
    let letGo = () => {};
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    const { pool: p, verifiers } = pool(3, mine, { ...handlers, agentdna: async (body, ctx) => (await gate, handlers.agentdna(body, ctx)) });
    // More batches than the two workers hold (IN_FLIGHT each), so some are left for the reading thread.
    const jobs = randomJobs(SIGNATURE_BATCH * (2 * IN_FLIGHT + 4) - 7);
    const answered = p.checkSignatures(jobs);
    await new Promise((r) => setTimeout(r, 50));
    letGo();
    const checks = await answered;
    expect(checks).toHaveLength(jobs.length);
    const sent = verifiers.flatMap((v) => v.received);
    for (const req of sent) {
      expect(req.type).toBe('agentdna');
      expect(Object.keys(req).sort()).toEqual(['body', 'id', 'type']);
    }
    // Every job went once: to a worker or to the reading thread, in batches of at most SIGNATURE_BATCH.
    const sizes = [...sent.map((r) => (r as VerifyRequest<'agentdna'>).body.jobs.length), ...mine.batches];
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(jobs.length);
    expect(Math.max(...sizes)).toBe(SIGNATURE_BATCH);
    expect(verifiers.every((v) => v.received.length > 0)).toBe(true);
    expect(mine.batches.length).toBeGreaterThan(0);
    // In order: each answer is its own job's.
    expect(checks.map((c) => [c.status, c.r, c.signed_bytes_hex])).toEqual(jobs.map(runSignatureJob).map((c) => [c.status, c.r, c.signed_bytes_hex]));
  });

  it('keeps IN_FLIGHT batches at each verifier, so one never waits for the reading thread to send the next', async () => {
    installSecpWasm(wasm);
    let letGo = () => {};
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    const { pool: p, verifiers } = pool(2, null, { ...handlers, agentdna: async (body, ctx) => (await gate, handlers.agentdna(body, ctx)) });
    const answered = p.checkSignatures(randomJobs(SIGNATURE_BATCH * (IN_FLIGHT + 3)));
    await new Promise((r) => setTimeout(r, 20));
    expect(verifiers[0].received).toHaveLength(IN_FLIGHT);
    letGo();
    await answered;
    expect(verifiers[0].received).toHaveLength(IN_FLIGHT + 3);
  });

  it('leaves the reading thread out until it can check fast (libsecp256k1 loaded there)', async () => {
    installSecpWasm(wasm);
    const notYet = local(() => false);
    const { pool: p, verifiers } = pool(2, notYet);
    await p.checkSignatures(randomJobs(200));
    expect(notYet.batches).toEqual([]);
    expect(verifiers[0].received.length).toBe(Math.ceil(200 / SIGNATURE_BATCH));
  });

  it('a verifier that fails answers with a failure, and the checks reject (SignatureResults then checks in place)', async () => {
    const failing: VerifyHandlers = {
      ...handlers,
      agentdna: async () => {
        throw new Error('no memory');
      },
    };
    const { pool: p } = pool(2, null, failing);
    await expect(p.checkSignatures(randomJobs(10))).rejects.toThrow('no memory');
    // A worker whose script fails: what it holds fails too.
    const { pool: q, verifiers } = pool(2, null, { ...handlers, agentdna: () => new Promise(() => {}) });
    const pending = q.checkSignatures(randomJobs(10));
    verifiers[0].onerror?.({ message: 'script error' } as ErrorEvent);
    await expect(pending).rejects.toThrow('verifier failed: script error');
  });

  it('Ed25519 checks: split over the workers, answered in order', async () => {
    const sk = sha256(utf8Encode('ed key'));
    const { pool: p, verifiers } = pool(3, local());
    const ed = await import('@noble/ed25519');
    const pk = await ed.getPublicKeyAsync(sk);
    const jobs = await Promise.all(
      Array.from({ length: 9 }, async (_, i) => {
        const message = utf8Encode(`m${i}`);
        const signature = await ed.signAsync(message, sk);
        return { signature, message: i % 3 === 0 ? utf8Encode('other') : message, publicKey: pk };
      }),
    );
    expect(await p.verifyMany(jobs)).toEqual(jobs.map((_, i) => i % 3 !== 0));
    expect(verifiers.map((v) => v.received.map((r) => r.type))).toEqual([['ed25519'], ['ed25519']]);
  });
});

describe("the pool's verdicts (libsecp256k1, warm caches, batches) are noble's, checked one by one", () => {
  it('random signatures: valid, high-S, s flipped, the other recovery id, another signer, tampered, malformed, key files', async () => {
    installSecpWasm(wasm);
    resetSignatureCaches();
    const jobs = randomJobs(300);
    const { pool: p } = pool(3, local());
    // Two rounds: the second finds every signer's key proven (the quick check) in every verifier.
    const first = await p.checkSignatures(jobs);
    const second = await p.checkSignatures(jobs);
    expect(second.filter((c) => c.recovered[0]?.recovery === RECOVERY_PENDING).length).toBeGreaterThan(80);
    const expected = reference(jobs);
    expect(first.map((c, i) => completed(c, jobs[i]))).toEqual(expected);
    expect(second.map((c, i) => completed(c, jobs[i]))).toEqual(expected);
    const statuses = new Set(expected.map((c) => c.status));
    expect([...statuses].sort()).toEqual(['invalid', 'malformed', 'valid']);
    expect(expected.some((c) => c.status === 'valid' && c.high_s)).toBe(true);
    expect(expected.some((c) => c.key_source === 'key-file')).toBe(true);
    expect(expected.some((c) => c.der_issues.length > 0)).toBe(true);
  });

  const dir = resolve(__dirname, '../../vectors/agentdna');
  const files = (d: string): string[] =>
    readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? files(join(d, f)) : f.endsWith('.json') ? [join(d, f)] : []));
  const said = ({ verdict: v }: InspectedRecord) => ({ index: v.index, kind: v.kind, signature: v.signature, findings: v.findings, summary: v.summary });
  const rebased = (batches: { records: InspectedRecord[]; workflows: WorkflowReport[] }[]) => {
    let base = 0;
    return batches.flatMap((b) => {
      const out = b.workflows.map((w) => ({ ...completeWorkflow(w), record: w.record + base }));
      base += b.records.length;
      return out;
    });
  };

  it('every AgentDNA vector, read in batches through the pool, says what noble says read whole', async () => {
    const vectors = files(dir);
    expect(vectors.length).toBeGreaterThanOrEqual(12);
    installSecpWasm(wasm);
    resetSignatureCaches();
    const { pool: p } = pool(2, local());
    for (const file of vectors) {
      const bytes = new Uint8Array(readFileSync(file));
      installSecpWasm(wasm);
      const batches = [];
      for (const b of inspectInputBatches(0, { name: file, bytes }, undefined, 1, { signatures: () => new SignatureResults(p.checkSignatures) })) {
        if (b.wait) await b.wait;
        else batches.push(b);
      }
      expect(secpImplementation()).toBe('libsecp256k1-wasm');
      installSecpWasm(null);
      resetSignatureCaches();
      const whole = inspectInput(0, { name: file, bytes }, undefined, false);
      expect(batches.flatMap((b) => b.records).map(said), file).toEqual(whole.records.map(said));
      expect(rebased(batches), file).toEqual(whole.workflows);
    }
  });
});

describe('the DER read the pool relies on', () => {
  it('reads back what derHex writes', () => {
    const sig = sign(new Uint8Array(32).fill(7), keys[0]);
    const read = readDerLenient(
      Uint8Array.from(
        derHex(sig.r, sig.s)
          .match(/../g)!
          .map((h) => Number.parseInt(h, 16)),
      ),
    );
    expect(read).toMatchObject({ ok: true, r: sig.r, s: sig.s, issues: [] });
  });
});
