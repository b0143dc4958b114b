// libsecp256k1 (bitcoin-core's C library) compiled to WebAssembly by vendor/libsecp256k1-wasm
// (its build.sh and glue.c: verification and recovery only, through one static buffer), for
// recovering and verifying AgentDNA signing keys several times faster than noble. The caller hands
// over the bytes or a compiled module (the page's workers fetch it, Node reads it). It decides
// nothing noble does not decide the same way (a property test holds the two equal); anything
// unusual is left to noble.
import type { Candidate } from './ecdsa';
import { bigintBytes32, CURVE_N, CURVE_P, scalarsInRange, twiceU1 } from './ecdsa';

interface SecpExports {
  memory: WebAssembly.Memory;
  /** wasi-libc's start-up (its allocator), once, before anything else. */
  _initialize(): void;
  /** The address of the buffer every call reads and writes (see glue.c). */
  io(): number;
  /** Builds the context's tables; 1 when ready. */
  init(): number;
  /** 1 valid, 0 not, negative when an input is refused. */
  verify(): number;
  /** 1 with the key written, 0 no key, -1 refused. */
  recover(recoveryId: number): number;
  /** k·G − Q: 1 with the key written, 0 none. */
  other(): number;
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

/** What the module imports: its failure hook (an illegal argument or an internal error: never expected). */
const IMPORTS = {
  env: {
    fail: (code: number) => {
      throw new SecpWasmError(`libsecp256k1 failed (${code === 1 ? 'an illegal argument' : code === 3 ? 'a wrong scalar inverse' : 'an internal error'})`);
    },
  },
};

/** Instantiates the module (bytes or compiled). Throws when it is not vendor/libsecp256k1-wasm's. */
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

/** Offsets in the module's io buffer (glue.c). */
const E = 0;
const R = 32;
const S = 64;
const KEY = 96;
const SCALAR = 161;

function bind(x: SecpExports): SecpWasm {
  for (const name of ['_initialize', 'io', 'init', 'verify', 'recover', 'other'] as const) {
    if (typeof x[name] !== 'function') throw new TypeError(`not vendor/libsecp256k1-wasm's module: no ${name} export`);
  }
  x._initialize();
  if (x.init() !== 1) throw new SecpWasmError('libsecp256k1 could not build its context');
  const io = x.io();
  let heap = new Uint8Array(x.memory.buffer);
  const mem = () => (heap.buffer === x.memory.buffer ? heap : (heap = new Uint8Array(x.memory.buffer)));
  let broken = false;
  const signature = (m: Uint8Array, r: bigint, s: bigint, e: Uint8Array) => {
    m.set(e, io + E);
    m.set(bigintBytes32(r), io + R);
    m.set(bigintBytes32(s), io + S);
  };

  return {
    candidates(r, s, e) {
      if (broken || e.length !== 32 || scalarsInRange(r, s) !== null || r < R_MIN_WITHOUT_HIGH_IDS) return null;
      try {
        const m = mem();
        signature(m, r, s, e);
        // 0 when r is not the x of a curve point (no candidates) or Q0 is at infinity (Q1 alone):
        // rare, and noble's to list.
        if (x.recover(0) !== 1) return null;
        const q0 = m.slice(io + KEY, io + KEY + 65);
        // The other candidate: Q1 = 2·u1·G − Q0 (ecdsa.ts twiceU1).
        const twoU1 = twiceU1(r, e);
        if (twoU1 === 0n) return null;
        m.set(bigintBytes32(twoU1), io + SCALAR);
        const out: Candidate[] = [{ recovery: 0, publicKey: q0 }];
        if (x.other() === 1) out.push({ recovery: 1, publicKey: m.slice(io + KEY, io + KEY + 65) });
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
        signature(m, r, s, e);
        m.set(key65, io + KEY);
        const verdict = x.verify();
        return verdict < 0 ? null : verdict === 1;
      } catch {
        broken = true;
        return null;
      }
    },
  };
}
