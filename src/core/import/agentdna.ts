// The AgentDNA importer: recognise the shape of an AgentDNA JSON document (IntentWorkflow, bare
// envelope, card, card history or array of workflows), verify every envelope offline, and turn each
// document into records (field tree and body from agentdna/views.ts, findings whose spans
// index the JSON text) plus one WorkflowReport per workflow for report@1's `workflows` section.
// A card history streams by item. Never throws for any input.
import { utf8Encode } from '../bytes';
import type { JsonEntry, JsonValue } from '../json/lossless';
import { readJson } from '../json/lossless';
import { unsignedVerdict, type BodyView, type FieldNode, type RecordFormat, type Span } from '../model';
import type { InspectedRecord, RecordViews, ViewBuilder } from '../records';
import { isCardObject, policyDisplay, readCard, stateData, type CardInfo } from '../agentdna/cards';
import { policyChange } from '../compare/policy';
import { lastEntries, looksLikeEnvelope, readEnvelopeTree, str, uncoveredPaths, type EnvelopeNode, type JsonObject } from '../agentdna/envelope';
import type { WorkflowReport } from '../agentdna/model';
import type { ExtraKeys } from '../agentdna/signature';
import type { SignatureJob, SignatureResults } from '../agentdna/signature-jobs';
import { type DidIndex, envelopeTrust, indexDids, workflowSignature } from '../agentdna/trust';
import { cardTree, display, envelopeTree, payloadBody, pretty, workflowTree } from '../agentdna/views';
import { analyzeWorkflow, envelopeReport, signatureJobsOf, type EnvelopeHashCache, type WorkflowAnalysis } from '../agentdna/workflow';
import { blankRecord, failedRecord, finishRecord, jsonDecodeError, type Place, type RecordDraft } from './build';
import { wholeInput, jsonRoot, type ImportContext, type ImportedBatch, type Importer, type Source } from './importer';
import { finding } from '../rules';
import type { DecodeError, Finding } from '../verdict';
import { shortDid } from '../short-id';

export type AgentDnaShape = 'workflow' | 'envelope' | 'card' | 'cards';

export interface ReadAgentDnaOptions {
  /** Keys for DIDs made another way (the report's key file: agent = DID; 33- or 65-byte secp256k1 keys). */
  extraKeys?: Map<string, Uint8Array[]>;
  /** The reader's registry's AgentDNA identities (trust.ts indexDids), which each workflow's trust is judged by; none: no registry. */
  dids?: DidIndex;
  /** agentdnaShape(root), when the caller has worked it out already (it walks every item). */
  shape?: AgentDnaShape | null;
  /**
   * Signature checks done on other threads: readAgentDnaParts sends each stretch of a card history
   * or workflow array ahead and yields a wait before it reads one whose answers are not in yet.
   */
  signatures?: SignatureResults;
  /**
   * Build each workflow's views (field tree, payload body) while reading (true, the default of
   * readAgentDna), or when the record is opened (false: the driver's bulk reads), from the record's
   * span read again: a tree of every field of 10,000 workflows is most of what a load would keep.
   */
  detail?: boolean;
}

/** How a read checks signatures (the key-file keys, and answers computed elsewhere) and whether it builds views. */
interface Checking {
  extraKeys?: ExtraKeys;
  /** The registry the workflows' trust is judged by (NO_REGISTRY without one). */
  dids: DidIndex;
  results?: SignatureResults;
  /** The hashes the checks listed ahead (with `results`) made, for the items' analyses to use and take out. */
  hashesAhead: EnvelopeHashCache;
  /**
   * Card states whose data is JSON text, read by the checks listed ahead, for the item's reading to
   * take out: the text is read once, and the hashes made ahead are of the objects the item reads.
   */
  statesAhead: Map<JsonValue, StateText>;
  /** Builds a workflow record's views when it is opened; absent: they are built while reading. */
  views?: ViewBuilder;
}

