// The verdict in words (verdict.ts): one story per record. Over records read by the real importers
// (the contradictions of issue 26, each crafted as an attacker would), every wording agrees with the
// verdict it comes from; and the words themselves, status by status.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspect } from './inspect';
import { parseKeys } from './keys/keys';
import { trustNote } from './keys/trust-note';
import { SIGNATURE_STATUS_LIST, type SignatureVerdict, unsignedVerdict } from './model';
import { buildReport } from './report';
import {
  envelopeWords,
  isValid,
  recordHeadline,
  registryNames,
  signatureStory,
  signatureWords,
  VERDICT_CLASSES,
  type VerdictFacts,
  verdictBadges,
  verdictClass,
} from './verdict';

const root = resolve(__dirname, '../..');
const vector = (p: string) => new Uint8Array(readFileSync(resolve(root, 'vectors', p)));
const keyFile = readFileSync(resolve(root, 'vectors/agdx/made/keys.json'), 'utf8');
const keys = () => parseKeys(keyFile).keys;

/** signed_command.bin with one byte of its body changed: the signature no longer holds. */
function tamperedCommand(): Uint8Array {
  const bytes = vector('agdx/made/signed_command.bin');
  const span = inspect([{ name: 'signed_command.bin', bytes }]).records[0].data.bodySpan!;
  const out = bytes.slice();
  out[span[0]] ^= 0x01;
  return out;
}

const facts = (patch: Partial<VerdictFacts> = {}): VerdictFacts => ({
  decoded: true,
  errorCode: null,
  valid: true,
  errors: 0,
  warnings: 0,
  signature: 'valid',
  trusted: true,
  trustNote: null,
  ...patch,
});

/** A record's facts as the page's summary has them (worker/summarize.ts). */
function factsOf(r: ReturnType<typeof buildReport>['records'][number]): VerdictFacts {
  return {
    decoded: r.decoded,
    errorCode: r.error?.code ?? null,
    valid: r.valid,
    errors: r.findings.filter((f) => f.severity === 'error').length,
    warnings: r.findings.filter((f) => f.severity === 'warning').length,
    signature: r.signature.status,
    trusted: r.signature.trusted,
    trustNote: trustNote(r.signature),
  };
}

const greens = (f: VerdictFacts) => {
  const b = verdictBadges(f);
  return [b.decoded, b.valid, b.warnings, b.signature, recordHeadline(f)].filter((x) => x?.tone === 'good');
};

