// libsecp256k1 (bitcoin-core's C library, through rust-secp256k1, compiled to WebAssembly by the
// tiny-secp256k1 2.x package) for recovering AgentDNA signing keys several times faster than noble.
// Only its .wasm is used: the caller hands over the bytes or a compiled module (the page's workers
// fetch it, Node reads it), and this file speaks to its exports as tiny-secp256k1's own wrapper does
// (fixed input buffers in its memory, named by exported globals). It decides nothing noble does not
// decide the same way (a property test holds the two equal); anything unusual is left to noble.
import type { Candidate } from './ecdsa';
import { bigintBytes32, bits2int, CURVE_N, CURVE_P, mod, modInverse, scalarsInRange } from './ecdsa';
import { readUintBE } from '../bytes';

interface SecpExports {
  memory: WebAssembly.Memory;
  PRIVATE_INPUT: WebAssembly.Global;
  PUBLIC_KEY_INPUT: WebAssembly.Global;
  PUBLIC_KEY_INPUT2: WebAssembly.Global;
  HASH_INPUT: WebAssembly.Global;
  SIGNATURE_INPUT: WebAssembly.Global;
  recover(outputLength: number, recoveryId: number): number;
  pointFromScalar(outputLength: number): number;
  pointAdd(lengthA: number, lengthB: number, outputLength: number): number;
  verify(keyLength: number, strict: number): number;
}

export interface SecpWasm {
  /**
   * Every public key for which (r, s) is a valid signature of e, as recoverCandidates lists them;
   * null where noble must answer instead: e not 32 bytes, recovery ids 2 and 3 possible (r + n
   * still a field element: only a crafted r is that small), no candidate for recovery id 0 (r not
   * the x of a curve point, or that key at infinity), or a failure of the module (after which it is
   * not used again).
   */
  candidates(r: bigint, s: bigint, e: Uint8Array): Candidate[] | null;
  /**
   * ECDSA verification of (r, s) over e under a 65-byte key, high-S accepted: true exactly when the
   * key is one of the candidates (R = (e/s)·G + (r/s)·Q has x ≡ r mod n). Null where noble must
   * answer: e not 32 bytes, r or s out of range, or a failed module.
   */
  verify(r: bigint, s: bigint, e: Uint8Array, key65: Uint8Array): boolean | null;
}

class SecpWasmError extends Error {}

/** What the module imports: entropy for its context randomisation (signing only), and its error hook. */
const IMPORTS = {
  './rand.js': { generateInt32: () => crypto.getRandomValues(new Int32Array(1))[0] },
  './validate_error.js': {
    throwError: (code: number) => {
      throw new SecpWasmError(`libsecp256k1 refused its input (error ${code})`);
    },
  },
};

/** Instantiates the module (bytes or compiled). Throws when it is not tiny-secp256k1's. */
export function secpWasmFrom(source: BufferSource | WebAssembly.Module): SecpWasm {
  const module = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source);
  return bind(new WebAssembly.Instance(module, IMPORTS).exports as unknown as SecpExports);
}

/** The same, compiled off the calling thread (a page may not compile a large module synchronously). */
export async function secpWasmAsync(source: BufferSource | WebAssembly.Module): Promise<SecpWasm> {
  const module = source instanceof WebAssembly.Module ? source : await WebAssembly.compile(source);
  return bind((await WebAssembly.instantiate(module, IMPORTS)).exports as unknown as SecpExports);
}

const R_MIN_WITHOUT_HIGH_IDS = CURVE_P - CURVE_N;

function bind(x: SecpExports): SecpWasm {
  for (const name of ['recover', 'pointFromScalar', 'pointAdd', 'verify'] as const) {
    if (typeof x[name] !== 'function') throw new TypeError(`not the tiny-secp256k1 module: no ${name} export`);
  }
  const at = (g: WebAssembly.Global) => g.value as number;
  const PRIVATE = at(x.PRIVATE_INPUT);
  const PUBLIC = at(x.PUBLIC_KEY_INPUT);
  const PUBLIC2 = at(x.PUBLIC_KEY_INPUT2);
  const HASH = at(x.HASH_INPUT);
  const SIGNATURE = at(x.SIGNATURE_INPUT);
  let heap = new Uint8Array(x.memory.buffer);
  const mem = () => (heap.buffer === x.memory.buffer ? heap : (heap = new Uint8Array(x.memory.buffer)));
  let broken = false;

  return {
    candidates(r, s, e) {
      if (broken || e.length !== 32 || scalarsInRange(r, s) !== null || r < R_MIN_WITHOUT_HIGH_IDS) return null;
      try {
        const m = mem();
        m.set(e, HASH);
        m.set(bigintBytes32(r), SIGNATURE);
        m.set(bigintBytes32(s), SIGNATURE + 32);
        // 0 when r is not the x of a curve point (no candidates) or Q0 is at infinity (Q1 alone):
        // rare, and noble's to list.
        if (x.recover(65, 0) !== 1) return null;
        const q0 = m.slice(PUBLIC, PUBLIC + 65);
        // The other candidate: Q1 = u1·G − u2·R = 2·u1·G − Q0, with u1 = −e/r (one multiple of G
        // and an addition, cheaper than a second recovery).
        const twoU1 = mod(-2n * mod(bits2int(e), CURVE_N) * modInverse(r, CURVE_N), CURVE_N);
        if (twoU1 === 0n) return null;
        m.set(bigintBytes32(twoU1), PRIVATE);
        if (x.pointFromScalar(65) !== 1) return null;
        m.set(q0.subarray(0, 33), PUBLIC2);
        m.set(bigintBytes32(CURVE_P - readUintBE(q0, 33, 65)), PUBLIC2 + 33); // −Q0: (x, p − y)
        const out: Candidate[] = [{ recovery: 0, publicKey: q0 }];
        if (x.pointAdd(65, 65, 65) === 1) out.push({ recovery: 1, publicKey: m.slice(PUBLIC, PUBLIC + 65) });
        return out;
      } catch {
        // A module that failed once may hold half-written state: noble from here on.
        broken = true;
        return null;
      }
    },
    verify(r, s, e, key65) {
      if (broken || e.length !== 32 || key65.length !== 65 || scalarsInRange(r, s) !== null) return null;
      try {
        const m = mem();
        m.set(e, HASH);
        m.set(key65, PUBLIC);
        m.set(bigintBytes32(r), SIGNATURE);
        m.set(bigintBytes32(s), SIGNATURE + 32);
        return x.verify(65, 0) === 1; // not strict: s is normalised first, as AgentDNA needs
      } catch {
        broken = true;
        return null;
      }
    },
  };
}
