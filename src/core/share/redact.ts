// Redaction before sharing: every body a record carries is blanked in place, at the same length,
// so offsets, spans and the records around it stay where they were; signatures and hashes over a
// blanked body can then no longer be re-checked, and the view says so. What is a body:
// - an AGDX envelope's `body` (zeros; a chunked body becomes one byte string of zeros of the same size);
//   a body with a shape of its own (0.7: a session status's, a state document or patch, a context
//   manifest, compaction or retrieval, a parking) has its values blanked and its shape kept, so the
//   record reads and is judged as before (a session start keeps its parent and root, which the
//   envelope carries anyway; a patch its operation names);
// - an AgentDNA envelope's `payload`, in every envelope of a workflow's chain (a JSON string of `*`);
// - an AgentDNA card's policy document (base64 of zeros) or, without one, its metadata;
// - AGDX capsules that are bodies (error body, card, body reference): every text and byte string
//   in them, keys kept; a dead letter's `detail` (its payload is the record found inside it);
//   a control frame's text and byte strings (a submit's input and parameters, list details);
//   signature and presence capsules carry no body;
// - whatever did not decode: its bytes cannot be known to be free of secrets, so all of them (in
//   CBOR, one byte string of zeros over the same bytes; in JSON, a string of `*`; text, spaces).
// What cannot be blanked is listed, one line each, for the person to decide on before a link is made.
import { bytesEqual, toBase64, utf8Encode, utf8Lossy, utf8OrNull } from '../bytes';
import type { CborItem } from '../cbor/reader';
import { readItemAt } from '../cbor/reader';
import { readEnvelopeTree, allOccurrences, lastEntries, type JsonObject } from '../agentdna/envelope';
import { bodyShapeOf, DIALECT_001, dialectById, type BodyShapeName } from '../agdx/dialects';
import { readJson } from '../json/lossless';
import type { Span } from '../model';
import { recordViews, type InspectedRecord } from '../records';

export interface Redacted {
  /** The bytes the link carries for this input (for hex or base64 text: the bytes decoded from it). */
  bytes: Uint8Array;
  /** What was blanked, one phrase per kind with its count (for the Share panel): `2 AGDX bodies`. */
  blanked: string[];
  /** What could not be blanked, and so would travel as it is: one line each, for the person to decide. */
  unblankable: string[];
}

/** Whether redaction blanks something of this record (its verdicts over the shared bytes then say so). */
export function hasBody(r: InspectedRecord): boolean {
  const v = r.verdict;
  if (!v.decoded) return true;
  switch (v.format) {
    case 'agdx.envelope':
    case 'agdx.record':
      return !!r.data.envelope?.body;
    case 'agdx.capsule':
      return v.kind === 'error_body' || v.kind === 'card' || v.kind === 'body_ref';
    case 'agdx.control':
    case 'agentdna.workflow':
    case 'agentdna.envelope':
      return true;
    case 'agentdna.card':
      return v.kind === 'workflow' || recordViews(r).body !== null;
    case 'agdx.dead_letter':
      return recordViews(r).tree.some((n) => n.path === 'detail');
    default:
      return false;
  }
}

const STAR = 0x2a;
const SPACE = 0x20;

/**
 * One CBOR byte string (major 2) or text string (major 3) filling exactly `[start, end)`: a head
 * (not always the shortest: the item must keep its size) and `fill` bytes.
 */
export function writeBlankString(buf: Uint8Array, [start, end]: Span, major: 2 | 3, fill: number): void {
  const n = end - start;
  if (n < 1) throw new RangeError('writeBlankString: an empty span');
  const m = major << 5;
  let head: number[];
  if (n - 1 <= 23) head = [m | (n - 1)];
  else if (n - 2 <= 0xff) head = [m | 24, n - 2];
  else if (n - 3 <= 0xffff) head = [m | 25, (n - 3) >> 8, (n - 3) & 0xff];
  else {
    const len = n - 5;
    head = [m | 26, (len >>> 24) & 0xff, (len >>> 16) & 0xff, (len >>> 8) & 0xff, len & 0xff];
  }
  buf.set(head, start);
  buf.fill(fill, start + head.length, end);
}

