// Decode and validate a CBOR sequence of envelopes, nothing more: the work the benchmark compares
// with a plain CBOR decoder. Canonical envelopes take the fast path; everything else the general
// decoder, with its findings. (The importers build records around this same work.)
import { readItemAt } from '../cbor/reader';
import type { Envelope } from './envelope';
import { decodeEnvelope } from './envelope';
import { IdViews, readCanonicalEnvelope } from './fast';
import { signatureShapeFindings } from './signature';
import { validateEnvelope, validateFields } from './validate';
import type { DecodeError, Finding } from '../verdict';

export interface BulkResult {
  envelopes: (Envelope | null)[];
  /** Findings per envelope index, only where there are some. */
  findings: Map<number, Finding[]>;
  /** Why an item of the sequence is not an envelope (its entry in `envelopes` is null), by index. */
  errors: Map<number, DecodeError>;
  /** Where the sequence stopped being readable, if it did. */
  error: { code: string; offset: number } | null;
}

const noSpan = () => null;

export function decodeAndValidate(bytes: Uint8Array): BulkResult {
  const envelopes: (Envelope | null)[] = [];
  const findings = new Map<number, Finding[]>();
  const errors = new Map<number, DecodeError>();
  const ids = new IdViews(bytes.length);
  let pos = 0;
  while (pos < bytes.length) {
    const fast = readCanonicalEnvelope(bytes, pos, ids);
    if (fast) {
      const f = validateFields(fast.envelope, noSpan);
      const s = signatureShapeFindings(fast.envelope, noSpan);
      if (f.length || s.length) findings.set(envelopes.length, [...f, ...s]);
      envelopes.push(fast.envelope);
      pos = fast.end;
      continue;
    }
    const item = readItemAt(bytes, pos);
    if (!item.ok) return { envelopes, findings, errors, error: { code: item.error.code, offset: item.error.offset } };
    const d = decodeEnvelope(item.value);
    if (d.ok) {
      // The same checks as the fast path, so a record's findings never depend on the path it took.
      const f = [...validateEnvelope(d.value), ...signatureShapeFindings(d.value.envelope, noSpan)];
      if (f.length) findings.set(envelopes.length, f);
      envelopes.push(d.value.envelope);
    } else {
      errors.set(envelopes.length, d.error);
      envelopes.push(null);
    }
    pos = item.value.end;
  }
  return { envelopes, findings, errors, error: null };
}
