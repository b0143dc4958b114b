// The 0.7 body shapes, check by check as the 0.7 TypeScript port makes them (shapes.ts): each
// failure with the port's words, the field's path and its bytes. A session status's body is judged
// by the validator (an error: the envelope is invalid), the others by a body check (a warning: the
// port's envelope validator does not read them).
import { describe, expect, it } from 'vitest';
import { readSingle } from '../cbor/reader';
import { encodeEnvelope } from './canonical';
import {
  bodyItem,
  MAX_MANIFEST_FRAGMENTS,
  MAX_STATE_PATCH_OPS,
  readContextCompaction,
  readContextManifest,
  readContextRetrieval,
  readSessionEnd,
  readSessionParking,
  readSessionStart,
  readSessionTransition,
  readStateDelta,
  readStateSnapshot,
  parkingOf,
  sessionBodyOf,
  ShapeError,
} from './shapes';
import { DIALECT_001, DIALECT_07 } from './dialects';
import { cbor, event, Float, id, position, Raw, reportOf, rulesOf, session, START } from './test-helpers';

/** What a reader makes of `value` (written as CBOR): the value, or the failure as [message, path]. */
function outcome<T>(read: (item: ReturnType<typeof bodyItem>) => T, value: unknown): T | [string, string] {
  const bytes = value instanceof Uint8Array ? value : cbor(value);
  try {
    return read(bodyItem(bytes, 0, bytes.length, 'body'));
  } catch (e) {
    if (e instanceof ShapeError) return [e.message, e.path];
    throw e;
  }
}
const fails = <T>(read: (item: ReturnType<typeof bodyItem>) => T, value: unknown) => {
  const r = outcome(read, value);
  if (!Array.isArray(r) || typeof r[0] !== 'string')
    throw new Error(`expected a failure, got ${JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? String(v) : v))}`);
  return r as [string, string];
};

const MESSAGE = { Message: { stream: 1, topic: 2, partition: 0, offset: 41, generation: 3 } };

describe('the body as one CBOR map', () => {
  it('fails to decode when it is not one CBOR item, holds a repeated key, or is not a map', () => {
    expect(fails(readSessionTransition, Uint8Array.of(0xa1, 0x61))[0]).toMatch(/^failed to decode body:/);
    expect(fails(readSessionTransition, Uint8Array.of(0xa0, 0x00))[0]).toBe('failed to decode body: 1 bytes after the CBOR item');
    const repeated = new Uint8Array([0xa2, 0x65, ...new TextEncoder().encode('actor'), 0x61, 0x61, 0x65, ...new TextEncoder().encode('actor'), 0x61, 0x62]);
    expect(fails(readSessionTransition, repeated)[0]).toBe('failed to decode body: a map repeats a key');
    expect(fails(readSessionTransition, [1, 2])).toEqual(['expected a CBOR map for body', 'body']);
  });
});

