// What a rule id or error code means, as a person reads it: the text `envelope-inspector explain`
// prints and the app shows, built from the rule catalogue (rules.ts) and nothing else. Plain text:
// no markup, no control character but the newline.
import { RULE_IDS, type RuleId, type RuleMeta, ruleMeta } from './rules';

const INDENT = '  ';

/** Breaks `text` into lines of at most `width` columns (a longer word stays whole), each indented. */
function wrap(text: string, width: number, indent: string): string[] {
  const words = text.split(/\s+/).filter((w) => w !== '');
  if (!(width > 0) || !Number.isFinite(width)) return [indent + words.join(' ')];
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line !== '' && indent.length + line.length + 1 + w.length > width) {
      lines.push(indent + line);
      line = w;
    } else line = line === '' ? w : `${line} ${w}`;
  }
  if (line !== '') lines.push(indent + line);
  return lines;
}

const cells = (row: string): string[] =>
  row
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());

/**
 * A table row too wide for `width`: with the table's header at hand, each cell named by its
 * column ("operation: command O; …"), else the row broken between cells.
 */
function wideRow(row: string, header: string[] | null, width: number, indent: string): string[] {
  const c = cells(row);
  if (header && header.length === c.length) {
    const named = c.slice(1).map((v, i) => `${header[i + 1]} ${v}`);
    return wrap(`${c[0]}: ${named.join('; ')}`, width, indent).map((l, i) => (i === 0 ? l : `${indent}  ${l.slice(indent.length)}`));
  }
  const lines: string[] = [];
  let line = '|';
  for (const cell of c) {
    const next = `${line} ${cell} |`;
    if (line !== '|' && indent.length + next.length > width) {
      lines.push(indent + line);
      line = `  | ${cell} |`;
    } else line = next;
  }
  lines.push(indent + line);
  return lines;
}

/**
 * A spec quote as lines: table rows and the `[...]` elision mark stay as written (a row too wide
 * is broken up), prose between them is joined (the docs' line breaks are the docs' own) and wrapped.
 */
function quoteLines(quote: string, width: number, indent: string): string[] {
  const out: string[] = [];
  let prose: string[] = [];
  let header: string[] | null = null;
  const flush = () => {
    if (prose.length) out.push(...wrap(prose.join(' '), width, indent));
    prose = [];
  };
  const lines = quote.split('\n').map((l) => l.trim());
  lines.forEach((line, i) => {
    if (line.startsWith('|')) {
      flush();
      const fits = !(width > 0) || !Number.isFinite(width) || indent.length + line.length <= width;
      out.push(...(fits ? [indent + line] : wideRow(line, header, width, indent)));
      // A table's header row is quoted followed by an elision, then the row the rule is about.
      if (header === null && lines[i + 1] === '[...]') header = cells(line);
    } else if (line === '[...]') {
      flush();
      out.push(indent + line);
    } else prose.push(line);
  });
  flush();
  return out;
}

/** Example lines: words are wrapped, a record (a line that does not start with a letter) is kept as written. */
function exampleLines(example: string, width: number, indent: string): string[] {
  return example.split('\n').flatMap((line) => (/^\p{L}/u.test(line) ? wrap(line, width, indent) : [indent + line]));
}

function kindLine(meta: RuleMeta): string {
  const where =
    meta.scope === 'log' ? 'Decided over the whole log (graph, deadlines, folds) once every record is read.' : 'Decided from the record on its own.';
  if (meta.kind === 'decode-error') return `Decode error (error.code): the record is not decoded and not valid. ${where}`;
  const others = meta.severities.slice(1);
  const severity = others.length ? `severity ${meta.severity} (${others.join(' or ')} in the cases the title names)` : `severity ${meta.severity}`;
  return `Finding, ${severity}. ${where}`;
}

/**
 * A rule's explanation as data, for a page to lay out (the app's explanation panel): the same words
 * `explainText` prints, unwrapped. Prose is one line per paragraph; a spec quote keeps its table rows
 * and elision marks as written, one per line; an example keeps its record's lines as written.
 */
