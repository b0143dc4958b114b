// The command line's FILE arguments as the inputs to read: a file as it is, `-` for standard input,
// a directory's files recursively, in name order (hidden entries skipped; `--ext` keeps the names
// that end so). A file named on the command line is always read, whatever its extension.

/** One entry of a directory. */
export interface DirEntry {
  name: string;
  directory: boolean;
}

/** What expanding needs of the file system: a directory's entries, or null when the path is not a directory. */
export type ListDir = (path: string) => Promise<DirEntry[] | null>;

const join = (dir: string, name: string) => (dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`);

/** Whether a directory's file is read: no `exts` reads every file; else its name ends in `.ext` (case aside). */
export function extensionKept(name: string, exts: readonly string[]): boolean {
  if (exts.length === 0) return true;
  const lower = name.toLowerCase();
  return exts.some((e) => lower.endsWith(`.${e}`));
}

/**
 * The paths to read, in order: each argument, a directory replaced by its files (depth first, names
 * sorted by code unit). A directory that gives no file is an error naming it: nothing would be checked.
 */
export async function expandPaths(args: readonly string[], exts: readonly string[], listDir: ListDir | undefined): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, entries: DirEntry[]) => {
    for (const e of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (e.name.startsWith('.')) continue;
      const path = join(dir, e.name);
      if (e.directory) {
        const inner = await listDir!(path);
        if (inner) await walk(path, inner);
      } else if (extensionKept(e.name, exts)) out.push(path);
    }
  };
  for (const arg of args) {
    const entries = arg === '-' || !listDir ? null : await listDir(arg);
    if (entries === null) {
      out.push(arg);
      continue;
    }
    const before = out.length;
    await walk(arg, entries);
    if (out.length === before) throw new EmptyDirectory(arg, exts);
  }
  return out;
}

export class EmptyDirectory extends Error {
  constructor(
    readonly path: string,
    exts: readonly string[],
  ) {
    super(`${path} holds no file to read${exts.length ? ` ending in ${exts.map((e) => `.${e}`).join(', ')}` : ''}`);
  }
}
