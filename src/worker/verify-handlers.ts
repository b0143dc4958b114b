// A verifier's handlers, one per request of the pool's map (src/wire/verify-protocol.ts); the
// worker entry is verify.worker.ts. AgentDNA's are runSignatureJob (the quick check against a
// DID's proven key, else checkSignatureText itself) over a batch, with libsecp256k1 (WebAssembly)
// loaded before the first (noble if it cannot be). Ed25519: WebCrypto where the browser has
// Ed25519 (much faster than JavaScript, see the benchmark), noble's strict mode otherwise. Both
// give noble's strict verdict: what WebCrypto accepts is accepted by noble too once its extra
// rules (canonical S and points, no small-order key) are checked here; what WebCrypto rejects is
// asked of noble again, since it checks with the cofactor and may accept a few signatures more.
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import type { VerifyJob } from '../core/agdx/verify';
import { runSignatureJob } from '../core/agentdna/signature-jobs';
import { toHex } from '../core/bytes';
import type { VerifyHandlers } from '../wire/verify-protocol';

ed.hashes.sha512 = sha512;

const strict = (j: VerifyJob) => {
  try {
    return ed.verify(j.signature, j.message, j.publicKey, { zip215: false });
  } catch {
    return false;
  }
};

// L, the order of the Ed25519 group, little-endian: S must be below it.
const L = Uint8Array.from([
  0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
]);
function sBelowL(sig: Uint8Array): boolean {
  for (let i = 31; i >= 0; i--) {
    const s = sig[32 + i];
    if (s !== L[i]) return s < L[i];
  }
  return false;
}

/** noble's extra strict-mode rules, cheap enough to check before WebCrypto. */
function passesStrictRules(j: VerifyJob): boolean {
  if (j.signature.length !== 64 || j.publicKey.length !== 32 || !sBelowL(j.signature)) return false;
  try {
    const a = ed.Point.fromBytes(j.publicKey, false);
    ed.Point.fromBytes(j.signature.subarray(0, 32), false);
    return !a.isSmallOrder();
  } catch {
    return false;
  }
}

let webcrypto: boolean | null = null;
const keys = new Map<string, Promise<CryptoKey>>();

async function verifyOne(j: VerifyJob): Promise<boolean> {
  if (webcrypto !== false && passesStrictRules(j)) {
    try {
      const hex = toHex(j.publicKey);
      let key = keys.get(hex);
      if (!key) {
        key = crypto.subtle.importKey('raw', j.publicKey as Uint8Array<ArrayBuffer>, { name: 'Ed25519' }, false, ['verify']);
        keys.set(hex, key);
      }
      const ok = await crypto.subtle.verify({ name: 'Ed25519' }, await key, j.signature as Uint8Array<ArrayBuffer>, j.message as Uint8Array<ArrayBuffer>);
      webcrypto = true;
      if (ok) return true;
    } catch {
      webcrypto = false;
    }
  }
  return strict(j);
}

/** One handler per request of the pool's map; `loadSecp` installs libsecp256k1 (worker/secp.ts in a worker). */
export function verifyHandlers(loadSecp: () => Promise<void>): VerifyHandlers {
  return {
    ed25519: async ({ jobs }) => Promise.all(jobs.map(verifyOne)),
    // A batch a message, checked in one loop: this thread's proven keys stay warm across batches.
    agentdna: async ({ jobs }) => {
      await loadSecp();
      return jobs.map(runSignatureJob);
    },
  };
}
