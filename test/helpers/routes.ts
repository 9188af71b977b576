/**
 * The HTTP routes the server declares, for the tests that check the client's and the web UI's
 * paths against them (test/client/paths.test.ts, test/faces/ui/paths.test.ts): every operation's
 * route and aliases from its declaration (src/operations/catalog), and the service's own routes
 * (health, status, maintenance runs, the OpenAPI document) as the server's OpenAPI document lists them.
 */
import {buildServer} from '../../src/faces/server/build-server.js'
import {OPERATIONS} from '../../src/operations/catalog/index.js'
import {memRepo} from './mem.js'

export interface DeclaredRoute {
  method: string
  /** As declared: `/api/mem/:id` (declarations) or `/api/mem/{id}` (OpenAPI). */
  path: string
  /** The operation that declares it, or `service` for a route of the server's own. */
  from: string
}

/** The routes of the declarations alone. */
export function operationRoutes(): DeclaredRoute[] {
  const out: DeclaredRoute[] = []
  for (const op of OPERATIONS) {
    if (!op.http) continue
    for (const path of [op.http.path, ...(op.http.aliases ?? []).map((a) => a.path)]) out.push({method: op.http.method, path, from: op.name})
  }
  return out
}

/** Every route under /api the server answers: the declarations', then the service's own from its OpenAPI document. */
export async function declaredRoutes(): Promise<DeclaredRoute[]> {
  const {ctx} = memRepo()
  const app = buildServer({ctx, uiDir: false})
  try {
    const doc = (await app.inject({method: 'GET', url: '/api/openapi.json'})).json() as {paths: Record<string, Record<string, unknown>>}
    const ops = operationRoutes()
    const documented: DeclaredRoute[] = []
    for (const [path, methods] of Object.entries(doc.paths)) for (const m of Object.keys(methods)) documented.push({method: m.toUpperCase(), path, from: 'service'})
    const key = (r: DeclaredRoute) => `${r.method} ${pattern(r.path).source}`
    const declared = new Set(ops.map(key))
    // the document lists every declared route (else the check below would miss a service route)
    const listed = new Set(documented.map(key))
    const undocumented = ops.filter((r) => !listed.has(key(r)))
    if (undocumented.length > 0) throw new Error(`declared routes missing from the OpenAPI document: ${undocumented.map(key).join(', ')}`)
    return [...ops, ...documented.filter((r) => !declared.has(key(r)))]
  } finally {
    await app.close()
  }
}

/** A declared path as a pattern of request paths: a parameter (`:id`, `{id}`) is one segment. */
export function pattern(path: string): RegExp {
  const parts = path.split(/:\w+|\{\w+\}/).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^${parts.join('[^/]+')}$`)
}

/**
 * What is wrong with a request `method path` against the declared routes: null when one answers
 * it, else the reason (no route has the path, or those that have it take other methods). `path`
 * is as the request sends it, a parameter URL-encoded into one segment.
 */
export function mismatch(routes: DeclaredRoute[], method: string, path: string): string | null {
  // a path some route declares word for word means that route (`GET /api/mem/feedback` is a wrong
  // method for feedback, though `GET /api/mem/:id` would take it as an id)
  const exact = routes.filter((r) => r.path === path)
  const same = exact.length > 0 ? exact : routes.filter((r) => pattern(r.path).test(path))
  if (same.length === 0) return `${method} ${path}: no declared route has this path`
  if (!same.some((r) => r.method === method)) return `${method} ${path}: the declared route takes ${[...new Set(same.map((r) => r.method))].join('/')} (${same.map((r) => r.from).join(', ')})`
  return null
}
