// Builds vectors/agdx/made/ from the reference fixtures (byte for byte where they embed them).
// Run: npx tsx scripts/make-vectors.ts   (deterministic; the output is committed).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { concatBytes, fromHex, toBase64, toHex } from '../src/core/bytes';
import { toDiagnostic } from '../src/core/cbor/diagnostic';
import { readSingle, untag } from '../src/core/cbor/reader';

const laser = 'vectors/agdx/laser-wire-0.0.1/';
const out = 'vectors/agdx/made/';
mkdirSync(out, { recursive: true });
const read = (name: string) => new Uint8Array(readFileSync(laser + name));

// The command envelope inside the laser record's payload, verbatim.
const record = readSingle(read('agent_record.bin'));
if (!record.ok || record.value.kind !== 'map') throw new Error('agent_record.bin does not read');
const payloadItem = untag(record.value.entries.find((e) => untag(e.key).kind === 'text' && (untag(e.key) as { value: string }).value === 'payload')!.value);
if (payloadItem.kind !== 'bytes') throw new Error('payload is not bytes');
const payload = payloadItem.value;

for (const era of ['v07', 'v06']) {
  const block = fromHex(readFileSync(`vectors/agdx/iggy/record_headers_${era}.hex`, 'utf8'))!;
  const joined = new Uint8Array(block.length + payload.length);
  joined.set(block);
  joined.set(payload, block.length);
  writeFileSync(`${out}iggy_headers_${era}_payload.bin`, joined);
}

// The same message in the Iggy ≤ 0.4 HTTP shape: headers keyed by name, no header object.
const v06 = JSON.parse(readFileSync('vectors/agdx/iggy/record_http_v06.json', 'utf8'));
const m = v06.messages[0];
const v04 = {
  partition_id: v06.partition_id,
  current_offset: v06.current_offset,
  messages: [
    { offset: m.header.offset, state: 'available', timestamp: m.header.timestamp, id: 0, checksum: 0, headers: m.user_headers, payload: toBase64(payload) },
  ],
};
writeFileSync(`${out}record_http_v04.json`, JSON.stringify(v04, null, 2) + '\n');

// The JSON view of the command: byte strings as arrays of integers.
const cmd = readSingle(payload);
if (!cmd.ok || cmd.value.kind !== 'map') throw new Error('payload does not read');
const view: Record<string, unknown> = {};
for (const e of cmd.value.entries) {
  const k = untag(e.key) as { value: string };
  const v = untag(e.value);
  if (v.kind === 'bytes') view[k.value] = Array.from(v.value);
  else if (v.kind === 'text') view[k.value] = v.value;
  else if (v.kind === 'uint') view[k.value] = Number(v.value);
  else if (v.kind === 'map')
    view[k.value] = Object.fromEntries(v.entries.map((x) => [(untag(x.key) as { value: string }).value, (untag(x.value) as { value: string }).value]));
}
writeFileSync(`${out}command.json`, JSON.stringify(view, null, 2) + '\n');

// Hex, base64 and CBOR diagnostic notation text of the command.
writeFileSync(`${out}command.hex.txt`, toHex(payload) + '\n');
writeFileSync(`${out}command.b64.txt`, toBase64(payload) + '\n');
writeFileSync(`${out}command.diag.txt`, toDiagnostic(cmd.value) + '\n');

// A CBOR sequence (RFC 8742) of a conversation's envelopes, then a truncated one.
const seq = [
  'agent_command.bin',
  'agent_chunk_open.bin',
  'agent_chunk.bin',
  'agent_chunk_terminal.bin',
  'agent_response.bin',
  'agent_invalid_command_no_correlation.bin',
].map(read);
const truncated = read('agent_event.bin').subarray(0, 60);
const parts = [...seq, truncated];
const total = parts.reduce((n, p) => n + p.length, 0);
const cborseq = new Uint8Array(total);
let o = 0;
for (const p of parts) {
  cborseq.set(p, o);
  o += p.length;
}
writeFileSync(`${out}conversation.cborseq`, cborseq);
console.log('wrote', out);

