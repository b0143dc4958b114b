// Key files fail closed (report.md "Key files"): every member of every form of entry (a key file's,
// a JWK's, a PEM's or a bare key's sidecar) is typed strictly, and an entry with a member of the
// wrong type, an unknown or repeated member, or no agent is a problem naming the entry and the
// member, and is not used; the other entries are.
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { toBase64, toHex } from '../bytes';
import { isDidEntry, parseKeys, type RegisteredKey } from './keys';

ed.hashes.sha512 = sha512;
const pub = ed.getPublicKey(new Uint8Array(32).fill(7));
const KEY = toHex(pub);
const X = Buffer.from(pub).toString('base64url');
const DID = 'bafybmieov5ndpfynaz7snkexetcwarcdhewzfaabn2xmb7q6g2t2cfxfvq';
const PEM = `-----BEGIN PUBLIC KEY-----\n${toBase64(new Uint8Array([...Buffer.from('302a300506032b6570032100', 'hex'), ...pub]))}\n-----END PUBLIC KEY-----\n`;
const file = (...entries: object[]) => JSON.stringify({ keys: entries });

/** One entry that must be refused: no key, one problem, naming the entry and `member`. */
function refused(text: string, where: string, message: string | RegExp) {
  const r = parseKeys(text);
  expect(r.keys).toEqual([]);
  expect(r.problems).toHaveLength(1);
  expect(r.problems[0].startsWith(`${where}: `), r.problems[0]).toBe(true);
  if (typeof message === 'string') expect(r.problems[0]).toContain(message);
  else expect(r.problems[0]).toMatch(message);
}

describe('revoked is a JSON boolean', () => {
  for (const [value, shown] of [
    ['true', '"true"'],
    [1, '1'],
    [0, '0'],
    [null, 'null'],
    ['yes', '"yes"'],
  ] as const) {
    it(`"revoked": ${shown} is an error naming the entry and the member, and the entry is not used`, () => {
      refused(
        file({ agent: 'planner', public_key: KEY, revoked: value }),
        'key 0 (agent "planner")',
        `member "revoked" must be true or false (a JSON boolean), found ${shown}`,
      );
      refused(
        file({ agent: 'worker', did: DID, revoked: value }),
        'key 0 (agent "worker") (DID)',
        `member "revoked" must be true or false (a JSON boolean), found ${shown}`,
      );
      refused(
        JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: X, agent: 'planner', revoked: value }),
        'key 0 (agent "planner") (JWK)',
        `member "revoked" must be true or false (a JSON boolean), found ${shown}`,
      );
    });
  }

  it('true and false are read as written', () => {
    expect(parseKeys(file({ agent: 'a', public_key: KEY, revoked: true })).keys[0].revoked).toBe(true);
    expect(parseKeys(file({ agent: 'a', public_key: KEY, revoked: false })).keys[0].revoked).toBe(false);
    expect(parseKeys(file({ agent: 'a', public_key: KEY })).keys[0].revoked).toBe(false);
  });
});

describe('windows are integers of epoch microseconds, or decimal strings of them', () => {
  it('integers, decimal strings and 0 (unbounded) are read exactly, beyond 2^53 too', () => {
    const r = parseKeys(
      `{"keys":[{"agent":"a","public_key":"${KEY}","not_before_micros":5,"not_after_micros":"18446744073709551615"},{"agent":"b","public_key":"${KEY}","not_before_micros":0,"not_after_micros":9007199254740993}]}`,
    );
    expect(r.problems).toEqual([]);
    expect(r.keys.map((k) => [k.notBeforeMicros, k.notAfterMicros])).toEqual([
      [5n, 18446744073709551615n],
      [null, 9007199254740993n],
    ]);
  });

  for (const [text, shown] of [
    ['1.5', '1.5'],
    ['1e3', '1e3'],
    ['-1', '-1'],
    ['"1e3"', '"1e3"'],
    ['" 1"', '" 1"'],
    ['""', '""'],
    ['null', 'null'],
    ['true', 'true'],
    ['[1]', '[1]'],
  ]) {
    it(`not_after_micros ${text} is an error naming it`, () => {
      refused(
        `{"keys":[{"agent":"planner","public_key":"${KEY}","not_after_micros":${text}}]}`,
        'key 0 (agent "planner")',
        `member "not_after_micros" must be a non-negative integer of epoch microseconds (or a decimal string of one), found ${shown}`,
      );
    });
  }

  it('a window that closes before it opens is an error', () => {
    refused(
      file({ agent: 'a', public_key: KEY, not_before_micros: 10, not_after_micros: 5 }),
      'key 0 (agent "a")',
      'closes (not_after_micros 5) before it opens',
    );
  });
});

