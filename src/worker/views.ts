// One record, or two things side by side, as the page shows them: a record's detail (its bytes,
// tree, findings, workflow, links resolved to the records they name, its body in readable form),
// comparisons of two records, inputs or conversations, and the records a "Compare with…" search finds.
import { encodeEnvelope, signingInputSegments } from '../core/agdx/canonical';
import type { WorkflowReport } from '../core/agentdna/model';
import { readableBodyOf, type BodyLog } from '../core/bodies/readable';
import { firstDifference } from '../core/bytes';
import { diagnosticView } from '../core/cbor/diagnostic';
import { compareLogs } from '../core/compare/log';
import type { Comparison, CompareSubject } from '../core/compare/model';
import { compareRecords, type CompareSide } from '../core/compare/records';
import { recordLinks, type RecordLink } from '../core/graph/record-links';
import type { LogEntry } from '../core/log/entry';
import { recordsByPosition, type RecordAtPosition } from '../core/log/positions';
import { recordViews, type InspectedRecord } from '../core/records';
import { hasBody } from '../core/share/redact';
import { shortId } from '../core/short-id';
import { allFindings, isValid } from '../core/verdict';
import type { Handlers, LinkedRecord, RecordDetail, RecordLinkView } from '../wire/protocol';
import type { SessionState } from './session-state';
import { summarize } from './summarize';

/** The most bytes a detail sends for the hex view of a record without a span (a failed input). */
const MAX_HEX = 1 << 20;
/** Answers a command's correlation link lists (the count says how many there are in all). */
const ANSWERS_LISTED = 20;

export class Views {
  /** The record at a log position, over the entries of the state's log (bodyLog). */
  private positions: { entries: readonly LogEntry[]; recordAt: RecordAtPosition } | null = null;

  constructor(private readonly state: SessionState) {}

  detail(key: number): RecordDetail | null {
    const state = this.state;
    const r = state.records[key];
    if (!r) return null;
    const { verdict: v, data } = r;
    // Records read in bulk carry no views: they are built now; the verdicts stay this record's.
    const views = recordViews(r);
    const [start, end] = v.span ?? [0, Math.min(data.view.length, MAX_HEX)];
    return {
      key,
      // A record still streaming in has no summary made yet: this one is as the page will see it.
      summary: state.summaryOf(key) ?? summarize(key, r, state.logRules(key), state.blanked.has(key)),
      inputName: state.inputs[state.inputOf[key]].name,
      span: v.span,
      inputSpan: v.inputSpan,
      error: v.error,
      findings: [...allFindings(v, state.logFindings(key))],
      signature:
        state.redactedInputs.has(state.inputOf[key]) && v.signature.status !== 'unsigned' && hasBody(r)
          ? { ...v.signature, reason: `${redactionWords(state.blanked.has(key))}: ${v.signature.reason}` }
          : v.signature,
      tree: views.tree,
      headers: views.headers,
      body: views.body,
      viewOrigin: data.viewOrigin,
      hexOffset: start,
      hex: data.view.slice(start, end),
      hexTruncated: v.span === null && data.view.length > MAX_HEX,
      diagnostic: diagnosticView(data.view.subarray(start, end)),
      logTimeMicros: v.logTimeMicros?.toString() ?? null,
      logPosition: data.logPosition ? `partition ${data.logPosition.partition}, offset ${data.logPosition.offset}` : null,
      parent: v.parent !== null ? key - (v.index - v.parent) : null,
      signing: data.envelope?.signature ? signingInputSegments(data.envelope) : null,
      canonical: canonicalDiff(r),
      workflow: this.completedWorkflow(key),
      context: { signed: data.envelope?.signature?.context ?? null, observed: data.observed },
      links: this.links(key),
      dialectEvidence: v.dialectEvidence,
      readableBody: readableBodyOf(r, key, this.bodyLog(state.inputOf[key])),
    };
  }

  /**
   * What a record's readable body reads of the load: the last load's entries (none while it is still
   * reading), the records' envelopes, links' labels, and the position lookup (made once per analysis).
   */
  private bodyLog(from: number): BodyLog {
    const entries = this.state.log?.facts.entries ?? [];
    if (this.positions?.entries !== entries) this.positions = { entries, recordAt: recordsByPosition(entries) };
    return {
      entries,
      envelopeOf: (k) => this.state.records[k]?.data.envelope ?? null,
      labelOf: (k) => this.recordLabel(k, from),
      recordAt: this.positions.recordAt,
    };
  }

  /**
   * A record's cause, cause_at and correlation resolved over the last load's record-level graph
   * (none while its load is still reading: the graph is made when it ends).
   */
  private links(key: number): RecordLinkView[] {
    const log = this.state.log;
    if (!log) return [];
    const linked = (k: number): LinkedRecord => ({ key: k, label: k === key ? 'this record itself' : this.recordLabel(k, this.state.inputOf[key]) });
    return recordLinks(log.compact, log.facts.entries, key).map((l: RecordLink) => ({
      field: l.field,
      ref: l.ref,
      target: l.target === null ? null : linked(l.target),
      answers: l.answers.slice(0, ANSWERS_LISTED).map(linked),
      answerCount: l.answers.length,
      note: l.note,
    }));
  }

