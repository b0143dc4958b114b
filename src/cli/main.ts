// envelope-inspector: the command line over src/core, for CI pipelines and terminals.
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { parseKeys, type RegistryEntry } from '../core/keys/keys';
import { mergeRegistry } from '../core/keys/registry';
import { GENERATOR } from '../core/report';
import { JsonWriter } from '../core/report-json';
import { writeMarkdown } from '../core/report-markdown';
import { Answer, type CliArgs, INSPECT_USAGE, parseInspectArgs, USAGE_LINE, UsageError } from './args';
import { EXPLAIN_USAGE, explain } from './explain';
import { EmptyDirectory, expandPaths, type ListDir } from './inputs';
import { readsAsCborSequence } from '../core/inspect';
import { concatBytes } from '../core/bytes';
import { DEFAULT_WINDOW, streamReport, type RandomAccessFile, type StreamInput, type StreamOptions } from './stream';
import { LineOut, writeGithub, writeSummary } from './summary';
import { jsonTerminalSafe, terminalSafe } from './terminal';

export interface CliIo {
  readFile(path: string): Promise<Uint8Array>;
  /**
   * A regular file to read at any position (null for anything else: a pipe, a device), so a large
   * CBOR sequence is read in windows; without it every input is read whole.
   */
  openFile?(path: string): Promise<RandomAccessFile | null>;
  readStdin(): Promise<Uint8Array>;
  /** A directory's entries, or null when the path is not a directory (a file, a pipe); throws when it cannot be read. */
  listDir?: ListDir;
  stdout(text: string): void;
  /**
   * Bytes to standard output as they are (a large report, block by block: the block is reused once
   * it returns); without it they are decoded and handed to `stdout`.
   */
  stdoutBytes?(bytes: Uint8Array): void;
  stderr(text: string): void;
  /** A full garbage collection, when the runtime offers one (stream.ts StreamOptions.collect). */
  collect?(): void;
}

/** The arguments of a whole command line (`inspect …`); `--help` and `--version` answer (Answer), misuse throws UsageError. */
export function parseArgs(argv: string[]): CliArgs {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h') throw new Answer(`${INSPECT_USAGE}\n${EXPLAIN_USAGE}`);
  if (command === '--version' || command === '-V') throw new Answer(GENERATOR);
  if (command !== 'inspect')
    throw new UsageError(command ? `unknown command ${JSON.stringify(command)}; expected inspect or explain` : 'no command given; expected inspect or explain');
  return parseInspectArgs(rest);
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
    if (e instanceof Answer) {
      io.stdout(e.message);
      return 0;
    }
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`envelope-inspector: ${e.message} (${USAGE_LINE}; -h for help)`);
    return 2;
  }
  let paths: string[];
  try {
    paths = await expandPaths(args.files, args.exts, io.listDir);
  } catch (e) {
    const path = e instanceof EmptyDirectory ? e.path : null;
    io.stderr(
      path !== null
        ? `envelope-inspector: ${(e as Error).message}`
        : `envelope-inspector: cannot read ${(e as { path?: string }).path ?? 'a FILE'}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
    return 2;
  }
  const inputs: StreamInput[] = [];
  try {
    for (const path of paths) {
      try {
        inputs.push(path === '-' ? { name: '<stdin>', bytes: await io.readStdin() } : await openInput(path, io));
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
 * A named input: a large file that reads as a CBOR sequence stays a file to read in windows, anything
 * else is read whole.
 */
async function openInput(path: string, io: CliIo): Promise<StreamInput> {
  const file = io.openFile ? await io.openFile(path) : null;
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
  const policy = { failOn: args.failOn, requireTrusted: args.requireTrusted };
  const options: StreamOptions = { keys, ...policy, collect: io.collect };
  if (args.format === 'json') {
    // Written as it goes: never the whole report, nor every record, in memory (stream.ts).
    const out = new JsonWriter(bytesOut(io), { escape: jsonTerminalSafe });
    const status = streamReport(inputs, options, out);
    out.text('\n');
    out.end();
    return status;
  }
  // The readable summaries from the same stream: each record's lines once it is final (Markdown's
  // once the last is, its counts coming first).
  const out = new LineOut(bytesOut(io));
  const summary = { quiet: args.quiet, policy };
  const status = streamReport(inputs, options, (parts) => {
    if (args.format === 'github') writeGithub(parts, out, summary);
    else if (args.format === 'markdown') writeMarkdown(parts, (line) => out.line(line), summary);
    else writeSummary(parts, out, summary);
  });
  out.end();
  return status;
}

function bytesOut(io: CliIo): (bytes: Uint8Array) => void {
  if (io.stdoutBytes) return (bytes) => io.stdoutBytes!(bytes);
  const text = new TextDecoder();
  return (bytes) => io.stdout(text.decode(bytes, { stream: true }));
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

/**
 * Standard input, read from its descriptor to the end: the command runs in a worker thread
 * (bin/envelope-inspector.mjs), where process.stdin gives nothing.
 */
async function readStdin(): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for (;;) {
    const chunk = new Uint8Array(1 << 16);
    let n: number;
    try {
      n = whenReady(() => readSync(0, chunk, 0, chunk.length, null));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EOF') break; // Windows: a closed pipe
      throw e;
    }
    if (n === 0) break;
    chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
  }
  return concatBytes(...chunks);
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
  listDir: async (path) => {
    const s = await stat(path);
    if (!s.isDirectory()) return null;
    return (await readdir(path, { withFileTypes: true })).map((e) => ({ name: e.name, directory: e.isDirectory() }));
  },
  stdout: (text) => writeLine(1, text),
  stdoutBytes: (bytes) => writeAll(1, bytes),
  stderr: (text) => writeLine(2, text),
};

const utf8 = new TextEncoder();

/** A line written now, on its descriptor: the worker thread's process.stdout and stderr would hand it to the main thread to write later. */
export function writeLine(fd: number, text: string): void {
  writeAll(fd, utf8.encode(text.endsWith('\n') ? text : `${text}\n`));
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all the bytes now, whatever the descriptor: process.stdout queues what a pipe does not
 * take at once (and in a worker thread hands everything to the main thread), and a report written
 * without a pause would pile up in memory; a pipe that is full (EAGAIN) is waited for.
 */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) done += whenReady(() => writeSync(fd, bytes, done, bytes.length - done));
}

/** A synchronous read or write on a descriptor that may not be ready (EAGAIN: a full or empty non-blocking pipe), tried again a millisecond later until it is. */
function whenReady(op: () => number): number {
  for (;;) {
    try {
      return op();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