describe('the contradictions of issue 26, each from a crafted input', () => {
  it('a tampered AGDX record with its key registered: no signer is claimed, the headline and every badge say it does not hold', () => {
    const report = buildReport(inspect([{ name: 'tampered.bin', bytes: tamperedCommand() }], { keys: keys() }));
    const r = report.records[0];
    expect(r.signature.status).toBe('invalid');
    expect(r.signature.reason).toMatch(/does not verify under the registered key fe812c12f3ab4ce6/);
    const story = signatureStory(r.signature);
    // It said "Signer: no registered key matched" right under "does not verify under the registered key".
    expect(story.signer).toBe('not established: the signature does not verify under key fe812c12f3ab4ce6');
    expect(story.signer).not.toMatch(/no registered key/);
    expect(story.trust).toBe('no: the signature does not hold');
    // "Valid" is the matrix's (the fields are fine), but nothing of the record is green.
    expect(r.valid).toBe(true);
    const f = factsOf(r);
    expect(verdictBadges(f).valid).toMatchObject({ label: 'Valid', tone: 'none' });
    expect(greens(f)).toEqual([]);
    expect(recordHeadline(f)).toMatchObject({ class: 'bad-signature', tone: 'bad', label: 'Signature invalid' });
  });

  it('a tampered AgentDNA envelope: the signature does not hold because the content changed, and no "DID mismatch" blames its from', () => {
    const report = buildReport(inspect([{ name: 'w.json', bytes: vector('agentdna/synthetic/synthetic_tampered_tip_payload.serialized.json') }]));
    const r = report.records[0];
    const tip = (report.workflows[0] as { envelopes: import('./agentdna/model').EnvelopeReport[] }).envelopes[0];
    expect(tip.signature).toBe('invalid');
    expect(tip.claimed_hash_signature).toBe('valid');
    // It said "the signature holds over the stored hash" beside "signature invalid".
    const messages = r.findings.map((x) => x.message).join('\n');
    expect(messages).not.toMatch(/signature holds/);
    expect(r.findings.find((x) => x.rule === 'agentdna/hash')!.message).toMatch(/the content was changed after signing/);
    expect(r.findings.find((x) => x.rule === 'agentdna/signature')!.message).toMatch(/signature invalid: the content was changed after signing/);
    expect(tip.signature_reason).not.toMatch(/older account types/);
    const w = envelopeWords({
      hashOk: tip.hash_ok,
      signature: tip.signature,
      didMatch: tip.did_match,
      trusted: tip.trusted,
      claimedHashSignature: tip.claimed_hash_signature,
    });
    expect(w.binding).toBeNull();
    expect(w.signature).toMatchObject({ tone: 'bad', label: 'Signature invalid: content changed' });
    expect(Object.values(w).map((t) => t?.label)).not.toContain('DID mismatch');
    expect(recordHeadline(factsOf(r))).toMatchObject({ class: 'bad-signature', label: 'Signature invalid' });
  });

  it('a malformed AgentDNA signature is no "DID mismatch" either', () => {
    const w = envelopeWords({ hashOk: true, signature: 'malformed', didMatch: false, trusted: false });
    expect(w.binding).toBeNull();
    expect(w.signature.label).toBe('Signature malformed');
  });

  it('a relabelled codec: valid, not trusted, and the story says the context does not match', () => {
    const report = buildReport(inspect([{ name: 'r.json', bytes: vector('agdx/made/signed_context_mismatch_http_v07.json') }], { keys: keys() }));
    const r = report.records[0];
    expect(r.signature).toMatchObject({ status: 'valid', trusted: false, context_match: false });
    const story = signatureStory(r.signature, { note: trustNote(r.signature) });
    expect(story.label).toBe('Signature valid, not trusted: signed context differs');
    expect(story.context).toMatch(/^MISMATCH/);
    expect(story.trust).toBe('no: signed context differs');
    expect(greens(factsOf(r)).map((g) => g?.label)).not.toContain('Signature valid, trusted');
    // And it is a finding: a rule id, a span, a filter and an exit status (it had none).
    const f = r.findings.find((x) => x.rule === 'agdx/signature/context')!;
    // A JSON export's headers are outside the payload its spans index: no span (a header block's have one).
    expect(f).toMatchObject({ severity: 'error', path: 'headers.agdx.ct', span: null });
    expect(f.message).toMatch(/^agdx\.ct says 1 \(json\), but the signature covers content_type 3 \(cbor\)/);
    expect(r.valid).toBe(false);
    // The same without any registry: a fact of the bytes.
    const bare = buildReport(inspect([{ name: 'r.json', bytes: vector('agdx/made/signed_context_mismatch_http_v07.json') }])).records[0];
    expect(bare.signature.status).toBe('unknown_key');
    expect(bare.findings.map((x) => x.rule)).toContain('agdx/signature/context');
  });
});

describe('signatureWords', () => {
  it('only a trusted valid signature is green; not trusted has its own tone and says why', () => {
    expect(signatureWords({ status: 'valid', trusted: true })).toMatchObject({ tone: 'good', label: 'Signature valid, trusted', words: 'valid, trusted' });
    expect(signatureWords({ status: 'valid', trusted: false, note: 'key of other-agent' })).toMatchObject({
      tone: 'untrusted',
      label: 'Signature valid, not trusted: key of other-agent',
      words: 'valid, not trusted',
      short: 'not trusted: key of other-agent',
    });
    for (const status of SIGNATURE_STATUS_LIST.filter((s) => s !== 'valid')) {
      const w = signatureWords({ status, trusted: true });
      expect(w.tone, status).not.toBe('good');
      expect(w.tone, status).not.toBe('untrusted');
      expect(w.words).toBe(status.replace('_', ' '));
    }
    expect(signatureWords({ status: 'invalid', trusted: false }).holds).toBe(false);
    expect(signatureWords({ status: 'malformed', trusted: false }).holds).toBe(false);
    expect(() => signatureWords({ status: 'forged' as never, trusted: false })).toThrow(TypeError);
  });
});

