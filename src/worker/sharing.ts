// Links and bundles, both ways: opening one (its inputs load in place of what was loaded, and the
// view it carried comes back with its records resolved to keys), and making one of what is loaded
// and the view, redacted when asked, cut down to the chosen records where it can be.
import type { InspectedRecord } from '../core/records';
import {
  decodePermalink,
  encodeBundle,
  encodePermalink,
  ShareTooLargeError,
  type RecordPlace,
  type ShareResult,
  type ShareState,
  type ViewState,
} from '../core/share/permalink';
import { hasBody, redactInput } from '../core/share/redact';
import type { ComparedPair, Handlers, InputRedaction, RecordFilter, SharedView, ShareRecords, Unblankable } from '../wire/protocol';
import type { Queries } from './queries';
import { emptyLoad, type InputReader, loaded, type LoadResult } from './read-input';
import type { SessionState } from './session-state';
import { partInputs, placeIn, type PartInput } from './share-part';

/** The view as the page asks to share it, its records by key. */
export type ViewByKey = Omit<ViewState, 'compare'> & { selectedKey: number | null; compare?: ComparedPair | null };

export class Sharing {
  constructor(
    private readonly state: SessionState,
    private readonly reader: InputReader,
    private readonly queries: Queries,
  ) {}

  /** Opens a permalink fragment: everything loaded before is replaced by the link's inputs. */
  open(fragment: string): Promise<LoadResult & { error: string | null }> {
    return this.state.exclusive(() => this.openNow(fragment));
  }

  private async openNow(fragment: string): Promise<LoadResult & { error: string | null }> {
    const opened = await decodePermalink(fragment);
    const out = emptyLoad();
    if (!opened.ok) return { ...out, error: opened.error.message };
    this.state.clear();
    out.view = await this.loadShared(opened, out);
    this.reader.regraph(out);
    return { ...out, error: null };
  }

  /** Loads a decoded link's or bundle's inputs after what is loaded; the view it carried, its records by key. */
  async loadShared(opened: Extract<ShareResult, { ok: true }>, out: LoadResult): Promise<SharedView> {
    const { state } = opened;
    const session = this.state;
    const firstInput = session.inputs.length;
    const firstRecord = session.records.length;
    for (const input of state.inputs) await this.reader.readWhole(input.name, input.bytes, state.redacted, out);
    // A record of the link by its place: its input's place in the link and its index there.
    const keyOf = (p: RecordPlace | null | undefined) =>
      p ? session.records.findIndex((r, key) => key >= firstRecord && session.inputOf[key] === firstInput + p.input && r.verdict.index === p.index) : -1;
    const record = keyOf(state.view.selected);
    const cmp = state.view.compare;
    const [ca, cb] = [keyOf(cmp?.a), keyOf(cmp?.b)];
    let notBlank = 0;
    if (state.redacted)
      for (let key = firstRecord; key < session.records.length; key++) if (hasBody(session.records[key]) && !session.blanked.has(key)) notBlank++;
    const { compare: _, ...view } = state.view;
    return {
      ...view,
      selectedKey: record >= 0 ? record : null,
      redacted: state.redacted,
      notBlank,
      compare: cmp && ca >= 0 && cb >= 0 ? { a: ca, b: cb, scope: cmp.scope } : null,
    };
  }

