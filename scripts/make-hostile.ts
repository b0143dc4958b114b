// Builds vectors/hostile/ (and its ORIGIN.md): a small corpus of hostile inputs the tests feed
// through every entry point (src/core/fuzz/hostile.fuzz.test.ts). Deterministic: running it again
// rewrites the same bytes. Big bombs (100 MB strings, 4 GiB allocations, deep JSON) are declared
// here, never materialised: the tests build those themselves.
// Run: npx tsx scripts/make-hostile.ts
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import * as ed from '@noble/ed25519';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { concatBytes, toBase64, toHex } from '../src/core/bytes';
import { CborWriter } from '../src/core/cbor/encoder';

ed.hashes.sha512 = sha512;

const OUT = 'vectors/hostile/';
const enc = new TextEncoder();
const utf8 = (s: string) => enc.encode(s);
const cat = concatBytes;
const bytes = (...b: number[]) => Uint8Array.from(b);
const id = (n: number) => {
  const b = new Uint8Array(16);
  b[0] = 0x01;
  b[1] = 0x90;
  b[15] = n;
  return b;
};

type Field = [string, (w: CborWriter) => void];
const SCRIPT = '<script>alert(1)</script>';
const IMG = '<img src=x onerror=alert(1)>';
const JSURL = 'javascript:alert(document.domain)';

/** A valid event envelope's fields (wire order), with `extra` fields put in or replacing ones. */
function eventFields(extra: Field[] = [], omit: string[] = []): Field[] {
  const base: Field[] = [
    ['kind', (w) => w.text('event')],
    ['record', (w) => w.bytes(id(1))],
    ['conversation', (w) => w.bytes(id(2))],
    ['source', (w) => w.text('planner')],
    ['body', (w) => w.bytes(utf8('{"ok":true}'))],
  ];
  const names = new Set(extra.map(([k]) => k));
  return [...base.filter(([k]) => !names.has(k) && !omit.includes(k)), ...extra];
}

function mapOf(fields: Field[]): Uint8Array {
  const w = new CborWriter();
  w.head(5, fields.length);
  for (const [k, write] of fields) {
    w.text(k);
    write(w);
  }
  return w.finish();
}

const raw = (b: Uint8Array) => (w: CborWriter) => void w.append(b);

function metadata(entries: [string, (w: CborWriter) => void][]): (w: CborWriter) => void {
  return (w) => {
    w.head(5, entries.length);
    for (const [k, v] of entries) {
      w.text(k);
      v(w);
    }
  };
}

interface Entry {
  name: string;
  what: string;
  /** What the inspector must answer (checked by the test). */
  expect: string;
  bytes: Uint8Array;
}

const files: Entry[] = [];
const add = (name: string, what: string, expect: string, b: Uint8Array | string) =>
  files.push({ name, what, expect, bytes: typeof b === 'string' ? utf8(b) : b });

// ---------------------------------------------------------------------------------------------
// Length, count and depth bombs (CBOR)
// ---------------------------------------------------------------------------------------------

add(
  'length-bomb-4gib-text.cbor',
  'an event envelope whose source declares a 4 GiB text string (7b 0000000100000000) with 5 bytes behind it',
  'decode error cbor/too-large; nothing allocated',
  mapOf(eventFields([['source', raw(bytes(0x7b, 0, 0, 0, 1, 0, 0, 0, 0, 0x61, 0x62, 0x63, 0x64, 0x65))]], ['body'])),
);
add(
  'length-bomb-4gib-body.cbor',
  'an event envelope whose body declares 2^32 - 1 bytes (5a ffffffff)',
  'decode error cbor/too-large',
  mapOf(eventFields([['body', raw(bytes(0x5a, 0xff, 0xff, 0xff, 0xff, 1, 2, 3))]])),
);
add(
  'array-2p32-entries.cbor',
  'an envelope whose metadata value is an array claiming 2^32 entries (9b 0000000100000000)',
  'decode error cbor/too-large',
  mapOf(eventFields([['metadata', metadata([['list', raw(bytes(0x9b, 0, 0, 0, 1, 0, 0, 0, 0, 0x01))]])]])),
);
add(
  'map-2p31-entries.cbor',
  'a top-level map declaring 2^31 entries (ba 80000000), then one entry',
  'decode error cbor/too-large',
  bytes(0xba, 0x80, 0, 0, 0, 0x64, 0x6b, 0x69, 0x6e, 0x64, 0x65, 0x65, 0x76, 0x65, 0x6e, 0x74),
);
add(
  'metadata-map-2p31-entries.cbor',
  'an envelope whose metadata map declares 2^31 entries',
  'decode error cbor/too-large',
  mapOf(eventFields([['metadata', raw(bytes(0xba, 0x80, 0, 0, 0, 0x61, 0x61, 0x01))]])),
);
{
  // 100,000 nested arrays inside the metadata of an otherwise valid envelope (100 KB).
  const deep = new Uint8Array(100_001).fill(0x81);
  deep[100_000] = 0x01;
  add(
    'depth-bomb-100k-arrays.cbor',
    'an envelope whose metadata value is 100,000 nested one-element arrays',
    'decode error cbor/too-deep, at once',
    mapOf(eventFields([['metadata', metadata([['deep', raw(deep)]])]])),
  );
}
{
  // A real map of 100,000 entries: metadata with 3-character keys.
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const keys: string[] = [];
  for (let i = 0; i < 100_000; i++) keys.push(alphabet[(i >> 12) & 63] + alphabet[(i >> 6) & 63] + alphabet[i & 63]);
  keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)); // ASCII: bytewise order
  add(
    'map-100k-entries.cbor',
    'an envelope whose metadata is a real map of 100,000 entries (3-character keys, null values)',
    "decode error cbor/too-many-items at the metadata head (200,003 items, past the reader's cap of 65,536); nothing built",
    mapOf(eventFields([['metadata', metadata(keys.map((k) => [k, (w: CborWriter) => void w.null()]))]])),
  );
}

