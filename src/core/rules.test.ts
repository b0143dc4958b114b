// The rule catalogue against what it describes: docs/report.md's generated list is the one it makes,
// the inspector emits nothing outside it over vectors/ and in its source (every finding made by
// finding()), every entry's text is there and its spec quotes are the docs' own words, and finding()
// keeps to it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SESSION_RULES } from './folds/model';
import { inspect } from './inspect';
import { buildReport } from './report';
import {
  BODY_CODECS,
  type BodyCodec,
  CAP_NAMES,
  type CapName,
  type FindingRuleId,
  finding,
  HEADER_NAMES,
  type HeaderName,
  INTERNAL_CODES,
  isRuleId,
  MATRIX_FIELDS,
  type MatrixField,
  RULE_IDS,
  type RuleId,
  ruleMeta,
  ruleSeverity,
  rulesWithPrefix,
} from './rules';
import { RULES_BEGIN, RULES_END, rulesMarkdown, withRulesSection } from './rules-markdown';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const doc = (name: string) => readFileSync(join(ROOT, 'docs', name), 'utf8');

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
}

// The template families are typed: these compile only while every member is a rule id.
const matrixRule = (f: MatrixField): FindingRuleId => `agdx/matrix/${f}`;
const capRule = (c: CapName): FindingRuleId => `agdx/cap/${c}`;
const headerRule = (h: HeaderName): FindingRuleId => `agdx/header/${h}`;
const bodyRule = (b: BodyCodec): FindingRuleId => `agdx/body/${b}`;

describe('docs/report.md and the catalogue list the same ids', () => {
  it('its generated list is the one the catalogue makes now (run `npm run docs:rules` after changing a rule)', () => {
    const text = doc('report.md');
    expect(text).toBe(withRulesSection(text));
    // Not vacuous: the list is there, one row per id.
    for (const id of RULE_IDS) expect(rulesMarkdown(), id).toContain(`| \`${id}\` |`);
  });

  it('every id report.md mentions anywhere is in the catalogue', () => {
    const mentioned = [...doc('report.md').matchAll(/`((?:agdx|agentdna|cbor|json|input)\/[a-z0-9_/-]+)`/g)].map((m) => m[1]);
    expect(mentioned.length).toBeGreaterThan(RULE_IDS.length);
    for (const id of mentioned) expect(isRuleId(id), id).toBe(true);
  });

  it('the typed families are the members the catalogue lists', () => {
    expect([...MATRIX_FIELDS].map(matrixRule)).toEqual(rulesWithPrefix('agdx/matrix/').map((m) => m.id));
    expect([...CAP_NAMES].map(capRule)).toEqual(rulesWithPrefix('agdx/cap/').map((m) => m.id));
    expect([...HEADER_NAMES].map(headerRule)).toEqual(rulesWithPrefix('agdx/header/').map((m) => m.id));
    expect([...BODY_CODECS].map(bodyRule)).toEqual(rulesWithPrefix('agdx/body/').map((m) => m.id));
  });

  it('the generated list is spliced between its markers, and a document without them is refused', () => {
    const spliced = withRulesSection(`before\n${RULES_BEGIN}\nstale\n${RULES_END}\nafter\n`);
    expect(spliced).toBe(`before\n${RULES_BEGIN}\n${rulesMarkdown()}\n${RULES_END}\nafter\n`);
    expect(withRulesSection(spliced)).toBe(spliced);
    expect(() => withRulesSection('no markers')).toThrow(TypeError);
    expect(() => withRulesSection(`${RULES_END}\n${RULES_BEGIN}`)).toThrow(TypeError);
    expect(() => withRulesSection(`${RULES_BEGIN}\n${RULES_END}\n${RULES_BEGIN}\n${RULES_END}`)).toThrow(TypeError);
  });
});

