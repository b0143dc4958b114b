// The inspector's truth about every envelope of a workflow, and AgentDNA's three verification
// modes (agentdna.md, "Verification modes") computed from it.
import { readHexLikePython } from './ecdsa';
import type { JsonValue } from '../json/lossless';
import type { Span } from '../model';
import { allOccurrences, contentFieldsOf, fieldsOf, spanOf, str, type EnvelopeNode, type JsonObject } from './envelope';
import { contentJson as computeContentJson, sha256Hex, signedMessage, type SignedMessage } from './hash';
import { PyDict, pythonDumps, type PyValue } from './python-json';
import type { EnvelopeReport, ModeName, ModeVerdict } from './model';
import { checkSignatureText, type ExtraKeys, type SigStatus, type SignatureCheck } from './signature';
import { ByJob, signatureJob, type SignatureJob, type SignatureResults } from './signature-jobs';
import { finding } from '../rules';
import type { Finding } from '../verdict';
import { shortHash } from '../short-id';

/** What AgentDNA's verify_envelope would do with one envelope. */
export interface AgentDnaOutcome {
  ok: boolean;
  /** AgentDNA raises instead of returning (the workflow cannot be parsed, or the message cannot be formed). */
  raises: boolean;
  reason: string;
}

export interface EnvelopeVerdict {
  /** Index in the workflow's distinct envelopes (breadth-first from the tip). */
  index: number;
  /** Every place this same envelope occurs in the document (fan-in repeats a parent). */
  occurrences: EnvelopeNode[];
  node: EnvelopeNode;
  /** The hash the envelope claims (string), or null when absent or not a string. */
  claimedHash: string | null;
  contentJson: string | null;
  contentHash: string | null;
  hashOk: boolean;
  /** Required fields that are absent (from, payload, epoch): AgentDNA cannot build the envelope. */
  missing: string[];
  message: SignedMessage | null;
  signature: SignatureCheck;
  agentdna: AgentDnaOutcome;
  statusCode: bigint | null;
  /** Another, different envelope of this workflow claims the same hash. */
  duplicateHash: boolean;
  /** When the content does not match the stored hash: does the signature hold over the stored one? */
  claimedHashSignature: SigStatus | null;
}

export const MODE_FAILURE: Record<ModeName, number> = { light: 2001, heavy: 2002, boundary: 2003 };

type VerdictOf = (occurrence: EnvelopeNode) => EnvelopeVerdict;

export interface WorkflowAnalysis {
  tip: EnvelopeNode;
  verdicts: EnvelopeVerdict[];
  /** The verdict of an occurrence of this analysis's tree. */
  verdictOf: VerdictOf;
  modes: Record<ModeName, ModeVerdict>;
  findings: Finding[];
  /** AgentDNA cannot parse the workflow at all (every mode raises). */
  parseError: string | null;
}

export const STATUS_NAMES: Record<string, string> = {
  '1000': 'ok',
  '1001': 'agent not whitelisted',
  '1002': 'agent whitelist check could not be completed',
  '2001': 'verification failed in light mode',
  '2002': 'verification failed in heavy mode',
  '2003': 'verification failed in boundary mode',
  '2999': 'verification failed for an unknown reason',
  '2004': 'verification failed for an unknown reason (2004 in an older release)',
  '4001': 'MCP tool execution failed (the workflow goes on)',
  '4002': 'middleware error',
};

export function statusName(code: bigint | null): string {
  if (code === null) return 'not an integer';
  return STATUS_NAMES[code.toString()] ?? "a deployment's own policy denial code";
}

const short = (h: string | null): string => (h === null ? '(none)' : shortHash(h));

/** The claimed hash as Python would compare it (absent → "" default). */
function claimedKey(n: EnvelopeNode): string {
  if (!n.hash) return 's:';
  const v = n.hash.value;
  return v.type === 'string' ? `s:${v.value}` : `j:${pythonDumps(v)}`;
}