// ---------------------------------------------------------------------------------------------
// Keys that name prototypes, bad text, duplicates, tags, floats, big integers
// ---------------------------------------------------------------------------------------------

add(
  'proto-keys-metadata.cbor',
  'an envelope with metadata keys __proto__, constructor, prototype, toString, hasOwnProperty and unknown top-level fields __proto__ and constructor',
  'decoded; the keys stay own metadata entries and unknown fields; Object.prototype untouched',
  mapOf(
    eventFields([
      [
        'metadata',
        metadata([
          ['__proto__', (w) => void w.text('polluted')],
          ['constructor', (w) => void w.int(1)],
          ['hasOwnProperty', (w) => void w.bool(true)],
          ['prototype', (w) => void w.null()],
          ['toString', (w) => void w.text('x')],
        ]),
      ],
      ['__proto__', (w) => void w.text('polluted')],
      ['constructor', (w) => void w.head(5, 1).text('prototype').text('polluted')],
    ]),
  ),
);
add(
  'invalid-utf8-source.cbor',
  'an envelope whose source text holds the byte ff (not UTF-8)',
  'decode error cbor/invalid',
  mapOf(eventFields([['source', raw(bytes(0x67, 0x70, 0x6c, 0x61, 0x6e, 0xff, 0x65, 0x72))]])),
);
add(
  'invalid-utf8-long-text.cbor',
  'an envelope whose metadata text (over 32 bytes, past the ASCII fast path) ends in a cut UTF-8 sequence',
  'decode error cbor/invalid',
  mapOf(eventFields([['metadata', metadata([['note', raw(cat(bytes(0x78, 41), utf8('a'.repeat(40)), bytes(0xe2)))]])]])),
);
add(
  'cesu-surrogates.cbor',
  'surrogate code points written as CESU-8 in text: a lone high surrogate (ed a0 80) and a pair (ed a0 bd ed b8 80)',
  'decode error cbor/invalid, never a string holding a lone surrogate',
  mapOf(
    eventFields([
      [
        'metadata',
        metadata([
          ['lone', raw(bytes(0x63, 0xed, 0xa0, 0x80))],
          ['pair', raw(bytes(0x66, 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80))],
        ]),
      ],
    ]),
  ),
);
add('duplicate-kind.cbor', 'an envelope with the field kind twice (event, then command)', 'decode error agdx/duplicate-field', dupKind());
add(
  'duplicate-metadata-key.cbor',
  'an envelope whose metadata repeats the key role',
  'decode error agdx/duplicate-field',
  mapOf(
    eventFields([
      [
        'metadata',
        metadata([
          ['role', (w) => void w.text('a')],
          ['role', (w) => void w.text('b')],
        ]),
      ],
    ]),
  ),
);
{
  // Every item tagged: self-describe (55799) on the map, tags on every key and value.
  const w = new CborWriter();
  w.head(6, 55799);
  const fields: [string, (w: CborWriter) => void][] = [
    ['kind', (w) => void w.text('event')],
    ['record', (w) => void w.bytes(id(1))],
    ['conversation', (w) => void w.bytes(id(2))],
    ['source', (w) => void w.text('planner')],
    ['metadata', (w) => void w.head(5, 1).head(6, 32).text('u').head(6, 0).text('2026-01-30T00:00:00Z')],
    ['body', (w) => void w.head(6, 24).bytes(utf8('{}'))],
  ];
  w.head(5, fields.length);
  fields.forEach(([k, v], i) => {
    w.head(6, 1000 + i).text(k);
    w.head(6, 2 ** 32 + i);
    v(w);
  });
  add(
    'tags-everywhere.cbor',
    'a valid event with a tag on the map (55799), on every key and value, and inside metadata and the body',
    'decoded (tags are skipped as the reference does); agdx/noncanonical',
    w.finish(),
  );
}
add(
  'floats-nan-inf.cbor',
  'metadata floats: NaN (half), NaN with a payload (double), +Infinity, -Infinity, -0.0, the smallest subnormal',
  'decoded; each float kept with its exact value (shown, never turned into null or 0)',
  mapOf(
    eventFields([
      [
        'metadata',
        metadata([
          ['nan', raw(bytes(0xf9, 0x7e, 0x00))],
          ['nan_payload', raw(bytes(0xfb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 1))],
          ['pos_inf', raw(bytes(0xf9, 0x7c, 0x00))],
          ['neg_inf', raw(bytes(0xfa, 0xff, 0x80, 0, 0))],
          ['neg_zero', raw(bytes(0xf9, 0x80, 0x00))],
          ['subnormal', raw(bytes(0xfb, 0, 0, 0, 0, 0, 0, 0, 1))],
        ]),
      ],
    ]),
  ),
);
add(
  'bignums.cbor',
  'integers beyond 2^64: deadline_micros as a bignum (tag 2, 9 bytes) and metadata with tag 2 and tag 3 bignums and u64 / -2^64 extremes',
  'decode error agdx/field-type (deadline_micros must be an unsigned integer, a bignum is a tagged byte string)',
  mapOf(eventFields([['deadline_micros', raw(bytes(0xc2, 0x49, 1, 0, 0, 0, 0, 0, 0, 0, 0))]])),
);
add(
  'u64-extremes.cbor',
  'a command with deadline_micros 2^64 - 1 and metadata -2^64 (3b ffffffffffffffff) and 2^64 - 1',
  'decoded; the values exact (bigint), never rounded',
  mapOf([
    ['kind', (w) => void w.text('command')],
    ['record', (w) => void w.bytes(id(1))],
    ['conversation', (w) => void w.bytes(id(2))],
    ['source', (w) => void w.text('planner')],
    ['correlation', (w) => void w.bytes(id(3))],
    ['deadline_micros', raw(bytes(0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))],
    [
      'metadata',
      metadata([
        ['max', raw(bytes(0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))],
        ['min', raw(bytes(0x3b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))],
      ]),
    ],
    ['body', (w) => void w.bytes(utf8('{}'))],
  ]),
);
add(
  'bignum-metadata.cbor',
  'metadata values that are bignums (tag 2 and tag 3 around byte strings)',
  'decode error agdx/field-type (metadata holds scalars; a bignum is a tagged byte string)',
  mapOf(
    eventFields([
      [
        'metadata',
        metadata([
          ['big', raw(bytes(0xc2, 0x49, 1, 0, 0, 0, 0, 0, 0, 0, 0))],
          ['neg', raw(bytes(0xc3, 0x49, 1, 0, 0, 0, 0, 0, 0, 0, 0))],
        ]),
      ],
    ]),
  ),
);

