// Two records compared: their fields structurally (value.ts, structure.ts), the byte diff of their
// canonical encodings, what the difference means for signatures, their verdicts side by side and,
// for two AgentDNA workflows, envelope by envelope.
import { encodeEnvelope } from '../agdx/canonical';
import type { WorkflowReport } from '../agentdna/model';
import { utf8Encode } from '../bytes';
import { recordViews, type InspectedRecord } from '../records';
import { byteDiff, cborLayout, jsonLayout, treeLayout } from './bytes';
import { signatureWords, type Finding } from '../verdict';
import type { ByteDiff, FieldDiff, RecordComparison, SideInfo, VerdictDiff, VerdictSide } from './model';
import { agdxSigningMeaning, agentDnaSigningMeaning, noSigningMeaning } from './signing';
import { diffValues, MAX_ROWS } from './structure';
import { envelopeValue, headersValue, jsonBytesValue, pairBodies, treeValue, scalar, type DiffValue } from './value';
import { compareWorkflows } from './workflow';

/** One side of a comparison as the session hands it over: the record and what the log and the load say of it. */
export interface CompareSide {
  key: number;
  record: InspectedRecord;
  inputName: string;
  /** Valid with the log's findings counted in. */
  valid: boolean;
  /** Every finding about it: its own and the log's. */
  findings: readonly Finding[];
  /** Its AgentDNA workflow (or bare envelope), if it is one. */
  workflow: WorkflowReport | null;
}

const isAgentDna = (r: InspectedRecord) => r.verdict.format.startsWith('agentdna.');

/** The bytes a record was read from (its span of the view, else the whole view). */
function receivedBytes(r: InspectedRecord): { bytes: Uint8Array; offset: number } {
  const span = r.verdict.span;
  return span ? { bytes: r.data.view.subarray(span[0], span[1]), offset: span[0] } : { bytes: r.data.view, offset: 0 };
}

/**
 * The value of a record as a comparison reads it, without its body (added by `recordValues`, which
 * reads both bodies alike). `unknownFields`: also an AGDX envelope's fields this version does not
 * define (from its field tree, built now for a record read in bulk).
 */
function recordValue(r: InspectedRecord, body: DiffValue | null, unknownFields: boolean): DiffValue | null {
  const { envelope, headers } = r.data;
  if (envelope) {
    const v = envelopeValue(envelope, body);
    if (v.kind !== 'map') return v;
    const entries = [...v.entries];
    if (unknownFields) {
      for (const n of recordViews(r).tree) if (n.type.endsWith(', unknown')) entries.push([n.path, scalar(n.type, n.display)]);
    }
    if (headers?.length) entries.push(['headers', headersValue(headers)]);
    return { ...v, entries };
  }
  if (isAgentDna(r) && r.verdict.decoded) {
    const v = jsonBytesValue(receivedBytes(r).bytes);
    if (v) return v;
  }
  const tree = recordViews(r).tree;
  return tree.length ? treeValue(tree) : null;
}

/** Both records' values, their bodies read alike (structurally when both decode the same way, else as bytes). */
export function recordValues(
  a: InspectedRecord,
  b: InspectedRecord,
  { unknownFields = true } = {},
): { a: DiffValue | null; b: DiffValue | null; body: FieldDiff['body'] } {
  const bodies = pairBodies({ env: a.data.envelope, ct: a.data.observed?.ct ?? null }, { env: b.data.envelope, ct: b.data.observed?.ct ?? null });
  return { a: recordValue(a, bodies.a, unknownFields), b: recordValue(b, bodies.b, unknownFields), body: bodies.readings };
}

/** The bytes to diff: canonical encodings (AGDX), the tips' hashed content JSON (AgentDNA), else the bytes as received. */
function bytesOf(a: CompareSide, b: CompareSide): ByteDiff {
  const ea = a.record.data.envelope;
  const eb = b.record.data.envelope;
  if (ea && eb) {
    const ca = encodeEnvelope(ea);
    const cb = encodeEnvelope(eb);
    return byteDiff('agdx-canonical', ca, cb, { a: cborLayout(ca), b: cborLayout(cb) });
  }
  const ta = a.workflow?.envelopes[0]?.content_json;
  const tb = b.workflow?.envelopes[0]?.content_json;
  if (ta != null && tb != null) {
    const ca = utf8Encode(ta);
    const cb = utf8Encode(tb);
    return byteDiff('agentdna-content', ca, cb, { a: jsonLayout(ca), b: jsonLayout(cb) });
  }
  const ra = receivedBytes(a.record);
  const rb = receivedBytes(b.record);
  const layout = (r: InspectedRecord, offset: number) => (r.verdict.decoded ? treeLayout(recordViews(r).tree, offset) : []);
  return byteDiff('received', ra.bytes, rb.bytes, { a: layout(a.record, ra.offset), b: layout(b.record, rb.offset) });
}

