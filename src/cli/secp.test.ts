// The command line's libsecp256k1: found in the tiny-secp256k1 package and usable (the core's tests
// load it their own way, test/support/secp.ts, as the core may not import the CLI).
import { afterAll, describe, expect, it } from 'vitest';
import { installSecpWasm, secpImplementation } from '../core/agentdna/signature';
import { loadSecpWasm } from './secp';

afterAll(() => installSecpWasm(null));

describe("the command line's libsecp256k1 (WebAssembly)", () => {
  it('loads from the tiny-secp256k1 package and is used once installed', () => {
    const wasm = loadSecpWasm();
    expect(wasm).not.toBeNull();
    installSecpWasm(wasm);
    expect(secpImplementation()).toBe('libsecp256k1-wasm');
    installSecpWasm(null);
    expect(secpImplementation()).toBe('noble');
  });
});
