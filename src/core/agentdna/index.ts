// AgentDNA JSON for the pipeline: recognise the shape (IntentWorkflow, bare envelope, card, card
// history), verify every envelope offline, and turn each document into RecordResults (with a field
// tree, a body view and findings whose spans index the JSON text) plus one WorkflowReport per
// workflow for report@1's `workflows` section. Pure: no DOM, no Node APIs. Never throws for any input.
import { isoFromSeconds } from '../time';
import { utf8Encode } from '../bytes';
import { blankRecord, failedRecord, type Place } from '../import/build';
import type { JsonEntry, JsonValue } from '../json/lossless';
import { readJson } from '../json/lossless';
import { unsignedVerdict, type BodyView, type FieldNode, type Finding, type RecordFormat, type Span } from '../model';
import { isValid, type RecordResult } from '../records';
import { isCardObject, lineDiff, policyDisplay, readCard, stateData, type CardInfo } from './cards';
import { lastEntries, looksLikeEnvelope, readEnvelopeTree, str, type EnvelopeNode, type JsonObject } from './envelope';
import type { ExtraKeys } from './signature';
import type { SignatureJob, SignatureResults } from './signature-jobs';
import { envelopeTrust, indexDids, workflowSignature } from './trust';
import {
  analyzeWorkflow,
  envelopeReport,
  signatureJobsOf,
  statusName,
  verdictLine,
  type EnvelopeReport,
  type ModeName,
  type ModeVerdict,
  type WorkflowAnalysis,
} from './workflow';

export { pythonDumps, pyFloatRepr, pyString, compareCodePoints, PyDict } from './python-json';
export { contentJson, contentHash, signedMessage, signedBytes, sha256Hex } from './hash';
export { deriveDid, didOf, pubKeyPem, cardIdOf, looksLikeRubixDid } from './did';
export { readDerLenient, readHexLikePython, recoverCandidates, verifyWithKey, uncompressedKey } from './ecdsa';
export { checkSignatureText, checkSignatureBytes, type SignatureCheck, type SigStatus, type SigRule, type ExtraKeys } from './signature';
export { analyzeWorkflow, statusName, type EnvelopeReport, type ModeVerdict, type WorkflowAnalysis, type EnvelopeVerdict } from './workflow';
export { readEnvelopeTree, type EnvelopeNode } from './envelope';
export { readCard, isCardObject, lineDiff, type CardInfo } from './cards';
export { applyAgentDnaTrust, envelopeTrust, indexDids, workflowSignature, type EnvelopeTrust } from './trust';

export type AgentDnaShape = 'workflow' | 'envelope' | 'card' | 'cards';

/** report@1 `workflows[]` entry; everything after `envelopes` is added detail for the UI. */
export interface WorkflowReport {
  /** Index of the workflow's record within the records returned by readAgentDna. */
  record: number;
  modes: { light: number; heavy: number; boundary: number };
  /** Each distinct envelope, breadth-first from the tip. */
  envelopes: EnvelopeReport[];
  /** The tip's hash (as claimed, else computed). */
  tip: string;
  mode_details: Record<ModeName, ModeVerdict>;
  /** parent_envelope edges between distinct envelopes (indexes into `envelopes`). */
  edges: { from: string; to: string; via: 'parent_envelope'; from_index: number; to_index: number }[];
  /** AgentDNA cannot parse the document at all (its modes raise instead of returning a code). */
  parse_error: string | null;
  legacy: boolean;
}

export interface ReadAgentDnaOptions {
  /** Keys for DIDs made another way (the report's key file: agent = DID; 33- or 65-byte secp256k1 keys). */
  extraKeys?: Map<string, Uint8Array[]>;
  /** agentdnaShape(root), when the caller has worked it out already (it walks every item). */
  shape?: AgentDnaShape | null;
  /**
   * Signature checks done on other threads: readAgentDnaParts sends each stretch of a card history
   * or workflow array ahead and yields a wait before it reads one whose answers are not in yet.
   */
  signatures?: SignatureResults;
}

/** How a read checks signatures: the key-file keys, and answers computed elsewhere. */
interface Checking {
  extraKeys?: ExtraKeys;
  results?: SignatureResults;
}