describe('SessionStart (the port decodeSessionStart and validateSessionStart)', () => {
  it('reads a start: agent, sdk, lineage, idle timeout, budget, tags', () => {
    const s = outcome(readSessionStart, {
      label: 'R',
      namespace: 'agents',
      ...START,
      idle_timeout_micros: 300_000_000,
      budget: { tokens: 1000, cost_micros: 50_000 },
      tags: ['a'],
    });
    expect(s).toMatchObject({
      label: 'R',
      namespace: 'agents',
      agent: 'planner',
      sdk: { language: 'typescript', version: '0.7.0' },
      idle_timeout_micros: 300_000_000n,
      budget: { tokens: 1000n, cost_micros: 50_000n },
      tags: ['a'],
    });
  });
  it.each([
    ['sdk missing', { agent: 'planner' }, 'missing required field `sdk` in session start', 'body.sdk'],
    ['sdk not a map', { agent: 'planner', sdk: 'ts' }, 'expected a CBOR map for session start.sdk', 'body.sdk'],
    ['sdk without language', { agent: 'planner', sdk: { version: '1' } }, 'missing required field `language` in session start.sdk', 'body.sdk.language'],
    [
      'sdk version not text',
      { agent: 'planner', sdk: { language: 'ts', version: 7 } },
      'field `version` in session start.sdk must be a string',
      'body.sdk.version',
    ],
    ['agent missing', { sdk: START.sdk }, 'missing required field `agent` in session start', 'body.agent'],
    ['agent empty', { ...START, agent: '' }, 'agent id must not be empty', 'body.agent'],
    ['agent over 256 bytes', { ...START, agent: 'a'.repeat(257) }, 'agent id is 257B, exceeds cap 256B', 'body.agent'],
    ['agent with a control character', { ...START, agent: 'plan\u0085ner' }, 'agent id must not contain control characters', 'body.agent'],
    ['label not text', { ...START, label: 1 }, 'field `label` in session start must be a string', 'body.label'],
    ['label over 256 bytes', { ...START, label: 'é'.repeat(129) }, 'session label exceeds its cap or contains a control character', 'body.label'],
    ['label with a control character', { ...START, label: 'a\tb' }, 'session label exceeds its cap or contains a control character', 'body.label'],
    ['namespace empty', { ...START, namespace: '' }, 'namespace must not be empty', 'body.namespace'],
    ['namespace over 128 bytes', { ...START, namespace: 'n'.repeat(129) }, 'namespace is 129B, exceeds cap 128B', 'body.namespace'],
    ['namespace with a control byte', { ...START, namespace: 'a\u007fb' }, 'namespace must not contain ASCII control characters', 'body.namespace'],
    ['parent not bytes', { ...START, parent: 'x' }, 'field `parent` in session start must be bytes', 'body.parent'],
    ['parent not 16 bytes', { ...START, parent: new Uint8Array(8) }, 'id bytes must be 16 bytes, got 8', 'body.parent'],
    ['root not 16 bytes', { ...START, root: new Uint8Array(17) }, 'id bytes must be 16 bytes, got 17', 'body.root'],
    ['root without a parent', { agent: 'planner', sdk: START.sdk, root: id(5) }, 'session root requires a parent', 'body.root'],
    [
      'idle timeout not an integer',
      { ...START, idle_timeout_micros: 'soon' },
      'field `idle_timeout_micros` in session start must be an unsigned integer',
      'body.idle_timeout_micros',
    ],
    [
      'idle timeout a float',
      { ...START, idle_timeout_micros: new Float(3) },
      'field `idle_timeout_micros` in session start must be an unsigned integer',
      'body.idle_timeout_micros',
    ],
    ['budget not a map', { ...START, budget: 5 }, 'expected a CBOR map for session start.budget', 'body.budget'],
    [
      'budget tokens negative',
      { ...START, budget: { tokens: -1 } },
      'field `tokens` in session start.budget must be an unsigned integer',
      'body.budget.tokens',
    ],
    ['tags not an array', { ...START, tags: 'demo' }, 'field `tags` in session start must be an array', 'body.tags'],
    ['a tag not text', { ...START, tags: ['a', 2] }, 'session tag 1 must be a string', 'body.tags[1]'],
    ['17 tags', { ...START, tags: Array.from({ length: 17 }, (_, i) => `t${i}`) }, 'session has too many tags', 'body.tags'],
    ['a tag over 64 bytes', { ...START, tags: ['ok', 't'.repeat(65)] }, 'session tag exceeds its byte cap', 'body.tags[1]'],
    ['label as null (present, so the wrong type)', { ...START, label: null }, 'field `label` in session start must be a string', 'body.label'],
  ])('%s', (_, value, message, path) => expect(fails(readSessionStart, value)).toEqual([message, path]));
  it('at the caps: 256-byte label, 128-byte namespace, 16 tags of 64 bytes, agent of 256 bytes', () => {
    expect(
      outcome(readSessionStart, { ...START, agent: 'a'.repeat(256), label: 'l'.repeat(256), namespace: 'n'.repeat(128), tags: Array(16).fill('t'.repeat(64)) }),
    ).toMatchObject({
      tags: Array(16).fill('t'.repeat(64)),
    });
  });
  it('checks in the port order: the sdk before the agent', () => {
    expect(fails(readSessionStart, { agent: '' })[1]).toBe('body.sdk');
  });
});

