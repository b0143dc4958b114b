// Text cut where registered DIDs stand (NamedText shows them by name); the signer a record's
// signature names for "Trust this signer…"; a window bound's note.
import { describe, expect, it } from 'vitest';
import { unsignedVerdict } from '../../core/model';
import type { RecordDetail } from '../../wire/protocol';
import { splitOn } from './Identity';
import { signerFacts } from './TrustSigner';
import { windowNote } from './WindowInput';

describe('splitOn', () => {
  it('cuts at every occurrence, the longest where two start together, keeping every character', () => {
    const parts = splitOn('from bafyA to bafyAB and bafyA.', ['bafyA', 'bafyAB']);
    expect(parts).toEqual([
      { text: 'from ', did: false, at: 0 },
      { text: 'bafyA', did: true, at: 5 },
      { text: ' to ', did: false, at: 10 },
      { text: 'bafyAB', did: true, at: 14 },
      { text: ' and ', did: false, at: 20 },
      { text: 'bafyA', did: true, at: 25 },
      { text: '.', did: false, at: 30 },
    ]);
    expect(parts.map((p) => p.text).join('')).toBe('from bafyA to bafyAB and bafyA.');
    expect(splitOn('nothing here', ['bafy'])).toEqual([{ text: 'nothing here', did: false, at: 0 }]);
    expect(splitOn('', [])).toEqual([{ text: '', did: false, at: 0 }]);
  });
});

describe('signerFacts', () => {
  const detail = (signature: Partial<RecordDetail['signature']>, summary: Partial<RecordDetail['summary']> = {}, operation?: string) =>
    ({
      signature: { ...unsignedVerdict('r'), ...signature },
      summary: { source: 'planner', kind: 'status', ...summary },
      tree: operation ? [{ path: 'operation', label: 'operation', display: JSON.stringify(operation), type: 'text', span: null, keySpan: null }] : [],
    }) as unknown as RecordDetail;

  it('an unknown key or a valid signature nobody backs: the key id, the agent, the kind its operation needs', () => {
    expect(signerFacts(detail({ status: 'unknown_key', scheme: 'ed25519', key_id: 'fe81' }))).toEqual({
      family: 'agdx',
      identity: 'fe81',
      agent: 'planner',
      kind: 'agent',
    });
    expect(signerFacts(detail({ status: 'valid', scheme: 'ed25519', key_id: 'fe81' }, {}, 'quarantine'))).toMatchObject({ kind: 'operator' });
    expect(signerFacts(detail({ status: 'valid', scheme: 'ecdsa-secp256k1', signer: 'bafyX' }))).toEqual({
      family: 'agentdna',
      identity: 'bafyX',
      agent: '',
      kind: 'agent',
    });
  });

  it('nothing to trust: unsigned, invalid, malformed, unsupported, already trusted, or a relabelled codec', () => {
    for (const status of ['unsigned', 'invalid', 'malformed', 'unsupported'] as const)
      expect(signerFacts(detail({ status, scheme: 'ed25519', key_id: 'fe81' })), status).toBeNull();
    expect(signerFacts(detail({ status: 'valid', trusted: true, scheme: 'ed25519', key_id: 'fe81' }))).toBeNull();
    expect(signerFacts(detail({ status: 'valid', scheme: 'ed25519', key_id: 'fe81', context_match: false }))).toBeNull();
  });
});

describe('windowNote', () => {
  it('a date shows the micros it means; micros show their date; empty is unbounded', () => {
    expect(windowNote('2024-06-01')).toEqual({ micros: 1_717_200_000_000_000n, note: '= 1717200000000000 µs', problem: false });
    expect(windowNote('1717200000000000')).toEqual({
      micros: 1_717_200_000_000_000n,
      note: '1717200000000000 µs = 2024-06-01 00:00:00.000000 UTC',
      problem: false,
    });
    expect(windowNote('')).toEqual({ micros: null, note: 'unbounded', problem: false });
    expect(windowNote('soon')).toMatchObject({ micros: null, problem: true });
  });
});
