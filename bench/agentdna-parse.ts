// The two sides of `agentdna_parse_ratio`, shared by the Node run and the page's (bundled for
// Chromium by bench/run.ts): ours reads a workflow array as the importer does (the lossless reader,
// each envelope tree, each content JSON as Python writes it) and hashes every content JSON with
// the hash the host installed; the baseline is JSON.parse of the same text plus the same hashes
// computed with @noble/hashes (the content JSONs handed to it ready-made: it is not charged for
// writing them, which a JSON.parse tree cannot do exactly anyway).
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { contentFieldsOf, readEnvelopeTree } from '../src/core/agentdna/envelope';
import { contentJson, sha256Hex, type ContentFields } from '../src/core/agentdna/hash';
import { readJson, type JsonValue } from '../src/core/json/lossless';

/** The six content fields of every envelope of every workflow, tip and parents, read losslessly. */
export function workflowContents(bytes: Uint8Array): ContentFields[] {
  const doc = readJson(bytes, { maxDepth: 64 });
  if (!doc.ok || doc.value.type !== 'array') throw new Error('bench workflows do not parse');
  const out: ContentFields[] = [];
  for (const w of doc.value.items) {
    const env = w.type === 'object' ? w.entries.find((e) => e.key === 'envelope')?.value : undefined;
    if (env?.type !== 'object') continue;
    const stack = [readEnvelopeTree(env as Extract<JsonValue, { type: 'object' }>, 'envelope')];
    while (stack.length) {
      const n = stack.pop()!;
      out.push(contentFieldsOf(n));
      stack.push(...n.parents);
    }
  }
  return out;
}

/** Ours: parse + the content hash of every envelope (what the importer computes for each). */
export function oursParseAndHash(bytes: Uint8Array): string[] {
  return workflowContents(bytes).map((f) => {
    const json = contentJson(f);
    if (json === null) throw new Error('a bench envelope has no content');
    return sha256Hex(json);
  });
}

/** The baseline: JSON.parse of the same text, and the same hashes with @noble/hashes. */
export function baselineParseAndHash(text: string, contents: readonly string[]): string[] {
  const doc = JSON.parse(text) as unknown[];
  if (!Array.isArray(doc)) throw new Error('bench workflows are not an array');
  return contents.map((c) => bytesToHex(sha256(utf8ToBytes(c))));
}

/** The content JSONs of the bench file, for the baseline (made once, outside the timing). */
export function contentJsons(bytes: Uint8Array): string[] {
  return workflowContents(bytes).map((f) => contentJson(f)!);
}

/**
 * Median times (ms) of ours and the baseline, interleaved run by run (so a busy moment of a shared
 * machine falls on both alike). Throws unless both give the same hashes.
 */
export function measureParseRatio(bytes: Uint8Array, text: string, runs: number, gc: () => void = () => {}): { ours: number; base: number; hashes: number } {
  const contents = contentJsons(bytes);
  const expected = baselineParseAndHash(text, contents);
  const got = oursParseAndHash(bytes);
  if (got.length !== expected.length || got.some((h, i) => h !== expected[i])) throw new Error('ours and the baseline give different hashes');
  const ours: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < runs; i++) {
    gc();
    let t = performance.now();
    baselineParseAndHash(text, contents);
    base.push(performance.now() - t);
    gc();
    t = performance.now();
    oursParseAndHash(bytes);
    ours.push(performance.now() - t);
  }
  const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
  return { ours: median(ours), base: median(base), hashes: expected.length };
}
