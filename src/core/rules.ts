// The rule catalogue: every rule id a finding carries and every code a record's `error.code`
// carries (docs/report.md), as data: what it means, why it matters, the spec's own words, what
// usually fixes it and an example. `envelope-inspector explain` and the app read their text from
// here, and docs/report.md's list of ids is generated from it (`npm run docs:rules`; rules.test.ts
// fails while that list is out of date, and checks every id the inspector emits over vectors/ is
// here). A new rule is one entry below plus the check that emits it through finding().
//
// What is catalogued is what reaches report@1. Two kinds of internal code are left out on purpose:
// - `json/too-deep`: the lossless JSON reader's own code; inspect.ts reports it as `json/invalid`,
//   as report.md's decode notes say, so no record ever carries it.
// - `permalink/*`: failures to open a shared link or bundle (src/core/share); they are about the link,
//   not about a record, and never reach a record or the report.
import type { Span } from './bytes';

/** How bad a finding is (report@1 `findings[].severity`); each rule has its own (verdict.ts re-exports it beside Finding). */
export type Severity = 'error' | 'warning' | 'info';

/**
 * Codes the code spells out that never reach a record (see above): the source scan in rules.test.ts
 * accepts these and nothing else outside the catalogue.
 */
export const INTERNAL_CODES: readonly string[] = Object.freeze(['json/too-deep']);

/**
 * The format whose rules a rule enforces, which is also the first segment of its id: `agdx`
 * (agdx-v1.md), `agentdna` (agentdna.md), `cbor` (RFC 8949, as agdx-v1.md's Encoding reads it),
 * `json` (the JSON text itself) and `input` (what the inspector can read at all, report.md).
 */
export type RuleFamily = 'agdx' | 'agentdna' | 'cbor' | 'json' | 'input';

/** A finding is listed in a record's `findings`; a decode error is its `error.code` (`decoded: false`). */
export type RuleKind = 'finding' | 'decode-error';

/**
 * `record`: decided from the record alone. `log`: decided from the records around it (the causal
 * graph, deadlines, the folds), so it can only be added once the whole input has been read.
 */
export type RuleScope = 'record' | 'log';

/** The spec documents, as in docs/ (the repository's copies of the shared specs). */
export type SpecDoc = 'agdx-v1.md' | 'agentdna.md' | 'report.md' | 'design.md';

/**
 * The spec's own words for a rule: `quote` is verbatim from `section` of `doc` (whitespace aside);
 * a line `[...]` marks an elision. A table row may follow its table's header row and an elision
 * (explain names a row's cells by their columns when it is too wide to show as a row).
 * rules.test.ts checks every quote against docs/.
 */
export interface SpecQuote {
  doc: SpecDoc;
  /** The section heading, as written (or its start, up to a parenthesis or colon). */
  section: string;
  quote: string;
}

interface RuleText {
  /** One line: what the rule says is wrong. */
  title: string;
  /** Why it matters, concretely, in one to three sentences. */
  why: string;
  spec: readonly SpecQuote[];
  /** What usually fixes it. */
  fix: string;
  /** A record that triggers it: a line or two of words, then the record (CBOR diagnostic or JSON). */
  example: string;
}

interface FindingText extends RuleText {
  /** The severity report.md gives it (the one `finding()` uses by default). */
  severity: Severity;
  /** Other severities the inspector gives it in some cases (the title or why says which). */
  alsoAs?: readonly Severity[];
  scope?: RuleScope;
}

interface RuleMetaBase extends RuleText {
  id: RuleId;
  family: RuleFamily;
  scope: RuleScope;
}

export interface FindingRuleMeta extends RuleMetaBase {
  kind: 'finding';
  severity: Severity;
  /** Every severity the rule may carry, the default first. */
  severities: readonly Severity[];
}

export interface DecodeErrorMeta extends RuleMetaBase {
  kind: 'decode-error';
}

export type RuleMeta = FindingRuleMeta | DecodeErrorMeta;

// ---------------------------------------------------------------------------------------------
// The families whose ids are built from a member name (report.md: `agdx/matrix/<field>`, …)
// ---------------------------------------------------------------------------------------------

/** The fields of the per-kind validity matrix, one rule id each (`agdx/matrix/<field>`). */
export const MATRIX_FIELDS = [
  'record',
  'correlation',
  'channel',
  'sequence',
  'last',
  'finish_reason',
  'idempotency_key',
  'deadline_micros',
  'task_state',
  'operation',
  'tool',
  'usage',
  'body',
] as const;
export type MatrixField = (typeof MATRIX_FIELDS)[number];

/** The caps, one rule id each (`agdx/cap/<name>`). */
export const CAP_NAMES = ['operation', 'tool', 'finish_reason', 'idempotency_key', 'agent_id', 'metadata', 'body_ref', 'capabilities'] as const;
export type CapName = (typeof CAP_NAMES)[number];

/**
 * The header checks (`agdx/header/<name>`): the four of report.md, this implementation's
 * `unreadable`, and the 0.7 header block's `agent`, `parent_conv` and `root_conv`.
 */
export const HEADER_NAMES = ['av', 'ct', 'conversation', 'to', 'unreadable', 'agent', 'parent_conv', 'root_conv'] as const;
export type HeaderName = (typeof HEADER_NAMES)[number];

/**
 * The body readers that can find a body wrong (`agdx/body/<codec>`, src/core/agdx/bodies.ts): JSON
 * (agdx.ct = 1), CBOR (agdx.ct = 3, and the CBOR capsules: error body, card, body reference) and the
 * agent id of a quarantine. The other content types are shown as hex and never fail.
 */
export const BODY_CODECS = ['json', 'cbor', 'agent_id'] as const;
export type BodyCodec = (typeof BODY_CODECS)[number];

/** Prefixes every key of `table` with `prefix`, keeping its order and its type. */
function prefixed<P extends string, K extends string, V>(prefix: P, table: Record<K, V>): Record<`${P}${K}`, V> {
  const out = {} as Record<`${P}${K}`, V>;
  for (const key of Object.keys(table) as K[]) out[`${prefix}${key}`] = table[key];
  return out;
}

// Shared spec words.
const MATRIX_KEY = 'R required, O optional, X invalid (present is a violation).\n| field | command | response | event | chunk | status | error |\n[...]';
const matrixRow = (row: string): SpecQuote => ({ doc: 'agdx-v1.md', section: 'Per-kind validity matrix', quote: `${MATRIX_KEY}\n${row}` });
/** An id or a body in an example: 16 bytes written out would say nothing more. */
const ID = "h'…'";

const MATRIX: Record<MatrixField, FindingText> = {
  record: {
    severity: 'error',
    title: 'A command, response, event, status or error without a record id',
    why: 'The record id (16 bytes, a ULID as the SDK mints it) is how other records name this one: cause points at a causal parent by its record id, and the causal graph keys its records on it. Only a chunk may go without one (its channel and sequence place it); the reference validator rejects any other kind that lacks it.',
    spec: [matrixRow('| record | R | R | R | O | R | R |')],
    fix: 'Mint a record id (a ULID) for every envelope that is not a chunk. The laser SDK does this; hand-built envelopes and bridges often forget it.',
    example: `An event with no record:\n{"kind": "event", "conversation": ${ID}, "source": "planner", "body": h'7b7d'}`,
  },
  correlation: {
    severity: 'error',
    title: 'A command, response, chunk or error without correlation (or a status with operation task)',
    why: "correlation pairs a request with what answers it: a response or error finds its command by it, a chunk stream the command that opened it, a task status update its task. Without it a consumer cannot tell which request an answer belongs to, and the inspector can neither draw the pair nor check the command's deadline against its answer.",
    spec: [matrixRow('| correlation | R | R | O | R | O, R when operation = task | R |')],
    fix: 'A command mints a fresh correlation id; every response, error, chunk and task status that answers it copies that id. Only an event, and a status other than a task update, may go without one.',
    example: `The laser-wire fixture agent_invalid_command_no_correlation.bin, a command with no correlation:\n{"kind": "command", "record": ${ID}, "conversation": ${ID},\n "source": "source-agent", "body": h'78'}`,
  },
  channel: {
    severity: 'error',
    title: 'channel on a command, response, event or status, or a chunk without channel',
    why: 'channel names a chunk stream: chunks are reassembled per channel, and an error that carries a channel ends that stream. A chunk without one belongs to no stream; on a command, response, event or status the field means nothing and the reference validator rejects the envelope.',
    spec: [matrixRow('| channel | X | X | X | R | X | O (ends a stream) |')],
    fix: 'Give every chunk of a stream the same channel id; put a channel on an error only to end that stream, and nowhere else.',
    example: `The laser-wire fixture agent_invalid_response_channel.bin, a response with a channel:\n{"kind": "response", "record": ${ID}, "conversation": ${ID}, "source": "source-agent",\n "correlation": ${ID}, "channel": ${ID}, "body": h'78'}`,
  },
  sequence: {
    severity: 'error',
    title: 'A chunk without sequence, sequence on a kind other than chunk, or on an error without channel',
    why: 'sequence orders the chunks of a stream from 0: a reader applies each sequence once, drops and counts duplicates, and ends the stream at a gap. A chunk without it cannot be placed; an error may carry one only together with the channel it ends, and no other kind may carry one.',
    spec: [matrixRow('| sequence | X | X | X | R | X | O, only with channel |')],
    fix: "Number the chunks of each stream 0, 1, 2, …; on an error that ends a stream, send sequence only with that stream's channel.",
    example: `The laser-wire fixture agent_invalid_chunk_no_sequence.bin, a chunk with no sequence:\n{"kind": "chunk", "conversation": ${ID}, "source": "source-agent", "correlation": ${ID},\n "channel": ${ID}, "body": h'78'}`,
  },
  last: {
    severity: 'error',
    title: 'last = true on a command, response, event or error',
    why: "last = true closes a chunk stream (the terminal chunk, which carries finish_reason and the whole stream's usage) and marks a final status update (A2A's final). On any other kind it has no meaning and the reference validator rejects the envelope.",
    spec: [matrixRow('| last = true | X | X | X | O | O | X |')],
    fix: "Set last only on the terminal chunk of a stream or on a final status update. To end a stream with an error, give the error the stream's channel instead.",
    example: `The laser-wire fixture agent_invalid_error_last.bin, an error with last = true:\n{"kind": "error", "record": ${ID}, "conversation": ${ID}, "source": "source-agent",\n "correlation": ${ID}, "last": true, "body": h'78'}`,
  },
  finish_reason: {
    severity: 'error',
    title: 'finish_reason on a command, event, status or error, or on a chunk without last',
    why: 'finish_reason says why a generation stopped (stop, length, content_filter, tool_call, error, …, the OpenTelemetry vocabulary). It belongs to the answer as a whole: a response, or the terminal chunk of a stream. Anywhere else the reference validator rejects the envelope.',
    spec: [matrixRow('| finish_reason | X | O | X | O, only with last | X | X |')],
    fix: 'Put finish_reason on the response, or on the chunk that ends the stream together with last = true.',
    example: `A chunk in the middle of a stream with a finish_reason:\n{"kind": "chunk", "conversation": ${ID}, "source": "writer", "correlation": ${ID},\n "channel": ${ID}, "sequence": 3, "finish_reason": "stop", "body": h'2e'}`,
  },
  idempotency_key: {
    severity: 'error',
    title: 'idempotency_key on a chunk, status or error',
    why: 'An idempotency key lets a receiver recognise a command, response or event it has already applied when the sender retries it. The matrix allows it on those three kinds only: a chunk is de-duplicated by its sequence within its stream, and the reference validator rejects the key on a chunk, status or error.',
    spec: [matrixRow('| idempotency_key | O | O | O | X | X | X |')],
    fix: 'Keep idempotency keys on commands, responses and events; drop them from chunks, status updates and errors.',
    example: `A status update with an idempotency key:\n{"kind": "status", "record": ${ID}, "conversation": ${ID}, "source": "booker",\n "idempotency_key": "order-123", "operation": "progress"}`,
  },
  deadline_micros: {
    severity: 'error',
    title: 'deadline_micros on a response, event, status or error, or on a chunk after sequence 0',
    why: "deadline_micros (epoch microseconds) is how long a sender will wait: on a command, the deadline for its answer; on a stream's opening chunk, the abandonment deadline (the stream is abandoned when it passes without a terminal). The reference validator rejects it anywhere else, including on a later chunk.",
    spec: [matrixRow('| deadline_micros | O | X | X | O, only on sequence 0 | X | X |')],
    fix: 'Put the deadline on the command, or on the opening chunk (sequence 0) of a stream.',
    example: `The laser-wire fixture agent_invalid_chunk_late_deadline.bin, a deadline on chunk 5:\n{"kind": "chunk", "conversation": ${ID}, "source": "source-agent", "correlation": ${ID},\n "channel": ${ID}, "deadline_micros": 1717171777000000, "sequence": 5, "body": h'78'}`,
  },
  task_state: {
    severity: 'error',
    title: 'task_state on a command, event or chunk, or a task status update without one',
    why: "task_state carries an A2A v0.3 task state code (1 submitted … 9 unknown); the run registry folds status updates into each run's history by it. A status with operation task says nothing without it, and the reference validator rejects it on a command, event or chunk.",
    spec: [matrixRow('| task_state | X | O | X | X | R when operation = task, else O | O |')],
    fix: 'Send task states on status updates (required when operation is task), responses or errors. Map A2A states by name, never by number: A2A v1.0 renumbered its enum.',
    example: `The laser-wire fixture agent_invalid_event_task_state.bin, an event with a task state:\n{"kind": "event", "record": ${ID}, "conversation": ${ID}, "source": "source-agent",\n "task_state": 2, "body": h'78'}`,
  },
  operation: {
    severity: 'error',
    title: 'A status or opening chunk without a valid operation, or an operation on a later chunk',
    why: "On a status, operation says what the update is and so how its body reads (a card body is an AgentCard, a quarantine body an agent id); on a stream's opening chunk it is the stream's purpose. Both vocabularies are closed: a status must say task, card, progress, quarantine or unquarantine, an opening chunk chat, reasoning or tool_args, and a later chunk must not repeat it.",
    spec: [
      matrixRow('| operation | O | O | O | R on sequence 0 (chat, reasoning, tool_args), X after | R: task, card, progress, quarantine, unquarantine | O |'),
    ],
    fix: 'Use one of the listed operations for a status and for chunk 0; leave operation off the later chunks of a stream. Free-form operations belong on commands, responses, events and errors.',
    example: `The laser-wire fixture agent_invalid_status_bad_operation.bin, a status with an operation outside the vocabulary:\n{"kind": "status", "record": ${ID}, "conversation": ${ID}, "source": "source-agent",\n "operation": "telemetry"}`,
  },
  tool: {
    severity: 'error',
    title: 'tool on a status update',
    why: 'tool names the tool a command invokes, or that an answer, event, chunk or error reports on. A status update reports the state of an agent or a task, not a tool call, and the reference validator rejects a tool on it.',
    spec: [matrixRow('| tool | O | O | O | O | X | O |')],
    fix: 'Move the tool name to the command, response or chunks it belongs to; report task progress in a status without it.',
    example: `A progress update naming a tool:\n{"kind": "status", "record": ${ID}, "conversation": ${ID}, "source": "booker",\n "operation": "progress", "tool": "search"}`,
  },
  usage: {
    severity: 'error',
    title: 'usage on a command, or on a chunk without last',
    why: "usage reports the tokens spent (input_tokens and output_tokens, optionally reasoning and cache counts) by whoever did the work: a response, event, status or error. A stream's usage rides on its terminal chunk only, so it is counted once; a command has spent nothing yet. The folds sum usage per agent, so a misplaced count skews them.",
    spec: [matrixRow('| usage | X | O | O | O, only with last | O | O |')],
    fix: 'Report usage on the response, or once on the terminal chunk of a stream (last = true) for the whole stream.',
    example: `A chunk in the middle of a stream with usage:\n{"kind": "chunk", "conversation": ${ID}, "source": "writer", "correlation": ${ID},\n "channel": ${ID}, "sequence": 1, "usage": {"input_tokens": 12, "output_tokens": 40},\n "body": h'6869'}`,
  },
  body: {
    severity: 'error',
    title: 'A command, response, event or error with an empty body, or a chunk with none that is not the last',
    why: 'The body is the message itself (its codec named by the agdx.ct header); the wire writes it only when non-empty, so an absent body is an empty one. A command, response, event or error without one carries nothing to act on (an error carries its AgentErrorBody there), and only the terminal chunk of a stream may be empty.',
    spec: [matrixRow('| body non-empty | R | R | R | R unless last | O | R |')],
    fix: 'Send the content in body; for an error, an AgentErrorBody (CBOR: code, message, retryable). A stream may end with an empty chunk only if it has last = true.',
    example: `An error with no body:\n{"kind": "error", "record": ${ID}, "conversation": ${ID}, "source": "booker",\n "correlation": ${ID}}`,
  },
};

