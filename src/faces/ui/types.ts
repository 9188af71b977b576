// Response shapes of the HTTP API as the UI reads them (spec section 2 and the agreed shapes of
// the routes other issues add). The UI loads no code from src/: the shared shapes below are
// type-only imports of the client library's, the rest are the UI's own.

export const TYPES = ['observation', 'insight', 'procedure', 'heuristic'] as const
export type MemoryType = (typeof TYPES)[number]

// The wire shapes the client library declares (src/client/types.ts imports nothing and the server
// is checked against it at build time); type-only, so nothing of it is bundled.
export type {
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

export interface Repo {
  repoId: string
  path?: string
}

export interface MaintenanceStage {
  name: string
  affected: number
  durationMs: number
  error?: string
}

export interface MaintenanceReport {
  repoId: string
  stages: MaintenanceStage[]
}

export interface MaintenanceRun {
  runId: string
  repo: string
  status: 'running' | 'completed' | 'failed'
  startedAt: string
  completedAt?: string
  report?: MaintenanceReport
  error?: string
  poll?: string
}

export interface ConsolidateCluster {
  memberIds: string[]
  tags: string[]
  oneLiner: string
  content: string
  importance: number
  outcome: 'create' | 'boost' | 'restates'
  target?: string
}

export interface ConsolidateResult {
  candidates: number
  insightsCreated: number
  insightsBoosted: number
  clusters?: ConsolidateCluster[]
}

