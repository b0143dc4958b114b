// How often the expensive steps run: the record-level graph is built once per load and the folds
// run once per load (and again per key change, which leaves the graph as it is); drawing, the
// report and the page's Graph requests reuse them. Counted by wrapping the two builders.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { agdxSequence } from '../test/support/generate';
import { run, type CliIo } from './cli/main';
import { parseKeys } from './core/keys/keys';
import { InspectorSession } from './worker/session';

const counts = vi.hoisted(() => ({ graph: 0, folds: 0 }));

vi.mock('./core/graph/record-graph', async (importOriginal) => {
  const real = await importOriginal<typeof import('./core/graph/record-graph')>();
  return {
    ...real,
    buildCompactRecordGraph: (...args: Parameters<typeof real.buildCompactRecordGraph>) => (counts.graph++, real.buildCompactRecordGraph(...args)),
  };
});
vi.mock('./core/folds/fold', async (importOriginal) => {
  const real = await importOriginal<typeof import('./core/folds/fold')>();
  return { ...real, foldPrepared: (...args: Parameters<typeof real.foldPrepared>) => (counts.folds++, real.foldPrepared(...args)) };
});

const root = resolve(__dirname, '..');
const read = (p: string) => new Uint8Array(readFileSync(resolve(root, p)));
// A log with streams, cause chains and correlation pairs, and an export whose folds find something.
const log = new Uint8Array(agdxSequence(3_000));
const registryLog = 'vectors/agdx/made/registry_log_http_v07.json';
const keys = () => parseKeys(read('vectors/agdx/made/keys.json')).keys;

beforeEach(() => {
  counts.graph = 0;
  counts.folds = 0;
});

describe('the command line', () => {
  it('builds the graph once and folds once for a whole run, report included', async () => {
    let out = '';
    const io: CliIo = {
      readFile: async (p) => (p === 'log.cborseq' ? log : read(p)),
      readStdin: async () => new Uint8Array(),
      stdout: (t) => (out += t),
      stderr: () => {},
    };
    await run(['inspect', '--json', '--keys', 'vectors/agdx/made/keys.json', 'log.cborseq', registryLog], io);
    const report = JSON.parse(out);
    // The run did go through both: a graph with streams, folds with findings.
    expect(report.graph.streams.length).toBeGreaterThan(10);
    expect(report.records.some((r: { findings: { rule: string }[] }) => r.findings.some((f) => f.rule.startsWith('agdx/fold/')))).toBe(true);
    expect(counts).toEqual({ graph: 1, folds: 1 });
  });

  it('and once for the readable summary', async () => {
    const io: CliIo = { readFile: async () => log, readStdin: async () => new Uint8Array(), stdout: () => {}, stderr: () => {} };
    await run(['inspect', 'log.cborseq'], io);
    expect(counts).toEqual({ graph: 1, folds: 1 });
  });
});

describe('the worker session', () => {
  it('builds the graph once per load; Graph requests and unfolding only draw it; a key change folds again and keeps the graph', async () => {
    const session = new InspectorSession();
    await session.load([{ name: 'log.cborseq', data: new Blob([log]) }], { batch: () => {} });
    expect(counts).toEqual({ graph: 1, folds: 1 });

    const drawn = session.graph([]);
    const stream = drawn.folded.find((f) => f.kind === 'stream')!;
    expect(session.graph([stream.id]).nodes.length).toBeGreaterThan(drawn.nodes.length);
    session.report();
    session.folds(null);
    expect(counts).toEqual({ graph: 1, folds: 1 });

    // The time slider folds up to a position: a fold per move, over the same prepared log.
    session.folds(10);
    expect(counts).toEqual({ graph: 1, folds: 2 });

    await session.setKeys(keys());
    expect(counts).toEqual({ graph: 1, folds: 3 });

    // A second load: its records join the graph, built again once.
    await session.load([{ name: 'registry.json', data: new Blob([read(registryLog)]) }]);
    expect(counts).toEqual({ graph: 2, folds: 4 });
  });
});
