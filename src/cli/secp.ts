// libsecp256k1 (WebAssembly, vendor/libsecp256k1-wasm) for Node: the command line and the tests.
// Compiled once, synchronously (Node allows it at any size).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { secpWasmFrom, type SecpWasm } from '../core/agentdna/secp-wasm';

const MODULE = 'vendor/libsecp256k1-wasm/secp256k1.wasm';

/**
 * The module's file, in the package's vendor folder, seen from the code at `from`: two levels above
 * this source file, one above the compiled command line (dist-cli); the first that exists.
 */
export function secpWasmPath(from: string = import.meta.url): string {
  const paths = ['../../', '../'].map((up) => fileURLToPath(new URL(up + MODULE, from)));
  return paths.find((p) => existsSync(p)) ?? paths[0];
}

/** libsecp256k1, or null (and noble does the work) when the module cannot be had. */
export function loadSecpWasm(): SecpWasm | null {
  try {
    return secpWasmFrom(readFileSync(secpWasmPath()));
  } catch {
    return null;
  }
}
