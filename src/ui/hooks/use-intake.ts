// Every way in: a drop anywhere on the page, the file picker, Paste, the samples and a Retry all
// become named Blobs (sources.ts) and go through the one load path (useLoads). On the first visit the
// samples load by themselves, unless the address opens a shared link, and the page says they are
// samples until the person dismisses the note or loads something else.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { InputPayload } from '../../wire/protocol';
import { fromFiles, loadedOnFirstVisit, fromSamples, fromText, sampleList, type Sample } from '../sources';
import type { Loads } from './use-loads';

const VISITED_KEY = 'envelope-inspector.visited';

export interface Intake {
  /** Files are being dragged over the page. */
  dragging: boolean;
  /** The bundled samples, when their list has come. */
  samples: Sample[];
  /** What is loaded is the samples a first visit loaded by itself (the page says so, once). */
  firstVisitSamples: boolean;
  /** The person has read the note about them (or moved on: loaded something else, cleared). */
  dismissSamplesNote: () => void;
  files: (files: FileList) => void;
  text: (text: string) => void;
  sampleSet: (samples: Sample[]) => void;
  retry: (input: InputPayload) => void;
}

export function useIntake({ load, openLink }: Pick<Loads, 'load' | 'openLink'>): Intake {
  const [firstVisitSamples, setFirstVisitSamples] = useState(false);
  const dragging = useFileDrop(
    useCallback(
      (files: FileList) => {
        setFirstVisitSamples(false);
        void load(fromFiles(files));
      },
      [load],
    ),
  );
  const [samples, setSamples] = useState<Sample[]>([]);
  // The samples' index, fetched once: the Samples menu and a first visit's load both read it.
  const index = useRef<Promise<Sample[]> | null>(null);
  const samplesIndex = useCallback(() => (index.current ??= sampleList()), []);
  useEffect(() => {
    samplesIndex().then(setSamples, () => setSamples([]));
  }, [samplesIndex]);

  // A permalink opens its view (trust comes only from this browser's own registry); otherwise the
  // bundled samples load on the first visit, so a newcomer sees something at once.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (/^#v\d+\./.test(location.hash)) {
      void openLink(location.hash);
      return;
    }
    const params = new URLSearchParams(location.search);
    if (params.get('samples') === 'none' || localStorage.getItem(VISITED_KEY)) return;
    localStorage.setItem(VISITED_KEY, '1');
    void load(samplesIndex().then((all) => fromSamples(loadedOnFirstVisit(all)))).then(() => setFirstVisitSamples(true));
  }, [load, openLink, samplesIndex]);

  return useMemo(() => {
    // Anything else loaded: what is on the page is no longer only the samples.
    const moveOn = () => setFirstVisitSamples(false);
    return {
      dragging,
      samples,
      firstVisitSamples,
      dismissSamplesNote: moveOn,
      files: (files: FileList) => (moveOn(), void load(fromFiles(files))),
      text: (text: string) => (moveOn(), void load([fromText(text)])),
      sampleSet: (chosen: Sample[]) => (moveOn(), void load(fromSamples(chosen))),
      retry: (input: InputPayload) => void load([input]),
    };
  }, [dragging, samples, firstVisitSamples, load]);
}

/** Files dropped anywhere on the page go to `onFiles`; true while files are dragged over it. */
function useFileDrop(onFiles: (files: FileList) => void): boolean {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => !!e.dataTransfer && [...e.dataTransfer.types].includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      setDragging(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const over = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      e.preventDefault();
      depth = 0;
      setDragging(false);
      const files = e.dataTransfer?.files;
      if (files?.length) onFiles(files);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [onFiles]);
  return dragging;
}
