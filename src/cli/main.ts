// envelope-inspector: the command line over src/core, for CI pipelines and terminals.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { inspect, type InputFile } from '../core/inspect';
import { parseKeys, type RegistryEntry } from '../core/keys/keys';
import { mergeRegistry } from '../core/keys/registry';
import { buildReport, exitStatus } from '../core/report';
import { EXPLAIN_USAGE, explain } from './explain';
import { DEFAULT_WINDOW, LineBlocks, readsAsCborSequence, streamReport, type RandomAccessFile, type StreamInput } from './stream';
import { formatSummary } from './summary';
import { jsonTerminalSafe, terminalSafe } from './terminal';

const USAGE = `usage: envelope-inspector inspect [--json] [--require-trusted] [--keys FILE]... FILE...
  FILE     an AGDX envelope, CBOR sequence, laser record, Iggy export (JSON or header block + payload),
           AgentDNA workflow, envelope or card, or hex/base64 text of one; - reads standard input
  --json   print the report@1 JSON document instead of a readable summary
  --keys   your registry: a key file (report.md: keys and AgentDNA DIDs), JWK/JWKS, PEM or hex public
           key (its agent, kind, window and revoked in FILE.json beside it); repeatable (a later file
           never loosens an earlier one: revocations and narrower windows stay)
  --require-trusted
           also exit 1 unless every record has a valid signature whose signer your registry trusts
exit status: 0 every record decoded, valid and not badly signed (and trusted, with --require-trusted);
             1 otherwise; 2 usage or I/O error`;

export class UsageError extends Error {}

export interface CliIo {
  readFile(path: string): Promise<Uint8Array>;
  /**
   * A regular file to read at any position (null for anything else: a pipe, a device), so a large
   * CBOR sequence is read in windows; without it every input is read whole.
   */
  openFile?(path: string): Promise<RandomAccessFile | null>;
  readStdin(): Promise<Uint8Array>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** A full garbage collection, when the runtime offers one (stream.ts StreamOptions.collect). */
  collect?(): void;
}

export interface CliArgs {
  json: boolean;
  requireTrusted: boolean;
  keyFiles: string[];
  files: string[];
}

export function parseArgs(argv: string[]): CliArgs {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h') throw new UsageError(USAGE);
  if (command !== 'inspect')
    throw new UsageError(command ? `unknown command ${JSON.stringify(command)}; expected inspect or explain` : 'no command given; expected inspect or explain');
  let json = false;
  let requireTrusted = false;
  const files: string[] = [];
  const keyFiles: string[] = [];
  let onlyFiles = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!onlyFiles && arg === '--') onlyFiles = true;
    else if (!onlyFiles && arg === '--json') json = true;
    else if (!onlyFiles && arg === '--require-trusted') requireTrusted = true;
    else if (!onlyFiles && (arg === '--keys' || arg.startsWith('--keys='))) {
      const value = arg === '--keys' ? rest[++i] : arg.slice('--keys='.length);
      if (!value) throw new UsageError('--keys needs a FILE');
      keyFiles.push(value);
    } else if (!onlyFiles && arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`);
    else files.push(arg);
  }
  if (files.length === 0) throw new UsageError('no FILE given');
  return { json, requireTrusted, keyFiles, files };
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  // Error lines name files, options and key-file problems, which may hold anything: terminal-safe.
  const raw = io;
  io = { ...raw, stderr: (text) => raw.stderr(terminalSafe(text)) };
  if (argv[0] === 'explain') return explain(argv.slice(1), io);
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    if (e.message === USAGE) {
      io.stdout(`${USAGE}\n${EXPLAIN_USAGE}`);
      return 0;
    }
    io.stderr(`envelope-inspector: ${e.message} (${USAGE.split('\n')[0]})`);
    return 2;
  }
  const inputs: StreamInput[] = [];
  try {
    for (const path of args.files) {
      try {
        inputs.push(path === '-' ? { name: '<stdin>', bytes: await io.readStdin() } : await openInput(path, io, args.json));
      } catch (e) {
        io.stderr(`envelope-inspector: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
        return 2;
      }
    }
    return await inspectInputs(args, inputs, io);
  } finally {
    for (const input of inputs) if ('file' in input) input.file.close();
  }
}

/**
 * A named input: a large file that reads as a CBOR sequence stays a file to read in windows (for
 * --json, which streams), anything else is read whole.
 */
async function openInput(path: string, io: CliIo, streams: boolean): Promise<StreamInput> {
  const file = streams && io.openFile ? await io.openFile(path) : null;
  if (file) {
    const first = new Uint8Array(Math.min(4, file.size));
    let kept = false;
    try {
      if (file.size > DEFAULT_WINDOW && file.read(first, 0, first.length, 0) === first.length && readsAsCborSequence(first)) {
        kept = true;
        return { name: path, file };
      }
    } finally {
      if (!kept) file.close();
    }
  }
  return { name: path, bytes: await io.readFile(path) };
}

async function inspectInputs(args: CliArgs, inputs: StreamInput[], io: CliIo): Promise<number> {
  let keys: RegistryEntry[] = [];
  for (const path of args.keyFiles) {
    let parsed: ReturnType<typeof parseKeys>;
    try {
      parsed = parseKeys(await io.readFile(path), { sidecar: await readSidecar(`${path}.json`, io) });
    } catch (e) {
      io.stderr(`envelope-inspector: cannot read keys ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      return 2;
    }
    if (parsed.problems.length) {
      io.stderr(`envelope-inspector: bad keys in ${path}: ${parsed.problems.join('; ')}`);
      return 2;
    }
    const merged = mergeRegistry(keys, parsed.keys);
    keys = merged.registry;
    for (const c of merged.changes)
      if (c.add) io.stderr(`envelope-inspector: ${path}: ${c.label} not added: ${c.description}`);
      else if (!c.applied) io.stderr(`envelope-inspector: ${path}: ${c.label} is in the registry already; not applied, it would loosen it: ${c.description}`);
  }
  if (args.json) {
    // Written as it goes: never the whole report, nor every record, in memory (stream.ts).
    const out = new LineBlocks(io.stdout, jsonTerminalSafe);
    const status = streamReport(inputs, { keys, requireTrusted: args.requireTrusted, collect: io.collect }, (piece) => out.write(piece));
    out.end();
    return status;
  }
  // Only --json keeps a file to read in windows (openInput).
  const whole: InputFile[] = inputs.map((input) => {
    if (!('bytes' in input)) throw new TypeError('the readable summary reads its inputs whole');
    return input;
  });
  const report = buildReport(inspect(whole, { keys, detail: false }));
  io.stdout(formatSummary(report));
  return exitStatus(report, { requireTrusted: args.requireTrusted });
}

/**
 * A key's sidecar (`FILE.json` beside `FILE`): the members of a PEM or bare key's entry (agent,
 * kind, window, revoked), undefined when there is none. Any other failure to read it is an error.
 */
async function readSidecar(path: string, io: CliIo): Promise<{ name: string; text: Uint8Array } | undefined> {
  try {
    return { name: path, text: await io.readFile(path) };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

export const nodeIo: CliIo = {
  readFile: async (path) => new Uint8Array(await readFile(path)),
  openFile: async (path) => {
    const fd = openSync(path, 'r');
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      closeSync(fd);
      return null;
    }
    return {
      size: stat.size,
      read: (buffer, offset, length, position) => readSync(fd, buffer, offset, length, position),
      close: () => closeSync(fd),
    };
  },
  readStdin,
  stdout: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  stderr: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};
