// The laser-sdk 0.7 vectors (vectors/agdx/laser-sdk-ts-0.7.0: bytes the 0.7 TypeScript port wrote
// and signed, with the verdicts it gave in expected.json) get the port's verdict here: decoded,
// valid, the error it gives (as the rule that says it, in its words), the body as it decodes it,
// the signature as it verifies it, and the display type its dispatch table gives; their header
// blocks and the Iggy export of them raise no header finding; and every case of the dispatch
// table (fixtures/dispatch_cases.json) gets its display type.
import { readdirSync, readFileSync } from 'node:fs';
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { toCrockford, toHex } from '../bytes';
import { readSingle, type CborItem } from '../cbor/reader';
import { keyFor, SEED7 } from '../../../test/support/agdx-gen';
import { inspect } from '../inspect';
import { buildReport, type ReportRecord } from '../report';
import { analyzeEnvelope } from './analyze';
import { decodeEnvelope } from './envelope';
import { displayType, type SessionRecord } from './dispatch';
import type { Header } from './iggy';
import {
  bodyItem,
  readContextCompaction,
  readContextManifest,
  readContextRetrieval,
  readSessionBody,
  readSessionParking,
  readStateDelta,
  readStateSnapshot,
  ShapeError,
  type Position,
  type SourceRef,
} from './shapes';
import { cbor } from '../../../test/support/dialect-helpers';

const DIR = new URL('../../../vectors/agdx/laser-sdk-ts-0.7.0/', import.meta.url);
const file = (name: string) => new Uint8Array(readFileSync(new URL(name, DIR)));
const json = (name: string) => JSON.parse(readFileSync(new URL(name, DIR), 'utf8'));

interface Case {
  file: string;
  bytes: number;
  sha256: string;
  verdict: { decoded: boolean; valid: boolean; kind: string | null; mu: number | null; error: string | null };
  operation: string | null;
  task_state_code: number | null;
  last: boolean | null;
  body: { kind: string; ok: boolean; text?: string; bytes?: number; decoded?: unknown; error?: string } | null;
  signature: { key_id: string; bytes: string; context: { contentType?: number; agentVersion?: number } | null; verified_principal: string } | null;
  dispatch: { topic: string; display: string } | null;
  headers?: { key: string; kind: string; value: string | number }[];
}

const EXPECTED = json('expected.json') as { signer: { public_key: string; key_id: string; principal: string }; cases: Case[] };
const KEYS = [keyFor(SEED7, 'planner')];

/** Each vector read as the command line reads it, with the key registered for planner. */
function read(c: Case): ReportRecord {
  const report = buildReport(inspect([{ name: c.file, bytes: file(c.file) }], { keys: KEYS }));
  expect(report.records, c.file).toHaveLength(1);
  return report.records[0];
}

/**
 * The port's words for a failure, and the rule (or decode-error code) of ours that says it. Its
 * message includes the port's reason (without the backquotes) where the check is a validator's.
 */
const PORT_ERRORS: Record<string, { rule: string; words: string | null }> = {
  '`root`: root requires parent': { rule: 'agdx/lineage/root-needs-parent', words: 'root requires parent' },
  '`parent`: parent and root must differ from conversation': { rule: 'agdx/lineage/self', words: 'parent and root must differ from conversation' },
  'status requires `task_state`': { rule: 'agdx/matrix/task_state', words: 'status requires task_state' },
  '`last`: session last must match terminal task state': { rule: 'agdx/session/last', words: 'session last must match terminal task state' },
  '`body`: session ancestry must match envelope parent and root': {
    rule: 'agdx/session/lineage',
    words: 'session ancestry must match envelope parent and root',
  },
  'status requires `body`': { rule: 'agdx/matrix/body', words: 'status requires body' },
  '`body`: session root requires a parent': { rule: 'agdx/session/body', words: 'session root requires a parent' },
  'status requires `correlation`': { rule: 'agdx/matrix/correlation', words: 'status requires correlation' },
  'field `task_state` in agent envelope must be an unsigned integer at most 255': { rule: 'agdx/field-type', words: null },
};

// The port's names for error codes (its AgentErrorCodeName).
const ERROR_NAMES = ['', 'InvalidRequest', 'Unauthorized', 'Unsupported', 'DeadlineExceeded', 'Cancelled', 'ToolFailure', 'Internal'];
const big = (v: bigint | number) => String(v);
const crockford = (b: Uint8Array) => toCrockford(b);
const pos = (p: Position) => ({ streamId: p.stream, topicId: p.topic, partitionId: p.partition, offset: big(p.offset) });
const ref = (s: SourceRef) =>
  s.kind === 'message'
    ? {
        kind: 'message',
        stream: s.stream,
        topic: s.topic,
        partition: s.partition,
        offset: big(s.offset),
        ...(s.generation !== undefined ? { generation: big(s.generation) } : {}),
        ...(s.conversation !== undefined ? { conversation: s.conversation } : {}),
      }
    : s;