// ---------------------------------------------------------------------------------------------
// Markup and script in every string field; javascript: URLs
// ---------------------------------------------------------------------------------------------

add(
  'html-in-every-field.cbor',
  `a status card whose every text field (source, target, idempotency key, operation, tool, finish reason, metadata keys and values) is ${SCRIPT} or ${IMG}, with an AgentCard body named the same`,
  'decoded; the strings kept verbatim (the UI renders them as text)',
  mapOf([
    ['kind', (w) => void w.text('status')],
    ['record', (w) => void w.bytes(id(1))],
    ['conversation', (w) => void w.bytes(id(2))],
    ['source', (w) => void w.text(SCRIPT)],
    ['target', (w) => void w.text(IMG)],
    ['operation', (w) => void w.text('card')],
    ['tool', (w) => void w.text(SCRIPT)],
    [
      'metadata',
      metadata([
        [IMG, (w) => void w.text(SCRIPT)],
        [SCRIPT, (w) => void w.head(4, 2).text(IMG).text(JSURL)],
      ]),
    ],
    [
      'body',
      (w) =>
        void w.bytes(
          mapOf([
            ['name', (x) => void x.text(SCRIPT)],
            ['version', (x) => void x.text(IMG)],
            ['capabilities', (x) => void x.head(4, 1).head(5, 1).text('skill_id').text(JSURL)],
          ]),
        ),
    ],
  ]),
);
add(
  'javascript-url-metadata.cbor',
  `an event whose metadata links are ${JSURL}, data:text/html and vbscript: URLs`,
  'decoded; the URLs kept as text, never followed',
  mapOf(
    eventFields([
      [
        'metadata',
        metadata([
          ['href', (w) => void w.text(JSURL)],
          ['img', (w) => void w.text('data:text/html,<script>alert(1)</script>')],
          ['vb', (w) => void w.text('vbscript:msgbox(1)')],
        ]),
      ],
    ]),
  ),
);
{
  const bodyRef = mapOf([
    ['reference', (w) => void w.text(JSURL)],
    ['size_bytes', (w) => void w.uint(1024)],
    ['sha256', (w) => void w.bytes(sha256(utf8('x')))],
  ]);
  add(
    'body-ref-javascript-url.cbor',
    `a BodyRef capsule on its own whose reference is ${JSURL}`,
    'decoded as agdx.capsule body_ref; the reference shown as text, never followed',
    bodyRef,
  );
  // The same reference as the body of an envelope read with its Iggy ≥ 0.7 headers (agdx.ct = 8: ref).
  const header = (name: string, kind: number, value: Uint8Array) => cat(bytes(2), le32(name.length), utf8(name), bytes(kind), le32(value.length), value);
  const block = cat(header('agdx.av', 11, le32(1)), header('agdx.ct', 9, bytes(8)));
  add(
    'body-ref-javascript-url-headers.bin',
    `an Iggy ≥ 0.7 user-header block (agdx.av 1, agdx.ct 8 = ref) then an event whose body is a BodyRef to ${JSURL}`,
    'decoded agdx.record; body rendered as body_ref text',
    cat(block, mapOf(eventFields([['body', (w) => void w.bytes(bodyRef)]]))),
  );
}