describe('kind, agent and the members an entry may have', () => {
  it('kind is one of the two words', () => {
    refused(file({ agent: 'a', public_key: KEY, kind: 'admin' }), 'key 0 (agent "a")', 'member "kind" must be "agent" or "operator", found "admin"');
    refused(file({ agent: 'a', public_key: KEY, kind: 1 }), 'key 0 (agent "a")', 'found 1');
    refused(file({ agent: 'a', did: DID, kind: 'Operator' }), 'key 0 (agent "a") (DID)', 'found "Operator"');
  });

  it('agent is a string', () => {
    refused(file({ agent: 7, public_key: KEY }), 'key 0', 'member "agent" must be a string, found 7');
    refused(file({ agent: ['a'], did: DID }), 'key 0 (DID)', 'member "agent" must be a string, found ["a"]');
  });

  it('an entry without an agent is refused, saying where (an empty one too)', () => {
    for (const [entry, where] of [
      [{ public_key: KEY }, 'key 0'],
      [{ agent: '', public_key: KEY }, 'key 0 (agent "")'],
      [{ did: DID }, 'key 0 (DID)'],
      [{ public_key: KEY, kind: 'operator' }, 'key 0'],
    ] as const)
      refused(file(entry), where, /: no agent: every entry names the agent it belongs to .*; an entry without one is not used$/);
    const r = parseKeys(file({ agent: 'planner', public_key: KEY }, { public_key: KEY }));
    expect(r.keys.map((k) => k.agent)).toEqual(['planner']);
    expect(r.problems).toEqual([expect.stringMatching(/^key 1: no agent: every entry names the agent it belongs to/)]);
    // A bare key or a PEM with no agent given: refused too; with the Keys dialog's agent, read.
    expect(parseKeys(KEY).problems).toEqual([expect.stringContaining('no agent')]);
    expect(parseKeys(PEM).problems).toEqual([expect.stringMatching(/^PEM: no agent/)]);
    expect(parseKeys(PEM, { agent: 'planner' }).keys.map((k) => k.agent)).toEqual(['planner']);
  });

  it('an unknown member, or one given twice, is an error (a misspelt "revokd" never leaves a key trusted)', () => {
    refused(file({ agent: 'a', public_key: KEY, revokd: true }), 'key 0 (agent "a")', 'member "revokd" is not one an entry of this kind has');
    refused(`{"keys":[{"agent":"a","public_key":"${KEY}","revoked":true,"revoked":false}]}`, 'key 0 (agent "a")', 'member "revoked" is given twice');
    refused(`{"keys":[{"agent":"a","did":"${DID}","revoked":true,"revoked":false}]}`, 'key 0 (agent "a") (DID)', 'member "revoked" is given twice');
    expect(parseKeys(`{"keys":[{"agent":"a","public_key":"${KEY}"}],"keys":[]}`)).toMatchObject({ keys: [], problems: ['member "keys" is given twice'] });
  });

  it('public_key and did are strings', () => {
    refused(file({ agent: 'a', public_key: 7 }), 'key 0 (agent "a")', 'member "public_key" must be a string of hex or base64, found 7');
    refused(file({ agent: 'a', did: 7 }), 'key 0 (agent "a") (DID)', 'member "did" must be a non-empty string');
  });

  it('the other entries of the file are read', () => {
    const r = parseKeys(file({ agent: 'bad', public_key: KEY, revoked: 'true' }, { agent: 'good', public_key: KEY, revoked: true }, { agent: 'w', did: DID }));
    expect(r.keys.map((k) => [k.agent, k.revoked, isDidEntry(k)])).toEqual([
      ['good', true, false],
      ['w', false, true],
    ]);
    expect(r.problems).toHaveLength(1);
  });
});

