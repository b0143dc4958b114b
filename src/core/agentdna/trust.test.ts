// AgentDNA trust: a signature that binds its key to the `from` DID is trusted only when the reader's
// registry backs that DID (a DID entry, or a secp256k1 key entry for it), unrevoked, with the
// envelope's epoch inside the window; re-applied from any registry without parsing again.
import { readFileSync } from 'node:fs';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import { fromHex, toHex, utf8Encode } from '../bytes';
import { inspect } from '../inspect';
import { parseKeys, type RegistryEntry } from '../keys/keys';
import { decideTrust } from '../keys/trust';
import { epochSecondsToMicros } from '../time';
import { signedBytes } from './hash';
import { applyAgentDnaTrust } from './trust';

const VECTORS = new URL('../../../vectors/agentdna/synthetic/', import.meta.url);
const keys = JSON.parse(readFileSync(new URL('synthetic_keys.json', VECTORS), 'utf8')) as Record<
  string,
  { private_key_hex: string; public_key_uncompressed_hex: string; did: string }
>;
const fanin = new Uint8Array(readFileSync(new URL('synthetic_valid_fanin_dag.serialized.json', VECTORS)));
const tampered = new Uint8Array(readFileSync(new URL('synthetic_tampered_intermediate_payload_only.serialized.json', VECTORS)));
const ORCH = keys['agentdna-test-orchestrator'].did;
const EPOCH_FIRST = 1782668300n * 1_000_000n; // the fan-in DAG's earliest epoch (s → µs)
const EPOCH_TIP = 1782668330n * 1_000_000n;

/** A registry with every synthetic signer's DID, named by its key's name. */
function didRegistry(fields: Record<string, unknown> = {}, only?: string): RegistryEntry[] {
  const entries = Object.entries(keys)
    .filter(([name]) => !only || name === only)
    .map(([name, k]) => ({ agent: name.replace('agentdna-test-', ''), did: k.did, ...fields }));
  const r = parseKeys(JSON.stringify({ keys: entries }));
  expect(r.problems).toEqual([]);
  return r.keys;
}

const run = (bytes: Uint8Array, registry: RegistryEntry[]) => inspect([{ name: 'wf.json', bytes }], { keys: registry });

describe('the epoch as a time', () => {
  it('seconds to microseconds, exactly', () => {
    expect(epochSecondsToMicros('1782668330')).toBe(1782668330000000n);
    expect(epochSecondsToMicros('1.5')).toBe(1500000n);
    expect(epochSecondsToMicros('1.1234567')).toBe(1123456n);
    expect(epochSecondsToMicros('17e2')).toBe(1700000000n);
    expect(epochSecondsToMicros('-2')).toBe(-2000000n);
    for (const bad of [null, '"1"', 'null', '1e999', '', 'NaN', '9'.repeat(50)]) expect(epochSecondsToMicros(bad), String(bad)).toBeNull();
  });
});

