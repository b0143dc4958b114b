// The AGDX graph in one call: the record-level graph built and drawn at once. For tests and the
// benchmark; the worker and the report build the record-level graph once per load (analysis/log.ts)
// and draw it per request.
import type { LogFacts } from '../log/entry';
import { drawAgdxGraph } from './draw';
import type { AgdxGraph, DrawOptions } from './model';
import { buildRecordGraph, type RecordGraphOptions } from './record-graph';

export function buildAgdxGraph(facts: LogFacts, options: DrawOptions & RecordGraphOptions = {}): AgdxGraph {
  return drawAgdxGraph(buildRecordGraph(facts, options), options);
}
