// The samples' signed command is signed by a published test key (the Ed25519 seed of 32 bytes 0x07,
// key id fe812c12f3ab4ce6): "Trust the sample key" adds its key file (public/samples/sample-key.json)
// to the registry through the Keys dialog's own path (keys-add.ts), and the newcomer sees the record
// become trusted. Offered where that key signed what is selected, and in the first visit's note.
import { useQuery } from '@tanstack/react-query';
import { isKeyEntry, parseKeys } from '../core/keys/keys';
import { addKeys } from './keys-add';
import { useRegistry } from './registry-context';

export interface SampleKey {
  /** The test key's id, once its file has come (null before, or when it could not be read). */
  keyId: string | null;
  /** The registry holds it. */
  trusted: boolean;
  trust: () => void;
}

async function sampleKeyFile(): Promise<{ text: string; id: string | null }> {
  const res = await fetch(`${import.meta.env.BASE_URL}samples/sample-key.json`);
  if (!res.ok) throw new Error(`samples/sample-key.json: HTTP ${res.status}`);
  const text = await res.text();
  const key = parseKeys(text).keys.find(isKeyEntry);
  return { text, id: key?.id ?? null };
}

/**
 * The sample key's state: whether the reader's registry holds it, and the way to add it (a change
 * that would widen an entry already there waits for Accept in Keys, as any such change does).
 */
export function useSampleKey(): SampleKey {
  const { keys, change, addPending } = useRegistry();
  const file = useQuery({ queryKey: ['sample-key'], queryFn: sampleKeyFile, staleTime: Infinity, retry: false });
  const keyId = file.data?.id ?? null;
  return {
    keyId,
    trusted: keyId !== null && keys.some((k) => isKeyEntry(k) && k.id === keyId && !k.revoked),
    trust: () => {
      if (!file.data) return;
      const { waiting } = addKeys(file.data.text, { kind: 'agent', from: 'the samples (a public test key)' }, change);
      if (waiting.length) addPending(waiting);
    },
  };
}

/**
 * The button, and what it does in words (the key is public: good for the samples only); `short`:
 * the button alone, its words in its tooltip (the first visit's note has one line to spare).
 */
export function TrustSampleKey({ className = '', short = false }: { className?: string; short?: boolean }) {
  const { keyId, trusted, trust } = useSampleKey();
  if (keyId === null) return null;
  const words = `Signed by the samples' public test key ${keyId} (seed 32 × 0x07: never trust it for anything else).`;
  if (trusted)
    return (
      <span className={`text-xs text-emerald-800 dark:text-emerald-300 ${className}`} data-testid="sample-key-trusted">
        {short ? 'Sample key trusted.' : `The sample key (${keyId}) is in your registry: the signed sample is trusted. Remove it under Keys.`}
      </span>
    );
  const button = (
    <button
      type="button"
      onClick={trust}
      title={`${words} Adds it to your key registry, for source-agent.`}
      className="rounded border border-emerald-600 bg-white px-2 py-0.5 font-medium text-emerald-900 hover:bg-emerald-50 focus-visible:outline-2 focus-visible:outline-teal-600 dark:border-emerald-500 dark:bg-slate-950 dark:text-emerald-200 dark:hover:bg-emerald-950"
    >
      Trust the sample key
    </button>
  );
  if (short) return button;
  return (
    <span className={`inline-flex flex-wrap items-baseline gap-x-2 text-xs ${className}`}>
      <span>{words}</span>
      {button}
    </span>
  );
}