/** The body as our readers decode it, in the port's JSON words (camelCase, ids in Crockford, u64 as strings). */
function portBody(kind: string, body: Uint8Array, state: number | null): unknown {
  const item = bodyItem(body, 0, body.length, kind);
  switch (kind) {
    case 'start':
    case 'transition':
    case 'end': {
      const b = readSessionBody(item, state ?? (kind === 'start' ? 1 : kind === 'end' ? 4 : 3), new Set([4, 5, 6, 7]));
      expect(b.shape).toBe(kind);
      if (b.shape === 'start') {
        const s = b.value;
        return {
          ...(s.label !== undefined ? { label: s.label } : {}),
          ...(s.namespace !== undefined ? { namespace: s.namespace } : {}),
          agent: s.agent,
          sdk: s.sdk,
          ...(s.parent ? { parent: crockford(s.parent) } : {}),
          ...(s.root ? { root: crockford(s.root) } : {}),
          ...(s.idle_timeout_micros !== undefined ? { idleTimeoutMicros: big(s.idle_timeout_micros) } : {}),
          ...(s.budget
            ? {
                budget: {
                  ...(s.budget.tokens !== undefined ? { tokens: big(s.budget.tokens) } : {}),
                  ...(s.budget.cost_micros !== undefined ? { costMicros: big(s.budget.cost_micros) } : {}),
                },
              }
            : {}),
          tags: s.tags,
        };
      }
      if (b.shape === 'transition')
        return {
          ...(b.value.actor !== undefined ? { actor: b.value.actor } : {}),
          ...(b.value.acknowledges ? { acknowledges: pos(b.value.acknowledges) } : {}),
        };
      const e = b.value;
      return {
        ...(e.reason !== undefined ? { reason: e.reason } : {}),
        ...(e.error
          ? {
              error: {
                code: ERROR_NAMES[e.error.code] ? { kind: 'known', name: ERROR_NAMES[e.error.code] } : { kind: 'unrecognized', code: e.error.code },
                ...(e.error.message !== undefined ? { message: e.error.message } : {}),
                retryable: e.error.retryable,
              },
            }
          : {}),
      };
    }
    case 'parking': {
      const p = readSessionParking(item);
      return { source: ref(p.source), role: p.role, request: pos(p.request) };
    }
    case 'state_delta': {
      const d = readStateDelta(item);
      return { baseRevision: big(d.base_revision), patch: JSON.parse(JSON.stringify(d.patch)), opId: d.op_id };
    }
    case 'state_snapshot': {
      const s = readStateSnapshot(item);
      return { baseRevision: big(s.base_revision), document: JSON.parse(JSON.stringify(s.document)) };
    }
    case 'manifest': {
      const m = readContextManifest(item);
      return {
        policy: m.policy,
        policyVersion: m.policy_version,
        fragments: m.fragments.map((f) =>
          f.kind === 'message' || f.kind === 'summary'
            ? { kind: f.kind, at: ref(f.at), tokens: f.tokens, bytes: f.bytes }
            : f.kind === 'memory'
              ? {
                  kind: f.kind,
                  id: f.id,
                  tokens: f.tokens,
                  bytes: f.bytes,
                  ...(f.version !== undefined ? { version: big(f.version) } : {}),
                  ...(f.digest ? { digest: toHex(f.digest) } : {}),
                }
              : f,
        ),
        tokens: big(m.tokens),
        bytes: big(m.bytes),
        frontier: m.frontier.map(([t, p, o]) => [t, p, big(o)]),
        ...(m.correlation ? { correlation: crockford(m.correlation) } : {}),
      };
    }
    case 'compaction': {
      const c = readContextCompaction(item);
      return { summaryAt: ref(c.summary_at), covered: c.covered.map(([t, p, a, b]) => [t, p, big(a), big(b)]), summarizer: c.summarizer };
    }
    case 'retrieval': {
      const r = readContextRetrieval(item);
      return { ...(r.query !== undefined ? { query: r.query } : {}), items: r.items };
    }
  }
  throw new Error(`no reader for ${kind}`);
}

