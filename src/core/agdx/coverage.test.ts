// What a signature does not cover (report.md `signature.not_covered`): fields appended to a genuinely
// signed envelope verify as before, and the verdict names them.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromHex, toCrockford, toHex, utf8Encode } from '../bytes';
import { CborWriter } from '../cbor/encoder';
import { readSingle, untag, type CborItem } from '../cbor/reader';
import { inspect } from '../inspect';
import { flat } from '../../../test/support/import-helpers';
import { parseKeys } from '../keys/keys';
import { buildReport } from '../report';
import { SEED7, keyFor, signEnvelope } from '../../../test/support/agdx-gen';
import { encodeEnvelope } from './canonical';
import { decodeEnvelope, type Envelope } from './envelope';
import type { Header } from './iggy';
import { uncoveredPaths } from './signature';
import { applyKeys, signingInput } from './verify';

const made = (p: string) => new Uint8Array(readFileSync(resolve(__dirname, '../../../vectors/agdx/made', p)));
const keys = parseKeys(readFileSync(resolve(__dirname, '../../../vectors/agdx/made/keys.json'), 'utf8')).keys;

const mapOf = (item: CborItem) => {
  const m = untag(item);
  if (m.kind !== 'map') throw new Error('not a map');
  return m;
};

/**
 * The envelope's bytes with `extra` entries appended to its map, and `extraInSignature` to its
 * signature capsule; every other byte copied as it was.
 */
function appendFields(bytes: Uint8Array, extra: [string, string][], extraInSignature: [string, string][] = []): Uint8Array {
  const read = readSingle(bytes);
  if (!read.ok) throw new Error(read.error.message);
  const root = mapOf(read.value);
  const w = new CborWriter().head(5, root.entries.length + extra.length);
  for (const e of root.entries) {
    w.append(bytes.subarray(e.key.start, e.key.end));
    const key = untag(e.key);
    if (key.kind === 'text' && key.value === 'signature' && extraInSignature.length) {
      const sig = mapOf(e.value);
      w.head(5, sig.entries.length + extraInSignature.length);
      for (const s of sig.entries) w.append(bytes.subarray(s.key.start, s.value.end));
      for (const [k, v] of extraInSignature) w.text(k).text(v);
    } else w.append(bytes.subarray(e.value.start, e.value.end));
  }
  for (const [k, v] of extra) w.text(k).text(v);
  return w.finish();
}

describe('an unknown field appended to a genuinely signed envelope', () => {
  const signed = made('signed_command.bin');
  const tampered = appendFields(signed, [['approved_by', 'the CFO']], [['note', 'counter-signed']]);

  it('leaves the signed message as it was: the decoder keeps no unknown key, so the re-encoding omits it', () => {
    const a = readSingle(signed);
    const b = readSingle(tampered);
    if (!a.ok || !b.ok) throw new Error('unreadable');
    const da = decodeEnvelope(a.value);
    const db = decodeEnvelope(b.value);
    if (!da.ok || !db.ok) throw new Error('undecodable');
    expect(db.value.unknown.map((u) => u.name)).toEqual(['approved_by', 'signature.note']);
    expect(toHex(signingInput(db.value.envelope))).toBe(toHex(signingInput(da.value.envelope)));
  });

  it('verifies valid and trusted, and the verdict lists what the signature does not cover', () => {
    const original = flat(inspect([{ name: 'signed.cbor', bytes: signed }], { keys }).records[0]);
    expect(original.signature).toMatchObject({ status: 'valid', trusted: true, not_covered: [] });
    const result = inspect([{ name: 'appended.cbor', bytes: tampered }], { keys });
    const r = flat(result.records[0]);
    expect(r.signature).toMatchObject({ status: 'valid', trusted: true, signer: 'source-agent', not_covered: ['approved_by', 'signature.note'] });
    expect(r.findings.filter((f) => f.rule === 'agdx/unknown-field').map((f) => f.path)).toEqual(['approved_by', 'signature.note']);
    // report@1 carries it.
    expect(buildReport(result).records[0].signature.not_covered).toEqual(['approved_by', 'signature.note']);
    // The field tree has a node at each path, for the page to mark.
    const paths: string[] = [];
    const walk = (ns: typeof r.tree): void => {
      for (const n of ns) {
        paths.push(n.path);
        if (n.children) walk(n.children);
      }
    };
    walk(r.tree);
    expect(paths).toEqual(expect.arrayContaining(['approved_by', 'signature.note']));
  });

  it('without keys (unknown_key), and after the keys change, the list stays: it is a fact of the bytes', () => {
    const result = inspect([{ name: 'appended.cbor', bytes: tampered }]);
    const r = result.records[0].verdict;
    expect(r.signature).toMatchObject({ status: 'unknown_key', not_covered: ['approved_by', 'signature.note'] });
    const keyed = applyKeys(result.records, keys);
    expect(keyed[0].verdict.signature).toMatchObject({ status: 'valid', not_covered: ['approved_by', 'signature.note'] });
    expect(applyKeys(keyed, [])[0].verdict.signature).toMatchObject({ status: 'unknown_key', not_covered: ['approved_by', 'signature.note'] });
    // A new verdict each time: the one read first still says what it said.
    expect(r.signature.status).toBe('unknown_key');
  });

  it('bulk loading (no detail) gives the same list', () => {
    const r = flat(inspect([{ name: 'appended.cbor', bytes: tampered }], { keys, detail: false }).records[0]);
    expect(r.signature.not_covered).toEqual(['approved_by', 'signature.note']);
  });

  it('an unsigned record has nothing to cover: []', () => {
    const unsigned: Envelope = { kind: 'event', conversation: new Uint8Array(16).fill(2), source: 'planner', body: utf8Encode('{}') };
    const r = flat(inspect([{ name: 'u.cbor', bytes: appendFields(encodeEnvelope(unsigned), [['extra', 'x']]) }]).records[0]);
    expect(r.signature).toMatchObject({ status: 'unsigned', not_covered: [] });
  });
});