export interface AgentDnaResult {
  records: RecordResult[];
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
// Views: field tree, body
// ---------------------------------------------------------------------------------------------

const DISPLAY_MAX = 300;
const TREE_DEPTH = 48;

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
const truncate = (s: string, max = DISPLAY_MAX) => (s.length > max ? `${s.slice(0, max)}… (${s.length} characters)` : s);
/** A DID or hash for one-line displays: its start and end. */
const shortId = (s: string) => (s.length > 24 ? `${s.slice(0, 12)}…${s.slice(-6)}` : s);

function jsonType(v: JsonValue): string {
  switch (v.type) {
    case 'number': return v.isInteger ? 'integer' : 'float';
    case 'bool': return 'bool';
    default: return v.type;
  }
}

function display(v: JsonValue): string {
  switch (v.type) {
    case 'string': return truncate(v.value);
    case 'number': return v.text;
    case 'bool': return v.value ? 'true' : 'false';
    case 'null': return 'null';
    case 'object': return `{${v.entries.length} member${v.entries.length === 1 ? '' : 's'}}`;
    case 'array': return `[${v.items.length} item${v.items.length === 1 ? '' : 's'}]`;
  }
}

function jsonTree(v: JsonValue, path: string, label: string, keySpan: Span | null, depth = 0, hint?: string): FieldNode {
  const node: FieldNode = { path, label, display: display(v), type: jsonType(v), span: [v.start, v.end], keySpan };
  if (hint) node.hint = hint;
  if (depth < TREE_DEPTH) {
    if (v.type === 'object' && v.entries.length > 0) {
      node.children = v.entries.map((e) => jsonTree(e.value, join(path, e.key), e.key, [e.keyStart, e.keyEnd], depth + 1));
    } else if (v.type === 'array' && v.items.length > 0) {
      node.children = v.items.map((item, i) => jsonTree(item, `${path}[${i}]`, `[${i}]`, null, depth + 1));
    }
  }
  return node;
}

/** Pretty JSON from the lossless tree (numbers keep their source text). */
function pretty(v: JsonValue, indent = '', depth = 0): string {
  if (depth > 256) return JSON.stringify(display(v));
  switch (v.type) {
    case 'string': return JSON.stringify(v.value);
    case 'number': return v.text;
    case 'bool': return v.value ? 'true' : 'false';
    case 'null': return 'null';
    case 'array': {
      if (v.items.length === 0) return '[]';
      const inner = indent + '  ';
      return `[\n${v.items.map((i) => inner + pretty(i, inner, depth + 1)).join(',\n')}\n${indent}]`;
    }
    case 'object': {
      if (v.entries.length === 0) return '{}';
      const inner = indent + '  ';
      return `{\n${v.entries.map((e) => `${inner}${JSON.stringify(e.key)}: ${pretty(e.value, inner, depth + 1)}`).join(',\n')}\n${indent}}`;
    }
  }
}

function epochHint(v: JsonValue): string | undefined {
  if (v.type !== 'number') return 'epoch is not a number';
  const iso = isoFromSeconds(v.value);
  return iso ? `Unix seconds: ${iso}` : 'Unix seconds (out of range)';
}

function fieldHint(n: EnvelopeNode, e: JsonEntry, a: WorkflowAnalysis): string | undefined {
  const v = a.byPath.get(n.path)!;
  if (n.fields.get(e.key) !== e) return 'a duplicate key: ignored (json.loads keeps the last occurrence)';
  switch (e.key) {
    case 'from':
    case 'from_': {
      if (e.key === 'from' && n.fields.has('from_')) return 'ignored: from_ is present and wins';
      const s = v.signature;
      if (s.status === 'valid') return s.key_source === 'did' ? 'the signing key derives this DID (offline: recovered key → pubKey.pem → CID)' : 'the signing key is the one the key file gives for this sender';
      return 'the signer: no key recovered from the signature is bound to it';
    }
    case 'hash':
      return v.hashOk ? 'equals the content hash' : `content hash: ${v.contentHash ?? '(cannot be computed)'}`;
    case 'signature': {
      const s = v.signature;
      const rs = s.r ? `DER r=${s.r}, s=${s.s}${s.high_s ? ' (high-S)' : ''}` : '';
      return [`${s.status}: ${s.reason}`, rs, ...s.der_issues].filter(Boolean).join('\n');
    }
    case 'status_code':
      return statusName(v.statusCode);
    case 'epoch':
      return epochHint(e.value);
    case 'payload':
      return e.value.type === 'string' ? (readJson(utf8Encode(e.value.value), { maxDepth: 64 }).ok ? 'a string holding JSON (hashed as the string)' : 'a string') : 'not a string: hashed as JSON (content blocks)';
    case 'to':
      return 'the recipient (hashed; absent means "")';
    case 'run_id':
      return 'the run id (hashed; absent means "")';
    default:
      return n.unknownKeys.includes(e.key) ? 'not an Envelope field: AgentDNA drops it, it is neither hashed nor signed' : undefined;
  }
}

function envelopeTree(n: EnvelopeNode, a: WorkflowAnalysis, label: string, keySpan: Span | null): FieldNode {
  const v = a.byPath.get(n.path)!;
  const parentsByPath = new Map(n.parents.map((p) => [p.path, p]));
  const children: FieldNode[] = n.value.entries.map((e) => {
    const p = join(n.path, e.key);
    const ks: Span = [e.keyStart, e.keyEnd];
    if (e.key === 'parent_envelope' && n.fields.get(e.key) === e) {
      const pv = e.value;
      const node: FieldNode = { path: p, label: e.key, display: display(pv), type: jsonType(pv), span: [pv.start, pv.end], keySpan: ks };
      if (pv.type === 'object' && parentsByPath.has(p)) {
        node.hint = 'a single parent object (1.0 linear chain): read as a list of one';
        node.children = [envelopeTree(parentsByPath.get(p)!, a, 'parent', null)];
      } else if (pv.type === 'array') {
        node.hint = pv.items.length === 0 ? 'no parents: the signed message is the content hash' : `the signed message covers the parents' claimed hashes, sorted`;
        node.children = pv.items.map((item, i) => {
          const ip = `${p}[${i}]`;
          const parent = parentsByPath.get(ip);
          if (parent) return envelopeTree(parent, a, `[${i}]`, null);
          const bad = n.badParents.some((b) => b.path === ip);
          return jsonTree(item, ip, `[${i}]`, null, 1, bad ? 'not an envelope: AgentDNA cannot read this parent' : 'falsy: dropped by AgentDNA (parse_envelope skips it)');
        });
      } else {
        node.hint = pv.type === 'null' ? 'no parents' : 'not a list of envelopes';
      }
      return node;
    }
    return jsonTree(e.value, p, e.key, ks, 1, fieldHint(n, e, a));
  });
  const from = str(n.from) ?? '?';
  const to = str(n.to);
  const payload = n.payload?.value;
  const preview = payload === undefined ? '(no payload)' : truncate(payload.type === 'string' ? payload.value : display(payload), 60);
  const also = v.occurrences.length > 1 ? ` · the same envelope also occurs at ${v.occurrences.filter((o) => o !== n).map((o) => o.path || '(top)').join(', ')}` : '';
  return {
    path: n.path,
    label,
    display: `${shortId(from)}${to ? ` → ${shortId(to)}` : ''}: ${preview}`,
    type: 'envelope',
    span: n.span,
    keySpan,
    hint: verdictLine(v) + also,
    children,
  };
}

function payloadBody(tip: EnvelopeNode): BodyView | null {
  const p = tip.payload?.value;
  if (!p) return null;
  const span: Span = [p.start, p.end];
  if (p.type === 'string') {
    const inner = readJson(utf8Encode(p.value));
    if (inner.ok && (inner.value.type === 'object' || inner.value.type === 'array')) {
      return { rendering: 'json', reason: "the tip envelope's payload (a string holding JSON)", text: pretty(inner.value), span };
    }
    return { rendering: 'text', reason: "the tip envelope's payload", text: p.value, span };
  }
  return { rendering: 'json', reason: "the tip envelope's payload (not a string: content blocks or other JSON)", text: pretty(p), span };
}

// ---------------------------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------------------------

const NO_REGISTRY = indexDids([]);

const UNSIGNED_CARD = unsignedVerdict('a card carries no signature of its own: the provenance layer records its states');

interface Built {
  record: RecordResult;
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
    findings.push({ rule: 'agentdna/legacy', severity: 'warning', path: remarks ? 'remarks' : 'version', message: `a 1.0-style IntentWorkflow (${reasons.join(', ')}): shown and checked as far as it goes; AgentDNA 2.0 does not write this shape`, span });
  }
  return { findings, legacy: reasons.length > 0 };
}

