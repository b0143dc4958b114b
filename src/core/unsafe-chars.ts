// Characters a record's text must never put in front of a reader as they are, on a terminal or a
// page: C0 controls, DEL, C1 controls (a terminal acts on them: cursor, screen, title, CR over a
// line), the bidi embeddings, overrides and isolates and the implicit direction marks (LRM, RLM,
// ALM: they reorder what is shown, so "invoice\u202Egpj.cbor" reads as a picture's name), and the
// line and paragraph separators. Each reader escapes them its own way (src/cli/terminal.ts,
// src/ui/format.ts).

/** The class as RegExp source: build a fresh global RegExp from it (a shared /g one keeps lastIndex). */
export const UNSAFE_CHAR_CLASS = '[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]';
