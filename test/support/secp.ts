// For the core's tests: libsecp256k1 (WebAssembly, vendor/libsecp256k1-wasm) read in Node. The
// command line's loader (src/cli/secp.ts, tested beside it) sits above the core, which may not
// import it (src/architecture.test.ts). Unlike that one, this throws when the module cannot be had,
// so a test that holds libsecp256k1 to noble never compares noble with itself.
import { readFileSync } from 'node:fs';
import { secpWasmFrom, type SecpWasm } from '../../src/core/agentdna/secp-wasm';

export function secpWasmForTests(): SecpWasm {
  return secpWasmFrom(readFileSync(new URL('../../vendor/libsecp256k1-wasm/secp256k1.wasm', import.meta.url)));
}
