// The command line: `run(argv, io)` with a fake io, report@1 over the fixtures, exit statuses,
// usage and I/O errors, standard input, the readable summary, and the real bin once.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Report, ReportRecord } from '../core/report';
import { run, type CliIo } from './main';
import { agdxSequence } from '../../test/support/generate';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const rel = (p: string) => `vectors/agdx/${p}`;
const abs = (p: string) => fileURLToPath(new URL(`../../vectors/agdx/${p}`, import.meta.url));

interface Fake {
  io: CliIo;
  out: string[];
  err: string[];
  reads: string[];
}

/** A CliIo over the real files (paths relative to the repo root), capturing stdout and stderr. */
function fakeIo(stdin?: Uint8Array): Fake {
  const out: string[] = [];
  const err: string[] = [];
  const reads: string[] = [];
  return {
    out,
    err,
    reads,
    io: {
      readFile: async (path) => {
        reads.push(path);
        return new Uint8Array(await readFile(path.startsWith('/') ? path : ROOT + path));
      },
      readStdin: async () => {
        if (!stdin) throw new Error('no stdin in this test');
        return stdin;
      },
      stdout: (text) => out.push(text),
      stderr: (text) => err.push(text),
    },
  };
}

async function runJson(files: string[], stdin?: Uint8Array): Promise<{ code: number; report: Report; fake: Fake }> {
  const fake = fakeIo(stdin);
  const code = await run(['inspect', '--json', ...files], fake.io);
  expect(fake.err).toEqual([]);
  expect(fake.out).toHaveLength(1);
  return { code, report: JSON.parse(fake.out[0]) as Report, fake };
}

const ALL: string[] = ['laser-wire-0.0.1/', 'iggy/', 'made/'].flatMap((dir) =>
  readdirSync(abs(dir))
    .filter((f) => !/^(ORIGIN\.md|LICENSE|NOTICE)$/.test(f))
    .map((f) => rel(dir + f)),
);

/** Expected verdicts per file: one entry per record, in order. */
type V = { format: string; decoded: boolean; valid: boolean; kind?: string | null; code?: string; errors?: string[] };
const ENV = (kind: string): V => ({ format: 'agdx.envelope', decoded: true, valid: true, kind, errors: [] });
const BAD = (kind: string, rule: string): V => ({ format: 'agdx.envelope', decoded: true, valid: false, kind, errors: [rule] });
const REC: V = { format: 'agdx.record', decoded: true, valid: true, kind: 'command', errors: [] };
const CAP = (kind: string): V => ({ format: 'agdx.capsule', decoded: true, valid: true, kind, errors: [] });
const CTL = (kind: string): V => ({ format: 'agdx.control', decoded: true, valid: true, kind, errors: [] });

