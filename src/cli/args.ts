// The command line's arguments: what `inspect` is asked to do, read the way eslint and cargo read
// theirs (report.md "Command line"). A usage error says what is wrong in one line; `-h` prints the
// usage of the subcommand it follows.
import { FAIL_ON, type FailOn, GENERATOR } from '../core/report';

export const FORMATS = ['text', 'json', 'markdown', 'github'] as const;
export type Format = (typeof FORMATS)[number];

export const INSPECT_USAGE = `usage: envelope-inspector inspect [OPTION]... FILE...
  FILE     an AGDX envelope, CBOR sequence, laser record, Iggy export (JSON or header block + payload),
           AgentDNA workflow, envelope or card, or hex/base64 text of one; - reads standard input;
           a directory is read recursively (its hidden entries skipped)
  --format text|json|markdown|github
           text: a readable summary (the default); json: the report@1 document; markdown: the app's
           summary; github: one workflow annotation per finding (::error file=F::…), then the summary
  --json   the same as --format json
  --fail-on error|warning|untrusted
           exit 1 when a record is undecoded, invalid or badly signed (error, the default); or also
           when it has a warning finding (warning); or also unless its signature is valid and its
           signer trusted (untrusted)
  --require-trusted
           the same as --fail-on untrusted
  --quiet, -q
           only the records with a problem (an error or warning finding, undecoded, badly signed, or
           failing --fail-on), and the summary
  --ext EXT[,EXT]...
           in a directory, read only the files whose names end in .EXT (repeatable)
  --keys FILE
           your registry: a key file (report.md: keys and AgentDNA DIDs), JWK/JWKS, PEM or hex public
           key (its agent, kind, window and revoked in FILE.json beside it); repeatable (a later file
           never loosens an earlier one: revocations and narrower windows stay)
  --version  print the version
  -h, --help print this help
exit status: 0 every record passes --fail-on; 1 otherwise; 2 usage or I/O error`;

export const USAGE_LINE = 'usage: envelope-inspector inspect [OPTION]... FILE... | explain RULE | --version';

export class UsageError extends Error {}

/** Not an error: a request for help or the version, answered on standard output with exit 0. */
export class Answer extends Error {}

export interface CliArgs {
  format: Format;
  failOn: FailOn;
  requireTrusted: boolean;
  quiet: boolean;
  keyFiles: string[];
  /** Extensions a directory's files must end in (lower case, no dot); empty: every file. */
  exts: string[];
  files: string[];
}

/** An option's value: `--opt value` or `--opt=value`. */
function optionValue(rest: string[], i: number, name: string): { value: string; next: number } {
  const arg = rest[i];
  if (arg.startsWith(`${name}=`)) return { value: arg.slice(name.length + 1), next: i };
  const value = rest[i + 1];
  if (value === undefined || value === '') throw new UsageError(`${name} needs a value`);
  return { value, next: i + 1 };
}

const is = (arg: string, name: string) => arg === name || arg.startsWith(`${name}=`);

/** The arguments of `inspect` (what follows it). */
export function parseInspectArgs(rest: string[]): CliArgs {
  let format: Format | null = null;
  let failOn: FailOn | null = null;
  let requireTrusted = false;
  let quiet = false;
  const files: string[] = [];
  const keyFiles: string[] = [];
  const exts: string[] = [];
  let onlyFiles = false;
  const setFormat = (f: Format, how: string) => {
    if (format !== null && format !== f) throw new UsageError(`${how} contradicts --format ${format}`);
    format = f;
  };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (onlyFiles || arg === '-' || !arg.startsWith('-')) {
      files.push(arg);
      continue;
    }
    if (arg === '--') onlyFiles = true;
    else if (arg === '-h' || arg === '--help') throw new Answer(INSPECT_USAGE);
    else if (arg === '--json') setFormat('json', '--json');
    else if (arg === '--quiet' || arg === '-q') quiet = true;
    else if (arg === '--require-trusted') requireTrusted = true;
    else if (is(arg, '--format')) {
      const { value, next } = optionValue(rest, i, '--format');
      if (!(FORMATS as readonly string[]).includes(value)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not ${JSON.stringify(value)}`);
      setFormat(value as Format, `--format ${value}`);
      i = next;
    } else if (is(arg, '--fail-on')) {
      const { value, next } = optionValue(rest, i, '--fail-on');
      if (!(FAIL_ON as readonly string[]).includes(value)) throw new UsageError(`--fail-on must be one of ${FAIL_ON.join(', ')}, not ${JSON.stringify(value)}`);
      if (failOn !== null && failOn !== value) throw new UsageError(`--fail-on is given twice (${failOn}, ${value})`);
      failOn = value as FailOn;
      i = next;
    } else if (is(arg, '--keys')) {
      const { value, next } = optionValue(rest, i, '--keys');
      keyFiles.push(value);
      i = next;
    } else if (is(arg, '--ext')) {
      const { value, next } = optionValue(rest, i, '--ext');
      for (const e of value.split(',')) {
        const ext = e.trim().replace(/^\./, '').toLowerCase();
        if (!ext) throw new UsageError(`--ext needs extensions such as cbor,json; got ${JSON.stringify(value)}`);
        exts.push(ext);
      }
      i = next;
    } else if (arg === '--version' || arg === '-V') throw new Answer(GENERATOR);
    else throw new UsageError(`unknown option ${arg}`);
  }
  if (files.length === 0) throw new UsageError('no FILE given');
  return { format: format ?? 'text', failOn: failOn ?? 'error', requireTrusted, quiet, keyFiles, exts, files };
}