function identityOf(n: EnvelopeNode): string {
  const entries: Array<readonly [string, PyValue]> = [];
  for (const [k, e] of fieldsOf(n)) if (k !== 'parent_envelope' && k !== 'from' && k !== 'from_') entries.push([k, e.value]);
  if (n.from) entries.push(['from_', n.from.value]);
  const parents = n.parents.map((p) => (p.hash ? p.hash.value : null) as PyValue);
  return pythonDumps(
    new PyDict([
      ['fields', new PyDict(entries)],
      ['parents', parents],
      ['bad_parents', n.badParents.length > 0],
    ]),
  );
}

function statusCodeOf(n: EnvelopeNode): bigint | null {
  const v = n.statusCode?.value;
  if (v === undefined) return 1000n;
  return v.type === 'number' && v.isInteger ? v.big : null;
}

/** What an envelope's signature is checked over: its content hash and signed message, and the signature. */
interface EnvelopeSigning {
  missing: string[];
  contentJson: string | null;
  contentHash: string | null;
  claimedHash: string | null;
  hashOk: boolean;
  message: SignedMessage | null;
  /** Why the message cannot be formed (used when it cannot). */
  messageProblem: string;
  signer: string | null;
  /** The signature as the check takes it: the string, null, undefined (absent) or the JSON value. */
  sigValue: string | null | undefined | JsonValue;
}

/** What an envelope object hashes to: its content JSON and hash, and the message signed over them and its parents' hashes. */
interface EnvelopeHashes {
  contentJson: string | null;
  contentHash: string | null;
  /** signedMessage's answer (its reasons name parents by index); null without a content hash or with a parent that is not an object. */
  message: SignedMessage | null;
}

/**
 * Envelope objects' hashes by object. They depend on the object alone (its fields and its parents'
 * `hash` members), never on where it occurs, so an analysis makes each once; a streamed read lists
 * an envelope's signature check ahead (signatureJobsOf) and keeps the hashes here for the analysis
 * that reads the same objects later (analyzeWorkflow takes them out as it uses them). A Map owned by
 * the read, not a WeakMap beside the parse: V8 marks a WeakMap's entries as ephemerons, and with
 * an entry per envelope a full collection of a 10,000-workflow load paused for 100s of ms.
 */
export type EnvelopeHashCache = Map<JsonObject, EnvelopeHashes>;

function envelopeHashes(n: EnvelopeNode, cache: EnvelopeHashCache): EnvelopeHashes {
  let h = cache.get(n.value);
  if (h !== undefined) return h;
  const contentJson = computeContentJson(contentFieldsOf(n));
  const contentHash = contentJson === null ? null : sha256Hex(contentJson);
  const message =
    contentHash === null || n.badParents.length > 0
      ? null
      : signedMessage(
          contentHash,
          n.parents.map((p) => (p.hash === undefined ? undefined : p.hash.value.type === 'string' ? p.hash.value.value : p.hash.value)),
        );
  h = { contentJson, contentHash, message };
  cache.set(n.value, h);
  return h;
}

function envelopeSigning(n: EnvelopeNode, cache: EnvelopeHashCache): EnvelopeSigning {
  const missing: string[] = [];
  if (!n.from) missing.push('from');
  if (!n.payload) missing.push('payload');
  if (!n.epoch) missing.push('epoch');
  const hashes = envelopeHashes(n, cache);
  const { contentJson, contentHash } = hashes;
  const claimedHash = str(n.hash);
  const hashOk = contentHash !== null && claimedHash === contentHash;

  let message: SignedMessage | null = null;
  let messageProblem = 'the signed message cannot be formed';
  if (contentHash === null) {
    messageProblem = `the content hash cannot be computed (missing ${missing.join(', ')})`;
  } else if (n.badParents.length > 0) {
    const b = n.badParents[0];
    message = { ok: false, reason: `parent ${b.index} (${b.path}) is not an envelope object`, parentIndex: b.index };
    messageProblem = message.reason;
  } else {
    message = hashes.message!;
    if (!message.ok) {
      const p = n.parents[message.parentIndex];
      message = { ...message, reason: message.reason.replace(/^parent \d+/, `the parent ${p.path}`) };
      messageProblem = message.reason;
    }
  }
  const signer = str(n.from);
  const sigValue =
    n.signature === undefined
      ? undefined
      : n.signature.value.type === 'string'
        ? n.signature.value.value
        : n.signature.value.type === 'null'
          ? null
          : n.signature.value;
  return { missing, contentJson, contentHash, claimedHash, hashOk, message, messageProblem, signer, sigValue };
}

