// AgentDNA documents as a person reads them: the field tree of a workflow, an envelope or a card
// (each envelope a node whose hint gives its verdict, spans into the JSON text) and the body view
// (the tip's payload, a card's metadata). Pure: built from the lossless JSON tree and the analysis.
import { utf8Encode } from '../bytes';
import type { JsonEntry, JsonValue } from '../json/lossless';
import { readJson } from '../json/lossless';
import type { BodyView, FieldNode, Span } from '../model';
import { isoFromSeconds } from '../time';
import type { CardInfo } from './cards';
import { fieldsOf, lastEntries, str, type EnvelopeNode, type JsonObject } from './envelope';
import { statusName, verdictLine, type WorkflowAnalysis } from './workflow';
import { shortDid } from '../short-id';

const DISPLAY_MAX = 300;
const TREE_DEPTH = 48;

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
export const truncate = (s: string, max = DISPLAY_MAX) => (s.length > max ? `${s.slice(0, max)}… (${s.length} characters)` : s);

function jsonType(v: JsonValue): string {
  switch (v.type) {
    case 'number':
      return v.isInteger ? 'integer' : 'float';
    case 'bool':
      return 'bool';
    default:
      return v.type;
  }
}

export function display(v: JsonValue): string {
  switch (v.type) {
    case 'string':
      return truncate(v.value);
    case 'number':
      return v.text;
    case 'bool':
      return v.value ? 'true' : 'false';
    case 'null':
      return 'null';
    case 'object':
      return `{${v.entries.length} member${v.entries.length === 1 ? '' : 's'}}`;
    case 'array':
      return `[${v.items.length} item${v.items.length === 1 ? '' : 's'}]`;
  }
}

