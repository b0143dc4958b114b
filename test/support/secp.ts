// For the core's tests: libsecp256k1 (WebAssembly) read from the tiny-secp256k1 package in Node.
// The command line's loader (src/cli/secp.ts, tested beside it) sits above the core, which may not
// import it (src/architecture.test.ts). Unlike that one, this throws when the module cannot be had,
// so a test that holds libsecp256k1 to noble never compares noble with itself.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { secpWasmFrom, type SecpWasm } from '../../src/core/agentdna/secp-wasm';

export function secpWasmForTests(): SecpWasm {
  // Beside the package's entry (its exports name no other path), as src/cli/secp.ts finds it.
  return secpWasmFrom(readFileSync(join(dirname(createRequire(import.meta.url).resolve('tiny-secp256k1')), '..', 'secp256k1.wasm')));
}