describe('AgentDNA trust from the registry', () => {
  it('no registry: every envelope is bound to its DID, none trusted, and the record says so', () => {
    const r = run(fanin, []);
    const [{ verdict: record }] = r.records;
    expect(record.signature).toMatchObject({ status: 'valid', trusted: false, signer: ORCH });
    expect(record.signature.reason).toMatch(/^signature valid · key bound to DID · DID not in your registry — tip valid: /);
    const envelopes = r.workflows[0].envelopes;
    expect(envelopes).toHaveLength(6);
    for (const e of envelopes) {
      expect(e).toMatchObject({ signature: 'valid', did_match: true, signer: e.from, trusted: false });
      expect(e.trust_reason).toBe('signature valid · key bound to DID · DID not in your registry');
    }
  });

  it('a read judges trust by its registry as it reads: what applying that registry to a read without one says', async () => {
    const { agentdnaWorkflows } = await import('../../../test/support/generate');
    const generated = utf8Encode(agentdnaWorkflows(12, 4));
    const registries: RegistryEntry[][] = [[], didRegistry(), didRegistry({}, 'agentdna-test-orchestrator')];
    for (const bytes of [fanin, tampered, generated]) {
      const without = run(bytes, []);
      expect(without.workflows.length).toBeGreaterThan(0);
      for (const registry of registries) {
        const r = run(bytes, registry);
        const applied = applyAgentDnaTrust(without.records, without.workflows, registry);
        expect(r.workflows).toEqual(applied.workflows);
        expect(r.records.map((x) => x.verdict)).toEqual(applied.records.map((x) => x.verdict));
      }
    }
    // The registry changed what was said: the fan-in's signers are all registered by didRegistry().
    expect(run(fanin, didRegistry()).records[0].verdict.signature.trusted).toBe(true);
  });

  it('the signer DIDs registered: every envelope and the record are trusted, named by the agent', () => {
    const r = run(fanin, didRegistry());
    expect(r.records[0].verdict.signature).toMatchObject({ status: 'valid', trusted: true, signer: ORCH });
    expect(r.records[0].verdict.signature.reason).toMatch(/^trusted \(orchestrator\): key bound to DID; DID registered for "orchestrator"/);
    expect(r.workflows[0].envelopes.every((e) => e.trusted)).toBe(true);
  });

  it('only the tip signer registered: a chain is as trusted as its least trusted signer, so the record is not, and says which parents', () => {
    const r = run(fanin, didRegistry({}, 'agentdna-test-orchestrator'));
    const envelopes = r.workflows[0].envelopes;
    expect(envelopes.map((e) => [e.from === ORCH, e.trusted])).toEqual(envelopes.map((e) => [e.from === ORCH, e.from === ORCH]));
    const untrusted = envelopes.slice(1).filter((e) => !e.trusted);
    expect(untrusted.length).toBeGreaterThan(0);
    expect(r.records[0].verdict.signature).toMatchObject({ status: 'valid', trusted: false, signer: ORCH });
    expect(r.records[0].verdict.signature.reason).toMatch(
      new RegExp(
        `^not trusted: tip trusted \\(orchestrator\\); ${untrusted.length} of ${envelopes.length - 1} parents signed by a DID not in your registry \\(${untrusted
          .map((e) => e.path.replace(/[[\].]/g, '\\$&'))
          .join(', ')}\\) — tip valid: `,
      ),
    );
  });

  it('every signer registered: trusted, and the reason says the parents are too', () => {
    const r = run(fanin, didRegistry());
    expect(r.records[0].verdict.signature.reason).toMatch(/^trusted \(orchestrator\): .*; the signers of all 5 parents are trusted too — tip valid: /);
  });

  it('a parent whose DID is revoked: the record is not trusted, and names it', () => {
    const worker = keys['agentdna-test-worker-1'].did;
    const registry = didRegistry().map((e) => ('did' in e && e.did === worker ? { ...e, revoked: true } : e));
    const r = run(fanin, registry);
    const revoked = r.workflows[0].envelopes.filter((e) => e.from === worker);
    expect(revoked.length).toBeGreaterThan(0);
    expect(r.records[0].verdict.signature.trusted).toBe(false);
    expect(r.records[0].verdict.signature.reason).toContain(
      `; ${revoked.length} of 5 parents not trusted: DID ${worker.slice(0, 12)}…${worker.slice(-6)} (worker-1) is revoked in your registry (${revoked.map((e) => e.path).join(', ')}) — `,
    );
  });

  it('a revoked DID is not trusted, and says so', () => {
    const r = run(fanin, didRegistry({ revoked: true }));
    expect(r.records[0].verdict.signature).toMatchObject({ status: 'valid', trusted: false });
    expect(r.records[0].verdict.signature.reason).toMatch(
      /^signature valid · key bound to DID · DID bafybmieov5n…cfxfvq \(orchestrator\) is revoked in your registry/,
    );
    expect(r.workflows[0].envelopes.some((e) => e.trusted)).toBe(false);
  });

  it('a window decides by the envelope epoch (seconds × 10^6)', () => {
    const inside = run(fanin, didRegistry({ not_before_micros: String(EPOCH_FIRST), not_after_micros: String(EPOCH_TIP) }));
    expect(inside.records[0].verdict.signature.trusted).toBe(true);
    expect(inside.records[0].verdict.signature.reason).toContain("inside its window at the envelope's epoch");
    const closed = run(fanin, didRegistry({ not_after_micros: String(EPOCH_FIRST - 1n) }));
    expect(closed.records[0].verdict.signature.trusted).toBe(false);
    expect(closed.records[0].verdict.signature.reason).toMatch(/the envelope's epoch \(2026-06-28T\d\d:\d\d:50\.000Z\) is after DID .* window closed/);
    const notYet = run(fanin, didRegistry({ not_before_micros: String(EPOCH_TIP + 1n) }));
    expect(notYet.records[0].verdict.signature.reason).toContain('window opens');
    // Only the tip's epoch is past the window's end: the tip (and so the record) is not trusted, its parents are.
    const tipOut = run(fanin, didRegistry({ not_after_micros: String(EPOCH_TIP - 1n) }));
    expect(tipOut.records[0].verdict.signature.trusted).toBe(false);
    expect(tipOut.workflows[0].envelopes.slice(1).every((e) => e.trusted)).toBe(true);
  });

  it('a validly signed tip over a chain that does not verify is not trusted, even with its DID registered', () => {
    const r = run(tampered, didRegistry());
    expect(r.records[0].verdict.signature).toMatchObject({ status: 'invalid', trusted: false });
    expect(r.records[0].verdict.signature.reason).toMatch(/^not trusted: the chain does not verify/);
    expect(r.workflows[0].envelopes[0].trusted).toBe(true);
  });

  it('re-applies from another registry without parsing again', () => {
    const r = run(fanin, didRegistry());
    expect(r.records[0].verdict.signature.trusted).toBe(true);
    const revoked = applyAgentDnaTrust(r.records, r.workflows, didRegistry({ revoked: true }));
    expect(revoked.records[0].verdict.signature.trusted).toBe(false);
    expect(revoked.workflows[0].envelopes.some((e) => e.trusted)).toBe(false);
    // New verdicts and workflows: what the earlier registry said is left as it was.
    expect(r.records[0].verdict.signature.trusted).toBe(true);
    expect(r.workflows[0].envelopes.every((e) => e.trusted)).toBe(true);
    const none = applyAgentDnaTrust(revoked.records, revoked.workflows, []);
    expect(none.records[0].verdict.signature.reason).toMatch(/DID not in your registry/);
    const again = applyAgentDnaTrust(none.records, none.workflows, didRegistry());
    expect(again.records[0].verdict.signature.trusted).toBe(true);
  });

  it('AGDX keys and entries for other DIDs back nothing here', () => {
    const other = parseKeys(
      JSON.stringify({
        keys: [
          { agent: ORCH, public_key: 'ea4a6c63e29c520abef5507b132ec5f9954776aebebe7b92421eea691446d22c' },
          { agent: 'x', did: 'did:example:x' },
        ],
      }),
    ).keys;
    expect(run(fanin, other).records[0].verdict.signature.trusted).toBe(false);
  });
});

describe('a DID made another way, bound by a key file entry', () => {
  const OTHER = 'did:example:older-account';
  const worker = keys['agentdna-test-worker-1'];
  /** One envelope from OTHER, signed with worker-1's key (whose own DID is not OTHER). */
  function envelope(): Uint8Array {
    const draft = { from: OTHER, payload: 'x', epoch: 1782668300, parent_envelope: null };
    const first = inspect([{ name: 'e.json', bytes: utf8Encode(JSON.stringify(draft)) }]).workflows[0].envelopes[0];
    const sig = toHex(
      secp256k1.sign(signedBytes(first.message!, 'truncate'), fromHex(worker.private_key_hex)!, { prehash: false, lowS: false, format: 'der' }),
    );
    return utf8Encode(JSON.stringify({ ...draft, hash: first.content_hash, signature: sig }));
  }
  const keyEntry = (fields: Record<string, unknown> = {}) =>
    parseKeys(JSON.stringify({ keys: [{ agent: OTHER, public_key: worker.public_key_uncompressed_hex, ...fields }] })).keys;

  it('the key file entry binds the key and registers the DID: valid and trusted', () => {
    const r = run(envelope(), keyEntry());
    expect(r.workflows[0].envelopes[0]).toMatchObject({ signature: 'valid', key_source: 'key-file', signer: OTHER, trusted: true });
    expect(r.records[0].verdict.signature.reason).toMatch(
      /^trusted \(did:example:older-account\): key bound to DID by your key file; registered agent key of did:example:older-account/,
    );
  });

  it('without it, the signature binds to nothing: invalid', () => {
    expect(run(envelope(), []).workflows[0].envelopes[0].signature).toBe('invalid');
  });

  it('revoked, or out of its window: still valid (the key verifies), not trusted', () => {
    const revoked = run(envelope(), keyEntry({ revoked: true }));
    expect(revoked.records[0].verdict.signature).toMatchObject({ status: 'valid', trusted: false });
    expect(revoked.records[0].verdict.signature.reason).toMatch(/key bound to DID by your key file · key [0-9a-f]{16} of did:example:older-account is revoked/);
    const late = run(envelope(), keyEntry({ not_before_micros: String(EPOCH_TIP) }));
    expect(late.records[0].verdict.signature).toMatchObject({ status: 'valid', trusted: false });
  });

  it('a DID entry for it does not back a key its DID does not commit to', () => {
    const registry = [...keyEntry({ revoked: true }), ...parseKeys(JSON.stringify({ keys: [{ agent: 'older', did: OTHER }] })).keys];
    expect(run(envelope(), registry).records[0].verdict.signature.trusted).toBe(false);
  });

  it('a key entry for a DID backs only its own key', () => {
    const otherKey = keys['agentdna-test-worker-2'].public_key_uncompressed_hex;
    const registry = parseKeys(JSON.stringify({ keys: [{ agent: ORCH, public_key: otherKey }] })).keys;
    expect(run(fanin, registry).records[0].verdict.signature.trusted).toBe(false);
    const own = parseKeys(JSON.stringify({ keys: [{ agent: ORCH, public_key: keys['agentdna-test-orchestrator'].public_key_uncompressed_hex }] })).keys;
    // The tip's own key backs the tip; the parents' signers are in no registry, so the record is not trusted.
    expect(run(fanin, own).workflows[0].envelopes[0].trusted).toBe(true);
    expect(run(fanin, own).records[0].verdict.signature.reason).toMatch(/^not trusted: tip trusted \(did:example|^not trusted: tip trusted \(bafy/);
  });
});

describe('one decision for both families', () => {
  const entry = parseKeys(JSON.stringify({ keys: [{ agent: 'w', did: ORCH, not_before_micros: 1 }] })).keys[0];
  it('a windowed entry with no known time is not trusted, and says why', () => {
    const d = decideTrust(entry, { claimed: ORCH, operatorOnly: null, time: null, noTime: 'the envelope has no epoch that is a number' });
    expect(d).toEqual({ trusted: false, reason: expect.stringContaining('the envelope has no epoch that is a number: the window cannot be satisfied') });
  });
  it('an entry for another identity does not back the signature', () => {
    expect(decideTrust(entry, { claimed: 'did:example:x', operatorOnly: null, time: null, noTime: '' }).trusted).toBe(false);
  });
});