const CAPS: Record<CapName, FindingText> = {
  operation: {
    severity: 'error',
    title: 'operation is longer than 256 bytes',
    why: 'operation is a short name that consumers route and index on; the wire caps it at 256 bytes of UTF-8 and the reference validator rejects a longer one, so a conforming consumer drops the message.',
    spec: [{ doc: 'agdx-v1.md', section: 'Caps', quote: 'operation, tool, finish_reason: 256 bytes each.' }],
    fix: 'Use a short operation name and move anything longer (arguments, descriptions) into the body or metadata.',
    example: `A command whose operation is 300 bytes long:\n{"kind": "command", "record": ${ID}, "conversation": ${ID}, "source": "planner",\n "correlation": ${ID}, "operation": "aaaa…(300 bytes)", "body": h'7b7d'}`,
  },
  tool: {
    severity: 'error',
    title: 'tool is longer than 256 bytes',
    why: 'tool names a tool, not its arguments; the wire caps it at 256 bytes of UTF-8 and the reference validator rejects a longer one.',
    spec: [{ doc: 'agdx-v1.md', section: 'Caps', quote: 'operation, tool, finish_reason: 256 bytes each.' }],
    fix: 'Send the tool name in tool and its arguments in the body (a tool_args stream for long ones).',
    example: `A command whose tool holds the call's arguments too:\n{"kind": "command", ..., "tool": "search(query='…2 KB of text…')", "body": h'7b7d'}`,
  },
  finish_reason: {
    severity: 'error',
    title: 'finish_reason is longer than 256 bytes',
    why: 'finish_reason is a word from an open vocabulary (stop, length, content_filter, tool_call, error, …); the wire caps it at 256 bytes and the reference validator rejects a longer one.',
    spec: [{ doc: 'agdx-v1.md', section: 'Caps', quote: 'operation, tool, finish_reason: 256 bytes each.' }],
    fix: 'Use a vocabulary word; put an explanation (a provider error text, say) in the body or in an error record.',
    example: `A response whose finish_reason holds a whole provider error message:\n{"kind": "response", ..., "finish_reason": "error: upstream returned 500 … (400 bytes)",\n "body": h'7b7d'}`,
  },
  idempotency_key: {
    severity: 'error',
    title: 'idempotency_key is empty or longer than 64 bytes',
    why: 'A receiver stores idempotency keys to recognise retries, so the wire bounds them to 1..64 bytes; an empty key would make every keyed message look like the same one. The reference validator rejects both.',
    spec: [
      { doc: 'agdx-v1.md', section: 'Envelope fields, in wire order', quote: '| 10 | idempotency_key | text | 1..64 bytes |' },
      { doc: 'agdx-v1.md', section: 'Caps', quote: 'idempotency_key: 64 bytes.' },
    ],
    fix: 'Leave the field out when there is no key; otherwise use a short stable key (a hash of the request, or an order id and attempt).',
    example: `A command with an empty idempotency key:\n{"kind": "command", "record": ${ID}, "conversation": ${ID}, "source": "planner",\n "correlation": ${ID}, "idempotency_key": "", "body": h'7b7d'}`,
  },
  agent_id: {
    severity: 'error',
    title: 'source or target is empty, longer than 256 bytes, or holds a control character',
    why: 'An agent id routes messages and keys the agent registry, quarantine and signing keys. The wire bounds it to 1..256 bytes with no control character: a control character in an id can rewrite a terminal or a log line that shows it, and the reference validator rejects the envelope.',
    spec: [
      {
        doc: 'agdx-v1.md',
        section: 'Envelope fields, in wire order',
        quote: '| 4 | source | text | agent id: 1..256 bytes, no control character; a claim, not an identity |',
      },
    ],
    fix: 'Use printable agent ids of at most 256 bytes; check ids taken from configuration or user input before sending.',
    example: `A command whose source holds an escape sequence:\n{"kind": "command", "record": ${ID}, "conversation": ${ID}, "source": "planner\\u001b[2J",\n "correlation": ${ID}, "body": h'7b7d'}`,
  },
  metadata: {
    severity: 'error',
    title: 'metadata has more than 32 entries, or a key, value or total over its cap',
    why: "Metadata rides in every copy of a message and inside its signature; the wire caps it so a consumer's memory per message is bounded. A value's size is its byte length for a string, the sum of 1 + each item's size for a list, and 9 for any other scalar. The reference validator rejects a message over any cap.",
    spec: [
      {
        doc: 'agdx-v1.md',
        section: 'Caps',
        quote:
          "metadata: 32 entries, key\n256 bytes, value 1024 bytes, keys plus values 8192 bytes (a value's size: a string's byte length; a\nlist: the sum of 1 + each item's size; any other scalar: 9).",
      },
    ],
    fix: 'Keep metadata to a few short routing and policy entries; move bulky context into the body, or into a referenced body (agdx.ct = 8).',
    example: `A command with 40 metadata entries:\n{"kind": "command", ..., "metadata": {"k00": 1, "k01": 1, …, "k39": 1}, "body": h'7b7d'}`,
  },
  body_ref: {
    severity: 'error',
    title: 'A body reference whose reference is empty or longer than 1024 bytes',
    why: 'A BodyRef (agdx.ct = 8) points at a body stored elsewhere; its reference must be 1..1024 bytes. An empty one points nowhere, and a huge one is a body in disguise. The inspector shows references as text and never follows them.',
    spec: [
      { doc: 'agdx-v1.md', section: 'Caps', quote: 'BodyRef reference: 1..1024 bytes.' },
      {
        doc: 'agdx-v1.md',
        section: 'Bodies by content type and kind',
        quote: 'ref (ct = 8): a BodyRef: `reference` text, `size_bytes` u64, `sha256` bstr 32, `encryption` u8?.',
      },
    ],
    fix: 'Write a short locator (an object-store key or URL) in reference, with size_bytes and sha256 of the stored body.',
    example: `A response (agdx.ct = 8) whose BodyRef body has an empty reference:\n{"reference": "", "size_bytes": 1048576, "sha256": h'…'}`,
  },
  capabilities: {
    severity: 'error',
    title: 'An agent card lists more than 64 capabilities',
    why: 'A status card (operation card) describes what its agent can do; the agent registry keeps the latest card per agent, and the wire caps the list at 64 descriptors so a card stays small.',
    spec: [
      { doc: 'agdx-v1.md', section: 'Caps', quote: 'Card\ncapabilities: 64.' },
      {
        doc: 'agdx-v1.md',
        section: 'Bodies by content type and kind',
        quote: 'status card: an AgentCard, CBOR: `name`?, `version`?, `capabilities`? (≤ 64 descriptors:',
      },
    ],
    fix: 'Group skills, or publish the full list elsewhere and keep the card to the 64 most useful descriptors.',
    example: `A status card whose AgentCard body lists 65 capabilities:\n{"name": "booker", "capabilities": [{"skill_id": "s1"}, …, {"skill_id": "s65"}]}`,
  },
};

