import Fastify, {type FastifyInstance, type FastifyRequest} from 'fastify'
import type {KeyRing} from '../../config/api-keys.js'
import type {MemContext} from '../../engines/context.js'
import {mcpRoutes} from '../mcp/http.js'
import {MemError} from '../../model/errors.js'
import {parsePackBody, readBody} from './pack-body.js'
import {BODY_LIMIT_BYTES, errorHandler, notFoundHandler, type PrivatePath} from './errors.js'
import {authGuard, localGuard, teamGuard, type TeamAuth} from './guard.js'
import {openApiDocument} from './openapi.js'
import {RouteTable, validatorCompiler} from './route.js'
import {MaintenanceRuns, type RunRegistry} from './maintenance-runs.js'
import type {TaskScheduler} from './scheduler.js'
import {maintenanceRoutes} from './routes/maintenance.js'
import {operationRoutes} from './routes/operations.js'
import {InFlight} from './in-flight.js'
import {enrichmentStatus} from '../../operations/enrich.js'
import {systemRoutes} from './routes/system.js'
import {uiRoutes} from './ui.js'
import type {UpdateStatus} from './update-check.js'
import {packageInfo} from './version.js'

export interface BuildServerOptions {
  ctx: MemContext
  /** API keys; without it auth is off. */
  keys?: KeyRing
  /** Demand a key even when auth is off in config (the service is reachable beyond loopback). */
  requireAuth?: boolean
  /** Cached update check for /api/health; without it `latestVersion` is null. */
  updates?: () => UpdateStatus
  /**
   * Only loopback Host names are accepted (DNS-rebinding protection). True unless the service is
   * bound beyond loopback, which `startServer` allows only with auth on.
   */
  loopbackOnly?: boolean
  version?: string
  now?: () => number
  /** The address shown by /api/status; by default the one the server listens on. */
  address?: () => string
  /** The repository MCP tools use when a call names none and `/mcp?repo=` is not given. */
  mcpRepo?: string
  /** Which tools `POST /mcp` lists by default (the user config's mcp.tools); `?tools=` on the URL wins. */
  mcpTools?: 'lean' | 'all'
  /** The repository the service was started in: `GET /api/mem/repos` names it `current`, and the web UI opens on it. */
  currentRepo?: string
  /** Called with every internal (500) error; the client never sees its details. */
  onInternalError?: (err: unknown, req: FastifyRequest) => void
  /** Maintenance runs (shared with the scheduler); by default a registry of this server's own. */
  maintenance?: RunRegistry
  /** The scheduler whose tasks `GET /api/mem/scheduled-tasks` lists. */
  scheduler?: TaskScheduler
  /** The built web UI served under /ui (dist/ui by default; false: none, /ui answers 503). */
  uiDir?: string | false
  /** Folders of the service's own (MEM_HOME) that error messages name by a label instead. */
  privatePaths?: PrivatePath[]
  /** Team mode (docs/team.md): every request needs a team key and runs as its team; `keys` is then unused. */
  team?: TeamAuth
  /** Where every operation a request runs (a route's, an MCP tool's) is counted until it settles; by default a count of this server's own. */
  inFlight?: InFlight
}

/**
 * The HTTP API over a context: fastify with one error handler, local-service guards, bearer-key
 * auth, JSON-schema'd routes that adapt the core, and the OpenAPI document of them all.
 * Not listening yet: `startServer` listens; tests may also `inject`.
 */
