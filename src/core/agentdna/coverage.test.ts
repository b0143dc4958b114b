// What AgentDNA signatures do not cover (report.md `signature.not_covered`): keys outside the content
// hash, in every envelope of the chain, and the workflow document's own members.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { utf8Encode } from '../bytes';
import { inspect } from '../inspect';
import { flat } from '../../../test/support/import-helpers';
import { parseKeys } from '../keys/keys';
import { applyAgentDnaTrust } from './trust';
import { buildReport } from '../report';

const VECTORS = new URL('../../../vectors/agentdna/synthetic/', import.meta.url);
// biome-ignore lint/suspicious/noExplicitAny: the tests reach into vectors' JSON freely to make variants
const workflowOf = (name: string): any => JSON.parse(readFileSync(new URL(`synthetic_${name}.serialized.json`, VECTORS), 'utf8'));
const inspectJson = (value: unknown) => inspect([{ name: 'wf.json', bytes: utf8Encode(JSON.stringify(value)) }]);

describe('AgentDNA coverage', () => {
  it('a valid workflow lists its own members, which no envelope signs', () => {
    const r = flat(inspectJson(workflowOf('valid_single_root')).records[0]);
    expect(r.signature).toMatchObject({ status: 'valid', not_covered: ['id', 'type', 'version', 'info'] });
  });

  it('an extra envelope key anywhere in the chain is listed with its path; the chain still verifies', () => {
    const wf = workflowOf('valid_fanin_dag');
    wf.envelope.approved_by = 'the CFO';
    wf.envelope.parent_envelope[1].parent_envelope[0].note = 'not hashed';
    // from_ wins over from: with the same DID the hash holds, and `from` is outside it.
    wf.envelope.from_ = wf.envelope.from;
    const result = inspectJson(wf);
    const r = flat(result.records[0]);
    expect(r.signature.status).toBe('valid');
    expect(r.signature.not_covered).toEqual([
      'id',
      'type',
      'version',
      'info',
      'envelope.approved_by',
      'envelope.from',
      'envelope.parent_envelope[1].parent_envelope[0].note',
    ]);
    expect(buildReport(result).records[0].signature.not_covered).toEqual(r.signature.not_covered);
    // Each listed path is a node of the field tree, for the page to mark.
    const paths = new Set<string>();
    const walk = (ns: typeof r.tree): void => {
      for (const n of ns) {
        paths.add(n.path);
        if (n.children) walk(n.children);
      }
    };
    walk(r.tree);
    for (const p of r.signature.not_covered) expect(paths.has(p)).toBe(true);
  });

  it('re-applying trust for a new registry keeps the list (it depends on the document, not on the keys)', () => {
    const wf = workflowOf('valid_single_root');
    wf.envelope.x = 1;
    const result = inspectJson(wf);
    const before = result.records[0].verdict.signature.not_covered;
    const did: string = wf.envelope.from;
    const trusted = applyAgentDnaTrust(result.records, result.workflows, parseKeys(JSON.stringify({ keys: [{ agent: 'worker', did }] })).keys);
    expect(trusted.records[0].verdict.signature).toMatchObject({ status: 'valid', trusted: true, not_covered: before });
    expect(before).toContain('envelope.x');
  });

  it('a bare envelope has no workflow members: only its own extra keys', () => {
    const env = workflowOf('valid_single_root').envelope;
    env.x = 1;
    const r = inspectJson(env).records[0].verdict;
    expect(r.format).toBe('agentdna.envelope');
    expect(r.signature).toMatchObject({ status: 'valid', not_covered: ['x'] });
  });

  it('an envelope with no signature is unsigned and lists nothing', () => {
    const wf = workflowOf('valid_single_root');
    delete wf.envelope.signature;
    wf.envelope.x = 1;
    const r = inspectJson(wf).records[0].verdict;
    expect(r.signature).toMatchObject({ status: 'unsigned', not_covered: [] });
  });
});
