// Rewrites docs/report.md's generated list of rule ids and decode-error codes from the catalogue
// (src/core/rules.ts), between its marker lines; everything else in the file stays as written.
// Run: npm run docs:rules (after adding or changing a rule; after a merge that touched rules.ts,
// take both sides of rules.ts and run it again). rules.test.ts fails while the file is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withRulesSection } from '../src/core/rules-markdown';

const path = fileURLToPath(new URL('../docs/report.md', import.meta.url));
const before = readFileSync(path, 'utf8');
const after = withRulesSection(before);
if (after !== before) writeFileSync(path, after);
process.stdout.write(after === before ? 'docs/report.md: the rule list is up to date\n' : 'docs/report.md: the rule list was rewritten\n');
