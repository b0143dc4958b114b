// An Iggy binary user-header block and its payload: the vectors' readings are golden (both
// layouts, and hex of each); a block with nothing or more than one envelope after it says so.
import { describe, expect, it } from 'vitest';
import { inspectInput } from '../inspect';
import { iggyHeaders } from './iggy-headers';
import { fixturesOf, golden, sourceOf, vector, flatInput } from '../../../test/support/import-helpers';

describe('fixtures', () => {
  it.each(fixturesOf(iggyHeaders))('%s', (file) => {
    const bytes = vector(file);
    expect(iggyHeaders.detect(sourceOf(bytes))).toMatchObject({ era: file.includes('v06') ? '<=0.6' : '>=0.7' });
    expect(golden(file, bytes)).toMatchSnapshot();
  });

  it('claims no bare envelope and no text', () => {
    expect(iggyHeaders.detect(sourceOf(vector('agdx/laser-wire-0.0.1/agent_command.bin')))).toBeNull();
    expect(iggyHeaders.detect(sourceOf(vector('agdx/iggy/record_headers_v07.hex')))).toBeNull();
  });
});

describe('the payload after the block', () => {
  const file = vector('agdx/made/iggy_headers_v07_payload.bin');
  const block = iggyHeaders.detect(sourceOf(file))!;

  it('the block alone: nothing to decode', () => {
    const bytes = file.slice(0, block.end);
    const { input, records } = flatInput(inspectInput(0, { name: 'block', bytes }));
    expect(input.format).toBe('iggy-headers(>=0.7)');
    expect(records[0]).toMatchObject({ format: 'agdx.record', decoded: false, error: { code: 'input/unrecognized', offset: block.end } });
    expect(records[0].error!.message).toMatch(/no payload after it/);
    expect(records[0].headers).toHaveLength(block.headers.length);
  });
});