export interface RuleExplanation {
  id: RuleId;
  title: string;
  /** A finding with its severity, or a decode error; decided from the record alone, or over the whole log. */
  kind: string;
  why: string;
  /** The spec's own words: the document (`docs/agdx-v1.md`), its section heading, and the quote. */
  spec: { doc: string; section: string; lines: string[] }[];
  fix: string;
  example: string[];
}

/** One paragraph on one line (runs of whitespace as one space), as `explainText` prints it unwrapped. */
const paragraph = (text: string) => wrap(text, Infinity, '')[0] ?? '';

/** The explanation of a rule id or decode-error code as data (see RuleExplanation); null when `id` is not in the catalogue. */
export function ruleExplanation(id: string): RuleExplanation | null {
  const meta = ruleMeta(id);
  if (!meta) return null;
  return {
    id: meta.id,
    title: paragraph(meta.title),
    kind: paragraph(kindLine(meta)),
    why: paragraph(meta.why),
    spec: meta.spec.map((q) => ({ doc: `docs/${q.doc}`, section: q.section, lines: quoteLines(q.quote, Infinity, '') })),
    fix: paragraph(meta.fix),
    example: exampleLines(meta.example, Infinity, ''),
  };
}

/**
 * The explanation of a rule id or decode-error code: title, why it matters, the spec's words with
 * where they are, what usually fixes it and an example. Prose is wrapped at `width` columns (0 or
 * Infinity: one line per paragraph, the words of `ruleExplanation`). Null when `id` is not in the catalogue.
 */
export function explainText(id: string, width = 80): string | null {
  const meta = ruleMeta(id);
  if (!meta) return null;
  const lines: string[] = [meta.id, ...wrap(meta.title, width, INDENT), ...wrap(kindLine(meta), width, INDENT), ''];
  lines.push('Why it matters', ...wrap(meta.why, width, INDENT), '');
  lines.push('What the spec says');
  for (const q of meta.spec) {
    lines.push(`${INDENT}docs/${q.doc}, "${q.section}":`, ...quoteLines(q.quote, width, INDENT.repeat(2)));
  }
  lines.push('', 'What usually fixes it', ...wrap(meta.fix, width, INDENT), '');
  lines.push('Example', ...exampleLines(meta.example, width, INDENT));
  return `${lines.join('\n')}\n`;
}

export type SuggestionKind = 'prefix' | 'spelling' | 'family' | 'none';

export interface RuleSuggestions {
  /**
   * How the ids relate to the query: `prefix`, they start with it (`agdx/matrix` lists the matrix
   * rules); `spelling`, they are the fewest edits away (at most three); `family`, they share its longest family
   * (`agdx/matrix/foo` lists the matrix rules); `none`, nothing is close.
   */
  kind: SuggestionKind;
  ids: RuleId[];
}

/** Levenshtein distance, giving up (returning `max + 1`) once it must exceed `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, row[j]);
    }
    if (best > max) return max + 1;
    prev = row;
  }
  return prev[b.length];
}

const MAX_EDITS = 3;

/** Rule ids close to something that is not one: by prefix, then by spelling, then by family. */
export function suggestRuleIds(query: string): RuleSuggestions {
  const q = query.trim().toLowerCase();
  if (q === '') return { kind: 'none', ids: [] };
  const byPrefix = RULE_IDS.filter((id) => id.startsWith(q) && id !== q);
  if (byPrefix.length) return { kind: 'prefix', ids: byPrefix };
  const near = RULE_IDS.map((id) => ({ id, d: editDistance(q, id, MAX_EDITS) }))
    .filter((x) => x.d <= MAX_EDITS)
    .sort((x, y) => x.d - y.d);
  // Only the closest: "corelation" is one edit from correlation, three from operation.
  if (near.length) return { kind: 'spelling', ids: near.filter((x) => x.d === near[0].d).map((x) => x.id) };
  for (let cut = q.lastIndexOf('/'); cut > 0; cut = q.lastIndexOf('/', cut - 1)) {
    const family = q.slice(0, cut + 1);
    const ids = RULE_IDS.filter((id) => id.startsWith(family));
    if (ids.length) return { kind: 'family', ids };
  }
  return { kind: 'none', ids: [] };
}
