// The shapes every layer shares: records, signatures and the views built for a person (findings and
// decode errors sit beside the verdict, in verdict.ts).
import type { Span } from './bytes';

export type { Span };

/** report.md "Record formats". */
export const RECORD_FORMAT_LIST = [
  'agdx.envelope',
  'agdx.record',
  'agdx.dead_letter',
  'agdx.capsule',
  'agdx.control',
  'agentdna.workflow',
  'agentdna.envelope',
  'agentdna.card',
  'unknown',
] as const;
export type RecordFormat = (typeof RECORD_FORMAT_LIST)[number];

/** report@1 `signature.status`, in the order the page's packed summaries number them. */
export const SIGNATURE_STATUS_LIST = ['unsigned', 'valid', 'invalid', 'unknown_key', 'unsupported', 'malformed'] as const;
export type SignatureStatus = (typeof SIGNATURE_STATUS_LIST)[number];

export interface SignatureVerdict {
  status: SignatureStatus;
  scheme: 'ed25519' | 'ecdsa-secp256k1' | null;
  key_id: string | null;
  signer: string | null;
  trusted: boolean;
  context_match: boolean | null;
  /**
   * Field paths present in the record that the signature does not cover (report.md `not_covered`):
   * AGDX unknown fields and headers no signed value fixes; AgentDNA keys outside the content hash
   * and the workflow's own members. Always empty for an unsigned record.
   */
  not_covered: string[];
  /** Why, in words (not part of report@1's required fields). */
  reason: string;
}

/** The verdict of a record that carries no signature (or none that could be read), saying why. */
export function unsignedVerdict(reason: string): SignatureVerdict {
  return { status: 'unsigned', scheme: null, key_id: null, signer: null, trusted: false, context_match: null, not_covered: [], reason };
}

/** One node of the field tree: what a field says, where its bytes are, and what it means. */
export interface FieldNode {
  /** Dotted path, the same one findings use (`metadata.priority`, `signature.key_id`). */
  path: string;
  label: string;
  /** The value as a person reads it (ids in Crockford, codes by name). */
  display: string;
  /** CBOR or JSON type, e.g. `bstr 16`, `uint`, `text`. */
  type: string;
  /** The bytes of the value (and of its key, when it has one). */
  span: Span | null;
  keySpan: Span | null;
  /** A second reading shown on hover: hex of an id, the ULID time, the meaning of the field. */
  hint?: string;
  children?: FieldNode[];
}

export interface HeaderView {
  name: string;
  kind: string;
  display: string;
  hex: string;
  span: Span | null;
}

export interface BodyView {
  /** How the body was read: json, cbor (diagnostic), text, hex, error_body, card, body_ref, agent_id. */
  rendering: string;
  /** The content type that chose the rendering, e.g. `json (agdx.ct = 1)` or `error body (kind)`. */
  reason: string;
  text: string;
  span: Span | null;
}

/** Where the bytes that a record's spans index come from. */
export type ViewOrigin = 'input' | 'payload' | 'decoded-text';

export interface LogPosition {
  stream: number | null;
  topic: number | null;
  partition: number;
  offset: bigint;
}
