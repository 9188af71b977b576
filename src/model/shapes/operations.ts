/** Shapes of intake, the graph, the markdown export, consolidation and maintenance. */
import {z} from 'zod'
import {MEMORY_TYPES} from '../memory.js'
import {Iso} from './common.js'
import {STAGE_NAMES} from '../names.js'

export const IntakeFile = z.strictObject({
  path: z.string().describe('Repo-relative path of the file'),
  seeds: z.number().int().describe('Seeds the file gave this run'),
  newCount: z.number().int(),
  skippedCount: z.number().int(),
  replacedCount: z.number().int(),
  removedCount: z.number().int().describe('Seeds of lines (or files) that are gone, forgotten'),
  rejectedCount: z.number().int().describe('Seeds the secret scanner or content gate refused (also in skippedCount)'),
  leftOut: z.number().int().optional().describe('Seeds past the most a file gives (200 of an agent instruction file, 60 of another), not read: present only when some were'),
})
export type IntakeFileReport = z.output<typeof IntakeFile>
export const IntakeResult = z.strictObject({
  newCount: z.number().int().describe('Memories written: new seeds and new versions of changed ones'),
  skippedCount: z.number().int().describe('Seeds that wrote nothing: unchanged, duplicates, rejected'),
  replacedCount: z.number().int().describe('Of newCount, those that superseded an older seed'),
  files: z.array(IntakeFile),
  refused: z
    .array(z.strictObject({path: z.string().describe('Repo-relative path'), reason: z.string()}))
    .describe('Project files not read: their real path leaves the repository (a link) or is a system file'),
})
export type IntakeResult = z.output<typeof IntakeResult>

export const GraphNode = z.strictObject({
  id: z.string(),
  type: z.enum(MEMORY_TYPES),
  label: z.string().describe('The one-liner, else the first 80 characters'),
  importance: z.number(),
  tags: z.array(z.string()),
})
export type GraphNode = z.output<typeof GraphNode>
export const GraphEdge = z.strictObject({
  from: z.string().describe('Memory id'),
  to: z.string().describe('Memory id'),
  relation: z.string().describe('`derived` (insight → observation), `supersedes` (new → old version), or a memory-link relation'),
})
export type GraphEdge = z.output<typeof GraphEdge>
export const GraphResult = z.strictObject({repo: z.string(), nodes: z.array(GraphNode), edges: z.array(GraphEdge)})
export type GraphResult = z.output<typeof GraphResult>

/** The markdown export as data (MCP and the CLI's --json); HTTP answers the markdown itself. */
export const ExportResult = z.strictObject({repo: z.string(), count: z.number().int(), markdown: z.string()})
export type ExportResult = z.output<typeof ExportResult>

export const CandidateCluster = z.strictObject({
  id: z.string().describe('Stable while the members stay the same; pass it to apply only this cluster'),
  memberIds: z.array(z.string()),
  members: z.array(z.strictObject({id: z.string(), text: z.string()})).describe("Each member's one-line text"),
  tags: z.array(z.string()),
  oneLiner: z.string(),
  content: z.string(),
  importance: z.number(),
  outcome: z.enum(['create', 'boost', 'restates']),
  target: z.string().optional().describe('The insight boosted (outcome boost) or the observation restated (outcome restates)'),
})
export type CandidateCluster = z.output<typeof CandidateCluster>
export type ClusterOutcome = CandidateCluster['outcome']
export const ConsolidateResult = z.strictObject({
  candidates: z.number().int().describe('Clusters considered, not memories written'),
  insightsCreated: z.number().int(),
  insightsBoosted: z.number().int(),
  clusters: z.array(CandidateCluster).optional().describe('Only with dry_run: each candidate and what a run would do'),
})
export type ConsolidateResult = z.output<typeof ConsolidateResult>

export {STAGE_NAMES, type StageName} from '../names.js'

export const StageReport = z.strictObject({
  name: z.enum(STAGE_NAMES),
  affected: z.number().int().describe('Memories the stage changed (forgot, decayed, purged, enriched; insights created or boosted)'),
  durationMs: z.number().int(),
  error: z.string().optional().describe('Set when the stage failed; the others still ran'),
})
export type StageReport = z.output<typeof StageReport>
export const MaintenanceReport = z.strictObject({repoId: z.string(), stages: z.array(StageReport)}).meta({id: 'MaintenanceReport'})
export type MaintenanceReport = z.output<typeof MaintenanceReport>

export const MaintenanceAccepted = z.strictObject({
  runId: z.string(),
  repo: z.string(),
  status: z.literal('running'),
  startedAt: Iso,
  poll: z.string().describe('/api/maintenance/runs/<runId>'),
})
export type MaintenanceAccepted = z.output<typeof MaintenanceAccepted>
export const MaintenanceRun = z.strictObject({
  runId: z.string(),
  repo: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  startedAt: Iso,
  completedAt: Iso.optional(),
  report: MaintenanceReport.optional(),
  error: z.string().optional(),
})
export type MaintenanceRun = z.output<typeof MaintenanceRun>

export const TASK_STATUSES = ['idle', 'running', 'ok', 'failed', 'disabled'] as const
export type TaskStatus = (typeof TASK_STATUSES)[number]
/** One task of the server's scheduler (`GET /api/mem/scheduled-tasks`, the portal). */
export const ScheduledTask = z.strictObject({
  id: z.string(),
  type: z.enum(['maintenance', 'update-check']),
  repo: z.string().optional(),
  intervalHours: z.number(),
  lastRunAt: Iso.nullable(),
  nextRunAt: Iso.nullable(),
  status: z.enum(TASK_STATUSES),
  lastError: z.string().nullable(),
  result: z.string().optional().describe('What the last run found, in words (the update check: "no newer version (latest 0.1.0)", "version 0.2.0 available", "not published yet: …"); absent before one did'),
})
export type ScheduledTask = z.output<typeof ScheduledTask>
export const ScheduledTasksResult = z.strictObject({tasks: z.array(ScheduledTask)})
export type ScheduledTasksResult = z.output<typeof ScheduledTasksResult>