function workflowTree(root: JsonObject, tip: EnvelopeNode | null, a: WorkflowAnalysis | null): FieldNode[] {
  const { fields } = lastEntries(root);
  return root.entries.map((e) => {
    const ks: Span = [e.keyStart, e.keyEnd];
    if (e.key === 'envelope' && fields.get('envelope') === e && tip && a) return envelopeTree(tip, a, 'envelope', ks);
    const hint =
      e.key === 'id' ? 'the workflow (provenance card) id; not signed'
        : e.key === 'info' ? 'workflow-level information; not signed'
          : e.key === 'remarks' ? '1.0 field: not part of AgentDNA 2.0'
            : e.key === 'type' || e.key === 'version' ? 'not signed' : undefined;
    return jsonTree(e.value, e.key, e.key, ks, 1, hint);
  });
}

/** A workflow (or bare envelope) as a record and its workflow report. */
function buildWorkflow(place: Place, index: number, root: JsonObject, shape: 'workflow' | 'envelope', format: RecordFormat, kind: string | null, checking: Checking): Built {
  const span: Span = [root.start, root.end];
  const base = blankRecord(place, index, format, span);
  let envObj: JsonObject;
  let wf: { findings: Finding[]; legacy: boolean } = { findings: [], legacy: false };
  if (shape === 'workflow') {
    const { fields } = lastEntries(root);
    wf = workflowFindings(root);
    const env = fields.get('envelope');
    if (!env || env.value.type !== 'object') {
      const error = {
        code: 'agentdna/shape',
        message: env ? `the workflow's envelope is ${display(env.value)}, not an envelope object: AgentDNA raises "workflow does not contain an envelope"` : 'the workflow has no envelope',
        offset: env ? env.value.start : root.start,
      };
      const record: RecordResult = { ...base, kind, error, findings: wf.findings, tree: workflowTree(root, null, null), summary: `${error.code}: ${error.message}` };
      return { record, workflow: null };
    }
    envObj = env.value;
  } else {
    envObj = root;
  }
  const tip = readEnvelopeTree(envObj, shape === 'workflow' ? 'envelope' : '');
  const a = analyzeWorkflow(tip, checking.extraKeys, checking.results);
  const findings = [...wf.findings, ...a.findings];
  const tipV = a.byPath.get(tip.path)!;
  const tipHash = tipV.claimedHash ?? tipV.contentHash ?? '';
  const tree = shape === 'workflow' ? workflowTree(root, tip, a) : [envelopeTree(tip, a, 'envelope', null)];
  const m = a.modes;
  const modesLine = `light ${m.light.code} · heavy ${m.heavy.code} · boundary ${m.boundary.code}`;
  const what = shape === 'workflow' ? (kind === 'workflow' ? 'workflow provenance card' : 'IntentWorkflow') : 'envelope';
  // Trust needs the reader's registry: none yet (inspect and the worker apply theirs after reading).
  const envelopes = a.verdicts.map(envelopeReport);
  for (const e of envelopes) Object.assign(e, envelopeTrust(e, NO_REGISTRY));
  const record: RecordResult = {
    ...base,
    decoded: true,
    kind,
    id: tipHash || null,
    source: str(tip.from),
    target: str(tip.to),
    findings,
    valid: isValid(true, findings),
    signature: workflowSignature(envelopes, NO_REGISTRY),
    tree,
    body: payloadBody(tip),
    summary: `${what} ${tipHash ? tipHash.slice(0, 12) + '…' : '(no hash)'} from ${shortId(str(tip.from) ?? '?')}: ${a.verdicts.length} envelope${a.verdicts.length === 1 ? '' : 's'}; ${modesLine}`,
  };
  const edges: WorkflowReport['edges'] = [];
  const seen = new Set<string>();
  for (const v of a.verdicts) {
    for (const p of v.node.parents) {
      const pv = a.byPath.get(p.path)!;
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

function cardTree(card: CardInfo): FieldNode[] {
  const { fields } = lastEntries(card.value);
  return card.value.entries.map((e) => {
    const ks: Span = [e.keyStart, e.keyEnd];
    let hint: string | undefined;
    if (fields.get(e.key) !== e) hint = 'a duplicate key: ignored (json.loads keeps the last occurrence)';
    else if (e === card.didEntry && card.did !== null) hint = `the actor's DID; its provenance card id is ${card.cardId} (CIDv0 of sha256 of the DID)`;
    else if (e === card.typeEntry) hint = card.legacy ?? (card.kind === 'actor_card' ? 'an agent card' : card.kind === 'user_card' ? 'a user card' : undefined);
    else if (card.policy && e === card.policy.entry) {
      const p = card.policy;
      hint = p.bytes === null ? p.problem ?? undefined : `base64 of a ${p.bytes.length}-byte policy document${p.text !== null ? ' (UTF-8 text: see the body)' : ' (not UTF-8)'}${p.problem ? `; ${p.problem}` : ''}`;
    }
    return jsonTree(e.value, e.key, e.key, ks, 1, hint);
  });
}

function buildCard(place: Place, index: number, card: CardInfo, span: Span, version: number | null, previous: CardInfo | null): RecordResult {
  const base = blankRecord(place, index, 'agentdna.card', span);
  const findings: Finding[] = [];
  if (card.legacy) {
    findings.push({ rule: 'agentdna/legacy', severity: 'warning', path: card.typeEntry ? 'type' : null, message: `${card.legacy}`, span: card.typeEntry ? [card.typeEntry.value.start, card.typeEntry.value.end] : span });
  }
  if (card.policy?.problem) {
    const pe = card.policy.entry;
    findings.push({ rule: 'agentdna/card-policy', severity: card.policy.bytes === null ? 'error' : 'warning', path: 'policy', message: card.policy.problem, span: [pe.value.start, pe.value.end] });
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
      } else if (prevText === card.policy.text) {
        text = `policy, version ${version}: unchanged from version ${version - 1}\n\n${text}`;
        change = 'policy unchanged';
      } else {
        const d = lineDiff(prevText, card.policy.text);
        text = `policy, version ${version}: ${d.added} line(s) added, ${d.removed} removed since version ${version - 1}\n\n${text}\n\n--- diff from version ${version - 1} ---\n${d.text}`;
        change = `policy +${d.added} −${d.removed} lines`;
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
    valid: isValid(true, findings),
    signature: UNSIGNED_CARD,
    tree: cardTree(card),
    body,
    summary: `${card.kind} ${shortId(card.did ?? '(no DID)')}${version !== null ? ` v${version}` : ''}${change ? `: ${change}` : ''}`,
  };
}

class Collector {
  records: RecordResult[] = [];
  workflows: WorkflowReport[] = [];
  add(b: Built): void {
    this.records.push(b.record);
    if (b.workflow) this.workflows.push({ record: this.records.length - 1, ...b.workflow });
  }
}

/** One item of a card history (or a single card / state): a card, a state wrapping one, or a workflow. */
function readItem(out: Collector, input: number, text: Uint8Array, item: JsonValue, previous: Map<string, { card: CardInfo; version: number }>, checking: Checking, inHistory: boolean): void {
  const index = out.records.length;
  const textPlace: Place = { input, view: text, viewOrigin: 'input' };
  let place = textPlace;
  let value: JsonValue = item;
  let inputSpan: Span | null = null;
  const data = stateData(item);
  if (data) {
    if (data.value.type === 'string') {
      const bytes = utf8Encode(data.value.value);
      const parsed = readJson(bytes);
      inputSpan = [data.value.start, data.value.end];
      place = { input, view: bytes, viewOrigin: 'decoded-text' };
      if (!parsed.ok) {
        out.add({ record: { ...failedRecord(place, index, 'agentdna.card', null, { code: parsed.error.code, message: `the state's data is not JSON: ${parsed.error.message}`, offset: parsed.error.offset }), inputSpan }, workflow: null });
        return;
      }
      value = parsed.value;
    } else {
      value = data.value;
    }
  }
  let built: Built;
  if (isWorkflowObject(value)) {
    built = buildWorkflow(place, index, value as JsonObject, 'workflow', inHistory || data ? 'agentdna.card' : 'agentdna.workflow', inHistory || data ? 'workflow' : null, checking);
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
    const error = { code: 'agentdna/shape', message: 'neither a card, a card state, nor a workflow', offset: value.start };
    built = { record: failedRecord(place, index, 'agentdna.card', [value.start, value.end], error), workflow: null };
  }
  if (inputSpan) built.record = { ...built.record, inputSpan };
  out.add(built);
}

/** The signature checks reading `item` (of a card history) will make, as readItem finds its workflow. */
function itemSignatureJobs(item: JsonValue, extraKeys: ExtraKeys | undefined): SignatureJob[] {
  let value: JsonValue = item;
  const data = stateData(item);
  if (data) {
    if (data.value.type === 'string') {
      const parsed = readJson(utf8Encode(data.value.value));
      if (!parsed.ok) return [];
      value = parsed.value;
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
  return envelope ? signatureJobsOf(readEnvelopeTree(envelope, ''), extraKeys) : [];
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

export interface AgentDnaPartOptions {
  /** Items per part at most. */
  partSize: number;
  /** A part is handed over once it has taken this long (ms), whatever its size; default 200 (checks cost ~15–30 ms a workflow). */
  partMs?: number;
}

/**
 * readAgentDna in parts, for a card history or an array of workflows: a part ends after `partSize`
 * items or `partMs` of work, whichever comes first, so a large file shows progress and can be
 * stopped between two parts. Each part's workflows index its own records. Always at least one part.
 */
export function* readAgentDnaParts(input: number, text: Uint8Array, root: JsonValue, options: ReadAgentDnaOptions | undefined, parts: AgentDnaPartOptions): Generator<AgentDnaPart | AgentDnaWait> {
  const { partSize, partMs = 200 } = parts;
  if (!(partSize >= 1)) throw new TypeError('readAgentDnaParts: partSize must be at least 1');
  const out = new Collector();
  const place: Place = { input, view: text, viewOrigin: 'input' };
  const checking: Checking = { extraKeys: options?.extraKeys, results: options?.signatures };
  const rootSpan: Span = [root.start, root.end];
  // Records and workflows handed over in earlier parts (workflows are added in record order).
  let sentRecords = 0;
  let sentWorkflows = 0;
  const take = (end: number): AgentDnaPart => {
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
            const jobs = root.items.slice(sent, end).flatMap((item) => itemSignatureJobs(item, checking.extraKeys));
            stretches.push({ start: sent, ready: pool.submit(jobs) });
            sent = end;
          }
          if (awaited < stretches.length && stretches[awaited].start === i) {
            // What is read so far goes first, so the page has it while this stretch is checked.
            if (out.records.length > sentRecords) {
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
      const error = { code: 'agentdna/shape', message: 'JSON, but not an AgentDNA IntentWorkflow, envelope, card or card history', offset: root.start };
      out.add({ record: failedRecord(place, 0, 'unknown', rootSpan, error), workflow: null });
    }
  } catch (e) {
    // A bug of ours must not take the input down: report it as this document's failure (what was
    // handed over stays; the failure takes the next record's place).
    const error = { code: 'agentdna/shape', message: `internal error while reading this AgentDNA document: ${(e as Error)?.message ?? String(e)}`, offset: null };
    out.records.length = sentRecords;
    out.workflows.length = sentWorkflows;
    out.add({ record: failedRecord(place, sentRecords, 'unknown', null, error), workflow: null });
  }
  yield take(root.end);
}
