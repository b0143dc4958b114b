// Decode and validate a CBOR sequence of envelopes, nothing more: the work the benchmark compares
// with a plain CBOR decoder. Canonical envelopes take the fast path; everything else the general
// decoder, with its findings. (The importers build records around this same work.)
import { readItemAt } from '../cbor/reader';
import type { Envelope } from './envelope';
import { decodeEnvelope } from './envelope';
import { IdViews, readCanonicalEnvelope } from './fast';
import { signatureShapeFindings } from './signature';
import { decodeRefusal, envelopeDialect, validateEnvelope, validateFields, type BodyAt } from './validate';
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
const BODY_AT: BodyAt = { bytes: new Uint8Array(0), start: 0, end: 0 };

export function decodeAndValidate(bytes: Uint8Array): BulkResult {
  const envelopes: (Envelope | null)[] = [];
  const findings = new Map<number, Finding[]>();
  const errors = new Map<number, DecodeError>();
  const ids = new IdViews(bytes.length);
  let pos = 0;
  while (pos < bytes.length) {
    const fast = readCanonicalEnvelope(bytes, pos, ids);
    if (fast) {
      const env = fast.envelope;
      // Judged by the rules of the dialect its fields show, as the importers judge it.
      const { dialect } = envelopeDialect(env);
      const refused = decodeRefusal(env, dialect, noSpan);
      if (refused) {
        errors.set(envelopes.length, { ...refused, offset: pos });
        envelopes.push(null);
        pos = fast.end;
        continue;
      }
      let bodyAt: BodyAt | undefined;
      if (fast.bodyStart >= 0) {
        // One object for every record (the validator keeps none of it): where this one's body is.
        bodyAt = BODY_AT;
        bodyAt.bytes = bytes;
        bodyAt.start = fast.bodyStart;
        bodyAt.end = fast.bodyEnd;
      }
      const f = validateFields(env, noSpan, dialect, bodyAt);
      const s = signatureShapeFindings(env, noSpan);
      if (f.length || s.length) findings.set(envelopes.length, [...f, ...s]);
      envelopes.push(env);
      pos = fast.end;
      continue;
    }
    const item = readItemAt(bytes, pos);
    if (!item.ok) {
      BODY_AT.bytes = new Uint8Array(0);
      return { envelopes, findings, errors, error: { code: item.error.code, offset: item.error.offset } };
    }
    const d = decodeEnvelope(item.value);
    const dialect = d.ok ? envelopeDialect(d.value.envelope).dialect : null;
    const refused = d.ok ? decodeRefusal(d.value.envelope, dialect!, noSpan) : d.error;
    if (d.ok && !refused) {
      // The same checks as the fast path, so a record's findings never depend on the path it took.
      const f = [...validateEnvelope(d.value, dialect!), ...signatureShapeFindings(d.value.envelope, noSpan)];
      if (f.length) findings.set(envelopes.length, f);
      envelopes.push(d.value.envelope);
    } else {
      errors.set(envelopes.length, d.ok ? { ...refused!, offset: item.value.start } : d.error);
      envelopes.push(null);
    }
    pos = item.value.end;
  }
  BODY_AT.bytes = new Uint8Array(0);
  return { envelopes, findings, errors, error: null };
}
