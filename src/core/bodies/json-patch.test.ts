// RFC 6902 as json-patch.ts applies it: each operation, the failures a bad path or a failed test
// gives (a verdict, never a throw), atomicity, and that the document given is never changed.
import { describe, expect, it } from 'vitest';
import type { Json, PatchOp } from '../agdx/shapes';
import { applyPatch, jsonEqual } from './json-patch';

/** A document as the body readers make it: objects without a prototype. */
function doc(v: unknown): Json {
  if (Array.isArray(v)) return v.map(doc);
  if (v !== null && typeof v === 'object') {
    const out = Object.create(null) as { [k: string]: Json };
    for (const [k, x] of Object.entries(v)) out[k] = doc(x);
    return out;
  }
  return v as Json;
}

const ok = (document: unknown, patch: PatchOp[]) => {
  const r = applyPatch(doc(document), patch);
  if (!r.ok) throw new Error(`expected the patch to apply, it failed at ${r.operation}: ${r.reason}`);
  return JSON.parse(JSON.stringify(r.document));
};
const failure = (document: unknown, patch: PatchOp[]) => {
  const r = applyPatch(doc(document), patch);
  if (r.ok) throw new Error(`expected the patch to fail, it gave ${JSON.stringify(r.document)}`);
  return r;
};

