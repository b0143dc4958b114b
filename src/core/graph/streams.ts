// Chunk stream reassembly (agdx-v1.md "Chunk streams"), as a reader would do it, over every
// record of the input at once.
//
// A stream is the chunks sharing conversation, channel and correlation, and the errors carrying
// that channel. Its members are fed in log order (the graph's order: log time, input, position),
// the order a consumer receives them, and counted exactly as laser's ChunkAssembler counts them
// (laser-sdk foreign/typescript/src/agent/assembler.ts and its unit test): a chunk without a
// sequence is ignored (neither applied nor counted; we note it); once the stream has ended, every
// chunk or error fed is late (`after_terminal`); a sequence below the next expected one is a
// duplicate; a sequence above it ends the stream as `gap`, and that chunk is neither applied nor
// late (only what comes after the end is); the expected sequence is applied, and with last = true
// it ends the stream (`last`). An error carrying the channel ends the stream whenever it comes
// before the end, whatever its sequence (`error`). So a chunk that arrives before the ones ahead of
// it in sequence reveals a gap: the assembler does not wait or reorder. Without a terminal, the
// opening chunk's deadline decides `abandoned` (the assembler's abandon(), called when that
// deadline passes), measured against the latest log time of the input; with no log time at all,
// the deadline cannot be checked and the stream stays open (null).
import { joinBytes, utf8Lossy, utf8OrNull } from '../bytes';
import { formatMicros } from '../agdx/tree';
import type { LogEntry, LogFacts } from '../log/entry';
import type { ReassembledStream, StreamTerminal } from './model';

/** At most this many missing sequence numbers are listed in `gaps` (a hostile gap can be 2^64 long). */
export const MAX_GAP_LIST = 1024;
/** Reassembled text beyond this many bytes is cut (and said so in the note). */
export const MAX_TEXT_BYTES = 1 << 20;

const TEXT_PURPOSES = new Set(['chat', 'reasoning']);

interface Member {
  index: number;
  entry: LogEntry;
  isError: boolean;
}

export const streamId = (conversation: string, channel: string, correlation: string | null) => `stream:${conversation}:${channel}:${correlation ?? '-'}`;

/** The stream a record belongs to (a chunk or an error with a channel), or null. */
export function streamKeyOf(e: LogEntry): string | null {
  if (e.channel === null || (e.kind !== 'chunk' && e.kind !== 'error')) return null;
  return streamId(e.conversation, e.channel, e.correlation);
}

export function reassembleStreams(facts: LogFacts): ReassembledStream[] {
  // Each stream's entries by number, made again when it is reassembled: an entry held for each
  // member of every stream until all were grouped kept ten million records' heap at 1,090 MB during
  // the graph, against 953 MB this way.
  const entries = facts.inRecordOrder();
  const groups = new Map<string, number[]>();
  for (let k = 0; k < entries.length; k++) {
    const key = streamKeyOf(entries.at(k)!);
    if (key === null) continue;
    let list = groups.get(key);
    if (!list) groups.set(key, (list = []));
    list.push(k);
  }
  const streams: { first: LogEntry; stream: ReassembledStream }[] = [];
  for (const [id, numbers] of groups) {
    const members = numbers.map((k): Member => {
      const entry = entries.at(k)!;
      return { index: entry.record, entry, isError: entry.kind === 'error' };
    });
    // Log order: by sortKey, ties in record order (LogEntry.logOrder, with no sortKey strings made).
    members.sort((a, b) => a.entry.logOrder - b.entry.logOrder);
    const stream = reassemble(id, members, facts.latestLogTime);
    const firstIndex = stream.recordIndices[0] ?? stream.errorIndices[0];
    streams.push({ first: members.find((m) => m.index === firstIndex)!.entry, stream });
  }
  // By their first records' log order (a number: no sortKey strings made per comparison).
  return streams.sort((a, b) => a.first.logOrder - b.first.logOrder).map((s) => s.stream);
}

function range(from: bigint, to: bigint): { list: number[]; total: bigint } {
  const list: number[] = [];
  for (let s = from; s < to && list.length < MAX_GAP_LIST; s++) list.push(Number(s));
  return { list, total: to - from };
}