function itemOf(bytes: Uint8Array): CborItem {
  const r = readSingle(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** A header block of expected.json as the record's Iggy headers. */
function headersOf(block: { key: string; kind: string; value: string | number }[]): Header[] {
  return block.map(({ key, kind, value }) => {
    if (kind === 'text') return { name: key, kind: 'string', value: new TextEncoder().encode(String(value)), span: null };
    const width = kind === 'uint8' ? 1 : kind === 'uint32' ? 4 : 8;
    const bytes = new Uint8Array(width);
    let n = BigInt(value);
    for (let i = 0; i < width; i++, n >>= 8n) bytes[i] = Number(n & 0xffn);
    return { name: key, kind, value: bytes, span: null };
  });
}

describe('the laser-sdk 0.7 vectors get the port verdict', () => {
  it('expected.json covers every envelope file, whose bytes are the ones the port wrote', () => {
    expect(EXPECTED.cases.map((c) => c.file).sort()).toEqual(
      readdirSync(DIR)
        .filter((f) => f.endsWith('.bin'))
        .sort(),
    );
    expect(EXPECTED.cases).toHaveLength(36);
    for (const c of EXPECTED.cases) {
      const bytes = file(c.file);
      expect(bytes.length, c.file).toBe(c.bytes);
      expect(toHex(sha256(bytes)), c.file).toBe(c.sha256);
    }
  });

  for (const c of EXPECTED.cases) {
    it(`${c.file}: decoded ${c.verdict.decoded}, valid ${c.verdict.valid}${c.verdict.error ? ` (${c.verdict.error})` : ''}`, () => {
      const r = read(c);
      expect(r.decoded).toBe(c.verdict.decoded);
      expect(r.valid).toBe(c.verdict.valid);
      // The display type the dispatch table gives (a record the port could not decode has none: its row is `undecodable`).
      expect(r.display_type).toBe(c.dispatch?.display ?? 'undecodable');
      if (!c.verdict.decoded) {
        const port = PORT_ERRORS[c.verdict.error!];
        expect(r.error?.code).toBe(port.rule);
        expect(r.agdx_dialect).toBeNull();
        return;
      }
      expect(r.kind).toBe(c.verdict.kind);
      expect(r.agdx_dialect).toBe(c.file === 'v04_command_reference_signed.bin' ? '0.0.1' : '0.7');
      const errors = r.findings.filter((f) => f.severity === 'error');
      if (c.verdict.error === null) expect(errors).toEqual([]);
      else {
        const port = PORT_ERRORS[c.verdict.error];
        expect(port, c.verdict.error).toBeDefined();
        const said = errors.filter((f) => f.rule === port.rule);
        expect(said, JSON.stringify(errors)).toHaveLength(1);
        if (port.words) expect(said[0].message).toContain(port.words);
      }
      // must_understand: valid on the wire (the 0.7 validator accepts it), unmet for a reader of no feature bits.
      const mu = r.findings.find((f) => f.rule === 'agdx/must-understand');
      expect(mu?.severity ?? null).toBe(c.verdict.mu ? 'warning' : null);
      const decoded = decodeEnvelope(itemOf(file(c.file)));
      if (!decoded.ok) throw new Error('does not decode');
      const env = decoded.value.envelope;
      expect(env.operation ?? null).toBe(c.operation);
      expect(env.task_state ?? null).toBe(c.task_state_code);
      expect(env.last ?? false).toBe(c.last);
      expect(env.must_understand ?? 0).toBe(c.verdict.mu);
      // The body as the port decodes it.
      const body = c.body!;
      if (body.kind === 'none') expect(env.body).toBeUndefined();
      else if (body.kind === 'json') expect(new TextDecoder().decode(env.body)).toBe(body.text);
      else if (body.ok) expect(portBody(body.kind, env.body!, env.task_state ?? null)).toEqual(body.decoded);
      else {
        expect(() => portBody(body.kind, env.body!, env.task_state ?? null)).toThrow(ShapeError);
        const said = r.findings.filter((f) => f.path?.startsWith('body') && f.message.includes(body.error!));
        expect(said.length, `${body.error} is a finding`).toBe(1);
      }
      // The signature as the port verifies it, with planner's key registered.
      if (c.signature === null) expect(r.signature.status).toBe('unsigned');
      else {
        expect(r.signature).toMatchObject({
          status: 'valid',
          key_id: c.signature.key_id,
          signer: c.signature.verified_principal,
          trusted: true,
          not_covered: [],
        });
        expect(toHex(env.signature!.bytes)).toBe(c.signature.bytes);
        const ctx = c.signature.context;
        expect(env.signature!.context ?? null).toEqual(ctx && { content_type: ctx.contentType, agent_version: ctx.agentVersion });
      }
    });
  }

  it('each header block the port stamped agrees with its envelope: no header finding, and a signed context matches it', () => {
    let checked = 0;
    for (const c of EXPECTED.cases.filter((x) => x.headers)) {
      const bytes = file(c.file);
      const item = readSingle(bytes);
      if (!item.ok) throw new Error(c.file);
      const a = analyzeEnvelope(bytes, item.value, { headers: headersOf(c.headers!) });
      expect(
        a.findings.filter((f) => f.rule.startsWith('agdx/header/')),
        c.file,
      ).toEqual([]);
      expect(a.dialect?.dialect.id, c.file).toBe('0.7');
      // The header block is fixed by what is signed (the context pins agdx.ct and agdx.av; the rest name signed fields).
      if (c.signature?.context) expect(a.signature.not_covered, c.file).toEqual([]);
      checked++;
    }
    expect(checked).toBe(35);
  });

  it('the header block fixture is the one the port stamps for v01, and agrees with it', () => {
    const block = json('fixtures/header_block_envelope.json');
    expect(block).toEqual(EXPECTED.cases[0].headers);
    const bytes = file('v01_command_parent_root.bin');
    const a = analyzeEnvelope(bytes, itemOf(bytes), { headers: headersOf(block) });
    expect(a.findings).toEqual([]);
    // The evidence in the dialect table's order (fields, then header marks), whatever order the block has.
    expect(a.dialect?.evidence).toEqual([
      'parent',
      'root',
      'headers.gen_ai.conversation.id',
      'headers.agdx.to',
      'headers.gen_ai.agent.id',
      'headers.agdx.parent_conv',
      'headers.agdx.root_conv',
    ]);
  });

  it('the Iggy export of the vectors: every record as its vector alone, with no header finding (the command line over it)', () => {
    const exported = json('iggy_export.json') as { messages: { payload: string }[] };
    const report = buildReport(inspect([{ name: 'iggy_export.json', bytes: file('iggy_export.json') }], { keys: KEYS }));
    expect(report.inputs[0].format).toBe('iggy-json(>=0.7)');
    expect(report.records).toHaveLength(exported.messages.length);
    expect(report.records).toHaveLength(35);
    const byHash = new Map(EXPECTED.cases.map((c) => [c.sha256, c]));
    for (const r of report.records) {
      const payload = Uint8Array.from(atob(exported.messages[r.index].payload), (ch) => ch.charCodeAt(0));
      const c = byHash.get(toHex(sha256(payload)))!;
      expect(c, `message ${r.index}`).toBeDefined();
      expect(
        r.findings.filter((f) => f.rule.startsWith('agdx/header/')),
        c.file,
      ).toEqual([]);
      expect(r.valid, c.file).toBe(c.verdict.valid);
      expect(r.display_type, c.file).toBe(c.dispatch!.display);
      expect(r.agdx_dialect, c.file).toBe('0.7');
      if (c.signature) expect(r.signature, c.file).toMatchObject({ status: 'valid', trusted: true });
    }
  });
});

describe("the reference's dispatch table (fixtures/dispatch_cases.json)", () => {
  const table = json('fixtures/dispatch_cases.json') as { cases: { name: string; display: string; topic: string; record: Record<string, string> }[] };

  /** A case's record as our dispatch reads it (its body a start or a transition, as the case names it). */
  function recordOf(r: Record<string, string>): SessionRecord {
    if (r.memory) return { kind: 'memory', memory: r.memory as 'item' | 'forget' | 'feedback' };
    if (r.other) return { kind: r.other as 'dead_letter' };
    const states: Record<string, number> = { submitted: 1, working: 2, completed: 4, canceled: 5, failed: 6, rejected: 7, paused: 10 };
    const body = r.body === 'start' ? { agent: 'planner', sdk: { language: 'typescript', version: '0.7.0' } } : r.body ? { actor: 'planner' } : undefined;
    return {
      kind: 'envelope',
      envelope: {
        kind: r.kind,
        operation: r.operation,
        task_state: r.task_state !== undefined ? states[r.task_state] : undefined,
        target: r.target,
        metadata: r.role ? new Map([['role', { type: 'text' as const, value: r.role }]]) : undefined,
        body: body ? cbor(body) : undefined,
      },
    };
  }

  it('every case gets its display type', () => {
    expect(table.cases.length).toBeGreaterThan(45);
    for (const c of table.cases) expect(displayType(recordOf(c.record), c.topic), c.name).toBe(c.display);
  });
});