const HEADERS: Record<HeaderName, FindingText> = {
  av: {
    severity: 'error',
    alsoAs: ['warning'],
    title: 'agdx.av is not the unsigned integer 1 (error), or is missing or not written as uint32 (warning)',
    why: 'agdx.av selects the decoder: there is no version field inside the envelope. A record whose agdx.av is not 1 was written for another wire version and cannot be read as v1; without agdx.av at all, Iggy consumers treat the message as a generic provenance message, not an AGDX record.',
    spec: [
      { doc: 'agdx-v1.md', section: 'Encoding', quote: 'There is no version field inside the envelope; `agdx.av` on the record selects the decoder.' },
      { doc: 'agdx-v1.md', section: 'The Iggy record binding', quote: 'User headers on an AGDX record: `agdx.av` uint32 = 1' },
    ],
    fix: 'Write the user header agdx.av as a uint32 with value 1 on every AGDX record (the laser SDK does).',
    example: 'An Iggy message whose user headers are {"agdx.ct": uint8 3} only: the envelope decodes, but agdx.av is missing.',
  },
  ct: {
    severity: 'info',
    title: 'agdx.ct is not a known content-type code (or not written as uint8)',
    why: 'agdx.ct names the codec of the body (0 raw, 1 json, 2 msgpack, 3 cbor, …, 8 ref, 255 any). With an unknown code the inspector cannot read the body and shows it as hex; the record itself is still valid.',
    spec: [
      { doc: 'report.md', section: 'Rule ids', quote: '`ct` (unknown content-type code: info only)' },
      {
        doc: 'agdx-v1.md',
        section: 'Dictionaries',
        quote: 'content type (`agdx.ct`): 0 raw, 1 json, 2 msgpack, 3 cbor, 4 bson, 5 avro, 6 protobuf, 7 arrow, 8 ref, 255 any.',
      },
    ],
    fix: 'Use a content-type code from the dictionary (255 any when nothing fits), written as a uint8 header.',
    example: 'An Iggy message with user headers {"agdx.av": uint32 1, "agdx.ct": uint8 42}.',
  },
  conversation: {
    severity: 'error',
    title: "gen_ai.conversation.id (or a laser record's partition_key) names another conversation, or is not a uint128",
    why: "The log is partitioned and searched by conversation, and the header is what tools read without decoding the envelope. The header is a little-endian u128 while the envelope's id is big-endian: a producer that copies the bytes as they are writes the wrong conversation into every header (the message says when that is what happened).",
    spec: [
      {
        doc: 'agdx-v1.md',
        section: 'The Iggy record binding',
        quote: "`gen_ai.conversation.id` uint128 **little-endian** (the\nenvelope's id is big-endian: a known trap)",
      },
    ],
    fix: "Write gen_ai.conversation.id as the envelope's 16 conversation bytes reversed (little-endian), with header kind uint128.",
    example:
      'An envelope in conversation 01J0Y1ZAG00000000000000002 whose gen_ai.conversation.id header holds the same 16 bytes unreversed (01 90 3c 1f aa 00 … 02).',
  },
  to: {
    severity: 'error',
    alsoAs: ['warning'],
    title: "agdx.to is not the envelope's target (error), or an envelope with a target has no agdx.to (warning)",
    why: "agdx.to lets a consumer route or filter a message by recipient without decoding it. If it disagrees with the envelope's target, routing and the envelope say different things; if it is missing, consumers that filter on the header never see the message.",
    spec: [{ doc: 'agdx-v1.md', section: 'The Iggy record binding', quote: '`agdx.to` string when target is set.' }],
    fix: "Write agdx.to as a string header equal to the envelope's target whenever target is set, and leave it out otherwise.",
    example: 'An envelope with target "booker" whose agdx.to header says "payments".',
  },
  unreadable: {
    severity: 'warning',
    title: 'A user header of an Iggy JSON export could not be read',
    why: 'Headers in an HTTP export are {kind, value} pairs with base64 values; one that is not cannot be checked against the envelope (agdx.av, agdx.ct, the conversation), so those checks are skipped for it.',
    spec: [
      {
        doc: 'report.md',
        section: 'Additions in this implementation',
        quote: '`agdx/header/unreadable` (warning): a user header of a JSON export could not be read (not `{kind, value}`, not base64).',
      },
      { doc: 'agdx-v1.md', section: 'The Iggy record binding', quote: 'Iggy HTTP JSON (polled messages) comes in three eras; values are standard base64:' },
    ],
    fix: "Export the messages as Iggy's HTTP API returns them; a header edited by hand usually lost its kind or its base64.",
    example:
      'A message of an Iggy ≥ 0.7 export with user_headers [{"key": {"kind": "string", "value": "YWdkeC5jdA=="}, "value": {"kind": "uint8", "value": "%%"}}].',
  },
  agent: {
    severity: 'error',
    title: "gen_ai.agent.id names another agent than the envelope's source",
    why: "From laser-sdk 0.7 on the header block names the record's author in gen_ai.agent.id, so tools can filter by agent without decoding the envelope. When it disagrees with the envelope's source, the header and the envelope tell two stories about who wrote the record (a relabelled or forwarded record).",
    spec: [
      {
        doc: 'report.md',
        section: 'Dialects',
        quote: '`agdx/header/<name>`, the 0.7 header block: `agent` (gen_ai.agent.id is not the source)',
      },
    ],
    fix: "Stamp the headers from the envelope being sent (laser-sdk's recordHeadersForEnvelope does): gen_ai.agent.id is the envelope's source.",
    example: 'A command from "planner" whose header block says gen_ai.agent.id = "critic".',
  },
  parent_conv: {
    severity: 'error',
    alsoAs: ['warning'],
    title: "agdx.parent_conv is not the envelope's parent (error), or an envelope with a parent has none (warning)",
    why: "A child session's records carry their parent conversation both in the envelope (parent) and in the header block (agdx.parent_conv, the Crockford id), so a session tree can be followed without decoding the envelopes. A header naming another conversation puts the record under the wrong parent; a missing one hides it from readers that follow the headers.",
    spec: [
      {
        doc: 'report.md',
        section: 'Dialects',
        quote:
          "`parent_conv` and `root_conv` (agdx.parent_conv / agdx.root_conv name another conversation than\n  the envelope's parent / root, or name one the envelope does not have",
      },
    ],
    fix: "Stamp agdx.parent_conv from the envelope's parent (as its 26-character Crockford id), and only when the envelope has one.",
    example: 'An envelope with parent 00000000000000000000000004 whose agdx.parent_conv header says 00000000000000000000000006.',
  },
  root_conv: {
    severity: 'error',
    alsoAs: ['warning'],
    title: "agdx.root_conv is not the envelope's root (error), or an envelope with a root has none (warning)",
    why: 'The root of a session tree rides both the envelope (root) and the header block (agdx.root_conv), so a whole tree can be selected by its root without decoding. A header naming another conversation files the record under another tree; a missing one leaves it out of its tree for readers that go by the headers.',
    spec: [
      {
        doc: 'report.md',
        section: 'Dialects',
        quote:
          "`parent_conv` and `root_conv` (agdx.parent_conv / agdx.root_conv name another conversation than\n  the envelope's parent / root, or name one the envelope does not have",
      },
    ],
    fix: "Stamp agdx.root_conv from the envelope's root (its Crockford id), and only when the envelope has one.",
    example: 'An envelope with root 00000000000000000000000005 whose agdx.root_conv header is missing, or says another id.',
  },
};

const BODY_SPEC: SpecQuote = {
  doc: 'report.md',
  section: 'Rule ids',
  quote: '`agdx/body/<codec>`: the body does not parse as its declared content type (warning).',
};

const BODIES: Record<BodyCodec, FindingText> = {
  json: {
    severity: 'warning',
    title: 'The body is declared JSON (agdx.ct = 1) but does not parse as JSON',
    why: 'The receiver will decode the body by its declared codec and fail, and nothing in the envelope says why. The inspector shows it as text or hex instead; the envelope itself is still valid.',
    spec: [BODY_SPEC, { doc: 'agdx-v1.md', section: 'Bodies by content type and kind', quote: 'json / cbor / msgpack: decode and show' }],
    fix: 'Serialise the body as UTF-8 JSON, or set agdx.ct to the codec it really is (0 raw for plain text).',
    example: `A response with headers {"agdx.av": 1, "agdx.ct": 1} whose body is the text "ok, booked" (not JSON):\n{"kind": "response", ..., "body": h'6f6b2c20626f6f6b6564'}`,
  },
  cbor: {
    severity: 'warning',
    title: 'A body declared CBOR, or an error body, card or body reference, does not parse as one',
    why: "An error's body must be an AgentErrorBody, a status card's an AgentCard and a ref body (agdx.ct = 8) a BodyRef, all CBOR; a body with agdx.ct = 3 must be one CBOR item. A consumer fails to read the error code, card or reference, so it cannot act on it; the inspector shows the bytes as hex or CBOR diagnostic.",
    spec: [
      BODY_SPEC,
      {
        doc: 'agdx-v1.md',
        section: 'Bodies by content type and kind',
        quote: 'error: the body is an AgentErrorBody, CBOR (ct = 3): `code` u8, `message` text?, `retryable` bool',
      },
    ],
    fix: 'Encode error bodies as AgentErrorBody (code u8, message, retryable), cards as AgentCard and references as BodyRef, each as one CBOR item with nothing after it.',
    example: `The laser-wire fixture agent_invalid_error_last.bin: an error whose body is the single byte "x", not an AgentErrorBody:\n{"kind": "error", ..., "body": h'78'}`,
  },
  agent_id: {
    severity: 'warning',
    title: 'The body of a quarantine or unquarantine is not UTF-8',
    why: 'A quarantine or unquarantine names the agent it concerns in its body, as UTF-8 text. A body that is not text names no agent, so the fold cannot apply the fact to anyone.',
    spec: [
      BODY_SPEC,
      { doc: 'agdx-v1.md', section: 'Bodies by content type and kind', quote: 'status quarantine / unquarantine: the body is the UTF-8 agent id.' },
    ],
    fix: 'Write the quarantined agent id as UTF-8 text in the body.',
    example: `A quarantine whose body is not UTF-8:\n{"kind": "status", ..., "source": "ops", "operation": "quarantine", "body": h'ff fe'}`,
  },
};

// The rules the laser-sdk 0.7 dialect adds (docs/report.md "Dialects", the 0.7 TypeScript port's validator).
const DIALECT_SPEC = (quote: string): SpecQuote => ({ doc: 'report.md', section: 'Dialects', quote });

const SESSION_SPEC = (quote: string): SpecQuote => ({ doc: 'report.md', section: 'Sessions', quote });