function verdictSide(s: CompareSide): VerdictSide {
  const v = s.record.verdict;
  return {
    decoded: v.decoded,
    valid: s.valid,
    signature: v.signature.status,
    trusted: v.signature.trusted,
    reason: v.signature.reason,
    errors: s.findings.filter((f) => f.severity === 'error').length,
    warnings: s.findings.filter((f) => f.severity === 'warning').length,
    dialect: v.dialect,
    displayType: v.displayType,
  };
}

const verdictSignature = (v: VerdictSide) => signatureWords({ status: v.signature, trusted: v.trusted }).words;

/** The two verdicts side by side, and what differs between them in words. */
export function verdictDiff(a: CompareSide, b: CompareSide): VerdictDiff {
  const va = verdictSide(a);
  const vb = verdictSide(b);
  const changes: string[] = [];
  if (va.decoded !== vb.decoded) changes.push(`decoded on ${va.decoded ? 'A' : 'B'} only`);
  if (va.valid !== vb.valid) changes.push(`valid on ${va.valid ? 'A' : 'B'}, not on ${va.valid ? 'B' : 'A'}`);
  if (verdictSignature(va) !== verdictSignature(vb)) changes.push(`signature ${verdictSignature(va)} → ${verdictSignature(vb)}`);
  // Judged by different rules (docs/report.md "Dialects"), or shown as different things by the reference.
  if (va.dialect !== vb.dialect) changes.push(`AGDX dialect ${va.dialect ?? 'none'} → ${vb.dialect ?? 'none'}`);
  if (va.displayType !== vb.displayType) changes.push(`display type ${va.displayType ?? 'none'} → ${vb.displayType ?? 'none'}`);
  const rules = (s: CompareSide) => new Set([...s.findings.map((f) => f.rule), ...(s.record.verdict.error ? [s.record.verdict.error.code] : [])]);
  const ra = rules(a);
  const rb = rules(b);
  const onlyA = [...ra].filter((r) => !rb.has(r));
  const onlyB = [...rb].filter((r) => !ra.has(r));
  if (onlyA.length || onlyB.length)
    changes.push(`findings: ${[onlyA.length && `${onlyA.length} rule(s) on A only`, onlyB.length && `${onlyB.length} on B only`].filter(Boolean).join(', ')}`);
  return { a: va, b: vb, changes, onlyA, onlyB };
}

export function sideInfo(s: CompareSide): SideInfo {
  const v = s.record.verdict;
  return { key: s.key, input: v.input, inputName: s.inputName, index: v.index, format: v.format, kind: v.kind, id: v.id, summary: v.summary };
}

/** Two records compared, field by field, byte by byte, signature by signature. */
export function compareRecords(a: CompareSide, b: CompareSide, { maxRows = MAX_ROWS }: { maxRows?: number } = {}): RecordComparison {
  if (!a?.record?.verdict || !b?.record?.verdict) throw new TypeError('compareRecords: two sides with records');
  const values = recordValues(a.record, b.record);
  const d = diffValues(values.a, values.b, { maxRows });
  const ea = a.record.data.envelope;
  const eb = b.record.data.envelope;
  const ta = a.workflow?.envelopes[0];
  const tb = b.workflow?.envelopes[0];
  const signature =
    ea && eb
      ? agdxSigningMeaning({ envelope: ea, signature: a.record.verdict.signature }, { envelope: eb, signature: b.record.verdict.signature })
      : ta && tb
        ? agentDnaSigningMeaning({ tip: ta, signature: a.record.verdict.signature }, { tip: tb, signature: b.record.verdict.signature })
        : noSigningMeaning(
            (ea || ta) && (eb || tb)
              ? 'One is an AGDX envelope, the other an AgentDNA envelope: their signatures are over different things, and neither covers the other.'
              : `${!(ea || ta) && !(eb || tb) ? 'Neither record has a signing input' : `Only ${ea || ta ? 'A' : 'B'} has a signing input`} (only AGDX envelopes and AgentDNA envelopes are signed).`,
          );
  return {
    type: 'records',
    a: sideInfo(a),
    b: sideInfo(b),
    fields: { rows: d.rows, counts: d.counts, omitted: d.omitted, body: values.body },
    bytes: bytesOf(a, b),
    signature,
    verdicts: verdictDiff(a, b),
    workflow: a.workflow && b.workflow ? compareWorkflows(a.workflow, b.workflow) : null,
  };
}
