import type {FastifyReply, FastifyRequest} from 'fastify'
import type {KeyRing} from '../../config/api-keys.js'
import {errorBody, MemError} from '../../model/errors.js'
import {MEMORY_ID_PATTERN, repoIdOf} from '../../model/schemas.js'
import {REPO_HEADER} from '../../model/inputs.js'
import {type Access, requiredAccess} from './route.js'
import type {TeamPrincipal} from '../../operations/team.js'
import type {ScheduledTask} from '../../operations/portal.js'
import type {RunRegistry} from './maintenance-runs.js'
import type {TaskScheduler} from './scheduler.js'

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]'])

/** True for a loopback host name or address (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '')
  return LOOPBACK_NAMES.has(h) || /^127(?:\.\d{1,3}){3}$/.test(h) || h === '0:0:0:0:0:0:0:1' || h.endsWith('.localhost') || h === 'localhost'
}

/** The host name of a Host header value (`name:port`, `[v6]:port`), lower-cased. */
export function hostName(header: string): string {
  const h = header.trim().toLowerCase()
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1)
  const colon = h.lastIndexOf(':')
  return colon >= 0 ? h.slice(0, colon) : h
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Whether an Origin header names a loopback origin (`http://localhost:5173`); `null` and junk do not. */
function isLoopbackOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return false
  try {
    return isLoopback(new URL(origin).hostname)
  } catch {
    return false
  }
}

/**
 * What a browser page cannot get around, for a service on loopback:
 * - a Host that is not a loopback name is refused, so a DNS-rebinding page (evil.example resolving
 *   to 127.0.0.1) cannot talk to the service even though the browser thinks it is same-origin;
 * - a state-changing request whose Origin is not this service's own origin is refused, so a page
 *   elsewhere cannot store or delete through a "simple" cross-site POST (no preflight needed);
 * - so is one a browser marks `Sec-Fetch-Site: cross-site` or `same-site` unless its Origin is a
 *   loopback one (which the Origin rule then checks): a browser or an extension that drops Origin
 *   still sends it. `same-origin` and `none` (typed by the user) pass; without it, Origin decides.
 * No CORS headers are ever sent, so other origins cannot read answers either.
 * When the service is bound beyond loopback (only allowed with auth on), Host is not restricted.
 */
export function localGuard(options: {loopbackOnly: boolean}) {
  return async (req: FastifyRequest) => {
    const host = req.headers.host ?? ''
    if (options.loopbackOnly && !isLoopback(hostName(host))) {
      throw new MemError('forbidden', `Refused: Host ${JSON.stringify(host)} is not this service's loopback address.`, {
        hint: 'Call the service as http://127.0.0.1:<port> or http://localhost:<port>.',
      })
    }
    const origin = req.headers.origin
    const site = req.headers['sec-fetch-site']
    const fetchSite = typeof site === 'string' ? site.trim().toLowerCase() : undefined
    if (STATE_CHANGING.has(req.method) && (fetchSite === 'cross-site' || fetchSite === 'same-site') && !isLoopbackOrigin(origin)) {
      throw new MemError('forbidden', `Refused: a ${req.method} the browser marks Sec-Fetch-Site: ${fetchSite} (from ${origin === undefined ? 'a page of another site' : `origin ${origin}`}) is not allowed.`, {
        hint: 'Browser pages of other sites cannot change memories; call the API from a tool or from the service\'s own UI.',
      })
    }
    if (origin !== undefined && STATE_CHANGING.has(req.method) && origin.toLowerCase() !== `http://${host.toLowerCase()}`) {
      throw new MemError('forbidden', `Refused: a ${req.method} from origin ${origin} (another site) is not allowed.`, {
        hint: 'Browser pages of other origins cannot change memories; call the API from a tool or from the service\'s own UI.',
      })
    }
  }
}

/**
 * Bearer-key auth (decisions.md): public routes pass; otherwise a key of sufficient scope is
 * required. 401 for a missing/malformed or unknown key, 403 `{error, code, required}` for a key
 * whose scope is too small. With `required`, keys are checked even when auth is off in config.
 */
