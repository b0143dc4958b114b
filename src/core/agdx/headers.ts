// Header checks: a record's log headers against its envelope (agdx/header/*), by the header rules of
// the record's dialect: the Iggy headers of both generations.
import { bytesEqual, crockfordBytes, toCrockford } from '../bytes';
import { finding, type HeaderName } from '../rules';
import { DIALECT_001, type Dialect, type DialectHeader } from './dialects';
import { CONTENT_TYPES } from './dictionaries';
import type { Envelope } from './envelope';
import type { Header } from './iggy';
import { displayHeader, headerString, headerUint } from './iggy';

/** The `agdx.to` value that addresses every agent (laser-sdk 0.7 on). */
export const BROADCAST = '*';
import type { Finding } from '../verdict';

export interface ObservedHeaders {
  /** agdx.av, when present and readable. */
  av: number | null;
  /** agdx.ct, when present and readable. */
  ct: number | null;
}

export function observedHeaders(headers: Header[]): ObservedHeaders {
  const find = (name: string) => headers.find((h) => h.name === name);
  const av = find('agdx.av');
  const ct = find('agdx.ct');
  const num = (h: Header | undefined) => {
    const n = h ? headerUint(h) : null;
    return n === null || n > 0xffffffffn ? null : Number(n);
  };
  return { av: num(av), ct: num(ct) };
}

/** The headers as the dialect check reads them (dialects.ts: which headers only a later dialect writes). */
export function dialectHeaders(headers: readonly Header[]): DialectHeader[] {
  return headers.map((h) => ({ name: h.name, kind: h.kind, text: headerString(h) }));
}

/**
 * Checks headers against the envelope, by the header rules of `dialect` (dialects.ts): 0.0.1's
 * agdx.av, agdx.ct, gen_ai.conversation.id (uint128) and agdx.to; 0.7's conversation id as text,
 * agdx.to `*` for every agent, gen_ai.agent.id, agdx.parent_conv and agdx.root_conv. `partitionKey`
 * is the laser record's Crockford conversation id.
 */
export function checkHeaders(env: Envelope, headers: Header[], partitionKey?: string, dialect: Dialect = DIALECT_001): Finding[] {
  const out: Finding[] = [];
  const find = (name: string) => headers.find((h) => h.name === name);
  const add = (name: HeaderName, severity: Finding['severity'], message: string, h?: Header) =>
    out.push(finding(`agdx/header/${name}`, h ? `headers.${h.name}` : null, message, h?.span ?? null, severity));
  const rules = dialect.headers;

  const av = find('agdx.av');
  if (!av) add('av', 'warning', 'no agdx.av header: to Iggy this is a generic provenance message, not an AGDX record');
  else {
    const n = headerUint(av);
    if (av.kind !== 'uint32') add('av', 'warning', `agdx.av is ${av.kind}, expected uint32`, av);
    if (n === null) add('av', 'error', 'agdx.av is not an unsigned integer', av);
    else if (n !== 1n) add('av', 'error', `agdx.av is ${n}: only wire version 1 is supported`, av);
  }
  const ct = find('agdx.ct');
  if (ct) {
    const n = headerUint(ct);
    if (ct.kind !== 'uint8') add('ct', 'info', `agdx.ct is ${ct.kind}, expected uint8`, ct);
    if (n === null) add('ct', 'info', 'agdx.ct is not an unsigned integer', ct);
    else if (n > 255n || CONTENT_TYPES[Number(n)] === undefined) add('ct', 'info', `agdx.ct ${n} is not a known content type; the body is shown as hex`, ct);
  }
  const conv = find('gen_ai.conversation.id');
  if (conv) {
    if (conv.kind === 'string' && rules.conversation.includes('string')) {
      const text = headerString(conv);
      const named = text === null ? null : crockfordBytes(text);
      if (named === null)
        add('conversation', 'error', `gen_ai.conversation.id ${JSON.stringify(text ?? displayHeader(conv))} is not a 26-character Crockford id`, conv);
      else if (!bytesEqual(named, env.conversation))
        add(
          'conversation',
          'error',
          `gen_ai.conversation.id names ${toCrockford(named)}, the envelope's conversation is ${toCrockford(env.conversation)}`,
          conv,
        );
    } else if (conv.kind !== 'uint128' || conv.value.length !== 16)
      add(
        'conversation',
        'error',
        `gen_ai.conversation.id is ${conv.kind} of ${conv.value.length} bytes, expected ${rules.conversation.includes('string') ? 'uint128 or a string' : 'uint128'}`,
        conv,
      );
    else {
      // The header is a little-endian u128; the envelope's id is big-endian.
      const be = conv.value.slice().reverse();
      if (!bytesEqual(be, env.conversation)) {
        const bigEndianReading = bytesEqual(conv.value, env.conversation);
        add(
          'conversation',
          'error',
          `gen_ai.conversation.id names ${toCrockford(be)}, the envelope's conversation is ${toCrockford(env.conversation)}` +
            (bigEndianReading ? ' (the header was written big-endian: it must be little-endian)' : ''),
          conv,
        );
      }
    }
  }
  if (partitionKey !== undefined && partitionKey !== toCrockford(env.conversation)) {
    out.push(
      finding(
        'agdx/header/conversation',
        'partition_key',
        `partition_key ${partitionKey} differs from the envelope's conversation ${toCrockford(env.conversation)}`,
        null,
      ),
    );
  }
  const to = find('agdx.to');
  if (to) {
    const s = headerString(to);
    if (s === null) add('to', 'error', `agdx.to is ${to.kind}, expected a UTF-8 string`, to);
    else if (s === BROADCAST && rules.broadcast) {
      if (env.target !== undefined) add('to', 'error', `agdx.to is * (every agent), but the envelope is addressed to ${JSON.stringify(env.target)}`, to);
    } else if (env.target === undefined) add('to', 'error', `agdx.to is ${JSON.stringify(s)} but the envelope has no target`, to);
    else if (s !== env.target) add('to', 'error', `agdx.to ${JSON.stringify(s)} differs from target ${JSON.stringify(env.target)}`, to);
  } else if (env.target !== undefined && av) {
    add('to', 'warning', `the envelope has target ${JSON.stringify(env.target)} but the record has no agdx.to header`);
  }
  if (rules.agent) {
    const agent = find('gen_ai.agent.id');
    if (agent) {
      const s = headerString(agent);
      if (s === null) add('agent', 'error', `gen_ai.agent.id is ${agent.kind}, expected a UTF-8 string`, agent);
      else if (s !== env.source)
        add('agent', 'error', `gen_ai.agent.id ${JSON.stringify(s)} differs from the envelope's source ${JSON.stringify(env.source)}`, agent);
    }
  }
  if (rules.lineage) {
    lineageHeader(find('agdx.parent_conv'), 'agdx.parent_conv', 'parent', env.parent, !!av, add);
    lineageHeader(find('agdx.root_conv'), 'agdx.root_conv', 'root', env.root, !!av, add);
  }
  out.push(...contextFindings(env, headers));
  return out;
}

