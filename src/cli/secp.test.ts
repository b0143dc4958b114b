// The command line's libsecp256k1: found in the package's vendor folder and usable (the core's tests
// load it their own way, test/support/secp.ts, as the core may not import the CLI).
import { afterAll, describe, expect, it } from 'vitest';
import { installSecpWasm, secpImplementation } from '../core/agentdna/signature';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadSecpWasm, secpWasmPath } from './secp';

afterAll(() => installSecpWasm(null));

describe("the command line's libsecp256k1 (WebAssembly)", () => {
  it('loads from vendor/libsecp256k1-wasm and is used once installed', () => {
    const wasm = loadSecpWasm();
    expect(wasm).not.toBeNull();
    installSecpWasm(wasm);
    expect(secpImplementation()).toBe('libsecp256k1-wasm');
    installSecpWasm(null);
    expect(secpImplementation()).toBe('noble');
  });

  it('is found from the sources and from the compiled command line (dist-cli) alike', () => {
    const root = resolve(__dirname, '../..');
    const module = resolve(root, 'vendor/libsecp256k1-wasm/secp256k1.wasm');
    expect(existsSync(module)).toBe(true);
    expect(secpWasmPath()).toBe(module);
    expect(secpWasmPath(pathToFileURL(resolve(root, 'dist-cli/envelope-inspector.mjs')).href)).toBe(module);
  });
});
