// The form of a Rubix DID, for the key registry (in the page) to recognise a pasted DID without
// loading the CID and hash code that derives one (agentdna/did.ts, which re-exports this).

/** Whether text has the form of a Rubix DID (CIDv1 dag-pb sha3-256, base32: `bafybmi…`, 59 chars). */
export function looksLikeRubixDid(text: string): boolean {
  return /^bafybmi[a-z2-7]{52}$/.test(text);
}