/**
 * A JSON value at `[start, end)` replaced by one of the same length: a string keeps its quotes and
 * gets `fill` inside; anything else becomes a string of `fill` (or `0`, for a single character).
 */
export function writeBlankJson(buf: Uint8Array, [start, end]: Span, fill = STAR): void {
  const n = end - start;
  if (n < 1) throw new RangeError('writeBlankJson: an empty span');
  if (n === 1) {
    buf[start] = 0x30; // '0'
    return;
  }
  buf[start] = 0x22;
  buf[end - 1] = 0x22;
  buf.fill(fill, start + 1, end - 1);
}

/** A JSON array of byte values (the JSON view of a byte string): every number becomes 0, spaces keep the length. */
function writeZeroByteArray(buf: Uint8Array, [start, end]: Span): void {
  let inNumber = false;
  for (let i = start; i < end; i++) {
    const digit = buf[i] >= 0x30 && buf[i] <= 0x39;
    if (digit) buf[i] = inNumber ? SPACE : 0x30;
    inNumber = digit;
  }
}

/** Every text and byte string inside a CBOR item blanked (map keys kept): a structured body. */
function blankStrings(buf: Uint8Array, item: CborItem): number {
  let n = 0;
  const walk = (it: CborItem): void => {
    switch (it.kind) {
      case 'bytes':
      case 'text':
        if (it.contentStart >= 0) buf.fill(it.kind === 'bytes' ? 0 : STAR, it.contentStart, it.end);
        else writeBlankString(buf, [it.start, it.end], it.kind === 'bytes' ? 2 : 3, it.kind === 'bytes' ? 0 : STAR);
        n++;
        return;
      case 'tag':
        walk(it.item);
        return;
      case 'array':
        for (const child of it.items) walk(child);
        return;
      case 'map':
        for (const e of it.entries) walk(e.value);
        return;
    }
  };
  walk(item);
  return n;
}

/**
 * Every value inside a CBOR item blanked where it is, map keys and what `keep` names (by path: `parent`,
 * `patch[0].op`) kept: text as `*`, byte strings as zeros, integers and floats as 0 of the same width
 * (a wider head than 0 needs: the bytes stay where they were), booleans and null as they are.
 */
function blankValues(buf: Uint8Array, item: CborItem, keep: (path: string) => boolean, path = ''): void {
  if (path && keep(path)) return;
  switch (item.kind) {
    case 'bytes':
    case 'text':
      if (item.contentStart >= 0) buf.fill(item.kind === 'bytes' ? 0 : STAR, item.contentStart, item.end);
      else writeBlankString(buf, [item.start, item.end], item.kind === 'bytes' ? 2 : 3, item.kind === 'bytes' ? 0 : STAR);
      return;
    case 'uint':
    case 'nint':
      // Major type 0, the same additional information, an argument of zeros: the value 0 in as many bytes.
      {
        const ai = buf[item.start] & 0x1f;
        buf[item.start] = ai >= 24 ? ai : 0;
        buf.fill(0, item.start + 1, item.end);
      }
      return;
    case 'float':
      buf.fill(0, item.start + 1, item.end);
      return;
    case 'tag':
      blankValues(buf, item.item, keep, path);
      return;
    case 'array':
      item.items.forEach((x, i) => {
        blankValues(buf, x, keep, `${path}[${i}]`);
      });
      return;
    case 'map':
      for (const e of item.entries) {
        const k = e.key.kind === 'text' ? e.key.value : '?';
        blankValues(buf, e.value, keep, path ? `${path}.${k}` : k);
      }
      return;
  }
}

/**
 * What a shaped body keeps when it is blanked: what its reader checks against the envelope or
 * reads as a closed vocabulary (a SessionStart's parent and root, a patch's operation names).
 */
