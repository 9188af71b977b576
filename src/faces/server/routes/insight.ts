import type {FastifyInstance} from 'fastify'
import {z} from 'zod'
import {enrich, EnrichInput} from '../../../operations/enrich.js'
import type {MemContext} from '../../../engines/context.js'
import {portal, PortalInput} from '../../../operations/portal.js'
import {quality, QualityInput} from '../../../operations/quality.js'
import {usage, usageHourly, UsageHourlyInput, UsageInput, usageTimeseries} from '../../../operations/usage.js'
import {MEMORY_TYPES} from '../../../model/memory.js'
import type {ScheduledTask} from '../scheduler.js'
import type {RouteTable} from '../route.js'
import {ErrorResponse, MemoryEntry} from '../schemas.js'
import {ScheduledTasksResponse} from './maintenance.js'

const Iso = z.string().describe('ISO 8601 UTC timestamp')
const TAG = 'insight'
const ERRORS = {400: {description: 'Invalid input', schema: ErrorResponse}}

export const OperationUsageSchema = z
  .strictObject({
    operation: z.string().describe('store, recall, context, get, edit, forget, feedback, browse, stats, history, consolidate, maintain, enrich, …'),
    count: z.number().int(),
    avgDurationMs: z.number(),
    p95DurationMs: z.number().describe('Upper bound of the histogram bin holding the 95th percentile, capped by the slowest call'),
    avgResults: z.number(),
  })
  .meta({id: 'OperationUsage'})
export const UsageResponse = z.strictObject({
  repo: z.string(),
  days: z.number().int(),
  from: Iso.describe('Start of the first UTC day of the window'),
  to: Iso,
  total: z.number().int(),
  operations: z.array(OperationUsageSchema),
})
export const DailyBucketSchema = z
  .strictObject({date: z.string().describe('YYYY-MM-DD (UTC)'), count: z.number().int(), byOperation: z.record(z.string(), z.number().int())})
  .meta({id: 'DailyUsage'})
export const UsageTimeseriesResponse = z.strictObject({repo: z.string(), days: z.number().int(), buckets: z.array(DailyBucketSchema)})
export const UsageHourlyResponse = z.strictObject({
  repo: z.string(),
  days: z.number().int(),
  buckets: z.array(z.strictObject({hour: Iso.describe('Start of the UTC hour'), count: z.number().int()})),
})
export const QualityResponse = z
  .strictObject({
    repo: z.string(),
    totalMemories: z.number().int(),
    recalled: z.number().int(),
    echoRatio: z.number().min(0).max(1),
    fizzleRatio: z.number().min(0).max(1),
    staleCount: z.number().int(),
    deadCount: z.number().int(),
    issues: z.array(
      z.strictObject({
        kind: z.enum(['fizzle', 'dead', 'stale', 'no-feedback', 'missing-one-liner', 'empty']),
        severity: z.enum(['info', 'warning', 'critical']),
        count: z.number().int(),
        exampleIds: z.array(z.string()).max(5),
        advice: z.string(),
      }),
    ),
    score: z.number().int().min(0).max(100),
  })
  .meta({id: 'QualityReport'})
export const PortalResponse = z.strictObject({
  repo: z.string(),
  repoId: z.string(),
  generatedAt: Iso,
  counts: z.strictObject(Object.fromEntries(MEMORY_TYPES.map((t) => [t, z.number().int()])) as Record<(typeof MEMORY_TYPES)[number], z.ZodNumber>),
  total: z.number().int(),
  recent: z.array(MemoryEntry).max(10),
  quality: QualityResponse,
  usage: z.strictObject({days: z.number().int(), total: z.number().int(), operations: z.array(OperationUsageSchema), timeseries: z.array(DailyBucketSchema)}),
  tasks: ScheduledTasksResponse.shape.tasks,
})
export const EnrichResponse = z.strictObject({
  id: z.string(),
  enriched: z.boolean().describe('True when new supplements were stored'),
  oneLiner: z.string().nullable(),
  summary: z.string().nullable(),
  foresight: z.string().nullable().describe('When this memory will matter next'),
  entities: z.array(z.string()),
  provider: z.enum(['ollama', 'openai', 'heuristic']),
})

/** Usage statistics, the quality report, the portal (dashboard) data and enrichment. */
export function insightRoutes(app: FastifyInstance, routes: RouteTable, ctx: MemContext, options: {tasks: () => ScheduledTask[]}): void {
  routes.add(app, {
    method: 'GET',
    url: '/api/mem/usage',
    operationId: 'usage',
    tag: TAG,
    summary: 'Calls per operation over the last `days` UTC days (default 30)',
    query: UsageInput,
    responses: {200: {description: 'Usage by operation, most called first', schema: UsageResponse}, ...ERRORS},
    handler: async (req) => usage(ctx, req.query),
  })

  routes.add(app, {
    method: 'GET',
    url: '/api/mem/usage/timeseries',
    operationId: 'usageTimeseries',
    tag: TAG,
    summary: 'Calls per UTC day (every day present, zeros included)',
    query: UsageInput,
    responses: {200: {description: 'Daily buckets, oldest first', schema: UsageTimeseriesResponse}, ...ERRORS},
    handler: async (req) => usageTimeseries(ctx, req.query),
  })

  routes.add(app, {
    method: 'GET',
    url: '/api/mem/usage/hourly',
    operationId: 'usageHourly',
    tag: TAG,
    summary: 'Calls per UTC hour over the last `days` days (default 7, at most 31)',
    query: UsageHourlyInput,
    responses: {200: {description: 'Hourly buckets, oldest first', schema: UsageHourlyResponse}, ...ERRORS},
    handler: async (req) => usageHourly(ctx, req.query),
  })

  routes.add(app, {
    method: 'GET',
    url: '/api/mem/quality',
    operationId: 'quality',
    tag: TAG,
    summary: 'Recall quality: echo and fizzle ratios, stale and dead memories, issues with advice, a score',
    query: QualityInput,
    responses: {200: {description: 'The quality report', schema: QualityResponse}, ...ERRORS},
    handler: async (req) => quality(ctx, req.query),
  })

  routes.add(app, {
    method: 'GET',
    url: '/api/mem/portal',
    operationId: 'portal',
    tag: TAG,
    summary: "The web UI dashboard's data in one call",
    description: 'Counts, the ten newest memories, the quality report, 30 days of usage and the scheduled tasks (this repo\'s and the global ones).',
    query: PortalInput,
    responses: {200: {description: 'Dashboard data', schema: PortalResponse}, ...ERRORS},
    handler: async (req) => portal(ctx, req.query, {tasks: options.tasks}),
  })

  routes.add(app, {
    method: 'POST',
    url: '/api/mem/enrich',
    operationId: 'enrich',
    tag: TAG,
    summary: 'Write a one-liner, summary, foresight hint and entities for a memory',
    description:
      'Through the configured local language-model runtime (Ollama or OpenAI-compatible), else the deterministic heuristic (`provider: "heuristic"`). The answer is sanitized and secret-scanned; the memory\'s content never changes. A runtime that times out or fails answers 503 and leaves the memory unchanged.',
    body: EnrichInput,
    responses: {
      200: {description: 'The supplements', schema: EnrichResponse},
      ...ERRORS,
      404: {description: 'No such memory', schema: ErrorResponse},
      409: {description: 'The memory is superseded or forgotten', schema: ErrorResponse},
      503: {description: 'The runtime timed out or failed; the memory is unchanged', schema: ErrorResponse},
    },
    handler: async (req) => enrich(ctx, req.body),
  })
}
