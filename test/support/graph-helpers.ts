// Test helpers: records built straight from envelopes (no bytes), as an importer would leave them.
import type { Envelope, MetaValue } from '../../src/core/agdx/envelope';
import { toCrockford } from '../../src/core/bytes';
import { blankRecord, envelopeSummary, finishRecord } from '../../src/core/import/build';
import type { SignatureVerdict } from '../../src/core/model';
import { locateIn, logFactsOf, type InspectedRecord } from '../../src/core/records';
import { isValid, type Finding } from '../../src/core/verdict';
import { drawAgdxGraph } from '../../src/core/graph/draw';
import type { AgdxGraph, AgentDnaGraph, DrawOptions } from '../../src/core/graph/model';
import { buildCompactRecordGraph } from '../../src/core/graph/record-graph';
import { type ReportGraph, toReportGraph } from '../../src/core/graph/report';
import { finding } from '../../src/core/rules';

/** A 16-byte id whose value is `n` (big-endian). */
export function id16(n: number): Uint8Array {
  const out = new Uint8Array(16);
  let v = BigInt(n);
  for (let i = 15; i >= 0 && v > 0n; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

export const crock = (n: number) => toCrockford(id16(n));

/** A cause_at for the Iggy binding. */
export function causeAt(stream: number, topic: number, partition: number, offset: number | bigint): Uint8Array {
  const out = new Uint8Array(20);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, stream);
  dv.setUint32(4, topic);
  dv.setUint32(8, partition);
  dv.setBigUint64(12, BigInt(offset));
  return out;
}

export const text = (s: string) => new TextEncoder().encode(s);
export const hops = (...ids: string[]): Map<string, MetaValue> =>
  new Map([['bridge_hops', { type: 'list', items: ids.map((value) => ({ type: 'text', value }) as MetaValue) }]]);

export interface RecordExtra {
  input?: number;
  logTime?: bigint;
  position?: { partition: number; offset: number | bigint; stream?: number | null; topic?: number | null };
  /** false: the record gets an error finding of its own (so it is not valid). */
  valid?: boolean;
  signature?: SignatureVerdict;
  findings?: Finding[];
  /** Found inside a dead letter: the record it was found in. */
  parent?: number;
}

type EnvelopeSpec = Partial<Envelope> & { kind: Envelope['kind'] };

/** A conversation of records: `add` appends one, with the conversation and source filled in. */
export class Conversation {
  readonly records: InspectedRecord[] = [];
  private readonly perInput = new Map<number, number>();

  constructor(readonly conversation: Uint8Array = id16(0xc0)) {}

  add(spec: EnvelopeSpec, extra: RecordExtra = {}): InspectedRecord {
    const input = extra.input ?? 0;
    const index = this.perInput.get(input) ?? 0;
    this.perInput.set(input, index + 1);
    const r = makeRecord(input, index, { conversation: this.conversation, source: 'agent-a', ...spec }, extra);
    this.records.push(r);
    return r;
  }

  /** The record index (in `records`) of a record. */
  at(r: InspectedRecord): number {
    return this.records.indexOf(r);
  }
}

export function makeRecord(input: number, index: number, spec: Envelope, extra: RecordExtra = {}): InspectedRecord {
  const base = blankRecord({ input, view: new Uint8Array(0), viewOrigin: 'input' }, index, extra.position ? 'agdx.record' : 'agdx.envelope', null);
  const env: Envelope = spec;
  const findings: Finding[] = [...(extra.findings ?? [])];
  if (extra.valid === false) findings.push(finding('agdx/matrix/body', 'body', 'made invalid for the test', null));
  return finishRecord({
    ...base,
    decoded: true,
    kind: env.kind,
    id: env.record ? toCrockford(env.record) : null,
    conversation: toCrockford(env.conversation),
    source: env.source,
    target: env.target ?? null,
    findings,
    signature: extra.signature ?? base.signature,
    parent: extra.parent ?? null,
    envelope: env,
    summary: envelopeSummary(env),
    logTimeMicros: extra.logTime ?? null,
    logPosition: extra.position
      ? {
          stream: extra.position.stream ?? null,
          topic: extra.position.topic ?? null,
          partition: extra.position.partition,
          offset: BigInt(extra.position.offset),
        }
      : null,
  });
}

/** The log's facts of test records. */
export const factsOf = logFactsOf;

/** The graph of test records, built and drawn, each record drawn with its own validity; findings located in their trees. */
export function graphOf(records: readonly InspectedRecord[], options: DrawOptions = {}): AgdxGraph {
  const facts = logFactsOf(records);
  return drawAgdxGraph(buildCompactRecordGraph(facts, { locate: locateIn(records) }), facts.entries, { valid: (i) => isValid(records[i].verdict), ...options });
}

const NO_WORKFLOWS: AgentDnaGraph = { kind: 'agentdna', nodes: [], edges: [], missing: [], cycles: [] };

/** report@1's graph section of test records (and an AgentDNA graph), its edges and correlations gathered. */
export function reportGraphOf(records: readonly InspectedRecord[], workflows: AgentDnaGraph = NO_WORKFLOWS): ReportGraph {
  const g = toReportGraph(buildCompactRecordGraph(logFactsOf(records)), workflows);
  return { ...g, edges: [...g.edges.items], correlations: [...g.correlations.items] };
}