const DIALECT_07_RULES = {
  'agdx/lineage/root-needs-parent': {
    severity: 'error',
    title: 'An envelope that names a root conversation but no parent',
    why: 'laser-sdk 0.7 puts a child session in its tree with parent (the conversation it was spawned from) and root (the first conversation of the tree). A root alone places the record in a tree without saying under which conversation, and the 0.7 validator rejects it.',
    spec: [DIALECT_SPEC('`agdx/lineage/root-needs-parent` (error): the envelope names a `root` but no `parent`: root\n  requires parent.')],
    fix: 'Set parent whenever root is set (a root session sets neither; a child session sets both).',
    example: `The 0.7 vector x01_root_without_parent.bin: a command with root 5 and no parent:\n{"kind": "command", "record": ${ID}, "conversation": ${ID}, "root": ${ID}, "source": "planner", ...}`,
  },
  'agdx/lineage/self': {
    severity: 'error',
    title: 'An envelope whose parent or root is its own conversation',
    why: 'A conversation cannot be its own parent or the root of the tree it is a child in: such a record loops the session tree back on itself, and the 0.7 validator rejects it.',
    spec: [DIALECT_SPEC("`agdx/lineage/self` (error): `parent` or `root` is the record's own conversation: parent and root\n  must differ from conversation.")],
    fix: "Name the spawning conversation as parent (and the tree's first as root); a root session leaves both out.",
    example: `The 0.7 vector x02_parent_equals_conversation.bin: a command whose parent is its conversation (2).`,
  },
  'agdx/session/last': {
    severity: 'error',
    title: 'A session status whose last does not match whether its state is terminal',
    why: 'A session ends with exactly one terminal status (completed, canceled, failed, rejected) that sets last; every other session status leaves it unset. A reader that goes by last would end the session early, or never, and the 0.7 validator rejects the record.',
    spec: [DIALECT_SPEC('`agdx/session/last` (error): a session status whose `last` disagrees with its state: session last\n  must match terminal task state')],
    fix: 'Set last = true on the terminal session status and on no other.',
    example: 'The 0.7 vector x05_session_completed_not_last.bin: status/session completed (4) without last.',
  },
  'agdx/session/body': {
    severity: 'error',
    title: 'A session status whose body is not the SessionStart, SessionTransition or SessionEnd its state needs',
    why: 'The session lifecycle rides in the bodies: a start names the agent, SDK, lineage and budget, a transition the actor and the control record it acknowledges, an end the reason and error. A body that does not read as the one its state calls for cannot be folded into the session, and the 0.7 validator rejects the record.',
    spec: [
      DIALECT_SPEC(
        '`agdx/session/body` (error): a session status whose body is not the one its state calls for: a\n  SessionStart (submitted, or working with `agent` or `sdk`), a SessionEnd (a terminal state) or a\n  SessionTransition (otherwise)',
      ),
    ],
    fix: "Write the body laser-sdk's session API writes for the state (a CBOR map), within the caps the message names.",
    example: 'The 0.7 vector x11_session_start_body_root_without_parent.bin: a submitted session whose SessionStart names a root but no parent.',
  },
  'agdx/session/lineage': {
    severity: 'error',
    title: "A SessionStart whose parent and root are not the envelope's",
    why: "The start record's lineage is stated twice, in the envelope and in its SessionStart; when they differ the session tree has two answers for where this session hangs, and the 0.7 validator rejects the record.",
    spec: [
      DIALECT_SPEC(
        "`agdx/session/lineage` (error): a SessionStart whose parent and root are not the envelope's: session\n  ancestry must match envelope parent and root.",
      ),
    ],
    fix: "Copy the envelope's parent and root into the SessionStart (or leave both out of both).",
    example: 'The 0.7 vector x07_session_start_parent_mismatch.bin: the SessionStart names parent 4, the envelope parent 6.',
  },
  'agdx/session/parking': {
    severity: 'warning',
    title: 'A session_parked or session_unparked body that is not a SessionParking of a log record',
    why: 'While a session is paused, an agent parks each work record it holds and unparks it after the resume; the body names the held record (its log position and topic generation), the agent and the pause request. A body that does not, or points at a memory or a key instead of a log record, cannot be matched to the work it held.',
    spec: [
      DIALECT_SPEC(
        '`agdx/session/parking` (warning): a `session_parked` / `session_unparked` body that is not a\n  SessionParking, or points at something other than a log record, or names no topic generation.',
      ),
    ],
    fix: 'Park the held record by its Message source reference with its topic generation, the agent as role and the request position.',
    example: 'The 0.7 vector v23_event_session_parked_memory_source.bin: a parking whose source is a Memory.',
  },
  'agdx/session/transition': {
    severity: 'warning',
    scope: 'log',
    title: 'A session state the lifecycle does not allow after the state before it',
    why: 'A session is submitted or started, works, may wait, pause and resume, and ends once. A state change outside that lifecycle (a first status that is paused, a resume of a session that was not paused) means a status was lost, or two writers disagree about the session, so its state in the Sessions view may not be what the agents saw.',
    spec: [SESSION_SPEC('`agdx/session/transition` (warning): a session status whose state the lifecycle does not allow\n  after the state before it')],
    fix: "Write every session status through the SDK's session handle (start, pause, resume, end), and keep the lane's records in order.",
    example: 'A session whose first session status is task_state 10 (paused), with no submitted or working before it.',
  },
  'agdx/session/after-end': {
    severity: 'warning',
    scope: 'log',
    title: "A record of a session after the session's end",
    why: 'completed, canceled, failed and rejected end a session: nothing more belongs to it. Work after the end (a tool call, a model response, another status) was done by an agent that had not seen the end, or the conversation id was reused.',
    spec: [SESSION_SPEC("`agdx/session/after-end` (warning): a record of a session's conversation after the session's\n  terminal status")],
    fix: 'Stop an agent from writing to a session once its end is on the lane; start a child session (parent = this one) for further work.',
    example: 'status session completed (last = true), then a command tool.call in the same conversation.',
  },
  'agdx/session/never-unparked': {
    severity: 'warning',
    scope: 'log',
    title: 'Work parked while a session was paused that is never unparked',
    why: 'A paused session parks each work record it holds and unparks it after the resume, before new work. A parked record never unparked was never handled: the work it held is lost unless the session resumes later than this log reaches.',
    spec: [
      SESSION_SPEC(
        '`agdx/session/never-unparked` (warning): a `session_parked` record that no `session_unparked` of\n  the same role and source follows in the log',
      ),
    ],
    fix: 'Resume the session (session_resume on agent.control) so the role handles its held work, or cancel it if the work is no longer wanted.',
    example: 'event session_parked {source Message{offset 41}, role worker}, then the session ends canceled with no session_unparked for offset 41.',
  },
  'agdx/session/over-budget': {
    severity: 'warning',
    scope: 'log',
    title: "A session's usage past its budget",
    why: "A SessionStart may set a budget (tokens, cost_micros). The usage of the session's records summed past it means the session spent more than it was allowed; the 0.7 runtime ends such a session failed with reason budget, so a session still working past it was not stopped.",
    spec: [
      SESSION_SPEC("`agdx/session/over-budget` (warning): the record at which the session's usage first passes its\n  budget (tokens, then `cost_micros`)"),
    ],
    fix: "Raise the session's budget if the spend was expected; otherwise find the loop that spent it (the record this is on), and let the runtime's budget gate end the session.",
    example: 'A SessionStart with budget {tokens 1000}, then a response with usage {input_tokens 900, output_tokens 200}.',
  },
  'agdx/state/delta': {
    severity: 'warning',
    title: 'A state_delta body that is not a StateDelta',
    why: "A session's state is one JSON document folded from its deltas (RFC 6902 patches) and snapshots in lane order; a delta that does not read, or holds a value that is not portable JSON, is rejected by every reader, so the document stops where it was.",
    spec: [
      DIALECT_SPEC(
        '`agdx/state/delta` (warning): a `state_delta` body that is not a StateDelta (base revision, an RFC\n  6902 patch of at most 256 operations, a non-empty op id',
      ),
    ],
    fix: 'Send StateDelta {base_revision, patch, op_id} as CBOR, the patch as RFC 6902 operations with JSON values (integers within ±9007199254740991).',
    example: 'A state_delta whose patch operation is {"op": "increment", "path": "/step"} (not an RFC 6902 operation).',
  },
  'agdx/state/snapshot': {
    severity: 'warning',
    title: 'A state_snapshot body that is not a StateSnapshot',
    why: "A snapshot replaces the session's state document; one that does not read, or whose document is not portable JSON, leaves every reader's document as it was.",
    spec: [
      DIALECT_SPEC(
        '`agdx/state/snapshot` (warning): a `state_snapshot` body that is not a StateSnapshot (base\n  revision and a JSON document of at most 8 MiB).',
      ),
    ],
    fix: 'Send StateSnapshot {base_revision, document} as CBOR, the document JSON (text keys, integers within the exact range).',
    example: 'A state_snapshot whose document holds a byte string.',
  },
  'agdx/context/manifest': {
    severity: 'warning',
    title: 'A context_assembled body that is not a ContextManifest',
    why: "A context manifest records what a model call was given (each fragment's address, size and digest) so the call can be audited and replayed; one that does not read says nothing about the call.",
    spec: [DIALECT_SPEC('`agdx/context/manifest` (warning): a `context_assembled` body that is not a ContextManifest (at\n  most 1,024 fragments')],
    fix: 'Send ContextManifest {policy, policy_version, fragments, tokens, bytes, frontier, correlation} as CBOR; a digest is 32 bytes.',
    example: 'A context_assembled whose Memory fragment has a 16-byte digest.',
  },
  'agdx/context/compaction': {
    severity: 'warning',
    title: 'A context_compacted body that is not a ContextCompaction',
    why: 'A compaction names the summary that replaced a range of records and who wrote it; one that does not read leaves the summarised ranges unknown.',
    spec: [DIALECT_SPEC('`agdx/context/compaction` (warning): a `context_compacted` body that is not a ContextCompaction.')],
    fix: 'Send ContextCompaction {summary_at, covered, summarizer} as CBOR; each covered range is (topic, partition, from, to).',
    example: 'A context_compacted whose covered range has three integers.',
  },
  'agdx/context/retrieval': {
    severity: 'warning',
    title: 'A context_retrieved body that is not a ContextRetrieval',
    why: 'A retrieval lists the memory items a query returned with their scores; one that does not read says nothing about what the call was given.',
    spec: [DIALECT_SPEC('`agdx/context/retrieval` (warning): a `context_retrieved` body that is not a ContextRetrieval.')],
    fix: 'Send ContextRetrieval {query, items} as CBOR, each item [id, score] with a numeric score.',
    example: 'A context_retrieved whose item is ["01KWM3K3XEP3NP5TN850J17YBP", "0.5"] (a text score).',
  },
} satisfies Record<string, FindingText>;

// ---------------------------------------------------------------------------------------------
// Findings
// ---------------------------------------------------------------------------------------------

