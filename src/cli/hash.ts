// node:crypto's SHA-256 for the text the command line hashes (AgentDNA content JSONs and signed
// messages): native, and about 40% faster than the pure hash over 50,000 small texts.
import { createHash } from 'node:crypto';
import type { Sha256Text } from '../core/agentdna/hash';

/** SHA-256 of the UTF-8 of `text` (lone surrogates as U+FFFD, as TextEncoder writes them), hex. */
export const nodeSha256Hex: Sha256Text = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
