// A human-readable summary of a report@1 document, in Markdown: inputs with their SHA-256, every
// record's verdicts and findings, signatures with key ids, workflows, graph problems.
import type { Report } from './report';

const cell = (v: unknown) => String(v ?? '—').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

export function reportToMarkdown(report: Report): string {
  const out: string[] = [];
  const records = report.records;
  const bad = records.filter((r) => !r.decoded || !r.valid).length;
  const badSig = records.filter((r) => r.signature.status === 'invalid' || r.signature.status === 'malformed').length;
  out.push('# Envelope Inspector report', '');
  out.push(`${report.generator}, schema \`${report.schema}\`. ${records.length} records in ${report.inputs.length} inputs: ${records.length - bad} valid, ${bad} invalid or undecoded, ${badSig} badly signed.`, '');
  out.push('## Inputs', '', '| # | name | format | bytes | SHA-256 |', '| --- | --- | --- | --- | --- |');
  report.inputs.forEach((i, n) => out.push(`| ${n} | ${cell(i.name)} | ${cell(i.format)} | ${i.bytes} | \`${i.sha256}\` |`));
  out.push('', '## Records', '', '| input | # | format | kind | id | source | decoded | valid | signature | key id | trusted |', '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of records) {
    out.push(
      `| ${r.input} | ${r.index} | ${r.format} | ${cell(r.kind)} | ${cell(r.id)} | ${cell(r.source)} | ${r.decoded ? 'yes' : '**no**'} | ${r.decoded ? (r.valid ? 'yes' : '**no**') : '—'} | ${r.signature.status} | ${cell(r.signature.key_id)} | ${r.signature.trusted ? 'yes' : 'no'} |`,
    );
  }
  const withFindings = records.filter((r) => r.error || r.findings.length);
  if (withFindings.length) {
    out.push('', '## Findings', '');
    for (const r of withFindings) {
      out.push(`### Input ${r.input}, record ${r.index}${r.id ? ` (${r.id})` : ''}`, '');
      if (r.error) out.push(`- **${r.error.code}** at byte ${r.error.offset ?? '?'}: ${r.error.message}`);
      for (const f of r.findings) out.push(`- ${f.severity} \`${f.rule}\`${f.path ? ` (${f.path})` : ''}${f.span ? ` bytes ${f.span[0]}–${f.span[1]}` : ''}: ${f.message}`);
      out.push('');
    }
  }
  const workflows = report.workflows as { record: number; modes: Record<string, number>; envelopes: { hash: string; hash_ok: boolean; signature: string; did_match: boolean }[] }[];
  if (workflows.length) {
    out.push('## Workflows', '', '| record | light | heavy | boundary | envelopes | tampered |', '| --- | --- | --- | --- | --- | --- |');
    for (const w of workflows) {
      const tampered = w.envelopes.filter((e) => !e.hash_ok || e.signature !== 'valid' || !e.did_match).map((e) => `\`${e.hash.slice(0, 12)}…\``);
      out.push(`| ${w.record} | ${w.modes.light} | ${w.modes.heavy} | ${w.modes.boundary} | ${w.envelopes.length} | ${tampered.join(', ') || 'none'} |`);
    }
    out.push('');
  }
  const g = report.graph;
  out.push('## Graph', '', `${g.nodes} nodes, ${g.edges.length} edges.`);
  if (g.missing.length) out.push('', 'Missing parents:', ...g.missing.map((m) => `- ${m.from} → ${m.ref} (${m.via})`));
  if (g.cycles.length) out.push('', 'Cycles:', ...g.cycles.map((c) => `- ${c.join(' → ')}`));
  const streams = g.streams as { channel: string; chunks: number; duplicates: number; after_terminal: number; gaps: number[]; terminal: string | null }[];
  const troubled = streams.filter((s) => s.duplicates || s.after_terminal || s.gaps.length || s.terminal === 'gap' || s.terminal === 'abandoned' || s.terminal === null);
  if (troubled.length) {
    out.push('', 'Streams with problems:');
    for (const s of troubled) out.push(`- channel ${s.channel}: ${s.chunks} chunks, ${s.duplicates} duplicates, ${s.after_terminal} after the terminal, gaps ${s.gaps.join(', ') || 'none'}, terminal ${s.terminal ?? 'none (still open)'}`);
  }
  out.push('');
  return out.join('\n');
}
