// Bulk loading's shortcut: a canonical envelope with nothing to report becomes a record without the
// general decoder's item tree. Anything with a finding goes the general way, which locates every
// finding's bytes; so a record's verdicts never depend on which way it went.
import { readBody } from '../agdx/bodies';
import { envelopeDisplay } from '../agdx/dispatch';
import { IdViews, readCanonicalEnvelope } from '../agdx/fast';
import { checkSignatureShape } from '../agdx/signature';
import { decodeRefusal, envelopeDialect, validateFields } from '../agdx/validate';
import { bytesEqual, toCrockford } from '../bytes';
import type { InspectedRecord, ViewBuilder } from '../records';
import { envelopeSummary, type Place } from './build';

const noSpan = () => null;

/**
 * The bare envelope at `start` (a CBOR sequence has no headers) as a finished record, or null when
 * it must take the general way (not canonical, or it has a finding). `views` builds its views from
 * its bytes when it is opened.
 */
export function fastEnvelopeRecord(place: Place, start: number, end: number, index: number, views: ViewBuilder): InspectedRecord | null {
  const fast = readCanonicalEnvelope(place.view, start, idViewsOf(place.view), end);
  if (!fast) return null;
  const env = fast.envelope;
  // A bare envelope has no headers: its fields alone show its dialect.
  const { dialect, evidence } = envelopeDialect(env);
  if (decodeRefusal(env, dialect, noSpan)) return null;
  const bodyAt = fast.bodyStart >= 0 ? { bytes: place.view, start: fast.bodyStart, end: fast.bodyEnd } : undefined;
  if (validateFields(env, noSpan, dialect, bodyAt).length) return null;
  // readBody decides which bodies can have findings (kind-specific ones; a guess has none).
  if (
    bodyAt &&
    readBody(bodyAt.bytes, bodyAt.start, bodyAt.end, { kind: env.kind, operation: env.operation, contentType: null, dialect, taskState: env.task_state }, false)
      .findings.length
  )
    return null;
  const signature = checkSignatureShape(env, null, noSpan);
  if (signature.findings.length) return null;
  // Written out in full (no draft, no spread): this runs once per record of a large log.
  return {
    verdict: {
      input: place.input,
      index,
      format: 'agdx.envelope',
      span: [start, fast.end],
      inputSpan: null,
      decoded: true,
      error: null,
      kind: env.kind,
      id: env.record ? toCrockford(env.record) : null,
      conversation: conversationId(env.conversation),
      source: env.source,
      target: env.target ?? null,
      findings: NO_FINDINGS,
      signature: signature.verdict,
      logTimeMicros: null,
      parent: null,
      summary: envelopeSummary(env),
      dialect: dialect.id,
      dialectEvidence: evidence,
      displayType: envelopeDisplay(env),
    },
    data: {
      view: place.view,
      viewOrigin: place.viewOrigin,
      envelope: env,
      headers: null,
      observed: null,
      logPosition: null,
      bodySpan: fast.bodyStart >= 0 ? [fast.bodyStart, fast.bodyEnd] : null,
      views,
    },
  };
}

// Shared: a verdict's findings are never changed.
const NO_FINDINGS = Object.freeze([]);

// A log holds few conversations and many records each: reuse the display id of the last one.
let lastConversation: Uint8Array | null = null;
let lastConversationId = '';
function conversationId(bytes: Uint8Array): string {
  if (lastConversation && lastConversation.length === bytes.length && bytesEqual(lastConversation, bytes)) return lastConversationId;
  lastConversation = bytes.slice();
  lastConversationId = toCrockford(bytes);
  return lastConversationId;
}

// Repeated ids of one input share a view (agdx/fast.ts IdViews), kept as long as the input's bytes are.
const idViews = new WeakMap<Uint8Array, IdViews>();
function idViewsOf(view: Uint8Array): IdViews {
  let ids = idViews.get(view);
  if (!ids) idViews.set(view, (ids = new IdViews(view.length)));
  return ids;
}
