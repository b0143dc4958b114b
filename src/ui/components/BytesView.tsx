// The Bytes section of a record's detail: its bytes as hex (a click selects the byte's field) or as
// CBOR diagnostic notation (what cbor.me shows), with the selected stretch or all of them to copy.
import { useState } from 'react';
import type { Span } from '../../core/model';
import type { RecordDetail } from '../../wire/protocol';
import { displayLines, hex2 } from '../format';
import { CopyButton } from './CopyButton';
import { HexView } from './HexView';
import { Section } from './Section';

const ORIGIN_WORDS = {
  input: 'offsets into the input file',
  payload: 'offsets into the message payload (decoded from base64)',
  'decoded-text': 'offsets into the bytes decoded from the pasted text',
};

/** The hex of `bytes` (offset `offset` in span coordinates) within `span`, or of all of them. */
function hexOf(bytes: Uint8Array, offset: number, span: Span | null): string {
  const from = span ? Math.max(0, span[0] - offset) : 0;
  const to = span ? Math.min(bytes.length, span[1] - offset) : bytes.length;
  return Array.from(bytes.subarray(from, to), hex2).join('');
}

export function BytesView({ detail, highlight, onByte }: { detail: RecordDetail; highlight: Span | null; onByte: (offset: number) => void }) {
  const [view, setView] = useState<'hex' | 'diagnostic'>('hex');
  const diag = detail.diagnostic;
  const shown = view === 'diagnostic' && diag !== null ? 'diagnostic' : 'hex';
  const span = highlight && highlight[1] > highlight[0] ? highlight : null;
  const toggle = (which: 'hex' | 'diagnostic', label: string) => (
    <button
      type="button"
      aria-pressed={shown === which}
      onClick={() => setView(which)}
      className={`px-1.5 py-0 text-[11px] focus-visible:outline-2 focus-visible:outline-teal-600 ${shown === which ? 'bg-slate-200 font-semibold dark:bg-slate-700' : 'hover:bg-slate-100 dark:hover:bg-slate-800'}`}
    >
      {label}
    </button>
  );
  return (
    <Section title="Bytes">
      <div className="mb-1 flex flex-wrap items-center gap-2">
        {diag !== null && (
          // biome-ignore lint/a11y/useSemanticElements: two toggle buttons, one pressed (not form controls to submit)
          <span role="group" aria-label="Show the bytes as" className="inline-flex overflow-hidden rounded border border-slate-300 dark:border-slate-600">
            {toggle('hex', 'Hex')}
            {toggle('diagnostic', 'Diagnostic notation')}
          </span>
        )}
        {shown === 'hex' ? (
          <CopyButton
            label={span ? 'Copy selected hex' : 'Copy hex'}
            title={span ? `The hex of bytes ${span[0]}–${span[1] - 1}` : 'The hex of every byte shown'}
            text={() => hexOf(detail.hex, detail.hexOffset, span)}
          />
        ) : (
          <CopyButton label="Copy diagnostic notation" title="The bytes as CBOR diagnostic notation (Paste reads it back)" text={() => diag ?? ''} />
        )}
      </div>
      <p className="mb-1 text-[11px] text-slate-500 dark:text-slate-400">
        {detail.hex.length} bytes, {ORIGIN_WORDS[detail.viewOrigin]}
        {detail.hexTruncated && ' (the first 1 MiB)'}.{' '}
        {shown === 'hex' ? 'Click a byte to select its field.' : 'CBOR diagnostic notation (RFC 8949, section 8): Paste reads it back.'}
      </p>
      {shown === 'hex' ? (
        <HexView bytes={detail.hex} offset={detail.hexOffset} highlight={highlight} onByte={onByte} label="Hex view" />
      ) : (
        <section aria-label="Diagnostic notation" data-testid="diagnostic-view">
          <pre className="max-h-[24rem] overflow-auto rounded border border-slate-200 bg-slate-50 p-2 font-mono text-xs whitespace-pre-wrap break-all dark:border-slate-800 dark:bg-slate-900">
            {/* Its text strings are the record's: escaped for the page (JSON.stringify leaves bidi controls raw); copied as they are. */}
            {displayLines(diag ?? '')}
          </pre>
        </section>
      )}
    </Section>
  );
}
