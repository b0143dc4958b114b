// The JSON view of an envelope: the vectors' readings are golden; the view of the reference command
// is that command, byte for byte once encoded; an array of views gives one record each.
import { describe, expect, it } from 'vitest';
import { encodeEnvelope } from '../agdx/canonical';
import { toHex } from '../bytes';
import { inspectInput } from '../inspect';
import { agdxJson } from './agdx-json';
import { fixturesOf, golden, sourceOf, utf8, vector, flatInput } from '../../../test/support/import-helpers';

describe('fixtures', () => {
  it.each(fixturesOf(agdxJson))('%s', (file) => {
    const bytes = vector(file);
    expect(agdxJson.detect(sourceOf(bytes))).not.toBeNull();
    expect(golden(file, bytes)).toMatchSnapshot();
  });

  it('claims an object with a kind, or with a conversation and a source, or an array of them', () => {
    const claims = (text: string) => agdxJson.detect(sourceOf(utf8(text))) !== null;
    expect(claims('{"kind": 1}')).toBe(true);
    expect(claims('{"conversation": 1, "source": 2}')).toBe(true);
    expect(claims('[{"kind": 1}, {"conversation": 1, "source": 2}]')).toBe(true);
    expect(claims('{"conversation": 1}')).toBe(false);
    expect(claims('[{"kind": 1}, {"other": 2}]')).toBe(false);
    expect(claims('[]')).toBe(false);
    expect(claims('{"kind": ')).toBe(false);
  });
});

describe('the JSON view of a record', () => {
  it('made/command.json (the JSON view, byte strings as integer arrays) is the same envelope', () => {
    const command = vector('agdx/laser-wire-0.0.1/agent_command.bin');
    const { input, records } = flatInput(inspectInput(0, { name: 'json', bytes: vector('agdx/made/command.json') }));
    expect(input.format).toBe('agdx-json');
    expect(records[0]).toMatchObject({ format: 'agdx.envelope', decoded: true, valid: true, kind: 'command', id: '01J0Y1ZAG00000000000000001' });
    expect(toHex(encodeEnvelope(records[0].envelope!))).toBe(toHex(command));
    expect(records[0].findings).toEqual([]);
  });

  it('a JSON array of envelope views gives one record each', () => {
    const view = JSON.parse(new TextDecoder().decode(vector('agdx/made/command.json')));
    const { records } = flatInput(inspectInput(0, { name: 'json', bytes: utf8(JSON.stringify([view, { ...view, kind: 'nope' }])) }));
    expect(records.map((r) => [r.index, r.decoded, r.error?.code ?? null])).toEqual([
      [0, true, null],
      [1, false, 'agdx/unknown-kind'],
    ]);
  });
});