const FINDING_RULES = {
  ...prefixed('agdx/matrix/', MATRIX),
  ...prefixed('agdx/cap/', CAPS),
  'agdx/must-understand': {
    severity: 'error',
    alsoAs: ['warning'],
    title: 'must_understand has bits set that this inspector does not implement (a warning in the 0.7 dialect)',
    why: 'must_understand is a bitset of features the receiver must implement to process the message. No feature bits are defined, so any set bit is unmet and every conforming receiver must reject the message: it will not be processed anywhere. The 0.7 validator accepts the envelope and leaves the refusal to the receiver, so there it is a warning.',
    spec: [
      {
        doc: 'agdx-v1.md',
        section: 'Caps',
        quote:
          'must_understand is a u64 bitset; no feature bits are defined, so every set bit is unmet and the\nreceiver must reject the message (report the unmet mask as 16 hex digits).',
      },
    ],
    fix: 'Leave must_understand out (the wire writes it only when non-zero) unless both sides implement a feature that defines the bit.',
    example: `The laser-wire fixture agent_must_understand.bin, an event with must_understand 5 (mask 0000000000000005):\n{"kind": "event", "record": ${ID}, "conversation": ${ID}, "source": "source-agent",\n "must_understand": 5, "body": ${ID}}`,
  },
  'agdx/noncanonical': {
    severity: 'warning',
    title: 'The bytes decode, but differ from the canonical encoding',
    why: 'serde + ciborium write exactly one encoding of an envelope; different bytes mean another writer (or hand editing). The Rust reader accepts them, but anything that hashes or compares records by their bytes sees two records where there is one, and the signature covers the canonical encoding, which these bytes are not. The message names the first differing byte.',
    spec: [
      {
        doc: 'report.md',
        section: 'Rule ids',
        quote:
          '`agdx/noncanonical`: warning. The bytes decode, but differ from the canonical encoding (non-minimal\n  integer heads, indefinite lengths, keys out of declaration order, explicit nulls, tags, a float written wider than needed).',
      },
      {
        doc: 'agdx-v1.md',
        section: 'Encoding',
        quote: 'The Rust decoder is lenient: it accepts non-minimal heads, indefinite lengths, explicit `null` for\nan absent optional, and skips tags.',
      },
    ],
    fix: 'Encode with the laser SDK (or any encoder that writes definite-length maps with keys in declaration order, shortest integer heads and floats, no tags, and leaves absent optionals out).',
    example:
      'A chunk that writes "sequence": 5 as 18 05 (a one-byte extension for a value that fits in the head byte), or an event with "target": null (an explicit null for an absent target).',
  },
  'agdx/unknown-field': {
    severity: 'info',
    title: 'A key AGDX v1 does not define',
    why: "The reference decoder ignores unknown keys, and the signature covers the canonical encoding of the fields it knows, so an unknown key is not signed: anyone can append one to a signed record without breaking its signature. The inspector shows it and lists it under the signature's not_covered.",
    spec: [
      { doc: 'agdx-v1.md', section: 'Encoding', quote: 'Unknown keys are ignored. A duplicate key is an error.' },
      { doc: 'report.md', section: 'Rule ids', quote: '`agdx/unknown-field`: info. A key this version does not define (shown, never dropped).' },
    ],
    fix: 'Move extra data into metadata (which is signed) or the body; a newer wire version would carry new fields under a new agdx.av.',
    example: `An event with an extra top-level key:\n{"kind": "event", "record": ${ID}, "conversation": ${ID}, "source": "planner", "body": h'7b7d',\n "priority": "high"}`,
  },
  ...prefixed('agdx/header/', HEADERS),
  ...DIALECT_07_RULES,
  'agdx/signature/shape': {
    severity: 'error',
    title: 'A signature whose lengths do not fit its scheme',
    why: 'An Ed25519 signature is 64 bytes and its key id 8 (the first 8 bytes of SHA-256 of the public key). With other lengths the signature cannot be checked at all, so the record is reported with a malformed signature.',
    spec: [
      {
        doc: 'agdx-v1.md',
        section: 'Signature',
        quote: '`signature` is a map: `scheme` u8 (1 = Ed25519), `key_id` bstr 8 (first 8 bytes of SHA-256 of the\n32-byte public key), `bytes` bstr 64',
      },
    ],
    fix: 'Sign with the laser SDK, or check the signer writes the raw 64-byte Ed25519 signature (not hex, not DER) and an 8-byte key id.',
    example: `A command whose signature bytes hold 128 hex characters instead of 64 raw bytes:\n"signature": {"scheme": 1, "key_id": h'fe812c12f3ab4ce6', "bytes": h'3866…(128 bytes)'}`,
  },
  'agdx/signature/context': {
    severity: 'error',
    title: "The signed context names another content type or agent version than the record's headers",
    why: 'The signature covers the content type and agent version its context names; agdx.ct and agdx.av are headers anyone on the path can rewrite. When they disagree, the codec was relabelled after signing: a receiver decodes the body with a codec the sender never signed, and the valid signature vouches for bytes read as something else.',
    spec: [
      {
        doc: 'agdx-v1.md',
        section: 'Signature',
        quote:
          'With headers at\nhand, the context must equal the observed `agdx.ct` / `agdx.av`; a mismatch means someone\nre-labelled the codec of a signed record.',
      },
      {
        doc: 'report.md',
        section: 'Additions of 2026-12-02: one verdict per record',
        quote:
          "- `agdx/signature/context` (error): the signature's context names a `content_type` or\n  `agent_version` other than the record's `agdx.ct` / `agdx.av` header: the header was changed after\n  signing (the codec relabelled)",
      },
    ],
    fix: 'Find what rewrote the header between the sender and the log (a bridge, a re-encoding consumer) and have it keep agdx.ct and agdx.av as signed; a sender that changes codec signs again with the new context.',
    example:
      'vectors/agdx/made/signed_context_mismatch_http_v07.json: a command signed with context {"content_type": 3} (cbor) whose Iggy headers say agdx.ct = 1 (json).',
  },
  ...prefixed('agdx/body/', BODIES),
  'agdx/dead-letter': {
    severity: 'info',
    title: 'The record is a dead-letter capsule',
    why: 'A dead letter is a message a consumer gave up on (retries exhausted, rejected, undecodable, or past its deadline). Its payload is the original envelope, verbatim, inspected as a record of its own; it was never delivered, so the folds list it but apply nothing from it.',
    spec: [
      {
        doc: 'agdx-v1.md',
        section: 'Bodies by content type and kind',
        quote:
          'A dead-letter capsule (topic `agent.dlq`, ct = 3, no agdx.av): `source` bstr 20 (log position),\n  `reason` u8, `attempts` u32, `detail` text?, `payload` bstr = the original envelope, verbatim.',
      },
      {
        doc: 'report.md',
        section: 'Additions in this implementation',
        quote: '`agdx/dead-letter` (info): the record is a dead-letter capsule; the message names reason, attempts and source position.',
      },
    ],
    fix: 'Nothing to fix in the capsule; look at its reason and detail, and at the findings of the payload record that follows it.',
    example:
      'The laser-wire fixture agent_dead_letter.bin:\n{"source": h\'0000000100000002000000030000000000000063\', "reason": 1, "attempts": 5,\n "detail": "handler kept failing", "payload": h\'a6646b696e64…\'}',
  },
  'agdx/deadline/missed': {
    severity: 'warning',
    scope: 'log',
    title: "An answer arrived after its command's deadline",
    why: 'A command with deadline_micros tells the receiver when the sender stops waiting. An answer later than that may already have been given up on, retried or answered by someone else, so it can be applied twice or not at all. The message names the command and by how much the deadline was missed.',
    spec: [
      {
        doc: 'report.md',
        section: 'Rule ids',
        quote:
          "`agdx/deadline/missed`: warning, on the answer (a `response` or `error` in the same conversation\n  with the command's correlation) whose time is after the command's `deadline_micros`.",
      },
    ],
    fix: 'Give the receiver enough time (a later deadline), or have it check the deadline and answer with an error (deadline_exceeded) instead of a late response.',
    example:
      'A command with deadline_micros 1717171777000000 (2024-05-31 16:09:37 UTC) and a response with the same correlation whose log time is 1717171779500000 (16:09:39.5): missed by 2.5 s.',
  },
  'agdx/deadline/unanswered': {
    severity: 'info',
    scope: 'log',
    title: 'A command whose deadline has passed has no answer in the input',
    why: 'The deadline is earlier than the latest time in the input and no response or error with its correlation is there: the command was lost, is still running past its deadline, or its answer is in another input.',
    spec: [
      {
        doc: 'report.md',
        section: 'Rule ids',
        quote: '`agdx/deadline/unanswered`: info, on a command whose deadline is earlier than the latest time in\n  its input and which has no answer there.',
      },
    ],
    fix: 'Load the rest of the conversation if it lives elsewhere; otherwise look at the target agent (the agent registry shows whether it was alive and not quarantined).',
    example:
      'A command to "booker" with deadline_micros 1717171777000000 in a log whose last record is a minute later, with no response or error carrying its correlation.',
  },
  'agdx/graph/clock-skew': {
    severity: 'info',
    scope: 'log',
    title: 'A record is earlier than its cause, or an answer earlier than its command',
    why: 'Effects come after their causes, so this points at clocks out of step between agents (or ULIDs minted on a skewed clock). Latencies and deadline checks that involve these records are off by that much. Times are shown as recorded, never corrected.',
    spec: [
      {
        doc: 'report.md',
        section: 'Rule ids',
        quote:
          '`agdx/graph/clock-skew`: info, on a record whose time (as for deadlines) is earlier than the time of\n  the record it names as its cause, or an answer earlier than its command. Times are shown as\n  recorded, never corrected; the message gives the difference.',
      },
    ],
    fix: "Synchronise the agents' clocks (NTP); prefer the log's append time over a producer's clock when comparing times.",
    example:
      'A response whose record id carries ULID time 10:00:00.000 answering a command whose ULID time is 10:00:00.350: the response is 350 ms earlier than its command.',
  },
  'agdx/log-time/skew': {
    severity: 'warning',
    title: "A record's log time and its record id's time disagree by more than the clock-skew bound",
    why: "The signature covers the record id's ULID time, not the log time an Iggy export gives around the record: anyone who rewraps the bytes can set that one, and a key holder can backdate the other. Trust is judged by the signed time and a log time only narrows it, but two times more than 5 minutes apart mean a clock is off, the record was held back or replayed, or one of the two was rewritten.",
    spec: [
      {
        doc: 'report.md',
        section: 'Additions in this implementation',
        quote:
          "`agdx/log-time/skew` (warning): a signed message of an Iggy export whose log time and record id's ULID time differ by\n  more than 5 minutes (the clock-skew bound). Path and span: `record`; the message gives both times.",
      },
    ],
    fix: "Look at where the record was held or replayed between its making and its append, and at both clocks (NTP); a record rewrapped into an export with a log time of someone's choosing is not the record that was appended then.",
    example:
      'A message of an Iggy JSON export whose timestamp says 2024-06-01T00:00:00Z around an envelope whose record id carries ULID time 2026-11-30T12:00:00Z.',
  },
  'agdx/graph/cause-mismatch': {
    severity: 'warning',
    scope: 'log',
    title: 'cause and cause_at name different records',
    why: 'cause names the causal parent by record id and cause_at by log position (stream, topic, partition, offset). When both are present they must agree; when they do not, one of them is wrong and the causal graph cannot say which parent is real.',
    spec: [
      {
        doc: 'agdx-v1.md',
        section: 'Envelope fields, in wire order',
        quote:
          "| 6 | cause | bstr 16 | causal parent's record id |\n| 7 | cause_at | bstr 20 | causal parent's log position: stream u32 BE, topic u32 BE, partition u32 BE, offset u64 BE |",
      },
      {
        doc: 'report.md',
        section: 'Additions in this implementation',
        quote: '`agdx/graph/cause-mismatch` (warning): `cause` and `cause_at` name different records.',
      },
    ],
    fix: "Set cause_at from the log position where the parent was actually appended (Iggy's offset for it), or leave cause_at out when that is not known.",
    example: 'A response whose cause is the command at offset 41, but whose cause_at names partition 1, offset 40 (a different record).',
  },
  'agdx/graph/bridge-loop': {
    severity: 'warning',
    scope: 'log',
    title: 'metadata bridge_hops repeats a bridge id: a routing loop',
    why: 'Each bridge that forwards a message appends its id to bridge_hops and drops a message whose list already holds its id. A repeated id means the message went round a loop of bridges; a correct bridge would have dropped it.',
    spec: [
      {
        doc: 'agdx-v1.md',
        section: 'Pinned metadata keys',
        quote: '`bridge_hops` (list of bridge ids: a bridge drops a message\nwhose list already holds its id, so a repeated id is a loop)',
      },
      {
        doc: 'report.md',
        section: 'Additions in this implementation',
        quote: '`agdx/graph/bridge-loop` (warning): metadata `bridge_hops` repeats a bridge id (a routing loop).',
      },
    ],
    fix: 'Fix the bridge that forwarded the message without checking bridge_hops, and the routing that sends messages back the way they came.',
    example: `An event with "metadata": {"bridge_hops": ["eu-1", "us-1", "eu-1"]}.`,
  },
  'agdx/graph/stream-gap': {
    severity: 'warning',
    scope: 'log',
    title: 'A chunk arrived with a sequence above the next one expected: its stream ends at the gap',
    why: "A reader applies a stream's chunks in sequence from 0 and does not wait or reorder: a higher sequence means chunks were lost (or arrived out of order), so the stream ends here with the reader-local terminal gap and everything after it is dropped. The reassembled answer is cut short.",
    spec: [
      {
        doc: 'agdx-v1.md',
        section: 'Chunk streams',
        quote: 'a gap ends the\nstream with a reader-local terminal `gap`; everything after the first terminal is dropped and\ncounted;',
      },
      {
        doc: 'report.md',
        section: 'Additions of 2026-12-02: one verdict per record',
        quote:
          '- `agdx/graph/stream-gap` (warning): on the chunk whose sequence is above the next one expected: the\n  stream ends there (`gap`); the message lists the missing sequence numbers.',
      },
    ],
    fix: "Find where the missing chunks went (a partition not read, a dropped write); a producer sends each stream's chunks in order, numbered 0, 1, 2, … without holes.",
    example: 'A stream whose chunks carry sequence 0, 1, then 4: the chunk of sequence 4 reveals the gap (2 and 3 are missing) and ends the stream.',
  },
  'agdx/graph/stream-duplicate': {
    severity: 'warning',
    scope: 'log',
    title: 'A chunk repeats a sequence its stream has already applied',
    why: 'A reader applies each sequence once and drops a repeat: it is a retry or a replay. Harmless when the bytes are the same; when they differ, readers that keep the first and readers that keep the last show different answers.',
    spec: [
      { doc: 'agdx-v1.md', section: 'Chunk streams', quote: 'apply each sequence once; a duplicate is dropped and counted;' },
      {
        doc: 'report.md',
        section: 'Additions of 2026-12-02: one verdict per record',
        quote: '- `agdx/graph/stream-duplicate` (warning): on a chunk whose sequence its stream has already applied\n  (dropped, counted in `duplicates`).',
      },
    ],
    fix: 'Make the producer retry idempotently (the same bytes for the same sequence), or de-duplicate before the log.',
    example: 'A stream whose chunks carry sequence 0, 1, 1, 2: the second chunk of sequence 1 is dropped.',
  },
  'agdx/graph/stream-after-end': {
    severity: 'warning',
    scope: 'log',
    title: 'A chunk or error came after its stream ended',
    why: 'Once a stream has ended (its last chunk, an error carrying its channel, or a gap), a reader drops everything else fed to it. Late chunks are content nobody reads: a producer that kept sending, or records out of order in the log.',
    spec: [
      { doc: 'agdx-v1.md', section: 'Chunk streams', quote: 'everything after the first terminal is dropped and\ncounted;' },
      {
        doc: 'report.md',
        section: 'Additions of 2026-12-02: one verdict per record',
        quote: '- `agdx/graph/stream-after-end` (warning): on a chunk or error fed to a stream after it ended\n  (dropped, counted in `after_terminal`).',
      },
    ],
    fix: 'End a stream once: stop sending after the chunk with last = true or the error; look at the log order if the late chunk was sent before the end.',
    example: 'A stream whose chunk of sequence 2 has last = true, followed by a chunk of sequence 3 on the same channel.',
  },
  'agdx/graph/stream-abandoned': {
    severity: 'warning',
    scope: 'log',
    title: "A stream's deadline passed without a terminal chunk: a reader abandoned it",
    why: "The opening chunk's deadline_micros is when a reader stops waiting for the stream: with no last chunk or error by then, it is abandoned and what arrived is an incomplete answer.",
    spec: [
      {
        doc: 'agdx-v1.md',
        section: 'Chunk streams',
        quote: 'the opening chunk (sequence 0) carries the purpose and the abandonment deadline (`abandoned` when\nthe deadline passed without a terminal).',
      },
      {
        doc: 'report.md',
        section: 'Additions of 2026-12-02: one verdict per record',
        quote: '- `agdx/graph/stream-abandoned` (warning): on the opening chunk of a stream that is `abandoned` (its\n  deadline passed with no terminal).',
      },
    ],
    fix: 'End every stream with a last chunk (or an error carrying its channel) before its deadline, or give it a later deadline.',
    example:
      'A chat stream opened with deadline_micros 1717171777000000 whose chunks stop at sequence 3 without last = true, in a log that goes on past that time.',
  },
  'agdx/graph/duplicate-id': {
    severity: 'warning',
    scope: 'log',
    title: 'Another record of the load has the same record id',
    why: 'A record id is a ULID minted once per envelope: cause, links and the graph name records by it. Two records with one id make every reference to it ambiguous (the inspector picks the nearest), and usually mean a replayed or copied record, or an id generator that repeats.',
    spec: [
      { doc: 'agdx-v1.md', section: 'Envelope fields, in wire order', quote: '| 2 | record | bstr 16 | record id |' },
      {
        doc: 'report.md',
        section: 'Additions of 2026-12-02: one verdict per record',
        quote:
          "- `agdx/graph/duplicate-id` (warning): on a record whose record id an earlier record of the same load\n  has (all inputs together; a dead letter's payload, which repeats its original, aside)",
      },
    ],
    fix: 'Mint a fresh record id (a ULID) for every envelope; a retry that is a new message gets a new id. If the same file was loaded twice, load it once.',
    example: 'Two commands of one conversation that both carry record 01J0Y1ZAG00000000000000001, or the same export loaded twice.',
  },
  'agdx/graph/cycle': {
    severity: 'warning',
    scope: 'log',
    title: 'The record is in a causal cycle: its causes lead back to it',
    why: 'cause names a record that came before: following causes must end at a record with none. A cycle means ids were reused or forged, and no record of it can be the first; tools that walk causes may loop.',
    spec: [
      {
        doc: 'report.md',
        section: 'Additions of 2026-12-02: one verdict per record',
        quote: '- `agdx/graph/cycle` (warning): on each record of a causal cycle (`graph.cycles`).',
      },
    ],
    fix: 'Look for the record whose cause was set to a later record (a copied envelope, a reused id); each cause must name an earlier record.',
    example: 'Record A with cause B, and record B with cause A.',
  },
  'agdx/graph/missing-cause': {
    severity: 'info',
    scope: 'log',
    title: 'cause or cause_at names a record that is not loaded',
    why: 'The parent may be in a part of the log that was not exported, or may never have existed. The graph shows it as a missing parent; checks that need it (clock skew, cause mismatch) cannot be made.',
    spec: [
      {
        doc: 'report.md',
        section: 'Additions of 2026-12-02: one verdict per record',
        quote: '- `agdx/graph/missing-cause` (info): on a record whose `cause` or `cause_at` names a record that is\n  not loaded (`graph.missing`).',
      },
    ],
    fix: 'Load the part of the log that holds the parent (an earlier offset range, another partition) to see the whole chain.',
    example: 'A response whose cause is 01J0Y1ZAG00000000000000001 in an export that does not hold that command.',
  },
  'agdx/fold/unauthorised': {
    severity: 'error',
    scope: 'log',
    title: 'A quarantine or unquarantine not signed by a trusted operator key',
    why: 'Quarantine stops an agent from being used; only an operator key may sign one. A fact signed by an agent key (or a revoked, out-of-window or invalid signature) still takes effect, since consumers apply what the registry topic holds, so this marks a quarantine someone without authority could have forged or lifted.',
    spec: [
      {
        doc: 'report.md',
        section: 'Folds',
        quote:
          '`agdx/fold/unauthorised` (error): a quarantine or unquarantine whose backing is\n  `non-operator-signed` or `invalid-signature`: only an operator key may sign these. Path `signature`.',
      },
      { doc: 'agdx-v1.md', section: 'Signature', quote: 'only an operator key may sign quarantine and unquarantine.' },
    ],
    fix: 'Sign quarantine and unquarantine with an operator key, and load that key with kind "operator" in the key file; check who else can write to the registry topic.',
    example: 'A status with operation "unquarantine" and body "booker", validly signed by the key of agent "planner" (kind agent, not operator).',
  },
  'agdx/fold/quarantined': {
    severity: 'warning',
    scope: 'log',
    title: "The record's source was quarantined at this point in the log",
    why: 'A quarantine naming this source, not lifted by a later unquarantine, comes before this record in log order: consumers that apply the registry would have ignored or refused it. The message names the quarantine it rests on.',
    spec: [
      {
        doc: 'report.md',
        section: 'Folds',
        quote:
          "`agdx/fold/quarantined` (warning): the record's source was quarantined at the record's place in\n  the log (a quarantine naming it, not lifted by a later unquarantine). Path `source`.",
      },
    ],
    fix: 'Stop the quarantined agent (or lift the quarantine with an operator-signed unquarantine if it was a mistake), and find why it kept sending.',
    example: 'A status quarantine with body "booker" at log position 5, then a response from source "booker" at position 9.',
  },
  'agdx/fold/dead': {
    severity: 'warning',
    scope: 'log',
    title: "The record's time is after its source's latest card expired",
    why: "An agent's status card carries ttl_micros: without a newer card by card time + ttl, the agent registry counts it dead. A record from a dead agent means it stopped refreshing its card while still sending, so others may route around it or hand its work to someone else.",
    spec: [
      {
        doc: 'report.md',
        section: 'Folds',
        quote:
          "`agdx/fold/dead` (warning): the record's time is after its source's latest card expired (card\n  time + `ttl_micros` < record time). A card record refreshes its own agent first. Path `source`.",
      },
    ],
    fix: 'Have the agent publish a fresh card more often than its ttl_micros (or raise the ttl).',
    example: 'A card from "booker" at 10:00:00 with ttl_micros 5000000, then a response from "booker" at 10:00:07 and no card in between.',
  },
  'agdx/fold/after-terminal': {
    severity: 'warning',
    scope: 'log',
    title: "A task state for a run after the run's terminal state",
    why: 'completed, canceled, failed and rejected are terminal: a run that reached one is over, and the first terminal state stays its outcome. A later task state means two agents disagree about the run, or a retry reused its run id.',
    spec: [
      {
        doc: 'report.md',
        section: 'Folds',
        quote:
          "`agdx/fold/after-terminal` (warning): a task state of a run after the run's terminal state; the\n  terminal state stays the first one. Path `task_state`.",
      },
      { doc: 'agdx-v1.md', section: 'Dictionaries', quote: 'Terminal: completed, canceled, failed, rejected.' },
    ],
    fix: 'Mint a new run id for a retried task, and stop workers from reporting on a run once it has ended.',
    example: 'Two status task updates with metadata {"run": "run-7"}: task_state 4 (completed), then task_state 2 (working).',
  },
  'agentdna/hash': {
    severity: 'error',
    title: 'The stored hash is not the content hash',
    why: "An AgentDNA envelope's hash is SHA-256 over its content (from, payload, epoch, status_code, run_id, to, as Python's json.dumps writes them); the signature signs that hash. A different stored hash means the content was changed after hashing (after signing, when the signature was made over the stored hash: it then does not hold for the content as it is) or the hash was computed another way.",
    spec: [
      {
        doc: 'agentdna.md',
        section: 'Content hash',
        quote: '`hash = sha256_hex(utf8(dumps({"from_": from, "payload", "epoch", "status_code", "run_id", "to"})))`',
      },
      { doc: 'report.md', section: 'Rule ids', quote: '`agentdna/hash`: the stored hash is not the content hash. Severity error.' },
    ],
    fix: 'If the content was edited, the envelope is no longer what was signed: have its signer re-create it. If the producer is not AgentDNA, hash exactly as json.dumps(sort_keys=True, separators=(",", ":")) with ensure_ascii and the key from_.',
    example: 'A workflow whose tip says "payload": "transfer 500" where it said "transfer 50" when hashed and signed: the stored hash no longer matches.',
  },
  'agentdna/signature': {
    severity: 'error',
    title: 'No key recovered from the signature derives the from DID, or the signature is missing or malformed',
    why: "AgentDNA keys are not in envelopes: a signature is valid for from exactly when one of the public keys recovered from it derives from's DID. Otherwise the envelope was not signed by the identity it names, or was changed after signing.",
    spec: [
      {
        doc: 'agentdna.md',
        section: 'The DID binds the key',
        quote: "So: recover the candidate public keys from (r, s, e), derive each one's DID, and the signature is\nvalid for `from` exactly when one matches.",
      },
      {
        doc: 'report.md',
        section: 'Rule ids',
        quote: '`agentdna/signature`: no key recovered from the signature derives the `from` DID, or the DER is malformed. Severity error.',
      },
    ],
    fix: "Sign with the key behind the from DID over the signed message (the content hash, or the hash with the parents' hashes). A DID made another way (older account types) needs a key file entry with its public key.",
    example: "An envelope whose from is one agent's DID but whose signature was made by another agent's key.",
  },
  'agentdna/parent-hash': {
    severity: 'error',
    title: 'A parent has no hash, so the signed message cannot be formed',
    why: "With parents, the signed message is a hash over the envelope's content hash and its parents' hashes. A parent without a hash makes that message impossible to form, so the envelope's signature cannot be checked by anyone.",
    spec: [
      {
        doc: 'agentdna.md',
        section: 'Signed message',
        quote: 'Parents enter only by the hash they claim. A parent with an empty hash makes the message impossible.',
      },
    ],
    fix: "Hash every envelope before it is used as a parent (AgentDNA's builder does); a parent copied from an older or hand-made document may lack one.",
    example: '{"from": "bafybmi…", "payload": "step 2", …,\n "parent_envelope": [{"from": "bafybmi…", "payload": "step 1", "hash": ""}]}',
  },
  'agentdna/status-code': {
    severity: 'warning',
    title: 'The envelope carries a status code other than 1000',
    why: "status_code is the builder's own report: 1000 is ok, anything else is a failure or a policy denial (1001 agent not whitelisted, 2001–2003 verification failed, 4001 MCP tool failed, …). AgentDNA's dashboard calls anything but 0 and 1000 a threat.",
    spec: [
      {
        doc: 'agentdna.md',
        section: 'Verification modes',
        quote:
          'Status codes an envelope may carry: 1000 ok; 1001 agent not whitelisted; 1002 whitelist check\nfailed; 2001/2002/2003 verification failed in light/heavy/boundary mode;',
      },
      { doc: 'report.md', section: 'Rule ids', quote: '`agentdna/status-code`: the envelope carries a status code other than 1000. Severity warning.' },
    ],
    fix: 'Read the code: it reports something that went wrong when the envelope was built (a denied agent, a failed verification, a tool error). Nothing in the envelope itself is broken.',
    example: '{"from": "bafybmi…", "payload": "call tool", "epoch": 1717171717, "status_code": 4001, …}',
  },
  'agentdna/legacy': {
    severity: 'warning',
    title: 'A 1.0-style document: remarks, no id, object-valued actors, or an old card shape',
    why: 'AgentDNA 2.0 does not write these shapes. A 1.0-labelled workflow is read as far as it goes, but much older documents (actors as objects, a single parent object, no hash) cannot be verified as 2.0 envelopes.',
    spec: [
      {
        doc: 'agentdna.md',
        section: 'IntentWorkflow',
        quote:
          'The README shows a 1.0-labelled variant with `remarks` and no `id`:\naccept it, mark it legacy. Much older 1.0 documents (actors as objects, a single parent object, no\nhash) cannot be verified: say so rather than fail silently.',
      },
      {
        doc: 'report.md',
        section: 'Rule ids',
        quote: '`agentdna/legacy`: a 1.0-style document (has `remarks`, lacks `id`, object-valued actors). Severity warning.',
      },
    ],
    fix: 'Re-create the workflow with AgentDNA 2.0 if it must be verified; otherwise read it as history.',
    example: '{"type": "intent_workflow", "version": "1.0", "remarks": "demo", "info": {}, "envelope": {…}}',
  },
  'agentdna/duplicate-hash': {
    severity: 'error',
    title: 'Two different envelopes in one workflow claim the same hash',
    why: "Parents are named by the hash they claim, and heavy mode de-duplicates by claimed hash: it verifies only the first envelope with a given hash and skips the other. A second, different envelope under a reused hash is never checked by AgentDNA's own verifier.",
    spec: [
      {
        doc: 'agentdna.md',
        section: 'Verification modes',
        quote: 'heavy (2002): every envelope reachable from the tip, de-duplicated by claimed hash, each verify_envelope.',
      },
      {
        doc: 'report.md',
        section: 'Rule ids',
        quote: '`agentdna/duplicate-hash`: two different envelopes in one workflow claim the same hash. Severity error.',
      },
    ],
    fix: 'Treat the workflow as tampered: an honest builder never gives two different envelopes one hash. Find which copy is the signed one.',
    example: 'A tip with two parents, {"payload": "approve", "hash": "9f2c…"} and {"payload": "deny", "hash": "9f2c…"}.',
  },
  'agentdna/signature/der': {
    severity: 'warning',
    title: "A signature AgentDNA's verifier accepts that strict DER would not",
    why: "ECPy (AgentDNA's signer and verifier) reads DER leniently. Such a signature verifies in AgentDNA but may be refused by a strict verifier (OpenSSL, a hardware module), and loose encodings let one signature be written several ways.",
    spec: [
      { doc: 'agentdna.md', section: 'Envelope', quote: '`signature`: lower-case hex of a DER ECDSA signature.' },
      {
        doc: 'report.md',
        section: 'Additions in this implementation',
        quote: "`agentdna/signature/der` (warning): a signature AgentDNA's verifier accepts that strict DER would not.",
      },
    ],
    fix: 'Encode r and s as minimal DER integers (a leading 00 only when the high bit is set) with exact lengths.',
    example: 'A signature whose r is written with a superfluous leading zero byte: 3046 0221 00 0a…',
  },
  'agentdna/duplicate-key': {
    severity: 'warning',
    title: 'A JSON object repeats a key',
    why: "Python's json module keeps the last value of a repeated key, other readers the first, so two tools can read different envelopes out of the same bytes: one may show a payload the hash never covered.",
    spec: [
      {
        doc: 'report.md',
        section: 'Additions in this implementation',
        quote: '`agentdna/duplicate-key` (warning): a JSON object repeats a key (the last one wins, as in Python).',
      },
    ],
    fix: 'Write each key once; treat a document with repeated keys as suspect.',
    example: '{"from": "bafybmi…", "payload": "pay 5", "payload": "pay 500", "epoch": 1717171717, …}',
  },
  'agentdna/unknown-field': {
    severity: 'info',
    title: 'A key that is not an Envelope field: neither hashed nor signed',
    why: 'AgentDNA drops keys it does not know, and the content hash covers only from, payload, epoch, status_code, run_id and to. Anything else can be added or changed without breaking the hash or the signature, so it must not be trusted.',
    spec: [
      { doc: 'agentdna.md', section: 'Content hash', quote: 'The hash covers neither the parents nor the signature.' },
      {
        doc: 'report.md',
        section: 'Additions in this implementation',
        quote: '`agentdna/unknown-field` (info): a key that is not an Envelope field (dropped by AgentDNA: neither hashed nor signed).',
      },
    ],
    fix: "Carry extra data inside payload (which is hashed and signed), or in the workflow's info if it need not be signed.",
    example: '{"from": "bafybmi…", "payload": "step 1", "epoch": 1717171717, …, "approved_by": "alice"}',
  },
  'agentdna/card-policy': {
    severity: 'error',
    alsoAs: ['warning'],
    title: "An agent card's policy is not base64 (error), or uses the url-safe alphabet (warning)",
    why: "An actor card's policy is a base64 policy document, and each appended state is a policy version. A policy that does not decode cannot be shown or compared between versions; url-safe base64 decodes here, but AgentDNA writes standard base64, so another reader may fail on it.",
    spec: [
      { doc: 'agentdna.md', section: 'Cards', quote: 'AgentCard: `{"type": "actor_card", "id": "<agent DID>", "policy": "<base64 policy document>"}`' },
      {
        doc: 'report.md',
        section: 'Additions in this implementation',
        quote: "`agentdna/card-policy` (error, or warning for url-safe base64): a card's policy is not base64.",
      },
    ],
    fix: 'Encode the policy document with standard base64 (alphabet A–Z a–z 0–9 + /, padded with =).',
    example: '{"type": "actor_card", "id": "bafybmi…", "policy": "not base64!"}',
  },
} satisfies Record<string, FindingText>;