// ---------------------------------------------------------------------------------------------
// Sequences: good records next to broken ones
// ---------------------------------------------------------------------------------------------

{
  const laser = 'vectors/agdx/laser-wire-0.0.1/';
  const command = new Uint8Array(readFileSync(`${laser}agent_command.bin`));
  add(
    'valid-then-garbage.cborseq',
    'agent_command.bin (valid) followed by garbage: a break byte, then a length bomb',
    'record 0 is the valid command, unchanged; the rest a coded error',
    cat(command, bytes(0xff, 0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)),
  );
  add(
    'valid-then-truncated.cborseq',
    'agent_command.bin twice, then the same command cut in half',
    'records 0 and 1 valid, record 2 cbor/truncated',
    cat(command, command, command.subarray(0, command.length >> 1)),
  );
}

// ---------------------------------------------------------------------------------------------
// JSON: prototypes, lone surrogates, big integers, duplicates, markup (Iggy, JSON view, AgentDNA)
// ---------------------------------------------------------------------------------------------

{
  const envelope = mapOf(eventFields([['metadata', metadata([['__proto__', (w) => void w.text('polluted')]])]]));
  const h = (k: string, kind: string, v: Uint8Array) =>
    `{"key":{"kind":"string","value":"${toBase64(utf8(k))}"},"value":{"kind":"${kind}","value":"${toBase64(v)}"}}`;
  add(
    'proto-keys-export-v07.json',
    'an Iggy ≥ 0.7 export with __proto__ and constructor members at the top, in a message and in its header, and a user header named __proto__',
    'decoded agdx.record; the __proto__ header is an ordinary header; Object.prototype untouched',
    `{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"partition_id":1,"messages":[{"__proto__":{"payload":"AA=="},"header":{"__proto__":{"offset":9},"offset":7,"timestamp":1717171717000000},"payload":"${toBase64(envelope)}","user_headers":[${h('agdx.av', 'uint32', le32(1))},${h('__proto__', 'string', utf8('polluted'))}]}]}`,
  );
  add(
    'proto-keys-export-v06.json',
    'an Iggy 0.5-0.6 export whose user_headers object has the keys __proto__ and constructor',
    'decoded agdx.record; __proto__ and constructor read as header names',
    `{"partition_id":1,"messages":[{"header":{"offset":1,"timestamp":2},"payload":"${toBase64(envelope)}","user_headers":{"__proto__":{"kind":"string","value":"${toBase64(utf8('x'))}"},"constructor":{"kind":"uint32","value":"${toBase64(le32(1))}"},"agdx.av":{"kind":"uint32","value":"${toBase64(le32(1))}"}}}]}`,
  );
}
add(
  'lone-surrogates-view.json',
  'the JSON view of an event whose source is "\\ud800" (a lone surrogate escape) and whose metadata has a key "\\udc00" and a value "a\\ud800b"',
  'a verdict, never a throw (a lone surrogate cannot be a Rust String: see the report)',
  `{"kind":"event","record":[1,144,0,0,0,0,0,0,0,0,0,0,0,0,0,1],"conversation":[1,144,0,0,0,0,0,0,0,0,0,0,0,0,0,2],"source":"\\ud800","metadata":{"\\udc00":"a\\ud800b"},"body":[123,125]}`,
);
add(
  'json-bigints-view.json',
  'the JSON view of a command whose deadline_micros is 18446744073709551616 (2^64) and whose metadata holds 1e400 and -18446744073709551617',
  'decode error agdx/field-type (deadline beyond u64); the numbers never rounded',
  `{"kind":"command","record":[1,144,0,0,0,0,0,0,0,0,0,0,0,0,0,1],"conversation":[1,144,0,0,0,0,0,0,0,0,0,0,0,0,0,2],"source":"planner","correlation":[1,144,0,0,0,0,0,0,0,0,0,0,0,0,0,3],"deadline_micros":18446744073709551616,"metadata":{"huge":1e400,"low":-18446744073709551617},"body":[123,125]}`,
);

