// A Rubix DID is a commitment to a public key (agentdna.md, "The DID binds the key"): the node
// writes pubKey.pem (PEM type PUBLIC KEY around the raw 65-byte point, as Go's pem.EncodeToMemory
// writes it) into a directory and adds it to IPFS with CIDv1 and sha3-256. Re-deriving the DID from
// a recovered key proves the key belongs to the DID offline.
import * as dagPb from '@ipld/dag-pb';
import { sha256 } from '@noble/hashes/sha2.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { base32 } from 'multiformats/bases/base32';
import { CID } from 'multiformats/cid';
import * as Digest from 'multiformats/hashes/digest';
import { toBase64, utf8Encode } from '../bytes';
import { uncompressedKey } from './ecdsa';

const RAW = 0x55;
const DAG_PB = 0x70;
const SHA3_256 = 0x16;
const SHA2_256 = 0x12;

/** pubKey.pem as the Rubix node writes it: base64 of the raw point in 64-character lines, trailing newline. */
export function pubKeyPem(publicKey65: Uint8Array): string {
  const b64 = toBase64(publicKey65);
  let body = '';
  for (let i = 0; i < b64.length; i += 64) body += b64.slice(i, i + 64) + '\n';
  return `-----BEGIN PUBLIC KEY-----\n${body}-----END PUBLIC KEY-----\n`;
}

/** CIDv1 (raw, sha3-256) of the PEM file: the directory's one leaf. */
export function pemLeafCid(pem: Uint8Array): CID {
  return CID.create(1, RAW, Digest.create(SHA3_256, sha3_256(pem)));
}

/** The dag-pb directory node holding pubKey.pem (Data 08 01 = UnixFS directory). */
export function didDirectoryNode(pem: Uint8Array): Uint8Array {
  return dagPb.encode(
    dagPb.prepare({
      Data: Uint8Array.of(0x08, 0x01),
      Links: [{ Hash: pemLeafCid(pem), Name: 'pubKey.pem', Tsize: pem.length }],
    }),
  );
}

export interface DidDerivation {
  /** The 65-byte uncompressed key the DID commits to. */
  publicKey: Uint8Array;
  pem: string;
  leafCid: string;
  did: string;
}

/** Derives the Rubix DID of a 33- or 65-byte secp256k1 key; null when it is not a curve point. */
export function deriveDid(publicKey: Uint8Array): DidDerivation | null {
  const point = uncompressedKey(publicKey);
  if (point === null) return null;
  const pem = pubKeyPem(point);
  const pemBytes = utf8Encode(pem);
  const node = didDirectoryNode(pemBytes);
  const did = CID.create(1, DAG_PB, Digest.create(SHA3_256, sha3_256(node))).toString(); // base32lower, 'b' prefix
  return { publicKey: point, pem, leafCid: pemLeafCid(pemBytes).toString(), did };
}

/** dag-pb directory nodes with a zero leaf digest, by PEM length, and where the digest goes. */
const directoryTemplates = new Map<number, { node: Uint8Array; digestAt: number }>();
const DID_CID_PREFIX = Uint8Array.of(0x01, DAG_PB, SHA3_256, 0x20);

/**
 * deriveDid(key).did for a 65-byte uncompressed key already known to be a curve point (a key
 * recovered from a signature): the same bytes hashed, without checking the point again or building
 * the CIDs as objects (a key recovery derives a DID per candidate). A test holds it to deriveDid.
 */
export function didOfPoint(publicKey65: Uint8Array): string {
  if (publicKey65.length !== 65 || publicKey65[0] !== 0x04) throw new TypeError('didOfPoint: a 65-byte uncompressed point is required');
  const pem = utf8Encode(pubKeyPem(publicKey65));
  let t = directoryTemplates.get(pem.length);
  if (t === undefined) {
    // The node for a PEM of this length, its leaf digest found and zeroed (dag-pb writes the
    // digest bytes as they are, after a header that depends only on the lengths).
    const node = didDirectoryNode(pem);
    const digest = sha3_256(pem);
    const digestAt = node.findIndex((_, i) => digest.every((b, j) => node[i + j] === b));
    node.fill(0, digestAt, digestAt + 32);
    t = { node, digestAt };
    directoryTemplates.set(pem.length, t);
  }
  const node = t.node.slice();
  node.set(sha3_256(pem), t.digestAt);
  const cid = new Uint8Array(36);
  cid.set(DID_CID_PREFIX);
  cid.set(sha3_256(node), 4);
  return base32.encode(cid);
}

export function didOf(publicKey: Uint8Array): string | null {
  return deriveDid(publicKey)?.did ?? null;
}

export { looksLikeRubixDid } from '../keys/did-shape';

/** A provenance card id: CIDv0 (`Qm…`) of sha256 of the string (user card of a DID, agent card of a DID, …). */
export function cardIdOf(text: string): string {
  return CID.createV0(Digest.create(SHA2_256, sha256(utf8Encode(text)))).toString();
}
