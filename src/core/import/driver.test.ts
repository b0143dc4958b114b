// The driver: which importer reads which input (the order of IMPORTERS, pinned over every vector),
// text wrappers re-entering it, a failure staying with its input, batches giving what the whole
// gives; and, under hostile input (truncation at every length, random and mutated bytes), records
// and never a throw, every failure with a decode error code from report.md.
import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inspectInput, inspectInputBatches } from '../inspect';
import type { InspectedRecord } from '../records';
import { buildReport } from '../report';
import { failedRecord, finishRecord } from './build';
import { cbor } from './cbor';
import { IMPORTERS, importBatches } from './driver';
import { agdxJson } from './agdx-json';
import { agentdna } from './agentdna';
import { iggyHeaders } from './iggy-headers';
import type { Importer } from './importer';
import { FIXTURE_FORMATS, VECTORS, checkRecords, flat, formatOf, sourceOf, utf8, vector, vectorFiles } from '../../../test/support/import-helpers';

const place = (bytes: Uint8Array) => ({ input: 0, view: bytes, viewOrigin: 'input' as const });

describe('dispatch', () => {
  it('asks the importers in this order: text (JSON by shape, diagnostic notation, hex, base64), then binary, fallbacks last', () => {
    expect(IMPORTERS.map((i) => i.format)).toEqual([
      'empty',
      'iggy-json',
      'agdx-json',
      'agentdna',
      'diag',
      'json',
      'hex',
      'base64',
      'text',
      'iggy-headers',
      'file',
      'cbor',
      'unknown',
    ]);
  });

  it('reads every vector with the importer the table names, and the table names every vector', () => {
    expect(vectorFiles().sort()).toEqual(Object.keys(FIXTURE_FORMATS).sort());
    const got = Object.fromEntries(
      Object.keys(FIXTURE_FORMATS).map((file) => [file, inspectInput(0, { name: file, bytes: vector(file) }, undefined, false).input.format]),
    );
    expect(got).toEqual(FIXTURE_FORMATS);
  });

  it("every vector's format belongs to exactly one importer, and every importer but `empty` reads a vector", () => {
    for (const [file, format] of Object.entries(FIXTURE_FORMATS)) {
      expect(
        IMPORTERS.filter((i) => formatOf(i, format)).map((i) => i.format),
        file,
      ).toHaveLength(1);
    }
    const reached = new Set(Object.values(FIXTURE_FORMATS).flatMap((format) => IMPORTERS.filter((i) => formatOf(i, format)).map((i) => i.format)));
    expect(IMPORTERS.map((i) => i.format).filter((f) => !reached.has(f))).toEqual(['empty']);
  });

  it('an Iggy header block goes to iggy-headers although CBOR would read the same bytes', () => {
    const bytes = vector('hostile/body-ref-javascript-url-headers.bin');
    expect(cbor.detect(sourceOf(bytes))).not.toBeNull();
    expect(iggyHeaders.detect(sourceOf(bytes))).not.toBeNull();
    expect(inspectInput(0, { name: 'block', bytes }).input.format).toBe('iggy-headers(>=0.7)');
  });

  it('JSON with messages is an Iggy export before an envelope view; an envelope view before AgentDNA', () => {
    const exportAndView = utf8(JSON.stringify({ messages: [], kind: 'command' }));
    expect(agdxJson.detect(sourceOf(exportAndView))).not.toBeNull();
    expect(inspectInput(0, { name: 'x', bytes: exportAndView }).input.format).toBe('iggy-json(empty)');
    const viewAndEnvelope = utf8(JSON.stringify({ kind: 'command', conversation: 'c', source: 's', from: 'a', payload: 'p', epoch: 1 }));
    expect(agentdna.detect(sourceOf(viewAndEnvelope))).not.toBeNull();
    expect(inspectInput(0, { name: 'x', bytes: viewAndEnvelope }).input.format).toBe('agdx-json');
  });

  it('a read that declines hands the input to the next importer', () => {
    const declines: Importer<true> = { format: 'declines', detect: () => true, read: () => null };
    const reads: Importer<true> = {
      format: 'reads',
      detect: () => true,
      read: (source) => ({
        format: 'reads',
        records: [finishRecord(failedRecord(source.place, 0, 'unknown', null, { code: 'input/unrecognized', message: 'read', offset: 0 }))],
        workflows: [],
      }),
    };
    const batches = [...importBatches(place(utf8('x')), { detail: false }, 10, [declines, reads])];
    expect(batches.map((b) => [b.format, b.records.map((r) => r.verdict.error?.message)])).toEqual([['reads', ['read']]]);
  });
});

