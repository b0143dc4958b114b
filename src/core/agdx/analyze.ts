// One envelope, start to finish: decode, canonical check, matrix and caps, headers, body,
// signature shape, and the field tree. A failure stays with this record.
import type { Span } from '../bytes';
import { firstDifference, toCrockford } from '../bytes';
import type { CborItem } from '../cbor/reader';
import { untag } from '../cbor/reader';
import { unsignedVerdict, type BodyView, type FieldNode, type SignatureVerdict } from '../model';
import { readBody } from './bodies';
import { encodeEnvelope, receivedWithoutSignature, type AsReceived } from './canonical';
import type { DialectVerdict } from './dialects';
import { envelopeDisplay, type DisplayType } from './dispatch';
import type { DecodedEnvelope } from './envelope';
import { decodeEnvelope } from './envelope';
import { checkHeaders, observedHeaders, type ObservedHeaders } from './headers';
import type { Header } from './iggy';
import { checkSignatureShape, uncoveredPaths } from './signature';
import { envelopeTree } from './tree';
import { decodeRefusal, envelopeDialect, validateEnvelope, type BodyAt } from './validate';
import { finding } from '../rules';
import type { DecodeError, Finding } from '../verdict';

export interface EnvelopeAnalysis {
  decoded: boolean;
  error: DecodeError | null;
  decodedEnvelope: DecodedEnvelope | null;
  kind: string | null;
  id: string | null;
  conversation: string | null;
  source: string | null;
  target: string | null;
  findings: Finding[];
  signature: SignatureVerdict;
  tree: FieldNode[];
  body: BodyView | null;
  /** The body's content bytes, when it is one definite byte string in these bytes. */
  bodySpan: Span | null;
  observed: ObservedHeaders | null;
  /** The dialect the record's fields and headers show, and what showed it (null: it did not decode). */
  dialect: DialectVerdict | null;
  /** The reference's display type for the record (dispatch.ts), on the session lane. */
  displayType: DisplayType | null;
  /** The envelope as received without its signature, for a signed record holding fields no dialect knows. */
  asReceived: AsReceived | null;
}

export interface EnvelopeOptions {
  /** The item came from a JSON view: byte strings may be arrays of integers, no canonical check. */
  jsonView?: boolean;
  /** The record's log headers, when it has them. */
  headers?: Header[];
  /** The laser record's partition key (the conversation's Crockford id). */
  partitionKey?: string;
  /**
   * Build the views (field tree, rendered body) too: true by default. Bulk loading says false and
   * rebuilds a record's views when it is opened; the verdicts and findings are the same either way.
   */
  detail?: boolean;
}

const UNSIGNED_UNKNOWN = unsignedVerdict('the record did not decode, so its signature could not be read');

export function failedAnalysis(error: DecodeError): EnvelopeAnalysis {
  return {
    decoded: false,
    error,
    decodedEnvelope: null,
    kind: null,
    id: null,
    conversation: null,
    source: null,
    target: null,
    findings: [],
    signature: UNSIGNED_UNKNOWN,
    tree: [],
    body: null,
    bodySpan: null,
    observed: null,
    dialect: null,
    displayType: null,
    asReceived: null,
  };
}

