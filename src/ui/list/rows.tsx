// The record list's rows and input headers, in its two densities: compact (one line a record, in
// columns: kind, short id, source → target, time, type, verdict marks) and comfortable (the three
// badges in words on lines of their own). Strings from records go through displayText.
import { memo, type KeyboardEvent } from 'react';
import { crockfordToHex } from '../../core/bytes';
import { shortId } from '../../core/short-id';
import type { InputSummary } from '../../wire/protocol';
import { listType, type RecordSummary } from '../../wire/summary-pack';
import { Badge, Badges } from '../components/Badges';
import { Identity } from '../components/Identity';
import { RuleRef } from '../components/RuleRef';
import { clockOf, displayText, groupDigits, middleEllipsis } from '../format';
import type { Density } from './density';
import { VerdictMarks } from './VerdictMarks';

const short = (id: string | null) => (id ? shortId(id) : '—');
/** Characters of an input's name shown (cut in the middle: names of one family differ at their end). */
const NAME_CHARS = 48;

/** A row's height, and an input header's (an input nothing could be read from has its message too), in each density. */
export const ROW_HEIGHT: Record<Density, number> = { compact: 30, comfortable: 100 };
export const headerHeight = (density: Density) => (input: InputSummary) => (density === 'compact' ? (input.error ? 44 : 26) : input.error ? 60 : 44);

/**
 * The columns of a compact row and of the sort buttons above them: kind, id, route, time, type,
 * verdict. Narrow, the type column goes (a container query on the list), then the time's seconds' fraction.
 */
export const COLUMNS =
  'grid grid-cols-[4.25rem_4.9rem_minmax(0,1fr)_3.6rem_2.9rem] @[30rem]:grid-cols-[4.5rem_4.9rem_minmax(0,1fr)_5.4rem_4.5rem_3rem] items-center gap-x-1.5 px-2';
/** Cells hidden on a narrow list. */
export const WIDE_ONLY = 'hidden @[30rem]:block';

const size = (bytes: number) =>
  bytes < 10_000
    ? `${groupDigits(bytes)} B`
    : bytes < 10_000_000
      ? `${groupDigits(Math.round(bytes / 1024))} KiB`
      : `${groupDigits(Math.round(bytes / 1048576))} MiB`;

export const InputHeader = memo(function InputHeader({ input, density }: { input: InputSummary; density: Density }) {
  // The name as it came may hold controls and bidi overrides: shown escaped and isolated.
  const name = displayText(input.name);
  // An input nothing could be read from is not counted as a record: it is one unreadable input.
  const count = input.unkept
    ? `${groupDigits(input.records + input.unkept)} records read, ${groupDigits(input.records)} kept`
    : `${groupDigits(input.records)} record${input.records === 1 ? '' : 's'}`;
  const facts = `${input.format} · ${input.error ? 'unreadable' : count} · ${size(input.bytes)}`;
  const compact = density === 'compact';
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of an input's facts, not form controls (no fieldset)
    <div
      role="group"
      aria-label={`Input ${name}`}
      data-input-name={input.name}
      data-unreadable={input.error ? true : undefined}
      className={`h-full overflow-hidden border-b border-slate-300 bg-slate-100 px-3 text-xs dark:border-slate-700 dark:bg-slate-900 ${compact ? 'py-1' : 'py-1.5'}`}
    >
      {compact ? (
        <p className="flex items-baseline gap-2 whitespace-nowrap">
          <bdi className="min-w-0 truncate font-semibold" title={name}>
            {middleEllipsis(name, NAME_CHARS)}
          </bdi>
          <span className="shrink-0 text-slate-600 dark:text-slate-400">{facts}</span>
        </p>
      ) : (
        <>
          <bdi className="block truncate font-semibold" title={name}>
            {middleEllipsis(name, NAME_CHARS)}
          </bdi>
          <p className="truncate text-slate-600 dark:text-slate-400">{facts}</p>
        </>
      )}
      {input.error && (
        // The message first, cut short if it must; its code after it, never cut: it opens its explanation.
        // Not a live region: the list is windowed, and a header scrolled back into view would be announced
        // again; the page's alert line says what could not be read.
        <p
          data-testid="input-error"
          className="flex items-baseline gap-1 text-red-700 dark:text-red-300"
          title={`${input.error.code}: ${displayText(input.error.message)}`}
        >
          <span className="min-w-0 truncate">{displayText(input.error.message)}</span>
          <span className="shrink-0 font-mono text-[10px]">
            (<RuleRef id={input.error.code} />
            {input.error.offset !== null && input.error.offset > 0 ? `, byte ${input.error.offset}` : ''})
          </span>
        </p>
      )}
    </div>
  );
});