describe('what the inspector emits is in the catalogue', () => {
  it('every finding and error code over vectors/, as the CLI reads each file, with a severity the catalogue allows', () => {
    const seen = new Set<string>();
    for (const path of walk(join(ROOT, 'vectors'))) {
      const name = relative(ROOT, path);
      // As src/cli/main.ts does it.
      const report = buildReport(inspect([{ name, bytes: new Uint8Array(readFileSync(path)) }], { detail: false }));
      for (const r of report.records) {
        if (r.error) {
          const meta = ruleMeta(r.error.code);
          expect(meta?.kind, `${name}: error ${r.error.code}`).toBe('decode-error');
          seen.add(r.error.code);
        }
        for (const f of r.findings) {
          const meta = ruleMeta(f.rule);
          expect(meta?.kind, `${name}: finding ${f.rule}`).toBe('finding');
          if (meta?.kind === 'finding') expect(meta.severities, `${name}: ${f.rule} as ${f.severity}`).toContain(f.severity);
          seen.add(f.rule);
        }
      }
    }
    // Not vacuous: the corpus exercises decode errors, matrix, folds, graph and AgentDNA rules.
    for (const id of [
      'cbor/truncated',
      'input/unrecognized',
      'agdx/matrix/correlation',
      'agdx/fold/dead',
      'agdx/graph/cause-mismatch',
      'agentdna/hash',
      'agdx/body/cbor',
    ]) {
      expect(seen, id).toContain(id);
    }
  });

  it('every rule id or code spelled out in the source is in the catalogue (or one of the documented internal codes)', () => {
    const literal = /['"`]((?:agdx|agentdna|cbor|json|input)\/[a-z0-9_/-]*[a-z0-9_-])['"`]/g;
    const found = new Map<string, string>();
    for (const path of walk(join(ROOT, 'src'))) {
      if (!/\.tsx?$/.test(path) || /\.test\.tsx?$/.test(path) || /src\/core\/rules(-markdown)?\.ts$/.test(path)) continue;
      // Code, not comments: a comment may name a family (`agdx/matrix`) that is no rule id.
      const code = readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\/\/|\/?\*)/.test(line))
        .join('\n');
      for (const m of code.matchAll(literal)) found.set(m[1], relative(ROOT, path));
    }
    expect(found.size).toBeGreaterThan(20);
    for (const [id, where] of found) {
      if (INTERNAL_CODES.includes(id)) continue;
      expect(isRuleId(id), `${id} (${where})`).toBe(true);
    }
    // The internal codes are what their comment says: spelled out, and not in the catalogue.
    for (const id of INTERNAL_CODES) {
      expect(found.has(id), id).toBe(true);
      expect(isRuleId(id), id).toBe(false);
    }
  });

  it('every finding in the source is made by finding(): no object literal spells out a rule, a severity and a message', () => {
    // A Finding written as a literal skips the catalogue's severity (and its check of the others allowed).
    // (Object literals only: an interface's members end in semicolons.)
    const literal = /\{[^{};]*\brule:[^{};]*\bseverity:[^{};]*\bmessage:/g;
    // The scan sees a literal where there is one, over several lines too.
    expect("out.push({\n  rule: 'agdx/noncanonical',\n  severity: 'warning',\n  path: p,\n  message: m,\n  span,\n});".match(literal)).toHaveLength(1);
    const literals: string[] = [];
    for (const path of walk(join(ROOT, 'src'))) {
      if (!/\.tsx?$/.test(path) || /\.test\.tsx?$/.test(path) || /src\/core\/rules\.ts$/.test(path)) continue;
      for (const m of readFileSync(path, 'utf8').matchAll(literal)) literals.push(`${relative(ROOT, path)}: ${m[0].replace(/\s+/g, ' ').slice(0, 80)}`);
    }
    expect(literals).toEqual([]);
  });

  it('an example naming a laser-wire fixture is true: the fixture fires the rule', () => {
    let checked = 0;
    for (const id of RULE_IDS) {
      const fixture = ruleMeta(id)!.example.match(/laser-wire fixture (\w+\.bin)/)?.[1];
      if (!fixture) continue;
      checked++;
      const bytes = new Uint8Array(readFileSync(join(ROOT, 'vectors/agdx/laser-wire-0.0.1', fixture)));
      const report = buildReport(inspect([{ name: fixture, bytes }], { detail: false }));
      const fired = report.records.flatMap((r) => [...r.findings.map((f) => f.rule), ...(r.error ? [r.error.code] : [])]);
      expect(fired, `${id}: ${fixture}`).toContain(id);
    }
    expect(checked).toBeGreaterThan(8);
  });
});

