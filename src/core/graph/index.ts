// The graph model: AGDX causal graph, chunk streams, AgentDNA DAG, report section and layout.
export * from './model';
export { buildAgdxGraph, DEFAULT_FOLD_THRESHOLD } from './agdx';
export { reassembleStreams, streamId, MAX_GAP_LIST, MAX_TEXT_BYTES } from './streams';
export { buildAgentDnaGraph } from './agentdna';
export { toReportGraph, type ReportGraph, type ReportStream, type ReportEdgeVia } from './report';
export { layoutGraph, NODE_WIDTH, NODE_HEIGHT } from './layout';
export { recordSortKeys } from './keys';
