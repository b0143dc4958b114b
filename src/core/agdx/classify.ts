// Which AGDX thing a top-level CBOR map is, judged by its keys: an envelope, the laser record, a
// dead-letter capsule, a capsule on its own, or a managed-channel control frame.
import type { CborItem } from '../cbor/reader';
import { untag } from '../cbor/reader';
import { ENVELOPE_FIELD_SET } from './envelope';

// Field names an envelope has and the other AGDX maps do not share (source is also a dead letter's).

export type CborShape =
  | { format: 'agdx.envelope' }
  | { format: 'agdx.record' }
  | { format: 'agdx.dead_letter' }
  | { format: 'agdx.capsule'; kind: 'error_body' | 'card' | 'body_ref' | 'signature' | 'presence' }
  | { format: 'agdx.control'; kind: 'submit' | 'list_page' | 'reply_status' | 'reply_list_page' | 'reply_error' | 'reply' }
  | { format: 'unknown'; why: string };

export function mapKeys(item: CborItem): string[] | null {
  const it = untag(item);
  if (it.kind !== 'map') return null;
  return it.entries.map((e) => {
    const k = untag(e.key);
    return k.kind === 'text' ? k.value : `(${k.kind})`;
  });
}

export function classifyCbor(item: CborItem): CborShape {
  const keys = mapKeys(item);
  if (!keys) {
    return { format: 'unknown', why: `a CBOR ${untag(item).kind} at the top level, where an AGDX envelope, record or capsule is a map` };
  }
  const has = (...names: string[]) => names.every((n) => keys.includes(n));
  // An envelope by its kind, or by two of its fields (then decoding says which required one is missing).
  if (has('kind') || keys.filter((k) => ENVELOPE_FIELD_SET.has(k) && k !== 'source').length >= 2 || has('conversation', 'source'))
    return { format: 'agdx.envelope' };
  if (has('partition_key', 'headers', 'payload')) return { format: 'agdx.record' };
  if (has('payload', 'reason') || has('payload', 'attempts')) return { format: 'agdx.dead_letter' };
  if (has('scheme', 'key_id', 'bytes')) return { format: 'agdx.capsule', kind: 'signature' };
  if (has('reference', 'sha256') || has('reference', 'size_bytes')) return { format: 'agdx.capsule', kind: 'body_ref' };
  if (has('code') && (keys.includes('retryable') || keys.includes('message') || keys.length === 1)) return { format: 'agdx.capsule', kind: 'error_body' };
  if (has('capabilities') || has('ttl_micros') || (has('name', 'version') && keys.length <= 4)) return { format: 'agdx.capsule', kind: 'card' };
  if (has('agent', 'inbox')) return { format: 'agdx.capsule', kind: 'presence' };
  if (has('v', 'agent_id', 'run_id') || has('agent_id', 'input')) return { format: 'agdx.control', kind: 'submit' };
  if (has('v', 'agent_id') && (keys.includes('limit') || keys.includes('cursor') || keys.includes('state')))
    return { format: 'agdx.control', kind: 'list_page' };
  if (keys.length === 1 && (keys[0] === 'Ok' || keys[0] === 'Err')) {
    if (keys[0] === 'Err') return { format: 'agdx.control', kind: 'reply_error' };
    const inner = mapKeys(untag(item).kind === 'map' ? (untag(item) as Extract<CborItem, { kind: 'map' }>).entries[0].value : item);
    if (inner?.[0] === 'Status') return { format: 'agdx.control', kind: 'reply_status' };
    if (inner?.[0] === 'List') return { format: 'agdx.control', kind: 'reply_list_page' };
    return { format: 'agdx.control', kind: 'reply' };
  }
  return {
    format: 'unknown',
    why: `a CBOR map with keys ${keys.slice(0, 12).join(', ')}${keys.length > 12 ? ', …' : ''}: not an envelope (kind, conversation, source), a laser record (partition_key, headers, payload), a dead letter (source, reason, attempts, payload), a capsule or a control frame`,
  };
}
