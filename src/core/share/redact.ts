// Redaction before sharing: every envelope body is blanked (zeros, same length), so offsets,
// spans and findings stay where they were. Signatures over the bodies can then no longer be
// re-checked, and the view says so.
import { toBase64, utf8Encode, utf8Lossy } from '../bytes';
import type { RecordResult } from '../records';

export interface Redacted {
  bytes: Uint8Array;
  /** Bodies that could not be blanked (and so would be shared in full): the caller must refuse. */
  problems: string[];
}

/** The input's bytes with every body of its records blanked. */
export function redactInput(input: Uint8Array, records: RecordResult[]): Redacted {
  const problems: string[] = [];
  // Hex or base64 text: share the decoded bytes instead (their spans are what the records index).
  const decoded = records.find((r) => r.viewOrigin === 'decoded-text');
  const out = decoded ? decoded.view.slice() : input.slice();
  for (const r of records) {
    if (!r.envelope?.body) continue;
    if (!r.bodySpan) {
      problems.push(`record ${r.index}: its body is not one contiguous byte string`);
      continue;
    }
    if (r.viewOrigin === 'input' || r.viewOrigin === 'decoded-text') {
      out.fill(0, r.bodySpan[0], r.bodySpan[1]);
      continue;
    }
    // A message of a JSON export: blank the body in the payload, then swap the base64 text.
    const original = toBase64(r.view);
    const payload = r.view.slice();
    payload.fill(0, r.bodySpan[0], r.bodySpan[1]);
    const [from, to] = r.inputSpan ?? [0, out.length];
    const at = utf8Lossy(out.subarray(from, to)).indexOf(original);
    if (at < 0 || /[^\x00-\x7f]/.test(utf8Lossy(out.subarray(from, from + at)))) {
      problems.push(`record ${r.index}: its payload's base64 could not be found to blank`);
      continue;
    }
    out.set(utf8Encode(toBase64(payload)), from + at);
  }
  return { bytes: out, problems };
}
