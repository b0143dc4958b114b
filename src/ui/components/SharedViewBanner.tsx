import type { RecordFilter, SharedView } from '../../wire/protocol';
import { displayText } from '../format';
import { describeFilter, hiddenWords, ignoredFilters, keysWords, redactionWords, sameFilter, viewportWords } from '../shared-view';

interface Props {
  view: SharedView;
  /** The filter the link set (its known fields). */
  linkFilter: RecordFilter;
  /** The list's filter now. */
  filter: RecordFilter;
  /** Records the link's filter shows, null while the worker is still counting. */
  shown: number | null;
  total: number;
  /** The record the link selected, as "record #4 of name" (name as it came), or null. */
  selected: { index: number; inputName: string } | null;
  /** The tab the link opened, by its name here; `asked` is the link's own value when it names no tab. */
  tab: { name: string; asked: string | null };
  registryEntries: number;
  onShowAll: () => void;
  /** What the link's comparison compares, in words (names escaped), or null when it carries none. */
  compared?: string | null;
}

/**
 * What the opened link set, always in view while its view is: filters with the count of records
 * they hide (and a one-click way out), the sender's claim of redaction, the selection and tab, and
 * that trust comes from the opener's registry only. Strings from the link are shown escaped.
 */
export function SharedViewBanner({ view, linkFilter, filter, shown, total, selected, tab, registryEntries, onShowAll, compared = null }: Props) {
  const filterWords = describeFilter(linkFilter);
  const applied = filterWords !== '' && sameFilter(linkFilter, filter);
  const hidden = applied ? hiddenWords(shown, total) : null;
  const ignored = ignoredFilters(view.filters);
  const redaction = redactionWords(view);
  const label = 'font-medium';
  return (
    <section
      aria-label="Shared view"
      className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200"
    >
      <p className="font-semibold">Opened from a shared link. What the link set:</p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        <li data-testid="preset-filters">
          <span className={label}>Filters:</span>{' '}
          {filterWords === '' ? (
            'none.'
          ) : (
            <>
              <bdi>{filterWords}</bdi>
              {applied ? (
                <>
                  : <strong>{hidden ?? 'counting the records they hide…'}</strong>.{' '}
                  <button
                    type="button"
                    onClick={onShowAll}
                    className="ml-1 rounded border border-amber-500 px-2 py-0.5 text-xs font-medium hover:bg-amber-100 dark:border-amber-700 dark:hover:bg-amber-900"
                  >
                    Show all records
                  </button>
                </>
              ) : (
                ' (no longer applied).'
              )}
            </>
          )}
          {ignored.length > 0 && (
            <>
              {' '}
              Ignored, not a filter here: <bdi>{ignored.join(', ')}</bdi>.
            </>
          )}
        </li>
        {redaction && (
          <li data-testid="preset-redaction">
            <span className={label}>Redaction:</span> {redaction}
          </li>
        )}
        <li data-testid="preset-selection">
          <span className={label}>Selected:</span>{' '}
          {selected ? (
            <>
              record #{selected.index} of <bdi>{displayText(selected.inputName)}</bdi>
            </>
          ) : (
            'no record'
          )}
          . <span className={label}>Tab:</span> {tab.name}
          {tab.asked !== null && (
            <>
              {' '}
              (the link asked for “<bdi>{displayText(tab.asked)}</bdi>”, which is no tab here)
            </>
          )}
          .
        </li>
        <li data-testid="preset-viewport">
          <span className={label}>Graph viewport:</span> {viewportWords(view.viewport)}
        </li>
        {compared && (
          <li data-testid="preset-compare">
            <span className={label}>Compared:</span> <bdi>{compared}</bdi> (the Compare tab).
          </li>
        )}
        <li data-testid="preset-keys">
          <span className={label}>Keys:</span> {keysWords(registryEntries)}
        </li>
      </ul>
    </section>
  );
}