describe('SessionTransition and SessionEnd', () => {
  it('a transition: an actor (an agent id) and the position it acknowledges (20 bytes)', () => {
    expect(outcome(readSessionTransition, { actor: 'planner', acknowledges: position(1, 2, 0, 9n) })).toEqual({
      actor: 'planner',
      acknowledges: { stream: 1, topic: 2, partition: 0, offset: 9n },
    });
    expect(outcome(readSessionTransition, {})).toEqual({});
    expect(fails(readSessionTransition, { actor: 5 })).toEqual(['field `actor` in session transition must be a string', 'body.actor']);
    expect(fails(readSessionTransition, { actor: '' })).toEqual(['agent id must not be empty', 'body.actor']);
    expect(fails(readSessionTransition, { acknowledges: 'x' })).toEqual(['field `acknowledges` in session transition must be bytes', 'body.acknowledges']);
    expect(fails(readSessionTransition, { acknowledges: new Uint8Array(19) })).toEqual(['log position must be 20 bytes, got 19', 'body.acknowledges']);
  });
  it('an end: a reason and an AgentErrorBody (code u8, message, retryable, detail)', () => {
    expect(outcome(readSessionEnd, { reason: 'done', error: { code: 6, message: 'm', retryable: true, detail: { trace: ['a', 1] } } })).toMatchObject({
      reason: 'done',
      error: { code: 6, message: 'm', retryable: true },
    });
    expect(outcome(readSessionEnd, { error: { code: 6 } })).toEqual({ error: { code: 6, retryable: false } });
    expect(fails(readSessionEnd, { reason: 1 })).toEqual(['field `reason` in session end must be a string', 'body.reason']);
    expect(fails(readSessionEnd, { error: 'oops' })).toEqual(['expected a CBOR map for session end.error', 'body.error']);
    expect(fails(readSessionEnd, { error: {} })).toEqual(['missing required field `code` in session end.error', 'body.error.code']);
    expect(fails(readSessionEnd, { error: { code: 256 } })).toEqual([
      'field `code` in session end.error must be an unsigned integer at most 255',
      'body.error.code',
    ]);
    expect(fails(readSessionEnd, { error: { code: 1, retryable: 1 } })).toEqual([
      'field `retryable` in session end.error must be a boolean',
      'body.error.retryable',
    ]);
    expect(fails(readSessionEnd, { error: { code: 1, message: true } })).toEqual([
      'field `message` in session end.error must be a string',
      'body.error.message',
    ]);
    expect(fails(readSessionEnd, { error: { code: 1, detail: [1] } })).toEqual(['expected a CBOR map for session end.error.detail', 'body.error.detail']);
    expect(fails(readSessionEnd, { error: { code: 1, detail: new Map([[1, 'x']]) } })[0]).toBe('expected a string-keyed map in session end.error');
    expect(fails(readSessionEnd, { error: { code: 1, detail: { x: { y: 1 } } } })).toEqual([
      'cannot decode value in session end.error.x',
      'body.error.detail.x',
    ]);
    expect(fails(readSessionEnd, { error: { code: 1, detail: { x: new Uint8Array(2) } } })[0]).toBe('cannot decode value in session end.error.x');
  });
});