// Signed records for the signature tests (test-only seeds: 32 × 0x07 as in typescript_signature.json, 32 × 0x09).
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { decodeEnvelope } from '../src/core/agdx/envelope';
import { encodeEnvelope } from '../src/core/agdx/canonical';
import { signingInput } from '../src/core/agdx/verify';
import { keyId } from '../src/core/keys/keys';
ed.hashes.sha512 = sha512;
const command = decodeEnvelope(cmd.value);
if (!command.ok) throw new Error('command does not decode');
const signWith = (seed: number, context?: { content_type?: number; agent_version?: number }) => {
  const secret = new Uint8Array(32).fill(seed);
  const pub = ed.getPublicKey(secret);
  const env = { ...command.value.envelope, signature: { scheme: 1, key_id: fromHex(keyId(pub))!, bytes: new Uint8Array(64), ...(context ? { context } : {}) } };
  env.signature.bytes = ed.sign(signingInput(env), secret);
  return { env, pub };
};
const bySource = signWith(7);
const byOther = signWith(9);
writeFileSync(`${out}signed_command.bin`, encodeEnvelope(bySource.env));
writeFileSync(`${out}signed_by_other_agent.bin`, encodeEnvelope(byOther.env));
const withContext = signWith(7, { content_type: 3, agent_version: 1 });
// An Iggy 0.7 export whose headers say agdx.ct = 1 while the signature's context says 3: relabelled.
const v07 = JSON.parse(readFileSync('vectors/agdx/iggy/record_http_v07.json', 'utf8'));
v07.messages[0].payload = toBase64(encodeEnvelope(withContext.env));
v07.messages[0].header.payload_length = encodeEnvelope(withContext.env).length;
writeFileSync(`${out}signed_context_mismatch_http_v07.json`, JSON.stringify(v07, null, 2) + '\n');
writeFileSync(
  `${out}keys.json`,
  JSON.stringify(
    {
      keys: [
        { agent: 'source-agent', public_key: toHex(bySource.pub), kind: 'agent', not_before_micros: 0, not_after_micros: 0, revoked: false },
        { agent: 'other-agent', public_key: toHex(byOther.pub), kind: 'agent', not_before_micros: 0, not_after_micros: 0, revoked: false },
      ],
    },
    null,
    2,
  ) + '\n',
);

