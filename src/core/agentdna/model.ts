// The AgentDNA report model: what report@1 says of a workflow and of each of its envelopes, and
// the three mode verdicts. Plain data shared by the importer, trust, graphs, the worker and the
// page; it imports nothing from records or importers (so no import circle runs through it).
import type { Span } from '../model';
import type { RecoveredKey, SigRule, SigStatus } from './signature';

export type ModeName = 'light' | 'heavy' | 'boundary';

export interface ModeVerdict {
  code: number;
  /** AgentDNA raises an exception here rather than returning a code (shown as the mode's failure code). */
  raised: boolean;
  /** Paths of the envelopes this mode verified fully (verify_envelope). */
  verified: string[];
  /** Paths of the envelopes whose hash alone this mode compared (light: the tip's direct parents). */
  hashOnly: string[];
  /** The first envelope that failed this mode, if any. */
  failedAt: string | null;
  reason: string;
  /** What this mode did not look at. */
  notChecked: string;
}

export interface EnvelopeReport {
  hash: string;
  hash_ok: boolean;
  signature: SigStatus;
  did_match: boolean;
  /** The DID the signature is bound to (valid signatures only), or null. */
  signer: string | null;
  /** The signer's DID is in the reader's registry, unrevoked, in window (see trust.ts); set from the registry. */
  trusted: boolean;
  // --- added fields (report@1 allows them) ---
  path: string;
  paths: string[];
  spans: Span[];
  from: string | null;
  to: string | null;
  epoch: string | null;
  /** The payload as text: the string itself, or the JSON of a content-block array. */
  payload: string | null;
  status_code: string | null;
  status_name: string;
  claimed_hash: string | null;
  content_hash: string | null;
  /** The exact JSON that was hashed. */
  content_json: string | null;
  /** The parents' claimed hashes, sorted as signed. */
  parents: string[];
  combined_json: string | null;
  /** The signed message (ASCII), or null when it cannot be formed. */
  message: string | null;
  message_problem: string | null;
  rule: SigRule | null;
  /** The 32 bytes the signature is over (under the rule that held), hex. */
  signed_bytes_hex: string | null;
  signature_hex: string | null;
  r: string | null;
  s: string | null;
  high_s: boolean | null;
  key_source: 'did' | 'key-file' | null;
  recovered: RecoveredKey[];
  der_issues: string[];
  signature_reason: string;
  claimed_hash_signature: SigStatus | null;
  duplicate_hash: boolean;
  agentdna_ok: boolean;
  agentdna_reason: string;
  legacy: string[];
  /** Why trusted or not, in words. */
  trust_reason: string;
}

/** report@1 `workflows[]` entry; everything after `envelopes` is added detail for the UI. */
export interface WorkflowReport {
  /** Index of the workflow's record within the records of its input (of the batch it came in, while streaming). */
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
