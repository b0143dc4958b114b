// The readable summary the CLI prints without --json: one block per record, findings indented.
// Every line is made terminal-safe as a whole: names, ids, sources, messages all come from records.
import type { Report } from '../core/report';
import { terminalSafe } from './terminal';

const badge = (ok: boolean | null, yes: string, no: string) => (ok === null ? '-' : ok ? yes : no);

export function formatSummary(report: Report): string {
  const lines: string[] = [];
  report.inputs.forEach((input, i) => {
    lines.push(`${input.name}  (${input.format}, ${input.bytes} bytes, sha256 ${input.sha256.slice(0, 16)}…)`);
    for (const r of report.records.filter((x) => x.input === i)) {
      const who = r.source ? `${r.source}${r.target ? ` → ${r.target}` : ''}` : '';
      // What the reference calls it and the AGDX dialect its fields show (docs/report.md "Dialects").
      const dialect = r.agdx_dialect ? `AGDX ${r.agdx_dialect}${r.agdx_dialect_evidence.length ? ` (${r.agdx_dialect_evidence.join(', ')})` : ''}` : '';
      const head = [`  #${r.index}`, r.format, r.kind ?? '', r.id ?? '', who, r.display_type ? `· ${r.display_type}` : '', dialect ? `· ${dialect}` : '']
        .filter(Boolean)
        .join('  ');
      // A valid signature is trusted or says why not (a self-made DID is only bound): never a bare "valid".
      const sig =
        r.signature.status === 'unsigned'
          ? 'unsigned'
          : `${r.signature.status}${r.signature.key_id ? ` (key ${r.signature.key_id})` : ''}${r.signature.status === 'valid' ? (r.signature.trusted ? ', trusted' : ', NOT trusted') : ''}`;
      lines.push(`${head}`);
      lines.push(`      decoded: ${badge(r.decoded, 'yes', 'NO')}   valid: ${badge(r.decoded ? r.valid : null, 'yes', 'NO')}   signature: ${sig}`);
      if (r.signature.status !== 'unsigned') lines.push(`      why: ${r.signature.reason}`);
      if (r.signature.not_covered?.length) lines.push(`      not covered by the signature: ${r.signature.not_covered.join(', ')}`);
      if (r.error) lines.push(`      error ${r.error.code} at byte ${r.error.offset ?? '?'}: ${r.error.message}`);
      for (const f of r.findings) {
        const where = f.span ? ` [${f.span[0]}, ${f.span[1]})` : '';
        lines.push(`      ${f.severity.padEnd(7)} ${f.rule}${f.path ? ` (${f.path})` : ''}${where}: ${f.message}`);
      }
    }
  });
  const total = report.records.length;
  const invalid = report.records.filter((r) => !r.decoded || !r.valid).length;
  const badSig = report.records.filter((r) => r.signature.status === 'invalid' || r.signature.status === 'malformed').length;
  lines.push('');
  lines.push(
    `${total} record${total === 1 ? '' : 's'} in ${report.inputs.length} input${report.inputs.length === 1 ? '' : 's'}: ${total - invalid} valid, ${invalid} invalid or undecoded, ${badSig} badly signed`,
  );
  return lines.map(terminalSafe).join('\n');
}