export function buildServer(options: BuildServerOptions): FastifyInstance {
  const onError = errorHandler(options.onInternalError ?? (() => undefined), options.privatePaths)
  const now = options.now ?? Date.now
  const startedAt = now()
  const version = options.version ?? packageInfo().version
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    // a memory id is one path segment (URL-encoded) and carries a whole repo id
    routerOptions: {maxParamLength: 4096},
    // the JSON body of a store is data: no prototype pollution through it
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // while closing, requests already on a connection are answered normally (then stores are checkpointed)
    return503OnClosing: false,
    // a URL that is not validly percent-encoded never reaches a route: answer it like any error
    frameworkErrors: onError,
  })

  // Requests carry JSON only (spec section 1); a text/plain "simple" request from a page is refused.
  app.removeContentTypeParser('text/plain')
  // A body-less POST or DELETE sent with `Content-Type: application/json` (what many clients send
  // on every request) has no body, not an invalid one; anything else goes to fastify's own parser,
  // which keeps its prototype-poisoning checks.
  const parseJson = app.getDefaultJsonParser('error', 'error')
  const parseText = (req: FastifyRequest, text: string): unknown => {
    let out: unknown
    // the default JSON parser calls back before it returns (its type also allows a promise)
    void parseJson(req, text, (err, value) => {
      if (err) throw err
      out = value
    })
    return out
  }
  app.removeContentTypeParser('application/json')
  const packBody = (req: FastifyRequest) => (req.routeOptions.config as {packBody?: boolean} | undefined)?.packBody === true
  const limitOf = (req: FastifyRequest) => req.routeOptions.bodyLimit ?? BODY_LIMIT_BYTES
  app.addContentTypeParser('application/json', async (req: FastifyRequest, payload: NodeJS.ReadableStream) => {
    const buf = await readBody(payload, req.headers['content-length'], limitOf(req))
    if (isBlank(buf)) return undefined
    // a pack import carries up to 85 MB of base64: decoded straight from the raw body
    if (packBody(req)) return parsePackBody(buf, (text) => parseText(req, text))
    return parseText(req, buf.toString('utf8'))
  })
  // a pack import may also send the file itself
  app.addContentTypeParser('application/octet-stream', async (req: FastifyRequest, payload: NodeJS.ReadableStream) => {
    if (!packBody(req)) throw new MemError('invalid_input', 'Unsupported Content-Type: the body must be JSON.', {hint: 'Send Content-Type: application/json.'})
    return readBody(payload, req.headers['content-length'], limitOf(req))
  })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(() => (data) => JSON.stringify(data))
  app.setErrorHandler(onError)
  app.setNotFoundHandler(notFoundHandler)

  app.addHook('onRequest', localGuard({loopbackOnly: options.loopbackOnly ?? true}))
  if (options.team) {
    const guard = teamGuard(options.team)
    app.addHook('onRequest', guard.onRequest)
    app.addHook('preHandler', guard.preHandler)
  } else if (options.keys) app.addHook('onRequest', authGuard(options.keys, {required: options.requireAuth ?? false}))

  const address =
    options.address ??
    (() => {
      const a = app.server.address()
      if (!a || typeof a === 'string') return a ?? ''
      return `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`
    })

  const routes = new RouteTable()
  systemRoutes(app, routes, {
    version,
    startedAt,
    now,
    address,
    updates: options.updates ?? (() => ({latestVersion: null, updateAvailable: false})),
    enrichment: () => enrichmentStatus(options.ctx),
  })
  const inFlight = options.inFlight ?? new InFlight()
  operationRoutes(app, routes, options.ctx, {tasks: () => options.scheduler?.list().tasks ?? [], currentRepo: options.currentRepo, inFlight})
  maintenanceRoutes(app, routes, options.ctx, options.maintenance ?? new MaintenanceRuns({ctx: options.ctx}), options.scheduler)
  mcpRoutes(app, {ctx: options.ctx, version, defaultRepo: options.mcpRepo, tools: options.mcpTools, onInternalError: options.onInternalError, inFlight})
  void app.register(async (scope) => uiRoutes(scope, {dir: options.uiDir}))

  let document: Record<string, unknown> | undefined
  routes.add(app, {
    method: 'GET',
    url: '/api/openapi.json',
    operationId: 'openapi',
    tag: 'service',
    summary: 'This OpenAPI document',
    responses: {200: {description: 'OpenAPI 3.0 document'}},
    handler: async () => (document ??= openApiDocument(routes.routes, {version})),
  })
  return app
}

/** True for a body of nothing but whitespace (checked without making a string of it). */
function isBlank(buf: Buffer): boolean {
  for (const b of buf) if (b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return false
  return true
}
