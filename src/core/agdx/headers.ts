// Header checks: a record's log headers against its envelope (agdx/header/*).
import { bytesEqual, toCrockford } from '../bytes';
import type { Finding } from '../model';
import { finding, type HeaderName } from '../rules';
import { CONTENT_TYPES } from './dictionaries';
import type { Envelope } from './envelope';
import type { Header } from './iggy';
import { headerString, headerUint } from './iggy';

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

/** Checks headers against the envelope; `partitionKey` is the laser record's Crockford conversation id. */
export function checkHeaders(env: Envelope, headers: Header[], partitionKey?: string): Finding[] {
  const out: Finding[] = [];
  const find = (name: string) => headers.find((h) => h.name === name);
  const add = (name: HeaderName, severity: Finding['severity'], message: string, h?: Header) =>
    out.push(finding(`agdx/header/${name}`, h ? `headers.${h.name}` : null, message, h?.span ?? null, severity));

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
    if (conv.kind !== 'uint128' || conv.value.length !== 16)
      add('conversation', 'error', `gen_ai.conversation.id is ${conv.kind} of ${conv.value.length} bytes, expected uint128`, conv);
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
    out.push({
      rule: 'agdx/header/conversation',
      severity: 'error',
      path: 'partition_key',
      message: `partition_key ${partitionKey} differs from the envelope's conversation ${toCrockford(env.conversation)}`,
      span: null,
    });
  }
  const to = find('agdx.to');
  if (to) {
    const s = headerString(to);
    if (s === null) add('to', 'error', `agdx.to is ${to.kind}, expected a UTF-8 string`, to);
    else if (env.target === undefined) add('to', 'error', `agdx.to is ${JSON.stringify(s)} but the envelope has no target`, to);
    else if (s !== env.target) add('to', 'error', `agdx.to ${JSON.stringify(s)} differs from target ${JSON.stringify(env.target)}`, to);
  } else if (env.target !== undefined && av) {
    add('to', 'warning', `the envelope has target ${JSON.stringify(env.target)} but the record has no agdx.to header`);
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