export interface RowProps {
  record: RecordSummary;
  selected: boolean;
  focusable: boolean;
  onSelect: (key: number) => void;
  inputName: string;
  density: Density;
}

/** Enter and Space select the row that has focus (the other keys are the list's). */
function selectOnEnterOrSpace(e: KeyboardEvent<HTMLDivElement>, key: number, onSelect: (key: number) => void) {
  if (e.key !== 'Enter' && e.key !== ' ') return;
  e.preventDefault();
  onSelect(key);
}

/** What every row is: an option of the listbox, its place in data attributes (tests and the page find rows by them). */
function optionProps({ record, selected, focusable, onSelect, inputName }: RowProps) {
  return {
    role: 'option' as const,
    'aria-selected': selected,
    tabIndex: focusable ? 0 : -1,
    'data-record-key': record.key,
    'data-input': inputName,
    'data-index': record.index,
    onClick: () => onSelect(record.key),
    onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => selectOnEnterOrSpace(e, record.key, onSelect),
  };
}

const rowTone = (selected: boolean) =>
  `h-full cursor-pointer overflow-hidden border-b border-slate-200 outline-none focus-visible:ring-2 focus-visible:ring-teal-500 focus-visible:ring-inset dark:border-slate-800 ${
    selected ? 'bg-teal-50 dark:bg-teal-950/60' : 'hover:bg-slate-50 dark:hover:bg-slate-900'
  }`;

/** The row of an unreadable input's one record: not a record, a way to its bytes (the header above says why). */
export const UnreadableRow = memo(function UnreadableRow(props: RowProps) {
  const { record, selected, density } = props;
  const badge = <Badge tone="bad" label="Not decoded" title={`Decoded: no (${record.errorCode})`} />;
  return (
    <div
      {...optionProps(props)}
      data-unreadable
      className={`${rowTone(selected)} px-3 text-xs text-slate-600 dark:text-slate-300 ${density === 'compact' ? 'flex items-center gap-2' : 'py-1.5'}`}
    >
      {density === 'compact' ? (
        <>
          <span className="font-semibold text-slate-800 dark:text-slate-100">Not a record</span>
          <span className="min-w-0 truncate">nothing in this input could be read; select it to see its bytes</span>
          <span className="ml-auto shrink-0">{badge}</span>
        </>
      ) : (
        <>
          <p className="text-sm font-semibold text-slate-800 dark:text-slate-100">Not a record</p>
          <p className="mt-0.5">Nothing in this input could be read (see above). Select it to see its bytes.</p>
          <div className="mt-1">{badge}</div>
        </>
      )}
    </div>
  );
});

/** A record's id in the list: short, whole in its tooltip (with its hex when it is Crockford base32). */
function RowId({ record, className }: { record: RecordSummary; className: string }) {
  const dna = record.format.startsWith('agentdna.');
  const hex = record.id ? crockfordToHex(record.id) : null;
  return (
    <span
      className={`font-mono text-slate-500 dark:text-slate-400 ${className}`}
      data-testid="row-id"
      title={record.id ? `${dna ? 'tip envelope hash' : 'record'} ${displayText(record.id)}${hex ? `\nhex ${hex}` : ''}` : 'no record id'}
    >
      {record.id ? displayText(short(record.id)) : '—'}
    </span>
  );
}

/** Source → target, as each format names them (AgentDNA DIDs are long and alike at their start: short). */
function Route({ record }: { record: RecordSummary }) {
  const dna = record.format.startsWith('agentdna.');
  if (!record.source) return null;
  // A DID your registry names is shown by that name (Identity); the others as written.
  const name = (s: string) => (dna ? <Identity value={s} shorten={short} /> : <bdi>{displayText(s)}</bdi>);
  return (
    <span className={dna ? 'font-mono' : undefined} title={`from ${displayText(record.source)}${record.target ? `\nto ${displayText(record.target)}` : ''}`}>
      {name(record.source)}
      {record.target && (
        <>
          {' → '}
          {name(record.target)}
        </>
      )}
    </span>
  );
}

