/**
 * The wire shapes of the HTTP API (spec sections 2 and 4, decisions.md), for clients. This file
 * imports nothing: the client library must load anywhere `fetch` exists. The server checks at
 * build time that what it sends matches these (src/faces/server/contract-types.ts).
 */

export type MemoryType = 'observation' | 'insight' | 'procedure' | 'heuristic'

export interface StoreRequest {
  repo: string
  content: string
  type: MemoryType
  tags?: string[]
  /** 0.0 to 1.0, default 0.5. */
  importance?: number
  /** Default "claude-session". */
  source?: string
  sessionId?: string | null
  /** Id of the memory this one replaces. */
  supersedes?: string | null
}

/**
 * What a store came to. Stored: `success` and `id`. Duplicate: `duplicateId` (nothing stored).
 * Rejected by the secret scanner or content gate: `error` (= `reason`, nothing stored).
 */
export interface StoreOutcome {
  success: boolean
  id?: string
  duplicateId?: string
  error?: string
  reason?: string
}

export interface RecallItem {
  id: string
  repoId: string
  /** Capitalized: Observation, Insight, Procedure, Heuristic. */
  type: string
  content: string
  oneLiner: string | null
  tags: string[]
  importance: number
  /** 0..1 */
  score: number
  createdAt: string
  ageDays: number | null
  stalenessWarning: string | null
}

export interface MemoryEntry {
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
  links: Array<{targetId: string; relation: string}>
}

export interface EditRequest {
  content?: string
  tags?: string[]
  importance?: number
}

/** A content edit gives the new `id` and the old one in `superseded`; a metadata edit `superseded: null`. */
export interface EditOutcome {
  success: boolean
  id?: string
  superseded?: string | null
  duplicateId?: string
  error?: string
  reason?: string
}

export interface ChainItem {
  id: string
  content: string
  createdAt: string
}

export interface Stats {
  repo: string
  summary: string
  counts: Record<MemoryType, number>
  total: number
}

export interface BrowsePage {
  repo: string
  skip: number
  take: number
  /** Total matching, not the page size. */
  count: number
  entries: MemoryEntry[]
}

export interface ContextPreview {
  repo: string
  maxTokens: number
  context: string
  estimatedTokens: number
  layers: Array<{id: string; name: string; type: string}>
  crossRepoScope: string[]
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
  repo: string
  nodes: GraphNode[]
  edges: GraphEdge[]
}

export interface IntakeResult {
  /** Memories written: new seeds and new versions of changed ones. */
  newCount: number
  /** Seeds that wrote nothing: unchanged, duplicates, rejected by the secret scanner. */
  skippedCount: number
  /** Of newCount, those that superseded an older seed. */
  replacedCount?: number
  files?: Array<{path: string; seeds: number; newCount: number; skippedCount: number; replacedCount: number; removedCount: number; rejectedCount: number}>
}

export interface ConsolidateResult {
  candidates: number
  insightsCreated: number
  insightsBoosted: number
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
  /** Enrichment through a local language-model runtime (off by default). */
  enrichment?: EnrichmentStatus
}

export interface EnrichmentStatus {
  enabled: boolean
  provider: 'ollama' | 'openai' | 'heuristic'
  model: string | null
  /** Whether the configured runtime answers; false when enrichment is off. */
  reachable: boolean
}

export interface OperationUsage {
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
  operations: OperationUsage[]
}

export interface DailyUsage {
  /** YYYY-MM-DD (UTC). */
  date: string
  count: number
  byOperation: Record<string, number>
}

export interface UsageTimeseries {
  repo: string
  days: number
  buckets: DailyUsage[]
}

export interface UsageHourly {
  repo: string
  days: number
  /** `hour` is the start of the UTC hour, e.g. 2026-03-01T09:00:00.000Z. */
  buckets: Array<{hour: string; count: number}>
}

export interface QualityIssue {
  kind: 'fizzle' | 'dead' | 'stale' | 'no-feedback' | 'missing-one-liner' | 'empty'
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
  /** 0..100. */
  score: number
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
  recent: MemoryEntry[]
  quality: Quality
  usage: {days: number; total: number; operations: OperationUsage[]; timeseries: DailyUsage[]}
  tasks: ScheduledTask[]
}

export interface EnrichOutcome {
  id: string
  enriched: boolean
  oneLiner: string | null
  summary: string | null
  foresight: string | null
  entities: string[]
  provider: 'ollama' | 'openai' | 'heuristic'
}

export interface ErrorBody {
  error: string
  code: string
  hint?: string
  details?: unknown
  required?: string
}

// ---- sharing: packs, layers, links ---------------------------------------------------------

export interface PackImportResult {
  imported: number
  /** Duplicates and entries the secret scanner or content gate flagged: not written. */
  skipped: number
  packId: string
  name: string
  version: string
}

export interface Layer {
  id: string
  name: string
  /** `local` is the repo itself (read-write); `shared` and `base` are mounted, read-only. */
  type: 'local' | 'shared' | 'base'
  /** Null for a layer mounted without a source. */
  source: string | null
  mountedAt: string | null
  lastSyncAt: string | null
  memoryCount: number
}

export interface LayerSync {
  layerId: string
  added: number
  updated: number
  removed: number
}

export interface RepoLink {
  id: string
  from: string
  to: string
  note: string
  createdAt: string
}