/** The lines of `section` (a `## ` heading starting so) of a Markdown document. */
function sectionOf(markdown: string, section: string): string | null {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => /^#{2,3} /.test(l) && l.replace(/^#+ /, '').startsWith(section));
  if (start < 0) return null;
  const end = lines.findIndex((l, i) => i > start && /^#{1,3} /.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('every entry', () => {
  it('has its text: a one-line title, why, spec, fix and example, and the id, family and kind that match', () => {
    for (const id of RULE_IDS) {
      const m = ruleMeta(id)!;
      expect(m.id).toBe(id);
      expect(id.startsWith(`${m.family}/`), id).toBe(true);
      for (const field of ['title', 'why', 'fix', 'example'] as const) expect(m[field].trim().length, `${id} ${field}`).toBeGreaterThan(10);
      expect(m.title, id).not.toMatch(/\n/);
      expect(m.title.length, id).toBeLessThanOrEqual(110);
      expect(m.why, id).not.toMatch(/\n/);
      // One to three sentences, concrete: no more than ~600 characters.
      expect(m.why.length, id).toBeLessThanOrEqual(600);
      expect(m.spec.length, id).toBeGreaterThan(0);
      if (m.kind === 'finding') expect(m.severities[0]).toBe(m.severity);
      expect(Object.isFrozen(m), id).toBe(true);
    }
  });

  it("quotes the spec faithfully: each quote is in the named document's named section, elisions aside", () => {
    const docs = new Map<string, string>();
    for (const id of RULE_IDS) {
      for (const q of ruleMeta(id)!.spec) {
        if (!docs.has(q.doc)) docs.set(q.doc, doc(q.doc));
        const section = sectionOf(docs.get(q.doc)!, q.section);
        expect(section, `${id}: ${q.doc} has no section "${q.section}"`).not.toBeNull();
        const text = squash(section!);
        let from = 0;
        for (const part of q.quote
          .split('[...]')
          .map(squash)
          .filter((p) => p !== '')) {
          const at = text.indexOf(part, from);
          expect(at, `${id}: "${part}" is not in ${q.doc} "${q.section}" (after what came before it)`).toBeGreaterThanOrEqual(0);
          from = at + part.length;
        }
      }
    }
  });

  it("log-level rules are the graph, deadline and fold rules, and the session fold's lifecycle rules", () => {
    const sessionFold: readonly string[] = Object.values(SESSION_RULES);
    const isLog = (id: string) => /^agdx\/(graph|deadline|fold)\//.test(id) || sessionFold.includes(id);
    const log = RULE_IDS.filter((id) => ruleMeta(id)!.scope === 'log');
    expect(log.every(isLog)).toBe(true);
    expect(log).toHaveLength(RULE_IDS.filter(isLog).length);
  });
});

describe('lookups and finding()', () => {
  it('isRuleId and ruleMeta know the catalogue and nothing else, prototype names included', () => {
    expect(isRuleId('agdx/matrix/correlation')).toBe(true);
    expect(isRuleId('cbor/truncated')).toBe(true);
    for (const s of ['agdx/matrix', 'agdx/matrix/', 'json/too-deep', 'permalink/damaged', '__proto__', 'constructor', 'toString', '']) {
      expect(isRuleId(s), s).toBe(false);
      expect(ruleMeta(s), s).toBeNull();
    }
    expect(ruleMeta('agdx/fold/dead')).toMatchObject({ kind: 'finding', family: 'agdx', scope: 'log', severity: 'warning' });
    expect(ruleMeta('cbor/too-many-items')).toMatchObject({ kind: 'decode-error', family: 'cbor', scope: 'record' });
  });

  it('finding() gives the Finding shape with the default severity, or an allowed other one', () => {
    const span: [number, number] = [3, 9];
    expect(finding('agdx/matrix/correlation', 'correlation', 'command requires correlation', null)).toEqual({
      rule: 'agdx/matrix/correlation',
      severity: 'error',
      path: 'correlation',
      message: 'command requires correlation',
      span: null,
    });
    expect(finding('agdx/header/av', 'headers.agdx.av', 'no agdx.av header', span, 'warning')).toMatchObject({ severity: 'warning', span });
    expect(finding('agentdna/card-policy', 'policy', 'url-safe', null, 'warning').severity).toBe('warning');
  });

  it('ruleSeverity() gives a finding rule its default severity and a decode-error code error; an unknown id throws TypeError', () => {
    expect(ruleSeverity('agdx/fold/dead')).toBe('warning');
    expect(ruleSeverity('agdx/must-understand')).toBe('error');
    expect(ruleSeverity('cbor/truncated')).toBe('error');
    expect(() => ruleSeverity('agdx/nope' as RuleId)).toThrow(TypeError);
    expect(() => ruleSeverity('__proto__' as RuleId)).toThrow(TypeError);
  });

  it('finding() throws TypeError on a severity the catalogue does not list, or on an id that is not a finding rule', () => {
    expect(() => finding('agdx/matrix/correlation', null, 'x', null, 'info')).toThrow(TypeError);
    expect(() => finding('cbor/truncated' as FindingRuleId, null, 'x', null)).toThrow(TypeError);
    expect(() => finding('agdx/nope' as FindingRuleId, null, 'x', null)).toThrow(TypeError);
    expect(() => finding('__proto__' as RuleId as FindingRuleId, null, 'x', null)).toThrow(TypeError);
  });
});
