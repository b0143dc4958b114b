// The command line as a CI gate (issue 26): over a directory holding vectors, a PNG and a log with
// warnings, each --fail-on's exit status, --quiet, --format github and markdown, the summary's
// counts, --ext, --version and -h on every subcommand; through run() with the real file system,
// and the real bin once.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../core/report';
import { nodeIo, run } from './main';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const vector = (p: string) => join(ROOT, 'vectors', p);
const KEYS = vector('agdx/made/keys.json');

/**
 * The directory: two AGDX records (one signed by the key keys.json registers for source-agent, one
 * unsigned, sharing its record id), a PNG, a log with warnings (a missed deadline, a stream gap) in
 * a subdirectory, and a hidden directory that is never read.
 */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ei-ci-'));
  for (const d of ['vectors', 'logs', '.hidden']) mkdirSync(join(dir, d));
  copyFileSync(vector('agdx/laser-wire-0.0.1/agent_event.bin'), join(dir, 'vectors/agent_event.bin'));
  copyFileSync(vector('agdx/made/signed_command.bin'), join(dir, 'vectors/signed_command.bin'));
  copyFileSync(vector('files/pixel.png'), join(dir, 'pixel.png'));
  copyFileSync(vector('agdx/made/deadlines.cborseq'), join(dir, 'logs/deadlines.cborseq'));
  copyFileSync(vector('agdx/laser-wire-0.0.1/agent_invalid_error_last.bin'), join(dir, '.hidden/invalid.bin'));
});

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  // Without stdoutBytes the report's bytes reach stdout as text, where they are captured.
  const code = await run(argv, { ...nodeIo, stdoutBytes: undefined, stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { code, out: out.join('\n'), err };
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

describe('a directory: read recursively, in name order, hidden entries skipped', () => {
  it('reads every file under it, the PNG as an unreadable input', async () => {
    const { code, out } = await cli('inspect', '--json', dir);
    const report = JSON.parse(out) as Report;
    expect(report.inputs.map((i) => i.name.slice(dir.length + 1))).toEqual([
      'logs/deadlines.cborseq',
      'pixel.png',
      'vectors/agent_event.bin',
      'vectors/signed_command.bin',
    ]);
    // report@1 keeps the PNG's one record, input/unrecognized.
    const png = report.records.filter((r) => r.input === 1);
    expect(png).toEqual([expect.objectContaining({ format: 'unknown', decoded: false, error: expect.objectContaining({ code: 'input/unrecognized' }) })]);
    // The PNG is not decoded: the default --fail-on error fails.
    expect(code).toBe(1);
  });

  it('--ext keeps the extensions asked for; a directory with none is a usage error naming it', async () => {
    const { out } = await cli('inspect', '--json', '--ext', 'bin', '--ext=.CBORSEQ', dir);
    expect((JSON.parse(out) as Report).inputs.map((i) => i.name.split('/').pop())).toEqual(['deadlines.cborseq', 'agent_event.bin', 'signed_command.bin']);
    const none = await cli('inspect', '--ext', 'json', dir);
    expect(none.code).toBe(2);
    expect(none.err).toEqual([`envelope-inspector: ${dir} holds no file to read ending in .json`]);
    // A file named on the command line is read whatever its extension.
    expect((await cli('inspect', '--json', '--ext', 'json', join(dir, 'pixel.png'))).code).toBe(1);
  });
});

describe('--fail-on', () => {
  const noPng = ['--ext', 'bin,cborseq'];

  it('with the PNG: every level fails (an unreadable input is undecoded)', async () => {
    for (const level of ['error', 'warning', 'untrusted']) expect((await cli('inspect', '--fail-on', level, dir)).code, level).toBe(1);
  });

  it('without it: error passes (warnings only), warning fails, untrusted fails (unsigned records)', async () => {
    expect((await cli('inspect', ...noPng, dir)).code).toBe(0);
    expect((await cli('inspect', '--fail-on', 'error', ...noPng, dir)).code).toBe(0);
    expect((await cli('inspect', '--fail-on=warning', ...noPng, dir)).code).toBe(1);
    expect((await cli('inspect', '--fail-on', 'untrusted', ...noPng, dir)).code).toBe(1);
    // --require-trusted is --fail-on untrusted; JSON exits as text does.
    expect((await cli('inspect', '--require-trusted', '--json', ...noPng, dir)).code).toBe(1);
    expect((await cli('inspect', '--fail-on', 'warning', '--json', ...noPng, dir)).code).toBe(1);
  });

  it('untrusted passes on a record whose signer your registry trusts, and only then', async () => {
    const signed = join(dir, 'vectors/signed_command.bin');
    expect((await cli('inspect', '--fail-on', 'untrusted', '--keys', KEYS, signed)).code).toBe(0);
    expect((await cli('inspect', '--fail-on', 'untrusted', signed)).code).toBe(1);
    expect((await cli('inspect', '--fail-on', 'untrusted', '--format', 'github', '--keys', KEYS, signed)).code).toBe(0);
  });

  it('an unknown level, or two different ones, is a usage error', async () => {
    const bad = await cli('inspect', '--fail-on', 'info', dir);
    expect(bad.code).toBe(2);
    expect(bad.err[0]).toMatch(/^envelope-inspector: --fail-on must be one of error, warning, untrusted, not "info"/);
    expect((await cli('inspect', '--fail-on', 'error', '--fail-on', 'warning', dir)).code).toBe(2);
  });
});

describe('the summary', () => {
  it('counts records, unreadable inputs, invalid, badly signed, untrusted, errors and warnings apart', async () => {
    const { out } = await cli('inspect', '--keys', KEYS, dir);
    // 12 records in the log, 1 each in the two vectors; the PNG is an input, not a record. Only the
    // signed command is trusted. Warnings: the missed deadline, the stream gap, the repeated record id.
    expect(lastLine(out)).toBe('14 records in 4 inputs (1 unreadable): 14 valid, 0 invalid or undecoded, 0 badly signed, 13 untrusted; 0 errors, 3 warnings');
    expect(out).toContain('pixel.png  (file(png), 69 bytes');
    expect(out).toContain('  unreadable input, not a record: input/unrecognized: a PNG image, not an agent record');
  });

  it('--quiet: only the records with a problem, and the summary', async () => {
    const all = await cli('inspect', '--keys', KEYS, dir);
    const quiet = await cli('inspect', '--quiet', '--keys', KEYS, dir);
    expect(quiet.code).toBe(all.code);
    const heads = (text: string) => text.split('\n').filter((l) => /^ {2}#\d+ /.test(l) || /^\S/.test(l));
    expect(heads(quiet.out).map((l) => l.replace(dir, 'DIR').replace(/ {2}\(.*$/, ''))).toEqual([
      'DIR/logs/deadlines.cborseq',
      '  #6  agdx.envelope  chunk  01HZ7PJ43C000000000000T009  booker → planner  · agent.message  · AGDX 0.0.1',
      '  #7  agdx.envelope  response  01HZ7PJ58W000000000000T004  booker → planner  · agent.message  · AGDX 0.0.1',
      'DIR/pixel.png',
      // agent_event.bin has no problem; the signed command repeats its record id.
      'DIR/vectors/signed_command.bin',
      '  #0  agdx.envelope  command  01J0Y1ZAG00000000000000001  source-agent → target-agent  · model.request  · AGDX 0.0.1',
      lastLine(all.out),
    ]);
    expect(heads(all.out).length).toBeGreaterThan(heads(quiet.out).length + 8);
    expect(lastLine(quiet.out)).toBe(lastLine(all.out));
  });

  it('messages name other records by their file, not by the input number', async () => {
    const { out } = await cli('inspect', join(dir, 'logs/deadlines.cborseq'));
    expect(out).toContain(`this response answers command record 01HZ7PJ0W8000000000000T001 (${dir}/logs/deadlines.cborseq #0) 2.5 s after its deadline`);
    expect(out).not.toMatch(/\binput \d+, index \d+/);
  });
});

describe('--format github', () => {
  it('one workflow annotation per finding and decode error, with the file and the record offset, then the summary', async () => {
    const { code, out } = await cli('inspect', '--format', 'github', '--keys', KEYS, dir);
    expect(code).toBe(1);
    // Each line ends in a line break, the last too (as the JSON report's text does).
    const lines = out.trimEnd().split('\n');
    const f = (p: string) => `${dir}/${p}`;
    expect(lines).toContain(
      `::error file=${f('pixel.png')},title=input/unrecognized::record #0 at byte 0: input/unrecognized (bytes 0–1): a PNG image, not an agent record`,
    );
    expect(lines).toContain(
      `::warning file=${f('logs/deadlines.cborseq')},title=agdx/graph/stream-gap::record #6 at byte 1112: agdx/graph/stream-gap (sequence, bytes 1270–1271): the stream of channel 01J0Y1…0079 (correlation 01J0Y1…0071) misses sequence 2 before this chunk: a reader ends the stream at the gap (terminal gap) and drops every chunk and error after it`,
    );
    expect(lines.filter((l) => l.startsWith('::warning '))).toHaveLength(3);
    expect(lines.filter((l) => l.startsWith('::error file='))).toHaveLength(1);
    // Infos are notices.
    expect(lines.filter((l) => l.startsWith('::notice ') && l.includes('title=agdx/deadline/unanswered'))).toHaveLength(2);
    expect(lines.at(-1)).toBe(
      '::error title=envelope-inspector::14 records in 4 inputs (1 unreadable): 14 valid, 0 invalid or undecoded, 0 badly signed, 13 untrusted; 0 errors, 3 warnings',
    );
  });

  it('escapes what would end a workflow command: %, line breaks, and in the file name : and ,', async () => {
    const odd = join(dir, 'a,b:c%.png');
    copyFileSync(vector('files/pixel.png'), odd);
    const { out } = await cli('inspect', '--format', 'github', odd);
    expect(out.split('\n')[0]).toBe(
      `::error file=${dir.replace(/:/g, '%3A')}/a%2Cb%3Ac%25.png,title=input/unrecognized::record #0 at byte 0: input/unrecognized (bytes 0–1): a PNG image, not an agent record`,
    );
  });

  it('a badly signed record with no finding gets an annotation: the gate never fails silently', async () => {
    const { code, out } = await cli('inspect', '--format', 'github', '--keys', KEYS, vector('agdx/made/signed_by_other_agent.bin'), '--fail-on', 'untrusted');
    expect(code).toBe(1);
    expect(out).toMatch(/^::error file=[^,]+,title=untrusted::record #0 at byte 0: untrusted \(signature\): not trusted: valid under key /m);
  });
});

describe('--format markdown', () => {
  it("is the app's summary, with the same counts, inputs named by file and escaped only where Markdown needs it", async () => {
    const { out } = await cli('inspect', '--format', 'markdown', join(dir, 'logs/deadlines.cborseq'));
    expect(out).toMatch(/^# Envelope Inspector report/);
    expect(out).toContain('12 records in 1 input: 12 valid, 0 invalid or undecoded, 0 badly signed, 12 untrusted; 0 errors, 2 warnings.');
    expect(out).toContain('| 0 | ');
    // The format name as it is: no \- \( \= \. inside it.
    expect(out).toContain('| cbor-seq |');
    expect(out).not.toMatch(/\\[-(.=]/);
  });
});

describe('--version and -h on every subcommand', () => {
  it('--version, anywhere it is asked', async () => {
    for (const argv of [['--version'], ['-V'], ['inspect', '--version']]) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.out).toBe('envelope-inspector 0.1.0');
    }
  });

  it('-h and --help: the top level, inspect and explain, exit 0 on standard output', async () => {
    for (const argv of [['-h'], ['--help'], ['inspect', '-h'], ['inspect', '--help'], ['inspect', dir, '-h']]) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.out).toMatch(/^usage: envelope-inspector inspect \[OPTION\]\.\.\. FILE\.\.\./);
      for (const option of ['--fail-on', '--quiet', '--format', '--ext', '--version', '--require-trusted', '--keys']) expect(r.out).toContain(option);
      expect(r.err).toEqual([]);
    }
    for (const argv of [
      ['explain', '-h'],
      ['explain', '--help'],
    ]) {
      const r = await cli(...argv);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^usage: envelope-inspector explain RULE/);
    }
  });
});

describe('the real bin', () => {
  it('over the directory: the exit status and the summary line', () => {
    const bin = (...args: string[]) => spawnSync('node', ['bin/envelope-inspector.mjs', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    const gate = bin('inspect', '--quiet', '--fail-on', 'warning', '--ext', 'bin,cborseq', '--keys', KEYS, dir);
    expect(gate.status).toBe(1);
    expect(lastLine(gate.stdout)).toBe('14 records in 3 inputs: 14 valid, 0 invalid or undecoded, 0 badly signed, 13 untrusted; 0 errors, 3 warnings');
    expect(bin('inspect', '--ext', 'bin,cborseq', dir).status).toBe(0);
    expect(bin('--version').stdout.trim()).toBe('envelope-inspector 0.1.0');
  }, 60_000);
});