// ---------------------------------------------------------------------------------------------
// Decode errors: the record could not be decoded (`decoded: false`, `error.code`)
// ---------------------------------------------------------------------------------------------

const DECODE_ERRORS = {
  'cbor/truncated': {
    title: 'The CBOR item ends before its declared content',
    why: 'A head declared more bytes (or items) than the input still holds: the file was cut short, a CBOR sequence was concatenated from a partial write, or an export copied only part of a payload. The record cannot be read; the records before it are unaffected.',
    spec: [{ doc: 'agdx-v1.md', section: 'Encoding', quote: 'One CBOR item per envelope (RFC 8949), written by serde + ciborium.' }],
    fix: 'Fetch the record again from the log; the error offset shows where the bytes stop.',
    example: 'An envelope cut after 100 of its 266 bytes, or the single byte a1 (a map of one entry with nothing after it).',
  },
  'cbor/invalid': {
    title: 'The bytes are not well-formed CBOR',
    why: 'Something no CBOR encoder writes: a reserved additional-information value, a break outside an indefinite-length item, an indefinite-length integer, a text string that is not valid UTF-8, a two-byte simple value below 32. Usually the bytes are not CBOR at all (a different codec, or corrupted).',
    spec: [{ doc: 'agdx-v1.md', section: 'Encoding', quote: 'One CBOR item per envelope (RFC 8949), written by serde + ciborium.' }],
    fix: 'Check what wrote the bytes, and with which codec; the error offset points at the first bad byte.',
    example: 'The bytes 1c (major type 0 with the reserved additional information 28), or a text string holding the UTF-8 bytes ed a0 80 (a surrogate).',
  },
  'cbor/trailing-bytes': {
    title: 'Bytes follow the CBOR item where there must be none',
    why: 'An envelope is exactly one CBOR item, so the reference decoder fails on anything after it. Here the item stands alone: a payload of an Iggy message or laser record, or the payload after a header block. Extra bytes mean two messages glued together or a padded buffer.',
    spec: [{ doc: 'agdx-v1.md', section: 'Encoding', quote: 'Trailing bytes after the item are an error.' }],
    fix: 'Send exactly the encoded envelope as the payload; if several envelopes belong together, send them as separate messages.',
    example: 'An Iggy export message whose base64 payload decodes to a 266-byte envelope followed by 4 zero bytes.',
  },
  'cbor/too-deep': {
    title: 'CBOR nested deeper than the reader allows',
    why: 'An envelope is shallow (its deepest part is a metadata list inside a map). Thousands of nested arrays or maps are a stack-exhaustion attack on decoders, so the reader stops at a fixed depth and refuses the record instead of crashing.',
    spec: [
      {
        doc: 'design.md',
        section: 'Security and robustness',
        quote: 'nesting depth is\n  bounded; a record that fails reports code, message and offset, and never takes others down.',
      },
    ],
    fix: 'Nothing to fix in the inspector; find who wrote the record. No AGDX writer nests this deep.',
    example: '100,000 bytes of 81 (an array holding an array holding an array …).',
  },
  'cbor/too-large': {
    title: 'A declared length is far larger than the input (a length bomb)',
    why: 'A head may declare up to 2^64 bytes or items. A decoder that trusts it before checking the bytes left allocates gigabytes and dies; the reader checks each declared length against the input first and refuses the record when the length is beyond both the bytes left and 256 MiB.',
    spec: [{ doc: 'design.md', section: 'Security and robustness', quote: 'Decoders check a declared length against the bytes left before allocating;' }],
    fix: 'Nothing to fix in the inspector; the record was crafted or corrupted.',
    example: 'A text string head 7b 00000001 00000000 (4 GiB of text) followed by a few bytes.',
  },
  'cbor/too-many-items': {
    title: 'One top-level CBOR item holds more items than the reader will build',
    why: 'A small file can declare millions of tiny items (16 MB can hold an array of 16 million), which costs a decoder gigabytes to build as a tree. The reader counts the items of one record from the heads and refuses it before building anything; a long sequence of ordinary records is never refused.',
    spec: [
      {
        doc: 'report.md',
        section: 'Rule ids',
        quote:
          "`cbor/too-many-items` (one top-level item holds more\nitems than the reader's cap; decided from the heads, before building anything; a sequence of many\nordinary records is never refused)",
      },
    ],
    fix: 'Nothing to fix in the inspector; no envelope holds that many items. Split genuine bulk data into separate records or a referenced body.',
    example: 'A 16 MB file holding one array of 16 million zeros: 9b 0000000000f42400 00 00 00 …',
  },
  'agdx/not-a-map': {
    title: 'Well-formed CBOR whose item is not a map',
    why: 'An envelope is always a map (a struct with text keys), so this item cannot be an AGDX record even though it decodes. The record still shows the item in diagnostic notation, which often tells what it really is.',
    spec: [
      { doc: 'agdx-v1.md', section: 'Encoding', quote: 'A struct is a **definite-length map with text keys in declaration order**' },
      {
        doc: 'report.md',
        section: 'Rule ids',
        quote: "`agdx/not-a-map` (well-formed CBOR\nwhose item is not a map: the record still shows the item's diagnostic notation)",
      },
    ],
    fix: 'Check the producer: it wrote something other than an envelope (a bare body, or an array of envelopes where a sequence was meant).',
    example: 'A payload holding the array ["command", h\'…\', "planner"] instead of a map.',
  },
  'agdx/unknown-kind': {
    title: 'kind is not one of the six AGDX kinds',
    why: 'kind selects which fields the envelope may carry (the validity matrix) and how consumers treat it. The reference decoder fails on any other value, so no consumer will read the message.',
    spec: [
      {
        doc: 'agdx-v1.md',
        section: 'Envelope fields, in wire order',
        quote: '| 1 | kind | text | `command` `response` `event` `chunk` `status` `error`; anything else fails decode |',
      },
    ],
    fix: 'Use one of command, response, event, chunk, status, error (lower case); express sub-types with operation.',
    example: `kind "request" is not one of the six:\n{"kind": "request", "record": ${ID}, "conversation": ${ID}, "source": "planner", "body": h'7b7d'}`,
  },
  'agdx/field-type': {
    title: 'A field has the wrong CBOR type or length',
    why: 'The reference decoder reads each field as its declared type (ids are 16-byte byte strings, counters unsigned integers, names text) and fails on anything else, so no consumer can read the message. The same code covers a required part of a struct that is missing (usage without input_tokens, a signature without bytes), text with a lone surrogate, and a simple value other than false, true, null and undefined anywhere, even in an unknown field (the reference still parses what it ignores).',
    spec: [
      { doc: 'agdx-v1.md', section: 'Encoding', quote: 'Ids and `body` are **byte strings** (major type 2).' },
      { doc: 'agdx-v1.md', section: 'Envelope fields, in wire order', quote: '| 2 | record | bstr 16 | record id |' },
      {
        doc: 'report.md',
        section: 'Dialects',
        quote:
          'The reader refuses, while decoding, an agent id (`source`, `target`) that is empty, over 256 bytes\n  or holds a control character, and an idempotency key that is empty or over 64 bytes',
      },
    ],
    fix: "Encode each field with the type in agdx-v1.md's field table: ids as 16-byte byte strings (not text or hex), integers unsigned, metadata values text, int, float, bool, null or a list of these.",
    example: `An event whose record id is written as text:\n{"kind": "event", "record": "01J0Y1ZAG00000000000000001", "conversation": ${ID}, ...}`,
  },
  'agdx/duplicate-field': {
    title: 'A map repeats a key',
    why: 'The reference decoder fails on a duplicate key. Worse, readers that keep the first or the last value disagree on what the message says: one tool may route or display a value the signature never covered.',
    spec: [{ doc: 'agdx-v1.md', section: 'Encoding', quote: 'Unknown keys are ignored. A duplicate key is an error.' }],
    fix: 'Write each field (and each metadata key) once; treat a record with repeated keys as suspect.',
    example: `An envelope that says kind twice:\n{"kind": "event", "kind": "command", "record": ${ID}, "conversation": ${ID}, "source": "planner",\n ...}`,
  },
  'agdx/missing-field': {
    title: 'The envelope has no conversation, source or kind',
    why: 'kind, conversation (the partition key) and source are required in every envelope; the reference decoder fails without them and the message cannot be routed or attributed.',
    spec: [
      { doc: 'agdx-v1.md', section: 'Per-kind validity matrix', quote: 'conversation and source are always required' },
      { doc: 'report.md', section: 'Rule ids', quote: '`agdx/missing-field` (conversation, source or kind absent)' },
    ],
    fix: 'Set kind, conversation and source on every envelope.',
    example: `An event with no conversation:\n{"kind": "event", "record": ${ID}, "source": "planner", "body": h'7b7d'}`,
  },
  'json/invalid': {
    title: 'The input is not valid JSON (or too deep or too large a number to read)',
    why: "The text looked like JSON (an Iggy export, an envelope's JSON view, an AgentDNA document) but does not parse. JSON nested too deeply is refused here too, and so is an integer of more than 4,300 digits, as Python's json.loads refuses it (AgentDNA is Python). A message of an export without a readable base64 payload is reported with this code as well.",
    spec: [
      {
        doc: 'report.md',
        section: 'Additions in this implementation',
        quote: 'Decode notes: a JSON document nested too deeply to read is `json/invalid`, and so is one holding an\ninteger literal of more than 4,300 digits',
      },
    ],
    fix: 'Check the export was saved whole (a cut-off download is the usual cause); the error offset points at the first byte that does not parse.',
    example: 'An Iggy export cut short (its closing brackets are missing):\n{"partition_id": 1, "messages": [{"payload": "pGRraW5k…"}',
  },
  'agentdna/shape': {
    title: 'JSON that is not an AgentDNA workflow, envelope or card where one was expected',
    why: 'The document looks like AgentDNA but is not one of its shapes: a workflow without an envelope object, or an item of a card history that is neither a card, a card state nor a workflow. AgentDNA itself raises "workflow does not contain an envelope" for the first.',
    spec: [
      { doc: 'agentdna.md', section: 'IntentWorkflow', quote: '`{"id": "Qm…", "type": "intent_workflow", "version": "2.0", "info": {}, "envelope": {…}}`.' },
    ],
    fix: 'Export the whole IntentWorkflow (with its envelope) or the bare envelope; a card history is a list of card states.',
    example: '{"id": "QmW…", "type": "intent_workflow", "version": "2.0", "info": {}, "envelope": null}',
  },
  'input/unrecognized': {
    title: 'Nothing recognised the input',
    why: 'The inspector tried text (JSON, hex, base64), an Iggy user-header block and CBOR, and none gave an AGDX or AgentDNA record: the input is empty or another format (random binary often starts with a well-formed CBOR item by chance and fails soon after). The message says what each attempt found.',
    spec: [
      { doc: 'report.md', section: 'Record formats', quote: '| `unknown` | nothing recognised it; `error` says why |' },
      {
        doc: 'report.md',
        section: 'Additions in this implementation',
        quote: 'or else when the whole input reads as CBOR to its end and is a single item or holds a map; otherwise\nit is `input/unrecognized`',
      },
    ],
    fix: 'Check the file is what you meant to load: an AGDX envelope or CBOR sequence, an Iggy export, a laser record, or an AgentDNA workflow, envelope or card.',
    example: 'A PNG image, an empty file, or the JSON {"hello": "world"}.',
  },
} satisfies Record<string, RuleText>;