/**
 * The signature checks a workflow's analysis will make (the first check of each envelope's
 * signature), for checking them ahead on other threads (SignatureResults). Each listed once.
 */
export function signatureJobsOf(tip: EnvelopeNode, extraKeys: ExtraKeys | undefined, ahead: EnvelopeHashCache = new Map()): SignatureJob[] {
  const jobs: SignatureJob[] = [];
  const listed = new ByJob<true>();
  for (const n of allOccurrences(tip)) {
    const { message, signer, sigValue } = envelopeSigning(n, ahead);
    if (!message?.ok || typeof sigValue !== 'string') continue;
    const job = signatureJob(signer, message.message, sigValue, extraKeys);
    if (listed.has(job)) continue;
    listed.add(job, true);
    jobs.push(job);
  }
  return jobs;
}

function evaluate(
  n: EnvelopeNode,
  index: number,
  extraKeys: ExtraKeys | undefined,
  results: SignatureResults | undefined,
  cache: EnvelopeHashCache,
): EnvelopeVerdict {
  const { missing, contentJson, contentHash, claimedHash, hashOk, message, messageProblem, signer, sigValue } = envelopeSigning(n, cache);
  const text = message?.ok ? message.message : null;
  const pooled = results !== undefined && text !== null && typeof sigValue === 'string' ? results.take(signer, text, sigValue) : undefined;
  let signature = pooled ?? checkSignatureText(signer, text, sigValue, extraKeys, messageProblem);

  // When the content was changed after signing, the signature may still hold over the stored hash.
  let claimedHashSignature: SigStatus | null = null;
  if (!hashOk && claimedHash !== null && /^[0-9a-f]{64}$/.test(claimedHash) && signature.status === 'invalid' && !(message && !message.ok)) {
    const m =
      n.badParents.length > 0
        ? null
        : signedMessage(
            claimedHash,
            n.parents.map((p) => str(p.hash) ?? undefined),
          );
    if (m?.ok) claimedHashSignature = checkSignatureText(signer, m.message, sigValue, extraKeys).status;
    // One story: the signature does not hold for the envelope as it is, and why is the change of
    // content, not the signer (its DID never changed; no recovered key could derive it from this content).
    if (claimedHashSignature === 'valid')
      signature = {
        ...signature,
        reason: `the content was changed after signing: the signature was made over the stored hash ${short(claimedHash)}, and the content now hashes to ${short(contentHash)}`,
      };
  }

  // AgentDNA's verify_envelope, step by step.
  let agentdna: AgentDnaOutcome;
  const fromV = n.from?.value;
  if (missing.length > 0) {
    agentdna = { ok: false, raises: true, reason: `Envelope(**data) fails: ${missing.join(', ')} missing` };
  } else if (n.badParents.length > 0) {
    agentdna = { ok: false, raises: true, reason: `parse_envelope fails on ${n.badParents[0].path}` };
  } else if (fromV?.type === 'string' && fromV.value === '') {
    agentdna = { ok: false, raises: false, reason: 'from is empty' };
  } else if (sigValue === undefined || sigValue === '') {
    agentdna = { ok: false, raises: false, reason: 'the signature is empty' };
  } else if (!hashOk) {
    agentdna = {
      ok: false,
      raises: false,
      reason: claimedHash === null ? 'the stored hash is absent or not a string' : 'the stored hash is not the content hash',
    };
  } else if (typeof sigValue !== 'string') {
    agentdna = { ok: false, raises: true, reason: 'bytes.fromhex fails on a signature that is not a string' };
  } else if (signature.status !== 'valid' && readHexLikePython(sigValue).bytes === null) {
    // bytes.fromhex raises ValueError, which AgentDNA catches (a signature that holds was read as
    // hex already: the reading is made again only for one that does not)
    agentdna = { ok: false, raises: false, reason: 'the signature is not hex' };
  } else if (message !== null && !message.ok) {
    agentdna = { ok: false, raises: true, reason: `the signed message cannot be formed: ${message.reason}` };
  } else {
    agentdna = { ok: signature.status === 'valid', raises: false, reason: signature.status === 'valid' ? 'verified' : `signature ${signature.status}` };
  }

  return {
    index,
    occurrences: [n],
    node: n,
    claimedHash,
    contentJson,
    contentHash,
    hashOk,
    missing,
    message,
    signature,
    agentdna,
    statusCode: statusCodeOf(n),
    duplicateHash: false,
    claimedHashSignature,
  };
}

