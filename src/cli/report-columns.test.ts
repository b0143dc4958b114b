// A clean input written from the first pass's columns (report-columns.ts) is the report that
// reading and judging its records again writes, and the report of the records held whole.
import { describe, expect, it } from 'vitest';
import { memoryFile } from '../../test/support/memory-file';
import { BENCH_SEED, agdxSequence } from '../../test/support/generate';
import { keyFor } from '../../test/support/agdx-gen';
import { hops } from '../../test/support/graph-helpers';
import { command } from '../../test/support/dialect-helpers';
import { encodeEnvelope } from '../core/agdx/canonical';
import type { Envelope } from '../core/agdx/envelope';
import { concatBytes } from '../core/bytes';
import { inspect, inspectInputBatches } from '../core/inspect';
import type { RegistryEntry } from '../core/keys/keys';
import { buildReport } from '../core/report';
import { JsonWriter } from '../core/report-json';
import { ReportColumns } from './report-columns';
import { streamReport } from './stream';

function streamed(inputs: { name: string; bytes: Uint8Array }[], reread: boolean, keys: readonly RegistryEntry[] = [], window = 4096) {
  const files = inputs.map(({ name, bytes }) => ({ name, file: memoryFile(bytes) }));
  const text = new TextDecoder();
  let out = '';
  const writer = new JsonWriter((b) => (out += text.decode(b, { stream: true })));
  const status = streamReport(files, { keys, reread, window }, writer);
  writer.end();
  return { text: out + text.decode(), status, relativeReads: files.map((f) => f.file.relative) };
}

function whole(inputs: { name: string; bytes: Uint8Array }[], keys: readonly RegistryEntry[] = []) {
  return JSON.stringify(buildReport(inspect(inputs, { keys, detail: false })), null, 2);
}

/** Whether the first pass finds every record of the input clean. */
function isClean(bytes: Uint8Array, keys: readonly RegistryEntry[] = []): boolean {
  const columns = new ReportColumns();
  columns.begin(0, true, 0, 0);
  for (const batch of inspectInputBatches(0, { name: 'x', bytes }, keys, 100)) for (const r of batch.records) columns.add(r, r.data.envelope !== null);
  return columns.end() && columns.clean(0) !== undefined;
}

const env = (n: number, extra: Partial<Envelope> = {}) => encodeEnvelope(command({ record: idOf(n), ...extra }));
function idOf(n: number): Uint8Array {
  const b = new Uint8Array(16);
  // ULID-like: a time in the first 48 bits, so records have times.
  new DataView(b.buffer).setUint32(2, 1_717_171_717 + n);
  b[15] = n;
  return b;
}

describe('a clean input written from its columns', () => {
  it('is what reading it again writes, in either dialect, with log findings to locate', () => {
    for (const dialect of ['0.0.1', '0.7'] as const) {
      const bytes = agdxSequence(600, { dialect, perConversation: 40, seed: 3, signedEvery: 4 });
      expect(isClean(bytes), dialect).toBe(true);
      const inputs = [{ name: `${dialect}.cborseq`, bytes }];
      const expected = whole(inputs);
      // Findings of the log's to locate (streams, clocks, deadlines), or the test shows little.
      expect((expected.match(/"rule": "agdx\/(graph|deadline)\//g) ?? []).length, dialect).toBeGreaterThan(20);
      for (const window of [64, 4096]) {
        const fromColumns = streamed(inputs, false, [], window);
        expect(fromColumns.text, `${dialect}, window ${window}`).toBe(expected);
        // The second pass read into its own buffer, not a view of the input's length: the columns' way.
        expect(fromColumns.relativeReads[0]).toBeGreaterThan(0);
        const again = streamed(inputs, true, [], window);
        expect(again.text).toBe(expected);
        expect(again.relativeReads[0]).toBe(0);
        expect(fromColumns.status).toBe(again.status);
      }
    }
  });

  it('keeps records up to 4 MiB in its columns; an input with a longer one is read again, and the report is the same', () => {
    // A record's length shares 32 bits with its shape's number (report-columns.ts pack).
    const sized = (length: number) => {
      const head = env(2, { body: new Uint8Array(0) }).length;
      // The body's own head grows by 4 bytes past 65,535: sized from a first try.
      let body = length - head;
      const first = env(2, { body: new Uint8Array(body) });
      body -= first.length - length;
      const out = env(2, { body: new Uint8Array(body).fill(0x61) });
      expect(out.length).toBe(length);
      return out;
    };
    for (const [length, clean] of [
      [2 ** 22 - 1, true],
      [2 ** 22, false],
    ] as const) {
      const bytes = concatBytes(env(1), sized(length), env(3));
      expect(isClean(bytes), `a record of ${length} bytes`).toBe(clean);
      const inputs = [{ name: 'large.cborseq', bytes }];
      expect(streamed(inputs, false, [], 1 << 20).text).toBe(whole(inputs));
    }
  });

  it('is the same with keys: the signatures as the keys judged them in the first pass', () => {
    const bytes = agdxSequence(300, { seed: 5, signedEvery: 2 });
    const keys = [keyFor(BENCH_SEED, 'agent-0'), keyFor(BENCH_SEED, 'agent-1')];
    expect(isClean(bytes, keys)).toBe(true);
    const inputs = [{ name: 'signed.cborseq', bytes }];
    const expected = whole(inputs, keys);
    expect(expected).toContain('"status": "valid"');
    expect(streamed(inputs, false, keys).text).toBe(expected);
  });

  it('locates a finding inside a field (a bridge loop in metadata) by reading that record again whole', () => {
    const bytes = concatBytes(env(1), env(2, { metadata: hops('bridge-a', 'bridge-b', 'bridge-a') }), env(3));
    expect(isClean(bytes)).toBe(true);
    const inputs = [{ name: 'loop.cborseq', bytes }];
    const expected = whole(inputs);
    expect(expected).toContain('"path": "metadata.bridge_hops"');
    for (const window of [8, 4096]) expect(streamed(inputs, false, [], window).text, `window ${window}`).toBe(expected);
  });

  it('is not taken for an input with a record that has findings of its own: that input is read again, the others not', () => {
    const bad = concatBytes(env(1), Uint8Array.of(0xa1, 0x61, 0x78, 0x01), env(3));
    expect(isClean(bad)).toBe(false);
    const good = agdxSequence(100, { seed: 8, first: 1000 });
    const inputs = [
      { name: 'bad.cborseq', bytes: bad },
      { name: 'good.cborseq', bytes: good },
    ];
    const fromColumns = streamed(inputs, false);
    expect(fromColumns.text).toBe(whole(inputs));
    expect(fromColumns.relativeReads[0]).toBe(0);
    expect(fromColumns.status).toBe(1);
  });
});
