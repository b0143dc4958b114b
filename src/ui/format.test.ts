import { describe, expect, it } from 'vitest';
import { displayLines, displayText, formatSpan, groupDigits, middleEllipsis } from './format';

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
    expect(displayText('a\nb\rc\td\u0000e\u001bf\u007fg\u0085h\u009fi\u2028j\u2029k')).toBe(
      'a⟨U+000A⟩b⟨U+000D⟩c⟨U+0009⟩d⟨U+0000⟩e⟨U+001B⟩f⟨U+007F⟩g⟨U+0085⟩h⟨U+009F⟩i⟨U+2028⟩j⟨U+2029⟩k',
    );
    const fine = 'planner → café ✓ 😀 مرحبا שלום 日本 ⟨U+202E⟩';
    expect(displayText(fine)).toBe(fine);
    expect(displayText('')).toBe('');
  });

  it('nothing unsafe survives, whatever the string (every code unit below U+3000)', () => {
    let all = '';
    for (let c = 0; c < 0x3000; c++) all += String.fromCharCode(c);
    expect(displayText(all)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  });

  it("displayLines keeps a body's lines (tab, line feed) and writes everything else as displayText does", () => {
    expect(displayLines('{\n\t"a": "x\u202Ey\u001b[2J\u0085"\r\n}')).toBe('{\n\t"a": "x⟨U+202E⟩y⟨U+001B⟩[2J⟨U+0085⟩"⟨U+000D⟩\n}');
    let all = '';
    for (let c = 0; c < 0x3000; c++) all += String.fromCharCode(c);
    expect(displayLines(all).replace(/[\n\t]/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  });

  it('misuse is a TypeError', () => {
    expect(() => displayText(7 as unknown as string)).toThrow(TypeError);
  });
});

describe('formatSpan', () => {
  it('gives a span in hex (as the hex view numbers bytes) and in decimal', () => {
    expect(formatSpan([114, 122])).toBe('[0x72, 0x7a) 114–122');
    expect(formatSpan([0, 1])).toBe('[0x0, 0x1) 0–1');
    expect(formatSpan([4096, 70000])).toBe('[0x1000, 0x11170) 4096–70000');
  });

  it('misuse throws', () => {
    expect(() => formatSpan([1] as unknown as [number, number])).toThrow(TypeError);
    expect(() => formatSpan([-1, 2])).toThrow(TypeError);
    expect(() => formatSpan([0.5, 2])).toThrow(TypeError);
  });
});

describe('middleEllipsis', () => {
  it('keeps both ends, so names of one family stay apart', () => {
    const names = [
      'synthetic_tampered_direct_parent_payload_only.serialized.json',
      'synthetic_tampered_tip_payload.serialized.json',
      'synthetic_tampered_parent_payload_rehashed.serialized.json',
    ];
    const cut = names.map((n) => middleEllipsis(n, 44));
    expect(new Set(cut).size).toBe(names.length);
    expect(cut[0]).toBe('synthetic_tampered_dir…_only.serialized.json');
    expect(Array.from(cut[0])).toHaveLength(44);
    expect(cut[1]).toBe('synthetic_tampered_tip…yload.serialized.json');
    expect(middleEllipsis('short.bin', 36)).toBe('short.bin');
    expect(middleEllipsis('😀'.repeat(10), 5)).toBe('😀😀…😀😀');
    expect(() => middleEllipsis('x', 2)).toThrow(TypeError);
  });
});
