// The registry: DID entries in key files, and merging that never loosens it silently.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import { toHex } from '../bytes';
import { entryKey, isDidEntry, parseKeys, toKeyFile, type RegistryEntry } from './keys';
import { applyChange, importEntries, mergeRegistry } from './registry';

const DID = 'bafybmieov5ndpfynaz7snkexetcwarcdhewzfaabn2xmb7q6g2t2cfxfvq';
const KEY = 'ea4a6c63e29c520abef5507b132ec5f9954776aebebe7b92421eea691446d22c';
const file = (...entries: object[]) => JSON.stringify({ keys: entries });
const parse = (text: string) => {
  const r = parseKeys(text);
  expect(r.problems).toEqual([]);
  return r.keys;
};

describe('DID entries', () => {
  it('a key file carries DID entries next to key entries, and writes them back', () => {
    const keys = parse(
      file(
        { agent: 'worker', did: DID, kind: 'agent', not_before_micros: 5, not_after_micros: '9', revoked: true },
        { agent: 'source-agent', public_key: KEY },
      ),
    );
    expect(keys).toHaveLength(2);
    expect(keys[0]).toEqual({ did: DID, agent: 'worker', kind: 'agent', notBeforeMicros: 5n, notAfterMicros: 9n, revoked: true });
    expect(isDidEntry(keys[1])).toBe(false);
    const back = JSON.parse(toKeyFile(keys)).keys;
    expect(back[0]).toEqual({ agent: 'worker', did: DID, kind: 'agent', not_before_micros: 5, not_after_micros: 9, revoked: true });
    expect(back[1]).toMatchObject({ agent: 'source-agent', public_key: KEY });
    expect(parse(toKeyFile(keys))).toEqual(keys);
  });

  it('a pasted DID is a DID entry for the agent given', () => {
    const r = parseKeys(`${DID}\ndid:example:older-account`, { agent: 'worker' });
    expect(r.problems).toEqual([]);
    expect(r.keys.map((k) => [isDidEntry(k) && k.did, k.agent])).toEqual([
      [DID, 'worker'],
      ['did:example:older-account', 'worker'],
    ]);
  });

  it('bad DID entries are problems, not exceptions', () => {
    expect(parseKeys(file({ did: '' })).problems[0]).toContain('non-empty');
    expect(parseKeys(file({ did: 7 })).problems[0]).toContain('non-empty');
    expect(parseKeys(file({ did: 'a\u202eb' })).problems[0]).toContain('control');
    expect(parseKeys(file({ did: 'x'.repeat(600) })).problems[0]).toContain('600 characters');
    expect(parseKeys(file({ did: DID, public_key: KEY })).problems[0]).toContain('either public_key or did');
    expect(parseKeys(file({ did: DID, kind: 'boss' })).problems[0]).toContain('kind');
  });

  it('says which kinds the input stated', () => {
    const r = parseKeys(file({ agent: 'worker', did: DID, kind: 'operator' }, { agent: 'worker', did: `${DID.slice(0, -1)}a` }), { kind: 'agent' });
    expect(r.statedKinds).toEqual(['operator', null]);
  });
});