  /**
   * A record in a few words for a link to it: kind, short id and place, the input named only when it
   * is not `from` (the linking record's input: its name again made every link wrap on a phone).
   */
  private recordLabel(key: number, from: number): string {
    const s = this.state.summaryOf(key);
    if (!s) return `record ${key}`;
    const input = this.state.inputOf[key];
    const where = input === from ? `record #${s.index}` : `${this.state.inputs[input]?.name ?? ''} #${s.index}`;
    return `${s.kind ?? s.format}${s.id ? ` ${shortId(s.id)}` : ''} · ${where}`;
  }

  /** The workflow of a record, its lists of candidate keys complete. */
  private completedWorkflow(key: number): WorkflowReport | null {
    this.state.completeLists((w) => w.record === key);
    return this.state.workflows.find((w) => w.record === key) ?? null;
  }

  /**
   * A record as a comparison side: its verdict with the log's findings, its input's name, its
   * workflow. A side of two logs compared (no workflow) shows rules, not bytes: its findings' spans
   * are not looked for.
   */
  private compareSide(key: number, workflow = true): CompareSide {
    const state = this.state;
    const record = state.records[key];
    const log = workflow ? state.logFindings(key) : state.logRules(key);
    return {
      key,
      record,
      inputName: state.inputs[state.inputOf[key]].name,
      valid: isValid(record.verdict, log),
      findings: allFindings(record.verdict, log),
      workflow: workflow ? this.completedWorkflow(key) : null,
    };
  }

  /** Two records, two inputs or two conversations compared; null when one of them is not loaded. */
  compare(subject: CompareSubject): Comparison | null {
    const state = this.state;
    if (subject.scope === 'records') {
      const { a, b } = subject;
      if (!state.records[a] || !state.records[b]) return null;
      return compareRecords(this.compareSide(a), this.compareSide(b));
    }
    const keys = (match: (key: number) => boolean) => {
      const out: CompareSide[] = [];
      for (let key = 0; key < state.records.length; key++) if (match(key)) out.push(this.compareSide(key, false));
      return out;
    };
    if (subject.scope === 'inputs') {
      const { a, b } = subject;
      if (!state.inputs[a] || !state.inputs[b]) return null;
      return compareLogs(
        'inputs',
        { label: state.inputs[a].name, records: keys((k) => state.inputOf[k] === a) },
        { label: state.inputs[b].name, records: keys((k) => state.inputOf[k] === b) },
      );
    }
    const { a, b } = subject;
    if (typeof a !== 'string' || typeof b !== 'string') throw new TypeError('compare: conversation ids are strings');
    const ra = keys((k) => state.records[k].verdict.conversation === a);
    const rb = keys((k) => state.records[k].verdict.conversation === b);
    if (!ra.length || !rb.length) return null;
    return compareLogs('conversations', { label: a, records: ra }, { label: b, records: rb });
  }

  /**
   * Records to compare `near` with: those whose summary, id, kind, format, source, target,
   * conversation or input name holds `text` (any case), `#N` for index N; with no text, records of
   * `near`'s kind. At most `limit` keys, `near`'s kind first, and how many match in all.
   */
  compareCandidates(text: string, near: number | null, limit: number): { keys: number[]; total: number } {
    if (typeof text !== 'string') throw new TypeError('compareCandidates: text must be a string');
    const state = this.state;
    const q = text.trim().toLowerCase();
    const index = /^#(\d+)$/.exec(q);
    const kindOf = (k: number) => {
      const v = state.records[k].verdict;
      return v.kind ?? v.format;
    };
    const nearKind = near !== null && state.summaries.has(near) ? kindOf(near) : null;
    const first: number[] = [];
    const rest: number[] = [];
    let total = 0;
    const cap = Math.max(0, Math.min(limit, 500));
    for (let key = 0; key < state.summaries.length; key++) {
      const s = state.summaryOf(key);
      if (!s || key === near) continue;
      const hit = index
        ? s.index === Number(index[1])
        : q === ''
          ? nearKind === null || kindOf(key) === nearKind
          : [s.summary, s.id, s.kind, s.format, s.source, s.target, s.conversation, state.inputs[s.input]?.name].some((f) => f?.toLowerCase().includes(q));
      if (!hit) continue;
      total++;
      const same = nearKind !== null && kindOf(key) === nearKind;
      if (same && first.length < cap) first.push(key);
      else if (!same && rest.length < cap) rest.push(key);
    }
    return { keys: [...first, ...rest].slice(0, cap), total };
  }
}

/** What a link's claim of redaction means for one record's signature verdict. */
function redactionWords(blank: boolean): string {
  return blank
    ? 'the link says bodies were redacted before it was shared, and this body is blank as redaction leaves it: the signature cannot be re-checked (this verdict is over the blanked body)'
    : 'the link says bodies were redacted, but this body is not blank: the claim does not hold for this record, and this verdict is over the body as received';
}

function canonicalDiff({ verdict, data }: InspectedRecord): RecordDetail['canonical'] {
  if (!data.envelope || !verdict.span || !verdict.findings.some((f) => f.rule === 'agdx/noncanonical')) return null;
  const received = data.view.slice(verdict.span[0], verdict.span[1]);
  const canonical = encodeEnvelope(data.envelope);
  return { received, canonical, offset: verdict.span[0], firstDifference: firstDifference(received, canonical) };
}

/** The requests about one record, and about two compared. */
export function viewsHandlers(views: Views) {
  return {
    async detail({ key }) {
      return views.detail(key);
    },
    async compare(subject) {
      return views.compare(subject);
    },
    async compareCandidates({ text, near, limit }) {
      return views.compareCandidates(text, near, limit);
    },
  } satisfies Partial<Handlers>;
}