// ---------------------------------------------------------------------------------------------
// The catalogue
// ---------------------------------------------------------------------------------------------

export type FindingRuleId = keyof typeof FINDING_RULES;
export type DecodeErrorCode = keyof typeof DECODE_ERRORS;
/** Every rule id a finding carries and every decode-error code. */
export type RuleId = FindingRuleId | DecodeErrorCode;

function familyOf(id: string): RuleFamily {
  const family = id.slice(0, id.indexOf('/'));
  if (family === 'agdx' || family === 'agentdna' || family === 'cbor' || family === 'json' || family === 'input') return family;
  throw new TypeError(`rule id ${id} has no known family`);
}

function build(): ReadonlyMap<string, RuleMeta> {
  const out = new Map<string, RuleMeta>();
  for (const [id, t] of Object.entries(FINDING_RULES) as [FindingRuleId, FindingText][]) {
    const { severity, alsoAs, scope, ...text } = t;
    const meta: FindingRuleMeta = {
      id,
      family: familyOf(id),
      kind: 'finding',
      scope: scope ?? 'record',
      severity,
      severities: Object.freeze([severity, ...(alsoAs ?? [])]),
      ...text,
    };
    out.set(id, Object.freeze(meta));
  }
  for (const [id, t] of Object.entries(DECODE_ERRORS) as [DecodeErrorCode, RuleText][]) {
    const meta: DecodeErrorMeta = { id, family: familyOf(id), kind: 'decode-error', scope: 'record', ...t };
    out.set(id, Object.freeze(meta));
  }
  return out;
}

