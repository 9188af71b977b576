import type {FastifyInstance} from 'fastify'
import {z} from 'zod'
import {consolidate} from '../../../operations/consolidate.js'
import type {MemContext} from '../../../engines/context.js'
import {RepoRef} from '../../../model/schemas.js'
import {MemError} from '../../../model/errors.js'
import {STAGE_NAMES} from '../../../engines/maintenance/types.js'
import type {MaintenanceRuns} from '../maintenance-runs.js'
import type {Scheduler} from '../scheduler.js'
import type {RouteTable} from '../route.js'
import {ErrorResponse} from '../schemas.js'

const Iso = z.string().describe('ISO 8601 UTC timestamp')
const ConsolidateQuery = z.object({
  repo: RepoRef,
  dry_run: z.boolean().optional().describe('Report the candidate clusters and write nothing (default false).'),
})
const RepoQuery = z.object({repo: RepoRef})
const RunParams = z.object({id: z.string().describe('Run id from a 202 answer.')})

const Cluster = z.strictObject({
  memberIds: z.array(z.string()),
  tags: z.array(z.string()),
  oneLiner: z.string(),
  content: z.string(),
  importance: z.number(),
  outcome: z.enum(['create', 'boost', 'restates']),
  target: z.string().optional(),
})
export const ConsolidateResponse = z.strictObject({
  candidates: z.number().int().describe('Clusters considered, not memories written'),
  insightsCreated: z.number().int(),
  insightsBoosted: z.number().int(),
  clusters: z.array(Cluster).optional().describe('Only with dry_run: each candidate and what a run would do'),
})
export const MaintenanceReportSchema = z
  .strictObject({
    repoId: z.string(),
    stages: z.array(
      z.strictObject({
        name: z.enum(STAGE_NAMES),
        affected: z.number().int(),
        durationMs: z.number().int(),
        error: z.string().optional().describe('Set when the stage failed; the others still ran'),
      }),
    ),
  })
  .meta({id: 'MaintenanceReport'})
export const MaintenanceAccepted = z.strictObject({
  runId: z.string(),
  repo: z.string(),
  status: z.literal('running'),
  startedAt: Iso,
  poll: z.string().describe('/api/maintenance/runs/<runId>'),
})
export const MaintenanceRunSchema = z.strictObject({
  runId: z.string(),
  repo: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  startedAt: Iso,
  completedAt: Iso.optional(),
  report: MaintenanceReportSchema.optional(),
  error: z.string().optional(),
})
const TaskStatus = z.enum(['idle', 'running', 'ok', 'failed', 'disabled'])
export const ScheduledTasksResponse = z.strictObject({
  tasks: z.array(
    z.strictObject({
      id: z.string(),
      type: z.enum(['maintenance', 'update-check']),
      repo: z.string().optional(),
      intervalHours: z.number(),
      lastRunAt: Iso.nullable(),
      nextRunAt: Iso.nullable(),
      status: TaskStatus,
      lastError: z.string().nullable(),
    }),
  ),
})

const ERRORS = {400: {description: 'Invalid input', schema: ErrorResponse}}
const CONFLICT = {409: {description: 'Another process is running a maintenance pass on the repo', schema: ErrorResponse}}

/** Consolidation, maintenance runs (admin scope, see route.ts) and the scheduler's task list. */
export function maintenanceRoutes(app: FastifyInstance, routes: RouteTable, ctx: MemContext, runs: MaintenanceRuns, scheduler?: Scheduler): void {
  routes.add(app, {
    method: 'POST',
    url: '/api/mem/consolidate',
    operationId: 'consolidate',
    tag: 'operations',
    summary: 'Group related observations into insights',
    description: '`candidates` counts clusters considered; a cluster that would only restate one of its observations is counted and skipped; a converged corpus answers all zeros.',
    query: ConsolidateQuery,
    responses: {200: {description: 'Counts', schema: ConsolidateResponse}, ...ERRORS, ...CONFLICT},
    handler: async (req) => consolidate(ctx, {repo: req.query.repo, dryRun: req.query.dry_run ?? false}),
  })

  routes.add(app, {
    method: 'POST',
    url: '/api/maintenance',
    operationId: 'maintenance',
    tag: 'operations',
    summary: 'Run the maintenance pipeline (admin)',
    description: `Stages: ${STAGE_NAMES.join(', ')}. 200 with the report when the pass finishes within the window (30 s), else 202 with a run to poll. One pass per repo: a retry gets a new run id reporting the same pass.`,
    query: RepoQuery,
    responses: {
      200: {description: 'The report', schema: MaintenanceReportSchema},
      202: {description: 'Still running: poll the run', schema: MaintenanceAccepted},
      ...ERRORS,
      ...CONFLICT,
    },
    handler: async (req, reply) => {
      const answer = await runs.post(req.query.repo)
      return reply.code(answer.status).send(answer.body)
    },
  })

  routes.add(app, {
    method: 'GET',
    url: '/api/maintenance/runs/:id',
    operationId: 'maintenanceRun',
    tag: 'operations',
    summary: 'A maintenance run (admin)',
    description: 'Pollable while running and for one hour after it finished; then 404. A failed run carries `error` instead of `report`.',
    params: RunParams,
    responses: {200: {description: 'The run', schema: MaintenanceRunSchema}, 404: {description: 'Unknown or expired run id', schema: ErrorResponse}},
    handler: async (req) => {
      const run = runs.get(req.params.id)
      if (!run) {
        throw new MemError('not_found', `No maintenance run ${req.params.id} (unknown, or finished over an hour ago).`, {
          hint: 'Start a pass with POST /api/maintenance?repo=…',
        })
      }
      return run
    },
  })

  routes.add(app, {
    method: 'GET',
    url: '/api/mem/scheduled-tasks',
    operationId: 'scheduledTasks',
    tag: 'operations',
    summary: "The scheduler's tasks: maintenance per repo and the update check",
    responses: {200: {description: 'Tasks with last and next run', schema: ScheduledTasksResponse}},
    handler: async () => scheduler?.list() ?? {tasks: []},
  })
}
