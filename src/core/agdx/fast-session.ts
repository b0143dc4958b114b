// A fast path for the session status bodies the validator reads on every session record: the
// bodies as laser-sdk writes them (a SessionStart, SessionTransition or SessionEnd of the fields
// it writes, definite lengths, shortest heads, no tags) are checked straight from their bytes,
// without building a CBOR item tree. It only ever answers "valid": anything else, or anything it
// is not sure of, goes to the general reader (shapes.ts), which finds the failure in the port's
// words. So a verdict never depends on the path it took (src/core/fuzz/dialect.fuzz.test.ts).
import { bytesEqual, utf8Range } from '../bytes';
import { agentIdProblem, labelProblem, namespaceProblem, MAX_SESSION_TAG_BYTES, MAX_SESSION_TAGS } from './shapes';

// The reader's state, as in fast.ts: module-level, set at the start of every call.
let b: Uint8Array = new Uint8Array(0);
let p = 0;
let limit = 0;
/** The argument of the last head read. */
let arg = 0;

const BAIL = Symbol('bail');

/** A minimal, definite head: its major type; `arg` its argument. */
function head(): number {
  if (p >= limit) throw BAIL;
  const ib = b[p++];
  const ai = ib & 31;
  if (ai < 24) arg = ai;
  else if (ai === 24) {
    if (p >= limit || b[p] < 24) throw BAIL;
    arg = b[p++];
  } else if (ai === 25) {
    if (p + 2 > limit) throw BAIL;
    arg = (b[p] << 8) | b[p + 1];
    if (arg <= 0xff) throw BAIL;
    p += 2;
  } else if (ai === 26) {
    if (p + 4 > limit) throw BAIL;
    arg = b[p] * 0x1000000 + ((b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]);
    if (arg <= 0xffff) throw BAIL;
    p += 4;
  } else if (ai === 27) {
    if (p + 8 > limit) throw BAIL;
    const hi = b[p] * 0x1000000 + ((b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]);
    if (hi === 0 || hi >= 0x200000) throw BAIL;
    arg = hi * 0x100000000 + (b[p + 4] * 0x1000000 + ((b[p + 5] << 16) | (b[p + 6] << 8) | b[p + 7]));
    p += 8;
  } else throw BAIL;
  return ib >> 5;
}

function text(): string {
  if (head() !== 3 || arg > limit - p) throw BAIL;
  const s = utf8Range(b, p, p + arg);
  if (s === null) throw BAIL;
  p += arg;
  return s;
}

function bytesOf(size: number): Uint8Array {
  if (head() !== 2 || arg !== size || arg > limit - p) throw BAIL;
  const out = b.subarray(p, p + arg);
  p += arg;
  return out;
}

function uint(max: number): void {
  if (head() !== 0 || arg > max) throw BAIL;
}

/** A map head: its entry count. */
function map(): number {
  if (head() !== 5) throw BAIL;
  return arg;
}

const START_KEYS = ['label', 'namespace', 'agent', 'sdk', 'parent', 'root', 'idle_timeout_micros', 'budget', 'tags'];

/**
 * Whether the body `bytes[start, end)` of a session status in `state` is, for certain, the body
 * that state calls for and passes every check of the port (a start's lineage the envelope's
 * `parent` and `root`). False means only "not for certain": ask the general reader.
 */
export function sessionBodyValid(
  bytes: Uint8Array,
  start: number,
  end: number,
  state: number,
  terminal: ReadonlySet<number>,
  parent: Uint8Array | undefined,
  root: Uint8Array | undefined,
): boolean {
  b = bytes;
  p = start;
  limit = end;
  try {
    const n = map();
    const keysAt = p;
    let starting = state === 1;
    if (state === 2) {
      // Working: a start when it names the agent or the SDK (read its keys first).
      for (let i = 0; i < n && !starting; i++) {
        const k = text();
        starting = k === 'agent' || k === 'sdk';
        skipKnown(k);
      }
      p = keysAt;
    }
    const ok = starting ? start_(n, parent, root) : terminal.has(state) ? end_(n) : transition(n);
    return ok && p === end;
  } catch (e) {
    if (e === BAIL) return false;
    throw e;
  } finally {
    b = EMPTY;
  }
}

const EMPTY = new Uint8Array(0);

