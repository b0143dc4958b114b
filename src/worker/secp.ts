// libsecp256k1 (WebAssembly, vendor/libsecp256k1-wasm) for a worker: fetched and compiled
// once, on first use, then used for every AgentDNA key recovery in this worker. Needs
// 'wasm-unsafe-eval' in the page's script-src (vite.config.ts); if it cannot be had, noble does
// the work (same verdicts, slower).
import secpWasmUrl from '../../vendor/libsecp256k1-wasm/secp256k1.wasm?url';
import { secpWasmAsync } from '../core/agentdna/secp-wasm';
import { installSecpWasm } from '../core/agentdna/signature';

let loading: Promise<void> | null = null;

export function loadSecp(): Promise<void> {
  loading ??= (async () => {
    try {
      const response = await fetch(secpWasmUrl);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      installSecpWasm(await secpWasmAsync(await response.arrayBuffer()));
    } catch (e) {
      console.warn(`libsecp256k1 (WebAssembly) could not be loaded, noble checks AgentDNA signatures: ${(e as Error)?.message ?? String(e)}`);
    }
  })();
  return loading;
}
