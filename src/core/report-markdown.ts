// A human-readable summary of a report@1 document, in Markdown: inputs with their SHA-256, every
// record's verdicts and findings, signatures with key ids, workflows, graph problems.
import type { Report } from './report';
import { displayText } from './unsafe-chars';

/** Markdown punctuation a renderer acts on (emphasis, code, links, images, headings, lists, tables, math, autolinks and linkified domains). */
const MARKDOWN_ACTIVE = /[\\`*_[\]()!#+\-.|~:@$^{}=]/g;
const HTML_ACTIVE: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Text from a record as inert Markdown: one line (breaks become spaces), every other control, bidi
 * control and direction mark written visibly by the page's display escaper (⟨U+202E⟩), HTML's `&`,
 * `<`, `>` as entities, and every character Markdown acts on backslash-escaped, so a record can add
 * no markup, HTML, link, image or table cell to the summary, reorder nothing in it, and a URL in it
 * is not turned into a link.
 */
export function markdownText(text: string): string {
  if (typeof text !== 'string') throw new TypeError('markdownText: text must be a string');
  return displayText(text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' '))
    .replace(/[&<>]/g, (c) => HTML_ACTIVE[c])
    .replace(MARKDOWN_ACTIVE, (c) => `\\${c}`);
}

const cell = (v: string | number | null | undefined) => (v === null || v === undefined ? '—' : markdownText(String(v)));

export function reportToMarkdown(report: Report): string {
  const out: string[] = [];
  const records = report.records;
  const bad = records.filter((r) => !r.decoded || !r.valid).length;
  const badSig = records.filter((r) => r.signature.status === 'invalid' || r.signature.status === 'malformed').length;
  out.push('# Envelope Inspector report', '');
  out.push(
    `${report.generator}, schema \`${report.schema}\`. ${records.length} records in ${report.inputs.length} inputs: ${records.length - bad} valid, ${bad} invalid or undecoded, ${badSig} badly signed.`,
    '',
  );
  out.push('## Inputs', '', '| # | name | format | bytes | SHA-256 |', '| --- | --- | --- | --- | --- |');
  for (const [n, i] of report.inputs.entries()) out.push(`| ${n} | ${cell(i.name)} | ${cell(i.format)} | ${i.bytes} | \`${i.sha256}\` |`);
  out.push(
    '',
    '## Records',
    '',
    '| input | # | format | kind | id | source | decoded | valid | signature | key id | trusted |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const r of records) {
    out.push(
      `| ${r.input} | ${r.index} | ${cell(r.format)} | ${cell(r.kind)} | ${cell(r.id)} | ${cell(r.source)} | ${r.decoded ? 'yes' : '**no**'} | ${r.decoded ? (r.valid ? 'yes' : '**no**') : '—'} | ${cell(r.signature.status)} | ${cell(r.signature.key_id)} | ${r.signature.trusted ? 'yes' : 'no'} |`,
    );
  }
  const uncovered = records.filter((r) => r.signature.not_covered?.length);
  if (uncovered.length) {
    out.push('', '## Not covered by the signature', '', 'Fields these signed records hold that their signature does not vouch for:', '');
    for (const r of uncovered)
      out.push(
        `- input ${r.input}, record ${r.index} (${cell(r.signature.status)}${r.signature.trusted ? ', trusted' : ''}): ${r.signature.not_covered.map(cell).join(', ')}`,
      );
  }
  const withFindings = records.filter((r) => r.error || r.findings.length);
  if (withFindings.length) {
    out.push('', '## Findings', '');
    for (const r of withFindings) {
      out.push(`### Input ${r.input}, record ${r.index}${r.id ? ` (${cell(r.id)})` : ''}`, '');
      if (r.error) out.push(`- **${cell(r.error.code)}** at byte ${r.error.offset ?? '?'}: ${cell(r.error.message)}`);
      for (const f of r.findings)
        out.push(`- ${f.severity} \`${f.rule}\`${f.path ? ` (${cell(f.path)})` : ''}${f.span ? ` bytes ${f.span[0]}–${f.span[1]}` : ''}: ${cell(f.message)}`);
      out.push('');
    }
  }
  const workflows = report.workflows as {
    record: number;
    modes: Record<string, number>;
    envelopes: { hash: string; hash_ok: boolean; signature: string; did_match: boolean }[];
  }[];
  if (workflows.length) {
    out.push('## Workflows', '', '| record | light | heavy | boundary | envelopes | tampered |', '| --- | --- | --- | --- | --- | --- |');
    for (const w of workflows) {
      const tampered = w.envelopes.filter((e) => !e.hash_ok || e.signature !== 'valid' || !e.did_match).map((e) => `${cell(e.hash.slice(0, 12))}…`);
      out.push(`| ${w.record} | ${w.modes.light} | ${w.modes.heavy} | ${w.modes.boundary} | ${w.envelopes.length} | ${tampered.join(', ') || 'none'} |`);
    }
    out.push('');
  }
  const g = report.graph;
  out.push('## Graph', '', `${g.nodes} nodes, ${g.edges.length} edges.`);
  if (g.missing.length) out.push('', 'Missing parents:', ...g.missing.map((m) => `- ${cell(m.from)} → ${cell(m.ref)} (${cell(m.via)})`));
  if (g.cycles.length) out.push('', 'Cycles:', ...g.cycles.map((c) => `- ${c.map(cell).join(' → ')}`));
  const streams = g.streams as { channel: string; chunks: number; duplicates: number; after_terminal: number; gaps: number[]; terminal: string | null }[];
  const troubled = streams.filter(
    (s) => s.duplicates || s.after_terminal || s.gaps.length || s.terminal === 'gap' || s.terminal === 'abandoned' || s.terminal === null,
  );
  if (troubled.length) {
    out.push('', 'Streams with problems:');
    for (const s of troubled)
      out.push(
        `- channel ${cell(s.channel)}: ${s.chunks} chunks, ${s.duplicates} duplicates, ${s.after_terminal} after the terminal, gaps ${s.gaps.join(', ') || 'none'}, terminal ${cell(s.terminal ?? 'none (still open)')}`,
      );
  }
  out.push('');
  return out.join('\n');
}