/**
 * Verifies every envelope of the DAG under `tip` and computes the three modes. `ahead`: hashes made
 * by signatureJobsOf for this read; those of this workflow's objects are used and taken out.
 */
export function analyzeWorkflow(tip: EnvelopeNode, extraKeys?: ExtraKeys, results?: SignatureResults, ahead?: EnvelopeHashCache): WorkflowAnalysis {
  const occurrences = allOccurrences(tip);
  const cache = ahead ?? new Map();
  const verdicts: EnvelopeVerdict[] = [];
  // By serial, not in a Map by path: half a million occurrences cost 4 bytes each, not ~40.
  const verdictIndex = new Int32Array(occurrences.length);
  // Occurrences are the same envelope when their identities are equal. Equal identities have equal
  // content JSON, so identities (a json.dumps of every field) are written only within a group of
  // equal content, which in most workflows holds one envelope; a group of many (125,000 parents
  // with no content JSON) is looked up by identity, not searched.
  const byContent = new Map<string, { first: EnvelopeVerdict; byIdentity: Map<string, EnvelopeVerdict> | null }>();
  for (const n of occurrences) {
    const content = envelopeHashes(n, cache).contentJson ?? ''; // '' is no content JSON: those always start with '{'
    const group = byContent.get(content);
    let v: EnvelopeVerdict | undefined;
    if (group) {
      const id = identityOf(n);
      group.byIdentity ??= new Map([[identityOf(group.first.node), group.first]]);
      v = group.byIdentity.get(id);
      if (v) v.occurrences.push(n);
      else {
        v = evaluate(n, verdicts.length, extraKeys, results, cache);
        group.byIdentity.set(id, v);
        verdicts.push(v);
      }
    } else {
      v = evaluate(n, verdicts.length, extraKeys, results, cache);
      byContent.set(content, { first: v, byIdentity: null });
      verdicts.push(v);
    }
    verdictIndex[n.serial] = v.index;
  }
  if (ahead) for (const n of occurrences) ahead.delete(n.value);

  // Two different envelopes claiming the same hash.
  const firstByHash = new Map<string, EnvelopeVerdict>();
  for (const v of verdicts) {
    if (v.claimedHash === null || v.claimedHash === '') continue;
    const first = firstByHash.get(v.claimedHash);
    if (first === undefined) firstByHash.set(v.claimedHash, v);
    else {
      first.duplicateHash = true;
      v.duplicateHash = true;
    }
  }

  const parseProblem = verdicts.find((v) => v.missing.length > 0 || v.node.badParents.length > 0);
  const parseError = parseProblem ? `AgentDNA cannot parse this workflow: ${parseProblem.agentdna.reason} at ${parseProblem.node.path || 'the top'}` : null;

  const verdictOf: VerdictOf = (n) => verdicts[verdictIndex[n.serial]];
  const modes = {
    light: lightMode(tip, verdictOf, occurrences.length, parseError),
    heavy: heavyMode(tip, verdictOf, parseError),
    boundary: boundaryMode(tip, verdictOf, occurrences.length, parseError),
  };

  return { tip, verdicts, verdictOf, modes, findings: findingsFor(verdicts), parseError };
}