const VERDICTS: Record<string, V[]> = {
  'laser-wire-0.0.1/agent_command.bin': [ENV('command')],
  'laser-wire-0.0.1/agent_command_signed.bin': [ENV('command')],
  'laser-wire-0.0.1/agent_response.bin': [ENV('response')],
  'laser-wire-0.0.1/agent_event.bin': [ENV('event')],
  'laser-wire-0.0.1/agent_chunk.bin': [ENV('chunk')],
  'laser-wire-0.0.1/agent_chunk_open.bin': [ENV('chunk')],
  'laser-wire-0.0.1/agent_chunk_terminal.bin': [ENV('chunk')],
  'laser-wire-0.0.1/agent_status_task.bin': [ENV('status')],
  'laser-wire-0.0.1/agent_status_card.bin': [ENV('status')],
  'laser-wire-0.0.1/agent_status_run_metadata.bin': [ENV('status')],
  'laser-wire-0.0.1/agent_error.bin': [ENV('error')],
  'laser-wire-0.0.1/agent_must_understand.bin': [BAD('event', 'agdx/must-understand')],
  'laser-wire-0.0.1/agent_invalid_command_no_correlation.bin': [BAD('command', 'agdx/matrix/correlation')],
  'laser-wire-0.0.1/agent_invalid_error_last.bin': [BAD('error', 'agdx/matrix/last')],
  'laser-wire-0.0.1/agent_invalid_event_task_state.bin': [BAD('event', 'agdx/matrix/task_state')],
  'laser-wire-0.0.1/agent_invalid_response_channel.bin': [BAD('response', 'agdx/matrix/channel')],
  'laser-wire-0.0.1/agent_invalid_status_bad_operation.bin': [BAD('status', 'agdx/matrix/operation')],
  'laser-wire-0.0.1/agent_invalid_status_no_operation.bin': [BAD('status', 'agdx/matrix/operation')],
  'laser-wire-0.0.1/agent_invalid_chunk_no_sequence.bin': [BAD('chunk', 'agdx/matrix/sequence')],
  'laser-wire-0.0.1/agent_invalid_chunk_open_no_operation.bin': [BAD('chunk', 'agdx/matrix/operation')],
  'laser-wire-0.0.1/agent_invalid_chunk_late_deadline.bin': [BAD('chunk', 'agdx/matrix/deadline_micros')],
  'laser-wire-0.0.1/agent_record.bin': [REC],
  'laser-wire-0.0.1/agent_dead_letter.bin': [{ format: 'agdx.dead_letter', decoded: true, valid: true, kind: null, errors: [] }, ENV('command')],
  'laser-wire-0.0.1/agent_error_body.bin': [CAP('error_body')],
  'laser-wire-0.0.1/agent_card.bin': [CAP('card')],
  'laser-wire-0.0.1/agent_body_ref.bin': [CAP('body_ref')],
  'laser-wire-0.0.1/agent_signature.bin': [CAP('signature')],
  'laser-wire-0.0.1/agent_presence.bin': [CAP('presence')],
  'laser-wire-0.0.1/agent_submit.bin': [CTL('submit')],
  'laser-wire-0.0.1/agent_list_page.bin': [CTL('list_page')],
  'laser-wire-0.0.1/agent_reply_status.bin': [CTL('reply_status')],
  'laser-wire-0.0.1/agent_reply_list_page.bin': [CTL('reply_list_page')],
  'laser-wire-0.0.1/agent_reply_error.bin': [CTL('reply_error')],
  'laser-wire-0.0.1/typescript_signature.json': [{ format: 'unknown', decoded: false, valid: false, code: 'input/unrecognized' }],
  'iggy/record_http_v07.json': [REC],
  'iggy/record_http_v06.json': [REC],
  // A header block alone: nothing to decode.
  'iggy/record_headers_v07.hex': [{ format: 'agdx.record', decoded: false, valid: false, code: 'input/unrecognized' }],
  'iggy/record_headers_v06.hex': [{ format: 'agdx.record', decoded: false, valid: false, code: 'input/unrecognized' }],
  'made/record_http_v04.json': [REC],
  'made/iggy_headers_v07_payload.bin': [REC],
  'made/iggy_headers_v06_payload.bin': [REC],
  'made/command.json': [ENV('command')],
  'made/command.hex.txt': [ENV('command')],
  'made/command.b64.txt': [ENV('command')],
  'made/conversation.cborseq': [
    ENV('command'),
    ENV('chunk'),
    ENV('chunk'),
    ENV('chunk'),
    ENV('response'),
    BAD('command', 'agdx/matrix/correlation'),
    { format: 'agdx.envelope', decoded: false, valid: false, code: 'cbor/truncated' },
  ],
  // Deadlines and clock skew are warnings and infos: every record stays valid.
  'made/deadlines.cborseq': ['command', 'command', 'response', 'command', 'chunk', 'chunk', 'chunk', 'response', 'event', 'command', 'response', 'event'].map(
    ENV,
  ),
};

const VALID_FILES = Object.entries(VERDICTS)
  .filter(([, vs]) => vs.every((v) => v.decoded && v.valid))
  .map(([f]) => rel(f));

function checkVerdicts(report: Report, file: string, records: ReportRecord[]) {
  const expected = VERDICTS[file];
  expect(
    records.map((r) => r.index),
    file,
  ).toEqual(expected.map((_, i) => i));
  records.forEach((r, i) => {
    const v = expected[i];
    const where = `${file} #${i}`;
    expect(r.format, where).toBe(v.format);
    expect(r.decoded, where).toBe(v.decoded);
    expect(r.valid, where).toBe(v.valid);
    if (v.kind !== undefined) expect(r.kind, where).toBe(v.kind);
    if (v.code) expect(r.error?.code, where).toBe(v.code);
    else expect(r.error, where).toBeNull();
    if (v.errors)
      expect(
        r.findings.filter((f) => f.severity === 'error').map((f) => f.rule),
        where,
      ).toEqual(v.errors);
  });
  expect(report.inputs[records[0].input].name).toBe(rel(file));
}

