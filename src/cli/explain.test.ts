// `envelope-inspector explain RULE`: exit 0 with the catalogue's text for every rule id and error
// code docs/report.md lists, 2 with a one-line reason for anything else (and the ids a prefix
// names), through run(argv, io) and once through the compiled binary; the text is terminal-safe.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { explainText, suggestRuleIds } from '../core/explain';
import { RULE_IDS, ruleMeta, rulesWithPrefix } from '../core/rules';
import { type CliIo, run } from './main';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// docs/report.md lists exactly these (its list is generated from the catalogue: rules.test.ts).
const DOCUMENTED = RULE_IDS;

function fakeIo(): { io: CliIo; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    readFile: async () => {
      throw new Error('explain reads no file');
    },
    readStdin: async () => {
      throw new Error('explain reads no stdin');
    },
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
  };
  return { io, out, err };
}

async function explain(...args: string[]) {
  const fake = fakeIo();
  const code = await run(['explain', ...args], fake.io);
  return { code, out: fake.out.join(''), err: fake.err.join('') };
}

// C0 (newline aside), DEL, C1 and the bidi controls: never in what explain prints.
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('explain RULE', () => {
  it('exits 0 and prints the explanation for every rule id and error code in docs/report.md', async () => {
    expect(DOCUMENTED.length).toBeGreaterThan(60);
    for (const id of DOCUMENTED) {
      const r = await explain(id);
      expect(r.code, id).toBe(0);
      expect(r.err, id).toBe('');
      expect(r.out, id).toBe(explainText(id));
    }
  });

  it('the text has the title, why, the spec with its reference, the fix and the example, and is terminal-safe', () => {
    for (const id of RULE_IDS) {
      const meta = ruleMeta(id)!;
      const text = explainText(id)!;
      const flat = text.replace(/\s+/g, ' ');
      expect(text.startsWith(`${id}\n`), id).toBe(true);
      for (const heading of ['Why it matters', 'What the spec says', 'What usually fixes it', 'Example']) expect(text, id).toContain(`\n${heading}\n`);
      expect(flat, id).toContain(meta.title.replace(/\s+/g, ' '));
      expect(flat, id).toContain(meta.why.replace(/\s+/g, ' '));
      expect(flat, id).toContain(meta.fix.replace(/\s+/g, ' '));
      for (const q of meta.spec) expect(text, id).toContain(`docs/${q.doc}, "${q.section}":`);
      expect(text, id).not.toMatch(UNSAFE);
      for (const line of text.split('\n')) expect(line.length, `${id}: ${line}`).toBeLessThanOrEqual(100);
    }
  });

  it('says what kind of rule it is: a finding with its severity, or a decode error', () => {
    expect(explainText('agdx/noncanonical')).toContain('Finding, severity warning.');
    expect(explainText('agdx/header/av')).toContain('severity error (warning in the cases the title names)');
    expect(explainText('agdx/fold/dead')).toContain('whole log');
    expect(explainText('cbor/truncated')).toContain('Decode error (error.code)');
  });

  it('wraps prose at the width asked for, or not at all', () => {
    const narrow = explainText('agdx/matrix/correlation', 60)!;
    const prose = narrow.split('\n').filter((l) => !/^\s*[|{[]/.test(l));
    for (const line of prose) expect(line.length, line).toBeLessThanOrEqual(60);
    const whole = explainText('agdx/matrix/correlation', 0)!;
    expect(whole).toContain(`  ${ruleMeta('agdx/matrix/correlation')!.why}\n`);
  });

  it('exits 2 with a one-line reason for an unknown id, suggesting the closest by spelling', async () => {
    const r = await explain('agdx/matrix/corelation');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.trimEnd().split('\n')).toEqual(['envelope-inspector: "agdx/matrix/corelation" is not a rule id; did you mean agdx/matrix/correlation?']);
    const far = await explain('no-such-rule');
    expect(far.code).toBe(2);
    expect(far.out).toBe('');
    expect(far.err.trimEnd().split('\n')).toHaveLength(1);
    expect(far.err).toContain('rule ids start with agdx/, agentdna/, cbor/, json/ or input/');
  });

  it('a prefix is not a rule id: exit 2, and the ids it starts are listed with their titles', async () => {
    const r = await explain('agdx/matrix');
    expect(r.code).toBe(2);
    expect(r.err.trimEnd().split('\n')).toEqual([
      'envelope-inspector: "agdx/matrix" is not a rule id; the 13 rule ids starting with it are listed on standard output',
    ]);
    const listed = r.out.split('\n');
    expect(listed.map((l) => l.split(/\s+/)[0])).toEqual(rulesWithPrefix('agdx/matrix/').map((m) => m.id));
    expect(listed[0]).toContain(ruleMeta('agdx/matrix/record')!.title);
    // An unknown member of a known family lists the family.
    const member = await explain('agdx/fold/zombie');
    expect(member.code).toBe(2);
    expect(member.out.split('\n').map((l) => l.split(/\s+/)[0])).toEqual([
      'agdx/fold/unauthorised',
      'agdx/fold/quarantined',
      'agdx/fold/dead',
      'agdx/fold/after-terminal',
    ]);
  });

  it('internal codes and prototype names are unknown', async () => {
    for (const id of ['json/too-deep', 'permalink/damaged', '__proto__', 'constructor']) expect((await explain(id)).code, id).toBe(2);
  });

  it('echoes a hostile argument escaped, never raw', async () => {
    const r = await explain('x\u001b]0;pwned\u0007\r\u202eevil\u009b');
    expect(r.code).toBe(2);
    expect(r.err).not.toMatch(UNSAFE);
    expect(r.err).toContain('\\u001b]0;pwned\\u0007\\r\\u202eevil\\u009b');
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
  });

  it('a missing or second RULE is a usage error (2); --help prints the usage (0)', async () => {
    expect((await explain()).code).toBe(2);
    expect((await explain('agdx/noncanonical', 'cbor/invalid')).code).toBe(2);
    const help = await explain('--help');
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^usage: envelope-inspector explain RULE/);
    // The top-level usage names explain too.
    const top = fakeIo();
    expect(await run(['--help'], top.io)).toBe(0);
    expect(top.out.join('')).toContain('envelope-inspector explain RULE');
  });

  it('suggestions: case and spelling', () => {
    expect(suggestRuleIds('AGDX/Matrix/Correlation')).toEqual({ kind: 'spelling', ids: ['agdx/matrix/correlation'] });
    expect(suggestRuleIds('cbor/')).toMatchObject({ kind: 'prefix' });
    expect(suggestRuleIds('   ')).toEqual({ kind: 'none', ids: [] });
  });

  it('the compiled binary explains a rule (exit 0) and refuses an unknown one (exit 2)', () => {
    const ok = spawnSync('node', ['bin/envelope-inspector.mjs', 'explain', 'agdx/matrix/correlation'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(ok.status).toBe(0);
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toBe(explainText('agdx/matrix/correlation'));
    const bad = spawnSync('node', ['bin/envelope-inspector.mjs', 'explain', 'agdx/matrix/nope'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trimEnd().split('\n')).toHaveLength(1);
  }, 60_000);
});