function label(n: EnvelopeNode): string {
  return n.path || '(the envelope)';
}

function runChecks(
  name: ModeName,
  /** Checked fully (hash and signature), in order; then `hashOnlyNodes`, their hashes only. */
  full: readonly EnvelopeNode[],
  hashOnlyNodes: readonly EnvelopeNode[],
  verdictOf: VerdictOf,
  parseError: string | null,
  notChecked: string,
): ModeVerdict {
  const verified: string[] = [];
  const hashOnly: string[] = [];
  if (parseError !== null) {
    return {
      code: MODE_FAILURE[name],
      raised: true,
      verified,
      hashOnly,
      failedAt: null,
      reason: `${parseError}; AgentDNA raises an error instead of returning a code`,
      notChecked,
    };
  }
  // Two lists, not a step object each: light mode's hash-only list is every parent of the tip.
  for (let i = 0; i < full.length + hashOnlyNodes.length; i++) {
    const isFull = i < full.length;
    const node = isFull ? full[i] : hashOnlyNodes[i - full.length];
    const v = verdictOf(node);
    (isFull ? verified : hashOnly).push(node.path);
    if (isFull) {
      if (!v.agentdna.ok) {
        return {
          code: MODE_FAILURE[name],
          raised: v.agentdna.raises,
          verified,
          hashOnly,
          failedAt: node.path,
          reason: `${label(node)}: ${v.agentdna.reason}${v.agentdna.raises ? ' (AgentDNA raises an error here)' : ''}`,
          notChecked,
        };
      }
    } else if (!v.hashOk) {
      return {
        code: MODE_FAILURE[name],
        raised: false,
        verified,
        hashOnly,
        failedAt: node.path,
        reason: `${label(node)}: the stored hash is not the content hash`,
        notChecked,
      };
    }
  }
  return { code: 1000, raised: false, verified, hashOnly, failedAt: null, reason: 'passed', notChecked };
}

function lightMode(tip: EnvelopeNode, verdictOf: VerdictOf, total: number, parseError: string | null): ModeVerdict {
  const parents = tip.parents;
  const deeper = total - 1 - parents.length;
  const notChecked =
    `Light verified the tip's signature and compared only the hashes of its ${parents.length} direct parent(s): ` +
    `no parent signature was checked${deeper > 0 ? `, and ${deeper} deeper envelope occurrence(s) were not looked at` : ''}.`;
  return runChecks('light', [tip], parents, verdictOf, parseError, notChecked);
}

function heavyMode(tip: EnvelopeNode, verdictOf: VerdictOf, parseError: string | null): ModeVerdict {
  // IntentWorkflow.unwrap: breadth-first from the tip, de-duplicated by the hash each envelope claims.
  const seen = new Map<string, EnvelopeNode>();
  const checked: EnvelopeNode[] = [];
  const skippedDifferent: EnvelopeNode[] = [];
  const queue = [tip];
  for (let i = 0; i < queue.length; i++) {
    const cur = queue[i];
    const key = claimedKey(cur);
    const first = seen.get(key);
    if (first !== undefined) {
      if (verdictOf(first) !== verdictOf(cur)) skippedDifferent.push(cur);
      continue;
    }
    seen.set(key, cur);
    checked.push(cur);
    // One by one: spread into push(), 125,000 parents overflow the stack.
    for (const p of cur.parents) queue.push(p);
  }
  // unwrap() sorts newest first by (epoch, hash); the first failure ends the check either way.
  const notChecked =
    skippedDifferent.length > 0
      ? `Heavy verified each envelope once per claimed hash and skipped ${skippedDifferent.length} different envelope(s) that reuse a hash already seen (${skippedDifferent.map(label).join(', ')}), and everything under them.`
      : 'Heavy verified every envelope reachable from the tip, but only once per claimed hash: a different envelope reusing a hash would be skipped (none does here).';
  return runChecks('heavy', checked, [], verdictOf, parseError, notChecked);
}