describe('text wrappers re-enter the driver', () => {
  const command = vector('agdx/laser-wire-0.0.1/agent_command.bin');
  const hexOf = (b: Uint8Array) => utf8(Buffer.from(b).toString('hex'));
  const base64Of = (b: Uint8Array) => utf8(Buffer.from(b).toString('base64'));

  it('two wrappers deep, in any order', () => {
    for (const [bytes, format] of [
      [hexOf(base64Of(command)), 'hex(base64(cbor))'],
      [hexOf(hexOf(command)), 'hex(hex(cbor))'],
      [base64Of(hexOf(command)), 'base64(hex(cbor))'],
      [hexOf(vector('agdx/made/command.json')), 'hex(agdx-json)'],
    ] as const) {
      const { input, records } = inspectInput(0, { name: format, bytes });
      expect(input.format).toBe(format);
      expect(records.map(({ verdict: r }) => [r.format, r.kind, r.decoded])).toEqual([['agdx.envelope', 'command', true]]);
    }
  });

  it('no deeper: three wrappers are text that is nothing known', () => {
    for (const bytes of [hexOf(hexOf(hexOf(command))), base64Of(base64Of(base64Of(command)))]) {
      const { input, records } = inspectInput(0, { name: 'deep', bytes });
      expect(input.format).toBe('text');
      expect(records.map((r) => r.verdict.error?.code)).toEqual(['input/unrecognized']);
    }
  });

  it('hex (and base64) that decodes to nothing known is left to the next importer, and finally read as text', () => {
    const { input, records } = inspectInput(0, { name: 'deadbeef', bytes: utf8('deadbeef') });
    expect(input.format).toBe('text');
    expect(flat(records[0])).toMatchObject({ format: 'unknown', viewOrigin: 'input', error: { code: 'input/unrecognized' } });
  });
});

describe('a failure stays with its input', () => {
  const one = (index: number, message: string) =>
    finishRecord(failedRecord(place(utf8('ab')), index, 'unknown', null, { code: 'input/unrecognized', message, offset: 0 }));
  const streams: Importer<true> = {
    format: 'streams',
    detect: () => true,
    read: () => null,
    *batches() {
      yield { records: [one(0, 'first')], workflows: [], end: 1, format: null };
      throw new Error('a bug while streaming');
    },
  };

  it('a throw mid-stream keeps the batches before it; the failure is a record of its own, the input unknown', () => {
    const batches = [...importBatches(place(utf8('ab')), { detail: false }, 1, [streams])];
    expect(batches.map((b) => [b.format, b.end, b.records.map(({ verdict: r }) => [r.index, r.error?.message, r.error?.offset])])).toEqual([
      [null, 1, [[0, 'first', 0]]],
      ['unknown', 2, [[1, 'internal error while reading this input: a bug while streaming', 1]]],
    ]);
  });

  it("a throw before any record is the input's only record", () => {
    const throws: Importer<true> = {
      format: 'throws',
      detect: () => {
        throw new Error('a bug while detecting');
      },
      read: () => null,
    };
    const [batch, ...rest] = [...importBatches(place(utf8('ab')), { detail: false }, 1, [throws])];
    expect(rest).toEqual([]);
    expect(batch.format).toBe('unknown');
    expect(batch.records.map(({ verdict: r }) => [r.index, r.error?.message, r.error?.offset])).toEqual([
      [0, 'internal error while reading this input: a bug while detecting', null],
    ]);
  });

  it('a list without a fallback is a failure of that input, not a throw', () => {
    const [batch] = [...importBatches(place(utf8('ab')), { detail: false }, 1, [cbor])];
    expect(batch.records[0].verdict.error?.message).toMatch(/no importer claims this input/);
  });

  it('misuse throws TypeError', () => {
    expect(() => [...importBatches(place([1, 2] as unknown as Uint8Array), { detail: false }, 1)]).toThrow(TypeError);
    expect(() => [...importBatches(place(utf8('x')), { detail: false }, 0)]).toThrow(TypeError);
  });
});

describe('batches give what the whole gives', () => {
  /** What a record says, with the views it is rebuilt with when opened. */
  const said = (r: InspectedRecord) => ({ ...flat(r), view: r.data.view.length });
  const files = Object.keys(FIXTURE_FORMATS).filter((f) => vector(f).length < 300_000);

  it.each([1, 3, 1000])('every vector in batches of %i: the same records, workflows and input summary', (size) => {
    for (const file of files) {
      const bytes = vector(file);
      const whole = inspectInput(0, { name: file, bytes }, undefined, false);
      const batches = [...inspectInputBatches(0, { name: file, bytes }, undefined, size)];
      expect(
        batches.slice(0, -1).every((b) => b.input === null),
        file,
      ).toBe(true);
      expect(batches.at(-1)!.input, file).toEqual(whole.input);
      expect(batches.at(-1)!.bytesDone, file).toBe(bytes.length);
      const records = batches.flatMap((b) => b.records);
      expect(records.map(said), file).toEqual(whole.records.map(said));
      let base = 0;
      const workflows = batches.flatMap((b) => {
        const out = b.workflows.map((w) => ({ ...w, record: w.record + base }));
        base += b.records.length;
        return out;
      });
      expect(workflows, file).toEqual(whole.workflows);
    }
  });

  it('the records built in bulk, opened, are the records built with their views', () => {
    for (const file of files) {
      const bytes = vector(file);
      const bulk = inspectInput(0, { name: file, bytes }, undefined, false).records.map(said);
      const detail = inspectInput(0, { name: file, bytes }, undefined, true).records.map(said);
      expect(bulk, file).toEqual(detail);
    }
  });
});