const DID = 'bafybmigztsri3zoyctqywt4p67wsa3jf4sdi64st2oqdojotqo56j4aqnq';
add(
  'proto-keys-workflow.json',
  'an AgentDNA workflow with __proto__ and constructor keys in the workflow, the envelope and the payload, and a parent that is {"__proto__": …}',
  'decoded agentdna.workflow; the keys are shown as unknown fields; Object.prototype untouched',
  `{"__proto__":{"polluted":true},"type":"intent_workflow","version":"2.0","envelope":{"__proto__":{"from":"x"},"constructor":{"polluted":1},"from":"${DID}","payload":{"__proto__":{"polluted":true},"text":"hi"},"epoch":1,"hash":"00","signature":"00","parent_envelope":[{"__proto__":{"payload":"x"},"from":"${DID}","payload":"p","epoch":0}]}}`,
);
add(
  'lone-surrogates-workflow.json',
  'an AgentDNA envelope whose payload is "\\udc00\\ud800" and whose from is "\\ud83d" (lone surrogates: Python hashes them as \\udXXX escapes)',
  'decoded agentdna.envelope; a content hash computed (not valid: no signature)',
  `{"from":"\\ud83d","payload":"\\udc00\\ud800","epoch":1,"signature":""}`,
);
add(
  'json-bigints-workflow.json',
  'an AgentDNA envelope with epoch 18446744073709551616, status_code 1e400 and run_id -0',
  'decoded; epoch hashed as the exact integer, status_code as Infinity (Python float overflow), a status-code warning',
  `{"from":"${DID}","payload":"x","epoch":18446744073709551616,"status_code":1e400,"run_id":-0,"signature":"3006020101020101"}`,
);
add(
  'duplicate-keys-workflow.json',
  'an AgentDNA workflow whose envelope repeats payload and from (the last one wins in Python) and whose workflow repeats envelope',
  'decoded; agentdna/duplicate-key warnings',
  `{"type":"intent_workflow","envelope":{"from":"a"},"envelope":{"from":"${DID}","payload":"first","payload":"second","from":"b","epoch":1,"signature":""}}`,
);
add(
  'html-in-every-field-workflow.json',
  `an AgentDNA workflow with ${SCRIPT}, ${IMG} and ${JSURL} in every string (from, to, run_id, payload, hash, signature, info, id)`,
  'decoded; the strings kept verbatim; signature malformed (not hex)',
  JSON.stringify({
    id: SCRIPT,
    type: 'intent_workflow',
    version: '2.0',
    info: { title: IMG, link: JSURL },
    envelope: {
      from: SCRIPT,
      to: IMG,
      run_id: JSURL,
      payload: `${SCRIPT}${IMG}`,
      epoch: 1,
      hash: SCRIPT,
      signature: IMG,
      parent_envelope: [{ from: IMG, payload: JSURL, epoch: 0, hash: IMG, signature: SCRIPT }],
    },
  }),
);
add(
  'html-card-policy.json',
  `an AgentDNA agent card whose policy is base64 of an HTML page with a script, and whose metadata name is ${SCRIPT}`,
  'decoded agentdna.card; the policy shown as text',
  JSON.stringify({
    type: 'actor_card',
    id: DID,
    metadata: { name: SCRIPT, homepage: JSURL },
    policy: toBase64(utf8(`<html><body>${SCRIPT}${IMG}</body></html>`)),
  }),
);
add(
  'agentdna-cyclic-hash.json',
  'JSON cannot nest an object in itself, so the cycle is by hash: the tip claims hash H, its parent claims the same H, and that parent lists a grandparent claiming H too',
  'decoded; agentdna/duplicate-hash; the DAG marks the cycle; modes fail; never a loop',
  JSON.stringify({
    type: 'intent_workflow',
    envelope: {
      from: DID,
      payload: 'tip',
      epoch: 3,
      hash: 'c9c4b641dc414a6c184a8635174f9db62d2293a50faf141a9da4560d1bced1e6',
      signature: '3006020101020101',
      parent_envelope: [
        {
          from: DID,
          payload: 'parent',
          epoch: 2,
          hash: 'c9c4b641dc414a6c184a8635174f9db62d2293a50faf141a9da4560d1bced1e6',
          signature: '3006020101020101',
          parent_envelope: [
            {
              from: DID,
              payload: 'grandparent',
              epoch: 1,
              hash: 'c9c4b641dc414a6c184a8635174f9db62d2293a50faf141a9da4560d1bced1e6',
              signature: '3006020101020101',
            },
          ],
        },
      ],
    },
  }),
);
add(
  'agentdna-self-parent.json',
  "a card history (a JSON array) of two workflows, each naming the other's tip hash as its parent: an attempt at a two-node cycle across documents",
  'decoded; no loop: the parent copies differ from the tips (no parents of their own), so each is a node of its own and the cycle does not close',
  JSON.stringify([
    {
      type: 'intent_workflow',
      envelope: {
        from: DID,
        payload: 'a',
        epoch: 1,
        hash: 'aa'.repeat(32),
        signature: '00',
        parent_envelope: [{ from: DID, payload: 'b', epoch: 2, hash: 'bb'.repeat(32), signature: '00' }],
      },
    },
    {
      type: 'intent_workflow',
      envelope: {
        from: DID,
        payload: 'b',
        epoch: 2,
        hash: 'bb'.repeat(32),
        signature: '00',
        parent_envelope: [{ from: DID, payload: 'a', epoch: 1, hash: 'aa'.repeat(32), signature: '00' }],
      },
    },
  ]),
);

// ---------------------------------------------------------------------------------------------
// Keys and permalinks
// ---------------------------------------------------------------------------------------------