/**
 * The signed context against the headers it fixes (agdx/signature/context): a signature covers the
 * content type and agent version its context names, and a header saying otherwise was changed
 * after signing (the codec relabelled), so a receiver reads the body as something the sender did
 * not sign. Decided from the bytes alone, whatever the registry says; contextMatch (signature.ts)
 * is the same comparison, for the verdict.
 */
function contextFindings(env: Envelope, headers: Header[]): Finding[] {
  const ctx = env.signature?.context;
  if (!ctx) return [];
  const out: Finding[] = [];
  const pairs = [
    { header: 'agdx.ct', signed: ctx.content_type, what: 'content_type', words: (n: number | bigint) => `${n} (${CONTENT_TYPES[Number(n)] ?? 'unknown'})` },
    { header: 'agdx.av', signed: ctx.agent_version, what: 'agent_version', words: (n: number | bigint) => `${n}` },
  ] as const;
  for (const p of pairs) {
    const h = headers.find((x) => x.name === p.header);
    const n = h ? headerUint(h) : null;
    if (p.signed === undefined || !h || n === null || n === BigInt(p.signed)) continue;
    out.push(
      finding(
        'agdx/signature/context',
        `headers.${p.header}`,
        `${p.header} says ${p.words(n)}, but the signature covers ${p.what} ${p.words(p.signed)}: the header was changed after signing (the codec relabelled), and a receiver would read the body as the sender did not sign it`,
        h.span ?? null,
      ),
    );
  }
  return out;
}

/** agdx.parent_conv / agdx.root_conv against the envelope's parent / root. */
function lineageHeader(
  h: Header | undefined,
  name: string,
  field: 'parent' | 'root',
  id: Uint8Array | undefined,
  headerBlock: boolean,
  add: (name: HeaderName, severity: Finding['severity'], message: string, h?: Header) => void,
): void {
  const rule: HeaderName = field === 'parent' ? 'parent_conv' : 'root_conv';
  if (!h) {
    if (id && headerBlock) add(rule, 'warning', `the envelope has ${field} ${toCrockford(id)} but the record has no ${name} header`);
    return;
  }
  const text = headerString(h);
  const named = text === null ? null : crockfordBytes(text);
  if (named === null) add(rule, 'error', `${name} ${JSON.stringify(text ?? displayHeader(h))} is not a 26-character Crockford id`, h);
  else if (!id) add(rule, 'error', `${name} names ${toCrockford(named)} but the envelope has no ${field}`, h);
  else if (!bytesEqual(named, id)) add(rule, 'error', `${name} names ${toCrockford(named)}, the envelope's ${field} is ${toCrockford(id)}`, h);
}
