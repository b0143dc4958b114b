import { describe, expect, it } from 'vitest';
import { utf8Encode } from '../bytes';
import { policyChange } from './policy';
import { diffValues } from './structure';
import { jsonBytesValue, type DiffValue } from './value';

const json = (v: unknown): DiffValue => jsonBytesValue(utf8Encode(JSON.stringify(v)))!;
/** The rows that are not the same, as "status path: a → b". */
const changes = (a: unknown, b: unknown) =>
  diffValues(json(a), json(b))
    .rows.filter((r) => r.status !== 'same')
    .map((r) => `${r.status} ${r.path}: ${r.a ?? '∅'} → ${r.b ?? '∅'}`);

describe('diffValues', () => {
  it('maps: members added, removed and changed, nested, in the order of A with B’s new members where B has them', () => {
    expect(changes({ a: 1, b: { c: 2, d: 3 }, e: 4 }, { a: 1, x: 0, b: { c: 2, d: 5 }, f: 6 })).toEqual([
      'added x: ∅ → 0',
      'changed b: {2 entries} → {2 entries}',
      'changed b.d: 3 → 5',
      'removed e: 4 → ∅',
      'added f: ∅ → 6',
    ]);
    const d = diffValues(json({ a: 1, b: { c: 2 } }), json({ a: 1, b: { c: 2 } }));
    expect(d.counts).toEqual({ added: 0, removed: 0, changed: 0 });
    expect(d.rows.map((r) => [r.path, r.status])).toEqual([
      ['a', 'same'],
      ['b', 'same'],
      ['b.c', 'same'],
    ]);
  });

  it('lists are aligned: one item put in is one row added, not every later item changed', () => {
    expect(changes({ p: ['read', 'list', 'write'] }, { p: ['read', 'admin', 'list', 'write'] })).toEqual([
      'changed p: [3 items] → [4 items]',
      'added p[1]: ∅ → "admin"',
    ]);
    expect(changes({ p: ['read', 'write'] }, { p: ['read', 'admin'] })).toEqual([
      'changed p: [2 items] → [2 items]',
      'removed p[1]: "write" → ∅',
      'added p[1]: ∅ → "admin"',
    ]);
    // Maps facing each other in a list are compared member by member.
    expect(changes({ rules: [{ r: 'db', allow: true }, { r: 'fs' }] }, { rules: [{ r: 'db', allow: false }, { r: 'fs' }] })).toEqual([
      'changed rules: [2 items] → [2 items]',
      'changed rules[0]: {2 entries} → {2 entries}',
      'changed rules[0].allow: true → false',
    ]);
  });

  it('counts changes where they start, and lists what an added map holds', () => {
    const d = diffValues(json({ a: 1 }), json({ a: 2, n: { x: 1, y: [1, 2] } }));
    expect(d.counts).toEqual({ added: 1, removed: 0, changed: 1 });
    expect(d.changes).toEqual([
      { path: 'a', status: 'changed' },
      { path: 'n', status: 'added' },
    ]);
    expect(d.rows.filter((r) => r.status === 'added').map((r) => r.path)).toEqual(['n', 'n.x', 'n.y', 'n.y[0]', 'n.y[1]']);
  });

  it('a value of another kind is one changed row; exact numbers by their text; duplicate keys as json.loads keeps them', () => {
    expect(changes({ a: [1] }, { a: { b: 1 } })).toEqual(['changed a: [1 item] → {1 entry}']);
    const big = (n: string) => jsonBytesValue(utf8Encode(`{"n": ${n}}`))!;
    expect(diffValues(big('9007199254740993'), big('9007199254740992')).counts.changed).toBe(1);
    expect(diffValues(jsonBytesValue(utf8Encode('{"a": 1, "a": 2}'))!, json({ a: 2 })).counts.changed).toBe(0);
    expect(changes([1, 2], [1, 3])).toEqual(['changed (value): [2 items] → [2 items]', 'removed (value)[1]: 2 → ∅', 'added (value)[1]: ∅ → 3']);
  });

  it('keeps at most maxRows rows and counts the rest', () => {
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    const d = diffValues(json(many), json({}), { maxRows: 10 });
    expect(d.rows).toHaveLength(10);
    expect(d.omitted).toBe(40);
    expect(d.counts.removed).toBe(50);
  });

  it('throws on misuse', () => {
    expect(() => diffValues('x' as never, null)).toThrow(TypeError);
  });
});

describe('policyChange', () => {
  it('a one-line JSON policy: which permissions were added or removed and which values changed, not "+1 −1 lines"', () => {
    const before = JSON.stringify({ permissions: ['read', 'write'], limits: { max_tokens: 1000 } });
    const after = JSON.stringify({ permissions: ['read', 'admin'], limits: { max_tokens: 2000 }, network: false });
    const c = policyChange(before, after);
    expect(c.reading).toBe('json');
    expect(c.summary).toBe('policy: 2 added, 1 removed, 1 changed');
    expect(c.detail.split('\n')).toEqual([
      'removed  permissions[1]: "write"',
      'added    permissions[1]: "admin"',
      'changed  limits.max_tokens: 1000 → 2000',
      'added    network: false',
    ]);
  });

  it('the same JSON laid out differently is unchanged; text falls back to lines', () => {
    expect(policyChange('{"a":1}', '{ "a": 1 }')).toMatchObject({ reading: 'json', unchanged: true, summary: 'policy unchanged (layout only)' });
    const t = policyChange('allow: read\ndeny: write\n', 'allow: read\nallow: write\n');
    expect(t).toMatchObject({ reading: 'lines', summary: 'policy +1 −1 lines' });
    expect(t.detail).toContain('-deny: write');
    expect(t.detail).toContain('+allow: write');
    // JSON before, text after: lines.
    expect(policyChange('{"a":1}', 'a: 1').reading).toBe('lines');
    // The same text is unchanged without being read as JSON.
    expect(policyChange('{"a":1}', '{"a":1}')).toEqual({ reading: 'lines', summary: 'policy unchanged', heading: 'unchanged', detail: '', unchanged: true });
  });
});
