// For the importers' tests: the vectors, which importer reads each (a literal table: the driver's
// dispatch, pinned), each fixture's golden reading, and the invariants every record keeps.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { toHex } from '../../src/core/bytes';
import { RECORD_FORMATS, REPORT_CODES } from './fuzz';
import { inspectInput } from '../../src/core/inspect';
import { recordViews, type InspectedRecord, type RecordData, type RecordViews } from '../../src/core/records';
import { allFindings, isValid, type LogFindings, type RecordVerdict, type Finding, verdictFields } from '../../src/core/verdict';
import { Source, type Importer } from '../../src/core/import/importer';

export const VECTORS = resolve(__dirname, '../../vectors');

/** A vector's bytes, by its path under vectors/. */
export const vector = (rel: string): Uint8Array => new Uint8Array(readFileSync(join(VECTORS, rel)));

export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Bytes as an input the importers see. */
export const sourceOf = (bytes: Uint8Array): Source => new Source({ input: 0, view: bytes, viewOrigin: 'input' });

/** Every vector file (not the ORIGIN, LICENSE and NOTICE files beside them), as paths under vectors/. */
export function vectorFiles(dir = VECTORS, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) vectorFiles(path, out);
    else if (!/^(ORIGIN\.md|LICENSE|NOTICE)$/.test(name)) out.push(relative(VECTORS, path));
  }
  return out;
}

