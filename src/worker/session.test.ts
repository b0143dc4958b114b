import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, type CliIo } from '../cli/main';
import { parseKeys } from '../core/keys/keys';
import type { Report } from '../core/report';
import { InspectorSession } from './session';

const root = resolve(__dirname, '../..');
const files = [
  'vectors/agdx/made/signed_command.bin',
  'vectors/agdx/made/signed_by_other_agent.bin',
  'vectors/agdx/made/signed_context_mismatch_http_v07.json',
  'vectors/agdx/laser-wire-0.0.1/agent_command_signed.bin',
  'vectors/agdx/laser-wire-0.0.1/agent_command.bin',
  'vectors/agdx/laser-wire-0.0.1/agent_dead_letter.bin',
];
const keysPath = 'vectors/agdx/made/keys.json';
const read = (p: string) => new Uint8Array(readFileSync(resolve(root, p)));

async function cliReport(args: string[]): Promise<Report> {
  let out = '';
  const io: CliIo = { readFile: async (p) => read(p), readStdin: async () => new Uint8Array(), stdout: (t) => (out += t), stderr: () => {} };
  await run(args, io);
  return JSON.parse(out);
}

describe('the app (worker session) and the CLI agree', () => {
  it('gives the same signature verdicts for the same files and keys', async () => {
    const session = new InspectorSession();
    session.setKeys(parseKeys(read(keysPath)).keys);
    const { records } = await session.load(files.map((f) => ({ name: f, bytes: read(f).buffer as ArrayBuffer })));
    const report = await cliReport(['inspect', '--json', '--keys', keysPath, ...files]);
    expect(records.map((r) => [r.signature, r.trusted, r.valid, r.decoded])).toEqual(report.records.map((r) => [r.signature.status, r.signature.trusted, r.valid, r.decoded]));
    expect(records.map((r) => r.signature)).toEqual(['valid', 'valid', 'valid', 'unknown_key', 'unsigned', 'unsigned', 'unsigned']);
    expect(records.map((r) => r.trusted)).toEqual([true, false, false, false, false, false, false]);
  });

  it('re-verifies loaded records when the keys change, and reports what changed', async () => {
    const session = new InspectorSession();
    await session.load([{ name: 'signed', bytes: read('vectors/agdx/made/signed_command.bin').buffer as ArrayBuffer }]);
    expect(session.detail(0)!.signature.status).toBe('unknown_key');
    const changed = session.setKeys(parseKeys(read(keysPath)).keys);
    expect(changed.map((c) => [c.key, c.signature, c.trusted])).toEqual([[0, 'valid', true]]);
    const detail = session.detail(0)!;
    expect(new TextDecoder().decode(detail.signing!.domain)).toBe('agdx.signature.v1');
    expect(session.setKeys([]).map((c) => c.signature)).toEqual(['unknown_key']);
  });
});
