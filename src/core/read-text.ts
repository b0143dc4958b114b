// What pasted text would read as, before it is loaded: the same importers a load goes through
// (inspect.ts), asked first, so the Paste dialog can say what the text is (hex of a CBOR sequence
// of 7 records…) and, when nothing in it reads, where it fails: the byte of the text, its line and
// column, the line itself. Nothing is kept: the text is read again when it is loaded.
import { bytePlace, type TextPlace, utf8Encode } from './bytes';
import { inspectInput } from './inspect';

export interface TextReading {
  /** The input's format as a load would name it: hex(cbor-seq), diag(cbor), iggy-json(>=0.7), text… */
  format: string;
  records: number;
  /** Records that decoded. */
  decoded: number;
  /** The records' kinds in order, runs counted: `command, chunk × 3, response`. */
  kinds: string;
  /**
   * Nothing in the text is a record (the importers found no format in it): why, and where. A record of a known format that fails to decode is read:
   * its detail shows where.
   */
  problem: {
    code: string;
    message: string;
    /** Where in the text (its byte, line and column, and that line), when the failure has a place. */
    at: (TextPlace & { text: string }) | null;
  } | null;
}

/** Kinds in order, runs of one kind counted. */
function kindRuns(kinds: string[], max = 8): string {
  const runs: [string, number][] = [];
  for (const k of kinds) {
    const last = runs[runs.length - 1];
    if (last && last[0] === k) last[1]++;
    else runs.push([k, 1]);
  }
  const words = runs.slice(0, max).map(([k, n]) => (n > 1 ? `${k} × ${n}` : k));
  return runs.length > max ? `${words.join(', ')}, …` : words.join(', ');
}

/** The line of `text` that holds UTF-16 index `at`, for showing where the failure is. */
function lineAround(text: string, at: number): string {
  const start = text.lastIndexOf('\n', Math.max(0, at - 1)) + 1;
  const end = text.indexOf('\n', at);
  return text.slice(start, end < 0 ? text.length : end);
}

/** What `text` reads as, or why nothing in it does. */
export function readText(text: string): TextReading {
  if (typeof text !== 'string') throw new TypeError('readText: text must be a string');
  const bytes = utf8Encode(text);
  const { input, records } = inspectInput(0, { name: 'pasted text', bytes }, undefined, false);
  const decoded = records.filter((r) => r.verdict.decoded).length;
  const reading: TextReading = {
    format: input.format,
    records: records.length,
    decoded,
    kinds: kindRuns(records.map((r) => r.verdict.kind ?? r.verdict.format)),
    problem: null,
  };
  const failed = records[0];
  if (records.length !== 1 || failed.verdict.format !== 'unknown') return reading;
  const error = failed.verdict.error;
  if (!error) return reading;
  // The fallbacks say where in the text (hex that decodes: at the digits of the byte that fails).
  const inText = failed.data.viewOrigin === 'input';
  const place = error.offset !== null && inText ? bytePlace(bytes, error.offset) : null;
  // The line it is on, as text (the place's column counts characters of it).
  const index = place === null ? 0 : new TextDecoder().decode(bytes.subarray(0, place.offset)).length;
  reading.problem = {
    code: error.code,
    message: error.message,
    at: place && { ...place, text: lineAround(text, index) },
  };
  return reading;
}