// An Iggy 0.7 export of one conversation for the graph: a command, a chat stream with a duplicate,
// a gap and a chunk after its terminal... (see ORIGIN.md), a response, an event whose cause is
// absent, a status task update and an error whose cause and cause_at disagree.
{
  const ulid = (n: number) => fromHex('0190' + '3c1faa00' + n.toString(16).padStart(20, '0'))!;
  const conv = ulid(0xc0);
  const corr = ulid(0xc1);
  const channel = ulid(0xc2);
  const te = new TextEncoder();
  const at = (offset: number) => {
    const b = new Uint8Array(20);
    const dv = new DataView(b.buffer);
    dv.setUint32(0, 1);
    dv.setUint32(4, 2);
    dv.setUint32(8, 1);
    dv.setBigUint64(12, BigInt(offset));
    return b;
  };
  const chunk = (sequence: number, text: string, extra: Record<string, unknown> = {}) => ({
    kind: 'chunk' as const,
    conversation: conv,
    source: 'booker',
    target: 'planner',
    correlation: corr,
    channel,
    sequence,
    body: te.encode(text),
    ...extra,
  });
  const messages: { offset: number; env: Parameters<typeof encodeEnvelope>[0]; ct: number }[] = [
    {
      offset: 100,
      ct: 1,
      env: {
        kind: 'command',
        record: ulid(1),
        conversation: conv,
        source: 'planner',
        target: 'booker',
        correlation: corr,
        operation: 'chat',
        body: te.encode('{"ask":"book a flight"}'),
      },
    },
    { offset: 101, ct: 0, env: chunk(0, 'Hel', { operation: 'chat', deadline_micros: 1717171800000000 }) },
    { offset: 102, ct: 0, env: chunk(1, 'lo') },
    { offset: 103, ct: 0, env: chunk(1, 'lo') },
    { offset: 104, ct: 0, env: chunk(3, ' world') },
    { offset: 105, ct: 0, env: { ...chunk(4, ''), body: undefined, last: true, finish_reason: 'stop' } },
    {
      offset: 106,
      ct: 1,
      env: {
        kind: 'response',
        record: ulid(2),
        conversation: conv,
        source: 'booker',
        target: 'planner',
        cause: ulid(1),
        cause_at: at(100),
        correlation: corr,
        task_state: 4,
        body: te.encode('{"booked":true}'),
      },
    },
    {
      offset: 107,
      ct: 1,
      env: { kind: 'event', record: ulid(3), conversation: conv, source: 'booker', cause: ulid(9), body: te.encode('{"observed":"price drop"}') },
    },
    {
      offset: 108,
      ct: 0,
      env: {
        kind: 'status',
        record: ulid(4),
        conversation: conv,
        source: 'booker',
        correlation: corr,
        task_state: 2,
        operation: 'task',
        metadata: new Map([['run', { type: 'text' as const, value: 'run-7' }]]),
      },
    },
    {
      offset: 109,
      ct: 3,
      env: {
        kind: 'error',
        record: ulid(5),
        conversation: conv,
        source: 'booker',
        target: 'planner',
        cause: ulid(1),
        cause_at: at(105),
        correlation: corr,
        body: fromHex('a264636f64650669726574727961626c65f4')!,
      },
    },
  ];
  const header = (name: string, kind: string, value: Uint8Array) => ({
    key: { kind: 'string', value: toBase64(te.encode(name)) },
    value: { kind, value: toBase64(value) },
  });
  const convLe = conv.slice().reverse();
  const exportJson = {
    partition_id: 1,
    current_offset: 109,
    count: messages.length,
    messages: messages.map((m, i) => {
      const payload = encodeEnvelope(m.env as never);
      const hs = [
        header('agdx.av', 'uint32', new Uint8Array([1, 0, 0, 0])),
        header('agdx.ct', 'uint8', new Uint8Array([m.ct])),
        header('gen_ai.conversation.id', 'uint128', convLe),
      ];
      if ((m.env as { target?: string }).target) hs.push(header('agdx.to', 'string', te.encode((m.env as { target: string }).target)));
      return {
        header: {
          checksum: 0,
          id: 0,
          offset: m.offset,
          timestamp: 1717171717000000 + i * 1000,
          origin_timestamp: 1717171717000000 + i * 1000,
          user_headers_length: 0,
          payload_length: payload.length,
          reserved: 0,
        },
        payload: toBase64(payload),
        user_headers: hs,
      };
    }),
  };
  writeFileSync(`${out}conversation_http_v07.json`, JSON.stringify(exportJson, null, 2) + '\n');
}

