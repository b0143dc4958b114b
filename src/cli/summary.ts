// The readable summaries the CLI prints: the text one (one block per record, findings indented, the
// counts last) and GitHub workflow annotations, written from the streamed report's parts as they
// come (stream.ts streamReport). Both word a record's verdict as every view does
// (core/verdict.ts), name inputs by their file, and count as the app counts (an unreadable input is
// an input, not a record). Every line of text is made terminal-safe as a whole: names, ids, sources,
// messages all come from records.
import {
  countRecord,
  countsLine,
  type ExitPolicy,
  isProblem,
  noCounts,
  recordFacts,
  recordPasses,
  type ReportParts,
  type ReportRecord,
  recordsByInput,
  withInputNames,
} from '../core/report';
import { isBadlySigned, recordHeadline, signatureWords } from '../core/verdict';
import { terminalSafe } from './terminal';
import { ByteRun } from '../core/bytes/byte-run';

export interface SummaryOptions {
  /** Only the records with a problem (isProblem), and the summary. */
  quiet?: boolean;
  /** What fails the exit status: a record failing it is a problem. */
  policy?: ExitPolicy;
}

const badge = (ok: boolean | null, yes: string, no: string) => (ok === null ? '-' : ok ? yes : no);

/**
 * Lines handed on in blocks of UTF-8 (whole lines, each ending in a line break), so a long summary
 * is written as it is made and a short one in one go. A block is reused once `out` returns: `out`
 * writes or copies it.
 */
export class LineOut {
  private readonly block: ByteRun;
  constructor(
    private readonly out: (bytes: Uint8Array) => void,
    private readonly blockSize = 1 << 20,
  ) {
    this.block = new ByteRun(blockSize + 4096);
  }
  line(text: string): void {
    this.block.utf8(text);
    this.block.ascii('\n');
    if (this.block.length >= this.blockSize) this.flush();
  }
  /** Hands on what is left. */
  end(): void {
    this.flush();
  }
  private flush(): void {
    if (this.block.length === 0) return;
    this.out(this.block.buf.subarray(0, this.block.length));
    this.block.length = 0;
  }
}

/**
 * The text summary: per input a line, then a block per record (findings indented), each written
 * once the record is final; only the counts are kept, for the last line.
 */
export function writeSummary(parts: ReportParts, out: LineOut, options: SummaryOptions = {}): void {
  const policy = options.policy ?? {};
  const { inputs } = parts.head;
  const names = inputs.map((i) => i.name);
  const named = (text: string) => withInputNames(text, names);
  const line = (text: string) => out.line(terminalSafe(text));
  const counts = noCounts(inputs.length);
  const shown = (r: ReportRecord) => !options.quiet || isProblem(r, policy);
  for (const { input: i, unreadable, records } of recordsByInput(inputs.length, parts.records)) {
    const input = inputs[i];
    const header = () => line(`${input.name}  (${input.format}, ${input.bytes} bytes, sha256 ${input.sha256.slice(0, 16)}…)`);
    if (unreadable) {
      counts.unreadable++;
      if (!shown(unreadable)) continue;
      header();
      const error = unreadable.error;
      line(`  unreadable input, not a record: ${error ? `${error.code}: ${named(error.message)}` : 'nothing in it could be read'}`);
      continue;
    }
    // With --quiet an input is named only before its first record shown.
    let headed = !options.quiet;
    if (headed) header();
    for (const r of records) {
      countRecord(counts, r);
      if (!shown(r)) continue;
      if (!headed) {
        header();
        headed = true;
      }
      const who = r.source ? `${r.source}${r.target ? ` → ${r.target}` : ''}` : '';
      // What the reference calls it and the AGDX dialect its fields show (docs/report.md "Dialects").
      const dialect = r.agdx_dialect ? `AGDX ${r.agdx_dialect}${r.agdx_dialect_evidence.length ? ` (${r.agdx_dialect_evidence.join(', ')})` : ''}` : '';
      line(
        [`  #${r.index}`, r.format, r.kind ?? '', r.id ?? '', who, r.display_type ? `· ${r.display_type}` : '', dialect ? `· ${dialect}` : '']
          .filter(Boolean)
          .join('  '),
      );
      const words = signatureWords({ status: r.signature.status, trusted: r.signature.trusted });
      const sig = r.signature.status === 'unsigned' ? 'unsigned' : `${words.words}${r.signature.key_id ? ` (key ${r.signature.key_id})` : ''}`;
      line(`      verdict: ${recordHeadline(recordFacts(r)).label}`);
      line(`      decoded: ${badge(r.decoded, 'yes', 'NO')}   valid: ${badge(r.decoded ? r.valid : null, 'yes', 'NO')}   signature: ${sig}`);
      if (r.signature.status !== 'unsigned') line(`      why: ${r.signature.reason}`);
      if (r.signature.not_covered?.length) line(`      not covered by the signature: ${r.signature.not_covered.join(', ')}`);
      if (r.error) line(`      error ${r.error.code} at byte ${r.error.offset ?? '?'}: ${named(r.error.message)}`);
      for (const f of r.findings) {
        const where = f.span ? ` [${f.span[0]}, ${f.span[1]})` : '';
        line(`      ${f.severity.padEnd(7)} ${f.rule}${f.path ? ` (${f.path})` : ''}${where}: ${named(f.message)}`);
      }
    }
  }
  line('');
  line(countsLine(counts));
}

