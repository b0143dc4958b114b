import { it, expect } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { deriveDid } from './did';
import { fromHex, utf8Encode, toHex } from '../bytes';
import { readDerLenient, recoverCandidates, publicKeyOf } from './ecdsa';
it('smoke', () => {
  const d = deriveDid(publicKeyOf(fromHex('9e39682962a56c48b983c07c11e4b3754235e11fe443274b833dbeafd31e650f')!))!;
  console.log(d.did, JSON.stringify(d.pem));
  const der = readDerLenient(fromHex('304402201a656c550f637acf227c4f94d264d9373791bfcacdad5f72818b96f04299849e022003eb085b4d5eecc8df9c651db826ceacb88a48beaf820b23da8fd92bb024afa9')!);
  if (!der.ok) throw new Error(der.reason);
  const e = sha256(utf8Encode('Lorem ipsum dolor sit amet, consectetur adipiscing elit.'));
  for (const c of recoverCandidates(der.r, der.s, e)) console.log(c.recovery, toHex(c.publicKey), deriveDid(c.publicKey)!.did);
  const e2 = utf8Encode('Lorem ipsum dolor sit amet, consectetur adipiscing elit.').slice(0, 32);
  for (const c of recoverCandidates(der.r, der.s, e2)) console.log('trunc', c.recovery, deriveDid(c.publicKey)!.did);
  expect(1).toBe(1);
});
