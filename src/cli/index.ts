// Entry point: `node bin/envelope-inspector.mjs inspect …`.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { installSha256Text } from '../core/agentdna/hash';
import { installSecpWasm } from '../core/agentdna/signature';
import { nodeSha256Hex } from './hash';
import { nodeIo, run } from './main';
import { loadSecpWasm } from './secp';

// The heap grows by a fifth past what the last full collection kept, not by V8's default of up to
// fourfold: reading a large log makes garbage fast, and the default lets the process hold several
// times its live memory (measured: 430 MB against 300 MB for the 100,000-record bench file, at a
// small cost in time). Read at each collection, so setting it here, before any work, is enough.
setFlagsFromString('--heap-growing-percent=20');
// A full collection between the streamed report's steps (stream.ts StreamOptions.collect): V8 gives
// the function to a context made once the flag is set.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

// AgentDNA key recovery with libsecp256k1 (WebAssembly); noble if the module cannot be had.
installSecpWasm(loadSecpWasm());
// SHA-256 of AgentDNA's content JSONs and signed messages with node:crypto.
installSha256Text(nodeSha256Hex);

// The output's reader went away (a pipe into `head`): an I/O error, said in one line with exit
// status 2 as report.md has it, not an internal error with a stack. Synchronous writes (the JSON
// report) throw it; process.stdout (the readable summary) emits it.
const outputClosed = (e: unknown) => (e as NodeJS.ErrnoException | null)?.code === 'EPIPE';
const stopWriting = () => {
  process.stderr.write('envelope-inspector: cannot write the report: the output was closed (EPIPE)\n');
  process.exit(2);
};
process.stdout.on('error', (e) => {
  if (outputClosed(e)) stopWriting();
  else throw e;
});

run(process.argv.slice(2), { ...nodeIo, collect }).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    if (outputClosed(e)) return stopWriting();
    process.stderr.write(`envelope-inspector: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 2;
  },
);
