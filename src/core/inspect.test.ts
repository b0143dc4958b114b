// The entry points over the driver: every input gets its name, size and sha256, records point back
// at their input in order, one broken input never hides the others, and misuse throws. (Formats:
// the importers' own tests in src/core/import/; the driver's in import/driver.test.ts.)
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inspect, inspectInput, inspectInputBatches } from './inspect';
import { isValid } from './verdict';
import { FIXTURE_FORMATS, utf8, vector } from '../../test/support/import-helpers';

describe('inputs', () => {
  it("every fixture reads, and its sha256 is node:crypto's", () => {
    const files = Object.keys(FIXTURE_FORMATS)
      .filter((f) => f.startsWith('agdx/'))
      .map((f) => ({ name: f, bytes: vector(f) }));
    const result = inspect(files);
    expect(result.inputs).toHaveLength(files.length);
    result.inputs.forEach((input, i) => {
      expect(input.name).toBe(files[i].name);
      expect(input.bytes).toBe(files[i].bytes.length);
      expect(input.sha256).toBe(createHash('sha256').update(files[i].bytes).digest('hex'));
    });
    // Records point back at their input, in order.
    const inputsSeen = result.records.map((r) => r.verdict.input);
    expect([...inputsSeen].sort((a, b) => a - b)).toEqual(inputsSeen);
    expect(new Set(inputsSeen).size).toBe(files.length);
  });

  it('sha256 of the empty input', () => {
    const { input } = inspectInput(0, { name: 'empty', bytes: new Uint8Array(0) });
    expect(input.sha256).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it("the sha256 of a streamed input, hashed batch by batch, is the whole input's", () => {
    const bytes = vector('agdx/made/conversation.cborseq');
    const batches = [...inspectInputBatches(0, { name: 'seq', bytes }, undefined, 1)];
    expect(batches.length).toBe(7);
    expect(batches.map((b) => b.bytesDone)).toEqual([...batches.map((b) => b.bytesDone)].sort((a, b) => a - b));
    expect(batches.at(-1)!.input?.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('rejects a non-Uint8Array as a programming error', () => {
    expect(() => inspectInput(0, { name: 'x', bytes: [1, 2] as unknown as Uint8Array })).toThrow(TypeError);
    expect(() => inspectInputBatches(0, { name: 'x', bytes: [1, 2] as unknown as Uint8Array }, undefined, 1).next()).toThrow(TypeError);
  });
});

describe('one broken input never hides the others', () => {
  it('a good envelope after a broken text input still decodes', () => {
    const command = vector('agdx/laser-wire-0.0.1/agent_command.bin');
    const result = inspect([
      { name: 'broken.txt', bytes: utf8('this is neither hex nor base64 nor JSON!') },
      { name: 'broken.json', bytes: utf8('{"kind": "command", ') },
      { name: 'truncated.bin', bytes: command.slice(0, 100) },
      { name: 'good.bin', bytes: command },
    ]);
    expect(result.records.map(({ verdict: r }) => [r.input, r.decoded, r.error?.code ?? null])).toEqual([
      [0, false, 'input/unrecognized'],
      [1, false, 'json/invalid'],
      [2, false, 'cbor/truncated'],
      [3, true, null],
    ]);
    expect(result.records[3].verdict).toMatchObject({ kind: 'command', index: 0 });
    expect(isValid(result.records[3].verdict, result.log.findings.get(3))).toBe(true);
  });

  it('workflows index all the records, across inputs', () => {
    const command = vector('agdx/laser-wire-0.0.1/agent_command.bin');
    const workflow = vector('agentdna/synthetic/synthetic_valid_single_root.serialized.json');
    const result = inspect([
      { name: 'seq', bytes: new Uint8Array([...command, ...command]) },
      { name: 'wf.json', bytes: workflow },
    ]);
    expect(result.workflows.map((w) => w.record)).toEqual([2]);
    expect(result.records[2].verdict).toMatchObject({ input: 1, index: 0, format: 'agentdna.workflow' });
  });
});
