// libsecp256k1 (WebAssembly, from the tiny-secp256k1 package) for Node: the command line and the
// tests. Compiled once, synchronously (Node allows it at any size).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { secpWasmFrom, type SecpWasm } from '../core/agentdna/secp-wasm';

/** The module's file: beside the package's entry (its exports name no other path). */
export function secpWasmPath(): string {
  return join(dirname(createRequire(import.meta.url).resolve('tiny-secp256k1')), '..', 'secp256k1.wasm');
}

/** libsecp256k1, or null (and noble does the work) when the package or the module cannot be had. */
export function loadSecpWasm(): SecpWasm | null {
  try {
    return secpWasmFrom(readFileSync(secpWasmPath()));
  } catch {
    return null;
  }
}