add(
  'keys-weak.json',
  'a key file with the Ed25519 identity and an order-8 point, the identity encoded non-canonically (y = p + 1), and secp256k1 keys 02‖0³² and 04‖0⁶⁴',
  'parseKeys: every entry a problem, no key registered; as an input: json, input/unrecognized',
  JSON.stringify({
    keys: [
      { agent: 'planner', public_key: '01'.padEnd(64, '0') },
      { agent: 'planner', public_key: 'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a' },
      { agent: 'planner', public_key: 'ee' + 'ff'.repeat(30) + '7f' },
      { agent: DID, public_key: '02' + '00'.repeat(32) },
      { agent: DID, public_key: '04' + '00'.repeat(64) },
      { agent: '__proto__', public_key: toHex(ed.getPublicKey(new Uint8Array(32).fill(7))), kind: '__proto__' },
    ],
  }),
);

/** A permalink whose checksum matches whatever CBOR payload it holds: crafted, not damaged. */
function craftLink(payload: Uint8Array): string {
  return `v1.${toBase64(cat(sha256(payload).subarray(0, 8), deflateRawSync(payload, { level: 9 })), true)}`;
}
function statePayload(view: (w: CborWriter) => void, inputs: [string, Uint8Array][] = [['a.cbor', bytes(0xa0)]]): Uint8Array {
  const w = new CborWriter();
  w.head(5, 4).text('v').uint(1).text('inputs').head(4, inputs.length);
  for (const [name, b] of inputs) w.head(5, 2).text('name').text(name).text('bytes').bytes(b);
  w.text('redacted').bool(false).text('view');
  view(w);
  return w.finish();
}
add(
  'permalink-html-names.txt',
  `a well-formed permalink whose input names and filters are ${SCRIPT} / ${JSURL} and whose input bytes are an envelope with script text`,
  'decodePermalink: ok, every string kept verbatim',
  '#' +
    craftLink(
      statePayload(
        (w) => void w.head(5, 4).text('selected').null().text('tab').text(IMG).text('viewport').null().text('filters').head(5, 1).text(SCRIPT).text(JSURL),
        [[SCRIPT, mapOf(eventFields([['source', (w) => void w.text(SCRIPT)]]))]],
      ),
    ) +
    '\n',
);
add('permalink-newer.txt', 'a link of format v9', 'decodePermalink: permalink/newer-version', 'v9.AAAA\n');
add('permalink-not-a-link.txt', 'a fragment that is no link at all (a javascript: URL)', 'decodePermalink: permalink/not-a-link', `#${JSURL}\n`);
add('permalink-damaged-chars.txt', 'a v1 link holding characters base64url never has (+, /, %)', 'decodePermalink: permalink/damaged', 'v1.AB+/CD%2F\n');

// ---------------------------------------------------------------------------------------------
// found/: inputs the fuzzing found (each fixed, or reported where the file is not ours to change)
// ---------------------------------------------------------------------------------------------

const found: Entry[] = [];
const addFound = (name: string, what: string, expect: string, b: Uint8Array | string) =>
  found.push({ name, what, expect, bytes: typeof b === 'string' ? utf8(b) : b });

addFound(
  'base64-equals-run.txt',
  '100,000 "=" then "A": text the sniffer tries as base64. fromBase64 cut the padding with /=+$/, which backtracks quadratically (300 KB took 38 s). Fixed in src/core/bytes (a loop).',
  'input/unrecognized, in milliseconds',
  '='.repeat(100_000) + 'A\n',
);
addFound(
  'keys-space-run.txt',
  '"a", 100,000 spaces, "b": parseKeys split lines with /\\s*[\\n,]\\s*/, quadratic on a run of spaces with no separator (200 KB took 16 s). Fixed in src/core/keys (split, then trim).',
  'parseKeys: problems, in milliseconds',
  `a${' '.repeat(100_000)}b\n`,
);
addFound(
  'keys-pem-begin-run.txt',
  '4,000 "-----BEGIN PUBLIC KEY-----" lines and no END: the PEM regex (lazy body, back-reference) rescanned to the end for every BEGIN. Fixed in src/core/keys (pemBlocks, linear).',
  'parseKeys: a problem (no PEM block), in milliseconds',
  '-----BEGIN PUBLIC KEY-----\n'.repeat(4000),
);
addFound(
  'permalink-proto-filter.txt',
  'a crafted link (right checksum) whose filters hold the key __proto__: readState assigned it with filters[k] = v, which set a prototype and dropped the filter. Fixed in src/core/share (defineProperty).',
  'decodePermalink: ok, the __proto__ filter kept as an own key',
  craftLink(statePayload((w) => void w.head(5, 1).text('filters').head(5, 2).text('__proto__').text('x').text('kind').text('command'))) + '\n',
);
addFound(
  'permalink-selected-2p53.txt',
  'a crafted link whose selected.input is 2^53 (and index -1 in permalink-selected-negative.txt): read through Number() and accepted, a rounded or negative position. Fixed in src/core/share (positions are non-negative safe integers; big integers are never rounded).',
  'decodePermalink: permalink/damaged',
  craftLink(
    statePayload(
      (w) =>
        void w
          .head(5, 1)
          .text('selected')
          .head(5, 2)
          .text('input')
          .uint(2n ** 53n)
          .text('index')
          .uint(0),
    ),
  ) + '\n',
);
addFound(
  'permalink-selected-negative.txt',
  'a crafted link whose selected.index is -1 and whose viewport zoom is 0',
  'decodePermalink: permalink/damaged',
  craftLink(
    statePayload(
      (w) =>
        void w
          .head(5, 2)
          .text('selected')
          .head(5, 2)
          .text('input')
          .uint(0)
          .text('index')
          .int(-1)
          .text('viewport')
          .head(5, 3)
          .text('x')
          .uint(0)
          .text('y')
          .uint(0)
          .text('zoom')
          .uint(0),
    ),
  ) + '\n',
);
addFound(
  'permalink-duplicate-inputs.txt',
  'a crafted link whose payload map repeats inputs (an empty list after a real one): the last one silently won. Fixed in src/core/share (a repeated key is damage).',
  'decodePermalink: permalink/damaged',
  craftLink(cat(bytes(0xa5), statePayload((w) => void w.null()).subarray(1), new CborWriter().text('inputs').head(4, 0).finish())) + '\n',
);
{
  // A bundle of the html-names state with version byte 0.
  const payload = statePayload((w) => void w.null());
  const packed = cat(sha256(payload).subarray(0, 8), deflateRawSync(payload, { level: 9 }));
  addFound(
    'bundle-version-0.eibundle',
    'a bundle (EIBUNDLE magic) whose version byte is 0: it was read as v1. Fixed in src/core/share (there is no format v0, as for links).',
    'decodeBundle: permalink/not-a-link',
    cat(utf8('EIBUNDLE'), bytes(0), packed),
  );
}
addFound(
  'keys-small-order-ed25519.json',
  'a key file registering the order-8 Ed25519 point for planner: it was accepted as a key (harmless under strict verification, but a key under which permissive verifiers accept any message). Now a problem in src/core/keys.',
  'parseKeys: a problem, no key',
  JSON.stringify({ keys: [{ agent: 'planner', public_key: '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05' }] }),
);

