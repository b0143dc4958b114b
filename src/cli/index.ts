// The command, as bin/envelope-inspector.mjs runs it: in a worker thread (see there), its output
// written on the process's descriptors.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { installSha256Text } from '../core/agentdna/hash';
import { installSecpWasm } from '../core/agentdna/signature';
import { nodeSha256Hex } from './hash';
import { nodeIo, run, writeLine } from './main';
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
// status 2 as report.md has it, not an internal error with a stack. The writes are synchronous
// (main.ts writeAll), so they throw it.
const outputClosed = (e: unknown) => (e as NodeJS.ErrnoException | null)?.code === 'EPIPE';
const stopWriting = () => {
  writeLine(2, 'envelope-inspector: cannot write the report: the output was closed (EPIPE)');
  process.exitCode = 2;
};

run(process.argv.slice(2), { ...nodeIo, collect }).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    if (outputClosed(e)) return stopWriting();
    writeLine(2, `envelope-inspector: internal error: ${(e as Error)?.stack ?? String(e)}`);
    process.exitCode = 2;
  },
);
