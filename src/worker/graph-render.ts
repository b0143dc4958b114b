// The graph as the page draws it (its types are the wire's, src/wire/graph.ts): both graphs laid out
// in the worker, flattened to plain boxes and lines with what each node's face shows.
import {
  agentDnaInputs,
  buildAgentDnaGraph,
  drawAgdxGraph,
  layoutGraph,
  lineageGhostBoxes,
  NODE_HEIGHT,
  NODE_WIDTH,
  type AgdxNode,
  type AgentDnaNode,
  type ReassembledStream,
} from '../core/graph';
import type { LogAnalysis } from '../core/analysis/log';
import type { WorkflowReport } from '../core/agentdna/model';
import type { Finding } from '../core/verdict';
import { shortId } from '../core/short-id';
import { isoFromSeconds } from '../core/time';
import { displayText } from '../core/unsafe-chars';
import { isBadlySigned } from '../core/verdict';
import type { GraphRender, GraphRenderNode } from '../wire/graph';
import type { RecordSummary } from '../wire/summary-pack';

/** A stream node's last line when nothing went wrong along the way: how it ended. */
const STREAM_END_WORDS: Record<string, string> = {
  last: 'complete',
  error: 'ended by an error',
  abandoned: 'abandoned (deadline passed)',
  gap: 'ended at a gap',
  open: 'not ended',
};

/** An id as every face shows it (start…end, core/short-id.ts); a dash for none. */
const short = (s: string | null) => (s ? shortId(s) : '—');
/** What a ghost stands for: a record id or a hash short, a log position (cause_at) as it is. */
const ghostRef = (ref: { via: string; ref: string } | undefined) => (!ref ? '—' : ref.via === 'cause_at' ? ref.ref : short(ref.ref));
/** Which holder of a hash an envelope node is, when several different envelopes claim it (`dna:<hash>~2`). */
const holder = (id: string) => /~(\d+)$/.exec(id)?.[1] ?? null;

/** What the graph is told of the records beyond their summaries: the log's findings about them, their inputs' names. */
export interface GraphAbout {
  findings?: (key: number) => readonly Finding[] | undefined;
  inputName?: (input: number) => string;
}

const TIMING_MARKS = { 'agdx/deadline/missed': 'late', 'agdx/deadline/unanswered': 'unanswered' } as const;

/** The deadline marks of a record, from the log's findings about it. */
function timingOf(key: number, about: GraphAbout): GraphRenderNode['timing'] {
  const out: GraphRenderNode['timing'] = [];
  for (const f of about.findings?.(key) ?? []) {
    const mark = TIMING_MARKS[f.rule as keyof typeof TIMING_MARKS];
    if (mark) out.push({ mark, words: f.message });
  }
  return out;
}

/** A name cut in its middle to `max` characters (the ends of names of one family differ). */
const cutName = (name: string, max = 20) =>
  name.length <= max ? name : `${name.slice(0, Math.ceil((max - 1) / 2))}…${name.slice(-Math.floor((max - 1) / 2))}`;