describe('mergeRegistry', () => {
  const did = (fields: Partial<RegistryEntry> = {}): RegistryEntry =>
    ({ did: DID, agent: 'worker', kind: 'agent', notBeforeMicros: 100n, notAfterMicros: 200n, revoked: false, ...fields }) as RegistryEntry;

  it('re-importing never un-revokes or widens a window, and reports each change', () => {
    const existing = [did({ revoked: true })];
    const r = mergeRegistry(existing, [did({ revoked: false, notBeforeMicros: 50n, notAfterMicros: null })], 'from keys.json');
    expect(r.registry).toEqual(existing);
    expect(r.added).toEqual([]);
    expect(r.changes).toEqual([
      {
        entry: `did:${DID}`,
        label: 'DID bafybmieov5n…cfxfvq (worker)',
        set: { revoked: false, notBeforeMicros: 50n, notAfterMicros: null },
        description: 'un-revoke it; window opens: 50 µs; window closes: unbounded (from keys.json)',
        applied: false,
      },
    ]);
    // Accepting applies it.
    expect(applyChange(r.registry, r.changes[0])).toEqual([did({ revoked: false, notBeforeMicros: 50n, notAfterMicros: null })]);
  });

  it('keeps revocations and the narrower window from the incoming side too, and says so', () => {
    const r = mergeRegistry([did()], [did({ revoked: true, notBeforeMicros: 150n, notAfterMicros: 300n, kind: 'operator' })]);
    expect(r.registry).toEqual([did({ revoked: true, notBeforeMicros: 150n })]);
    expect(r.changes.map((c) => [c.applied, c.set])).toEqual([
      [true, { revoked: true, notBeforeMicros: 150n }],
      [false, { kind: 'operator', notAfterMicros: 300n }],
    ]);
  });

  it('an unbounded side of the incoming window is a widening; a bounded one on an unbounded side narrows', () => {
    const r = mergeRegistry([did({ notBeforeMicros: 100n, notAfterMicros: null })], [did({ notBeforeMicros: null, notAfterMicros: 500n })]);
    expect(r.registry).toEqual([did({ notBeforeMicros: 100n, notAfterMicros: 500n })]);
    expect(r.changes.map((c) => [c.applied, c.set])).toEqual([
      [true, { notAfterMicros: 500n }],
      [false, { notBeforeMicros: null }],
    ]);
  });

  it('a DID entry renamed is a change to accept; an identical entry changes nothing; a new one is added', () => {
    const other: RegistryEntry = { ...did(), did: 'did:example:other' } as RegistryEntry;
    const r = mergeRegistry([did()], [did(), did({ agent: 'bank' }), other]);
    expect(r.registry).toEqual([did(), other]);
    expect(r.added).toEqual([other]);
    expect(r.changes.map((c) => [c.applied, c.set])).toEqual([[false, { agent: 'bank' }]]);
  });

  it('a file cannot loosen itself: an entry repeated in one file merges the same way', () => {
    const keys = parse(file({ agent: 'planner', public_key: KEY, revoked: true }, { agent: 'planner', public_key: KEY, revoked: false }));
    const r = mergeRegistry([], keys);
    expect(r.registry).toHaveLength(1);
    expect(r.registry[0].revoked).toBe(true);
    expect(r.changes.map((c) => [c.applied, c.set])).toEqual([[false, { revoked: false }]]);
  });

  it('one key may be registered for two agents: two entries', () => {
    const keys = parse(file({ agent: 'a', public_key: KEY }, { agent: 'b', public_key: KEY }));
    expect(mergeRegistry([], keys).registry.map(entryKey)).toEqual(['key:fe812c12f3ab4ce6:a', 'key:fe812c12f3ab4ce6:b']);
  });

  it('misuse throws a TypeError', () => {
    expect(() => mergeRegistry(null as unknown as RegistryEntry[], [])).toThrow(TypeError);
  });
});

describe('importEntries: the Keys dialog kind', () => {
  it('an entry with no kind takes the dialog kind', () => {
    const parsed = parseKeys(DID, { agent: 'ops' });
    expect(importEntries([], parsed, 'operator').registry[0].kind).toBe('operator');
    expect(importEntries([], parsed, 'agent').registry[0].kind).toBe('agent');
  });

  it('a file kind that differs from the dialog is added as agent, and the operator kind waits to be accepted', () => {
    for (const [stated, dialog] of [
      ['operator', 'agent'],
      ['agent', 'operator'],
    ] as const) {
      const parsed = parseKeys(file({ agent: 'ops', did: DID, kind: stated }));
      const r = importEntries([], parsed, dialog);
      expect(
        r.registry.map((e) => e.kind),
        `${stated}/${dialog}`,
      ).toEqual(['agent']);
      expect(
        r.changes.map((c) => [c.applied, c.set]),
        `${stated}/${dialog}`,
      ).toEqual([[false, { kind: 'operator' }]]);
      expect(r.changes[0].description).toContain(stated === 'operator' ? 'the file says operator' : 'the dialog chose operator');
      expect(applyChange(r.registry, r.changes[0])[0].kind).toBe('operator');
    }
  });

  it('the same kind in file and dialog: no change to accept', () => {
    const r = importEntries([], parseKeys(file({ agent: 'ops', did: DID, kind: 'operator' })), 'operator');
    expect(r.registry[0].kind).toBe('operator');
    expect(r.changes).toEqual([]);
  });

  it('re-importing an operator entry with the dialog on agent makes it stricter and lists the way back', () => {
    const existing = importEntries([], parseKeys(file({ agent: 'ops', did: DID, kind: 'operator' })), 'operator').registry;
    const r = importEntries(existing, parseKeys(file({ agent: 'ops', did: DID, kind: 'operator' })), 'agent');
    expect(r.registry[0].kind).toBe('agent');
    expect(r.changes.map((c) => [c.applied, c.set])).toEqual([
      [true, { kind: 'agent' }],
      [false, { kind: 'operator' }],
    ]);
  });
});

