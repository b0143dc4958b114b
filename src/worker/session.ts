// What the worker holds: every loaded input and record, and the summaries and details built from
// them. Kept apart from the worker entry so it can be tested without a Worker.
import { encodeEnvelope, signingInputSegments } from '../core/agdx/canonical';
import { applyKeys } from '../core/agdx/verify';
import { firstDifference, toHex } from '../core/bytes';
import type { RegisteredKey } from '../core/keys/keys';
import { inspectInput } from '../core/inspect';
import type { RecordResult } from '../core/records';
import type { InputPayload, InputSummary, RecordDetail, RecordSummary } from './protocol';

/** The most bytes a detail sends for the hex view of a record without a span (a failed input). */
const MAX_HEX = 1 << 20;

export class InspectorSession {
  private inputs: InputSummary[] = [];
  private records: RecordResult[] = [];
  private summaries: RecordSummary[] = [];
  /** Record key of the first record of each input, so a record's global input number is known. */
  private inputOf: number[] = [];
  private keys: RegisteredKey[] = [];

  /** Replaces the key registry and re-verifies every record; returns the summaries that changed. */
  setKeys(keys: RegisteredKey[]): RecordSummary[] {
    this.keys = keys;
    applyKeys(this.records, keys);
    const changed: RecordSummary[] = [];
    this.records.forEach((r, key) => {
      if (!r.envelope) return;
      const s = summarize(key, r);
      const old = this.summaries[key];
      if (old.signature !== s.signature || old.trusted !== s.trusted) changed.push(s);
      this.summaries[key] = s;
    });
    return changed;
  }

  load(payloads: InputPayload[]): { inputs: InputSummary[]; records: RecordSummary[] } {
    const newInputs: InputSummary[] = [];
    const newRecords: RecordSummary[] = [];
    for (const p of payloads) {
      const inputNumber = this.inputs.length;
      const { input, records } = inspectInput(inputNumber, { name: p.name, bytes: new Uint8Array(p.bytes) });
      if (this.keys.length) applyKeys(records, this.keys);
      const only = records.length === 1 ? records[0] : null;
      const summary: InputSummary = {
        input: inputNumber,
        name: input.name,
        bytes: input.bytes,
        sha256: input.sha256,
        format: input.format,
        records: records.length,
        error: only && only.format === 'unknown' ? only.error : null,
      };
      this.inputs.push(summary);
      newInputs.push(summary);
      for (const r of records) {
        const key = this.records.length;
        this.records.push(r);
        this.inputOf.push(inputNumber);
        const s = summarize(key, r);
        this.summaries.push(s);
        newRecords.push(s);
      }
    }
    return { inputs: newInputs, records: newRecords };
  }

  detail(key: number): RecordDetail | null {
    const r = this.records[key];
    if (!r) return null;
    const [start, end] = r.span ?? [0, Math.min(r.view.length, MAX_HEX)];
    return {
      key,
      summary: this.summaries[key],
      inputName: this.inputs[this.inputOf[key]].name,
      span: r.span,
      inputSpan: r.inputSpan,
      error: r.error,
      findings: r.findings,
      signature: r.signature,
      tree: r.tree,
      headers: r.headers,
      body: r.body,
      viewOrigin: r.viewOrigin,
      hexOffset: start,
      hex: r.view.slice(start, end),
      hexTruncated: r.span === null && r.view.length > MAX_HEX,
      logTimeMicros: r.logTimeMicros?.toString() ?? null,
      logPosition: r.logPosition ? `partition ${r.logPosition.partition}, offset ${r.logPosition.offset}` : null,
      parent: r.parent !== null ? key - (r.index - r.parent) : null,
      signing: r.envelope?.signature ? signingInputSegments(r.envelope) : null,
      canonical: canonicalDiff(r),
      context: { signed: r.envelope?.signature?.context ?? null, observed: r.observed },
    };
  }

  clear(): void {
    this.inputs = [];
    this.records = [];
    this.summaries = [];
    this.inputOf = [];
  }
}

function canonicalDiff(r: RecordResult): RecordDetail['canonical'] {
  if (!r.envelope || !r.span || !r.findings.some((f) => f.rule === 'agdx/noncanonical')) return null;
  const received = r.view.slice(r.span[0], r.span[1]);
  const canonical = encodeEnvelope(r.envelope);
  return { received, canonical, offset: r.span[0], firstDifference: firstDifference(received, canonical) };
}

export function summarize(key: number, r: RecordResult): RecordSummary {
  let errors = 0;
  let warnings = 0;
  for (const f of r.findings) {
    if (f.severity === 'error') errors++;
    else if (f.severity === 'warning') warnings++;
  }
  return {
    key,
    input: r.input,
    index: r.index,
    format: r.format,
    kind: r.kind,
    id: r.id,
    idHex: r.envelope?.record ? toHex(r.envelope.record) : null,
    conversation: r.conversation,
    source: r.source,
    target: r.target,
    decoded: r.decoded,
    valid: r.valid,
    errorCode: r.error?.code ?? null,
    signature: r.signature.status,
    trusted: r.signature.trusted,
    errors,
    warnings,
    summary: r.summary,
  };
}
