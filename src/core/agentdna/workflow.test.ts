// Workflows end to end: the synthetic vectors give exactly AgentDNA's codes in all three modes,
// every traced intermediate string is reproduced, tampering is pinned to the tampered envelope, and
// the upstream fixtures are shown without throwing. (Shapes, cards and old documents: the
// importer's tests, src/core/import/agentdna.test.ts.)
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toHex, utf8Encode } from '../bytes';
import { readJson, type JsonValue } from '../json/lossless';
import { signedBytes } from './hash';
import { agentdnaShape, readAgentDna, type AgentDnaResult } from '../import/agentdna';
import { flat, type FlatRecord } from '../../../test/support/import-helpers';
import type { WorkflowReport } from './model';

const VECTORS = new URL('../../../vectors/agentdna/', import.meta.url);
const bytesOf = (rel: string) => new Uint8Array(readFileSync(new URL(rel, VECTORS)));
const jsonOf = (rel: string) => JSON.parse(readFileSync(new URL(rel, VECTORS), 'utf8'));

function parse(bytes: Uint8Array): JsonValue {
  const r = readJson(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
function read(bytes: Uint8Array, extraKeys?: Map<string, Uint8Array[]>): Omit<AgentDnaResult, 'records'> & { records: FlatRecord[] } {
  const r = readAgentDna(0, bytes, parse(bytes), { extraKeys });
  return { ...r, records: r.records.map((x) => flat(x)) };
}
const rules = (r: FlatRecord) => r.findings.map((f) => f.rule);
const slice = (bytes: Uint8Array, span: [number, number] | null) => (span ? new TextDecoder().decode(bytes.subarray(span[0], span[1])) : null);

const expected = jsonOf('synthetic/synthetic_expected.json') as Record<string, { light: number; heavy: number; boundary: number }>;
const traces = jsonOf('synthetic/synthetic_traces.json') as Record<string, Record<string, string | null>>;
const keys = jsonOf('synthetic/synthetic_keys.json') as Record<string, { private_key_hex: string; did: string }>;
const E_KEY = 'ecdsa_e_hex (leftmost 32 bytes of ascii message)';
const synthetic = (name: string) => bytesOf(`synthetic/synthetic_${name}.serialized.json`);

const HASH = {
  root: '5e6c188d81c650d88310b0d8d549c320bf8e200c4feee89b405f59e9bc1f1978',
  orchW1: '6631438886cad3c5e70345725ef8c4a44d51ee2e865cb4c7f606141425541e64',
  orchW2: '77c21b19c1f2af8e5d7edf5872cb45fa081f573b9f8c8efa247222ccfa935528',
  w1: '3ad5e0bfb6ab4f3b830a756ee689bf52d06536787eea217651af88d78ed650d3',
  w2: '84ff75ac7c856d1c70d527eb8904f04e37033d8fb0d705640d2508663ce4f21d',
  tip: 'c9c4b641dc414a6c184a8635174f9db62d2293a50faf141a9da4560d1bced1e6',
};

function env(w: WorkflowReport, hash: string) {
  const e = w.envelopes.find((x) => x.hash === hash);
  if (!e) throw new Error(`no envelope ${hash}`);
  return e;
}

describe('synthetic workflows: AgentDNA codes in all three modes (synthetic_expected.json)', () => {
  for (const [name, codes] of Object.entries(expected)) {
    it(name, () => {
      const bytes = synthetic(name);
      expect(agentdnaShape(parse(bytes))).toBe('workflow');
      const { records, workflows } = read(bytes);
      expect(records).toHaveLength(1);
      expect(workflows).toHaveLength(1);
      expect(workflows[0].record).toBe(0);
      expect(workflows[0].modes).toEqual(codes);
      expect(records[0].format).toBe('agentdna.workflow');
      expect(records[0].decoded).toBe(true);
      for (const m of ['light', 'heavy', 'boundary'] as const) {
        expect(workflows[0].mode_details[m].notChecked.length).toBeGreaterThan(20);
        expect(workflows[0].mode_details[m].raised).toBe(false);
      }
    });
  }
});

describe('every intermediate string of synthetic_traces.json is reproduced', () => {
  const bytes = synthetic('valid_fanin_dag');
  const { records, workflows } = read(bytes);
  const w = workflows[0];

  it('the fan-in DAG has six distinct envelopes, all hash-ok, validly signed and bound to their DIDs', () => {
    expect(w.envelopes).toHaveLength(6);
    expect(w.tip).toBe(HASH.tip);
    for (const e of w.envelopes) {
      expect(e.hash_ok, e.path).toBe(true);
      expect(e.signature, e.path).toBe('valid');
      expect(e.did_match, e.path).toBe(true);
      expect(e.rule, e.path).toBe('truncate');
    }
    // the root is reached twice (fan-in) but is one envelope
    expect(env(w, HASH.root).paths).toHaveLength(2);
    expect(w.edges).toHaveLength(6);
  });

  for (const [step, t] of Object.entries(traces)) {
    it(step, () => {
      const e = env(w, t.content_hash!);
      expect(e.content_json).toBe(t.content_json);
      expect(e.content_hash).toBe(t.content_hash);
      expect(e.claimed_hash).toBe(t.content_hash);
      expect(e.combined_json).toBe(t.combined_json);
      expect(e.message).toBe(t.signed_message_ascii_hex);
      expect(e.signed_bytes_hex).toBe(t[E_KEY]);
      expect(toHex(signedBytes(e.message!, 'truncate'))).toBe(t[E_KEY]);
      expect(e.signature_hex).toBe(t.signature_der_hex);
      expect(e.from).toBe(t.signer_did);
      const signer = e.recovered.find((k) => k.matches)!;
      expect(signer.public_key).toBe(t.signer_pubkey_uncompressed_hex);
      expect(signer.did).toBe(t.signer_did);
    });
  }

  it('the record: id is the tip hash, source its sender, signature valid and bound but not trusted (no registry); findings only the 4001 warning', () => {
    const r = records[0];
    expect(r.id).toBe(HASH.tip);
    expect(r.source).toBe(traces['orch fan-in'].signer_did);
    expect(r.target).toBe(keys['agentdna-test-user'].did);
    expect(r.signature.scheme).toBe('ecdsa-secp256k1');
    expect(r.signature.status).toBe('valid');
    expect(r.signature.signer).toBe(r.source);
    // A DID that matches its own signature is bound, never trusted: anyone can make a key and its DID.
    expect(r.signature.trusted).toBe(false);
    expect(r.signature.reason).toMatch(/^signature valid · key bound to DID · DID not in your registry/);
    expect(r.valid).toBe(true);
    expect(rules(r)).toEqual(['agentdna/status-code']);
    const f = r.findings[0];
    expect(f.severity).toBe('warning');
    expect(f.message).toMatch(/4001: MCP tool execution failed/);
    expect(slice(bytes, f.span)).toBe('4001');
    expect(r.body?.text).toBe('Orchestrator completed the task');
    expect(slice(bytes, r.body!.span)).toBe('"Orchestrator completed the task"');
  });

  it('the field tree has each envelope as a node whose hint gives its verdict, with spans into the text', () => {
    const r = records[0];
    const envelope = r.tree.find((n) => n.label === 'envelope')!;
    expect(envelope.type).toBe('envelope');
    expect(envelope.hint).toMatch(/hash ✓ · signature valid \(truncation rule, DID bound\)/);
    const parents = envelope.children!.find((n) => n.label === 'parent_envelope')!;
    expect(parents.children).toHaveLength(2);
    expect(parents.children![1].path).toBe('envelope.parent_envelope[1]');
    expect(parents.children![1].hint).toMatch(/status 4001/);
    const hash = envelope.children!.find((n) => n.label === 'hash')!;
    expect(slice(bytes, hash.span)).toBe(`"${HASH.tip}"`);
    expect(slice(bytes, hash.keySpan)).toBe('"hash"');
  });
});

describe('tampering is pinned to the tampered envelope', () => {
  it('tampered tip payload: the tip fails its hash and signature; the signature still holds over the stored hash', () => {
    const bytes = synthetic('tampered_tip_payload');
    const { records, workflows } = read(bytes);
    const tip = env(workflows[0], HASH.tip);
    expect(tip.hash_ok).toBe(false);
    expect(tip.signature).toBe('invalid');
    expect(tip.claimed_hash_signature).toBe('valid');
    for (const e of workflows[0].envelopes.filter((x) => x !== tip)) expect(e.hash_ok && e.signature === 'valid').toBe(true);
    const f = records[0].findings.find((x) => x.rule === 'agentdna/hash')!;
    expect(f.path).toBe('envelope.hash');
    expect(slice(bytes, f.span)).toBe(`"${HASH.tip}"`);
    expect(f.message).toMatch(/changed after signing/);
    expect(records[0].valid).toBe(false);
    expect(records[0].signature.status).toBe('invalid');
    expect(records[0].signature.trusted).toBe(false);
  });

  it('tampered intermediate payload (hash kept): only that envelope fails; light and boundary never look at it', () => {
    const { records, workflows } = read(synthetic('tampered_intermediate_payload_only'));
    const w = workflows[0];
    const bad = env(w, HASH.orchW1);
    expect(bad.hash_ok).toBe(false);
    expect(bad.signature).toBe('invalid');
    expect(bad.paths).toEqual(['envelope.parent_envelope[0].parent_envelope[0]']);
    expect(w.envelopes.filter((e) => !(e.hash_ok && e.signature === 'valid'))).toEqual([bad]);
    expect(w.mode_details.heavy.failedAt).toBe('envelope.parent_envelope[0].parent_envelope[0]');
    expect(w.mode_details.boundary.notChecked).toMatch(/in between/);
    expect(records[0].valid).toBe(false);
    // The tip is validly signed, but the chain is not: the record's answer says so.
    expect(records[0].signature.status).toBe('invalid');
    expect(records[0].signature.reason).toMatch(/not valid elsewhere/);
  });

  it('tampered parent rehashed: the parent hash is right but its signature fails, and so does the tip (its message has the new parent hash)', () => {
    const { workflows } = read(synthetic('tampered_parent_payload_rehashed'));
    const w = workflows[0];
    const parent = w.envelopes.find((e) => e.path === 'envelope.parent_envelope[0]')!;
    expect(parent.hash_ok).toBe(true);
    expect(parent.signature).toBe('invalid');
    const tip = env(w, HASH.tip);
    expect(tip.hash_ok).toBe(true);
    expect(tip.signature).toBe('invalid');
  });

  it('direct parent payload only: that parent fails its hash (light catches it; boundary does not)', () => {
    const { workflows } = read(synthetic('tampered_direct_parent_payload_only'));
    const w = workflows[0];
    expect(env(w, HASH.w2).hash_ok).toBe(false);
    expect(w.mode_details.light.failedAt).toBe('envelope.parent_envelope[1]');
    expect(w.mode_details.boundary.code).toBe(1000);
  });

  it('tip from swapped and rehashed: no recovered key derives the new sender', () => {
    const { records, workflows } = read(synthetic('tip_from_swapped_and_rehashed'));
    const tip = workflows[0].envelopes[0];
    expect(tip.hash_ok).toBe(true);
    expect(tip.signature).toBe('invalid');
    expect(tip.did_match).toBe(false);
    // the message changed with the rehash, so the recovered keys are unrelated to any real signer
    expect(tip.recovered.length).toBeGreaterThan(0);
    expect(tip.recovered.some((k) => k.matches || k.did === tip.from)).toBe(false);
    expect(tip.from).toBe(keys['agentdna-test-user'].did);
    expect(records[0].findings.some((f) => f.rule === 'agentdna/signature' && f.path === 'envelope.signature')).toBe(true);
  });

  it('two different envelopes claiming one hash: agentdna/duplicate-hash, and heavy mode skips the second', () => {
    const text = new TextDecoder().decode(synthetic('valid_fanin_dag'));
    const payload = '"Summarize this document, please \\u2014 caf\\u00e9 \\u2713 \\ud83d\\ude00"';
    const at = text.lastIndexOf(payload);
    const forged = text.slice(0, at) + '"Transfer all funds"' + text.slice(at + payload.length);
    const bytes = utf8Encode(forged);
    const { records, workflows } = read(bytes);
    const w = workflows[0];
    expect(w.modes).toEqual({ light: 1000, heavy: 1000, boundary: 1000 });
    const dups = w.envelopes.filter((e) => e.hash === HASH.root);
    expect(dups).toHaveLength(2);
    expect(dups.every((e) => e.duplicate_hash)).toBe(true);
    expect(dups.filter((e) => e.hash_ok)).toHaveLength(1);
    const f = records[0].findings.filter((x) => x.rule === 'agentdna/duplicate-hash');
    expect(f).toHaveLength(2);
    expect(f.every((x) => x.severity === 'error')).toBe(true);
    expect(records[0].valid).toBe(false);
    expect(w.mode_details.heavy.notChecked).toMatch(/skipped 1 different envelope/);
  });
});

describe('upstream fixtures', () => {
  it('the README example: a legacy workflow, shown and checked, never thrown', () => {
    const bytes = bytesOf('upstream-fixtures/readme_intent_workflow_example.json');
    expect(agentdnaShape(parse(bytes))).toBe('workflow');
    const { records, workflows } = read(bytes);
    const r = records[0];
    expect(r.decoded).toBe(true);
    const legacy = r.findings.find((f) => f.rule === 'agentdna/legacy')!;
    expect(legacy.severity).toBe('warning');
    expect(legacy.message).toMatch(/remarks/);
    expect(slice(bytes, legacy.span)).toBe('"remarks": ""');
    expect(workflows[0].legacy).toBe(true);
    for (const e of workflows[0].envelopes) {
      expect(e.hash_ok).toBe(false);
      expect(e.signature).toBe('malformed');
    }
    expect(workflows[0].modes).toEqual({ light: 2001, heavy: 2002, boundary: 2003 });
    expect(r.body?.rendering).toBe('json');
    expect(r.body?.text).toContain('"status": "completed"');
  });

  it('middleware NewSchema: no hash, to, run_id or id; fake signatures are malformed; defaults enter the hash', () => {
    const bytes = bytesOf('upstream-fixtures/middleware_TestParseIntentWorkflow_NewSchema.json');
    const { records, workflows } = read(bytes);
    const w = workflows[0];
    expect(w.envelopes).toHaveLength(3);
    expect(w.envelopes.map((e) => e.signature)).toEqual(['malformed', 'malformed', 'malformed']);
    expect(w.envelopes[0].content_json).toBe('{"epoch":1720000003,"from_":"agentA","payload":"final reply","run_id":"","status_code":1000,"to":""}');
    expect(w.modes).toEqual({ light: 2001, heavy: 2002, boundary: 2003 });
    expect(records[0].signature.status).toBe('malformed');
    expect(rules(records[0])).toContain('agentdna/hash');
    expect(rules(records[0])).not.toContain('agentdna/legacy');
  });

  it('middleware RawJSONIsVerbatim: unknown keys shown (never hashed), unsigned envelopes, no throw', () => {
    const bytes = bytesOf('upstream-fixtures/middleware_TestEnvelopeRawJSONIsVerbatim.json');
    expect(agentdnaShape(parse(bytes))).toBe('workflow');
    const { records, workflows } = read(bytes);
    const w = workflows[0];
    expect(w.envelopes.map((e) => e.signature)).toEqual(['unsigned', 'unsigned']);
    const unknown = records[0].findings.filter((f) => f.rule === 'agentdna/unknown-field');
    expect(unknown.map((f) => f.path)).toEqual(['envelope.extra', 'envelope.parent_envelope[0].unknown_field']);
    expect(unknown.every((f) => f.severity === 'info')).toBe(true);
    expect(w.envelopes[1].content_json).toBe('{"epoch":1,"from_":"user","payload":"hi","run_id":"","status_code":1000,"to":""}');
    expect(records[0].signature.status).toBe('unsigned');
    expect(records[0].valid).toBe(false);
  });
});