// An Iggy 0.7 export of a registry log for the folds: cards (one expires), an unsigned quarantine of
// "rogue" with a record during it, then its lifting, and a run whose state changes after it ended.
{
  const { CborWriter } = await import('../src/core/cbor/encoder');
  const te = new TextEncoder();
  const ulid = (n: number) => fromHex('0190' + '3c1faa00' + n.toString(16).padStart(20, '0'))!;
  const conv = ulid(0xd0);
  const card = (name: string, ttlMicros: number) => {
    const w = new CborWriter();
    w.head(5, 4).text('name').text(name).text('version').text('1.0.0').text('capabilities').head(4, 1);
    w.head(5, 5)
      .text('skill_id')
      .text('book')
      .text('input')
      .head(5, 1)
      .text('content_type')
      .text('json')
      .text('output')
      .head(5, 1)
      .text('content_type')
      .text('json');
    w.text('health').uint(1).text('load').uint(250);
    w.text('ttl_micros').uint(ttlMicros);
    return w.finish();
  };
  const run = new Map([['run', { type: 'text' as const, value: 'run-9' }]]);
  const T = 1717171717000000;
  const s = 1_000_000;
  type M = { t: number; ct: number; env: Parameters<typeof encodeEnvelope>[0] };
  let n = 0;
  const rec = () => ulid(0x100 + ++n);
  const messages: M[] = [
    { t: 0, ct: 3, env: { kind: 'status', record: rec(), conversation: conv, source: 'booker', operation: 'card', body: card('booker', 10 * s) } },
    { t: 1 * s, ct: 3, env: { kind: 'status', record: rec(), conversation: conv, source: 'planner', operation: 'card', body: card('planner', 1000 * s) } },
    {
      t: 2 * s,
      ct: 1,
      env: {
        kind: 'command',
        record: rec(),
        conversation: conv,
        source: 'planner',
        target: 'booker',
        correlation: ulid(0xd1),
        operation: 'chat',
        body: te.encode('{"ask":"book"}'),
      },
    },
    {
      t: 3 * s,
      ct: 0,
      env: { kind: 'status', record: rec(), conversation: conv, source: 'booker', correlation: ulid(0xd1), operation: 'task', task_state: 1, metadata: run },
    },
    { t: 4 * s, ct: 0, env: { kind: 'status', record: rec(), conversation: conv, source: 'registry', operation: 'quarantine', body: te.encode('rogue') } },
    { t: 5 * s, ct: 1, env: { kind: 'event', record: rec(), conversation: conv, source: 'rogue', body: te.encode('{"noise":true}') } },
    {
      t: 6 * s,
      ct: 0,
      env: { kind: 'status', record: rec(), conversation: conv, source: 'booker', correlation: ulid(0xd1), operation: 'task', task_state: 2, metadata: run },
    },
    { t: 7 * s, ct: 0, env: { kind: 'status', record: rec(), conversation: conv, source: 'registry', operation: 'unquarantine', body: te.encode('rogue') } },
    {
      t: 8 * s,
      ct: 1,
      env: {
        kind: 'response',
        record: rec(),
        conversation: conv,
        source: 'booker',
        target: 'planner',
        correlation: ulid(0xd1),
        task_state: 4,
        usage: { input_tokens: 1200, output_tokens: 300, reasoning_output_tokens: 50 },
        body: te.encode('{"booked":true}'),
      },
    },
    {
      t: 9 * s,
      ct: 0,
      env: {
        kind: 'status',
        record: rec(),
        conversation: conv,
        source: 'booker',
        correlation: ulid(0xd1),
        operation: 'task',
        task_state: 4,
        last: true,
        metadata: run,
      },
    },
    { t: 12 * s, ct: 0, env: { kind: 'status', record: rec(), conversation: conv, source: 'registry', operation: 'quarantine', body: te.encode('rogue') } },
    {
      t: 15 * s,
      ct: 0,
      env: { kind: 'status', record: rec(), conversation: conv, source: 'booker', correlation: ulid(0xd1), operation: 'task', task_state: 2, metadata: run },
    },
    { t: 20 * s, ct: 1, env: { kind: 'event', record: rec(), conversation: conv, source: 'booker', body: te.encode('{"late":true}') } },
  ];
  const header = (name: string, kind: string, value: Uint8Array) => ({
    key: { kind: 'string', value: toBase64(te.encode(name)) },
    value: { kind, value: toBase64(value) },
  });
  const exportJson = {
    partition_id: 1,
    current_offset: 200 + messages.length - 1,
    count: messages.length,
    messages: messages.map((m, i) => {
      const payload = encodeEnvelope(m.env as never);
      const hs = [
        header('agdx.av', 'uint32', new Uint8Array([1, 0, 0, 0])),
        header('agdx.ct', 'uint8', new Uint8Array([m.ct])),
        header('gen_ai.conversation.id', 'uint128', conv.slice().reverse()),
      ];
      if ((m.env as { target?: string }).target) hs.push(header('agdx.to', 'string', te.encode((m.env as { target: string }).target)));
      return {
        header: {
          checksum: 0,
          id: 0,
          offset: 200 + i,
          timestamp: T + m.t,
          origin_timestamp: T + m.t,
          user_headers_length: 0,
          payload_length: payload.length,
          reserved: 0,
        },
        payload: toBase64(payload),
        user_headers: hs,
      };
    }),
  };
  writeFileSync(`${out}registry_log_http_v07.json`, JSON.stringify(exportJson, null, 2) + '\n');
}