export function jsonTree(v: JsonValue, path: string, label: string, keySpan: Span | null, depth = 0, hint?: string): FieldNode {
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
export function pretty(v: JsonValue, indent = '', depth = 0): string {
  if (depth > 256) return JSON.stringify(display(v));
  switch (v.type) {
    case 'string':
      return JSON.stringify(v.value);
    case 'number':
      return v.text;
    case 'bool':
      return v.value ? 'true' : 'false';
    case 'null':
      return 'null';
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

function fieldHint(n: EnvelopeNode, fields: Map<string, JsonEntry>, e: JsonEntry, a: WorkflowAnalysis): string | undefined {
  const v = a.verdictOf(n);
  if (fields.get(e.key) !== e) return 'a duplicate key: ignored (json.loads keeps the last occurrence)';
  switch (e.key) {
    case 'from':
    case 'from_': {
      if (e.key === 'from' && fields.has('from_')) return 'ignored: from_ is present and wins';
      const s = v.signature;
      if (s.status === 'valid')
        return s.key_source === 'did'
          ? 'the signing key derives this DID (offline: recovered key → pubKey.pem → CID)'
          : 'the signing key is the one the key file gives for this sender';
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
      return e.value.type === 'string'
        ? readJson(utf8Encode(e.value.value), { maxDepth: 64 }).ok
          ? 'a string holding JSON (hashed as the string)'
          : 'a string'
        : 'not a string: hashed as JSON (content blocks)';
    case 'to':
      return 'the recipient (hashed; absent means "")';
    case 'run_id':
      return 'the run id (hashed; absent means "")';
    default:
      return n.unknownKeys.includes(e.key) ? 'not an Envelope field: AgentDNA drops it, it is neither hashed nor signed' : undefined;
  }
}

export function envelopeTree(n: EnvelopeNode, a: WorkflowAnalysis, label: string, keySpan: Span | null): FieldNode {
  const v = a.verdictOf(n);
  const parentsByPath = new Map(n.parents.map((p) => [p.path, p]));
  const fields = fieldsOf(n);
  const children: FieldNode[] = n.value.entries.map((e) => {
    const p = join(n.path, e.key);
    const ks: Span = [e.keyStart, e.keyEnd];
    if (e.key === 'parent_envelope' && fields.get(e.key) === e) {
      const pv = e.value;
      const node: FieldNode = { path: p, label: e.key, display: display(pv), type: jsonType(pv), span: [pv.start, pv.end], keySpan: ks };
      if (pv.type === 'object' && parentsByPath.has(p)) {
        node.hint = 'a single parent object (1.0 linear chain): read as a list of one';
        node.children = [envelopeTree(parentsByPath.get(p)!, a, 'parent', null)];
      } else if (pv.type === 'array') {
        node.hint =
          pv.items.length === 0 ? 'no parents: the signed message is the content hash' : `the signed message covers the parents' claimed hashes, sorted`;
        node.children = pv.items.map((item, i) => {
          const ip = `${p}[${i}]`;
          const parent = parentsByPath.get(ip);
          if (parent) return envelopeTree(parent, a, `[${i}]`, null);
          const bad = n.badParents.some((b) => b.path === ip);
          return jsonTree(
            item,
            ip,
            `[${i}]`,
            null,
            1,
            bad ? 'not an envelope: AgentDNA cannot read this parent' : 'falsy: dropped by AgentDNA (parse_envelope skips it)',
          );
        });
      } else {
        node.hint = pv.type === 'null' ? 'no parents' : 'not a list of envelopes';
      }
      return node;
    }
    return jsonTree(e.value, p, e.key, ks, 1, fieldHint(n, fields, e, a));
  });
  const from = str(n.from) ?? '?';
  const to = str(n.to);
  const payload = n.payload?.value;
  const preview = payload === undefined ? '(no payload)' : truncate(payload.type === 'string' ? payload.value : display(payload), 60);
  const also =
    v.occurrences.length > 1
      ? ` · the same envelope also occurs at ${v.occurrences
          .filter((o) => o !== n)
          .map((o) => o.path || '(top)')
          .join(', ')}`
      : '';
  return {
    path: n.path,
    label,
    display: `${shortDid(from)}${to ? ` → ${shortDid(to)}` : ''}: ${preview}`,
    type: 'envelope',
    span: n.span,
    keySpan,
    hint: verdictLine(v) + also,
    children,
  };
}

export function payloadBody(tip: EnvelopeNode): BodyView | null {
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

export function workflowTree(root: JsonObject, tip: EnvelopeNode | null, a: WorkflowAnalysis | null): FieldNode[] {
  const { fields } = lastEntries(root);
  return root.entries.map((e) => {
    const ks: Span = [e.keyStart, e.keyEnd];
    if (e.key === 'envelope' && fields.get('envelope') === e && tip && a) return envelopeTree(tip, a, 'envelope', ks);
    const hint =
      e.key === 'id'
        ? 'the workflow (provenance card) id; not signed'
        : e.key === 'info'
          ? 'workflow-level information; not signed'
          : e.key === 'remarks'
            ? '1.0 field: not part of AgentDNA 2.0'
            : e.key === 'type' || e.key === 'version'
              ? 'not signed'
              : undefined;
    return jsonTree(e.value, e.key, e.key, ks, 1, hint);
  });
}

export function cardTree(card: CardInfo): FieldNode[] {
  const { fields } = lastEntries(card.value);
  return card.value.entries.map((e) => {
    const ks: Span = [e.keyStart, e.keyEnd];
    let hint: string | undefined;
    if (fields.get(e.key) !== e) hint = 'a duplicate key: ignored (json.loads keeps the last occurrence)';
    else if (e === card.didEntry && card.did !== null) hint = `the actor's DID; its provenance card id is ${card.cardId} (CIDv0 of sha256 of the DID)`;
    else if (e === card.typeEntry) hint = card.legacy ?? (card.kind === 'actor_card' ? 'an agent card' : card.kind === 'user_card' ? 'a user card' : undefined);
    else if (card.policy && e === card.policy.entry) {
      const p = card.policy;
      hint =
        p.bytes === null
          ? (p.problem ?? undefined)
          : `base64 of a ${p.bytes.length}-byte policy document${p.text !== null ? ' (UTF-8 text: see the body)' : ' (not UTF-8)'}${p.problem ? `; ${p.problem}` : ''}`;
    }
    return jsonTree(e.value, e.key, e.key, ks, 1, hint);
  });
}
