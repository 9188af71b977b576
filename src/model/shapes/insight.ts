/** Shapes of usage statistics, the quality report, the portal (dashboard) data and enrichment. */
import {z} from 'zod'
import {MEMORY_TYPES} from '../memory.js'
import {Iso} from './common.js'
import {MemoryEntry} from './memories.js'
import {ScheduledTask} from './operations.js'

export const OperationUsage = z
  .strictObject({
    operation: z.string().describe('store, recall, context, get, edit, forget, feedback, browse, stats, history, consolidate, maintain, enrich, …'),
    count: z.number().int(),
    avgDurationMs: z.number(),
    p95DurationMs: z.number().describe('Upper bound of the histogram bin holding the 95th percentile, capped by the slowest call'),
    avgResults: z.number(),
  })
  .meta({id: 'OperationUsage'})
export type OperationUsage = z.output<typeof OperationUsage>
export const UsageResult = z.strictObject({
  repo: z.string(),
  days: z.number().int(),
  from: Iso.describe('Start of the first UTC day of the window'),
  to: Iso,
  total: z.number().int(),
  operations: z.array(OperationUsage),
})
export type UsageResult = z.output<typeof UsageResult>
export const DailyBucket = z
  .strictObject({date: z.string().describe('YYYY-MM-DD (UTC)'), count: z.number().int(), byOperation: z.record(z.string(), z.number().int())})
  .meta({id: 'DailyUsage'})
export type DailyBucket = z.output<typeof DailyBucket>
export const UsageTimeseries = z.strictObject({repo: z.string(), days: z.number().int(), buckets: z.array(DailyBucket)})
export type UsageTimeseries = z.output<typeof UsageTimeseries>
export const UsageHourly = z.strictObject({
  repo: z.string(),
  days: z.number().int(),
  buckets: z.array(z.strictObject({hour: Iso.describe('Start of the UTC hour'), count: z.number().int()})),
})
export type UsageHourly = z.output<typeof UsageHourly>

export const QUALITY_ISSUE_KINDS = ['fizzle', 'dead', 'stale', 'conflict', 'no-feedback', 'missing-one-liner', 'empty', 'unused'] as const
export const QualityIssue = z.strictObject({
  kind: z.enum(QUALITY_ISSUE_KINDS),
  severity: z.enum(['info', 'warning', 'critical']),
  count: z.number().int(),
  exampleIds: z.array(z.string()).max(5).describe('Up to five ids, the most telling first'),
  advice: z.string(),
})
export type QualityIssue = z.output<typeof QualityIssue>
export const QualityReport = z
  .strictObject({
    repo: z.string(),
    totalMemories: z.number().int(),
    recalled: z.number().int(),
    echoRatio: z.number().min(0).max(1),
    fizzleRatio: z.number().min(0).max(1),
    staleCount: z.number().int(),
    deadCount: z.number().int(),
    issues: z.array(QualityIssue),
    score: z
      .number()
      .int()
      .min(0)
      .max(100)
      .nullable()
      .describe('0..100; null while there is nothing to judge: no memories, or none recalled yet (the `empty` or `unused` issue says so)'),
    /**
     * Prompt-time injections by the agent hooks (issue 18): memories injected, injections in all,
     * used / unused reports since each was first injected, and the precision used / (used + unused)
     * (null before any report).
     */
    injection: z.strictObject({
      injected: z.number().int(),
      injections: z.number().int(),
      used: z.number().int(),
      unused: z.number().int(),
      precision: z.number().min(0).max(1).nullable(),
    }),
  })
  .meta({id: 'QualityReport'})
export type QualityReport = z.output<typeof QualityReport>

export const PortalResult = z.strictObject({
  repo: z.string(),
  repoId: z.string(),
  generatedAt: Iso,
  counts: z.strictObject(Object.fromEntries(MEMORY_TYPES.map((t) => [t, z.number().int()])) as Record<(typeof MEMORY_TYPES)[number], z.ZodNumber>),
  total: z.number().int(),
  recent: z.array(MemoryEntry).max(10),
  quality: QualityReport,
  usage: z.strictObject({days: z.number().int(), total: z.number().int(), operations: z.array(OperationUsage), timeseries: z.array(DailyBucket)}),
  tasks: z.array(ScheduledTask),
})
export type PortalResult = z.output<typeof PortalResult>

export const ENRICH_PROVIDERS = ['ollama', 'openai', 'heuristic'] as const
export type EnrichProviderName = (typeof ENRICH_PROVIDERS)[number]
export const EnrichResult = z.strictObject({
  id: z.string(),
  enriched: z.boolean().describe('True when new supplements were stored'),
  oneLiner: z.string().nullable(),
  summary: z.string().nullable(),
  foresight: z.string().nullable().describe('When this memory will matter next'),
  entities: z.array(z.string()),
  provider: z.enum(ENRICH_PROVIDERS),
})
export type EnrichResult = z.output<typeof EnrichResult>
export const EnrichmentStatus = z
  .strictObject({
    enabled: z.boolean(),
    provider: z.enum(ENRICH_PROVIDERS),
    model: z.string().nullable(),
    reachable: z.boolean().describe('Whether the configured runtime answers its health endpoint; false when enrichment is off'),
  })
  .describe('Enrichment through a local language-model runtime (off by default: the heuristic answers)')
export type EnrichmentStatus = z.output<typeof EnrichmentStatus>
