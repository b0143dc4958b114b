// The form of a Rubix DID, apart from did.ts so the key registry (in the page) can recognise a pasted
// DID without loading the CID and hash code that derives one.

/** Whether text has the form of a Rubix DID (CIDv1 dag-pb sha3-256, base32: `bafybmi…`, 59 chars). */
export function looksLikeRubixDid(text: string): boolean {
  return /^bafybmi[a-z2-7]{52}$/.test(text);
}