// A Map, not an object: a lookup of "__proto__" or "constructor" must find nothing.
const CATALOGUE = build();

/** Every rule id and decode-error code, findings first, in catalogue order. */
export const RULE_IDS: readonly RuleId[] = Object.freeze([...CATALOGUE.keys()] as RuleId[]);

export function isRuleId(s: string): s is RuleId {
  return CATALOGUE.has(s);
}

/** The catalogue entry of a rule id or decode-error code, or null when there is none. */
export function ruleMeta(id: string): RuleMeta | null {
  return CATALOGUE.get(id) ?? null;
}

/** The rules whose id starts with `prefix` (a family such as `agdx/matrix/`, or any start), in catalogue order. */
export function rulesWithPrefix(prefix: string): RuleMeta[] {
  return [...CATALOGUE.values()].filter((m) => m.id.startsWith(prefix));
}

/**
 * The severity a rule id carries by default: a finding rule's own (the one `finding()` gives), and
 * error for a decode-error code (the record is not decoded, so not valid). An id the catalogue does
 * not know is a bug: TypeError.
 */
export function ruleSeverity(id: RuleId): Severity {
  const meta = CATALOGUE.get(id);
  if (!meta) throw new TypeError(`${String(id)} is not in the catalogue`);
  return meta.kind === 'finding' ? meta.severity : 'error';
}

/**
 * A finding of `rule` (verdict.ts's `Finding`), with the rule's default severity unless told
 * otherwise. A rule id that is not a finding rule, or a severity the catalogue does not list for it,
 * is a bug: TypeError. (Its type is the shape it returns: naming `Finding` here would have the
 * catalogue import the verdict, which imports the catalogue's ids.)
 */
export function finding(rule: FindingRuleId, path: string | null, message: string, span: Span | null, severity?: Severity) {
  const meta = CATALOGUE.get(rule);
  if (meta?.kind !== 'finding') throw new TypeError(`${String(rule)} is not a finding rule of the catalogue`);
  const s = severity ?? meta.severity;
  if (!meta.severities.includes(s)) throw new TypeError(`${rule} is never ${s}; the catalogue lists ${meta.severities.join(', ')}`);
  return { rule, severity: s, path, message, span };
}
