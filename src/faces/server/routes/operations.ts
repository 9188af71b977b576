import type {FastifyInstance} from 'fastify'
import {z} from 'zod'
import type {MemContext} from '../../../engines/context.js'
import {ErrorResponse} from '../../../model/shapes/common.js'
import type {ScheduledTask} from '../../../model/shapes/operations.js'
import {OPERATIONS} from '../../../operations/catalog/index.js'
import {invoke, type OpDef, outcomeOf} from '../../../operations/define.js'
import type {InFlight} from '../in-flight.js'
import type {RouteResponse, RouteTable} from '../route.js'
import {REQUEST_ID_HEADER, requestIdOf, withRequestId} from '../../../storage/request-ids.js'

export interface OperationRouteOptions {
  tasks: () => ScheduledTask[]
  /** The repository the service was started in (GET /api/mem/repos answers it as `current`). */
  currentRepo?: string
  /** Where each request's operation is counted while it runs (a closing server waits for them). */
  inFlight: InFlight
}

/**
 * Every declared operation with an HTTP binding, as a route: the declaration gives the method,
 * path, schemas (for validation, the route's JSON schema and OpenAPI), the scope, and the status of
 * each outcome. The handler gathers the input from the request, runs the operation through
 * `invoke` (usage counted as declared), and answers the result as JSON or as the declared reply.
 */
export function operationRoutes(app: FastifyInstance, routes: RouteTable, ctx: MemContext, options: OperationRouteOptions): void {
  for (const op of OPERATIONS) if (op.http) addOperation(app, routes, ctx, op, options)
}

function addOperation(app: FastifyInstance, routes: RouteTable, ctx: MemContext, op: OpDef<any, any, any>, options: OperationRouteOptions): void {
  const http = op.http!
  const readsQuery = http.method === 'GET' || http.method === 'DELETE'
  const query = http.query ?? (readsQuery && !http.params ? (op.input as z.ZodObject) : undefined)
  const body = http.body ?? (!readsQuery && !http.query ? op.input : undefined)
  const success = http.status ?? 200
  const responses: Record<number, RouteResponse> = {
    [success]: http.reply ? {description: http.reply.description, contentType: http.reply.contentType.split(';')[0], schema: http.reply.contentType.startsWith('text/') ? z.string() : undefined} : {description: http.answer ?? op.summary, schema: op.output},
    400: {description: 'Invalid input', schema: ErrorResponse},
  }
  for (const o of op.outcomes ?? []) responses[o.status] ??= {description: o.answer ?? (o.failed ? 'Refused: nothing written' : 'Answered'), schema: op.output}
  for (const [status, description] of Object.entries(http.errors ?? {})) responses[Number(status)] ??= {description, schema: ErrorResponse}
  // what the server adds to an operation: the scheduler's tasks (portal), the repository it was started in (repos)
  const runOptions = op.name === 'portal' ? {tasks: options.tasks} : op.name === 'repos' ? {current: options.currentRepo} : undefined

  for (const path of [{path: http.path, name: op.name, summary: op.summary}, ...(http.aliases ?? [])]) {
    routes.add(app, {
      method: http.method,
      url: path.path,
      operationId: path.name,
      summary: path.summary,
      description: op.description,
      tag: http.tag,
      access: op.access,
      query,
      params: http.params,
      body,
      bodyLimit: http.bodyLimit,
      packBody: http.packBody,
      responses,
      handler: async (req, reply) => {
        const parts = {query: (req.query ?? {}) as Record<string, unknown>, params: (req.params ?? {}) as Record<string, unknown>, body: req.body as unknown}
        const input = http.input ? http.input(parts) : defaultInput(parts, query !== undefined && body === undefined)
        // a write's request id (Idempotency-Key): on a team server the same write sent again is written once
        const result = await withRequestId(op.access === 'write' ? requestIdOf(req.headers[REQUEST_ID_HEADER]) : undefined, () => options.inFlight.track(invoke(ctx, op, input, runOptions)))
        const {status} = outcomeOf(op, result)
        if (http.reply) {
          const headers = http.reply.headers?.(result) ?? {}
          const payload = http.reply.body(result)
          return reply
            .code(status)
            .headers(headers)
            .type(http.reply.contentType)
            .send(typeof payload === 'string' ? payload : Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength))
        }
        return reply.code(status).send(result)
      },
    })
  }
}

/**
 * The operation's input from the request: the query (a GET, or a POST declared with a query) or the
 * body, with the path parameters. A body that is not an object goes to the operation as it came, so
 * its validation names what is wrong ("expected a JSON object, got an array").
 */
function defaultInput(parts: {query: Record<string, unknown>; params: Record<string, unknown>; body: unknown}, fromQuery: boolean): unknown {
  const hasParams = Object.keys(parts.params).length > 0
  if (fromQuery) return {...parts.query, ...parts.params}
  const body = parts.body
  if (!hasParams) return body
  if (body === undefined || body === null) return {...parts.params}
  if (typeof body !== 'object' || Array.isArray(body)) return body
  return {...(body as object), ...parts.params}
}