// The fixtures hostile input starts from (not their ORIGIN, LICENSE and NOTICE).
const AGDX_FIXTURES: string[] = ['laser-wire-0.0.1/', 'iggy/', 'made/'].flatMap((dir) =>
  readdirSync(`${VECTORS}/agdx/${dir}`)
    .filter((f) => !/^(ORIGIN\.md|LICENSE|NOTICE)$/.test(f))
    .map((f) => `agdx/${dir}${f}`),
);

/** A fixture is cut at every length below this, */
const EVERY_BELOW = 4096;
/** past it at every this-many-th (a prime, so the cuts fall at every offset of its repeated structures), */
const STRIDE = 7;
/** and at each of its last this-many lengths. */
const LAST = 64;

/**
 * Where a fixture is cut. Cutting is quadratic in the size: the two 14–16 KB Iggy exports cut at
 * every length took 39 s of the unit suite, each cut read to its end by the JSON and the
 * diagnostic-notation readers.
 */
function truncationLengths(size: number): number[] {
  const out: number[] = [];
  for (let n = 0; n < size; n++) if (n < EVERY_BELOW || n >= size - LAST || (n - EVERY_BELOW) % STRIDE === 0) out.push(n);
  return out;
}

describe('truncation', () => {
  it('the cuts: every length of a fixture up to 4 KiB, then every 7th and the last 64', () => {
    expect(truncationLengths(5)).toEqual([0, 1, 2, 3, 4]);
    const cuts = truncationLengths(4096 + 100);
    expect(cuts.slice(4094, 4100)).toEqual([4094, 4095, 4096, 4103, 4110, 4117]);
    expect(cuts.slice(-65)).toEqual([4096 + 35, ...Array.from({ length: 64 }, (_, i) => 4096 + 36 + i)]);
  });

  it.each(AGDX_FIXTURES)('%s truncated at every length never throws (past 4 KiB, every 7th)', { timeout: 60_000 }, (file) => {
    const bytes = vector(file);
    for (const n of truncationLengths(bytes.length)) {
      const cut = bytes.slice(0, n);
      let records: InspectedRecord[] = [];
      expect(() => ({ records } = inspectInput(0, { name: file, bytes: cut }))).not.toThrow();
      checkRecords(records, n, `${file}[0, ${n})`);
    }
  });
});

describe('random and mutated bytes', () => {
  const everything = AGDX_FIXTURES.map(vector);

  it('random bytes never throw; undecoded records carry a report.md code (2000 runs)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 300 }), (bytes) => {
        const { records } = inspectInput(0, { name: 'random', bytes });
        checkRecords(records, bytes.length, 'random');
        // The report serialises (bigints are written as strings).
        JSON.stringify(buildReport({ inputs: [], records }));
      }),
      { numRuns: 2000, seed: 20260130 },
    );
  });

  it('random bytes behind an envelope-like map head never throw (2000 runs)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0xa0, max: 0xbf }), fc.uint8Array({ maxLength: 200 }), (head, rest) => {
        const bytes = new Uint8Array([head, ...rest]);
        const { records } = inspectInput(0, { name: 'random', bytes });
        checkRecords(records, bytes.length, 'map-like');
      }),
      { numRuns: 2000, seed: 7 },
    );
  });

  it('fixtures with a few bytes changed, inserted or removed never throw (3000 runs)', () => {
    const edit = fc.record({
      file: fc.nat({ max: everything.length - 1 }),
      ops: fc.array(fc.tuple(fc.constantFrom('set', 'insert', 'delete'), fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
    });
    fc.assert(
      fc.property(edit, ({ file, ops }) => {
        const bytes = Array.from(everything[file]);
        for (const [op, pos, value] of ops) {
          const at = bytes.length ? pos % bytes.length : 0;
          if (op === 'set' && bytes.length) bytes[at] = value;
          else if (op === 'insert') bytes.splice(at, 0, value);
          else bytes.splice(at, 1);
        }
        const input = new Uint8Array(bytes);
        const { records } = inspectInput(0, { name: AGDX_FIXTURES[file], bytes: input });
        checkRecords(records, input.length, AGDX_FIXTURES[file]);
        JSON.stringify(buildReport({ inputs: [], records }));
      }),
      { numRuns: 3000, seed: 424242 },
    );
  });
});
