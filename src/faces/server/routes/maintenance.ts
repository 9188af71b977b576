import type {FastifyInstance} from 'fastify'
import {z} from 'zod'
import type {MemContext} from '../../../engines/context.js'
import {RepoRef} from '../../../model/schemas.js'
import {MemError} from '../../../model/errors.js'
import {MaintenanceAccepted, MaintenanceReport, MaintenanceRun, ScheduledTasksResult, STAGE_NAMES} from '../../../model/shapes/operations.js'
import type {RunRegistry} from '../maintenance-runs.js'
import type {TaskScheduler} from '../scheduler.js'
import type {RouteTable} from '../route.js'
import {ErrorResponse} from '../../../model/shapes/common.js'

const RepoQuery = z.object({repo: RepoRef})
const RunParams = z.object({id: z.string().describe('Run id from a 202 answer.')})

const ERRORS = {400: {description: 'Invalid input', schema: ErrorResponse}}
const CONFLICT = {409: {description: 'Another process is running a maintenance pass on the repo', schema: ErrorResponse}}

/** Maintenance runs (admin scope, see route.ts) and the scheduler's task list: the server's own routes. */
export function maintenanceRoutes(app: FastifyInstance, routes: RouteTable, ctx: MemContext, runs: RunRegistry, scheduler?: TaskScheduler): void {
  routes.add(app, {
    method: 'POST',
    url: '/api/maintenance',
    operationId: 'maintenance',
    access: 'admin',
    tag: 'operations',
    summary: 'Run the maintenance pipeline (admin)',
    description: `Stages: ${STAGE_NAMES.join(', ')}. 200 with the report when the pass finishes within the window (30 s), else 202 with a run to poll. One pass per repo: a retry gets a new run id reporting the same pass.`,
    query: RepoQuery,
    responses: {
      200: {description: 'The report', schema: MaintenanceReport},
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
    access: 'admin',
    tag: 'operations',
    summary: 'A maintenance run (admin)',
    description: 'Pollable while running and for one hour after it finished; then 404. A failed run carries `error` instead of `report`.',
    params: RunParams,
    responses: {200: {description: 'The run', schema: MaintenanceRun}, 404: {description: 'Unknown or expired run id', schema: ErrorResponse}},
    handler: async (req) => {
      const run = await runs.get(req.params.id)
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
    responses: {200: {description: 'Tasks with last and next run', schema: ScheduledTasksResult}},
    handler: async () => scheduler?.list() ?? {tasks: []},
  })
}