describe('SessionParking (the port decodeSessionParking and validateSessionParking)', () => {
  const parking = { source: MESSAGE, role: 'worker', request: position(1, 2, 0, 7n) };
  it('reads a parking of a log record with its topic generation', () => {
    expect(outcome(readSessionParking, parking)).toEqual({
      source: { kind: 'message', stream: 1, topic: 2, partition: 0, offset: 41n, generation: 3n },
      role: 'worker',
      request: { stream: 1, topic: 2, partition: 0, offset: 7n },
    });
  });
  it.each([
    ['no source', { role: 'w', request: position(1, 2, 0, 7n) }, 'expected a CBOR map for session parking.source', 'body.source'],
    ['a source of two variants', { ...parking, source: { Message: {}, Kv: {} } }, 'expected exactly one variant tag in session parking.source', 'body.source'],
    ['a source variant keyed by a number', { ...parking, source: new Map([[1, {}]]) }, 'variant tag in session parking.source must be a string', 'body.source'],
    ['an unknown source variant', { ...parking, source: { File: {} } }, '`File` is not a recognized source ref variant', 'body.source'],
    [
      'a message without stream',
      { ...parking, source: { Message: { topic: 2, partition: 0, offset: 1 } } },
      'missing required field `stream` in session parking.source',
      'body.source.Message.stream',
    ],
    [
      'a message stream past u32',
      { ...parking, source: { Message: { stream: 2 ** 32, topic: 2, partition: 0, offset: 1, generation: 1 } } },
      'field `stream` in session parking.source must be an unsigned integer at most 4294967295',
      'body.source.Message.stream',
    ],
    ['a memory, not a log record', { ...parking, source: { Memory: { id: 'm' } } }, 'a parked record must point at a log record', 'body.source'],
    [
      'a key-value entry, not a log record',
      { ...parking, source: { Kv: { namespace: 'n', key: 'k' } } },
      'a parked record must point at a log record',
      'body.source',
    ],
    [
      'no topic generation',
      { ...parking, source: { Message: { stream: 1, topic: 2, partition: 0, offset: 41 } } },
      'a parked record must name its source topic generation',
      'body.source',
    ],
    ['no role', { source: MESSAGE, request: position(1, 2, 0, 7n) }, 'missing required field `role` in session parking', 'body.role'],
    ['an empty role', { ...parking, role: '' }, 'agent id must not be empty', 'body.role'],
    ['a request that is not 20 bytes', { ...parking, request: new Uint8Array(16) }, 'log position must be 20 bytes, got 16', 'body.request'],
    [
      'a memory source without its id',
      { ...parking, source: { Memory: {} } },
      'missing required field `id` in session parking.source',
      'body.source.Memory.id',
    ],
  ])('%s', (_, value, message, path) => expect(fails(readSessionParking, value)).toEqual([message, path]));
});