/** Analyses the envelope `item` whose spans index `bytes`. */
export function analyzeEnvelope(bytes: Uint8Array, item: CborItem, options: EnvelopeOptions = {}): EnvelopeAnalysis {
  const jsonView = options.jsonView ?? false;
  const detail = options.detail ?? true;
  const res = decodeEnvelope(item, { jsonView });
  if (!res.ok) return failedAnalysis(res.error);
  const decoded = res.value;
  const env = decoded.envelope;
  const spanOf = (path: string): Span | null => decoded.locations.get(path)?.value ?? null;
  const judged = envelopeDialect(env, options.headers);
  const dialect = judged.dialect;
  const refused = decodeRefusal(env, dialect, spanOf);
  if (refused) return failedAnalysis(refused);
  const findings: Finding[] = [];

  if (!jsonView) {
    const canonical = encodeEnvelope(env, true, dialect);
    const received = bytes.subarray(item.start, item.end);
    const at = firstDifference(received, canonical);
    if (at >= 0) {
      const offset = item.start + at;
      findings.push(
        finding(
          'agdx/noncanonical',
          fieldAt(decoded, offset),
          `the bytes decode but differ from the canonical encoding from byte ${offset} (${noncanonicalReason(decoded, item)})`,
          [offset, Math.min(offset + 1, item.end)],
        ),
      );
    }
  }
  for (const u of decoded.unknown) {
    findings.push(finding('agdx/unknown-field', u.name, `${u.name} is not a field of AGDX v1 (kept and shown, ignored by the reference)`, u.value));
  }
  // A body that is one definite byte string in these bytes is read where it is, so what is found
  // inside it points at its own bytes; a chunked or JSON-view body is read from a copy.
  const bodyLoc = decoded.locations.get('body');
  const bodyItem = bodyLoc ? untag(bodyLoc.item) : null;
  const bodyAt: BodyAt | undefined =
    env.body && bodyItem?.kind === 'bytes' && bodyItem.contentStart >= 0 ? { bytes, start: bodyItem.contentStart, end: bodyItem.end } : undefined;
  findings.push(...validateEnvelope(decoded, dialect, bodyAt));
  const observed = options.headers ? observedHeaders(options.headers) : null;
  if (options.headers) findings.push(...checkHeaders(env, options.headers, options.partitionKey, dialect));

  let body: BodyView | null = null;
  let bodyNode: FieldNode | undefined;
  let bodySpan: Span | null = null;
  if (env.body && bodyLoc) {
    const direct = bodyAt !== undefined;
    const ctx = { kind: env.kind, operation: env.operation, contentType: observed?.ct ?? null, dialect, taskState: env.task_state };
    const reading = bodyAt ? readBody(bytes, bodyAt.start, bodyAt.end, ctx, detail) : readBody(env.body, 0, env.body.length, ctx, detail);
    body = direct ? reading.view : { ...reading.view, span: bodyLoc.value };
    if (bodyAt) bodySpan = [bodyAt.start, bodyAt.end];
    if (direct && reading.node) bodyNode = reading.node;
    findings.push(...(direct ? reading.findings : reading.findings.map((f) => ({ ...f, span: bodyLoc.value }))));
  }

  const notCovered = env.signature ? uncoveredPaths(decoded, options.headers, options.partitionKey) : undefined;
  const sig = checkSignatureShape(env, observed, spanOf, notCovered);
  findings.push(...sig.findings);
  // What no dialect knows is outside the canonical re-encoding: the envelope as received may be what was signed.
  const covers = decoded.unknown.filter((u) => !u.name.startsWith('signature.')).map((u) => u.name);
  const asReceived = notCovered && covers.length && !jsonView ? receivedWithoutSignature(bytes, item, covers, notCovered) : null;

  return {
    decoded: true,
    error: null,
    decodedEnvelope: decoded,
    kind: env.kind,
    id: env.record ? toCrockford(env.record) : null,
    conversation: toCrockford(env.conversation),
    source: env.source,
    target: env.target ?? null,
    findings,
    signature: sig.verdict,
    tree: detail ? envelopeTree(decoded, item, bodyNode) : [],
    body,
    bodySpan,
    observed,
    dialect: judged,
    displayType: envelopeDisplay(env),
    asReceived,
  };
}

/** The field whose key or value holds `offset`, for pointing a finding at it. */
function fieldAt(decoded: DecodedEnvelope, offset: number): string | null {
  let best: string | null = null;
  let bestSize = Infinity;
  for (const [path, loc] of decoded.locations) {
    for (const s of [loc.key, loc.value]) {
      if (offset >= s[0] && offset < s[1] && s[1] - s[0] < bestSize) {
        best = path;
        bestSize = s[1] - s[0];
      }
    }
  }
  return best;
}

/** Names what made the bytes non-canonical, as far as the items tell. */
function noncanonicalReason(decoded: DecodedEnvelope, item: CborItem): string {
  const reasons = new Set<string>();
  if (decoded.unknown.length) reasons.add('unknown fields');
  if (decoded.nulls.length) reasons.add(`explicit null for ${decoded.nulls.join(', ')}`);
  if (decoded.explicitFalse.length) reasons.add('last written as false');
  const walk = (it: CborItem): void => {
    if (it.kind === 'tag') {
      reasons.add('tags');
      walk(it.item);
      return;
    }
    const indefinite = (it.kind === 'map' || it.kind === 'array' || it.kind === 'bytes' || it.kind === 'text') && it.indefinite;
    if (indefinite) reasons.add('indefinite lengths');
    else if (!it.minimal) reasons.add('non-minimal heads');
    if (it.kind === 'array') for (const child of it.items) walk(child);
    if (it.kind === 'map')
      for (const e of it.entries) {
        walk(e.key);
        walk(e.value);
      }
  };
  walk(item);
  if (decoded.locations.has('body') && !decoded.envelope.body) reasons.add('an empty body');
  if (decoded.locations.has('must_understand') && decoded.envelope.must_understand === undefined) reasons.add('must_understand written as 0');
  // What is left: keys out of declaration order, metadata out of bytewise order, or a float wider than needed.
  return reasons.size ? [...reasons].join(', ') : 'field order, metadata order or a float written wider than needed';
}
