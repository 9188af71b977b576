// Response shapes of the HTTP API as the UI reads them. The UI loads no code from src/: the shapes
// are type-only imports of the client library's.

export const TYPES = ['observation', 'insight', 'procedure', 'heuristic'] as const
export type MemoryType = (typeof TYPES)[number]

// The wire shapes as the client library declares them (the server's own schemas' types);
// type-only, so nothing of it is bundled.
import type {ConsolidateResult, MaintenanceReport, MaintenanceRun} from '../../client/types.js'

export type {
  ConsolidateResult,
  MaintenanceReport,
  MaintenanceRun,
  BrowsePage,
  DailyUsage as DayBucket,
  Graph,
  GraphEdge,
  GraphNode,
  Health,
  IntakeResult,
  MemoryEntry as Memory,
  OperationUsage as UsageOperation,
  PackImportResult,
  Portal,
  Quality,
  QualityIssue,
  RecallItem,
  ScheduledTask,
  Stats,
  Status,
  Usage,
  UsageTimeseries as Timeseries,
} from '../../client/types.js'

export type {RepoItem as Repo, ReposResult} from '../../client/types.js'

/** POST /api/maintenance: the report (200), or a run to poll (202, with `poll`). */
export type MaintenanceAnswer = MaintenanceReport | (MaintenanceRun & {poll?: string})
export type ConsolidateCluster = NonNullable<ConsolidateResult['clusters']>[number]