/** A stream's diagnostics, as its folded node shows them and its first chunk keeps them unfolded. */
function streamWords(st: ReassembledStream): NonNullable<GraphRenderNode['stream']> & { trouble: boolean } {
  const problems = [
    st.gaps.length ? `gap at ${st.gaps.slice(0, 3).join(', ')}${st.gaps.length > 3 ? '…' : ''}` : '',
    st.duplicates ? `${st.duplicates} dup` : '',
    st.after_terminal ? `${st.after_terminal} after end` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return {
    id: st.id,
    summary: `${st.chunks} chunks · ${st.terminal ?? 'open'}`,
    detail: problems || STREAM_END_WORDS[st.terminal ?? 'open'],
    trouble: st.terminal !== 'last' || st.duplicates > 0 || st.after_terminal > 0,
  };
}

/** What one chunk of an unfolded stream was to its reader: applied, dropped (and why), or where the stream broke. */
function chunkRole(st: ReassembledStream, record: number): { words: string; trouble: boolean } {
  if (st.gapIndex === record) {
    const n = st.gaps.length;
    return { words: `gap: ${n > 3 ? `${n} sequences` : `seq ${st.gaps.join(', ')}`} missing before it, the stream ends`, trouble: true };
  }
  if (st.duplicateIndices.includes(record)) return { words: 'duplicate: dropped', trouble: true };
  if (st.lateIndices.includes(record)) return { words: 'after the end: dropped', trouble: true };
  if (st.unsequencedIndices.includes(record)) return { words: 'no sequence: not applied', trouble: true };
  if (st.terminalIndex === record) return { words: `last${st.finish_reason ? ` · ${st.finish_reason}` : ''}: ends the stream`, trouble: false };
  return { words: 'applied', trouble: false };
}

/** A record whose signature does not hold is headed by it (core/verdict.ts): its node is an alarm, whatever its fields. */
const badlySigned = (s: RecordSummary | undefined) => s !== undefined && isBadlySigned(s.signature);

function agdxFace(
  n: AgdxNode,
  summaryOf: SummaryOf,
  streams: ReadonlyMap<string, ReassembledStream>,
  about: GraphAbout,
): Omit<GraphRenderNode, 'x' | 'y' | 'width' | 'height'> {
  const base = { id: n.id, kind: n.kind, group: n.group, cycle: n.cycle, dna: null, stream: null, timing: [], place: null };
  switch (n.kind) {
    case 'record': {
      const s = summaryOf(n.recordIndex);
      const st = n.stream !== null ? streams.get(n.stream) : undefined;
      if (st) {
        // A chunk of an unfolded stream: its sequence and what its reader made of it; the stream's
        // first chunk keeps the stream's diagnostics and the way to fold it back.
        const role = chunkRole(st, n.recordIndex);
        const head = st.recordIndices[0] === n.recordIndex ? streamWords(st) : null;
        return {
          ...base,
          timing: timingOf(n.recordIndex, about),
          recordKey: n.recordIndex,
          recordKeys: [n.recordIndex],
          title: `${n.recordKind} ${n.sequence === null ? 'without sequence' : `seq ${n.sequence}`}`,
          subtitle: n.recordId ? short(n.recordId) : '',
          fullId: n.recordId,
          detail: role.words,
          alarm: !n.valid || badlySigned(s) || n.cycle || !!n.loop || n.findings.length > 0 || role.trouble || !!head?.trouble,
          badges: s ? { decoded: s.decoded, valid: s.valid, signature: s.signature, trusted: s.trusted, note: s.trustNote } : null,
          expandable: head !== null,
          stream: head && { id: head.id, summary: head.summary, detail: head.detail },
        };
      }
      // The reference's display type (session.started, model.request, tool.call, …) names the
      // record, as the list's type column does; the AGDX kind stays on the line below.
      const title = s?.displayType ?? n.recordKind;
      const who = `${n.source}${n.target ? ` → ${n.target}` : ''}`;
      return {
        ...base,
        timing: timingOf(n.recordIndex, about),
        // Records that share an id (two inputs of one log, a record resent) are told apart by their place: input and index.
        place: n.duplicateId && s ? `${about.inputName ? `${cutName(about.inputName(s.input))} ` : ''}#${s.index}` : null,
        recordKey: n.recordIndex,
        recordKeys: [n.recordIndex],
        title,
        subtitle: short(n.recordId),
        fullId: n.recordId,
        detail: title === n.recordKind ? who : `${n.recordKind} · ${who}`,
        alarm: !n.valid || badlySigned(s) || n.cycle || !!n.loop || n.findings.length > 0,
        badges: s ? { decoded: s.decoded, valid: s.valid, signature: s.signature, trusted: s.trusted, note: s.trustNote } : null,
        expandable: false,
      };
    }
    case 'stream': {
      const st = n.stream;
      const words = streamWords(st);
      return {
        ...base,
        recordKey: n.recordIndex,
        recordKeys: st.recordIndices,
        title: `stream${st.purpose ? ` · ${st.purpose}` : ''}`,
        subtitle: words.summary,
        fullId: null,
        detail: words.detail,
        alarm: words.trouble,
        badges: null,
        expandable: true,
      };
    }
    case 'ghost':
      if (n.refs[0]?.via === 'parent')
        return {
          ...base,
          recordKey: null,
          recordKeys: [],
          title: 'missing conversation',
          subtitle: short(n.refs[0].ref),
          fullId: n.refs[0].ref,
          detail: 'named as parent, not loaded',
          alarm: false,
          badges: null,
          expandable: false,
        };
      return {
        ...base,
        recordKey: null,
        recordKeys: [],
        title: 'missing',
        subtitle: ghostRef(n.refs[0]),
        fullId: n.refs[0]?.ref ?? null,
        detail: `named by ${n.refs.map((r) => r.via).join(', ')}`,
        alarm: true,
        badges: null,
        expandable: false,
      };
    case 'fold':
      return {
        ...base,
        recordKey: n.recordIndices[0] ?? null,
        recordKeys: n.recordIndices,
        title: `${n.count} × ${n.childKind}`,
        subtitle: 'folded fan-out',
        fullId: null,
        detail: n.attention ? `${n.attention} need a look` : 'all fine',
        alarm: n.attention > 0,
        badges: null,
        expandable: true,
      };
  }
}

function dnaFace(n: AgentDnaNode): Omit<GraphRenderNode, 'x' | 'y' | 'width' | 'height'> {
  const base = { id: n.id, kind: n.kind, group: null, cycle: n.cycle, badges: null, expandable: false, stream: null, timing: [], place: null };
  if (n.kind === 'ghost')
    return {
      ...base,
      recordKey: null,
      recordKeys: [],
      title: 'missing parent',
      subtitle: ghostRef(n.refs[0]),
      fullId: n.refs[0]?.ref ?? null,
      detail: 'named by parent_envelope',
      alarm: true,
      dna: null,
    };
  return {
    ...base,
    recordKey: n.recordIndex,
    recordKeys: n.occurrences.map((o) => o.recordIndex),
    title: `envelope ${short(n.hash)}${holder(n.id) ? ` (${holder(n.id)})` : ''}`,
    subtitle: short(n.from),
    fullId: n.hash,
    detail: n.path,
    alarm: n.tampered || n.duplicate,
    dna: {
      from: n.from,
      epoch: n.epoch !== null ? (isoFromSeconds(n.epoch)?.slice(0, 19).concat('Z') ?? String(n.epoch)) : '—',
      hashOk: n.hashOk,
      signature: n.signature,
      didMatch: n.didMatch,
      duplicate: n.duplicate,
    },
  };
}

type Face = Omit<GraphRenderNode, 'x' | 'y' | 'width' | 'height'>;

/**
 * A face as the page shows it, and the SVG and PNG exports draw it: every string taken from a record
 * (a source, a target, a purpose, a DID, a hash, an id a ghost stands for) through the one display
 * escaper, so a label, its title and its aria-label carry no control or bidi character.
 */
function shownFace(f: Face): Face {
  return {
    ...f,
    title: displayText(f.title),
    subtitle: displayText(f.subtitle),
    detail: displayText(f.detail),
    fullId: f.fullId === null ? null : displayText(f.fullId),
    badges: f.badges && { ...f.badges, note: f.badges.note === null ? null : displayText(f.badges.note) },
    dna: f.dna && { ...f.dna, from: displayText(f.dna.from), epoch: displayText(f.dna.epoch) },
    stream: f.stream && { ...f.stream, summary: displayText(f.stream.summary), detail: displayText(f.stream.detail) },
    // A finding's message quotes the record; a place names its input (a file name someone chose).
    timing: f.timing.map((t) => ({ ...t, words: displayText(t.words) })),
    place: f.place === null ? null : displayText(f.place),
  };
}

/** A record's summary by its key (undefined: none yet). */
export type SummaryOf = (key: number) => RecordSummary | undefined;

/**
 * The load's record-level graph (built once per load) drawn with `expanded` unfolded, each record
 * drawn with its verdict as the page has it, and the AgentDNA DAGs of the workflows; laid out.
 */
export function renderGraph(
  log: Pick<LogAnalysis, 'compact' | 'facts'>,
  workflows: readonly WorkflowReport[],
  summaryOf: SummaryOf,
  expanded: string[],
  about: GraphAbout = {},
): GraphRender {
  const t0 = performance.now();
  const agdx = drawAgdxGraph(log.compact, log.facts.entries, { expanded: new Set(expanded), valid: (i) => summaryOf(i)?.valid ?? true });
  const agentdna = buildAgentDnaGraph(agentDnaInputs(workflows));
  const nodes: GraphRenderNode[] = [];
  const place = (faces: Face[], boxes: Map<string, { x: number; y: number; width: number; height: number }>, dy: number) => {
    let bottom = dy;
    for (const f of faces) {
      const b = boxes.get(f.id) ?? { x: 0, y: 0, width: NODE_WIDTH, height: NODE_HEIGHT };
      nodes.push({ ...shownFace(f), x: b.x, y: b.y + dy, width: b.width, height: b.height });
      bottom = Math.max(bottom, b.y + dy + b.height);
    }
    return bottom;
  };
  const streams = new Map(agdx.streams.map((s) => [s.id, s]));
  const boxes = layoutGraph(agdx);
  const agdxBottom = place(
    agdx.nodes.map((n) => agdxFace(n, summaryOf, streams, about)),
    boxes,
    0,
  );
  // The parents not loaded, beside the layout (which does not follow lineage edges).
  place(
    agdx.lineage.ghosts.map((n) => agdxFace(n, summaryOf, streams, about)),
    lineageGhostBoxes(agdx.lineage, boxes, { width: NODE_WIDTH, height: NODE_HEIGHT }),
    0,
  );
  // The AgentDNA DAGs go below the AGDX graph.
  place(agentdna.nodes.map(dnaFace), layoutGraph(agentdna), agdx.nodes.length ? agdxBottom + 120 : 0);
  const edges = [...agdx.edges, ...agdx.lineage.edges, ...agentdna.edges].map(({ id, from, to, via, count, note }) => ({ id, from, to, via, count, note }));
  return {
    nodes,
    edges,
    folded: agdx.folded,
    missing: agdx.missing.length + agentdna.missing.length,
    cycles: agdx.cycles.length + agentdna.cycles.length,
    streams: agdx.streams.length,
    ms: Math.round(performance.now() - t0),
  };
}