describe('log headers outside the signature', () => {
  const conversation = fromHex('01903c1faa0000000000000000000002')!;
  const env: Envelope = {
    kind: 'command',
    record: fromHex('01903c1faa0000000000000000000001')!,
    conversation,
    source: 'planner',
    target: 'booker',
    correlation: new Uint8Array(16).fill(3),
    body: utf8Encode('{}'),
  };
  const u32 = (n: number) => new Uint8Array([n, 0, 0, 0]);
  const headers: Header[] = [
    { name: 'agdx.av', kind: 'uint32', value: u32(1), span: null },
    { name: 'agdx.ct', kind: 'uint8', value: new Uint8Array([1]), span: null },
    { name: 'gen_ai.conversation.id', kind: 'uint128', value: conversation.slice().reverse(), span: null },
    { name: 'agdx.to', kind: 'string', value: utf8Encode('booker'), span: null },
    { name: 'trace.parent', kind: 'string', value: utf8Encode('00-abc'), span: null },
  ];
  const decodedOf = (e: Envelope) => {
    const item = readSingle(encodeEnvelope(e));
    if (!item.ok) throw new Error('unreadable');
    const d = decodeEnvelope(item.value);
    if (!d.ok) throw new Error('undecodable');
    return d.value;
  };

  it('a header is covered only when a signed value fixes it', () => {
    const withContext = decodedOf({
      ...signEnvelope(env, SEED7),
      signature: { ...signEnvelope(env, SEED7).signature!, context: { content_type: 1, agent_version: 1 } },
    });
    expect(uncoveredPaths(withContext, headers)).toEqual(['headers.trace.parent']);
    const noContext = decodedOf(signEnvelope(env, SEED7));
    expect(uncoveredPaths(noContext, headers)).toEqual(['headers.agdx.av', 'headers.agdx.ct', 'headers.trace.parent']);
    // A relabelled codec, a conversation header naming another conversation, another target:
    const relabelled = headers.map((h) =>
      h.name === 'agdx.ct'
        ? { ...h, value: new Uint8Array([3]) }
        : h.name === 'gen_ai.conversation.id'
          ? { ...h, value: new Uint8Array(16) }
          : h.name === 'agdx.to'
            ? { ...h, value: utf8Encode('mallory') }
            : h,
    );
    expect(uncoveredPaths(withContext, relabelled)).toEqual(['headers.agdx.ct', 'headers.gen_ai.conversation.id', 'headers.agdx.to', 'headers.trace.parent']);
    // A laser record's partition key is fixed by the signed conversation when it names it.
    expect(uncoveredPaths(withContext, [], toCrockford(conversation))).toEqual([]);
    expect(uncoveredPaths(withContext, [], toCrockford(new Uint8Array(16).fill(9)))).toEqual(['partition_key']);
    // Unsigned: nothing.
    expect(uncoveredPaths(decodedOf(env), headers)).toEqual([]);
  });

  it('the Iggy export whose agdx.ct was relabelled lists that header', () => {
    const r = flat(inspect([{ name: 'x.json', bytes: made('signed_context_mismatch_http_v07.json') }], { keys }).records[0]);
    expect(r.signature).toMatchObject({ status: 'valid', context_match: false, not_covered: ['headers.agdx.ct', 'log_time_micros'] });
  });

  it('a signed record in a key registry without its key still says what is outside', () => {
    const signed = signEnvelope(env, SEED7);
    const bytes = appendFields(encodeEnvelope(signed), [['z', 'y']]);
    const r = flat(inspect([{ name: 's.cbor', bytes }], { keys: [keyFor(SEED7, 'planner')] }).records[0]);
    expect(r.signature).toMatchObject({ status: 'valid', not_covered: ['z'] });
  });
});
