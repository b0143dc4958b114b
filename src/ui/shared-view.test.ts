import { describe, expect, it } from 'vitest';
import { describeFilter, filterFromLink, filterToLink, hiddenWords, ignoredFilters, keysWords, redactionWords, sameFilter, viewportWords } from './shared-view';

describe('what a link preset, in words', () => {
  it('filters read as the list applies them, strings from the link escaped', () => {
    expect(describeFilter({ validity: 'valid' })).toBe('validity = valid');
    expect(describeFilter({ kind: 'response', source: 'plan', conversation: '01J', rule: 'agdx/', validity: 'invalid' })).toBe(
      'kind = response · source contains "plan" · conversation starts with 01J · validity = invalid · rule "agdx/"',
    );
    expect(describeFilter({ rule: 'agdx/matrix/correlation' })).toBe('rule "agdx/matrix/correlation"');
    expect(describeFilter({ validity: 'problem', rule: ' must ' })).toBe('any problem (not decoded, an error or a warning, or a bad signature) · rule "must"');
    expect(describeFilter({ source: 'a\u202Eb' })).toBe('source contains "a⟨U+202E⟩b"');
    expect(describeFilter({})).toBe('');
  });

  it('the count a filter hides, once it is known', () => {
    expect(hiddenWords(4, 7)).toBe('3 of 7 records hidden');
    expect(hiddenWords(0, 1)).toBe('1 of 1 record hidden');
    expect(hiddenWords(100_000, 123_456)).toBe('23,456 of 123,456 records hidden');
    expect(hiddenWords(null, 7)).toBeNull();
  });

  it("a link's filters: the list's fields come back, anything else is named as ignored", () => {
    const filters = Object.fromEntries([
      ['validity', 'valid'],
      ['kind', ''],
      ['keys', 'x'],
      ['__proto__', 'y'],
      ['a\u2066b', 'z'],
    ]);
    expect(filterFromLink(filters)).toEqual({ validity: 'valid' });
    expect(ignoredFilters(filters)).toEqual(['keys', '__proto__', 'a⟨U+2066⟩b']);
    // Inherited members are not the link's.
    expect(filterFromLink(Object.create({ validity: 'valid' }))).toEqual({});
    expect(filterToLink({ validity: 'valid', kind: undefined, source: '' })).toEqual({ validity: 'valid' });
    expect(sameFilter({ validity: 'valid' }, { validity: 'valid', kind: '' })).toBe(true);
    expect(sameFilter({ validity: 'valid' }, {})).toBe(false);
  });

  it("redaction is the sender's word, and where it does not hold the words say so", () => {
    expect(redactionWords({ redacted: false, notBlank: 0 })).toBeNull();
    expect(redactionWords({ redacted: true, notBlank: 0 })).toBe('the sender says bodies were redacted: signatures over them cannot be re-checked.');
    expect(redactionWords({ redacted: true, notBlank: 1 })).toMatch(
      /But 1 record of the link has a body that is not blank: the claim does not hold for it, and its verdict is over the bodies as received\.$/,
    );
  });

  it("a link brings no keys: trust is the registry's", () => {
    expect(keysWords(0)).toBe(
      'none: a link never carries keys. Signatures are trusted only as your own registry backs them (it is empty, so nothing is trusted).',
    );
    expect(keysWords(1)).toMatch(/\(1 entry\)\.$/);
    expect(keysWords(3)).toMatch(/\(3 entries\)\.$/);
  });
});

describe('viewportWords: the banner names a preset graph viewport', () => {
  it('says where the Graph tab opens, or that it opens fitted', () => {
    expect(viewportWords(null)).toBe('none: the Graph tab opens fitted to the graph.');
    expect(viewportWords({ x: -10000.123, y: 5, zoom: 0.8 })).toBe(
      'the Graph tab opens at x -10000.12, y 5, zoom 0.8, as the sender left it (a viewport that shows no node of the graph is fitted to the graph instead, and says so).',
    );
  });
});
