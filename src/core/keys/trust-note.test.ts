// The badge's few words for every way a valid signature ends up not trusted, read from real
// verdicts (AGDX through verifyEnvelope, AgentDNA through inspect with a registry), so a change to
// how those verdicts are worded fails here rather than on the page.
import * as ed from '@noble/ed25519';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { signingInput, verifyEnvelope } from '../agdx/verify';
import type { Envelope } from '../agdx/envelope';
import { fromHex } from '../bytes';
import { inspect } from '../inspect';
import { keyId, parseKeys, type RegisteredKey, type RegistryEntry } from './keys';
import { trustNote } from './trust-note';

const id = (n: number) => fromHex(n.toString(16).padStart(32, '0'))!;
const seed7 = new Uint8Array(32).fill(7);

function keyFor(agent: string, extra: Partial<RegisteredKey> = {}): RegisteredKey {
  const pub = ed.getPublicKey(seed7);
  return { id: keyId(pub), agent, algorithm: 'ed25519', publicKey: pub, kind: 'agent', notBeforeMicros: null, notAfterMicros: null, revoked: false, ...extra };
}

function sign(env: Envelope, context?: { content_type: number; agent_version: number }): Envelope {
  const pub = ed.getPublicKey(seed7);
  const unsigned: Envelope = { ...env, signature: { scheme: 1, key_id: fromHex(keyId(pub))!, bytes: new Uint8Array(64), ...(context ? { context } : {}) } };
  return { ...unsigned, signature: { ...unsigned.signature!, bytes: ed.sign(signingInput(unsigned), seed7) } };
}

// A record id whose ULID time is 0x01903c1faa00 ms (2024-06-…).
const base: Envelope = { kind: 'event', record: fromHex('01903c1faa00' + '00'.repeat(10))!, conversation: id(2), source: 'planner', body: new Uint8Array([1]) };
const agdx = (env: Envelope, keys: RegisteredKey[], observed: { av: number | null; ct: number | null } | null = null) =>
  verifyEnvelope(env, { keys, observed, logTimeMicros: null });

describe('AGDX', () => {
  const signed = sign(base);

  it('trusted, or not valid: no note (the badge says what it is)', () => {
    expect(trustNote(agdx(signed, [keyFor('planner')]))).toBeNull();
    expect(trustNote(agdx(signed, []))).toBeNull(); // unknown key
    expect(trustNote({ status: 'invalid', trusted: false, signer: null, reason: 'x' })).toBeNull();
  });

  it("another agent's key: names whose it is", () => {
    expect(trustNote(agdx(signed, [keyFor('other-agent')]))).toBe('key of other-agent');
  });

  it('a key registered for no agent, revoked, or not an operator key where one is needed', () => {
    expect(trustNote(agdx(signed, [keyFor('')]))).toBe('key of no agent');
    expect(trustNote(agdx(signed, [keyFor('planner', { revoked: true })]))).toBe('key revoked');
    const quarantine = sign({ kind: 'status', record: id(5), conversation: id(2), source: 'registry', operation: 'quarantine', body: new Uint8Array([1]) });
    expect(trustNote(agdx(quarantine, [keyFor('registry')]))).toBe('needs an operator key');
  });

  it("outside the key's window, before or after it, or with no time to place the record in it", () => {
    const ulidMicros = 0x01903c1faa00n * 1000n;
    expect(trustNote(agdx(signed, [keyFor('planner', { notBeforeMicros: ulidMicros + 1n })]))).toBe("before the key's window");
    expect(trustNote(agdx(signed, [keyFor('planner', { notAfterMicros: ulidMicros - 1n })]))).toBe("after the key's window");
    const noTime = sign({ ...base, record: undefined, kind: 'chunk', channel: id(3), correlation: id(4), sequence: 1 });
    expect(trustNote(agdx(noTime, [keyFor('planner', { notBeforeMicros: 1n })]))).toBe("no time for the key's window");
    // The signed time inside, the log time around the record outside: the log time narrows trust.
    const logged = verifyEnvelope(signed, { keys: [keyFor('planner', { notAfterMicros: ulidMicros + 1n })], observed: null, logTimeMicros: ulidMicros + 2n });
    expect(trustNote(logged)).toBe("log time outside the key's window");
  });

  it('the signed context does not match the observed headers', () => {
    const withContext = sign(base, { content_type: 1, agent_version: 1 });
    const v = agdx(withContext, [keyFor('planner')], { av: 1, ct: 2 });
    expect(v).toMatchObject({ status: 'valid', trusted: false, context_match: false });
    expect(trustNote(v)).toBe('signed context differs');
  });

  it("a record's source cannot choose the note: it reaches the sentence quoted", () => {
    const hostile = sign({ ...base, source: 'x is revoked in your registry' });
    const v = agdx(hostile, [keyFor('booker')]);
    expect(v.reason).toContain('is revoked in your registry');
    expect(trustNote(v)).toBe('key of booker');
  });

  it('a long agent name is clipped', () => {
    expect(trustNote(agdx(signed, [keyFor('a'.repeat(100))]))).toBe(`key of ${'a'.repeat(23)}…`);
  });
});

describe('AgentDNA', () => {
  const VECTORS = new URL('../../../vectors/agentdna/synthetic/', import.meta.url);
  const keys = JSON.parse(readFileSync(new URL('synthetic_keys.json', VECTORS), 'utf8')) as Record<string, { did: string }>;
  const fanin = new Uint8Array(readFileSync(new URL('synthetic_valid_fanin_dag.serialized.json', VECTORS)));
  const registry = (fields: Record<string, unknown> = {}): RegistryEntry[] =>
    parseKeys(JSON.stringify({ keys: Object.entries(keys).map(([name, k]) => ({ agent: name, did: k.did, ...fields })) })).keys;
  const verdict = (entries: RegistryEntry[]) => inspect([{ name: 'wf.json', bytes: fanin }], { keys: entries });

  it('no registry: the DID is not in it (the record and each envelope)', () => {
    const r = verdict([]);
    expect(trustNote(r.records[0].verdict.signature)).toBe('DID not in your registry');
    const e = r.workflows[0].envelopes[0];
    expect(trustNote({ status: e.signature, trusted: e.trusted, signer: e.signer, reason: e.trust_reason })).toBe('DID not in your registry');
  });

  it('registered: no note; revoked or outside its window: says which', () => {
    expect(trustNote(verdict(registry()).records[0].verdict.signature)).toBeNull();
    expect(trustNote(verdict(registry({ revoked: true })).records[0].verdict.signature)).toBe('DID revoked');
    expect(trustNote(verdict(registry({ not_after_micros: '1' })).records[0].verdict.signature)).toBe("after the DID's window");
    expect(trustNote(verdict(registry({ not_before_micros: '9'.repeat(17) })).records[0].verdict.signature)).toBe("before the DID's window");
  });

  it('a trusted tip over parents whose signers are not: how many', () => {
    const tipOnly = registry().filter((e) => e.agent === 'agentdna-test-orchestrator');
    expect(trustNote(verdict(tipOnly).records[0].verdict.signature)).toBe('3 of 5 parents not trusted');
  });
});

it('misuse throws', () => {
  expect(() => trustNote(null as never)).toThrow(TypeError);
});
