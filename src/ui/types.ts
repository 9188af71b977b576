// Response shapes of the HTTP API as the UI reads them (spec section 2 and the agreed shapes of
// the routes other issues add). The UI imports nothing from src/: these mirror the JSON only.

export const TYPES = ['observation', 'insight', 'procedure', 'heuristic'] as const
export type MemoryType = (typeof TYPES)[number]

export interface MemoryLink {
  targetId: string
  relation: string
}

export interface Memory {
  id: string
  repoId: string
  type: MemoryType
  content: string
  oneLiner: string | null
  summary: string | null
  tags: string[]
  importance: number
  source: string
  sessionId: string | null
  supersedes: string | null
  supersededBy: string | null
  createdAt: string
  updatedAt: string
  forgottenAt: string | null
  forgetReason: string | null
  expiresAt: string | null
  accessCount: number
  lastAccessedAt: string | null
  usedCount: number
  unusedCount: number
  lastUsedAt: string | null
  derivedFrom: string[]
  links?: MemoryLink[]
}

export interface RecallItem {
  id: string
  repoId: string
  type: string
  content: string
  oneLiner: string | null
  tags: string[]
  importance: number
  score: number
  createdAt: string
  ageDays: number | null
  stalenessWarning: string | null
}

export interface Repo {
  repoId: string
  path?: string
}

export interface Stats {
  repo: string
  summary: string
  counts: Partial<Record<MemoryType, number>>
  total: number
}

export interface BrowsePage {
  repo: string
  skip: number
  take: number
  count: number
  entries: Memory[]
}

export interface GraphNode {
  id: string
  type: string
  label: string
  importance: number
  tags: string[]
}

export interface GraphEdge {
  from: string
  to: string
  relation: string
}

export interface Graph {
  repo?: string
  nodes: GraphNode[]
  edges: GraphEdge[]
}

export interface QualityIssue {
  kind: string
  severity: 'info' | 'warning' | 'critical'
  count: number
  exampleIds: string[]
  advice: string
}

export interface Quality {
  repo: string
  totalMemories: number
  recalled: number
  echoRatio: number
  fizzleRatio: number
  staleCount: number
  deadCount: number
  issues: QualityIssue[]
  score: number
}

export interface UsageOperation {
  operation: string
  count: number
  avgDurationMs: number
  p95DurationMs: number
  avgResults: number
}

export interface Usage {
  repo: string
  days: number
  from: string
  to: string
  total: number
  operations: UsageOperation[]
}

export interface DayBucket {
  date: string
  count: number
  byOperation: Record<string, number>
}

export interface Timeseries {
  repo: string
  days: number
  buckets: DayBucket[]
}

export interface ScheduledTask {
  id: string
  type: string
  repo?: string
  intervalHours: number
  lastRunAt: string | null
  nextRunAt: string | null
  status: string
  lastError: string | null
}

export interface Portal {
  repo: string
  repoId: string
  generatedAt: string
  counts: Partial<Record<MemoryType, number>>
  total: number
  recent: Memory[]
  quality: Quality
  usage: {days: number; total: number; operations: UsageOperation[]; timeseries: DayBucket[]}
  tasks: ScheduledTask[]
}

export interface Health {
  status: string
  version: string
  latestVersion: string | null
  updateAvailable: boolean
}

export interface Status {
  version: string
  status: string
  uptime: string
  api: string
  enrichment?: {enabled: boolean; provider: string; model: string | null; reachable: boolean | null}
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

export interface IntakeResult {
  newCount: number
  skippedCount: number
  replacedCount?: number
  files?: unknown
}

export interface PackImportResult {
  imported: number
  skipped: number
  packId: string
  name: string
  version: string
}
