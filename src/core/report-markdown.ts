// A human-readable summary of a report@1 document, in Markdown: inputs with their SHA-256, every
// record's verdicts and findings, signatures with key ids, workflows, graph problems.
import { countRecord, countsLine, type ExitPolicy, isProblem, noCounts, recordFacts, type ReportParts, type ReportRecord, withInputNames } from './report';
import { isUnreadableInput, recordHeadline, signatureWords } from './verdict';
import { displayText } from './unsafe-chars';

/** What a renderer acts on anywhere in text: escapes, code, emphasis, links and images (by their brackets), table cells, strikethrough, math. */
const ACTIVE = /[\\`*_[\]|~$]/g;

/**
 * Text from a record as inert Markdown, escaped only where Markdown needs it: one line (breaks
 * become spaces), every other control, bidi control and direction mark written visibly by the
 * page's display escaper (⟨U+202E⟩), `<` as an entity (no HTML can start) and `&` where it would start one, the
 * characters Markdown acts on anywhere backslash-escaped, and those it acts on only in one place
 * escaped there: what starts a block at the start of the text (a heading, a list, a quote, a
 * thematic break), and the parts of an autolink (a scheme's `:` before `//`, the `.` after `www`,
 * an address's `@`). So `iggy-json(>=0.7)` stays as it is, and a record still adds no markup, HTML,
 * link, image, heading or table cell to the summary.
 */
export function markdownText(text: string): string {
  if (typeof text !== 'string') throw new TypeError('markdownText: text must be a string');
  return displayText(text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' '))
    .replace(/&(?=#?[0-9A-Za-z]+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(ACTIVE, (c) => `\\${c}`)
    .replace(/([A-Za-z][A-Za-z0-9+.-]*):(?=\/\/)/g, '$1\\:')
    .replace(/\b(www)\./gi, '$1\\.')
    .replace(/([A-Za-z0-9._%+-])@(?=[A-Za-z0-9])/g, '$1\\@')
    .replace(/^(\s*)([#>+=-])/, '$1\\$2')
    .replace(/^(\s*\d+)([.)])/, '$1\\$2');
}

const cell = (v: string | number | null | undefined) => (v === null || v === undefined ? '—' : markdownText(String(v)));

/** Whether a record is listed (all of them, or with `quiet` only those with a problem), as the text summary decides it. */
export interface MarkdownOptions {
  quiet?: boolean;
  policy?: ExitPolicy;
}

/** The Markdown summary of a report as one text (the app's export): writeMarkdown over its parts. */
export function reportToMarkdown(parts: ReportParts, options: MarkdownOptions = {}): string {
  const lines: string[] = [];
  writeMarkdown(parts, (l) => lines.push(l), options);
  return `${lines.join('\n')}\n`;
}

/**
 * reportToMarkdown's lines (each without its line break) from the report's parts as they come. The
 * counts come first and each section lists the records again, so the records' lines are kept
 * until the last record (the summary's text, not the records, nor the inputs' bytes).
 */
export function writeMarkdown(parts: ReportParts, line: (text: string) => void, options: MarkdownOptions = {}): void {
  const { head, tail } = parts;
  const names = head.inputs.map((i) => i.name);
  const counts = noCounts(names.length);
  const shown = (r: ReportRecord) => !options.quiet || isProblem(r, options.policy);
  const placeOf = (r: ReportRecord) => `${cell(names[r.input] ?? `input ${r.input}`)} #${r.index}`;
  const message = (m: string) => cell(withInputNames(m, names));
  // Kept to the end: whether an input is unreadable (a single record, not decoded, of format
  // `unknown`) is known once its records are, and its record is then no row and in no count.
  const rows: { input: number; row: string }[] = [];
  const uncovered: string[] = [];
  const findings: string[] = [];
  const perInput = new Map<number, { records: number; first: ReportRecord }>();
  for (const r of parts.records) {
    const seen = perInput.get(r.input);
    if (seen) seen.records++;
    else perInput.set(r.input, { records: 1, first: r });
    countRecord(counts, r);
    if (!shown(r)) continue;
    rows.push({
      input: r.input,
      row: `| ${cell(names[r.input])} | ${r.index} | ${cell(recordHeadline(recordFacts(r)).label)} | ${cell(r.format)} | ${cell(r.kind)} | ${cell(r.id)} | ${cell(r.source)} | ${r.decoded ? 'yes' : '**no**'} | ${r.decoded ? (r.valid ? 'yes' : '**no**') : '—'} | ${cell(signatureWords(r.signature).words)} | ${cell(r.signature.key_id)} | ${r.signature.trusted ? 'yes' : 'no'} |`,
    });
    if (r.signature.not_covered?.length)
      uncovered.push(`- ${placeOf(r)} (${cell(signatureWords(r.signature).words)}): ${r.signature.not_covered.map(cell).join(', ')}`);
    if (r.error || r.findings.length) {
      findings.push(`### Record ${r.index} of ${cell(names[r.input] ?? `input ${r.input}`)}${r.id ? ` (${cell(r.id)})` : ''}`, '');
      if (r.error) findings.push(`- **${cell(r.error.code)}** at byte ${r.error.offset ?? '?'}: ${message(r.error.message)}`);
      for (const f of r.findings)
        findings.push(
          `- ${f.severity} \`${f.rule}\`${f.path ? ` (${cell(f.path)})` : ''}${f.span ? ` bytes ${f.span[0]}–${f.span[1]}` : ''}: ${message(f.message)}`,
        );
      findings.push('');
    }
  }
  const unreadable = new Set<number>();
  for (const [input, { records, first }] of perInput)
    if (isUnreadableInput(records, first)) {
      unreadable.add(input);
      countRecord(counts, first, -1);
    }
  counts.unreadable = unreadable.size;
  const all = (lines: readonly string[]) => {
    for (const l of lines) line(l);
  };
  all(['# Envelope Inspector report', '']);
  all([`${head.generator}, schema \`${head.schema}\`. ${cell(countsLine(counts))}.`, '']);
  all(['## Inputs', '', '| # | name | format | bytes | SHA-256 |', '| --- | --- | --- | --- | --- |']);
  for (const [n, i] of head.inputs.entries())
    line(`| ${n} | ${cell(i.name)} | ${unreadable.has(n) ? `unreadable: ${cell(i.format)}` : cell(i.format)} | ${i.bytes} | \`${i.sha256}\` |`);
  all([
    '',
    '## Records',
    '',
    '| input | # | verdict | format | kind | id | source | decoded | valid | signature | key id | trusted |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ]);
  for (const { input, row } of rows) if (!unreadable.has(input)) line(row);
  if (uncovered.length) {
    all(['', '## Not covered by the signature', '', 'Fields these signed records hold that their signature does not vouch for:', '']);
    all(uncovered);
  }
  if (findings.length) {
    all(['', '## Findings', '']);
    all(findings);
  }
  const workflows = tail.workflows as unknown as {
    record: number;
    modes: Record<string, number>;
    envelopes: { hash: string; hash_ok: boolean; signature: string; did_match: boolean }[];
  }[];
  if (workflows.length) {
    all(['## Workflows', '', '| record | light | heavy | boundary | envelopes | tampered |', '| --- | --- | --- | --- | --- | --- |']);
    for (const w of workflows) {
      const tampered = w.envelopes.filter((e) => !e.hash_ok || e.signature !== 'valid' || !e.did_match).map((e) => `${cell(e.hash.slice(0, 12))}…`);
      line(`| ${w.record} | ${w.modes.light} | ${w.modes.heavy} | ${w.modes.boundary} | ${w.envelopes.length} | ${tampered.join(', ') || 'none'} |`);
    }
    line('');
  }
  const g = tail.graph;
  // Counted as they are made: a large log has millions.
  let edges = 0;
  for (const _ of g.edges.items) edges++;
  all(['## Graph', '', `${g.nodes} nodes, ${edges} edges.`]);
  if (g.missing.length) all(['', 'Missing parents:', ...g.missing.map((m) => `- ${cell(m.from)} → ${cell(m.ref)} (${cell(m.via)})`)]);
  if (g.cycles.length) all(['', 'Cycles:', ...g.cycles.map((c) => `- ${c.map(cell).join(' → ')}`)]);
  const streams = g.streams as { channel: string; chunks: number; duplicates: number; after_terminal: number; gaps: number[]; terminal: string | null }[];
  const troubled = streams.filter(
    (s) => s.duplicates || s.after_terminal || s.gaps.length || s.terminal === 'gap' || s.terminal === 'abandoned' || s.terminal === null,
  );
  if (troubled.length) {
    line('');
    line('Streams with problems:');
    for (const s of troubled)
      line(
        `- channel ${cell(s.channel)}: ${s.chunks} chunks, ${s.duplicates} duplicates, ${s.after_terminal} after the terminal, gaps ${s.gaps.join(', ') || 'none'}, terminal ${cell(s.terminal ?? 'none (still open)')}`,
      );
  }
}
