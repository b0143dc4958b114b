// `envelope-inspector explain RULE`: what a rule id or decode-error code means (docs/report.md,
// "Command line"). Exit 0 for a known id, 2 for anything else, with a one-line reason on stderr;
// when ids start with what was asked (`explain agdx/matrix`), they are listed on stdout.
import { explainText, suggestRuleIds } from '../core/explain';
import { ruleMeta } from '../core/rules';

export const EXPLAIN_USAGE = `usage: envelope-inspector explain RULE
  RULE     a rule id or error code of the report (agdx/matrix/correlation, cbor/truncated, …): prints
           what it means, why it matters, where the spec says so and what usually fixes it
exit status: 0 for a known rule id; 2 for an unknown one (ids starting with RULE are listed)`;

/** What `explain` writes: only the standard-output and standard-error halves of the CLI's io. */
export interface ExplainIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

// The asked-for id is echoed back quoted and escaped, so that no argument can put a control or
// bidi character on the terminal: JSON escapes C0 controls and lone surrogates, this the rest.
const UNSAFE_AFTER_JSON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
function shown(arg: string): string {
  const cut = arg.length > 80 ? `${arg.slice(0, 80)}…` : arg;
  return JSON.stringify(cut).replace(UNSAFE_AFTER_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `argv` is what follows `explain`. Returns the exit status. */
export function explain(argv: string[], io: ExplainIo): number {
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
    io.stdout(EXPLAIN_USAGE);
    return 0;
  }
  if (argv.length !== 1) {
    io.stderr(`envelope-inspector: explain takes one RULE, got ${argv.length} (usage: envelope-inspector explain RULE)`);
    return 2;
  }
  const [rule] = argv;
  const text = explainText(rule);
  if (text !== null) {
    io.stdout(text);
    return 0;
  }
  const { kind, ids } = suggestRuleIds(rule);
  switch (kind) {
    case 'prefix':
    case 'family': {
      const what =
        kind === 'prefix' ? `the ${ids.length} rule ids starting with it` : `the rule ids of its family ${ids[0].slice(0, ids[0].lastIndexOf('/') + 1)}`;
      io.stderr(`envelope-inspector: ${shown(rule)} is not a rule id; ${what} are listed on standard output`);
      const width = Math.max(...ids.map((id) => id.length));
      io.stdout(ids.map((id) => `${id.padEnd(width)}  ${ruleMeta(id)!.title}`).join('\n'));
      return 2;
    }
    case 'spelling':
      io.stderr(`envelope-inspector: ${shown(rule)} is not a rule id; did you mean ${ids.length === 1 ? ids[0] : `one of ${ids.join(', ')}`}?`);
      return 2;
    default:
      io.stderr(
        `envelope-inspector: ${shown(rule)} is not a rule id; rule ids start with agdx/, agentdna/, cbor/, json/ or input/ (envelope-inspector explain agdx lists the agdx ones)`,
      );
      return 2;
  }
}