export interface AgentDnaResult {
  records: InspectedRecord[];
  workflows: WorkflowReport[];
}

// ---------------------------------------------------------------------------------------------
// Shapes
// ---------------------------------------------------------------------------------------------

function isWorkflowObject(v: JsonValue | undefined): boolean {
  if (v?.type !== 'object') return false;
  const { fields } = lastEntries(v);
  const type = fields.get('type')?.value;
  if (type?.type === 'string' && type.value === 'intent_workflow') return true;
  const env = fields.get('envelope')?.value;
  return env !== undefined && looksLikeEnvelope(env);
}

/** A state wrapper (`{data: …}`) holding a card or a workflow. */
function stateInner(v: JsonValue): JsonEntry | undefined {
  const data = stateData(v);
  if (!data) return undefined;
  if (data.value.type === 'object') return isCardObject(data.value) || isWorkflowObject(data.value) ? data : undefined;
  return data; // a JSON string: checked when read
}

/** Which AgentDNA document this is, or null when it is none. */
export function agentdnaShape(root: JsonValue): AgentDnaShape | null {
  try {
    if (root.type === 'object') {
      if (isWorkflowObject(root)) return 'workflow';
      if (looksLikeEnvelope(root)) return 'envelope';
      if (isCardObject(root) || stateInner(root)) return 'card';
      return null;
    }
    if (root.type === 'array' && root.items.length > 0) {
      const ok = root.items.every((item) => isCardObject(item) || isWorkflowObject(item) || stateInner(item) !== undefined);
      return ok ? 'cards' : null;
    }
  } catch {
    // fall through
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------------------------

const NO_REGISTRY = indexDids([]);

const UNSIGNED_CARD = unsignedVerdict('a card carries no signature of its own: the provenance layer records its states');

interface Built {
  record: RecordDraft;
  workflow: Omit<WorkflowReport, 'record'> | null;
}

function workflowFindings(root: JsonObject): { findings: Finding[]; legacy: boolean } {
  const { fields } = lastEntries(root);
  const findings: Finding[] = [];
  const version = fields.get('version');
  const remarks = fields.get('remarks');
  const reasons: string[] = [];
  if (remarks) reasons.push('it has `remarks`');
  if (version && !(version.value.type === 'string' && version.value.value === '2.0')) reasons.push(`its version is ${display(version.value)}, not "2.0"`);
  if (reasons.length > 0) {
    if (!fields.has('id')) reasons.push('it has no `id`');
    const span = remarks ? ([remarks.keyStart, remarks.value.end] as Span) : version ? ([version.keyStart, version.value.end] as Span) : null;
    findings.push(
      finding(
        'agentdna/legacy',
        remarks ? 'remarks' : 'version',
        `a 1.0-style IntentWorkflow (${reasons.join(', ')}): shown and checked as far as it goes; AgentDNA 2.0 does not write this shape`,
        span,
      ),
    );
  }
  return { findings, legacy: reasons.length > 0 };
}

/** A workflow (or bare envelope) as a record and its workflow report. */
function buildWorkflow(
  place: Place,
  index: number,
  root: JsonObject,
  shape: 'workflow' | 'envelope',
  format: RecordFormat,
  kind: string | null,
  checking: Checking,
): Built {
  const span: Span = [root.start, root.end];
  const base = blankRecord(place, index, format, span);
  let envObj: JsonObject;
  let wf: { findings: Finding[]; legacy: boolean } = { findings: [], legacy: false };
  if (shape === 'workflow') {
    const { fields } = lastEntries(root);
    wf = workflowFindings(root);
    const env = fields.get('envelope');
    if (env?.value.type !== 'object') {
      const error: DecodeError = {
        code: 'agentdna/shape',
        message: env
          ? `the workflow's envelope is ${display(env.value)}, not an envelope object: AgentDNA raises "workflow does not contain an envelope"`
          : 'the workflow has no envelope',
        offset: env ? env.value.start : root.start,
      };
      const record: RecordDraft = {
        ...base,
        kind,
        error,
        findings: wf.findings,
        tree: workflowTree(root, null, null),
        summary: `${error.code}: ${error.message}`,
      };
      return { record, workflow: null };
    }
    envObj = env.value;
  } else {
    envObj = root;
  }
  const tip = readEnvelopeTree(envObj, shape === 'workflow' ? 'envelope' : '');
  const a = analyzeWorkflow(tip, checking.extraKeys, checking.results, checking.hashesAhead);
  const findings = [...wf.findings, ...a.findings];
  const tipV = a.verdictOf(tip);
  const tipHash = tipV.claimedHash ?? tipV.contentHash ?? '';
  const views = checking.views ? { viewBuilder: checking.views } : workflowViews(root, shape, tip, a);
  const m = a.modes;
  const modesLine = `light ${m.light.code} · heavy ${m.heavy.code} · boundary ${m.boundary.code}`;
  const what = shape === 'workflow' ? (kind === 'workflow' ? 'workflow provenance card' : 'IntentWorkflow') : 'envelope';
  // Trust, by the reader's registry (the worker applies a changed one with applyAgentDnaTrust).
  const envelopes = a.verdicts.map(envelopeReport);
  for (const e of envelopes) Object.assign(e, envelopeTrust(e, checking.dids));
  const record: RecordDraft = {
    ...base,
    decoded: true,
    kind,
    id: tipHash || null,
    source: str(tip.from),
    target: str(tip.to),
    findings,
    signature: workflowSignature(envelopes, checking.dids, () => uncoveredPaths(tip, shape === 'workflow' ? root : null)),
    ...views,
    summary: `${what} ${tipHash ? `${tipHash.slice(0, 12)}…` : '(no hash)'} from ${shortDid(str(tip.from) ?? '?')}: ${a.verdicts.length} envelope${a.verdicts.length === 1 ? '' : 's'}; ${modesLine}`,
  };
  const edges: WorkflowReport['edges'] = [];
  const seen = new Set<string>();
  for (const v of a.verdicts) {
    for (const p of v.node.parents) {
      const pv = a.verdictOf(p);
      const key = `${v.index}>${pv.index}`;
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push({ from: envelopes[v.index].hash, to: envelopes[pv.index].hash, via: 'parent_envelope', from_index: v.index, to_index: pv.index });
    }
  }
  return {
    record,
    workflow: {
      modes: { light: m.light.code, heavy: m.heavy.code, boundary: m.boundary.code },
      envelopes,
      tip: tipHash,
      mode_details: m,
      edges,
      parse_error: a.parseError,
      legacy: wf.legacy || a.verdicts.some((v) => v.node.legacy.length > 0),
    },
  };
}

/** A workflow's (or a bare envelope's) views: its field tree, each envelope with its verdict, and the tip's payload. */
function workflowViews(root: JsonObject, shape: 'workflow' | 'envelope', tip: EnvelopeNode, a: WorkflowAnalysis): { tree: FieldNode[]; body: BodyView | null } {
  return { tree: shape === 'workflow' ? workflowTree(root, tip, a) : [envelopeTree(tip, a, 'envelope', null)], body: payloadBody(tip) };
}

const NO_VIEWS: RecordViews = { tree: [], headers: null, body: null };

/**
 * The views of a workflow record read without them: its JSON read again at the record's span and
 * analysed again (the same bytes give the same tree, the same verdicts: a test holds the two ways
 * equal). Only records with an envelope object get it; the others have their views made while read.
 */
function workflowViewBuilder(extraKeys: ExtraKeys | undefined): ViewBuilder {
  return ({ verdict, data }) => {
    if (verdict.span === null) return NO_VIEWS;
    const read = readJson(data.view, { start: verdict.span[0], end: verdict.span[1] });
    if (!read.ok || read.value.type !== 'object') return NO_VIEWS;
    const root = read.value;
    const shape = verdict.format === 'agentdna.envelope' ? 'envelope' : 'workflow';
    const envObj = shape === 'workflow' ? lastEntries(root).fields.get('envelope')?.value : root;
    if (envObj?.type !== 'object') return NO_VIEWS;
    const tip = readEnvelopeTree(envObj, shape === 'workflow' ? 'envelope' : '');
    const { tree, body } = workflowViews(root, shape, tip, analyzeWorkflow(tip, extraKeys));
    return { tree, headers: null, body };
  };
}

function buildCard(place: Place, index: number, card: CardInfo, span: Span, version: number | null, previous: CardInfo | null): RecordDraft {
  const base = blankRecord(place, index, 'agentdna.card', span);
  const findings: Finding[] = [];
  if (card.legacy) {
    findings.push(
      finding(
        'agentdna/legacy',
        card.typeEntry ? 'type' : null,
        `${card.legacy}`,
        card.typeEntry ? [card.typeEntry.value.start, card.typeEntry.value.end] : span,
      ),
    );
  }
  if (card.policy?.problem) {
    const pe = card.policy.entry;
    findings.push(
      finding('agentdna/card-policy', 'policy', card.policy.problem, [pe.value.start, pe.value.end], card.policy.bytes === null ? 'error' : 'warning'),
    );
  }
  let body: BodyView | null = null;
  let change = '';
  if (card.policy) {
    let text = policyDisplay(card.policy);
    if (version !== null) {
      const prevText = previous?.policy?.text ?? null;
      if (previous === null) {
        text = `policy, version ${version} (the first of this card)\n\n${text}`;
        change = 'first version';
      } else if (prevText === null || card.policy.text === null) {
        text = `policy, version ${version}\n\n${text}\n\n(the previous version cannot be compared as text)`;
      } else {
        // JSON policies structurally (permissions added or removed, values changed), text by lines.
        const d = policyChange(prevText, card.policy.text);
        text = d.unchanged
          ? `policy, version ${version}: ${d.heading} from version ${version - 1}\n\n${text}`
          : `policy, version ${version}: ${d.heading} since version ${version - 1}\n\n${text}\n\n--- ${d.reading === 'json' ? 'changes' : 'diff'} from version ${version - 1} ---\n${d.detail}`;
        change = d.summary;
      }
    }
    body = { rendering: 'text', reason: 'the policy document (base64-decoded)', text, span: [card.policy.entry.value.start, card.policy.entry.value.end] };
  } else if (card.metadata) {
    body = { rendering: 'json', reason: "the card's metadata", text: pretty(card.metadata.value), span: [card.metadata.value.start, card.metadata.value.end] };
  }
  return {
    ...base,
    decoded: true,
    kind: card.kind,
    id: card.cardId,
    source: card.did,
    findings,
    signature: UNSIGNED_CARD,
    tree: cardTree(card),
    body,
    summary: `${card.kind} ${shortDid(card.did ?? '(no DID)')}${version !== null ? ` v${version}` : ''}${change ? `: ${change}` : ''}`,
  };
}

class Collector {
  records: InspectedRecord[] = [];
  workflows: WorkflowReport[] = [];
  add(b: Built): void {
    this.records.push(finishRecord(b.record));
    if (b.workflow) this.workflows.push({ record: this.records.length - 1, ...b.workflow });
  }
}

/** One item of a card history (or a single card / state): a card, a state wrapping one, or a workflow. */
function readItem(
  out: Collector,
  input: number,
  text: Uint8Array,
  item: JsonValue,
  previous: Map<string, { card: CardInfo; version: number }>,
  checking: Checking,
  inHistory: boolean,
): void {
  const index = out.records.length;
  const textPlace: Place = { input, view: text, viewOrigin: 'input' };
  let place = textPlace;
  let value: JsonValue = item;
  let inputSpan: Span | null = null;
  const data = stateData(item);
  if (data) {
    if (data.value.type === 'string') {
      const { bytes, parsed } = checking.statesAhead.get(item) ?? readStateText(data.value.value);
      checking.statesAhead.delete(item);
      inputSpan = [data.value.start, data.value.end];
      place = { input, view: bytes, viewOrigin: 'decoded-text' };
      if (!parsed.ok) {
        out.add({
          record: { ...failedRecord(place, index, 'agentdna.card', null, jsonDecodeError(parsed.error, "the state's data is not JSON: ")), inputSpan },
          workflow: null,
        });
        return;
      }
      value = parsed.value;
    } else {
      value = data.value;
    }
  }
  let built: Built;
  if (isWorkflowObject(value)) {
    built = buildWorkflow(
      place,
      index,
      value as JsonObject,
      'workflow',
      inHistory || data ? 'agentdna.card' : 'agentdna.workflow',
      inHistory || data ? 'workflow' : null,
      checking,
    );
  } else if (isCardObject(value)) {
    const card = readCard(value as JsonObject);
    const key = `${card.kind.replace(/_nft$|_card$/, '')}:${card.did ?? ''}`;
    const prev = inHistory ? previous.get(key) : undefined;
    const version = inHistory ? (prev ? prev.version + 1 : 1) : null;
    built = { record: buildCard(place, index, card, [value.start, value.end], version, prev?.card ?? null), workflow: null };
    if (inHistory) previous.set(key, { card, version: version! });
  } else if (looksLikeEnvelope(value)) {
    built = buildWorkflow(place, index, value as JsonObject, 'envelope', 'agentdna.envelope', null, checking);
  } else {
    const error: DecodeError = { code: 'agentdna/shape', message: 'neither a card, a card state, nor a workflow', offset: value.start };
    built = { record: failedRecord(place, index, 'agentdna.card', [value.start, value.end], error), workflow: null };
  }
  if (inputSpan) built.record = { ...built.record, inputSpan };
  out.add(built);
}

/** A card state's data that is JSON text: its UTF-8 bytes (the record's view) and how they read. */
interface StateText {
  bytes: Uint8Array;
  parsed: ReturnType<typeof readJson>;
}

function readStateText(text: string): StateText {
  const bytes = utf8Encode(text);
  return { bytes, parsed: readJson(bytes) };
}

/**
 * The signature checks reading `item` (of a card history) will make, as readItem finds its
 * workflow. A state's JSON text read here is kept for readItem (checking.statesAhead).
 */
function itemSignatureJobs(item: JsonValue, checking: Checking): SignatureJob[] {
  let value: JsonValue = item;
  const data = stateData(item);
  if (data) {
    if (data.value.type === 'string') {
      const state = readStateText(data.value.value);
      checking.statesAhead.set(item, state);
      if (!state.parsed.ok) return [];
      value = state.parsed.value;
    } else {
      value = data.value;
    }
  }
  let envelope: JsonObject | null = null;
  if (isWorkflowObject(value)) {
    const env = lastEntries(value as JsonObject).fields.get('envelope')?.value;
    if (env?.type === 'object') envelope = env;
  } else if (!isCardObject(value) && looksLikeEnvelope(value)) {
    envelope = value as JsonObject;
  }
  return envelope ? signatureJobsOf(readEnvelopeTree(envelope, ''), checking.extraKeys, checking.hashesAhead) : [];
}

/**
 * Reads an AgentDNA document (see agentdnaShape) into records and workflow reports. `text` is the
 * JSON input, `root` its lossless tree; spans index `text` (or, for a card state whose data is a
 * JSON string, that string's UTF-8 bytes: the record's view, with inputSpan naming the string).
 */
export function readAgentDna(input: number, text: Uint8Array, root: JsonValue, options?: ReadAgentDnaOptions): AgentDnaResult {
  // One part: nothing is cut by count or by time, so the result never depends on the machine's speed.
  const [whole] = readAgentDnaParts(input, text, root, { ...options, signatures: undefined }, { partSize: Infinity, partMs: Infinity });
  if ('wait' in whole) throw new Error('readAgentDna: a read without answers from elsewhere waited');
  return { records: whole.records, workflows: whole.workflows };
}

export interface AgentDnaPart extends AgentDnaResult {
  /** Byte offset in `text` up to which the document has been read. */
  end: number;
}

/** Yielded before items whose signature checks (options.signatures) are not answered yet: await it, then read on. */
export interface AgentDnaWait {
  wait: Promise<void>;
}

/** Items of a card history whose signature checks go out together: a small first stretch (first records soon), then larger ones. */
const FIRST_STRETCH = 16;
const STRETCH = 96;
/** Items whose checks are kept in flight beyond the one being read. */
const AHEAD = 3 * STRETCH;
/**
 * A part goes to the page when it has had nothing for this long (ms), or nothing yet: each part is
 * a render of the page's list and a turn of the reading thread, beside cores the checks could use.
 * A part at every stretch was about a hundred a load; at 150 ms, about forty, and a 10,000-workflow
 * load took 4–5% more CPU and time than at 500 (alternating loads of the two builds).
 */
const PART_MS = 500;

export interface AgentDnaPartOptions {
  /** Items per part at most. */
  partSize: number;
  /** A part is handed over once it has taken this long (ms), whatever its size; default PART_MS. */
  partMs?: number;
}

/**
 * readAgentDna in parts, for a card history or an array of workflows: a part ends after `partSize`
 * items or `partMs` of work, whichever comes first, so a large file shows progress and can be
 * stopped between two parts. Each part's workflows index its own records. Always at least one part.
 */
export function* readAgentDnaParts(
  input: number,
  text: Uint8Array,
  root: JsonValue,
  options: ReadAgentDnaOptions | undefined,
  parts: AgentDnaPartOptions,
): Generator<AgentDnaPart | AgentDnaWait> {
  const { partSize, partMs = PART_MS } = parts;
  if (!(partSize >= 1)) throw new TypeError('readAgentDnaParts: partSize must be at least 1');
  const out = new Collector();
  const place: Place = { input, view: text, viewOrigin: 'input' };
  const checking: Checking = {
    extraKeys: options?.extraKeys,
    dids: options?.dids ?? NO_REGISTRY,
    results: options?.signatures,
    hashesAhead: new Map(),
    statesAhead: new Map(),
    views: options?.detail === false ? workflowViewBuilder(options.extraKeys) : undefined,
  };
  const rootSpan: Span = [root.start, root.end];
  // Records and workflows handed over in earlier parts (workflows are added in record order).
  let sentRecords = 0;
  let sentWorkflows = 0;
  let takenAt = Number.NEGATIVE_INFINITY;
  const take = (end: number): AgentDnaPart => {
    takenAt = performance.now();
    const base = sentRecords;
    const part = {
      records: out.records.slice(base),
      workflows: out.workflows.slice(sentWorkflows).map((w) => (base ? { ...w, record: w.record - base } : w)),
      end,
    };
    sentRecords = out.records.length;
    sentWorkflows = out.workflows.length;
    return part;
  };
  try {
    const shape = options?.shape !== undefined ? options.shape : agentdnaShape(root);
    if (shape === 'workflow') out.add(buildWorkflow(place, 0, root as JsonObject, 'workflow', 'agentdna.workflow', null, checking));
    else if (shape === 'envelope') out.add(buildWorkflow(place, 0, root as JsonObject, 'envelope', 'agentdna.envelope', null, checking));
    else if (shape === 'card') readItem(out, input, text, root, new Map(), checking, false);
    else if (shape === 'cards' && root.type === 'array') {
      const previous = new Map<string, { card: CardInfo; version: number }>();
      let items = 0;
      let since = performance.now();
      // With answers from elsewhere: stretches of items go out ahead, each awaited before it is read.
      const pool = checking.results;
      const stretches: { start: number; ready: Promise<void> }[] = [];
      let sent = 0;
      let awaited = 0;
      for (let i = 0; i < root.items.length; i++) {
        if (pool) {
          while (sent < root.items.length && sent <= i + AHEAD) {
            const end = Math.min(root.items.length, sent + (sent === 0 ? FIRST_STRETCH : STRETCH));
            const jobs = root.items.slice(sent, end).flatMap((item) => itemSignatureJobs(item, checking));
            stretches.push({ start: sent, ready: pool.submit(jobs) });
            sent = end;
          }
          if (awaited < stretches.length && stretches[awaited].start === i) {
            // What is read so far goes first, so the page has it while this stretch is checked.
            if (out.records.length > sentRecords && performance.now() - takenAt >= PART_MS) {
              yield take(root.items[i - 1].end);
              items = 0;
            }
            yield { wait: stretches[awaited++].ready };
            since = performance.now();
          }
        }
        readItem(out, input, text, root.items[i], previous, checking, true);
        items++;
        // The last item's records go in the final part below.
        if (i < root.items.length - 1 && (items >= partSize || performance.now() - since >= partMs)) {
          yield take(root.items[i].end);
          items = 0;
          since = performance.now();
        }
      }
    } else {
      const error: DecodeError = {
        code: 'agentdna/shape',
        message: 'JSON, but not an AgentDNA IntentWorkflow, envelope, card or card history',
        offset: root.start,
      };
      out.add({ record: failedRecord(place, 0, 'unknown', rootSpan, error), workflow: null });
    }
  } catch (e) {
    // A bug of ours must not take the input down: report it as this document's failure (what was
    // handed over stays; the failure takes the next record's place).
    const error: DecodeError = {
      code: 'agentdna/shape',
      message: `internal error while reading this AgentDNA document: ${(e as Error)?.message ?? String(e)}`,
      offset: null,
    };
    out.records.length = sentRecords;
    out.workflows.length = sentWorkflows;
    out.add({ record: failedRecord(place, sentRecords, 'unknown', null, error), workflow: null });
  }
  yield take(root.end);
}

interface AgentDnaClaim {
  root: JsonValue;
  shape: AgentDnaShape;
}

/**
 * The document in batches: a card history or an array of workflows by item (each workflow's
 * signature checks take ~30 ms, so a large file would otherwise say nothing for minutes), any other
 * shape as one batch. Read whole (batchSize Infinity), nothing is cut by time either.
 */
function* agentdnaBatches(source: Source, { root, shape }: AgentDnaClaim, context: ImportContext, batchSize: number): Generator<ImportedBatch> {
  const parts: AgentDnaPartOptions = { partSize: batchSize, partMs: Number.isFinite(batchSize) ? undefined : Infinity };
  // One part behind, so the last one can carry the input's format.
  let last: ImportedBatch | null = null;
  let end = 0;
  for (const part of readAgentDnaParts(
    source.place.input,
    source.bytes,
    root,
    { extraKeys: context.extraKeys, dids: context.dids, shape, signatures: context.signatures, detail: context.detail },
    parts,
  )) {
    if ('wait' in part) {
      // The records read so far go to the page before the wait, not after it.
      if (last) yield last;
      last = null;
      yield { records: [], workflows: [], end, format: null, wait: part.wait };
      continue;
    }
    if (last) yield last;
    last = { records: part.records, workflows: part.workflows, end: part.end, format: null };
    end = part.end;
  }
  // readAgentDnaParts always gives at least one part.
  yield { ...last!, end: source.bytes.length, format: `agentdna-${shape}` };
}

export const agentdna: Importer<AgentDnaClaim> = {
  format: 'agentdna',
  detect: (source) => {
    const root = jsonRoot(source);
    if (root === null) return null;
    const shape = agentdnaShape(root);
    return shape === null ? null : { root, shape };
  },
  // Read whole, in one go: nothing could await answers from elsewhere.
  read: (source, claim, context) => wholeInput(agentdnaBatches(source, claim, { ...context, signatures: undefined }, Infinity)),
  batches: agentdnaBatches,
};