// A CBOR sequence of one conversation for deadlines, clocks and the timeline, timed by the ULIDs of
// its record ids (no log times): a command answered 2.5 s after its deadline, one answered in time,
// one whose deadline passes unanswered, an event earlier than its cause and a response earlier than
// its command (clock skew), and a chat stream with a gap.
{
  const te = new TextEncoder();
  const T0 = 1717171717000; // 2024-05-31T16:08:37Z, in ms
  let n = 0;
  // A ULID: 48 bits of milliseconds, then a counter (deterministic, unlike a real ULID's randomness).
  const ulid = (ms: number) => fromHex(ms.toString(16).padStart(12, '0') + (0xd0000 + ++n).toString(16).padStart(20, '0'))!;
  const conv = fromHex('0190' + '3c1faa00' + 'e0'.padStart(20, '0'))!;
  const corr = (c: number) => fromHex('0190' + '3c1faa00' + (0xe0 + c).toString(16).padStart(20, '0'))!;
  const micros = (ms: number) => BigInt(ms) * 1000n;
  const json = (v: unknown) => te.encode(JSON.stringify(v));
  type E = Parameters<typeof encodeEnvelope>[0];
  const base = { conversation: conv };
  const cmdLate = ulid(T0);
  const cmdOnTime = ulid(T0 + 1000);
  const cmdLost = ulid(T0 + 2000);
  const respLate = ulid(T0 + 4500);
  const cmdSkewed = ulid(T0 + 5000);
  const channel = corr(9);
  const envelopes: E[] = [
    {
      ...base,
      kind: 'command',
      record: cmdLate,
      source: 'planner',
      target: 'booker',
      correlation: corr(1),
      operation: 'chat',
      deadline_micros: micros(T0 + 2000),
      body: json({ ask: 'book a flight' }),
    },
    {
      ...base,
      kind: 'command',
      record: cmdOnTime,
      source: 'planner',
      target: 'pricer',
      correlation: corr(2),
      operation: 'chat',
      deadline_micros: micros(T0 + 3000),
      body: json({ ask: 'price it' }),
    },
    {
      ...base,
      kind: 'response',
      record: ulid(T0 + 1800),
      source: 'pricer',
      target: 'planner',
      cause: cmdOnTime,
      correlation: corr(2),
      body: json({ price: 420 }),
    },
    {
      ...base,
      kind: 'command',
      record: cmdLost,
      source: 'planner',
      target: 'mailer',
      correlation: corr(3),
      operation: 'chat',
      deadline_micros: micros(T0 + 2500),
      body: json({ ask: 'mail the itinerary' }),
    },
    {
      ...base,
      kind: 'chunk',
      record: ulid(T0 + 2200),
      source: 'booker',
      target: 'planner',
      correlation: corr(1),
      channel,
      sequence: 0,
      operation: 'chat',
      body: te.encode('Search'),
    },
    {
      ...base,
      kind: 'chunk',
      record: ulid(T0 + 2600),
      source: 'booker',
      target: 'planner',
      correlation: corr(1),
      channel,
      sequence: 1,
      body: te.encode('ing…'),
    },
    {
      ...base,
      kind: 'chunk',
      record: ulid(T0 + 3300),
      source: 'booker',
      target: 'planner',
      correlation: corr(1),
      channel,
      sequence: 3,
      body: te.encode(' found'),
    },
    { ...base, kind: 'response', record: respLate, source: 'booker', target: 'planner', cause: cmdLate, correlation: corr(1), body: json({ booked: true }) },
    { ...base, kind: 'event', record: ulid(T0 + 4200), source: 'mailer', cause: respLate, body: json({ observed: 'booking' }) },
    {
      ...base,
      kind: 'command',
      record: cmdSkewed,
      source: 'planner',
      target: 'booker',
      correlation: corr(4),
      operation: 'chat',
      deadline_micros: micros(T0 + 9000),
      body: json({ ask: 'confirm' }),
    },
    { ...base, kind: 'response', record: ulid(T0 + 4800), source: 'booker', target: 'planner', correlation: corr(4), body: json({ confirmed: true }) },
    { ...base, kind: 'event', record: ulid(T0 + 6000), source: 'planner', body: json({ done: true }) },
  ];
  writeFileSync(`${out}deadlines.cborseq`, concatBytes(...envelopes.map((e) => encodeEnvelope(e))));
}