/** Skips the value of a key this reader knows (the first pass over a working status's keys). */
function skipKnown(key: string): void {
  switch (key) {
    case 'sdk':
    case 'budget':
    case 'error': {
      const n = map();
      for (let i = 0; i < n; i++) {
        text();
        skipScalar();
      }
      return;
    }
    case 'tags': {
      if (head() !== 4) throw BAIL;
      const n = arg;
      for (let i = 0; i < n; i++) text();
      return;
    }
    default:
      skipScalar();
  }
}

/** Skips a text, byte string, unsigned integer or bool. */
function skipScalar(): void {
  const ib = b[p];
  if (ib === 0xf4 || ib === 0xf5) {
    p++;
    return;
  }
  const major = head();
  if (major === 2 || major === 3) {
    if (arg > limit - p) throw BAIL;
    p += arg;
  } else if (major !== 0) throw BAIL;
}

function start_(n: number, parent: Uint8Array | undefined, root: Uint8Array | undefined): boolean {
  let seen = 0;
  let bodyParent: Uint8Array | undefined;
  let bodyRoot: Uint8Array | undefined;
  for (let i = 0; i < n; i++) {
    const k = START_KEYS.indexOf(text());
    if (k < 0 || seen & (1 << k)) return false;
    seen |= 1 << k;
    switch (k) {
      case 0:
        if (labelProblem(text()) !== null) return false;
        break;
      case 1:
        if (namespaceProblem(text()) !== null) return false;
        break;
      case 2:
        if (agentIdProblem(text()) !== null) return false;
        break;
      case 3: {
        // The SDK: its language and version, both text, and nothing else.
        if (map() !== 2 || text() !== 'language') return false;
        text();
        if (text() !== 'version') return false;
        text();
        break;
      }
      case 4:
        bodyParent = bytesOf(16);
        break;
      case 5:
        bodyRoot = bytesOf(16);
        break;
      case 6:
        uint(Number.MAX_SAFE_INTEGER);
        break;
      case 7: {
        const m = map();
        let budget = 0;
        for (let j = 0; j < m; j++) {
          const bk = text();
          const bit = bk === 'tokens' ? 1 : bk === 'cost_micros' ? 2 : 0;
          if (bit === 0 || budget & bit) return false;
          budget |= bit;
          uint(Number.MAX_SAFE_INTEGER);
        }
        break;
      }
      default: {
        if (head() !== 4 || arg > MAX_SESSION_TAGS) return false;
        const tags = arg;
        for (let j = 0; j < tags; j++) {
          if (head() !== 3 || arg > MAX_SESSION_TAG_BYTES || arg > limit - p) return false;
          if (utf8Range(b, p, p + arg) === null) return false;
          p += arg;
        }
      }
    }
  }
  // The agent and the SDK are required; a root needs a parent; the lineage is the envelope's.
  if (!(seen & 4) || !(seen & 8)) return false;
  if (bodyRoot && !bodyParent) return false;
  return same(bodyParent, parent) && same(bodyRoot, root);
}

const same = (a: Uint8Array | undefined, e: Uint8Array | undefined) => (a === undefined ? e === undefined : e !== undefined && bytesEqual(a, e));

function transition(n: number): boolean {
  let seen = 0;
  for (let i = 0; i < n; i++) {
    const k = text();
    if (k === 'actor' && !(seen & 1)) {
      seen |= 1;
      if (agentIdProblem(text()) !== null) return false;
    } else if (k === 'acknowledges' && !(seen & 2)) {
      seen |= 2;
      bytesOf(20);
    } else return false;
  }
  return true;
}

function end_(n: number): boolean {
  let seen = 0;
  for (let i = 0; i < n; i++) {
    const k = text();
    if (k === 'reason' && !(seen & 1)) {
      seen |= 1;
      text();
    } else if (k === 'error' && !(seen & 2)) {
      seen |= 2;
      // An AgentErrorBody of code, message and retryable (a detail goes the general way).
      const m = map();
      let fields = 0;
      for (let j = 0; j < m; j++) {
        const ek = text();
        if (ek === 'code' && !(fields & 1)) uint(255);
        else if (ek === 'message' && !(fields & 2)) text();
        else if (ek === 'retryable' && !(fields & 4)) {
          if (b[p] !== 0xf4 && b[p] !== 0xf5) return false;
          p++;
        } else return false;
        fields |= ek === 'code' ? 1 : ek === 'message' ? 2 : 4;
      }
      if (!(fields & 1)) return false;
    } else return false;
  }
  return true;
}
