// Folds of the log into consumer state: agent registry (cards, liveness), quarantine, run
// registry, conversation summaries; their findings (agdx/fold/*) and report@1 sections.
export * from './model';
export { foldLog, foldPrepared, prepareFold, logOrderRecords, describeTime, type PreparedLog } from './fold';
export { foldSessions, lifecycleAllows, SESSION_LIFECYCLE } from './sessions';
export {
  toReportFolds,
  streamedReportFolds,
  gatheredFolds,
  type StreamedReportFolds,
  reportUsage,
  type ReportFolds,
  type ReportAgent,
  type ReportRun,
  type ReportConversation,
  type ReportSession,
  type ReportQuarantineFact,
  type ReportCapability,
  type ReportUsage,
} from './report';