function boundaryMode(tip: EnvelopeNode, verdictOf: VerdictOf, total: number, parseError: string | null): ModeVerdict {
  let root = tip;
  while (root.parents.length > 0) root = root.parents[0];
  const steps = root === tip ? [tip] : [tip, root];
  const between = total - steps.length;
  const notChecked =
    root === tip
      ? 'Boundary verified the tip, which is also the root: there is nothing else.'
      : between === 0
        ? 'Boundary verified the tip and the root (reached through each first parent); there is nothing in between.'
        : `Boundary verified the tip and the root (reached through each first parent) only: ${between} envelope occurrence(s) in between and on other branches were not checked, neither their hashes nor their signatures.`;
  return runChecks('boundary', steps, [], verdictOf, parseError, notChecked);
}

function findingsFor(verdicts: EnvelopeVerdict[]): Finding[] {
  const out: Finding[] = [];
  const at = (n: EnvelopeNode, key: string) => (n.path ? `${n.path}.${key}` : key);
  for (const v of verdicts) {
    const n = v.node;
    const where = v.occurrences.length > 1 ? ` (occurs ${v.occurrences.length} times)` : '';
    if (v.missing.length > 0) {
      out.push(finding('agentdna/hash', n.path || null, `${label(n)}: no content hash can be computed: ${v.missing.join(', ')} missing${where}`, n.span));
    } else if (!v.hashOk) {
      const msg =
        n.hash === undefined
          ? `${label(n)}: no hash; the content hash is ${v.contentHash}${n.legacy.length ? ' (a document this old cannot be verified)' : ''}`
          : v.claimedHash === null
            ? `${label(n)}: the hash is not a string; the content hash is ${v.contentHash}`
            : `${label(n)}: the stored hash ${v.claimedHash} is not the content hash ${v.contentHash}${v.claimedHashSignature === 'valid' ? ': the content was changed after signing (the signature was made over the stored hash, and does not hold for the content as it is now)' : ''}`;
      out.push(finding('agentdna/hash', at(n, 'hash'), msg + where, spanOf(n.hash) ?? n.span));
    }
    if (v.message && !v.message.ok) {
      const bad = n.badParents[0];
      const parent = bad ? undefined : n.parents[v.message.parentIndex];
      const span: Span | null = bad ? [bad.value.start, bad.value.end] : parent ? (spanOf(parent.hash) ?? parent.span) : n.span;
      out.push(finding('agentdna/parent-hash', n.path || null, `${label(n)}: ${v.message.reason}, so the signed message cannot be formed${where}`, span));
    }
    const sig = v.signature;
    if (sig.status === 'invalid' || sig.status === 'malformed' || sig.status === 'unsigned') {
      out.push(finding('agentdna/signature', at(n, 'signature'), `${label(n)}: signature ${sig.status}: ${sig.reason}${where}`, spanOf(n.signature) ?? n.span));
    }
    if (sig.der_issues.length > 0) {
      out.push(
        finding(
          'agentdna/signature/der',
          at(n, 'signature'),
          `${label(n)}: accepted by ECPy but not strict DER: ${sig.der_issues.join('; ')}`,
          spanOf(n.signature),
        ),
      );
    }
    if (v.statusCode !== 1000n) {
      const raw = n.statusCode ? pythonDumps(n.statusCode.value) : '1000';
      out.push(finding('agentdna/status-code', at(n, 'status_code'), `${label(n)}: status_code ${raw}: ${statusName(v.statusCode)}`, spanOf(n.statusCode)));
    }
    if (v.duplicateHash) {
      out.push(
        finding(
          'agentdna/duplicate-hash',
          at(n, 'hash'),
          `${label(n)}: another, different envelope of this workflow claims the same hash ${short(v.claimedHash)}; heavy mode verifies only the first one it meets`,
          spanOf(n.hash),
        ),
      );
    }
    if (n.legacy.length > 0) {
      out.push(
        finding(
          'agentdna/legacy',
          n.path || null,
          `${label(n)}: a 1.0-style envelope: ${n.legacy.join('; ')}; it cannot be verified as a 2.0 envelope`,
          n.span,
        ),
      );
    }
    const fields = n.duplicateKeys.length > 0 || n.unknownKeys.length > 0 ? fieldsOf(n) : null;
    for (const k of n.duplicateKeys) {
      const e = fields!.get(k)!;
      out.push(
        finding(
          'agentdna/duplicate-key',
          at(n, k),
          `${label(n)}: "${k}" appears more than once; AgentDNA (Python) uses the last one, other readers may use the first`,
          [e.keyStart, e.value.end],
        ),
      );
    }
    for (const k of n.unknownKeys) {
      const e = fields!.get(k)!;
      out.push(
        finding('agentdna/unknown-field', at(n, k), `${label(n)}: "${k}" is not an Envelope field: AgentDNA drops it, it is neither hashed nor signed`, [
          e.keyStart,
          e.value.end,
        ]),
      );
    }
  }
  return out;
}

