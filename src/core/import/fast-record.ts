// Bulk loading's shortcut: a canonical envelope with nothing to report becomes a record without the
// general decoder's item tree. Anything with a finding goes the general way, which locates every
// finding's bytes; so a record's verdicts never depend on which way it went.
import { readBody } from '../agdx/bodies';
import { envelopeDisplay } from '../agdx/dispatch';
import type { Envelope } from '../agdx/envelope';
import { type FastEnvelope, IdViews, readCanonicalEnvelope } from '../agdx/fast';
import { checkSignatureShape } from '../agdx/signature';
import { decodeRefusal, envelopeDialect, validateFields } from '../agdx/validate';
import { bytesEqual, toCrockford } from '../bytes';
import type { Span, ViewOrigin } from '../model';
import type { InspectedRecord, RecordData, ViewBuilder } from '../records';
import { NO_FINDINGS } from '../verdict';
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
    data: new BulkEnvelopeData(place.view, place.viewOrigin, start, fast.end, views, env),
  };
}

/**
 * A bulk-read envelope's data: a bare envelope (no headers, no log position) at its place in the
 * input. The envelope is held until its reader lets it go (letGoOfEnvelopes: the page's worker,
 * once a batch's signatures are checked and its summaries made): what a large log then keeps of
 * such a record is its place, not the envelope's objects and views (about 290 bytes a record in
 * Chromium: a million-record load's worker took 1,017 MB with them held, 730 without). The
 * envelope is read again from the input when asked for later (the log's analysis, a detail, a key
 * change, a comparison). The input's bytes are never written.
 */
class BulkEnvelopeData implements RecordData {
  constructor(
    readonly view: Uint8Array,
    readonly viewOrigin: ViewOrigin,
    private readonly start: number,
    private readonly end: number,
    readonly views: ViewBuilder,
    private held: Envelope | null,
  ) {}

  get envelope(): Envelope {
    return this.held ?? this.readAgain().envelope;
  }
  get bodySpan(): Span | null {
    const { bodyStart, bodyEnd } = this.readAgain();
    return bodyStart >= 0 ? [bodyStart, bodyEnd] : null;
  }
  get headers(): null {
    return null;
  }
  get observed(): null {
    return null;
  }
  get logPosition(): null {
    return null;
  }

  letGo(): void {
    this.held = null;
  }

  private readAgain(): FastEnvelope {
    const again = readCanonicalEnvelope(this.view, this.start, undefined, this.end);
    // It read once from these bytes, and nothing writes an input's bytes.
    if (!again) throw new Error(`the envelope at ${this.start} no longer reads from its input`);
    return again;
  }
}

/** Lets go of the envelopes of bulk-read records (BulkEnvelopeData): each is read again from its input when asked for. */
export function letGoOfEnvelopes(records: readonly InspectedRecord[]): void {
  for (const r of records) if (r.data instanceof BulkEnvelopeData) r.data.letGo();
}

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
