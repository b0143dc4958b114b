// Entry point: `node bin/envelope-inspector.mjs inspect …`.
import { installSecpWasm } from '../core/agentdna/signature';
import { nodeIo, run } from './main';
import { loadSecpWasm } from './secp';

// AgentDNA key recovery with libsecp256k1 (WebAssembly); noble if the module cannot be had.
installSecpWasm(loadSecpWasm());

run(process.argv.slice(2), nodeIo).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`envelope-inspector: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 2;
  },
);
