// Entry point: `node bin/envelope-inspector.mjs inspect …`.
import { installSha256Text } from '../core/agentdna/hash';
import { installSecpWasm } from '../core/agentdna/signature';
import { nodeSha256Hex } from './hash';
import { nodeIo, run } from './main';
import { loadSecpWasm } from './secp';

// AgentDNA key recovery with libsecp256k1 (WebAssembly); noble if the module cannot be had.
installSecpWasm(loadSecpWasm());
// SHA-256 of AgentDNA's content JSONs and signed messages with node:crypto.
installSha256Text(nodeSha256Hex);

run(process.argv.slice(2), nodeIo).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`envelope-inspector: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 2;
  },
);