/** One line for an envelope's verdict (tree hints, summaries). */
export function verdictLine(v: EnvelopeVerdict): string {
  const parts: string[] = [];
  parts.push(v.hashOk ? 'hash ✓' : v.contentHash === null ? 'hash: cannot compute' : 'hash ✗ (content does not match)');
  const s = v.signature;
  parts.push(
    s.status === 'valid'
      ? `signature valid (${s.rule === 'truncate' ? 'truncation rule' : 'sha256 rule'}, ${s.key_source === 'did' ? 'DID bound' : 'key file'})`
      : `signature ${s.status}`,
  );
  parts.push(`status ${v.statusCode === null ? '?' : v.statusCode.toString()} ${statusName(v.statusCode)}`);
  if (v.duplicateHash) parts.push('duplicate hash');
  return parts.join(' · ');
}

/** The report of one envelope, before its trust is judged (the importer judges it by the reader's registry; applyAgentDnaTrust by a changed one). */
export function envelopeReport(v: EnvelopeVerdict): EnvelopeReport {
  const n = v.node;
  const num = (e: typeof n.epoch) => (e ? (e.value.type === 'number' ? e.value.text : pythonDumps(e.value)) : null);
  return {
    hash: v.claimedHash ?? v.contentHash ?? '',
    hash_ok: v.hashOk,
    signature: v.signature.status,
    did_match: v.signature.did_match,
    signer: null,
    trusted: false,
    path: n.path,
    paths: v.occurrences.map((o) => o.path),
    spans: v.occurrences.map((o) => o.span),
    from: str(n.from),
    to: str(n.to),
    epoch: num(n.epoch),
    payload: n.payload ? (n.payload.value.type === 'string' ? n.payload.value.value : pythonDumps(n.payload.value)) : null,
    status_code: n.statusCode ? num(n.statusCode) : '1000',
    status_name: statusName(v.statusCode),
    claimed_hash: v.claimedHash,
    content_hash: v.contentHash,
    content_json: v.contentJson,
    parents: v.message?.ok ? v.message.parents : n.parents.map((p) => str(p.hash) ?? ''),
    combined_json: v.message?.ok ? v.message.combinedJson : null,
    message: v.message?.ok ? v.message.message : null,
    message_problem: v.message === null ? (v.contentHash === null ? 'the content hash cannot be computed' : null) : v.message.ok ? null : v.message.reason,
    rule: v.signature.rule,
    signed_bytes_hex: v.signature.signed_bytes_hex,
    signature_hex: str(n.signature),
    r: v.signature.r,
    s: v.signature.s,
    high_s: v.signature.high_s,
    key_source: v.signature.key_source,
    recovered: v.signature.recovered,
    der_issues: v.signature.der_issues,
    signature_reason: v.signature.reason,
    claimed_hash_signature: v.claimedHashSignature,
    duplicate_hash: v.duplicateHash,
    agentdna_ok: v.agentdna.ok,
    agentdna_reason: v.agentdna.reason,
    legacy: [...n.legacy],
    trust_reason: 'no registry applied',
  };
}