describe('StateDelta and StateSnapshot (RFC 6902 patches, portable JSON)', () => {
  const delta = { base_revision: 3, patch: [{ op: 'add', path: '/step', value: 2 }], op_id: 'patch-4' };
  it('reads a delta of every RFC 6902 operation, and a snapshot', () => {
    const all = [
      { op: 'add', path: '/a', value: { b: [1, 'x', null, true, new Float(0.5)] } },
      { op: 'remove', path: '/a' },
      { op: 'replace', path: '/c', value: -3 },
      { op: 'move', from: '/c', path: '/d' },
      { op: 'copy', from: '/d', path: '/e' },
      { op: 'test', path: '/e', value: -3 },
    ];
    expect(outcome(readStateDelta, { ...delta, patch: all })).toEqual({
      base_revision: 3n,
      op_id: 'patch-4',
      patch: [
        { op: 'add', path: '/a', value: { b: [1, 'x', null, true, 0.5] } },
        { op: 'remove', path: '/a' },
        { op: 'replace', path: '/c', value: -3 },
        { op: 'move', path: '/d', from: '/c' },
        { op: 'copy', path: '/e', from: '/d' },
        { op: 'test', path: '/e', value: -3 },
      ],
    });
    expect(outcome(readStateSnapshot, { base_revision: 4, document: { goal: 'ship', step: 2 } })).toEqual({
      base_revision: 4n,
      document: { goal: 'ship', step: 2 },
    });
  });
  it.each([
    ['no base revision', { patch: [], op_id: 'x' }, 'missing required field `base_revision` in state delta', 'body.base_revision'],
    ['a patch that is not a list', { ...delta, patch: {} }, 'field `patch` in state delta must be an array', 'body.patch'],
    ['an operation that is not a map', { ...delta, patch: ['add'] }, 'expected a CBOR map for state delta.patch[0]', 'body.patch[0]'],
    ['an operation without op', { ...delta, patch: [{ path: '/a' }] }, 'missing required field `op` in state delta.patch[0]', 'body.patch[0].op'],
    ['an operation without path', { ...delta, patch: [{ op: 'remove' }] }, 'missing required field `path` in state delta.patch[0]', 'body.patch[0].path'],
    ['an unknown operation', { ...delta, patch: [{ op: 'increment', path: '/a' }] }, 'unknown state patch operation increment', 'body.patch[0].op'],
    ['add without value', { ...delta, patch: [{ op: 'add', path: '/a' }] }, 'state patch value is missing', 'body.patch[0].value'],
    ['move without from', { ...delta, patch: [{ op: 'move', path: '/a' }] }, 'missing required field `from` in state delta.patch[0]', 'body.patch[0].from'],
    ['a value that is bytes', { ...delta, patch: [{ op: 'add', path: '/a', value: new Uint8Array(1) }] }, 'state document must be JSON', 'body.patch[0].value'],
    ['a value that is undefined', { ...delta, patch: [{ op: 'add', path: '/a', value: undefined }] }, 'state document must be JSON', 'body.patch[0].value'],
    [
      'an integer past the exact range',
      { ...delta, patch: [{ op: 'add', path: '/a', value: 2 ** 53 }] },
      'state JSON integer is outside the exact number range',
      'body.patch[0].value',
    ],
    [
      'a negative integer past the exact range',
      { ...delta, patch: [{ op: 'add', path: '/a', value: [-(2 ** 53)] }] },
      'state JSON integer is outside the exact number range',
      'body.patch[0].value[0]',
    ],
    [
      'an integral float past the exact range',
      { ...delta, patch: [{ op: 'add', path: '/a', value: new Float(1e300) }] },
      'state JSON integer is outside the exact number range',
      'body.patch[0].value',
    ],
    ['a NaN', { ...delta, patch: [{ op: 'add', path: '/a', value: new Float(Number.NaN) }] }, 'state value must be JSON', 'body.patch'],
    [
      'an object keyed by a number',
      { ...delta, patch: [{ op: 'add', path: '/a', value: new Map([[1, 2]]) }] },
      'state object key must be text',
      'body.patch[0].value',
    ],
    ['no op id', { base_revision: 1, patch: [] }, 'missing required field `op_id` in state delta', 'body.op_id'],
    ['an empty op id', { ...delta, op_id: '' }, 'state patch operation id must not be empty', 'body.op_id'],
    [
      `${MAX_STATE_PATCH_OPS + 1} operations`,
      { ...delta, patch: Array(MAX_STATE_PATCH_OPS + 1).fill({ op: 'remove', path: '/a' }) },
      'state patch has too many operations',
      'body.patch',
    ],
  ])('a delta with %s', (_, value, message, path) => expect(fails(readStateDelta, value)).toEqual([message, path]));
  it(`at ${MAX_STATE_PATCH_OPS} operations a delta reads`, () => {
    expect(outcome(readStateDelta, { ...delta, patch: Array(MAX_STATE_PATCH_OPS).fill({ op: 'remove', path: '/a' }) })).toMatchObject({ op_id: 'patch-4' });
  });
  it('a patch or a document of more than 8 MiB of JSON', () => {
    const big = 'x'.repeat(8 * 1024 * 1024);
    expect(fails(readStateDelta, { ...delta, patch: [{ op: 'add', path: '/a', value: big }] })).toEqual([
      'state patch exceeds the document byte cap',
      'body.patch',
    ]);
    expect(fails(readStateSnapshot, { base_revision: 1, document: big })).toEqual(['state document exceeds its byte cap', 'body.document']);
    // The JSON text counts, escapes included: 8 MiB less a little of quotes is under the cap.
    expect(outcome(readStateSnapshot, { base_revision: 1, document: 'x'.repeat(8 * 1024 * 1024 - 2) })).toMatchObject({ base_revision: 1n });
  });
  it('a snapshot without a document, or whose document is not JSON, or without a base revision', () => {
    expect(fails(readStateSnapshot, { base_revision: 1 })).toEqual(['state document must be JSON', 'body.document']);
    expect(fails(readStateSnapshot, { base_revision: 1, document: { a: new Uint8Array(0) } })).toEqual(['state document must be JSON', 'body.document.a']);
    expect(fails(readStateSnapshot, { document: {} })).toEqual(['missing required field `base_revision` in state snapshot', 'body.base_revision']);
    expect(fails(readStateSnapshot, { base_revision: -1, document: {} })[0]).toBe('field `base_revision` in state snapshot must be an unsigned integer');
  });
});

