// Characters a record's text must never put in front of a reader as they are, on a terminal or a
// page: C0 controls, DEL, C1 controls (a terminal acts on them: cursor, screen, title, CR over a
// line), the bidi embeddings, overrides and isolates and the implicit direction marks (LRM, RLM,
// ALM: they reorder what is shown, so "invoice\u202Egpj.cbor" reads as a picture's name), and the
// line and paragraph separators. A terminal escapes them its own way (src/cli/terminal.ts); every
// view and export of the page (the list, the panels, the graph's faces in the worker, the Markdown
// summary, the SVG) through displayText, the one display escaper.

/** The class as RegExp source: build a fresh global RegExp from it (a shared /g one keeps lastIndex). */
export const UNSAFE_CHAR_CLASS = '[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]';

const UNSAFE = new RegExp(UNSAFE_CHAR_CLASS, 'g');
// The same class without tab and line feed: a multi-line text (a body) keeps its lines.
const UNSAFE_IN_LINES = new RegExp(UNSAFE_CHAR_CLASS.replace('\\u0000-\\u001f', '\\u0000-\\u0008\\u000b-\\u001f'), 'g');

const visible = (c: string) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`;

/**
 * A string from a record or a link (an input name, a source, a filter) as it may be shown: every
 * control, bidi override, isolate or direction mark and line separator written visibly as
 * ⟨U+XXXX⟩, so nothing can reorder, hide or break what is displayed ("invoice\u202Egpj.cbor" shows
 * as "invoice⟨U+202E⟩gpj.cbor", not "invoicerobc.jpg"). Render it inside <bdi> (or unicode-bidi:
 * isolate) so right-to-left letters in it do not reorder the text around it either.
 */
export function displayText(text: string): string {
  if (typeof text !== 'string') throw new TypeError('displayText: text must be a string');
  return text.replace(UNSAFE, visible);
}

/** displayText for a text shown as lines (a body in a <pre>): tab and line feed kept, everything else the same. */
export function displayLines(text: string): string {
  if (typeof text !== 'string') throw new TypeError('displayLines: text must be a string');
  return text.replace(UNSAFE_IN_LINES, visible);
}
