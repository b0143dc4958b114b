// Text from records, on a terminal: a record must not be able to move the cursor, clear the screen,
// set the window title, overwrite a line (CR) or reorder what is shown (bidi controls). Every such
// character is written as a visible escape instead (report.md "Command line").
import { UNSAFE_CHAR_CLASS } from '../core/unsafe-chars';

/**
 * C0 controls, DEL, C1 controls, the bidi embeddings, overrides and isolates, the implicit
 * direction marks (LRM, RLM, ALM) and the line and paragraph separators.
 */
const UNSAFE = new RegExp(UNSAFE_CHAR_CLASS, 'g');

/** The same without C0: in JSON text, C0 inside strings is escaped already and outside is layout. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const hex = (c: string, width: number) => c.charCodeAt(0).toString(16).padStart(width, '0');

/**
 * `text` with every terminal-unsafe character escaped: `\n`, `\r`, `\t`, `\xNN` for the other C0
 * controls, DEL and C1, `\uNNNN` for the bidi and separator characters. Everything else (any
 * language, emoji) is left as it is. Meant for one line: a newline in the text becomes `\n`.
 */
export function terminalSafe(text: string): string {
  if (typeof text !== 'string') throw new TypeError('terminalSafe: text must be a string');
  return text.replace(UNSAFE, (c) => NAMED[c] ?? (c.charCodeAt(0) <= 0x9f ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`));
}

/**
 * JSON text (as JSON.stringify writes it) with the same characters written as `\uNNNN` escapes:
 * the same JSON value for any parser, and nothing a terminal acts on when the report is printed.
 * JSON.stringify already escapes C0 inside strings (C0 outside them is its layout: left alone); DEL,
 * C1, bidi controls and U+2028/2029 it leaves raw. Those can only stand inside strings, where
 * `\uNNNN` means the same character.
 */
export function jsonTerminalSafe(json: string): string {
  if (typeof json !== 'string') throw new TypeError('jsonTerminalSafe: json must be a string');
  return json.replace(UNSAFE_IN_JSON, (c) => `\\u${hex(c, 4)}`);
}
