import { describe, expect, it } from 'vitest';
import { matchRuleIds, RuleIndex } from './rule-filter';

const PRESENT = [
  'agdx/matrix/correlation',
  'agdx/matrix/operation',
  'agdx/must-understand',
  'agentdna/signature',
  'agentdna/signature/der',
  'cbor/trailing-bytes',
  'cbor/truncated',
];

describe('matchRuleIds', () => {
  it('an exact id is that rule alone, even where it starts other ids', () => {
    expect(matchRuleIds('agentdna/signature', PRESENT)).toEqual(['agentdna/signature']);
    expect(matchRuleIds('  AgentDNA/Signature ', PRESENT)).toEqual(['agentdna/signature']);
  });

  it('a known id that no record carries matches nothing (not the ids it starts)', () => {
    expect(matchRuleIds('agdx/matrix/record', PRESENT)).toEqual([]);
  });

  it('any start of ids matches them, with or without the closing slash', () => {
    expect(matchRuleIds('agdx/matrix', PRESENT)).toEqual(['agdx/matrix/correlation', 'agdx/matrix/operation']);
    expect(matchRuleIds('agdx/matrix/', PRESENT)).toEqual(['agdx/matrix/correlation', 'agdx/matrix/operation']);
    expect(matchRuleIds('agdx/ma', PRESENT)).toEqual(['agdx/matrix/correlation', 'agdx/matrix/operation']);
    expect(matchRuleIds('agentdna/signature/', PRESENT)).toEqual(['agentdna/signature/der']);
    expect(matchRuleIds('cbor', PRESENT)).toEqual(['cbor/trailing-bytes', 'cbor/truncated']);
  });

  it('otherwise, the ids that contain it', () => {
    expect(matchRuleIds('must', PRESENT)).toEqual(['agdx/must-understand']);
    expect(matchRuleIds('trunc', PRESENT)).toEqual(['cbor/truncated']);
    expect(matchRuleIds('matrix/operation', PRESENT)).toEqual(['agdx/matrix/operation']);
    expect(matchRuleIds('signature/', PRESENT)).toEqual(['agentdna/signature/der']);
  });

  it('words no id holds are looked for in the catalogue titles', () => {
    // "must_understand has bits set that this inspector does not implement"
    expect(matchRuleIds('bits', PRESENT)).toEqual(['agdx/must-understand']);
    expect(matchRuleIds('bits implement', PRESENT)).toEqual(['agdx/must-understand']);
    expect(matchRuleIds('bits nonsense', PRESENT)).toEqual([]);
  });

  it('a blank query, or one of no letters, matches nothing', () => {
    expect(matchRuleIds('', PRESENT)).toEqual([]);
    expect(matchRuleIds('   ', PRESENT)).toEqual([]);
    expect(matchRuleIds('--', PRESENT)).toEqual([]);
    expect(matchRuleIds('__proto__', PRESENT)).toEqual([]);
  });
});

describe('RuleIndex', () => {
  const index = () => {
    const ix = new RuleIndex();
    ix.add(0, [{ rule: 'agdx/matrix/operation', severity: 'error' }]);
    ix.add(2, [
      { rule: 'agdx/graph/cause-mismatch', severity: 'warning' },
      { rule: 'agdx/graph/cause-mismatch', severity: 'warning' },
    ]);
    ix.add(3, [{ rule: 'cbor/truncated', severity: 'error' }]);
    ix.add(5, [
      { rule: 'agdx/matrix/correlation', severity: 'error' },
      { rule: 'agdx/matrix/operation', severity: 'warning' },
    ]);
    return ix;
  };

  it('counts each rule once per record, with its worst severity and its title, by id', () => {
    expect(index().counts()).toEqual([
      { id: 'agdx/graph/cause-mismatch', records: 1, severity: 'warning', title: expect.any(String) },
      { id: 'agdx/matrix/correlation', records: 1, severity: 'error', title: expect.any(String) },
      { id: 'agdx/matrix/operation', records: 2, severity: 'error', title: expect.any(String) },
      { id: 'cbor/truncated', records: 1, severity: 'error', title: expect.any(String) },
    ]);
  });

  it('an id the catalogue does not know is counted, without a title', () => {
    const ix = new RuleIndex();
    ix.add(0, [{ rule: 'x/unknown', severity: 'info' }]);
    expect(ix.counts()).toEqual([{ id: 'x/unknown', records: 1, severity: 'info', title: null }]);
  });

  it('marks the records of the ids a query matches', () => {
    const ix = index();
    expect(ix.match('agdx/matrix')).toEqual(['agdx/matrix/operation', 'agdx/matrix/correlation']);
    expect([...ix.mark(ix.match('agdx/matrix'), 7)]).toEqual([1, 0, 0, 0, 0, 1, 0]);
    expect([...ix.mark(ix.match('mismatch'), 7)]).toEqual([0, 0, 1, 0, 0, 0, 0]);
    expect([...ix.mark(ix.match('nothing-like-it'), 7)]).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it('keys out of order are a misuse', () => {
    const ix = new RuleIndex();
    ix.add(3, [{ rule: 'cbor/truncated', severity: 'error' }]);
    // The same record again (its decode error after its findings): still one record.
    ix.add(3, [{ rule: 'cbor/truncated', severity: 'error' }]);
    expect(ix.counts()).toMatchObject([{ id: 'cbor/truncated', records: 1 }]);
    expect(() => ix.add(1, [])).toThrow(TypeError);
    expect(() => ix.add(4.5, [])).toThrow(TypeError);
  });
});
