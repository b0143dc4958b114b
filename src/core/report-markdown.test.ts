// The Markdown summary with hostile records: nothing a record holds becomes markup, HTML, a link,
// an image, a heading or a table cell.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Encode } from './bytes';
import { encodeEnvelope } from './agdx/canonical';
import type { Envelope } from './agdx/envelope';
import { CborWriter } from './cbor/encoder';
import { inspect } from './inspect';
import { reportPartsOf } from './report';
import { markdownText, reportToMarkdown } from './report-markdown';

/** Undoes markdownText (but for line breaks, which became spaces): every backslash escapes the punctuation after it. */
const unescapeMarkdown = (md: string) =>
  md
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&');

/** Positions of `ch` that no backslash escapes. */
function unescaped(line: string, ch: string): number {
  let n = 0;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === ch) n++;
  }
  return n;
}

/** `text` with every escaped character (a backslash and what follows) blanked: what a renderer reads as active. */
const active = (text: string) => text.replace(/\\./g, '\0\0');

describe('markdownText', () => {
  it('escapes what Markdown acts on, and only that', () => {
    expect(markdownText('<script>alert(1)</script>')).toBe('&lt;script>alert(1)&lt;/script>');
    expect(markdownText('[click](https://evil.example)')).toBe('\\[click\\](https\\://evil.example)');
    expect(markdownText('a | b')).toBe('a \\| b');
    expect(markdownText('**bold** _it_ `code` ![i](x)')).toBe('\\*\\*bold\\*\\* \\_it\\_ \\`code\\` !\\[i\\](x)');
    expect(markdownText('one\ntwo\r\nthree\rfour')).toBe('one two three four');
    expect(markdownText('Tom & Jerry &amp; &#60;')).toBe('Tom & Jerry &amp;amp; &amp;#60;');
    expect(markdownText('planner')).toBe('planner');
    // What the issue saw over-escaped: an input format, a version, a path, a sentence.
    expect(markdownText('iggy-json(>=0.7)')).toBe('iggy-json(>=0.7)');
    expect(markdownText('agent_version 1.2.0, see docs/report.md (section 3).')).toBe('agent\\_version 1.2.0, see docs/report.md (section 3).');
    // Where a block starts, and autolinks.
    expect(markdownText('# Heading')).toBe('\\# Heading');
    expect(markdownText('- item')).toBe('\\- item');
    expect(markdownText('> quote')).toBe('\\> quote');
    expect(markdownText('12. twelve')).toBe('12\\. twelve');
    expect(markdownText('a - b # c')).toBe('a - b # c');
    expect(markdownText('see www.evil.example or me@evil.example or ftp://x')).toBe('see www\\.evil.example or me\\@evil.example or ftp\\://x');
    expect(markdownText('$x$ ~~gone~~')).toBe('\\$x\\$ \\~\\~gone\\~\\~');
    expect(() => markdownText(null as unknown as string)).toThrow(TypeError);
  });

  it('leaves no active character unescaped, no line break, and loses nothing (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 60 }), (s) => {
        const md = markdownText(s);
        expect(md).not.toMatch(/[\r\n<]/);
        for (const ch of '`*_[]|~$<') expect(unescaped(md, ch)).toBe(0);
        const a = active(md);
        expect(a).not.toMatch(/[A-Za-z]:\/\//);
        expect(a).not.toMatch(/\bwww\./i);
        expect(a).not.toMatch(/[A-Za-z0-9._%+-]@[A-Za-z0-9]/);
        expect(a).not.toMatch(/^\s*([#>+=-]|\d+[.)])/);
        // The only entities are markdownText's own: every other & that could start one is &amp;.
        expect(a).not.toMatch(/&(?!amp;|lt;)#?[0-9A-Za-z]+;/);
        expect(unescapeMarkdown(md)).toBe(s.replace(/\r\n|[\r\n]/g, ' '));
      }),
      { numRuns: 500, seed: 14 },
    );
  });
});

const HOSTILE =
  'x | </td><script>alert(1)</script> [click](https://evil.example) ![img](https://evil.example/i.png) **bold** _it_ `code` <img src=x onerror=alert(1)>\n# Heading\n| fake | row |\nwww.evil.example me@evil.example';

function report(text: string) {
  const env: Envelope = {
    kind: 'command',
    record: new Uint8Array(16).fill(1),
    conversation: new Uint8Array(16).fill(2),
    source: text,
    target: text,
    correlation: new Uint8Array(16).fill(3),
    metadata: new Map([['note', { type: 'text', value: text }]]),
    body: utf8Encode('{}'),
    signature: { scheme: 1, key_id: new Uint8Array(8), bytes: new Uint8Array(64) },
  };
  const bytes = encodeEnvelope(env);
  // An unknown field named by the text: findings and not_covered repeat its name.
  const agdx = new CborWriter()
    .raw(bytes[0] + 1)
    .append(bytes.subarray(1))
    .text(text)
    .text(text)
    .finish();
  const workflow = utf8Encode(
    JSON.stringify({
      type: 'intent_workflow',
      id: text,
      envelope: { from: text, payload: text, epoch: 1, hash: text, signature: 'ab', parent_envelope: [{ from: text, payload: 'p', epoch: 1, hash: text }] },
    }),
  );
  return reportToMarkdown(
    reportPartsOf(
      inspect([
        { name: `${text}.cbor`, bytes: agdx },
        { name: `${text}.json`, bytes: workflow },
      ]),
    ),
  );
}

describe('the Markdown summary of a hostile record', () => {
  const benign = report('planner');
  const hostile = report(HOSTILE);

  it('holds the hostile text only escaped', () => {
    expect(hostile).toContain(markdownText(HOSTILE));
    expect(hostile).not.toMatch(/</);
    // No link or image: every bracket is escaped, so `](` never follows an unescaped `]`.
    expect(active(hostile)).not.toContain('](');
    expect(hostile).not.toContain('https://');
    expect(hostile).not.toContain('www.evil');
    expect(hostile).not.toMatch(/^#+ Heading/m);
    // The record holds a link; the summary says which fields its signature does not cover.
    expect(hostile).toContain('## Not covered by the signature');
  });

  it("keeps its own structure: headings, table cells, emphasis and code are only the summary's", () => {
    for (const md of [benign, hostile]) {
      let columns = 0;
      for (const line of md.split('\n')) {
        if (line.startsWith('#'))
          expect(line).toMatch(
            /^(# Envelope Inspector report|## (Inputs|Records|Not covered by the signature|Findings|Workflows|Graph)|### Record \d+ of .+)$/,
          );
        if (line.startsWith('|')) {
          const cells = unescaped(line, '|');
          if (line.startsWith('| ---') || columns === 0) columns = cells;
          expect(cells, line).toBe(columns);
        } else columns = 0;
        // The summary's own emphasis and code spans (rule ids, hashes, the schema) are the only ones.
        const rest = line.replace(/\*\*(no|[a-z/-]+)\*\*/g, '').replace(/`[a-z0-9/@._-]+`/g, '');
        for (const ch of '[]<_') expect(unescaped(rest, ch), line).toBe(0);
        expect(unescaped(rest, '*'), line).toBe(0);
        expect(unescaped(rest, '`'), line).toBe(0);
      }
    }
  });
});
