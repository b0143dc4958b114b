// The app lays out `ruleExplanation`; the CLI prints `explainText`: the same words, from the same
// catalogue entry. Unwrapped, the printed text is exactly the structured entry set out as lines.
import { describe, expect, it } from 'vitest';
import { explainText, ruleExplanation } from './explain';
import { RULE_IDS, ruleMeta } from './rules';

/** The structured entry as explain prints it unwrapped: headings, two-space indents, quotes at four. */
function asText(e: NonNullable<ReturnType<typeof ruleExplanation>>): string {
  const lines = [e.id, `  ${e.title}`, `  ${e.kind}`, '', 'Why it matters', `  ${e.why}`, '', 'What the spec says'];
  for (const q of e.spec) lines.push(`  ${q.doc}, "${q.section}":`, ...q.lines.map((l) => `    ${l}`));
  lines.push('', 'What usually fixes it', `  ${e.fix}`, '', 'Example', ...e.example.map((l) => `  ${l}`));
  return `${lines.join('\n')}\n`;
}

describe('ruleExplanation', () => {
  it('holds, for every rule id and error code, exactly the words explain prints', () => {
    for (const id of RULE_IDS) {
      const e = ruleExplanation(id);
      expect(e, id).not.toBeNull();
      expect(asText(e!), id).toBe(explainText(id, 0));
      expect(asText(e!), id).toBe(explainText(id, Infinity));
    }
  });

  it('every field is filled: title, kind, why, at least one quote with its reference, fix, example', () => {
    for (const id of RULE_IDS) {
      const e = ruleExplanation(id)!;
      const meta = ruleMeta(id)!;
      for (const field of [e.title, e.kind, e.why, e.fix]) expect(field.trim(), id).not.toBe('');
      expect(e.spec.length, id).toBe(meta.spec.length);
      expect(e.spec.length, id).toBeGreaterThan(0);
      for (const q of e.spec) {
        expect(q.doc, id).toMatch(/^docs\/[a-z0-9-]+\.md$/);
        expect(q.lines.join(' ').trim(), id).not.toBe('');
      }
      expect(e.example.join('').trim(), id).not.toBe('');
    }
  });

  it('knows nothing of what is not a rule id (a prototype name included)', () => {
    for (const id of ['agdx/matrix/', 'agdx/nope', '__proto__', 'constructor', '']) expect(ruleExplanation(id)).toBeNull();
  });
});