describe('recordHeadline and verdictBadges', () => {
  it('the headline is the worst verdict, in VERDICT_CLASSES order', () => {
    expect(verdictClass(facts({ decoded: false, valid: false, signature: 'invalid' }))).toBe('undecoded');
    expect(verdictClass(facts({ valid: false, errors: 2, signature: 'malformed' }))).toBe('bad-signature');
    expect(verdictClass(facts({ valid: false, errors: 2, signature: 'unknown_key' }))).toBe('invalid');
    expect(verdictClass(facts({ signature: 'unknown_key', warnings: 3 }))).toBe('unknown-key');
    expect(verdictClass(facts({ trusted: false, warnings: 3 }))).toBe('untrusted');
    expect(verdictClass(facts({ signature: 'unsigned', warnings: 1 }))).toBe('warnings');
    expect(verdictClass(facts({ signature: 'unsupported' }))).toBe('unsigned');
    expect(verdictClass(facts())).toBe('trusted');
    expect(VERDICT_CLASSES).toHaveLength(8);
    expect(recordHeadline(facts({ valid: false, errors: 2, signature: 'unsigned' }))).toMatchObject({ tone: 'bad', label: 'Invalid: 2 errors' });
    expect(recordHeadline(facts({ signature: 'unsigned', warnings: 1 }))).toMatchObject({ tone: 'warn', label: '1 warning' });
    expect(recordHeadline(facts())).toMatchObject({ tone: 'good', label: 'Valid and trusted' });
  });

  it('no badge is green while the signature does not hold; Valid still says the fields follow the rules', () => {
    for (const signature of ['invalid', 'malformed'] as const) {
      const f = facts({ signature, trusted: false });
      expect(greens(f)).toEqual([]);
      expect(verdictBadges(f).valid!.title).toMatch(/^Valid: yes, the fields follow the rules/);
      expect(verdictBadges(f).valid!.title).toMatch(/, but (signature invalid|malformed signature)$/);
    }
    const ok = verdictBadges(facts({ signature: 'unsigned' }));
    expect(ok.decoded.tone).toBe('good');
    expect(ok.valid!.tone).toBe('good');
    expect(verdictBadges(facts({ decoded: false, valid: false, errorCode: 'cbor/truncated' })).valid).toBeNull();
  });
});

describe('signatureStory', () => {
  const verdict = (patch: Partial<SignatureVerdict>): SignatureVerdict => ({ ...unsignedVerdict('x'), ...patch });

  it('a valid signature names its signer, a registered DID by its name; a bad one never names one', () => {
    const did = 'bafybmieov5ndpfynaz7snkexetcwarcdhewzfaabn2xmb7q6g2t2cfxfvq';
    const names = registryNames(parseKeys(JSON.stringify({ keys: [{ agent: 'orchestrator', did }] })).keys);
    expect(names(did)).toBe('orchestrator');
    expect(names('someone-else')).toBeNull();
    expect(signatureStory(verdict({ status: 'valid', scheme: 'ecdsa-secp256k1', signer: did, reason: 'r' }), { name: names }).signer).toBe(
      `orchestrator (${did})`,
    );
    expect(signatureStory(verdict({ status: 'valid', scheme: 'ed25519', key_id: 'ab', signer: 'planner', reason: 'r' })).signer).toBe('planner (key ab)');
    for (const status of ['invalid', 'malformed', 'unknown_key', 'unsupported', 'unsigned'] as const) {
      const s = signatureStory(verdict({ status, scheme: 'ed25519', key_id: 'ab', signer: 'planner', reason: 'r' }));
      expect(s.signer, status).not.toMatch(/^planner/);
      expect(s.trust, status).toMatch(/^no: /);
    }
  });

  it('coverage and context in words; TypeError without a verdict', () => {
    const s = signatureStory(verdict({ status: 'valid', scheme: 'ed25519', key_id: 'ab', context_match: false, not_covered: ['approved_by'], reason: 'r' }));
    expect(s.coverage).toMatch(/^The signature does not cover: approved_by\. The signature holds for the rest/);
    expect(s.context).toMatch(/^MISMATCH/);
    expect(signatureStory(verdict({})).context).toBeNull();
    expect(() => signatureStory(null as never)).toThrow(TypeError);
  });
});

describe('isValid', () => {
  it('is the matrix: a bad signature leaves it as the findings make it', () => {
    const report = buildReport(inspect([{ name: 'tampered.bin', bytes: tamperedCommand() }], { keys: keys() }));
    expect(isValid({ decoded: true, findings: report.records[0].findings })).toBe(true);
  });
});