describe('inspect --json', () => {
  it('over all fixture files: report@1 with the verdicts, exit 1', async () => {
    // Every file named in the verdict table is a fixture.
    for (const f of Object.keys(VERDICTS)) expect(ALL, f).toContain(rel(f));
    const { code, report } = await runJson(ALL);
    expect(code).toBe(1);
    expect(report.schema).toBe('envelope-inspector/report@1');
    expect(report.generator).toMatch(/^envelope-inspector /);
    expect(report.inputs.map((i) => i.name)).toEqual(ALL);
    for (const input of report.inputs) {
      expect(input.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(typeof input.bytes).toBe('number');
      expect(typeof input.format).toBe('string');
    }
    expect(report.workflows).toEqual([]);
    expect(report.graph).toMatchObject({ edges: expect.any(Array), missing: expect.any(Array), cycles: expect.any(Array), streams: expect.any(Array) });
    ALL.forEach((path, i) => {
      const records = report.records.filter((r) => r.input === i);
      expect(records.length, path).toBeGreaterThan(0);
      const file = path.slice('vectors/agdx/'.length);
      if (VERDICTS[file]) checkVerdicts(report, file, records);
    });
    // The report's record fields (report.md).
    for (const r of report.records) {
      for (const k of ['input', 'index', 'format', 'span', 'decoded', 'error', 'kind', 'id', 'conversation', 'source', 'valid', 'findings', 'signature']) {
        expect(r, k).toHaveProperty(k);
      }
      for (const k of ['status', 'scheme', 'key_id', 'signer', 'trusted', 'context_match']) expect(r.signature, k).toHaveProperty(k);
    }
  });

  it('the placeholder signature is an unknown key (never valid) and the ids are Crockford', async () => {
    const { report } = await runJson([rel('laser-wire-0.0.1/agent_command_signed.bin')]);
    expect(report.records[0]).toMatchObject({
      id: '01J0Y1ZAG00000000000000001',
      conversation: '01J0Y1ZAG00000000000000002',
      source: 'source-agent',
      signature: { status: 'unknown_key', scheme: 'ed25519', key_id: '0102030405060708', trusted: false },
    });
  });

  it('over only valid fixtures: exit 0', async () => {
    expect(VALID_FILES.length).toBeGreaterThan(30);
    const { code, report } = await runJson(VALID_FILES);
    expect(code).toBe(0);
    expect(report.records.every((r) => r.decoded && r.valid)).toBe(true);
  });

  it.each([
    'laser-wire-0.0.1/agent_invalid_error_last.bin',
    'laser-wire-0.0.1/agent_must_understand.bin',
    'laser-wire-0.0.1/typescript_signature.json',
    'made/conversation.cborseq',
  ])('one bad file among valid ones makes the exit 1: %s', async (bad) => {
    const { code } = await runJson([rel('laser-wire-0.0.1/agent_command.bin'), rel(bad)]);
    expect(code).toBe(1);
  });

  it('a dead letter keeps its payload as a child record in the report', async () => {
    const { report } = await runJson([rel('laser-wire-0.0.1/agent_dead_letter.bin')]);
    expect(report.records.map((r) => [r.index, r.format, r.parent ?? null])).toEqual([
      [0, 'agdx.dead_letter', null],
      [1, 'agdx.envelope', 0],
    ]);
  });

  it('an Iggy export keeps the message span and log time', async () => {
    const { report } = await runJson([rel('iggy/record_http_v07.json')]);
    expect(report.records[0].log_time_micros).toBe('1717171717000000');
    expect(report.records[0].input_span).toEqual(expect.any(Array));
  });

  it('`-` reads standard input', async () => {
    const stdin = new Uint8Array(readFileSync(abs('laser-wire-0.0.1/agent_event.bin')));
    const { code, report, fake } = await runJson(['-'], stdin);
    expect(code).toBe(0);
    expect(fake.reads).toEqual([]);
    expect(report.inputs).toEqual([expect.objectContaining({ name: '<stdin>', bytes: stdin.length, format: 'cbor' })]);
    expect(report.records[0]).toMatchObject({ kind: 'event', decoded: true, valid: true });
  });

  it('`-` among files', async () => {
    const stdin = new Uint8Array(readFileSync(abs('laser-wire-0.0.1/agent_invalid_event_task_state.bin')));
    const { code, report } = await runJson([rel('laser-wire-0.0.1/agent_event.bin'), '-'], stdin);
    expect(code).toBe(1);
    expect(report.inputs.map((i) => i.name)).toEqual([rel('laser-wire-0.0.1/agent_event.bin'), '<stdin>']);
  });

  it('`--` ends the options', async () => {
    const fake = fakeIo();
    const code = await run(['inspect', '--json', '--', '--json'], fake.io);
    // `--json` after `--` is a file name, and it does not exist.
    expect(code).toBe(2);
    expect(fake.reads).toEqual(['--json']);
  });
});

describe('usage and I/O errors: exit 2 with a reason on stderr', () => {
  function oneLineReason(fake: Fake, pattern: RegExp) {
    expect(fake.out).toEqual([]);
    expect(fake.err).toHaveLength(1);
    const first = fake.err[0].split('\n')[0];
    expect(first).toMatch(/^envelope-inspector: /);
    expect(first).toMatch(pattern);
  }

  it('a missing file: one line naming it', async () => {
    const fake = fakeIo();
    const code = await run(['inspect', '--json', rel('laser-wire-0.0.1/agent_command.bin'), 'no/such/file.bin'], fake.io);
    expect(code).toBe(2);
    oneLineReason(fake, /no\/such\/file\.bin/);
    expect(fake.err[0]).toMatch(/ENOENT/);
    expect(fake.err[0].trimEnd().split('\n')).toHaveLength(1);
  });

  it('an unknown option', async () => {
    const fake = fakeIo();
    expect(await run(['inspect', '--jsno', rel('laser-wire-0.0.1/agent_command.bin')], fake.io)).toBe(2);
    oneLineReason(fake, /unknown option --jsno/);
    expect(fake.reads).toEqual([]);
  });

  it('no files', async () => {
    const fake = fakeIo();
    expect(await run(['inspect', '--json'], fake.io)).toBe(2);
    oneLineReason(fake, /no FILE/);
    const bare = fakeIo();
    expect(await run(['inspect'], bare.io)).toBe(2);
    oneLineReason(bare, /no FILE/);
  });

  it('no command or an unknown command', async () => {
    const none = fakeIo();
    expect(await run([], none.io)).toBe(2);
    oneLineReason(none, /no command/);
    const other = fakeIo();
    expect(await run(['verify', 'x.bin'], other.io)).toBe(2);
    oneLineReason(other, /unknown command "verify"/);
  });

  it('--help prints the usage on standard output and exits 0', async () => {
    const fake = fakeIo();
    expect(await run(['--help'], fake.io)).toBe(0);
    expect(fake.out.join('\n')).toMatch(/^usage: envelope-inspector inspect/);
    expect(fake.err).toEqual([]);
  });

  it('a failing standard input', async () => {
    const fake = fakeIo();
    expect(await run(['inspect', '-'], fake.io)).toBe(2);
    oneLineReason(fake, /cannot read -/);
  });
});

describe('trust comes only from the key files given', () => {
  // A validly signed fan-in workflow: six envelopes from four DIDs, each derived from its signing key.
  const WORKFLOW = 'vectors/agentdna/synthetic/synthetic_valid_fanin_dag.serialized.json';
  const synthetic = JSON.parse(readFileSync(ROOT + 'vectors/agentdna/synthetic/synthetic_keys.json', 'utf8')) as Record<string, { did: string }>;
  const EPOCH_FIRST = 1782668300n * 1_000_000n; // its earliest envelope epoch, in µs
  const dir = mkdtempSync(join(tmpdir(), 'ei-keys-'));
  let n = 0;
  /** Writes a key file; returns its absolute path. */
  const keyFile = (...entries: object[]) => {
    const path = join(dir, `keys-${n++}.json`);
    writeFileSync(path, JSON.stringify({ keys: entries }));
    return path;
  };
  const didFile = (fields: object = {}) => keyFile(...Object.entries(synthetic).map(([name, k]) => ({ agent: name, did: k.did, ...fields })));
  const inspectWith = async (args: string[]) => {
    const fake = fakeIo();
    const code = await run(['inspect', '--json', ...args], fake.io);
    return { code, report: JSON.parse(fake.out[0]) as Report, err: fake.err };
  };
  const envelopes = (report: Report) => (report.workflows[0] as { envelopes: { signature: string; signer: string | null; trusted: boolean }[] }).envelopes;

  it('an AgentDNA workflow with no key file is never trusted: its signatures are valid and bound, no more', async () => {
    const { code, report } = await inspectWith([WORKFLOW]);
    expect(code).toBe(0);
    expect(report.records[0].signature).toMatchObject({ status: 'valid', scheme: 'ecdsa-secp256k1', trusted: false });
    expect(report.records[0].signature.reason).toMatch(/^signature valid · key bound to DID · DID not in your registry/);
    expect(envelopes(report)).toHaveLength(6);
    for (const e of envelopes(report)) expect(e).toMatchObject({ signature: 'valid', trusted: false, signer: expect.stringMatching(/^bafybmi/) });
  });

  it('with its signer DIDs in a key file it is trusted, record and every envelope', async () => {
    const { report, err } = await inspectWith(['--keys', didFile(), WORKFLOW]);
    expect(err).toEqual([]);
    expect(report.records[0].signature).toMatchObject({ status: 'valid', trusted: true, signer: synthetic['agentdna-test-orchestrator'].did });
    expect(report.records[0].signature.reason).toMatch(/^trusted \(agentdna-test-orchestrator\)/);
    expect(envelopes(report).every((e) => e.trusted)).toBe(true);
  });

  it('with the DID marked revoked, or a window that excludes the epochs, it is not', async () => {
    const revoked = await inspectWith(['--keys', didFile({ revoked: true }), WORKFLOW]);
    expect(revoked.report.records[0].signature.trusted).toBe(false);
    expect(revoked.report.records[0].signature.reason).toContain('revoked');
    expect(envelopes(revoked.report).some((e) => e.trusted)).toBe(false);
    const closed = await inspectWith(['--keys', didFile({ not_after_micros: String(EPOCH_FIRST - 1n) }), WORKFLOW]);
    expect(closed.report.records[0].signature.trusted).toBe(false);
    expect(closed.report.records[0].signature.reason).toMatch(/epoch .* is after .* window closed/);
    expect(envelopes(closed.report).some((e) => e.trusted)).toBe(false);
  });

  it('a later key file never loosens an earlier one: the revocation stays, and stderr says so', async () => {
    const { report, err } = await inspectWith(['--keys', didFile({ revoked: true }), '--keys', didFile(), WORKFLOW]);
    expect(report.records[0].signature.trusted).toBe(false);
    expect(err).toHaveLength(4);
    expect(err[0]).toMatch(/^envelope-inspector: .*keys-\d+\.json: DID bafybmi.* is in the registry already; not applied, it would loosen it: un-revoke it$/);
  });

  it('--require-trusted: exit 1 on an unsigned valid record, 0 on a trusted signed one', async () => {
    const unsigned = rel('laser-wire-0.0.1/agent_command.bin');
    expect((await inspectWith([unsigned])).code).toBe(0);
    expect((await inspectWith(['--require-trusted', unsigned])).code).toBe(1);
    const signed = rel('made/signed_command.bin');
    expect((await inspectWith(['--require-trusted', '--keys', rel('made/keys.json'), signed])).code).toBe(0);
    // Valid but signed by a registered key of another agent: not trusted.
    expect((await inspectWith(['--require-trusted', '--keys', rel('made/keys.json'), rel('made/signed_by_other_agent.bin')])).code).toBe(1);
    // Without the key: unknown key.
    expect((await inspectWith(['--require-trusted', signed])).code).toBe(1);
    // The AgentDNA workflow: bound is not enough; registered is.
    expect((await inspectWith(['--require-trusted', WORKFLOW])).code).toBe(1);
    expect((await inspectWith(['--require-trusted', '--keys', didFile(), WORKFLOW])).code).toBe(0);
    expect((await inspectWith(['--require-trusted', '--keys', didFile({ revoked: true }), WORKFLOW])).code).toBe(1);
    // The readable summary exits the same way.
    const fake = fakeIo();
    expect(await run(['inspect', '--require-trusted', unsigned], fake.io)).toBe(1);
  });

  it('--help names --require-trusted', async () => {
    const fake = fakeIo();
    expect(await run(['--help'], fake.io)).toBe(0);
    expect(fake.out[0]).toContain('--require-trusted');
  });
});

describe('readable summary', () => {
  it('lists each input, each record and each finding', async () => {
    const files = [
      rel('laser-wire-0.0.1/agent_command.bin'),
      rel('laser-wire-0.0.1/agent_invalid_error_last.bin'),
      rel('laser-wire-0.0.1/agent_dead_letter.bin'),
      rel('made/conversation.cborseq'),
    ];
    const fake = fakeIo();
    const code = await run(['inspect', ...files], fake.io);
    expect(code).toBe(1);
    expect(fake.err).toEqual([]);
    expect(fake.out).toHaveLength(1);
    const text = fake.out[0];
    expect(() => JSON.parse(text)).toThrow();
    // The same conclusions as the JSON report.
    const { report } = await runJson(files);
    for (const input of report.inputs) expect(text).toContain(input.name);
    const lines = text.split('\n');
    for (const r of report.records) {
      const head = lines.find((l) => l.startsWith(`  #${r.index}  ${r.format}`) && (!r.kind || l.includes(r.kind)) && (!r.id || l.includes(r.id)));
      expect(head, `record ${r.input}#${r.index}`).toBeDefined();
      for (const f of r.findings) expect(text).toContain(f.rule);
      if (r.error) expect(text).toContain(`error ${r.error.code}`);
    }
    expect(text).toMatch(/decoded: yes\s+valid: yes/);
    expect(text).toMatch(/decoded: yes\s+valid: NO/);
    expect(text).toMatch(/decoded: NO/);
    expect(text).toContain('agdx/matrix/last (last)');
    expect(text).toContain('cbor/truncated');
    const total = report.records.length;
    const bad = report.records.filter((r) => !r.decoded || !r.valid).length;
    expect(text).toContain(`${total} records in ${files.length} inputs: ${total - bad} valid, ${bad} invalid or undecoded`);
  });

  it('a valid file alone: exit 0', async () => {
    const fake = fakeIo();
    expect(await run(['inspect', rel('laser-wire-0.0.1/agent_response.bin')], fake.io)).toBe(0);
    expect(fake.out[0]).toContain('1 record in 1 input: 1 valid, 0 invalid or undecoded');
  });
});

describe('deadlines and clocks', () => {
  // vectors/agdx/made/deadlines.cborseq: one conversation timed by its ULIDs (see its ORIGIN.md).
  const file = rel('made/deadlines.cborseq');

  it('the summary shows a missed deadline on the late answer, naming its command and by how much', async () => {
    const fake = fakeIo();
    // Warnings and infos: the exit stays 0.
    expect(await run(['inspect', file], fake.io)).toBe(0);
    const lines = fake.out[0].split('\n');
    const at = lines.findIndex((l) => l.startsWith('  #7  agdx.envelope  response'));
    expect(lines[at + 1]).toBe('      verdict: 1 warning');
    // The command it answers is named by its file, not by the input's number.
    expect(lines[at + 3]).toBe(
      "      warning agdx/deadline/missed (record) [1305, 1322): this response answers command record 01HZ7PJ0W8000000000000T001 (vectors/agdx/made/deadlines.cborseq #0) 2.5 s after its deadline: deadline_micros 2024-05-31T16:08:39.000Z, this response's record id's ULID time 2024-05-31T16:08:41.500Z",
    );
    const lost = lines.findIndex((l) => l.startsWith('  #3  agdx.envelope  command'));
    expect(lines[lost + 3]).toMatch(
      /^ {6}info {4}agdx\/deadline\/unanswered \(deadline_micros\) \[696, 705\): no response or error in vectors\/agdx\/made\/deadlines\.cborseq answers this command .*3\.5 s before the latest time in the input/,
    );
    expect(fake.out[0]).toMatch(
      /info {4}agdx\/graph\/clock-skew \(record\) \[\d+, \d+\): this event .* is 300 ms earlier than the record it names as its cause/,
    );
    expect(fake.out[0]).toMatch(/this response .* is 200 ms earlier than the command it answers/);
  });

  it('report@1 carries them on their records, with their spans', async () => {
    const { code, report } = await runJson([file]);
    expect(code).toBe(0);
    const findings = report.records.flatMap((r) => r.findings.map((f) => ({ index: r.index, rule: f.rule, severity: f.severity, path: f.path, span: f.span })));
    expect(findings).toEqual([
      { index: 3, rule: 'agdx/deadline/unanswered', severity: 'info', path: 'deadline_micros', span: [696, 705] },
      // The chat stream's gap at sequence 2, on the chunk that reveals it.
      { index: 6, rule: 'agdx/graph/stream-gap', severity: 'warning', path: 'sequence', span: [1270, 1271] },
      { index: 7, rule: 'agdx/deadline/missed', severity: 'warning', path: 'record', span: [1305, 1322] },
      { index: 8, rule: 'agdx/graph/clock-skew', severity: 'info', path: 'record', span: [expect.any(Number), expect.any(Number)] },
      { index: 10, rule: 'agdx/graph/clock-skew', severity: 'info', path: 'record', span: [expect.any(Number), expect.any(Number)] },
    ]);
  });
});

describe('the real bin', () => {
  it('node bin/envelope-inspector.mjs inspect --json agent_command.bin', () => {
    const stdout = execFileSync('node', ['bin/envelope-inspector.mjs', 'inspect', '--json', 'vectors/agdx/laser-wire-0.0.1/agent_command.bin'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const report = JSON.parse(stdout) as Report;
    expect(report.schema).toBe('envelope-inspector/report@1');
    expect(report.inputs[0]).toMatchObject({ name: 'vectors/agdx/laser-wire-0.0.1/agent_command.bin', bytes: 266, format: 'cbor' });
    expect(report.records).toHaveLength(1);
    expect(report.records[0]).toMatchObject({
      format: 'agdx.envelope',
      decoded: true,
      valid: true,
      kind: 'command',
      id: '01J0Y1ZAG00000000000000001',
      conversation: '01J0Y1ZAG00000000000000002',
      source: 'source-agent',
      target: 'target-agent',
      // The fixture's deadline (2024-05-31) is before its own ULID time (2024-06-21), the latest in the input.
      findings: [
        {
          rule: 'agdx/deadline/unanswered',
          severity: 'info',
          path: 'deadline_micros',
          span: [189, 198],
          message: expect.stringContaining('21 d 2 h before the latest time in the input'),
        },
      ],
    });
  }, 60_000);

  it('exit statuses of the real process: 1 for an invalid record, 2 with one stderr line for a missing file', () => {
    const invalid = spawnSync('node', ['bin/envelope-inspector.mjs', 'inspect', '--json', 'vectors/agdx/laser-wire-0.0.1/agent_invalid_error_last.bin'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(invalid.status).toBe(1);
    expect(JSON.parse(invalid.stdout).records[0].valid).toBe(false);
    const missing = spawnSync('node', ['bin/envelope-inspector.mjs', 'inspect', 'no-such-file.bin'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(missing.status).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^envelope-inspector: cannot read no-such-file\.bin: ENOENT$/)]);
  }, 60_000);

  it('standard input of the real process, read to its end (the command runs in a worker thread, where process.stdin gives nothing)', () => {
    // Larger than one read (64 KiB) and than a pipe holds at once.
    const bytes = agdxSequence(1000);
    expect(bytes.length).toBeGreaterThan(1 << 17);
    const r = spawnSync('node', ['bin/envelope-inspector.mjs', 'inspect', '--json', '-'], {
      cwd: ROOT,
      input: bytes,
      encoding: 'utf8',
      timeout: 60_000,
      maxBuffer: 1 << 30,
    });
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as Report;
    expect(report.inputs).toEqual([expect.objectContaining({ name: '<stdin>', bytes: bytes.length, format: 'cbor-seq' })]);
    expect(report.records).toHaveLength(1000);
  }, 60_000);

  it('a reader that stops early (a pipe into head): exit 2 with one line on stderr, in both formats', () => {
    // 3,000 records: a report far larger than a pipe holds, so the writer meets the closed pipe.
    const file = join(mkdtempSync(join(tmpdir(), 'ei-pipe-')), 'log.cborseq');
    writeFileSync(file, agdxSequence(3000));
    // The pipe's first status, from bash (PIPESTATUS).
    const script = 'node bin/envelope-inspector.mjs inspect "$0" "$1" | head -c 10 > /dev/null; echo "$' + '{PIPESTATUS[0]}" >&2';
    for (const format of ['--json', '--format=text']) {
      const r = spawnSync('bash', ['-c', script, format, file], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
      expect(r.stderr.trimEnd().split('\n'), format).toEqual(['envelope-inspector: cannot write the report: the output was closed (EPIPE)', '2']);
    }
  }, 60_000);
});