describe('ContextManifest, ContextCompaction and ContextRetrieval', () => {
  const manifest = {
    policy: 'recent',
    policy_version: '1',
    fragments: [{ Message: { at: MESSAGE, tokens: 12, bytes: 48 } }],
    tokens: 17,
    bytes: 68,
    frontier: [[2, 0, 41]],
    correlation: id(3),
  };
  it('reads a manifest of each fragment kind', () => {
    const fragments = [
      { Message: { at: MESSAGE, tokens: 1, bytes: 4 } },
      { Summary: { at: MESSAGE, tokens: 1, bytes: 4 } },
      { Memory: { id: 'm', version: 2, digest: new Uint8Array(32), tokens: 1, bytes: 4 } },
      { Kv: { namespace: 'n', key: 'k', tokens: 1, bytes: 4 } },
      { State: { key: 'goal', revision: 9, tokens: 1, bytes: 4 } },
    ];
    const m = outcome(readContextManifest, { ...manifest, fragments });
    expect(m).toMatchObject({ policy: 'recent', tokens: 17n, frontier: [[2, 0, 41n]] });
    expect((m as { fragments: { kind: string }[] }).fragments.map((f) => f.kind)).toEqual(['message', 'summary', 'memory', 'kv', 'state']);
  });
  it.each([
    ['no fragments', { ...manifest, fragments: undefined }, 'missing required field `fragments` in context manifest', 'body.fragments'],
    [
      'a fragment of two variants',
      { ...manifest, fragments: [{ Message: {}, Memory: {} }] },
      'expected exactly one variant tag in context manifest.fragments[0]',
      'body.fragments[0]',
    ],
    ['an unknown fragment', { ...manifest, fragments: [{ Blob: { tokens: 1, bytes: 1 } }] }, 'unknown context fragment Blob', 'body.fragments[0]'],
    [
      'a fragment without tokens',
      { ...manifest, fragments: [{ Memory: { id: 'm', bytes: 1 } }] },
      'missing required field `tokens` in context manifest.fragments[0]',
      'body.fragments[0].Memory.tokens',
    ],
    [
      'a digest that is not 32 bytes',
      { ...manifest, fragments: [{ Memory: { id: 'm', digest: new Uint8Array(16), tokens: 1, bytes: 1 } }] },
      'context fragment digest must be 32 bytes',
      'body.fragments[0].Memory.digest',
    ],
    [
      'a memory without its id',
      { ...manifest, fragments: [{ Memory: { tokens: 1, bytes: 1 } }] },
      'missing required field `id` in context manifest.fragments[0]',
      'body.fragments[0].Memory.id',
    ],
    [
      'a state fragment without revision',
      { ...manifest, fragments: [{ State: { key: 'k', tokens: 1, bytes: 1 } }] },
      'missing required field `revision` in context manifest.fragments[0]',
      'body.fragments[0].State.revision',
    ],
    [
      'a message fragment without at',
      { ...manifest, fragments: [{ Message: { tokens: 1, bytes: 1 } }] },
      'expected a CBOR map for context manifest.fragments[0]',
      'body.fragments[0].Message.at',
    ],
    ['no policy', { ...manifest, policy: undefined }, 'missing required field `policy` in context manifest', 'body.policy'],
    ['no policy version', { ...manifest, policy_version: undefined }, 'missing required field `policy_version` in context manifest', 'body.policy_version'],
    ['tokens that are text', { ...manifest, tokens: '17' }, 'field `tokens` in context manifest must be an unsigned integer', 'body.tokens'],
    ['no bytes', { ...manifest, bytes: undefined }, 'missing required field `bytes` in context manifest', 'body.bytes'],
    ['a frontier entry of two integers', { ...manifest, frontier: [[2, 0]] }, 'context frontier entry must have three integers', 'body.frontier[0]'],
    [
      'a frontier topic past u32',
      { ...manifest, frontier: [[2 ** 32, 0, 1]] },
      'field `value` in context manifest.frontier[0].topic must be an unsigned integer at most 4294967295',
      'body.frontier[0][0]',
    ],
    [
      'a frontier offset that is negative',
      { ...manifest, frontier: [[2, 0, -1]] },
      'field `value` in context manifest.frontier[0].offset must be an unsigned integer',
      'body.frontier[0][2]',
    ],
    ['a correlation of 8 bytes', { ...manifest, correlation: new Uint8Array(8) }, 'id bytes must be 16 bytes, got 8', 'body.correlation'],
    [
      `${MAX_MANIFEST_FRAGMENTS + 1} fragments`,
      { ...manifest, fragments: Array(MAX_MANIFEST_FRAGMENTS + 1).fill({ State: { key: 'k', revision: 1, tokens: 1, bytes: 1 } }) },
      'context manifest has too many fragments',
      'body.fragments',
    ],
  ])('a manifest with %s', (_, value, message, path) => {
    const v = Object.fromEntries(Object.entries(value).filter(([, x]) => x !== undefined));
    expect(fails(readContextManifest, v)).toEqual([message, path]);
  });
  it('a compaction: a summary position, covered ranges of four integers, a summarizer', () => {
    const c = { summary_at: MESSAGE, covered: [[2, 0, 0, 40]], summarizer: { name: 's', version: '1' } };
    expect(outcome(readContextCompaction, c)).toEqual({
      summary_at: { kind: 'message', stream: 1, topic: 2, partition: 0, offset: 41n, generation: 3n },
      covered: [[2, 0, 0n, 40n]],
      summarizer: { name: 's', version: '1' },
    });
    expect(fails(readContextCompaction, { ...c, summary_at: undefined })).toEqual(['expected a CBOR map for context compaction.summary_at', 'body.summary_at']);
    expect(fails(readContextCompaction, { ...c, covered: [[2, 0, 0]] })).toEqual(['covered range must have four integers', 'body.covered[0]']);
    expect(fails(readContextCompaction, { summary_at: MESSAGE, covered: [] })).toEqual([
      'missing required field `summarizer` in context compaction',
      'body.summarizer',
    ]);
    expect(fails(readContextCompaction, { ...c, summarizer: { version: '1' } })).toEqual([
      'missing required field `name` in context compaction.summarizer',
      'body.summarizer.name',
    ]);
  });
  it('a retrieval: an optional query, items of an id and a numeric score', () => {
    expect(
      outcome(readContextRetrieval, {
        query: 'q',
        items: [
          ['a', new Float(0.5)],
          ['b', 1],
        ],
      }),
    ).toEqual({
      query: 'q',
      items: [
        ['a', 0.5],
        ['b', 1],
      ],
    });
    expect(outcome(readContextRetrieval, { items: [] })).toEqual({ items: [] });
    expect(fails(readContextRetrieval, { query: 'q' })).toEqual(['missing required field `items` in context retrieval', 'body.items']);
    expect(fails(readContextRetrieval, { items: [['a', '0.5']] })).toEqual(['retrieval item must contain an id and score', 'body.items[0]']);
    expect(fails(readContextRetrieval, { items: [['a']] })).toEqual(['retrieval item must contain an id and score', 'body.items[0]']);
    expect(fails(readContextRetrieval, { items: [[1, 0.5]] })).toEqual(['expected a string in context retrieval.items[0].id', 'body.items[0][0]']);
    expect(fails(readContextRetrieval, { query: 3, items: [] })).toEqual(['field `query` in context retrieval must be a string', 'body.query']);
  });
});

