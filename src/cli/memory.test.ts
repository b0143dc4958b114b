// Memory bounded per input byte (issue 23): the built command line's peak RSS on inputs made of
// tiny records, as a user runs it. Before, a 1 MB file of one-byte records took 953 MB, and a 4 MB
// workflow of 500,000 parents 1,346 MB. A bound in bytes, not a time: the machines are shared.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ei-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Loaded before the command line: its peak resident set, in KiB, on stderr as it exits.
const PEAK = join(dir, 'peak.cjs');
writeFileSync(PEAK, "process.on('exit', () => process.stderr.write('\\npeak-rss-kib ' + process.resourceUsage().maxRSS + '\\n'));\n");

/** Runs `inspect ARGS FILE` with the report sent nowhere; its exit status and peak RSS in MB. */
function peakOf(args: string[], file: string): { status: number | null; mb: number } {
  const run = spawnSync('node', ['--require', PEAK, 'bin/envelope-inspector.mjs', 'inspect', ...args, file], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    timeout: 300_000,
  });
  const kib = /peak-rss-kib (\d+)/.exec(run.stderr ?? '');
  if (!kib) throw new Error(`no peak reported (status ${run.status}, signal ${run.signal}): ${run.stderr?.slice(-400)}`);
  return { status: run.status, mb: Number(kib[1]) / 1024 };
}

describe('the command line holds memory bounded per input byte', () => {
  it('a 4 MB workflow whose tip has 500,000 parents: under 600 MB', () => {
    const file = join(dir, 'wide.json');
    // `{"a":1}` and a comma: 8 bytes a parent, 4,000,061 bytes in all.
    writeFileSync(file, JSON.stringify({ envelope: { from: 'tip', payload: 'x', parent_envelope: Array(500_000).fill({ a: 1 }) } }));
    const { status, mb } = peakOf(['--json'], file);
    expect(status).toBe(1); // read whole, and invalid: its parents are no envelopes
    expect(mb).toBeLessThan(600);
  }, 320_000);

  it('a 1 MB file of one-byte records (1,048,576 empty maps): under 300 MB', () => {
    const file = join(dir, 'a0.bin');
    writeFileSync(file, new Uint8Array(1 << 20).fill(0xa0));
    const { status, mb } = peakOf(['--json'], file);
    expect(status).toBe(1);
    expect(mb).toBeLessThan(300);
  }, 320_000);
});