addFound(
  'json-view-del-char.json',
  "the JSON view of an event whose source ends in a raw DEL (U+007F), legal unescaped in JSON. NOT FIXED (src/core/inspect.ts, another engineer's): the sniffer's TEXTUAL regex leaves out U+007F..U+009F, so the JSON is tried as CBOR.",
  'should: agdx-json, decoded (today: input/unrecognized; an it.fails test pins it)',
  `{"kind":"event","record":[1,144,0,0,0,0,0,0,0,0,0,0,0,0,0,1],"conversation":[1,144,0,0,0,0,0,0,0,0,0,0,0,0,0,2],"source":"planner\x7f","body":[123,125]}`,
);
addFound(
  'workflow-c1-control.json',
  'an AgentDNA envelope whose payload holds a raw NEL (U+0085, legal unescaped in JSON). NOT FIXED (src/core/inspect.ts): same sniffer gap as json-view-del-char.json.',
  'should: agentdna-envelope, decoded (today: input/unrecognized; an it.fails test pins it)',
  `{"from":"${DID}","payload":"line\u0085next","epoch":1,"signature":""}`,
);

{
  // Many records naming one record id (or one correlation): the causal graph picks a parent for
  // every child by filtering and sorting all records that share the id, so the work is quadratic.
  const eventWith = (i: number, shared: Uint8Array) =>
    mapOf([
      ['kind', (w) => void w.text('event')],
      ['record', (w) => void w.bytes(shared)],
      ['conversation', (w) => void w.bytes(id(i % 3))],
      ['source', (w) => void w.text('a')],
      ['cause', (w) => void w.bytes(shared)],
      ['body', (w) => void w.bytes(bytes(1))],
    ]);
  const shared = id(7);
  addFound(
    'graph-shared-cause.cborseq',
    "a CBOR sequence of 1,000 events that all have the same record id and name it as their cause. NOT FIXED (src/core/graph/agdx.ts, another engineer's): pick() filters and sorts every record sharing the id for each child, O(n² log n): 1,000 records take about 1 s, 8,000 (840 KB) about 27 s.",
    'decoded, 1,000 records; should take milliseconds (an it.fails test under npm run fuzz pins the quadratic time)',
    cat(...Array.from({ length: 1000 }, (_, i) => eventWith(i, shared))),
  );
  const withCorrelation = (i: number) =>
    mapOf([
      ['kind', (w) => void w.text(i % 2 ? 'command' : 'response')],
      ['record', (w) => void w.bytes(cat(bytes(i >> 8, i & 255), new Uint8Array(14)))],
      ['conversation', (w) => void w.bytes(shared)],
      ['source', (w) => void w.text('a')],
      ['correlation', (w) => void w.bytes(shared)],
      ['body', (w) => void w.bytes(bytes(1))],
    ]);
  addFound(
    'graph-shared-correlation.cborseq',
    'a CBOR sequence of 2,000 commands and responses sharing one correlation. NOT FIXED (src/core/graph/agdx.ts): commandFor() runs pick() over all the commands of that correlation for every response, quadratic: 16,000 records (1.5 MB) take about 18 s.',
    'decoded, 2,000 records; should take milliseconds',
    cat(...Array.from({ length: 2000 }, (_, i) => withCorrelation(i))),
  );
}