describe('the shapes in records: body checks are warnings with their rule, path and bytes; a session body is the validator’s', () => {
  it.each([
    ['session_parked', { source: { Memory: { id: 'm' } }, role: 'w', request: position(1, 2, 0, 7n) }, 'agdx/session/parking', 'body.source'],
    ['session_unparked', { source: MESSAGE, role: '', request: position(1, 2, 0, 7n) }, 'agdx/session/parking', 'body.role'],
    ['state_delta', { base_revision: 1, patch: [{ op: 'nope', path: '/' }], op_id: 'x' }, 'agdx/state/delta', 'body.patch[0].op'],
    ['state_snapshot', { base_revision: 1, document: { a: new Uint8Array(1) } }, 'agdx/state/snapshot', 'body.document.a'],
    ['context_assembled', { policy: 'p' }, 'agdx/context/manifest', 'body.fragments'],
    ['context_compacted', { summary_at: MESSAGE, covered: [[1]], summarizer: { name: 'n', version: 'v' } }, 'agdx/context/compaction', 'body.covered[0]'],
    ['context_retrieved', { items: [['a', 'b']] }, 'agdx/context/retrieval', 'body.items[0]'],
  ])('%s', (operation, body, rule, path) => {
    const env = event(operation, body, { parent: id(4) });
    const bytes = encodeEnvelope(env);
    const r = reportOf(bytes);
    expect(r.valid).toBe(true);
    const f = r.findings.find((x) => x.rule === rule)!;
    expect(f).toMatchObject({ severity: 'warning', path });
    // The span is the failing field's own bytes, inside the record's body.
    const item = readSingle(bytes);
    if (!item.ok) throw new Error('bad');
    const [start, end] = f.span!;
    expect(start).toBeGreaterThan(bytes.length - env.body!.length - 1);
    expect(end).toBeLessThanOrEqual(bytes.length);
  });
  it('a session status whose body is not the one its state calls for is invalid (agdx/session/body), pointing at the field', () => {
    const r = reportOf(session(1, { agent: 'planner', sdk: { language: 'ts' }, parent: id(4), root: id(5) }));
    expect(r.valid).toBe(false);
    expect(r.findings.find((f) => f.rule === 'agdx/session/body')).toMatchObject({
      severity: 'error',
      path: 'body.sdk.version',
      message: 'missing required field `version` in session start.sdk',
    });
  });
  it('a body that is not CBOR: the shape check says so (and the record keeps its other verdicts)', () => {
    const r = reportOf(event('context_retrieved', new TextEncoder().encode('not cbor at all')));
    expect(rulesOf(r)).toContain('agdx/context/retrieval');
    expect(r.valid).toBe(true);
  });
  it('a value written raw inside a body (a tag) is read through, as the envelope reads tags', () => {
    const body = cbor({ items: [['a', new Raw(Uint8Array.of(0xc1, 0xf9, 0x38, 0x00))]] });
    expect(outcome(readContextRetrieval, body)).toEqual({ items: [['a', 0.5]] });
  });
});

