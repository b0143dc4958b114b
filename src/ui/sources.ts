// Every way in (drop, picker, paste, samples) becomes the same list of named Blobs, which go to
// the worker through one load path.
import type { InputPayload } from '../wire/protocol';

export async function fromFiles(files: Iterable<File>): Promise<InputPayload[]> {
  // The File itself goes to the worker, which reads it: nothing is read or copied on the page.
  return [...files].map((f) => ({ name: f.name, data: f }));
}

let pasteCount = 0;
export function fromText(text: string, name?: string): InputPayload {
  pasteCount++;
  return { name: name ?? `pasted text ${pasteCount}`, data: new Blob([text]) };
}

export interface Sample {
  file: string;
  title: string;
  /** false: in the Samples menu only, not loaded on the first visit (default true). */
  firstVisit?: boolean;
}

/** The samples a first visit loads. */
export const loadedOnFirstVisit = (all: Sample[]): Sample[] => all.filter((s) => s.firstVisit !== false);

export async function sampleList(): Promise<Sample[]> {
  const res = await fetch(`${import.meta.env.BASE_URL}samples/index.json`);
  if (!res.ok) throw new Error(`samples/index.json: HTTP ${res.status}`);
  return (await res.json()) as Sample[];
}

export async function fromSamples(samples: Sample[]): Promise<InputPayload[]> {
  return Promise.all(
    samples.map(async (s) => {
      const res = await fetch(`${import.meta.env.BASE_URL}samples/${s.file}`);
      if (!res.ok) throw new Error(`samples/${s.file}: HTTP ${res.status}`);
      return { name: s.file, data: await res.blob() };
    }),
  );
}
