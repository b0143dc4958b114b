// What no format reads: the vectors that are JSON of no known shape, other text or unknown binary
// are golden; an empty input, broken or too deeply nested JSON and unknown text each give one
// record with a report.md code.
import { describe, expect, it } from 'vitest';
import { inspectInput } from '../inspect';
import { empty, json, text, unknown } from './fallbacks';
import { fixturesOf, flatInput, golden, only, sourceOf, utf8, vector } from '../../../test/support/import-helpers';

describe('fixtures', () => {
  it.each([...fixturesOf(json), ...fixturesOf(text), ...fixturesOf(unknown)])('%s', (file) => {
    expect(golden(file, vector(file))).toMatchSnapshot();
  });

  it('each claims only its own kind of input', () => {
    const claims = (bytes: Uint8Array) => [empty, json, text].filter((i) => i.detect(sourceOf(bytes)) !== null).map((i) => i.format);
    expect(claims(new Uint8Array(0))).toEqual(['empty', 'text']);
    expect(claims(utf8(' [1, 2'))).toEqual(['json', 'text']);
    expect(claims(utf8('hello'))).toEqual(['text']);
    expect(claims(Uint8Array.from([0xa1, 0x61, 0x61, 0x01]))).toEqual([]);
    expect(unknown.detect(sourceOf(Uint8Array.from([0xff])))).toBe(true);
  });
});

describe('one record saying why', () => {
  it('an empty input', () => {
    const { input, records } = flatInput(inspectInput(0, { name: 'empty', bytes: new Uint8Array(0) }));
    expect(input.format).toBe('empty');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ decoded: false, format: 'unknown', span: null, error: { code: 'input/unrecognized', offset: 0 } });
  });

  it('text that is nothing known → input/unrecognized', () => {
    const r = only(utf8('hello, world: not a record'));
    expect(r).toMatchObject({ decoded: false, format: 'unknown' });
    expect(r.error!.code).toBe('input/unrecognized');
  });

  it('broken JSON → json/invalid with an offset', () => {
    const r = only(utf8('{"messages": [}'));
    expect(r.error).toMatchObject({ code: 'json/invalid' });
    expect(r.error!.offset).toBe(14);
  });

  it('JSON of no known shape → input/unrecognized, spanning the document', () => {
    const { input, records } = flatInput(inspectInput(0, { name: 'json', bytes: utf8(' {"hello": 1} ') }));
    expect(input.format).toBe('json');
    expect(records[0]).toMatchObject({ span: [1, 13], error: { code: 'input/unrecognized', offset: 1 } });
  });

  it('deeply nested JSON still gives a report.md code', () => {
    const deep = utf8('['.repeat(10_000) + ']'.repeat(10_000));
    const r = only(deep);
    expect(r.decoded).toBe(false);
    // The JSON reader's own json/too-deep is not a report.md code: it is reported as json/invalid.
    expect(r.error!.code).toBe('json/invalid');
    expect(r.error!.message).toMatch(/nesting/);
    const inExport = only(utf8(`{"messages": ${'['.repeat(1000)}${']'.repeat(1000)}}`));
    expect(inExport.error!.code).toBe('json/invalid');
  });
});
