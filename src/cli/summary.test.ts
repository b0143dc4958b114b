// The readable summaries made from the streamed report (stream.ts, summary.ts writeSummary and
// writeGithub, core/report-markdown.ts writeMarkdown) are the ones made from the whole report
// (core/report.ts reportPartsOf, as the page makes it), character for character, with the same exit status: over every
// vector alone and all together, with keys, --quiet and the policies, read whole and in windows.
// (Before the CLI's whole path was removed, this compared with its formatters, formatSummary,
// formatGithub and the previous reportToMarkdown, over the same cases: the same text.)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agdxSequence } from '../../test/support/generate';
import { concatBytes } from '../core/bytes';
import { inspect } from '../core/inspect';
import { parseKeys, type RegistryEntry } from '../core/keys/keys';
import { buildReport, type ExitPolicy, exitStatus, type ReportParts, reportPartsOf } from '../core/report';
import { writeMarkdown } from '../core/report-markdown';
import { streamReport, type RandomAccessFile, type StreamInput } from './stream';
import { LineOut, writeGithub, writeSummary } from './summary';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir))
    .flatMap((f) => (statSync(join(ROOT, dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]))
    .filter((f) => !/(ORIGIN\.md|LICENSE|NOTICE)$/.test(f))
    .sort();
}

const VECTORS = files('vectors');
const read = (f: string) => new Uint8Array(readFileSync(join(ROOT, f)));
const NO_KEYS = parseKeys(new Uint8Array()).keys;

type Format = 'text' | 'github' | 'markdown';
const FORMATS: Format[] = ['text', 'github', 'markdown'];

interface Case {
  keys?: readonly RegistryEntry[];
  quiet?: boolean;
  policy?: ExitPolicy;
  window?: number;
}

/** A summary of the parts, into `out`. */
function write(parts: ReportParts, format: Format, out: LineOut, c: Case) {
  const options = { quiet: c.quiet, policy: c.policy ?? {} };
  if (format === 'github') writeGithub(parts, out, options);
  else if (format === 'markdown') writeMarkdown(parts, (l) => out.line(l), options);
  else writeSummary(parts, out, options);
}

/** The summary of the whole report, as the command line made it before it streamed. */
function whole(inputs: { name: string; bytes: Uint8Array }[], format: Format, c: Case = {}) {
  const held = inspect(inputs, { keys: c.keys ?? NO_KEYS, detail: false });
  let text = '';
  const utf8 = new TextDecoder();
  const out = new LineOut((b) => (text += utf8.decode(b, { stream: true })));
  write(reportPartsOf(held), format, out, c);
  out.end();
  return { text, status: exitStatus(buildReport(held), c.policy) };
}

/** The summary the command line writes: from the streamed report, in small blocks. */
function streamed(inputs: StreamInput[], format: Format, c: Case = {}) {
  let text = '';
  let blocks = 0;
  const utf8 = new TextDecoder();
  const out = new LineOut((b) => {
    blocks++;
    text += utf8.decode(b, { stream: true });
  }, 512);
  const status = streamReport(inputs, { keys: c.keys ?? NO_KEYS, ...c.policy, window: c.window }, (parts) => write(parts, format, out, c));
  out.end();
  return { text, status, blocks };
}

function memoryFile(bytes: Uint8Array): RandomAccessFile {
  return {
    size: bytes.length,
    read(buffer, offset, length, position) {
      const n = Math.min(length, bytes.length - position);
      buffer.set(bytes.subarray(position, position + n), offset);
      return n;
    },
    close() {},
  };
}

const same = (inputs: { name: string; bytes: Uint8Array }[], format: Format, c: Case = {}, label = '') =>
  expect(streamed(inputs, format, c), `${format} ${label}`).toMatchObject(whole(inputs, format, c));

