// Bulk loading's shortcut: a canonical envelope with nothing to report becomes a record without the
// general decoder's item tree. Anything with a finding goes the general way, which locates every
// finding's bytes; so a record's verdicts never depend on which way it went.
import { bodyCanHaveFindings, readBody } from '../agdx/bodies';
import { envelopeDisplay } from '../agdx/dispatch';
import type { Envelope } from '../agdx/envelope';
import { type FastEnvelope, IdViews, plainErrorBody, readCanonicalEnvelope } from '../agdx/fast';
import { checkSignatureShape } from '../agdx/signature';
import type { Dialect, DialectVerdict } from '../agdx/dialects';
import { decodeRefusal, envelopeDialect, validateFields } from '../agdx/validate';
import { bytesEqual, toCrockford } from '../bytes';
import type { SignatureVerdict, Span, ViewOrigin } from '../model';
import type { InspectedRecord, RecordData, ViewBuilder } from '../records';
import { type Finding, NO_FINDINGS, type RecordVerdict } from '../verdict';
import { type Place, summaryText } from './build';
import { envelopeViews } from './views';

const noSpan = () => null;

/**
 * The bare envelope at `start` (a CBOR sequence has no headers) as a finished record, or null when
 * it must take the general way (not canonical, or it has a finding). Its views are built from its
 * bytes when it is opened (envelopeViews).
 */
export function fastEnvelopeRecord(place: Place, start: number, end: number, index: number): InspectedRecord | null {
  const fast = readCanonicalEnvelope(place.view, start, idViewsOf(place.view), end);
  if (!fast) return null;
  const env = fast.envelope;
  // A bare envelope has no headers: its fields alone show its dialect.
  const shown = envelopeDialect(env);
  const { dialect } = shown;
  if (decodeRefusal(env, dialect, noSpan)) return null;
  // The body is read as its own bytes (env.body, a view of the input's): only whether there is a
  // finding matters here, not where (a record with one goes the general way, which locates it).
  if (validateFields(env, noSpan, dialect).length) return null;
  if (env.body !== undefined && bodyHasFindings(env, env.body, dialect)) return null;
  const signature = checkSignatureShape(env, null, noSpan);
  if (signature.findings.length) return null;
  return new BulkRecord(
    place,
    start,
    fast.end,
    env,
    index,
    env.kind,
    offsetIn(place.view, env.record),
    conversationId(env.conversation),
    env.source,
    env.target ?? null,
    env.operation ?? null,
    signature.verdict,
    shown,
    envelopeDisplay(env),
  );
}

/**
 * Whether a bare envelope's body has a finding. readBody decides which bodies can have one
 * (kind-specific ones; a guess has none); an error body laser writes is judged over its bytes
 * (plainErrorBody), with no item tree.
 */
function bodyHasFindings(env: Envelope, body: Uint8Array, dialect: Dialect): boolean {
  // A bare envelope has no agdx.ct: most bodies are guessed at, which finds nothing.
  if (!bodyCanHaveFindings(env.kind, env.operation, null, dialect)) return false;
  if (env.kind === 'error' && plainErrorBody(body, 0, body.length)) return false;
  const context = { kind: env.kind, operation: env.operation, contentType: null, dialect, taskState: env.task_state };
  return readBody(body, 0, body.length, context, false).findings.length > 0;
}

/** Where `id` (a view of `view`'s bytes, as the fast reader gives ids) starts in `view`, or −1 without one. */
function offsetIn(view: Uint8Array, id: Uint8Array | undefined): number {
  if (id === undefined) return -1;
  // By its offsets: reading `buffer` (a getter) cost more than the rest of this per record.
  const at = id.byteOffset - view.byteOffset;
  if (id.length !== ID_LENGTH || at < 0 || at + ID_LENGTH > view.length) throw new TypeError('offsetIn: the id is not 16 bytes of the view');
  return at;
}
const ID_LENGTH = 16;