function keptIn(shape: BodyShapeName): (path: string) => boolean {
  if (shape === 'session') return (p) => p === 'parent' || p === 'root';
  if (shape === 'state_delta') return (p) => /^patch\[\d+\]\.op$/.test(p);
  return () => false;
}

function cborAt(view: Uint8Array, span: Span | null): CborItem | null {
  if (!span) return null;
  const r = readItemAt(view.subarray(0, span[1]), span[0]);
  return r.ok && r.value.end === span[1] ? r.value : null;
}

/** The spans of every `payload` of every envelope of the AgentDNA document at `span` (duplicates included). */
function payloadSpans(view: Uint8Array, span: Span, bare: boolean): Span[] | null {
  const parsed = readJson(view.subarray(span[0], span[1]));
  if (!parsed.ok || parsed.value.type !== 'object') return null;
  let tip: JsonObject = parsed.value;
  if (!bare) {
    const env = lastEntries(parsed.value).fields.get('envelope')?.value;
    if (env?.type !== 'object') return [];
    tip = env;
  }
  const out: Span[] = [];
  for (const n of allOccurrences(readEnvelopeTree(tip, ''))) {
    for (const e of n.value.entries) if (e.key === 'payload') out.push([span[0] + e.value.start, span[0] + e.value.end]);
  }
  return out;
}

/** Text that reads as JSON (what inspect sniffs as JSON). */
function isJsonText(bytes: Uint8Array): boolean {
  if (bytes.length > 0 && bytes[0] >= 0xa0 && bytes[0] <= 0xbf) return false;
  const t = utf8OrNull(bytes)?.trimStart();
  return !!t && (t.startsWith('{') || t.startsWith('['));
}

/** What was blanked, by kind: [one, many]. */
const KINDS = {
  undecoded: ['undecoded record (all its bytes)', 'undecoded records (all their bytes)'],
  body: ['AGDX body', 'AGDX bodies'],
  shaped: ['session, state or context body (its values; its shape kept)', 'session, state or context bodies (their values; their shape kept)'],
  control: ['control frame (its strings)', 'control frames (their strings)'],
  error_body: ['error body capsule (its strings)', 'error body capsules (their strings)'],
  card: ['card capsule (its strings)', 'card capsules (their strings)'],
  body_ref: ['body reference capsule (its strings)', 'body reference capsules (their strings)'],
  detail: ['dead-letter detail', 'dead-letter details'],
  policy: ['AgentDNA card policy', 'AgentDNA card policies'],
  metadata: ['AgentDNA card metadata', 'AgentDNA card metadata'],
  payload: ['AgentDNA payload', 'AgentDNA payloads'],
} as const;
type Kind = keyof typeof KINDS;

class Tally {
  counts = new Map<Kind, number>();
  add(kind: Kind, n = 1): void {
    if (n > 0) this.counts.set(kind, (this.counts.get(kind) ?? 0) + n);
  }
  merge(other: Tally): void {
    for (const [k, n] of other.counts) this.add(k, n);
  }
  lines(): string[] {
    return [...this.counts].map(([k, n]) => `${n} ${KINDS[k][n === 1 ? 0 : 1]}`);
  }
}

/**
 * The input's bytes with every body of its records blanked (see the top of this file). `records`
 * are the input's records as read; their spans index `input` (or the payload, decoded text or
 * inner JSON they name), and `redactInput` never changes them.
 */
