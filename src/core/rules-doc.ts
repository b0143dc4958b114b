// The rule ids and decode-error codes docs/report.md lists, read from its Markdown, with the
// severities it states for them. The tests use it to keep the catalogue (rules.ts), the command
// line and the docs equal; pure (the caller reads the file).
import type { Severity } from './rules';

export interface DocumentedRule {
  id: string;
  kind: 'finding' | 'decode-error';
  /** The severities report.md states, the default first; empty when it states none. */
  severities: Severity[];
}

export interface DocumentedRules {
  /** Ids listed as rules: in bullets (families expanded by the members they name) and in the decode-errors paragraph. */
  listed: Map<string, DocumentedRule>;
  /** Every backticked complete id anywhere in the text (a family like `agdx/fold/*` aside). */
  mentioned: Set<string>;
}

const ID = /^(agdx|agentdna|cbor|json|input)\/[a-z0-9_/-]+$/;
const FAMILY = /^(agdx|agentdna|cbor|json|input)\/[a-z0-9_/-]*<[a-z_]+>$/;
const SEVERITY = /\b(error|warning|info)\b/g;

const ticks = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
const severitiesIn = (text: string): Severity[] => [...text.matchAll(SEVERITY)].map((m) => m[1] as Severity);
const regexEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Bullets (`- ` and their indented continuation lines), each joined into one line. */
function bullets(lines: string[]): string[] {
  const out: string[] = [];
  let current: string | null = null;
  for (const line of lines) {
    if (line.startsWith('- ')) {
      if (current !== null) out.push(current);
      current = line;
    } else if (current !== null && line.startsWith('  ') && line.trim() !== '') current += ` ${line.trim()}`;
    else if (current !== null) {
      out.push(current);
      current = null;
    }
  }
  if (current !== null) out.push(current);
  return out;
}

/** The severity a bullet states for its head id: `id` (error, or warning …), `id`: warning. …, or "Severity error". */
function bulletSeverities(bullet: string, head: string): Severity[] {
  const h = regexEscape(head);
  const paren = bullet.match(new RegExp(`^- \`${h}\` \\(([^)]*)\\)`));
  if (paren) return severitiesIn(paren[1]);
  const colon = bullet.match(new RegExp(`^- \`${h}\`: (error|warning|info)\\b`));
  if (colon) return [colon[1] as Severity];
  const stated = bullet.match(/\bSeverity (error|warning|info)\b/);
  if (stated) return [stated[1] as Severity];
  // A family's bullet: a severity standing alone in parentheses, as in "(warning)".
  const alone = bullet.match(/\((error|warning|info)\)/);
  return alone ? [alone[1] as Severity] : [];
}

export function documentedRules(markdown: string): DocumentedRules {
  const lines = markdown.split('\n');
  const listed = new Map<string, DocumentedRule>();
  const add = (id: string, kind: DocumentedRule['kind'], severities: Severity[]) => {
    const had = listed.get(id);
    if (had && had.kind !== kind) throw new Error(`report.md lists ${id} both as a finding and as a decode error`);
    if (!had || had.severities.length === 0) listed.set(id, { id, kind, severities });
  };

  // A family may be stated in one bullet and its members named in another (`agdx/body/<codec>`).
  const familySeverities = new Map<string, Severity[]>();
  for (const bullet of bullets(lines)) {
    if (!bullet.startsWith('- `')) continue;
    const [head, ...rest] = ticks(bullet);
    if (FAMILY.test(head)) {
      const prefix = head.slice(0, head.indexOf('<'));
      const stated = bulletSeverities(bullet, head);
      if (stated.length && !familySeverities.has(prefix)) familySeverities.set(prefix, stated);
      for (const member of rest.filter((t) => /^[a-z_]+$/.test(t))) {
        // A member may state its own: "`ct` (unknown content-type code: info only)".
        const own = bullet.match(new RegExp(`\`${regexEscape(member)}\` \\([^)]*\\b(error|warning|info) only\\)`));
        add(prefix + member, 'finding', own ? [own[1] as Severity] : stated);
      }
    } else if (ID.test(head)) add(head, 'finding', bulletSeverities(bullet, head));
  }
  for (const rule of listed.values()) {
    const family = familySeverities.get(rule.id.slice(0, rule.id.lastIndexOf('/') + 1));
    if (rule.severities.length === 0 && family) rule.severities = family;
  }

  const start = lines.findIndex((l) => l.startsWith('Decode errors (`error.code`'));
  if (start < 0) throw new Error('report.md has no decode-errors paragraph');
  for (let i = start; i < lines.length && lines[i].trim() !== ''; i++) {
    for (const t of ticks(lines[i])) if (ID.test(t)) add(t, 'decode-error', []);
  }

  const mentioned = new Set(ticks(markdown).filter((t) => ID.test(t)));
  return { listed, mentioned };
}