  /**
   * A permalink fragment, or a bundle file, for what is loaded and the view. With `redact`, every
   * body is blanked (core/share/redact.ts) and `redaction` says what, input by input. When something
   * cannot be blanked, no link is made until the person decides (`unblankable`): leave those inputs
   * out of the link, or include them with those parts as they are.
   */
  async share(
    view: ViewByKey,
    redact: boolean,
    bundle: boolean,
    unblankable?: Unblankable,
    records: ShareRecords = 'all',
  ): Promise<{ fragment: string; bundle: Uint8Array | null; problems: string[]; redaction: InputRedaction[] | null }> {
    const session = this.state;
    const redaction: InputRedaction[] | null = redact ? [] : null;
    let inputs = session.inputs.map((input, i) => {
      if (!redact) return { name: input.name, bytes: session.inputBytes[i], number: i };
      const r = redactInput(
        session.inputBytes[i],
        session.records.filter((_, key) => session.inputOf[key] === i),
      );
      redaction!.push({ input: i, name: input.name, blanked: r.blanked, unblankable: r.unblankable });
      return { name: input.name, bytes: r.bytes, number: i };
    });
    const problems = (redaction ?? []).flatMap((x) => x.unblankable.map((p) => `${x.name}: ${p}`));
    if (problems.length && !unblankable) return { fragment: '', bundle: null, problems, redaction };
    if (problems.length && unblankable === 'leave-out') inputs = inputs.filter((x) => !redaction![x.number].unblankable.length);
    // Only the chosen records, each input cut down to them where it can be (share-part.ts).
    const shared = records === 'all' ? inputs.map((x) => ({ ...x, indexOf: null })) : this.sharedPart(inputs, records, view);
    // A record by its place in the link (an input left out takes its records with it).
    const placeOf = (key: number | null | undefined): RecordPlace | null =>
      key != null && session.records[key] ? placeIn(shared, session.inputOf[key], session.records[key].verdict.index) : null;
    const selected = placeOf(view.selectedKey);
    const [ca, cb] = [placeOf(view.compare?.a), placeOf(view.compare?.b)];
    const state: ShareState = {
      inputs: shared.map(({ name, bytes }) => ({ name, bytes })),
      redacted: redact || shared.some((x) => session.redactedInputs.has(x.number)),
      view: {
        selected,
        tab: view.tab,
        viewport: view.viewport,
        filters: view.filters,
        ...(view.compare && ca && cb ? { compare: { a: ca, b: cb, scope: view.compare.scope } } : {}),
      },
    };
    try {
      return { fragment: await encodePermalink(state), bundle: bundle ? await encodeBundle(state) : null, problems: [], redaction };
    } catch (e) {
      if (e instanceof ShareTooLargeError) return { fragment: '', bundle: null, problems: [e.message], redaction };
      throw e;
    }
  }

  /** The inputs of a link of `records` only: the selected record (and a compared pair), or what the view's filters keep. */
  private sharedPart(
    inputs: { name: string; bytes: Uint8Array; number: number }[],
    records: Exclude<ShareRecords, 'all'>,
    view: { selectedKey: number | null; compare?: ComparedPair | null; filters: Record<string, string> },
  ): PartInput[] {
    const session = this.state;
    // The view's filters are the list's, as a link carries them (the same fields as a RecordFilter).
    const keys = records === 'selected' ? [view.selectedKey, view.compare?.a, view.compare?.b] : [...this.queries.filter(view.filters as RecordFilter)];
    const chosen = new Map<number, Set<number>>();
    for (const key of keys) {
      if (key == null || !session.records[key]) continue;
      const input = session.inputOf[key];
      let set = chosen.get(input);
      if (!set) chosen.set(input, (set = new Set()));
      set.add(session.records[key].verdict.index);
    }
    // Each input's records, in order (an input's keys are one run).
    const byInput = new Map<number, InspectedRecord[]>();
    session.records.forEach((r, key) => {
      const input = session.inputOf[key];
      if (!chosen.has(input)) return;
      let list = byInput.get(input);
      if (!list) byInput.set(input, (list = []));
      list.push(r);
    });
    const sources = inputs.map((x) => ({ name: x.name, bytes: x.bytes, records: byInput.get(x.number) ?? [] }));
    const part = partInputs(sources, new Map(inputs.map((x, at) => [at, chosen.get(x.number) ?? new Set<number>()])));
    // partInputs numbers the inputs by their place in `inputs`: back to the session's numbers.
    return part.map((p) => ({ ...p, number: inputs[p.number].number }));
  }
}

/** The requests about links: opening one, making one. */
export function sharingHandlers(sharing: Sharing) {
  return {
    async open({ fragment }, ctx) {
      return loaded(await sharing.open(fragment), ctx);
    },
    async share({ view, redact, bundle, unblankable, records }, ctx) {
      const shared = await sharing.share({ ...view, selected: null }, redact, bundle, unblankable, records);
      if (shared.bundle) ctx.transfer(shared.bundle.buffer);
      return shared;
    },
  } satisfies Partial<Handlers>;
}
