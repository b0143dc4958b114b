import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseKeys } from './keys/keys';
import { foldPrepared, prepareFold } from './folds';
import { annotateLog } from './graphs';
import { locateInTrees, logFactsOf } from './records';
import { inspect } from './inspect';

const root = resolve(__dirname, '../..');
const read = (p: string) => new Uint8Array(readFileSync(resolve(root, p)));

describe('annotateLog', () => {
  it('hands back a prepared log that folds as a fresh one does, after the fold findings it added', () => {
    const keys = parseKeys(read('vectors/agdx/made/keys.json')).keys;
    const { records } = inspect([{ name: 'log.json', bytes: read('vectors/agdx/made/registry_log_http_v07.json') }], { keys });
    const { fold: prepared } = annotateLog(records);
    // The fixture has fold findings (the quarantine by a non-operator), so the annotation did change records.
    expect(records.some((r) => r.findings.some((f) => f.rule.startsWith('agdx/fold/')))).toBe(true);
    const fresh = prepareFold(logFactsOf(records), locateInTrees(records));
    expect(foldPrepared(prepared)).toEqual(foldPrepared(fresh));
    expect(foldPrepared(prepared, { asOf: 5 })).toEqual(foldPrepared(fresh, { asOf: 5 }));
  });
});