// ---------- GitHub workflow annotations ----------

/** A workflow command's message: `%`, CR and LF escaped as GitHub's toolkit escapes them. */
const commandData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** A workflow command's property value: the same, and `:` and `,`, which end it. */
const commandProperty = (s: string) => commandData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

const LEVEL = { error: 'error', warning: 'warning', info: 'notice' } as const;

/** Where a record starts in its input, for a message: its span, or a JSON export message's span in the text. */
function recordOffset(r: ReportRecord): number | null {
  return r.span?.[0] ?? r.input_span?.[0] ?? null;
}

/**
 * One workflow annotation per decode error and per finding (`::error file=F,title=RULE::record #I at
 * byte N: …`), each record's once it is final, then the summary line: a `::notice`, or an `::error`
 * when a record fails the policy.
 */
export function writeGithub(parts: ReportParts, out: LineOut, options: SummaryOptions = {}): void {
  const policy = options.policy ?? {};
  const names = parts.head.inputs.map((i) => i.name);
  const counts = noCounts(names.length);
  let passed = true;
  const annotate = (level: string, r: ReportRecord, rule: string, message: string, span: readonly [number, number] | null, path: string | null) => {
    const file = names[r.input] ?? `input ${r.input}`;
    const at = recordOffset(r);
    const where = `record #${r.index}${at === null ? '' : ` at byte ${at}`}`;
    const field = path || span ? ` (${[path, span ? `bytes ${span[0]}–${span[1]}` : null].filter(Boolean).join(', ')})` : '';
    out.line(
      terminalSafe(
        `::${level} file=${commandProperty(file)},title=${commandProperty(rule)}::${commandData(`${where}: ${rule}${field}: ${withInputNames(message, names)}`)}`,
      ),
    );
  };
  for (const { unreadable, records } of recordsByInput(names.length, parts.records)) {
    if (unreadable) counts.unreadable++;
    for (const r of unreadable ? [unreadable] : records) {
      if (!unreadable) countRecord(counts, r);
      if (!recordPasses(r, policy)) passed = false;
      if (r.error) annotate('error', r, r.error.code, r.error.message, r.error.offset === null ? null : [r.error.offset, r.error.offset + 1], null);
      for (const f of r.findings) annotate(LEVEL[f.severity], r, f.rule, f.message, f.span, f.path);
      if (r.decoded && isBadlySigned(r.signature.status) && !r.findings.some((f) => f.severity === 'error'))
        annotate('error', r, 'signature', `signature ${r.signature.status}: ${r.signature.reason}`, null, 'signature');
      else if (
        !recordPasses(r, policy) &&
        (policy.failOn === 'untrusted' || policy.requireTrusted) &&
        r.decoded &&
        r.valid &&
        !isBadlySigned(r.signature.status)
      )
        annotate('error', r, 'untrusted', `not trusted: ${r.signature.reason}`, null, 'signature');
    }
  }
  out.line(terminalSafe(`::${passed ? 'notice' : 'error'} title=envelope-inspector::${commandData(countsLine(counts))}`));
}