/** A compact row: one line, in the list's columns. */
export const CompactRow = memo(function CompactRow(props: RowProps) {
  const { record, selected, inputName } = props;
  const dna = record.format.startsWith('agentdna.');
  const when = record.timeMs !== null ? clockOf(record.timeMs) : null;
  return (
    <div {...optionProps(props)} className={`${rowTone(selected)} ${COLUMNS} text-xs`}>
      <bdi className="truncate font-semibold" title={`${displayText(record.kind ?? record.format)} · ${displayText(inputName)} #${record.index}`}>
        {displayText(record.kind ?? record.format)}
      </bdi>
      {/* Where it is, for a screen reader (a sorted list has no input headers); sighted users have the tooltip. */}
      <span className="sr-only">
        , <bdi>{displayText(inputName)}</bdi> record #{record.index},
      </span>
      <RowId record={record} className="truncate text-[11px]" />
      <span className="flex min-w-0 items-baseline gap-1.5 text-slate-700 dark:text-slate-300">
        {record.source ? (
          <span className="min-w-0 truncate">
            <Route record={record} />
          </span>
        ) : (
          <bdi className="min-w-0 truncate" title={displayText(record.summary)}>
            {displayText(record.summary)}
          </bdi>
        )}
        {/* Four tampered copies of one workflow have the same tip hash and signers: only the file tells their rows apart. */}
        {dna && (
          <bdi className="min-w-0 shrink truncate text-slate-500 dark:text-slate-400" title={displayText(inputName)} data-testid="row-input">
            {middleEllipsis(displayText(inputName), NAME_CHARS)}
          </bdi>
        )}
      </span>
      <span
        className={`truncate font-mono text-[11px] tabular-nums ${record.timeFrom === 'id' ? 'text-slate-500 italic dark:text-slate-400' : ''}`}
        data-testid="row-time"
        title={
          when ? `${when.iso} (${record.timeFrom === 'log' ? 'log time' : "the record id's ULID time"})` : 'no time: no log time, and the id is not a ULID'
        }
      >
        {when ? (
          <>
            {when.clock.slice(0, 8)}
            <span className="hidden @[30rem]:inline">{when.clock.slice(8)}</span>
          </>
        ) : (
          '—'
        )}
      </span>
      <bdi className={`${WIDE_ONLY} truncate text-slate-600 dark:text-slate-300`} data-testid="row-type" title={displayText(listType(record))}>
        {displayText(listType(record))}
      </bdi>
      <VerdictMarks record={record} />
    </div>
  );
});

/** A comfortable row: the kind, id and place, the route and conversation, and the three badges in words. */
export const ComfortableRow = memo(function ComfortableRow(props: RowProps) {
  const { record, selected, inputName } = props;
  const dna = record.format.startsWith('agentdna.');
  return (
    <div {...optionProps(props)} className={`${rowTone(selected)} px-3 py-1.5`}>
      <div className="flex items-baseline gap-2 text-sm">
        <bdi className="font-semibold">{displayText(record.kind ?? record.format)}</bdi>
        <RowId record={record} className="text-xs" />
        <span className="ml-auto text-xs text-slate-500 dark:text-slate-400">#{record.index}</span>
      </div>
      <div className="mt-0.5 flex items-center gap-x-3 overflow-hidden text-xs whitespace-nowrap text-slate-600 dark:text-slate-300">
        {record.source && (
          <span className={dna ? 'shrink-0' : 'truncate'}>
            <Route record={record} />
          </span>
        )}
        {dna && (
          <bdi className="truncate text-slate-500 dark:text-slate-400" title={displayText(inputName)} data-testid="row-input">
            {middleEllipsis(displayText(inputName), NAME_CHARS)}
          </bdi>
        )}
        {record.conversation && (
          <span className="font-mono text-slate-500 dark:text-slate-400" title={`conversation ${displayText(record.conversation)}`}>
            conv {short(record.conversation)}
          </span>
        )}
        {!record.source && <bdi className="truncate">{displayText(record.summary)}</bdi>}
      </div>
      <div className="mt-1">
        <Badges record={record} />
      </div>
    </div>
  );
});