/**
 * A bulk-read envelope as a record: its verdict and its data in one object (`verdict` and `data`
 * are itself), so a record read in bulk is one allocation, not three. Made and kept for every
 * record of a large log, three objects and their two links were about a third of what a record
 * kept, and all of it was copied through the young generation's collections.
 *
 * The verdict: a record with nothing to report, so most of report@1's fields are the same for
 * every one (on the prototype), and what is its own but made from other fields (its id's text,
 * its span, its one-line summary) is made when asked. Made and held per record, those were about a
 * third of a bulk read's time (100,000 records held their strings and arrays through every
 * young-generation collection). The page's worker asks for them once, when it makes a record's
 * summary for the list, and holds them in no verdict; the command line does not ask for a clean
 * record's (it writes those from its columns).
 *
 * The data: a bare envelope (no headers, no log position) at its place in the input. The envelope
 * is held until its reader lets it go (letGoOfEnvelopes: the page's worker, once a batch's
 * signatures are checked and its summaries made): what a large log then keeps of such a record is
 * its place, not the envelope's objects and views (about 290 bytes a record in Chromium: a
 * million-record load's worker took 1,017 MB with them held, 730 without). The envelope is read
 * again from the input when asked for later (the log's analysis, a detail, a key change, a
 * comparison). The input's bytes are never written.
 */
class BulkRecord implements InspectedRecord, RecordVerdict, RecordData {
  constructor(
    /** Its input and the view of it (the reader's, shared by the records read with it). */
    private readonly place: Place,
    private readonly start: number,
    private readonly end: number,
    private held: Envelope | null,
    readonly index: number,
    readonly kind: string,
    /** Where the record id's 16 bytes are in the view, or −1 without one. */
    private readonly idAt: number,
    readonly conversation: string,
    readonly source: string,
    readonly target: string | null,
    private readonly operation: string | null,
    readonly signature: SignatureVerdict,
    /** Its dialect and the evidence (shared: one per dialect and evidence). */
    private readonly shown: DialectVerdict,
    readonly displayType: string | null,
  ) {}

  // Read through the shared objects rather than held per record: every field is copied through the
  // young generation's collections for each record a large log keeps.
  get input(): number {
    return this.place.input;
  }
  get view(): Uint8Array {
    return this.place.view;
  }
  get viewOrigin(): ViewOrigin {
    return this.place.viewOrigin;
  }
  get views(): ViewBuilder {
    return envelopeViews;
  }
  get dialect(): string {
    return this.shown.dialect.id;
  }
  get dialectEvidence(): readonly string[] {
    return this.shown.evidence;
  }

  get verdict(): RecordVerdict {
    return this;
  }
  get data(): RecordData {
    return this;
  }

  // --- the verdict ---
  get format(): 'agdx.envelope' {
    return 'agdx.envelope';
  }
  /** The envelope's bytes in the view. */
  get span(): Span {
    return [this.start, this.end];
  }
  get id(): string | null {
    return this.idAt < 0 ? null : toCrockford(this.view, this.idAt, this.idAt + ID_LENGTH);
  }
  get summary(): string {
    return summaryText(this.kind, this.operation, this.source, this.target);
  }
  get inputSpan(): null {
    return null;
  }
  get decoded(): true {
    return true;
  }
  get error(): null {
    return null;
  }
  get findings(): readonly Finding[] {
    return NO_FINDINGS;
  }
  get logTimeMicros(): null {
    return null;
  }
  get parent(): null {
    return null;
  }

  // --- the data ---
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

/** Lets go of the envelopes of bulk-read records (BulkRecord): each is read again from its input when asked for. */
export function letGoOfEnvelopes(records: readonly InspectedRecord[]): void {
  // By its data: a record whose verdict a key change renewed is a new object around the same data.
  for (const r of records) if (r.data instanceof BulkRecord) r.data.letGo();
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