describe('the bodies a session fold reads (sessionBodyOf, parkingOf): the validator’s readers, typed', () => {
  it('a session status’s start, transition or end by its state; null for what is no session status of its dialect, or a body that is not its shape', () => {
    const start = sessionBodyOf(session(1, { label: 'Plan', ...START, tags: ['demo'] }), DIALECT_07);
    expect(start).toMatchObject({ shape: 'start', value: { label: 'Plan', agent: 'planner', tags: ['demo'] } });
    expect(sessionBodyOf(session(10, { actor: 'critic' }), DIALECT_07)).toEqual({ shape: 'transition', value: { actor: 'critic' } });
    expect(sessionBodyOf(session(4, { reason: 'done' }), DIALECT_07)).toMatchObject({ shape: 'end', value: { reason: 'done' } });
    // Not a session status: another operation or kind, no state, no body; 0.0.1 has no session operation.
    expect(sessionBodyOf(session(1, START, { operation: 'task' }), DIALECT_07)).toBeNull();
    expect(sessionBodyOf({ ...session(1, START), kind: 'event' }, DIALECT_07)).toBeNull();
    expect(sessionBodyOf(session(undefined, START), DIALECT_07)).toBeNull();
    expect(sessionBodyOf(session(2, undefined), DIALECT_07)).toBeNull();
    expect(sessionBodyOf(session(1, START), DIALECT_001)).toBeNull();
    // A submitted status whose body is no start (no agent): the validator's agdx/session/body, and no body here.
    expect(sessionBodyOf(session(1, { actor: 'planner' }), DIALECT_07)).toBeNull();
  });

  it('a parked or unparked record’s parking; null for another operation, or a body that is not one', () => {
    const parking = { source: { Message: { stream: 1, topic: 2, partition: 0, offset: 41, generation: 3 } }, role: 'worker', request: position(1, 2, 0, 7n) };
    expect(parkingOf(event('session_parked', parking), DIALECT_07)).toMatchObject({ role: 'worker', source: { kind: 'message', offset: 41n } });
    expect(parkingOf(event('session_unparked', parking), DIALECT_07)?.request).toMatchObject({ stream: 1, topic: 2, partition: 0, offset: 7n });
    expect(parkingOf(event('state_delta', parking), DIALECT_07)).toBeNull();
    expect(parkingOf(event('session_parked', parking), DIALECT_001)).toBeNull();
    expect(parkingOf(event('session_parked', { ...parking, source: { Memory: { id: 'm' } } }), DIALECT_07)).toBeNull();
  });
});