{
  // A card history whose policy is rewritten in every version: each diff used an n × m LCS table.
  const versions = Array.from({ length: 30 }, (_, v) => ({
    type: 'actor_card',
    id: DID,
    policy: toBase64(utf8(Array.from({ length: 2000 }, (_, i) => ((i * 7 + v) % 13).toString(36)).join('\n'))),
  }));
  addFound(
    'card-history-rewritten-policies.json',
    'a card history of 30 versions of one agent card, each with a 2,000-line policy unlike the one before: lineDiff filled a 2,000 × 2,000 LCS table per version (100 versions, 537 KB, took 18.6 s). Fixed then in src/core/agentdna/cards.ts; the line diff is now src/core/compare/lines.ts over src/core/compare/align.ts (common first and last lines matched directly, the shortest edit script (Myers) with its edits bounded linearly, past the bound a replacement).',
    'decoded, 30 agentdna.card records, in milliseconds',
    JSON.stringify(versions),
  );
}

addFound(
  'json-huge-integer.json',
  "an AgentDNA envelope whose epoch is an integer of 100,000 digits: readJson made a bigint of every integer literal, more than linear in its length (4 MB of digits: 0.7 s to read, 5 s through the AgentDNA path; 100 MB: minutes). Fixed in src/core/json/lossless.ts: more than 4,300 digits is json/invalid, the limit Python's json.loads applies.",
  'json/invalid at the number, in milliseconds',
  `{"from":"${DID}","payload":"p","epoch":${'9'.repeat(100_000)},"signature":""}`,
);

// ---------------------------------------------------------------------------------------------

function le32(n: number): Uint8Array {
  return bytes(n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff);
}

/** An event envelope whose kind appears twice. */
function dupKind(): Uint8Array {
  return mapOf([
    ['kind', (w) => void w.text('event')],
    ...eventFields([], ['body']).slice(1),
    ['kind', (w) => void w.text('command')],
    ['body', (w) => void w.bytes(utf8('{}'))],
  ]);
}

// Write everything: the corpus is exactly what this script makes.
for (const dir of [OUT, `${OUT}found/`]) {
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir, { withFileTypes: true })) if (f.isFile() && f.name !== 'ORIGIN.md') rmSync(dir + f.name);
}
for (const f of files) writeFileSync(OUT + f.name, f.bytes);
for (const f of found) writeFileSync(`${OUT}found/${f.name}`, f.bytes);

const row = (f: Entry, prefix = '') => `| ${prefix}${f.name} | ${f.bytes.length} | ${f.what.replace(/\|/g, '\\|')} | ${f.expect.replace(/\|/g, '\\|')} |`;
const origin = `# Origin
Made for this project by \`scripts/make-hostile.ts\` (deterministic: running it again rewrites the
same bytes; do not edit these files by hand). Each file is an input an attacker could hand the
inspector. \`src/core/fuzz/hostile.fuzz.test.ts\` feeds every one through \`inspect\` (and through
\`parseKeys\`, \`decodePermalink\` or \`decodeBundle\` where the name says so) and checks the answer
in the last column: records with verdicts or report.md error codes, never an exception, and no
decoded value silently changed.

What is not stored here, because the tests build it (so the corpus stays small):
- every laser fixture (\`../agdx/laser-wire-0.0.1/*.bin\`) cut at every byte and with each single bit
  flipped (\`envelope.fuzz.test.ts\`);
- JSON nested 100,000 deep and a 100 MB JSON string (\`json.fuzz.test.ts\`); strings of 4 MB (100 MB under
  \`npm run fuzz\`) in an envelope's JSON view, an AgentDNA payload and an Iggy payload (\`hostile.fuzz.test.ts\`);
- a 65 MiB deflate bomb behind a permalink (\`permalink.fuzz.test.ts\`);
- a 16 MB CBOR array of 16,777,216 items, alone and in a sequence (\`hostile.fuzz.test.ts\`);
- a CBOR sequence of 5,000 envelopes (\`inspect.fuzz.test.ts\`).

The AgentDNA DID used is the public test DID of \`../agentdna/synthetic/synthetic_keys.json\`; the
Ed25519 key in keys-weak.json is the public test seed 32 × 0x07. Never use them for anything else.

| file | bytes | what it is | what the inspector must answer |
| --- | --- | --- | --- |
${files.map((f) => row(f)).join('\n')}

## found/
Inputs the fuzz suite found. Each is a real bug: the line says where it was and how it is fixed, or,
in files another engineer owns, where it is (NOT FIXED: reported, and pinned by an it.fails test).

| file | bytes | what it is | what the inspector must answer |
| --- | --- | --- | --- |
${found.map((f) => row(f, 'found/')).join('\n')}
`;
writeFileSync(`${OUT}ORIGIN.md`, origin);
const total = [...files, ...found].reduce((n, f) => n + f.bytes.length, 0);
console.log(`${files.length} files and ${found.length} in found/, ${total} bytes`);
