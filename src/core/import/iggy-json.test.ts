// Iggy HTTP exports: the vectors' readings are golden (the three eras); an export is an object
// with a messages array, or a bare array of messages of which one has a payload.
import { describe, expect, it } from 'vitest';
import { inspectInput } from '../inspect';
import { iggyJson } from './iggy-json';
import { fixturesOf, golden, sourceOf, utf8, vector, flatInput } from '../../../test/support/import-helpers';

describe('fixtures', () => {
  it.each(fixturesOf(iggyJson))('%s', (file) => {
    const bytes = vector(file);
    expect(iggyJson.detect(sourceOf(bytes))).not.toBeNull();
    expect(golden(file, bytes)).toMatchSnapshot();
  });

  it('claims an object with a messages array, or an array of messages with a payload', () => {
    const claims = (text: string) => iggyJson.detect(sourceOf(utf8(text))) !== null;
    expect(claims('{"messages": []}')).toBe(true);
    expect(claims('[{"payload": "oQ=="}, 1]')).toBe(true);
    expect(claims('{"messages": {}}')).toBe(false);
    expect(claims('[{"offset": 1}]')).toBe(false);
    expect(claims('{"messages": [')).toBe(false);
  });
});

describe('messages', () => {
  it('a bare array of messages is an export; one that is not an object is a record of its own', () => {
    const payload = Buffer.from(vector('agdx/laser-wire-0.0.1/agent_command.bin')).toString('base64');
    const { input, records } = flatInput(
      inspectInput(0, { name: 'export', bytes: utf8(JSON.stringify([{ offset: 3, timestamp: 5, payload, headers: {} }, 7])) }),
    );
    expect(input.format).toBe('iggy-json(<=0.4)');
    expect(records.map((r) => [r.index, r.format, r.kind, r.error?.code ?? null])).toEqual([
      [0, 'agdx.record', 'command', null],
      [1, 'agdx.record', null, 'input/unrecognized'],
    ]);
    expect(records[0]).toMatchObject({ logTimeMicros: 5n, logPosition: { partition: 0, offset: 3n }, viewOrigin: 'payload' });
  });

  it('an export with no message is read, and says so', () => {
    const { input, records } = flatInput(inspectInput(0, { name: 'export', bytes: utf8('{"messages": []}') }));
    expect(input.format).toBe('iggy-json(empty)');
    expect(records).toEqual([]);
  });
});
