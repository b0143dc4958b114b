import { describe, expect, it } from 'vitest';
import { MAX_GAP_LIST, reassembleStreams } from './streams';
import { Conversation, crock, id16, text, factsOf } from '../../../test/support/graph-helpers';

const CORR = id16(0x5);
const CHAN = id16(0x6);
const chunk = (sequence: number | bigint, body: string, more: Record<string, unknown> = {}) => ({
  kind: 'chunk' as const,
  correlation: CORR,
  channel: CHAN,
  sequence,
  ...(body ? { body: text(body) } : {}),
  ...more,
});

describe('reassembleStreams', () => {
  it('drops and counts a duplicate, ends at the first gap (that chunk is not late) and counts what follows', () => {
    const c = new Conversation();
    c.add(chunk(0, 'a', { operation: 'chat' }));
    c.add(chunk(1, 'b'));
    c.add(chunk(1, 'b')); // duplicate
    c.add(chunk(4, 'e')); // reveals the gap at 2, 3: ends the stream, neither applied nor late
    c.add(chunk(5, '', { last: true, finish_reason: 'stop' })); // after the end: late
    const [s] = reassembleStreams(factsOf(c.records));
    expect(s).toMatchObject({
      correlation: crock(0x5),
      channel: crock(0x6),
      chunks: 5,
      duplicates: 1,
      after_terminal: 1,
      gaps: [2, 3],
      terminal: 'gap',
      purpose: 'chat',
      text: 'ab',
      finish_reason: null,
      applied: [0, 1],
      recordIndices: [0, 1, 2, 3, 4],
      // Which chunk is which, for drawing the stream unfolded.
      duplicateIndices: [2],
      gapIndex: 3,
      lateIndices: [4],
      unsequencedIndices: [],
    });
  });

  it('ends with last: finish_reason and whole-stream usage from the terminal chunk; a chunk after it is dropped', () => {
    const c = new Conversation();
    c.add(chunk(0, 'thin', { operation: 'reasoning' }));
    c.add(chunk(1, 'king'));
    const usage = { input_tokens: 10, output_tokens: 2 };
    c.add(chunk(2, '', { last: true, finish_reason: 'stop', usage }));
    c.add(chunk(3, 'late'));
    const [s] = reassembleStreams(factsOf(c.records));
    expect(s).toMatchObject({
      chunks: 4,
      duplicates: 0,
      after_terminal: 1,
      gaps: [],
      terminal: 'last',
      finish_reason: 'stop',
      usage,
      text: 'thinking',
      terminalIndex: 2,
    });
  });

  it('does not reorder: a chunk that arrives ahead of its turn reveals a gap, and the ones after it are late', () => {
    const c = new Conversation();
    c.add(chunk(1, 'b'));
    c.add(chunk(0, 'a', { operation: 'chat' }));
    c.add(chunk(2, 'c', { last: true }));
    const [s] = reassembleStreams(factsOf(c.records));
    expect(s).toMatchObject({ terminal: 'gap', gaps: [0], after_terminal: 2, duplicates: 0, applied: [], purpose: null, text: null });
  });

  it('ends with an error carrying the channel; chunks after it are dropped', () => {
    const c = new Conversation();
    c.add(chunk(0, 'a', { operation: 'tool_args' }));
    c.add(chunk(1, 'b'));
    const err = c.add({ kind: 'error', record: id16(0x99), correlation: CORR, channel: CHAN, body: text('x'), usage: { input_tokens: 3, output_tokens: 1 } });
    c.add(chunk(2, 'c'));
    const [s] = reassembleStreams(factsOf(c.records));
    expect(s).toMatchObject({
      chunks: 3,
      terminal: 'error',
      terminalIndex: c.at(err),
      after_terminal: 1,
      errorIndices: [c.at(err)],
      purpose: 'tool_args',
      text: null,
    });
    expect(s.usage).toEqual({ input_tokens: 3, output_tokens: 1 });
  });

  it('an error ends the stream when it arrives, whatever its sequence; what follows is late', () => {
    const c = new Conversation();
    const err = c.add({ kind: 'error', record: id16(0x99), correlation: CORR, channel: CHAN, sequence: 1, body: text('x') });
    c.add(chunk(0, 'a', { operation: 'chat' }));
    c.add(chunk(1, 'b'));
    const [s] = reassembleStreams(factsOf(c.records));
    expect(s).toMatchObject({ terminal: 'error', terminalIndex: c.at(err), applied: [], text: null, after_terminal: 2 });
  });

  it('a second error after the end is late (the assembler counts it in lateDropped)', () => {
    const c = new Conversation();
    c.add(chunk(0, 'a', { operation: 'chat' }));
    const first = c.add({ kind: 'error', record: id16(0x99), correlation: CORR, channel: CHAN, sequence: 1, body: text('x') });
    c.add({ kind: 'error', record: id16(0x9a), correlation: CORR, channel: CHAN, sequence: 1, body: text('x') });
    const [s] = reassembleStreams(factsOf(c.records));
    expect(s).toMatchObject({ terminal: 'error', terminalIndex: c.at(first), after_terminal: 1, duplicates: 0, text: 'a' });
  });

  it('the reference test: 0, 0 again (duplicate), 2 (gap: the end), then 1 (late)', () => {
    const c = new Conversation();
    c.add(chunk(0, 'a', { operation: 'chat' }));
    c.add(chunk(0, 'a'));
    c.add(chunk(2, 'c'));
    c.add(chunk(1, 'b'));
    const [s] = reassembleStreams(factsOf(c.records));
    expect(s).toMatchObject({ chunks: 4, duplicates: 1, gaps: [1], terminal: 'gap', after_terminal: 1, applied: [0], text: 'a', finish_reason: null });
    expect(s.note).toMatch(/sequence 2 came where 1 was expected/);
  });

  it('after the end a repeated sequence is late, not a duplicate', () => {
    const c = new Conversation();
    c.add(chunk(0, 'a', { operation: 'chat' }));
    c.add(chunk(1, '', { last: true, finish_reason: 'stop' }));
    c.add(chunk(0, 'a'));
    c.add(chunk(1, '', { last: true }));
    const [s] = reassembleStreams(factsOf(c.records));
    expect(s).toMatchObject({ terminal: 'last', duplicates: 0, after_terminal: 2, finish_reason: 'stop' });
  });

  it('a chunk without a sequence is neither applied nor counted, before or after the end (noted)', () => {
    const c = new Conversation();
    c.add(chunk(0, 'a', { operation: 'chat' }));
    c.add({ kind: 'chunk', correlation: CORR, channel: CHAN, body: text('?') });
    c.add(chunk(1, 'b', { last: true }));
    c.add({ kind: 'chunk', correlation: CORR, channel: CHAN, body: text('?') });
    const [s] = reassembleStreams(factsOf(c.records));
    expect(s).toMatchObject({
      chunks: 4,
      terminal: 'last',
      duplicates: 0,
      after_terminal: 0,
      text: 'ab',
      applied: [0, 2],
      unsequencedIndices: [1, 3],
      lateIndices: [],
    });
    expect(s.note).toMatch(/2 chunks carry no sequence and were not applied/);
  });

  it('abandoned: the opening deadline passed, measured against the latest log time of the input', () => {
    const c = new Conversation();
    c.add(chunk(0, 'a', { operation: 'chat', deadline_micros: 1_000n }), { logTime: 500n });
    c.add(chunk(1, 'b'), { logTime: 600n });
    c.add({ kind: 'event', record: id16(0x77), body: text('{}') }, { logTime: 2_000n }); // any record's log time counts
    const [s] = reassembleStreams(factsOf(c.records));
    expect(s.terminal).toBe('abandoned');
    expect(s.deadline_micros).toBe(1_000n);
    expect(s.note).toMatch(/no terminal before the deadline/);
  });

  it('open, not abandoned, while the deadline is ahead of the latest log time', () => {
    const c = new Conversation();
    c.add(chunk(0, 'a', { operation: 'chat', deadline_micros: 10_000n }), { logTime: 500n });
    const [s] = reassembleStreams(factsOf(c.records));
    expect(s.terminal).toBeNull();
    expect(s.note).toMatch(/still open/);
  });

  it('undecidable without any log time: terminal null, with a note', () => {
    const c = new Conversation();
    c.add(chunk(0, 'a', { operation: 'chat', deadline_micros: 1_000n }));
    c.add(chunk(1, 'b'));
    const [s] = reassembleStreams(factsOf(c.records));
    expect(s.terminal).toBeNull();
    expect(s.note).toMatch(/cannot be checked/);
  });

  it('notes a terminal chunk appended after the deadline', () => {
    const c = new Conversation();
    c.add(chunk(0, 'a', { operation: 'chat', deadline_micros: 1_000n }), { logTime: 500n });
    c.add(chunk(1, '', { last: true }), { logTime: 5_000n });
    const [s] = reassembleStreams(factsOf(c.records));
    expect(s.terminal).toBe('last');
    expect(s.note).toMatch(/after the opening chunk's deadline/);
  });

  it('separates streams by conversation, channel and correlation, and caps a huge gap', () => {
    const c = new Conversation();
    c.add(chunk(0, 'a', { operation: 'chat' }));
    c.add(chunk(0, 'z', { operation: 'chat', correlation: id16(0x7) }));
    c.add(chunk(2n ** 40n, 'far', { correlation: id16(0x7) }));
    const streams = reassembleStreams(factsOf(c.records));
    expect(streams).toHaveLength(2);
    expect(streams[0]).toMatchObject({ correlation: crock(0x5), terminal: null, chunks: 1 });
    expect(streams[1].terminal).toBe('gap');
    expect(streams[1].gaps).toHaveLength(MAX_GAP_LIST);
    expect(streams[1].gaps[0]).toBe(1);
    expect(streams[1].note).toMatch(/misses 1099511627775 sequence numbers/);
  });

  it('a stream without its opening chunk ends at a gap from 0', () => {
    const c = new Conversation();
    c.add(chunk(2, 'c'));
    const [s] = reassembleStreams(factsOf(c.records));
    expect(s).toMatchObject({ terminal: 'gap', gaps: [0, 1], purpose: null, after_terminal: 0 });
  });
});
