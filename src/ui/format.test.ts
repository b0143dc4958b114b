import { describe, expect, it } from 'vitest';
import { displayText, groupDigits } from './format';

describe('groupDigits', () => {
  it('groups by thousands like en-US', () => {
    for (const n of [0, 7, 999, 1000, 12345, 100000, 1234567, -1, -1000, -987654321, 2 ** 53]) {
      expect(groupDigits(n), String(n)).toBe(n.toLocaleString('en-US'));
    }
  });
});

describe('displayText', () => {
  it('writes every bidi control visibly: a name cannot pass itself off as another', () => {
    expect(displayText('invoice\u202Egpj.cbor')).toBe('invoice⟨U+202E⟩gpj.cbor');
    for (const c of ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C']) {
      expect(displayText(`a${c}b`)).toBe(`a⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩b`);
    }
  });

  it('writes C0, DEL, C1 and line separators visibly; leaves every other character as it is', () => {
    expect(displayText('a\nb\rc\td\u0000e\u001bf\u007fg\u0085h\u009fi\u2028j\u2029k')).toBe('a⟨U+000A⟩b⟨U+000D⟩c⟨U+0009⟩d⟨U+0000⟩e⟨U+001B⟩f⟨U+007F⟩g⟨U+0085⟩h⟨U+009F⟩i⟨U+2028⟩j⟨U+2029⟩k');
    const fine = 'planner → café ✓ 😀 مرحبا שלום 日本 ⟨U+202E⟩';
    expect(displayText(fine)).toBe(fine);
    expect(displayText('')).toBe('');
  });

  it('nothing unsafe survives, whatever the string (every code unit below U+3000)', () => {
    let all = '';
    for (let c = 0; c < 0x3000; c++) all += String.fromCharCode(c);
    expect(displayText(all)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  });

  it('misuse is a TypeError', () => {
    expect(() => displayText(7 as unknown as string)).toThrow(TypeError);
  });
});