/** How the driver reads each vector: the input's format (its importer is the part before any `(` or `-`). */
export const FIXTURE_FORMATS: Record<string, string> = {
  'agdx/iggy/record_headers_v06.hex': 'hex(iggy-headers(<=0.6))',
  'agdx/iggy/record_headers_v07.hex': 'hex(iggy-headers(>=0.7))',
  'agdx/iggy/record_http_v06.json': 'iggy-json(0.5-0.6)',
  'agdx/iggy/record_http_v07.json': 'iggy-json(>=0.7)',
  'agdx/laser-sdk-ts-0.7.0/expected.json': 'json',
  'agdx/laser-sdk-ts-0.7.0/fixtures/dispatch_cases.json': 'json',
  'agdx/laser-sdk-ts-0.7.0/fixtures/header_block_envelope.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/fixtures/header_block_generic.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/fixtures/token_estimates.json': 'json',
  'agdx/laser-sdk-ts-0.7.0/iggy_export.json': 'iggy-json(>=0.7)',
  'agdx/laser-sdk-ts-0.7.0/v01_command_parent_root.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v01_command_parent_root.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v02_command_parent_root_signed.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v02_command_parent_root_signed.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v03_command_parent_root_signed_ctx.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v03_command_parent_root_signed_ctx.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v04_command_reference_signed.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v04_command_reference_signed.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v05_command_must_understand.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v05_command_must_understand.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v06_session_submitted.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v06_session_submitted.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v07_session_started.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v07_session_started.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v08_session_paused.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v08_session_paused.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v09_session_resumed.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v09_session_resumed.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v10_session_completed.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v10_session_completed.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v11_session_failed.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v11_session_failed.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v12_session_canceled.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v12_session_canceled.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v13_session_rejected.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v13_session_rejected.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v14_task_paused.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v14_task_paused.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v15_event_session_parked.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v15_event_session_parked.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v16_event_session_unparked.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v16_event_session_unparked.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v17_response_usage_cost.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v17_response_usage_cost.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v18_event_state_delta.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v18_event_state_delta.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v19_event_state_snapshot.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v19_event_state_snapshot.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v20_event_context_assembled.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v20_event_context_assembled.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v21_event_context_compacted.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v21_event_context_compacted.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v22_event_context_retrieved.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v22_event_context_retrieved.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/v23_event_session_parked_memory_source.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/v23_event_session_parked_memory_source.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/x01_root_without_parent.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/x01_root_without_parent.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/x02_parent_equals_conversation.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/x02_parent_equals_conversation.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/x03_root_equals_conversation.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/x03_root_equals_conversation.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/x04_session_no_task_state.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/x04_session_no_task_state.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/x05_session_completed_not_last.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/x05_session_completed_not_last.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/x06_session_paused_last.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/x06_session_paused_last.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/x07_session_start_parent_mismatch.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/x07_session_start_parent_mismatch.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/x08_session_start_lineage_missing_on_envelope.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/x08_session_start_lineage_missing_on_envelope.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/x09_session_working_start_root_mismatch.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/x09_session_working_start_root_mismatch.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/x10_session_no_body.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/x10_session_no_body.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/x11_session_start_body_root_without_parent.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/x11_session_start_body_root_without_parent.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/x12_task_status_no_correlation.bin': 'cbor',
  'agdx/laser-sdk-ts-0.7.0/x12_task_status_no_correlation.headers.json': 'agdx-json',
  'agdx/laser-sdk-ts-0.7.0/x13_task_state_overflows_u8.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_body_ref.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_card.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_chunk.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_chunk_open.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_chunk_terminal.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_command.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_command_signed.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_dead_letter.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_error.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_error_body.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_event.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_invalid_chunk_late_deadline.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_invalid_chunk_no_sequence.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_invalid_chunk_open_no_operation.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_invalid_command_no_correlation.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_invalid_error_last.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_invalid_event_task_state.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_invalid_response_channel.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_invalid_status_bad_operation.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_invalid_status_no_operation.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_list_page.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_must_understand.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_presence.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_record.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_reply_error.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_reply_list_page.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_reply_status.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_response.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_signature.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_status_card.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_status_run_metadata.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_status_task.bin': 'cbor',
  'agdx/laser-wire-0.0.1/agent_submit.bin': 'cbor',
  'agdx/laser-wire-0.0.1/typescript_signature.json': 'json',
  'agdx/made/command.b64.txt': 'base64(cbor)',
  'agdx/made/command.diag.txt': 'diag(cbor)',
  'agdx/made/command.hex.txt': 'hex(cbor)',
  'agdx/made/command.json': 'agdx-json',
  'agdx/made/conversation.cborseq': 'cbor-seq',
  'agdx/made/conversation_http_v07.json': 'iggy-json(>=0.7)',
  'agdx/made/deadlines.cborseq': 'cbor-seq',
  'agdx/made/iggy_headers_v06_payload.bin': 'iggy-headers(<=0.6)',
  'agdx/made/iggy_headers_v07_payload.bin': 'iggy-headers(>=0.7)',
  'agdx/made/keys.json': 'json',
  'agdx/made/record_http_v04.json': 'iggy-json(<=0.4)',
  'agdx/made/registry_log_http_v07.json': 'iggy-json(>=0.7)',
  'agdx/sessions/sessions_tree_http_v07.json': 'iggy-json(>=0.7)',
  'agdx/made/signed_by_other_agent.bin': 'cbor',
  'agdx/made/signed_command.bin': 'cbor',
  'agdx/made/signed_context_mismatch_http_v07.json': 'iggy-json(>=0.7)',
  'agentdna/real/rubix-sdk-py_fast_signature_verify_vector.json': 'json',
  'agentdna/synthetic/synthetic_expected.json': 'json',
  'agentdna/synthetic/synthetic_keys.json': 'json',
  'agentdna/synthetic/synthetic_tampered_direct_parent_payload_only.serialized.json': 'agentdna-workflow',
  'agentdna/synthetic/synthetic_tampered_intermediate_payload_only.serialized.json': 'agentdna-workflow',
  'agentdna/synthetic/synthetic_tampered_parent_payload_rehashed.serialized.json': 'agentdna-workflow',
  'agentdna/synthetic/synthetic_tampered_tip_payload.serialized.json': 'agentdna-workflow',
  'agentdna/synthetic/synthetic_tip_from_swapped_and_rehashed.serialized.json': 'agentdna-workflow',
  'agentdna/synthetic/synthetic_traces.json': 'json',
  'agentdna/synthetic/synthetic_valid_fanin_dag.serialized.json': 'agentdna-workflow',
  'agentdna/synthetic/synthetic_valid_single_root.serialized.json': 'agentdna-workflow',
  'agentdna/upstream-fixtures/ecpy_secp256k1_selftest_vector.json': 'json',
  'agentdna/upstream-fixtures/middleware_TestEnvelopeRawJSONIsVerbatim.json': 'agentdna-workflow',
  'agentdna/upstream-fixtures/middleware_TestParseIntentWorkflow_NewSchema.json': 'agentdna-workflow',
  'agentdna/upstream-fixtures/readme_intent_workflow_example.json': 'agentdna-workflow',
  'files/empty.wasm': 'file(wasm)',
  'files/hello.txt.gz': 'file(gzip)',
  'files/pixel.png': 'file(png)',
  'hostile/agentdna-cyclic-hash.json': 'agentdna-workflow',
  'hostile/agentdna-self-parent.json': 'agentdna-cards',
  'hostile/array-2p32-entries.cbor': 'cbor',
  'hostile/bignum-metadata.cbor': 'cbor',
  'hostile/bignums.cbor': 'cbor',
  'hostile/body-ref-javascript-url-headers.bin': 'iggy-headers(>=0.7)',
  'hostile/body-ref-javascript-url.cbor': 'cbor',
  'hostile/cesu-surrogates.cbor': 'cbor',
  'hostile/depth-bomb-100k-arrays.cbor': 'cbor',
  'hostile/duplicate-keys-workflow.json': 'agentdna-workflow',
  'hostile/duplicate-kind.cbor': 'cbor',
  'hostile/duplicate-metadata-key.cbor': 'cbor',
  'hostile/floats-nan-inf.cbor': 'cbor',
  'hostile/found/base64-equals-run.txt': 'text',
  'hostile/found/bundle-version-0.eibundle': 'unknown',
  'hostile/found/card-history-rewritten-policies.json': 'agentdna-cards',
  'hostile/found/graph-shared-cause.cborseq': 'cbor-seq',
  'hostile/found/graph-shared-correlation.cborseq': 'cbor-seq',
  'hostile/found/json-huge-integer.json': 'json',
  'hostile/found/json-view-del-char.json': 'agdx-json',
  'hostile/found/keys-pem-begin-run.txt': 'text',
  'hostile/found/keys-small-order-ed25519.json': 'json',
  'hostile/found/keys-space-run.txt': 'hex(cbor)',
  'hostile/found/permalink-duplicate-inputs.txt': 'text',
  'hostile/found/permalink-proto-filter.txt': 'text',
  'hostile/found/permalink-selected-2p53.txt': 'text',
  'hostile/found/permalink-selected-negative.txt': 'text',
  'hostile/found/workflow-c1-control.json': 'agentdna-envelope',
  'hostile/html-card-policy.json': 'agentdna-card',
  'hostile/html-in-every-field-workflow.json': 'agentdna-workflow',
  'hostile/html-in-every-field.cbor': 'cbor',
  'hostile/invalid-utf8-long-text.cbor': 'cbor',
  'hostile/invalid-utf8-source.cbor': 'cbor',
  'hostile/javascript-url-metadata.cbor': 'cbor',
  'hostile/json-bigints-view.json': 'agdx-json',
  'hostile/json-bigints-workflow.json': 'agentdna-envelope',
  'hostile/keys-weak.json': 'json',
  'hostile/length-bomb-4gib-body.cbor': 'cbor',
  'hostile/length-bomb-4gib-text.cbor': 'cbor',
  'hostile/lone-surrogates-view.json': 'agdx-json',
  'hostile/lone-surrogates-workflow.json': 'agentdna-envelope',
  'hostile/map-100k-entries.cbor': 'cbor',
  'hostile/map-2p31-entries.cbor': 'cbor',
  'hostile/metadata-map-2p31-entries.cbor': 'cbor',
  'hostile/permalink-damaged-chars.txt': 'text',
  'hostile/permalink-html-names.txt': 'text',
  'hostile/permalink-newer.txt': 'text',
  'hostile/permalink-not-a-link.txt': 'text',
  'hostile/proto-keys-export-v06.json': 'iggy-json(0.5-0.6)',
  'hostile/proto-keys-export-v07.json': 'iggy-json(>=0.7)',
  'hostile/proto-keys-metadata.cbor': 'cbor',
  'hostile/proto-keys-workflow.json': 'agentdna-workflow',
  'hostile/tags-everywhere.cbor': 'cbor',
  'hostile/u64-extremes.cbor': 'cbor',
  'hostile/valid-then-garbage.cborseq': 'cbor',
  'hostile/valid-then-truncated.cborseq': 'cbor-seq',
};