export function redactInput(input: Uint8Array, records: readonly InspectedRecord[]): Redacted {
  if (!(input instanceof Uint8Array) || !Array.isArray(records)) throw new TypeError('redactInput: bytes and records expected');
  const done = new Tally();
  const unblankable: string[] = [];
  // The bytes the records' spans index. For hex or base64 text that is the decoded bytes: those are
  // shared instead of the text.
  const base = records.find((r) => r.data.viewOrigin === 'input' || (r.data.viewOrigin === 'decoded-text' && r.verdict.inputSpan === null))?.data.view ?? input;
  const out = base.slice();
  const baseIsJson = isJsonText(base);
  const baseIsText = baseIsJson || (!(base[0] >= 0xa0 && base[0] <= 0xbf) && utf8OrNull(base) !== null);
  // Views other than the input (an Iggy message's payload, a card state's JSON string): a copy of
  // each, blanked here, then put back where it came from.
  // What is blanked in a copy counts only once the copy is put back.
  const copies = new Map<Uint8Array, { copy: Uint8Array; record: InspectedRecord; blanked: Tally }>();
  const copyOf = (r: InspectedRecord) => {
    let c = copies.get(r.data.view);
    if (!c) copies.set(r.data.view, (c = { copy: r.data.view.slice(), record: r, blanked: new Tally() }));
    return c;
  };
  const bufferOf = (r: InspectedRecord): Uint8Array => (r.data.viewOrigin === 'input' || r.data.view === base ? out : copyOf(r).copy);
  const where = (r: InspectedRecord) => `record ${r.verdict.index}`;

  for (const record of records) {
    const r = record.verdict;
    const d = record.data;
    const buf = bufferOf(record);
    const blanked = buf === out ? done : copyOf(record).blanked;
    const json = buf === out ? baseIsJson : d.viewOrigin === 'decoded-text';
    if (!r.decoded) {
      // Undecoded: every byte of it goes. A JSON value found in JSON text keeps the text well-formed;
      // text that is no JSON at all becomes spaces; CBOR, one byte string of zeros over the same bytes.
      const located = r.span ?? (buf === out ? r.inputSpan : null);
      const span: Span = located ?? [0, buf.length];
      if (span[1] <= span[0]) continue;
      if (json && located) writeBlankJson(buf, span);
      else if (json || (buf === out && baseIsText) || d.viewOrigin === 'decoded-text') buf.fill(SPACE, span[0], span[1]);
      else writeBlankString(buf, span, 2, 0);
      blanked.add('undecoded');
      continue;
    }
    switch (r.format) {
      case 'agdx.envelope':
      case 'agdx.record': {
        if (!d.envelope?.body) break;
        // A body with a shape of its own (a session status, state, context: dialects.ts) keeps its
        // shape: its values are blanked where they are, so the record reads (and judges) as before.
        const shape =
          d.bodySpan && d.envelope.operation !== undefined
            ? bodyShapeOf(dialectById(r.dialect ?? '') ?? DIALECT_001, d.envelope.kind, d.envelope.operation)
            : null;
        const shaped = shape && d.bodySpan ? cborAt(buf, d.bodySpan) : null;
        if (shape && shaped) {
          blankValues(buf, shaped, keptIn(shape.shape));
          blanked.add('shaped');
          break;
        }
        const bodyView = d.bodySpan ? null : recordViews(record).body;
        if (d.bodySpan) buf.fill(0, d.bodySpan[0], d.bodySpan[1]);
        else if (bodyView?.span && json && buf[bodyView.span[0]] === 0x5b /* [ */) writeZeroByteArray(buf, bodyView.span);
        else if (bodyView?.span && cborAt(buf, bodyView.span)) writeBlankString(buf, bodyView.span, 2, 0);
        else {
          unblankable.push(`${where(record)}: its body could not be located in the bytes`);
          break;
        }
        blanked.add('body');
        break;
      }
      case 'agdx.capsule':
      case 'agdx.control': {
        if (!hasBody(record)) break;
        const item = cborAt(buf, r.span);
        if (!item) unblankable.push(`${where(record)}: its ${r.kind ?? 'capsule'} could not be read again to blank it`);
        else if (blankStrings(buf, item)) blanked.add(r.format === 'agdx.control' ? 'control' : (r.kind as 'error_body' | 'card' | 'body_ref'));
        break;
      }
      case 'agdx.dead_letter': {
        const item = cborAt(buf, r.span);
        const detail = item?.kind === 'map' ? item.entries.find((e) => e.key.kind === 'text' && e.key.value === 'detail') : undefined;
        if (detail) {
          blankStrings(buf, detail.value);
          blanked.add('detail');
        } else if (recordViews(record).tree.some((n) => n.path === 'detail')) unblankable.push(`${where(record)}: its detail could not be located`);
        break;
      }
      case 'agentdna.workflow':
      case 'agentdna.envelope':
      case 'agentdna.card': {
        if (r.format === 'agentdna.card' && r.kind !== 'workflow') {
          // A card: its body is the policy document (base64: blanked to zeros), else its metadata.
          const cardBody = recordViews(record).body;
          if (!cardBody?.span) break;
          const policy = buf[cardBody.span[0]] === 0x22; // the policy is a base64 string; metadata an object
          writeBlankJson(buf, cardBody.span, policy ? 0x41 /* A */ : STAR);
          blanked.add(policy ? 'policy' : 'metadata');
          break;
        }
        const spans = r.span ? payloadSpans(buf, r.span, r.format === 'agentdna.envelope') : null;
        if (!spans) {
          unblankable.push(`${where(record)}: its AgentDNA payloads could not be located`);
          break;
        }
        for (const s of spans) writeBlankJson(buf, s);
        blanked.add('payload', spans.length);
        break;
      }
    }
  }

  // Put each blanked copy back: an Iggy payload as base64 of the same length, a card state's JSON as
  // a JSON string (its length may change: splices go last, from the end, so earlier spans hold).
  const splices: { at: Span; bytes: Uint8Array }[] = [];
  for (const [view, { copy, record, blanked }] of copies) {
    const r = record.verdict;
    const [from, to] = r.inputSpan ?? [0, out.length];
    if (record.data.viewOrigin === 'payload') {
      const original = toBase64(view);
      const at = utf8Lossy(out.subarray(from, to)).indexOf(original);
      if (at < 0 || /[^\x00-\x7f]/.test(utf8Lossy(out.subarray(from, from + at)))) {
        unblankable.push(`${where(record)}: its payload's base64 could not be found to blank`);
        continue;
      }
      out.set(utf8Encode(toBase64(copy)), from + at);
      done.merge(blanked);
    } else if (record.data.viewOrigin === 'decoded-text' && r.inputSpan && out[from] === 0x22 && out[to - 1] === 0x22) {
      splices.push({ at: [from, to], bytes: utf8Encode(JSON.stringify(utf8Lossy(copy))) });
      done.merge(blanked);
    } else {
      unblankable.push(`${where(record)}: the text it was decoded from could not be found to blank`);
    }
  }
  let bytes = out;
  if (splices.length) {
    splices.sort((a, b) => b.at[0] - a.at[0]);
    let tail = out;
    const parts: Uint8Array[] = [];
    for (const s of splices) {
      parts.unshift(s.bytes, tail.subarray(s.at[1]));
      tail = tail.subarray(0, s.at[0]);
    }
    parts.unshift(tail);
    bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.length;
    }
  }
  return { bytes, blanked: done.lines(), unblankable };
}

/**
 * Which of `records` (every record of one input, read from `input`) already read as redaction
 * leaves them: redacting again would change none of their bytes. A link that says it was redacted
 * is only the sender's word; a record whose body is not blank was not redacted, whatever the link
 * says, and its verdicts are over the body as received. An input with parts redaction cannot blank,
 * or that redaction would change in length (text decoded to bytes), cannot be told: none of it counts.
 */
export function blankAsRedacted(input: Uint8Array, records: readonly InspectedRecord[]): boolean[] {
  if (!(input instanceof Uint8Array) || !Array.isArray(records)) throw new TypeError('blankAsRedacted: bytes and records expected');
  const again = redactInput(input, records);
  if (again.unblankable.length || again.bytes.length !== input.length) return records.map(() => false);
  return records.map((r) => {
    const [from, to] = (r.data.viewOrigin === 'input' ? r.verdict.span : r.verdict.inputSpan) ?? [0, input.length];
    return bytesEqual(again.bytes.subarray(from, to), input.subarray(from, to));
  });
}