describe('binding a key to a DID the registry already holds is a conflict that waits for Accept', () => {
  // Two secp256k1 keys made on the spot: Mallory's, and another of Alice's.
  const mallory = toHex(secp256k1.getPublicKey(new Uint8Array(32).fill(0x0d), false));
  const second = toHex(secp256k1.getPublicKey(new Uint8Array(32).fill(0x0e), false));
  const alice = parse(file({ agent: 'alice', did: DID }));
  const binding = (key: string, agent = DID) => parse(file({ agent, public_key: key }));

  it('a key file binding another key to a registered DID adds nothing; the change waits, listed as a conflict', () => {
    const r = mergeRegistry(alice, binding(mallory), 'from mallory.json');
    expect(r.registry).toEqual(alice);
    expect(r.added).toEqual([]);
    expect(r.changes).toHaveLength(1);
    const c = r.changes[0];
    expect(c).toMatchObject({ applied: false, set: {}, add: binding(mallory)[0], entry: entryKey(binding(mallory)[0]) });
    expect(c.description).toBe(
      "conflict: binds this key to DID bafybmieov5n…cfxfvq, which your registry already holds as DID bafybmieov5n…cfxfvq (alice); added only if you accept (a key file cannot re-bind a registered DID: accept only if that DID's owner gave you this key) (from mallory.json)",
    );
    // Accepted, the entry is added (once).
    const accepted = applyChange(r.registry, c);
    expect(accepted.map(entryKey)).toEqual([...alice.map(entryKey), entryKey(binding(mallory)[0])]);
    expect(applyChange(accepted, c)).toEqual(accepted);
  });

  it('a second key for a DID bound to a key already is a conflict too; the first binding and an unregistered DID are not', () => {
    const first = mergeRegistry([], binding(second));
    expect(first.changes).toEqual([]);
    expect(first.added).toHaveLength(1);
    const again = mergeRegistry(first.registry, binding(mallory));
    expect(again.registry).toEqual(first.registry);
    expect(again.changes.map((c) => [c.applied, !!c.add])).toEqual([[false, true]]);
    expect(again.changes[0].description).toContain(`already holds as key ${(binding(second)[0] as { id: string }).id} of ${DID};`);
    // The same binding again is the same entry: nothing to accept.
    expect(mergeRegistry(first.registry, binding(second)).changes).toEqual([]);
    // An Ed25519 key of an agent named like the DID is no AgentDNA binding.
    expect(mergeRegistry(alice, parse(file({ agent: DID, public_key: KEY }))).changes).toEqual([]);
  });

  it('within one key file too: a DID entry and another key for it', () => {
    const r = mergeRegistry([], parse(file({ agent: 'alice', did: DID }, { agent: DID, public_key: mallory }, { agent: DID, public_key: mallory })));
    expect(r.registry.map(entryKey)).toEqual([`did:${DID}`]);
    expect(r.changes.map((c) => [c.applied, c.label])).toEqual([[false, `key ${(binding(mallory)[0] as { id: string }).id} of ${DID}`]]);
  });

  it("the Keys dialog's import holds it back the same way", () => {
    const r = importEntries(alice, parseKeys(file({ agent: DID, public_key: mallory })), 'agent');
    expect(r.registry).toEqual(alice);
    expect(r.changes.map((c) => [c.applied, !!c.add])).toEqual([[false, true]]);
  });
});