export function authGuard(keys: KeyRing, options: {required: boolean}) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    // decided on the route the router matched, never on the raw URL (see requiredAccess): the
    // scope its declaration gives, else the rule for routes that declare none (/mcp, /ui)
    const route = req.routeOptions.url
    const declared = (req.routeOptions.config as {access?: Access} | undefined)?.access
    const need = declared ?? requiredAccess(req.method, route)
    const path = route ?? req.url.split('?')[0]
    if (need === 'public') return
    const result = keys.check(req.headers.authorization, need, options.required)
    if (result.ok) return
    if (result.status === 401) {
      const hint =
        result.message === 'Authentication required'
          ? 'Send the header Authorization: Bearer <key>; `mem keys create NAME --scope read|write|admin` makes one.'
          : 'The key is unknown or revoked; `mem keys list` shows the keys that exist.'
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="mem"')
        .type('application/json; charset=utf-8')
        .send(errorBody(new MemError('unauthorized', result.message, {hint})))
    }
    const body = errorBody(
      new MemError('forbidden', `This key's scope is too small: ${req.method} ${path} needs ${result.required}.`, {
        hint: `Use a key with scope ${result.required}${result.required === 'admin' ? '' : ' or admin'}.`,
      }),
    )
    return reply
      .code(403)
      .type('application/json; charset=utf-8')
      .send({...body, required: result.required})
  }
}

/** What a team server checks each request's key with, and runs its handler as (runtime/team-store.ts). */
export interface TeamAuth {
  /**
   * The key's team, name, scope and repos; 401 for an unknown or revoked key, 403 for a scope too
   * small. `repo`: the repo the request names (in its query, or in the memory id of its path), whose
   * head is read with the key (one round trip for both; the head stands for the first operation's
   * head check on that repo).
   */
  verify(authorization: string | undefined, need: 'read' | 'write' | 'admin', repo?: string): Promise<TeamPrincipal>
  /** Runs the rest of the request as `principal`. */
  asPrincipal<T>(principal: TeamPrincipal, fn: () => T): T
  /** The request of `principal` is over (its response sent or abandoned): the repos it used may be evicted. */
  finished?(principal: TeamPrincipal): void
  /** The maintenance runs and scheduler of the team store (team-maintenance.ts), instead of the local server's. */
  maintenance?(options: TeamMaintenanceSetup): {runs: RunRegistry; scheduler: TaskScheduler}
}

export interface TeamMaintenanceSetup {
  windowMs?: number
  intervalMs?: number
  firstRunDelayMs?: number
  tickMs?: number
  external?: Array<() => ScheduledTask>
  onError?: (err: unknown) => void
}

const principals = new WeakMap<FastifyRequest, TeamPrincipal>()

/**
 * The repo a request names, for its head to be read with the key: its query's `repo`, else the
 * repo segment of the memory id in its path (`GET /api/mem/:id` and the routes under it), else the
 * `X-Mem-Repo` header the project's client sends (an MCP call's repo is in its body, read after the
 * key). Only a hint: the head read along is used for the request's first operation on that very
 * repo, and every operation checks the repo it acts on.
 */
function namedRepo(req: FastifyRequest): string | undefined {
  const repo = (req.query as Record<string, unknown> | undefined)?.repo
  if (typeof repo === 'string') return repo
  const id = (req.params as Record<string, unknown> | undefined)?.id
  if (typeof id === 'string' && MEMORY_ID_PATTERN.test(id)) return repoIdOf(id)
  const hinted = req.headers[REPO_HEADER.toLowerCase()]
  return typeof hinted === 'string' ? hinted : undefined
}

/**
 * Team mode's auth: every route but the public ones needs a team key (there is no "auth off"). The
 * key names the team the request acts for; the handler then runs as that principal, so every repo
 * it touches is looked up under that team only (another team's repo or id: 404).
 */
export function teamGuard(auth: TeamAuth) {
  return {
    onRequest: async (req: FastifyRequest, reply: FastifyReply) => {
      const route = req.routeOptions.url
      const declared = (req.routeOptions.config as {access?: Access} | undefined)?.access
      const need = declared ?? requiredAccess(req.method, route)
      if (need === 'public') return
      let principal: TeamPrincipal
      try {
        principal = await auth.verify(req.headers.authorization, need, namedRepo(req))
      } catch (err) {
        if (err instanceof MemError && err.code === 'unauthorized') {
          return reply.code(401).header('www-authenticate', 'Bearer realm="mem"').type('application/json; charset=utf-8').send(errorBody(err))
        }
        if (err instanceof MemError && err.code === 'forbidden') {
          const path = route ?? req.url.split('?')[0]
          const body = errorBody(new MemError('forbidden', `This key's scope is too small: ${req.method} ${path} needs ${need}.`, {hint: `Use a team key with scope ${need}${need === 'admin' ? '' : ' or admin'}.`}))
          return reply.code(403).type('application/json; charset=utf-8').send({...body, required: need})
        }
        throw err
      }
      principals.set(req, principal)
    },
    /** Registered as the last preHandler: the handler runs inside the principal's tenancy. */
    preHandler: (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
      const principal = principals.get(req)
      if (!principal) return done()
      // the repos the request opens stay hot until its response is over (sent, or the client gone)
      if (auth.finished) reply.raw.once('close', () => auth.finished!(principal))
      auth.asPrincipal(principal, () => done())
    },
  }
}