/** Whether an input format is one the importer gives (its name, then nothing, `(…)` or `-…`). */
export function formatOf(importer: Importer, format: string): boolean {
  return format === importer.format || format.startsWith(`${importer.format}(`) || format.startsWith(`${importer.format}-`);
}

/** The vectors the importer reads, by the table. */
export function fixturesOf(importer: Importer): string[] {
  return Object.keys(FIXTURE_FORMATS).filter((file) => formatOf(importer, FIXTURE_FORMATS[file]));
}

const INLINE_RECORDS = 40;

/**
 * Hostile text made safe for a snapshot file: control characters and lone surrogates (which UTF-8
 * cannot carry, so they would not read back as written) as \u escapes.
 */
const printable = (s: string): string =>
  s.replace(
    /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/**
 * A record as the tests read it: its verdict, its data and its views side by side (`headers` are the
 * header views), its findings with the log's about it when given, and `valid` worked out from them.
 */
export type FlatRecord = Omit<RecordVerdict, 'findings'> &
  Omit<RecordData, 'views' | 'headers'> &
  RecordViews & { findings: readonly Finding[]; valid: boolean };

export function flat(record: InspectedRecord, logFindings?: readonly Finding[]): FlatRecord {
  // Read field by field, not spread: a bulk-read record's data reads its envelope when asked (fast-record.ts).
  const d = record.data;
  const data: Omit<RecordData, 'views' | 'headers'> = {
    view: d.view,
    viewOrigin: d.viewOrigin,
    envelope: d.envelope,
    observed: d.observed,
    logPosition: d.logPosition,
    bodySpan: d.bodySpan,
    ...(d.asReceived ? { asReceived: d.asReceived } : {}),
  };
  const out: FlatRecord = {
    // Field by field: a bulk-read verdict makes some when asked (fast-record.ts BulkVerdict).
    ...verdictFields(record.verdict),
    ...data,
    ...recordViews(record),
    findings: allFindings(record.verdict, logFindings),
    valid: isValid(record.verdict, logFindings),
  };
  flattened.set(out, record);
  return out;
}

const flattened = new WeakMap<FlatRecord, InspectedRecord>();

/** The record a flat reading was made from (to hand it back to the core: buildReport, redaction). */
export function inspectedOf(r: FlatRecord): InspectedRecord {
  const record = flattened.get(r);
  if (!record) throw new TypeError('inspectedOf: not a flat reading made by flat()');
  return record;
}

/** Every record of an inspect() result, flat, with the log's findings about it. */
export function flatAll(result: { records: readonly InspectedRecord[]; log?: { findings: LogFindings } }): FlatRecord[] {
  return result.records.map((r, i) => flat(r, result.log?.findings.get(i)));
}

/** An inspect result (or one input's) with its records flat. */
export function flatInput<T extends { records: readonly InspectedRecord[] }>(result: T): Omit<T, 'records'> & { records: FlatRecord[] } {
  return { ...result, records: result.records.map((r) => flat(r)) };
}

/** One record in one line: what report@1 says of it, and its one-line summary. */
function recordLine(r: FlatRecord): string {
  const error = r.error ? ` error=${r.error.code}@${r.error.offset ?? '-'}` : '';
  const rules = r.findings.length ? ` findings=${r.findings.map((f) => `${f.severity[0]}:${f.rule}${f.path ? `(${f.path})` : ''}`).join(',')}` : '';
  const signature = r.signature.status === 'unsigned' ? '' : ` signature=${r.signature.status}${r.signature.trusted ? '+trusted' : ''}`;
  const span = r.span ? ` span=${r.span[0]}..${r.span[1]}` : '';
  const inputSpan = r.inputSpan ? ` inputSpan=${r.inputSpan[0]}..${r.inputSpan[1]}` : '';
  const where = r.parent !== null ? ` parent=${r.parent}` : '';
  return `#${r.index} ${r.format}${r.kind ? ` ${r.kind}` : ''} ${r.decoded ? 'decoded' : 'undecoded'} ${r.valid ? 'valid' : 'invalid'}${error}${rules}${signature}${span}${inputSpan}${where} ${r.viewOrigin} | ${r.summary.slice(0, 160)}`;
}

/**
 * A fixture's golden reading (with its views, as the page opens a record): the input's format and
 * each record's line; each AgentDNA workflow's mode codes and envelope verdicts. A long input
 * shows its first and last records and the digest of every line.
 */
export function golden(name: string, bytes: Uint8Array): string {
  const { input, records, workflows } = inspectInput(0, { name, bytes });
  const lines = records.map((r) => recordLine(flat(r)));
  const shown =
    lines.length <= INLINE_RECORDS
      ? lines
      : [
          ...lines.slice(0, INLINE_RECORDS / 2),
          `… ${lines.length - INLINE_RECORDS} more, all lines' sha256 ${toHex(sha256(utf8(lines.join('\n'))))}`,
          ...lines.slice(-INLINE_RECORDS / 2),
        ];
  const flows = workflows.map(
    (w) =>
      `workflow of #${w.record}: light ${w.modes.light} heavy ${w.modes.heavy} boundary ${w.modes.boundary}${w.legacy ? ' legacy' : ''}${w.parse_error ? ` parse_error=${w.parse_error}` : ''}; ${w.envelopes.length} envelopes: ${w.envelopes.map((e) => `${e.hash.slice(0, 12)} hash ${e.hash_ok ? 'ok' : 'bad'} ${e.signature}${e.did_match ? ' did' : ''}`).join(', ')}`,
  );
  return [`${input.format}: ${records.length} record${records.length === 1 ? '' : 's'}`, ...shown, ...flows].map(printable).join('\n');
}

/** The invariants every record keeps, whatever the input. */
export function checkRecords(inspected: readonly (InspectedRecord | FlatRecord)[], inputLength: number, where: string): void {
  const records = inspected.map((r) => ('verdict' in r ? flat(r) : r));
  expect(records.length, where).toBeGreaterThan(0);
  records.forEach((r, i) => {
    expect(r.index, where).toBe(i);
    expect(RECORD_FORMATS.has(r.format), `${where}: format ${r.format}`).toBe(true);
    if (!r.decoded) {
      expect(r.error, where).not.toBeNull();
      expect(REPORT_CODES.has(r.error!.code), `${where}: code ${r.error!.code} (${r.error!.message})`).toBe(true);
      expect(r.error!.message, where).not.toMatch(/internal error/);
      expect(r.valid, where).toBe(false);
    } else {
      expect(r.error, where).toBeNull();
    }
    if (r.error?.offset != null) {
      expect(r.error.offset, where).toBeGreaterThanOrEqual(0);
      expect(r.error.offset, where).toBeLessThanOrEqual(r.view.length);
    }
    if (r.span) {
      expect(r.span[0], where).toBeLessThanOrEqual(r.span[1]);
      expect(r.span[1], where).toBeLessThanOrEqual(r.view.length);
    }
    for (const f of r.findings) {
      if (!f.span) continue;
      expect(f.span[0], `${where}: ${f.rule}`).toBeLessThanOrEqual(f.span[1]);
      expect(f.span[1], `${where}: ${f.rule}`).toBeLessThanOrEqual(r.view.length);
    }
  });
  if (inputLength >= 0)
    expect(
      records.every((r) => r.viewOrigin !== 'input' || r.view.length === inputLength),
      where,
    ).toBe(true);
}

/** The only record of an input. */
export function only(bytes: Uint8Array, name = 'input'): FlatRecord {
  const { records } = inspectInput(0, { name, bytes });
  expect(records).toHaveLength(1);
  return flat(records[0]);
}