describe('add', () => {
  it('adds a member, replaces an existing one, and inserts into an array at an index or at its end', () => {
    expect(ok({ a: 1 }, [{ op: 'add', path: '/b', value: 2 }])).toEqual({ a: 1, b: 2 });
    expect(ok({ a: 1 }, [{ op: 'add', path: '/a', value: 3 }])).toEqual({ a: 3 });
    expect(ok({ xs: [1, 3] }, [{ op: 'add', path: '/xs/1', value: 2 }])).toEqual({ xs: [1, 2, 3] });
    expect(ok({ xs: [1] }, [{ op: 'add', path: '/xs/-', value: 2 }])).toEqual({ xs: [1, 2] });
    expect(ok({ xs: [1] }, [{ op: 'add', path: '/xs/1', value: 2 }])).toEqual({ xs: [1, 2] });
    expect(ok({ a: 1 }, [{ op: 'add', path: '', value: [true] }])).toEqual([true]);
  });
  it('reads ~1 as / and ~0 as ~ in a pointer', () => {
    expect(ok({}, [{ op: 'add', path: '/a~1b~0c', value: 1 }])).toEqual({ 'a/b~c': 1 });
  });
  it('fails when the parent is missing, the index is past the end or not an index', () => {
    expect(failure({}, [{ op: 'add', path: '/a/b', value: 1 }]).reason).toBe('/a/b: no member "a"');
    expect(failure({ xs: [1] }, [{ op: 'add', path: '/xs/2', value: 1 }]).reason).toMatch(/"2" is not an index of an array of 1/);
    expect(failure({ xs: [1] }, [{ op: 'add', path: '/xs/01', value: 1 }]).reason).toMatch(/"01" is not an index/);
    expect(failure({ a: 'text' }, [{ op: 'add', path: '/a/b', value: 1 }]).reason).toMatch(/its parent is a string/);
  });
  it('keeps __proto__ an ordinary member', () => {
    const r = applyPatch(doc({}), [{ op: 'add', path: '/__proto__', value: doc({ polluted: true }) }]);
    expect(r.ok && Object.keys(r.document as object)).toEqual(['__proto__']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe('remove', () => {
  it('removes a member or an array element', () => {
    expect(ok({ a: 1, b: 2 }, [{ op: 'remove', path: '/a' }])).toEqual({ b: 2 });
    expect(ok({ xs: [1, 2, 3] }, [{ op: 'remove', path: '/xs/1' }])).toEqual({ xs: [1, 3] });
  });
  it('fails on a missing target, "-", and the whole document', () => {
    expect(failure({ a: 1 }, [{ op: 'remove', path: '/b' }]).reason).toBe('/b: no member "b"');
    expect(failure({ xs: [1] }, [{ op: 'remove', path: '/xs/-' }]).reason).toBe('/xs/-: no element "-" in an array of 1');
    expect(failure({ a: 1 }, [{ op: 'remove', path: '' }]).reason).toMatch(/the whole document cannot be removed/);
  });
});

describe('replace', () => {
  it('replaces a member, an element, or the whole document', () => {
    expect(ok({ step: 'search' }, [{ op: 'replace', path: '/step', value: 'book' }])).toEqual({ step: 'book' });
    expect(ok({ xs: [1, 2] }, [{ op: 'replace', path: '/xs/0', value: 9 }])).toEqual({ xs: [9, 2] });
    expect(ok({ a: 1 }, [{ op: 'replace', path: '', value: 'all' }])).toBe('all');
  });
  it('keeps a replaced member in its place among the others', () => {
    expect(Object.keys(ok({ a: 1, b: 2 }, [{ op: 'replace', path: '/a', value: 3 }]))).toEqual(['a', 'b']);
  });
  it('fails when the target does not exist (replace never adds)', () => {
    expect(failure({ a: 1 }, [{ op: 'replace', path: '/b', value: 2 }]).reason).toBe('/b: no member "b"');
    expect(failure({ xs: [] }, [{ op: 'replace', path: '/xs/0', value: 2 }]).reason).toBe('/xs/0: no element "0" in an array of 0');
  });
});

describe('move', () => {
  it('moves a member to another place, and an element within its array', () => {
    expect(ok({ a: { b: 1 }, c: {} }, [{ op: 'move', from: '/a/b', path: '/c/d' }])).toEqual({ a: {}, c: { d: 1 } });
    expect(ok({ xs: [1, 2, 3] }, [{ op: 'move', from: '/xs/0', path: '/xs/2' }])).toEqual({ xs: [2, 3, 1] });
    expect(ok({ a: 1 }, [{ op: 'move', from: '/a', path: '/a' }])).toEqual({ a: 1 });
  });
  it('fails on a missing source and on a move into its own child', () => {
    expect(failure({}, [{ op: 'move', from: '/a', path: '/b' }]).reason).toBe('/a: no member "a"');
    expect(failure({ a: { b: {} } }, [{ op: 'move', from: '/a', path: '/a/b/c' }]).reason).toBe('/a cannot be moved into its own child /a/b/c');
  });
});

describe('copy', () => {
  it('copies a value, which later operations then change apart from its source', () => {
    expect(
      ok({ a: { n: 1 } }, [
        { op: 'copy', from: '/a', path: '/b' },
        { op: 'replace', path: '/b/n', value: 2 },
      ]),
    ).toEqual({ a: { n: 1 }, b: { n: 2 } });
  });
  it('fails on a missing source', () => {
    expect(failure({ a: 1 }, [{ op: 'copy', from: '/z', path: '/b' }]).reason).toBe('/z: no member "z"');
  });
});

describe('test', () => {
  it('passes when the value is equal (objects by their members, whatever their order)', () => {
    expect(ok({ a: { x: 1, y: [1, 2] } }, [{ op: 'test', path: '/a', value: doc({ y: [1, 2], x: 1 }) }])).toEqual({ a: { x: 1, y: [1, 2] } });
  });
  it('fails, saying what the value is, when it is not equal or not there', () => {
    expect(failure({ a: 1 }, [{ op: 'test', path: '/a', value: '1' }]).reason).toBe('/a is 1, not "1"');
    expect(failure({ a: [1, 2] }, [{ op: 'test', path: '/a', value: [2, 1] }]).reason).toBe('/a is [1,2], not [2,1]');
    expect(failure({}, [{ op: 'test', path: '/a', value: null }]).reason).toBe('/a: no member "a"');
  });
  it('compares as RFC 6902 §4.6 says', () => {
    expect(jsonEqual(doc({ a: 1 }), doc({ a: 1, b: 2 }))).toBe(false);
    expect(jsonEqual(doc([]), doc({}))).toBe(false);
    expect(jsonEqual(null, doc({}))).toBe(false);
  });
});

describe('a patch', () => {
  it('applies its operations in order, each to what the one before made', () => {
    expect(
      ok({ step: 'search', flights: [] }, [
        { op: 'replace', path: '/step', value: 'book' },
        { op: 'add', path: '/flights/-', value: 'TP1351' },
      ]),
    ).toEqual({ step: 'book', flights: ['TP1351'] });
  });
  it('is atomic: a failed operation is named by its index and the document given is unchanged', () => {
    const before = doc({ a: 1 });
    const r = applyPatch(before, [
      { op: 'add', path: '/b', value: 2 },
      { op: 'remove', path: '/nope' },
    ]);
    expect(r).toEqual({ ok: false, operation: 1, reason: '/nope: no member "nope"' });
    expect(JSON.parse(JSON.stringify(before))).toEqual({ a: 1 });
  });
  it('never changes the document it is given when it applies', () => {
    const before = doc({ xs: [1] });
    ok(before, [{ op: 'add', path: '/xs/-', value: 2 }]);
    applyPatch(before, [{ op: 'add', path: '/xs/-', value: 2 }]);
    expect(JSON.parse(JSON.stringify(before))).toEqual({ xs: [1] });
  });
  it('says a path that is not a JSON Pointer is not one', () => {
    expect(failure({ a: 1 }, [{ op: 'remove', path: 'a' }]).reason).toBe('"a" is not a JSON Pointer: it must be empty or start with "/"');
    expect(failure({ a: 1 }, [{ op: 'remove', path: '/a~2' }]).reason).toMatch(/"~" must be followed by 0 or 1/);
  });
  it('throws a TypeError when it is not given an array of operations (misuse, not bad data)', () => {
    expect(() => applyPatch(doc({}), {} as unknown as PatchOp[])).toThrow(TypeError);
  });
});
