#!/usr/bin/env node
// The command line, compiled from src/cli by `npm run build:cli` (run by `prepare` on npm ci and npm pack).
//
// It runs in a worker thread of this process, whose young generation is capped: V8's default lets
// the young generation of a long read grow to tens of megabytes, all of it resident (a
// million-record report peaked at 336–355 MB with it, 320–329 with this cap, in the same time), and a
// process cannot change that size once started. The worker writes the report on the process's
// descriptors itself (src/cli/main.ts), and its exit status is the process's.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** The worker's young generation at most, in MB (about a 4 MB semi-space). */
const YOUNG_GENERATION_MB = 12;

const cli = new URL('../dist-cli/envelope-inspector.mjs', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('envelope-inspector: not built yet: run `npm run build:cli` in the checkout\n');
  process.exitCode = 2;
} else {
  const worker = new Worker(cli, { argv: process.argv.slice(2), resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
  worker.on('error', (e) => {
    process.stderr.write(`envelope-inspector: internal error: ${e?.stack ?? String(e)}\n`);
    process.exitCode = 2;
  });
  worker.on('exit', (code) => {
    process.exitCode ??= code;
  });
}