describe('JWK entries carry the same members, and keep their windows', () => {
  const jwk = (extra: object) => ({ kty: 'OKP', crv: 'Ed25519', x: X, agent: 'planner', ...extra });

  it('a JWK with the window [1, 2] keeps it (it trusts nothing today), alone and in a JWKS', () => {
    for (const text of [
      JSON.stringify(jwk({ not_before_micros: 1, not_after_micros: 2 })),
      JSON.stringify({ keys: [jwk({ not_before_micros: 1, not_after_micros: 2 })] }),
    ]) {
      const r = parseKeys(text);
      expect(r.problems).toEqual([]);
      expect(r.keys[0]).toMatchObject({ agent: 'planner', notBeforeMicros: 1n, notAfterMicros: 2n, revoked: false });
    }
  });

  it('kind, revoked and the window, as a key file entry reads them; JWK members of the wrong type are errors', () => {
    const r = parseKeys(JSON.stringify(jwk({ kind: 'operator', revoked: true, not_after_micros: '99', kid: 'k1', use: 'sig', alg: 'EdDSA' })));
    expect(r.keys[0]).toMatchObject({ kind: 'operator', revoked: true, notBeforeMicros: null, notAfterMicros: 99n } satisfies Partial<RegisteredKey>);
    refused(JSON.stringify(jwk({ kid: 5 })), 'key 0 (agent "planner") (JWK)', 'member "kid" must be a string, found 5');
    refused(JSON.stringify(jwk({ not_before_micros: 1.5 })), 'key 0 (agent "planner") (JWK)', 'member "not_before_micros" must be');
    refused(JSON.stringify(jwk({ trusted: true })), 'key 0 (agent "planner") (JWK)', 'member "trusted" is not one an entry of this kind has');
  });
});

describe('PEM and bare keys take their members from a sidecar', () => {
  const sidecar = (text: string | object) => ({ name: 'ops.pem.json', text: typeof text === 'string' ? text : JSON.stringify(text) });

  it("the sidecar's agent, kind, window and revoked apply to the PEM's key", () => {
    const r = parseKeys(PEM, { sidecar: sidecar({ agent: 'ops', kind: 'operator', not_before_micros: 1, not_after_micros: 2, revoked: false }) });
    expect(r.problems).toEqual([]);
    expect(r.keys[0]).toMatchObject({ agent: 'ops', kind: 'operator', notBeforeMicros: 1n, notAfterMicros: 2n, revoked: false });
    expect(r.statedKinds).toEqual(['operator']);
    expect(parseKeys(KEY, { sidecar: sidecar({ agent: 'planner', revoked: true }) }).keys[0]).toMatchObject({ agent: 'planner', revoked: true });
  });

  it('a sidecar read strictly: a wrong type makes its keys unusable, naming the sidecar and the member', () => {
    for (const [bad, message] of [
      [{ agent: 'ops', revoked: 'true' }, 'member "revoked" must be true or false (a JSON boolean), found "true"'],
      [{ agent: 'ops', not_after_micros: 2.5 }, 'member "not_after_micros" must be'],
      [{ agent: 'ops', public_key: KEY }, 'member "public_key" is not one an entry of this kind has'],
      ['[1]', 'not a JSON object of entry members'],
      ['{', 'not valid JSON'],
    ] as const) {
      const r = parseKeys(PEM, { sidecar: sidecar(bad) });
      expect(r.keys).toEqual([]);
      expect(r.problems).toEqual([expect.stringMatching(/^sidecar ops\.pem\.json: /)]);
      expect(r.problems[0]).toContain(message);
      expect(r.problems[0]).toContain('the keys it describes are not used');
    }
    // A sidecar without an agent: the PEM's key has none, and is refused.
    expect(parseKeys(PEM, { sidecar: sidecar({ kind: 'agent' }) }).problems).toEqual([expect.stringMatching(/^PEM: no agent/)]);
  });

  it('a key file names its own members: a sidecar beside one is a problem, and the file is not read', () => {
    const r = parseKeys(file({ agent: 'a', public_key: KEY }), { sidecar: sidecar({ agent: 'b' }) });
    expect(r.keys).toEqual([]);
    expect(r.problems).toEqual(["sidecar ops.pem.json: a key file names its entries' members itself; its sidecar is not read"]);
  });
});
