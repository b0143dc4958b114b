// The graph model: AGDX causal graph (record level, then drawn), chunk streams, AgentDNA DAG, report section and layout.
export * from './model';
export { buildCompactRecordGraph, type CompactRecordGraph, type RecordGraphOptions } from './record-graph';
export { drawAgdxGraph, DEFAULT_FOLD_THRESHOLD } from './draw';
export { reassembleStreams, streamId, MAX_GAP_LIST, MAX_TEXT_BYTES } from './streams';
export { buildAgentDnaGraph, agentDnaInputs } from './agentdna';
export { toReportGraph, type ReportGraph, type ReportStream, type ReportEdgeVia, type StreamedReportGraph } from './report';
export { layoutGraph, NODE_WIDTH, NODE_HEIGHT } from './layout';
export { conversationLineage, lineageGhostBoxes } from './lineage';