describe('the streamed readable summaries', () => {
  it('write what the whole report wrote, for every vector alone, in every format, quiet or not', () => {
    expect(VECTORS.length).toBeGreaterThan(100);
    for (const f of VECTORS) {
      const input = [{ name: f, bytes: read(f) }];
      for (const format of FORMATS) {
        same(input, format, {}, f);
        same(input, format, { quiet: true }, `${f} --quiet`);
      }
    }
  }, 120_000);

  it('write the same for many inputs together (unreadable ones among them), with the policies', () => {
    const all = VECTORS.filter((f) => !f.endsWith('keys.json')).map((f) => ({ name: f, bytes: read(f) }));
    const few = ['vectors/files/pixel.png', 'vectors/agdx/made/deadlines.cborseq', 'vectors/agdx/laser-wire-0.0.1/agent_dead_letter.bin']
      .concat(VECTORS.filter((f) => f.startsWith(join('vectors', 'agentdna'))).slice(0, 3))
      .map((f) => ({ name: f, bytes: read(f) }));
    // An empty input (no record) and one unreadable input between readable ones.
    const mixed = [few[1], { name: 'empty.bin', bytes: new Uint8Array(0) }, few[0], few[2], few[0]];
    const policies: ExitPolicy[] = [{}, { failOn: 'warning' }, { failOn: 'untrusted' }, { requireTrusted: true }];
    for (const format of FORMATS) {
      for (const inputs of [all, few, mixed]) {
        same(inputs, format, {}, `${inputs.length} inputs`);
        same(inputs, format, { quiet: true }, `${inputs.length} inputs --quiet`);
      }
      for (const policy of policies) {
        same(few, format, { policy }, JSON.stringify(policy));
        same(mixed, format, { policy, quiet: true }, `${JSON.stringify(policy)} --quiet`);
      }
      same([], format, { policy: { failOn: 'untrusted' } }, 'no input');
    }
  }, 120_000);

  it('write the same with keys (trusted, untrusted, revoked)', () => {
    const keys = parseKeys(read('vectors/agdx/made/keys.json')).keys;
    const inputs = files('vectors/agdx/made').map((f) => ({ name: f, bytes: read(f) }));
    for (const format of FORMATS) {
      same(inputs, format, { keys }, 'keys');
      same(inputs, format, { keys, quiet: true, policy: { failOn: 'untrusted' } }, 'keys --quiet --fail-on untrusted');
    }
  });

  it('write the same with a CBOR sequence read in windows (log-level findings on earlier records, a malformed tail)', () => {
    const seq = agdxSequence(400, { perConversation: 7, seed: 9, signedEvery: 3 });
    for (const tail of [new Uint8Array(0), Uint8Array.of(0xa3, 0x01)]) {
      const bytes = concatBytes(read('vectors/agdx/made/conversation.cborseq'), seq, tail);
      for (const format of FORMATS) {
        const expected = whole([{ name: 'seq', bytes }], format);
        for (const window of [300, 1 << 14]) {
          const got = streamed([{ name: 'seq', file: memoryFile(bytes) }], format, { window });
          expect(got, `${format} window ${window}`).toMatchObject(expected);
        }
        expect(streamed([{ name: 'seq', bytes }], format, { quiet: true })).toMatchObject(whole([{ name: 'seq', bytes }], format, { quiet: true }));
      }
    }
    // The log-level findings are on the records (else this would prove little).
    expect(whole([{ name: 'seq', bytes: seq }], 'text').text).toMatch(/agdx\/(deadline|graph)\//);
  }, 60_000);

  it('hand on the text line by line as it is made, not once at the end', () => {
    const bytes = agdxSequence(200);
    const got = streamed([{ name: 'seq', bytes }], 'text');
    expect(got.blocks).toBeGreaterThan(10);
  });
});

describe('LineOut', () => {
  it('hands on whole lines as UTF-8, text past ASCII and lines longer than a block included', () => {
    const lines = ['plain', 'ünï → 😀 mixed', '', 'x'.repeat(2000), `tail ${'é'.repeat(300)}`, 'lone \ud800 surrogate'];
    for (const blockSize of [1, 16, 1 << 20]) {
      const blocks: string[] = [];
      const out = new LineOut((b) => blocks.push(Buffer.from(b).toString('utf8')), blockSize);
      for (const l of lines) out.line(l);
      out.end();
      expect(blocks.join('')).toBe(`${lines.map((l) => l.replace('\ud800', '\ufffd')).join('\n')}\n`);
      for (const b of blocks) expect(b.endsWith('\n')).toBe(true);
    }
  });
});
