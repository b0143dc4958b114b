// docs/report.md's list of every rule id and decode-error code, generated from the catalogue
// (rules.ts): the text between its two marker lines is `rulesMarkdown()`, nothing hand-written.
// `npm run docs:rules` rewrites it (scripts/docs-rules.ts); rules.test.ts fails while the file
// differs from what the catalogue makes. Pure: the caller reads and writes the file.
import { RULE_IDS, type RuleMeta, ruleMeta } from './rules';

export const RULES_BEGIN = '<!-- rules:begin (generated from src/core/rules.ts by `npm run docs:rules`: edit the catalogue, not this list) -->';
export const RULES_END = '<!-- rules:end -->';

/** A table cell: one line, its pipes escaped. */
const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|');

const severityOf = (meta: RuleMeta) =>
  meta.kind === 'finding' ? (meta.severities.length > 1 ? `${meta.severity} (or ${meta.severities.slice(1).join(', ')})` : meta.severity) : '';

/** The generated list: a table of the findings' rule ids, then one of the decode-error codes, in catalogue order. */
export function rulesMarkdown(): string {
  const metas = RULE_IDS.map((id) => ruleMeta(id)!);
  const findings = metas.filter((m) => m.kind === 'finding');
  const errors = metas.filter((m) => m.kind === 'decode-error');
  return [
    'Findings (`rule`). The severity is the one a finding has unless its title names a case that gives it',
    'the other; scope `log`: decided over the whole log (graph, deadlines, folds), `record`: from the record alone.',
    '',
    '| rule | severity | scope | what it says |',
    '| --- | --- | --- | --- |',
    ...findings.map((m) => `| \`${m.id}\` | ${severityOf(m)} | ${m.scope} | ${cell(m.title)} |`),
    '',
    'Decode errors (`error.code`, record `decoded: false`).',
    '',
    '| code | what it says |',
    '| --- | --- |',
    ...errors.map((m) => `| \`${m.id}\` | ${cell(m.title)} |`),
  ].join('\n');
}

/** `markdown` with the text between its marker lines replaced by `rulesMarkdown()`. TypeError without exactly one pair of markers. */
export function withRulesSection(markdown: string): string {
  const begin = markdown.indexOf(RULES_BEGIN);
  const end = markdown.indexOf(RULES_END);
  if (begin < 0 || end < begin || markdown.indexOf(RULES_BEGIN, begin + 1) >= 0 || markdown.indexOf(RULES_END, end + 1) >= 0) {
    throw new TypeError(`the document needs exactly one "${RULES_BEGIN}" line followed by one "${RULES_END}" line`);
  }
  return `${markdown.slice(0, begin + RULES_BEGIN.length)}\n${rulesMarkdown()}\n${markdown.slice(end)}`;
}