function reassemble(id: string, members: Member[], latest: bigint | null): ReassembledStream {
  const first = members[0].entry;
  const notes: string[] = [];
  const chunks = members.filter((m) => !m.isError);
  const errors = members.filter((m) => m.isError);

  let next = 0n;
  let terminal: StreamTerminal = null;
  let terminalIndex: number | null = null;
  const duplicates: number[] = [];
  const late: number[] = [];
  const unsequenced: number[] = [];
  let gapIndex: number | null = null;
  let gaps: number[] = [];
  let finishReason: string | null = null;
  let usage: LogEntry['usage'] = null;
  const applied: Member[] = [];

  // Members are in log order: the order the assembler is fed.
  for (const m of members) {
    if (m.isError) {
      if (terminal !== null) late.push(m.index);
      else {
        terminal = 'error';
        terminalIndex = m.index;
        usage = m.entry.usage;
      }
      continue;
    }
    // The assembler returns before any count for a chunk without a sequence, ended or not.
    const seq = m.entry.sequence;
    if (seq === null) {
      unsequenced.push(m.index);
      continue;
    }
    if (terminal !== null) {
      late.push(m.index);
      continue;
    }
    if (seq < next) {
      duplicates.push(m.index);
      continue;
    }
    if (seq > next) {
      // The gap ends the stream here; this chunk is not applied, and not late either.
      terminal = 'gap';
      gapIndex = m.index;
      const g = range(next, seq);
      gaps = g.list;
      notes.push(`sequence ${seq} came where ${next} was expected: the stream ends at the gap`);
      if (g.total > BigInt(g.list.length)) notes.push(`the gap misses ${g.total} sequence numbers; the first ${g.list.length} are listed`);
      continue;
    }
    applied.push(m);
    next++;
    if (m.entry.last) {
      terminal = 'last';
      terminalIndex = m.index;
      finishReason = m.entry.finishReason;
      usage = m.entry.usage;
    }
  }
  const n = unsequenced.length;
  if (n > 0) notes.push(`${n} chunk${n > 1 ? 's carry' : ' carries'} no sequence and ${n > 1 ? 'were' : 'was'} not applied`);

  // The first chunk applied is always sequence 0.
  const opening = applied.length > 0 ? applied[0] : null;
  const deadline = opening?.entry.deadline ?? null;
  if (terminal === null && deadline !== null) {
    if (latest === null) {
      notes.push(
        `the opening chunk sets an abandonment deadline (${formatMicros(deadline)}), but no record of the input has a log time: whether it passed cannot be checked`,
      );
    } else if (latest > deadline) {
      terminal = 'abandoned';
      notes.push(`no terminal before the deadline ${formatMicros(deadline)}; the latest log time of the input is ${formatMicros(latest)}`);
    } else {
      notes.push(`still open: the deadline ${formatMicros(deadline)} is not past the latest log time of the input (${formatMicros(latest)})`);
    }
  }
  if (terminal === 'last' && deadline !== null && terminalIndex !== null) {
    const at = members.find((m) => m.index === terminalIndex)!.entry.logTime;
    if (at !== null && at > deadline) {
      notes.push(
        `the terminal chunk was appended at ${formatMicros(at)}, after the opening chunk's deadline ${formatMicros(deadline)}: a reader enforcing the deadline had abandoned the stream by then`,
      );
    }
  }

  const purpose = opening?.entry.operation ?? null;
  let text: string | null = null;
  if (purpose !== null && TEXT_PURPOSES.has(purpose)) {
    let bodies = joinBytes(applied.map((m) => m.entry.body ?? new Uint8Array(0)));
    if (bodies.length > MAX_TEXT_BYTES) {
      notes.push(`the text is ${bodies.length} bytes; the first ${MAX_TEXT_BYTES} are shown`);
      bodies = bodies.subarray(0, MAX_TEXT_BYTES);
    }
    text = utf8OrNull(bodies);
    if (text === null) {
      text = utf8Lossy(bodies);
      notes.push('the bodies are not valid UTF-8 (shown with replacement characters)');
    }
  }

  return {
    id,
    conversation: first.conversation,
    correlation: first.correlation,
    channel: first.channel!,
    chunks: chunks.length,
    duplicates: duplicates.length,
    after_terminal: late.length,
    gaps,
    terminal,
    purpose,
    text,
    finish_reason: finishReason,
    usage,
    deadline_micros: deadline,
    applied: applied.map((m) => m.index),
    recordIndices: chunks.map((m) => m.index),
    errorIndices: errors.map((m) => m.index),
    terminalIndex,
    duplicateIndices: duplicates,
    lateIndices: late,
    gapIndex,
    unsequencedIndices: unsequenced,
    note: notes.length > 0 ? notes.join('; ') : null,
  };
}
