// The reference's vocabulary for records (laser-sdk 0.7's dispatch table, the fixture
// vectors/agdx/laser-sdk-ts-0.7.0/fixtures/dispatch_cases.json that its Rust and TypeScript ports
// both assert): how a session timeline shows a record, its display type (`session.started`,
// `model.request`, `tool.call`, …). Derived from the record, never written on the wire. (The table's
// other column, what one agent's consumer does with a record, depends on who reads it: not shown.)
import { readSingle, untag } from '../cbor/reader';
import type { MetaValue } from './envelope';

/** The topic records are read from when the input does not name one: the session lane. */
export const SESSIONS_TOPIC = 'agent.sessions';
export const CONTROL_TOPIC = 'agent.control';
export const HEARTBEATS_TOPIC = 'agent.heartbeats';

/** The session control operations: honoured only on agent.control. */
export const CONTROL_OPERATIONS: readonly string[] = ['session_pause', 'session_resume', 'session_cancel', 'force_cancel'];
const MODEL_OPERATIONS: readonly string[] = ['chat', 'text_completion', 'generate_content'];

export const DISPLAY_TYPES = [
  'session.submitted',
  'session.started',
  'session.paused',
  'session.resumed',
  'session.completed',
  'session.failed',
  'session.canceled',
  'session.heartbeat',
  'session.control',
  'session.parked',
  'session.unparked',
  'user.message',
  'model.request',
  'model.response',
  'model.stream',
  'tool.call',
  'tool.result',
  'agent.handoff',
  'agent.message',
  'state.updated',
  'context.assembled',
  'context.compacted',
  'context.retrieved',
  'memory.created',
  'memory.forgotten',
  'memory.feedback',
  'task.status',
  'workflow.step',
  'policy.decision',
  'error',
  'dead_letter',
  'undecodable',
  'invalid',
  'kv.set',
  'graph.upsert',
  'unauthorized_control',
] as const;
export type DisplayType = (typeof DISPLAY_TYPES)[number];

/** What the display type of an envelope depends on. */
export interface DispatchEnvelope {
  kind: string;
  operation?: string;
  task_state?: number;
  target?: string;
  metadata?: ReadonlyMap<string, MetaValue>;
  body?: Uint8Array;
}

/** A record a session timeline can show: an envelope, or one of the other records of the table. */
export type SessionRecord =
  | { kind: 'envelope'; envelope: DispatchEnvelope }
  | { kind: 'memory'; memory: 'item' | 'forget' | 'feedback' }
  | { kind: 'dead_letter' | 'journal' | 'kv_mutation' | 'graph_mutation' | 'undecodable' };

/** How a session timeline shows `record`, read from `topic`. */
export function displayType(record: SessionRecord, topic: string = SESSIONS_TOPIC): DisplayType {
  switch (record.kind) {
    case 'memory':
      return record.memory === 'item' ? 'memory.created' : record.memory === 'forget' ? 'memory.forgotten' : 'memory.feedback';
    case 'dead_letter':
      return 'dead_letter';
    case 'journal':
      return 'workflow.step';
    case 'kv_mutation':
      return 'kv.set';
    case 'graph_mutation':
      return 'graph.upsert';
    case 'undecodable':
      return 'undecodable';
    case 'envelope':
      return envelopeDisplay(record.envelope, topic);
  }
}

/** The display type of an envelope read from `topic`. */
export function envelopeDisplay(env: DispatchEnvelope, topic: string = SESSIONS_TOPIC): DisplayType {
  const operation = env.operation ?? '';
  switch (env.kind) {
    case 'status':
      return statusDisplay(env, operation, topic);
    case 'command':
      if (CONTROL_OPERATIONS.includes(operation)) return topic === CONTROL_TOPIC ? 'session.control' : 'unauthorized_control';
      if (isUser(env)) return 'user.message';
      if (MODEL_OPERATIONS.includes(operation)) return 'model.request';
      if (operation === 'execute_tool') return 'tool.call';
      if (operation === 'invoke_agent') return 'agent.handoff';
      return 'agent.message';
    case 'event':
      if (isUser(env)) return 'user.message';
      switch (operation) {
        case 'state_delta':
        case 'state_snapshot':
          return 'state.updated';
        case 'context_assembled':
          return 'context.assembled';
        case 'context_compacted':
          return 'context.compacted';
        case 'context_retrieved':
          return 'context.retrieved';
        case 'policy_decision':
          return 'policy.decision';
        case 'session_parked':
          return 'session.parked';
        case 'session_unparked':
          return 'session.unparked';
        default:
          return 'agent.message';
      }
    case 'response':
      if (MODEL_OPERATIONS.includes(operation)) return 'model.response';
      return operation === 'execute_tool' ? 'tool.result' : 'agent.message';
    case 'error':
      return operation === 'execute_tool' ? 'tool.result' : 'error';
    case 'chunk':
      return operation === 'chat' || operation === 'reasoning' ? 'model.stream' : 'agent.message';
    default:
      return 'agent.message';
  }
}

function statusDisplay(env: DispatchEnvelope, operation: string, topic: string): DisplayType {
  if (operation === 'progress' && topic === HEARTBEATS_TOPIC) return 'session.heartbeat';
  if (operation !== 'session') return operation === 'task' ? 'task.status' : 'agent.message';
  switch (env.task_state) {
    case 1:
      return 'session.submitted';
    case 2:
      return isSessionStart(env.body) ? 'session.started' : 'session.resumed';
    case 10:
      return 'session.paused';
    case 4:
      return 'session.completed';
    case 6:
    case 7:
      return 'session.failed';
    case 5:
      return 'session.canceled';
    default:
      // input-required, auth-required, unknown, an unrecognized code or none.
      return 'task.status';
  }
}

/** A start body names the agent or the SDK (a CBOR map with either key); a transition body names neither. */
function isSessionStart(body: Uint8Array | undefined): boolean {
  if (!body) return false;
  const r = readSingle(body);
  if (!r.ok) return false;
  const it = untag(r.value);
  return (
    it.kind === 'map' &&
    it.entries.some((e) => {
      const k = untag(e.key);
      return k.kind === 'text' && (k.value === 'agent' || k.value === 'sdk');
    })
  );
}

function isUser(env: DispatchEnvelope): boolean {
  const role = env.metadata?.get('role');
  return role?.type === 'text' && role.value === 'user';
}
