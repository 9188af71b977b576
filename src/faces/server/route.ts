import type {FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler, HTTPMethods} from 'fastify'
import {z} from 'zod'
import {MemError} from '../../model/errors.js'
import type {Scope} from '../../config/user-config.js'

export type Access = Scope | 'public'

/**
 * The scope a request needs, by decisions.md: health, status and the web UI are public;
 * maintenance needs admin; every other GET reads and every other method writes.
 *
 * `route` is the pattern of the route the router matched (`/api/maintenance/runs/:id`), never the
 * raw URL: the router decodes the path (`/api/%6daintenance` is `/api/maintenance`), so a decision
 * on the raw URL can be walked around. Without a matched route (a 404) nothing is public.
 */
export function requiredAccess(method: string, route: string | undefined): Access {
  if (route === undefined) return method === 'GET' || method === 'HEAD' ? 'read' : 'write'
  if (route === '/api/health' || route === '/api/status' || route === '/ui' || route.startsWith('/ui/')) return 'public'
  if (route === '/api/maintenance' || route.startsWith('/api/maintenance/')) return 'admin'
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write'
}

export interface RouteResponse {
  description: string
  schema?: z.ZodType
  /** Defaults to application/json. */
  contentType?: string
}

type Input<S> = S extends z.ZodType ? z.input<S> : undefined

/**
 * One route: its schemas (for validation, the route's JSON schema and OpenAPI) and its adapter.
 * The handler sees the request typed by the schemas' input types; the core validates the values.
 */
export interface RouteDef<Q extends z.ZodObject | undefined = z.ZodObject | undefined, P extends z.ZodObject | undefined = z.ZodObject | undefined, B extends z.ZodType | undefined = z.ZodType | undefined> {
  method: HTTPMethods
  url: string
  operationId: string
  summary: string
  description?: string
  tag: string
  query?: Q
  params?: P
  body?: B
  responses: Record<number, RouteResponse>
  /** A body limit of its own (bytes), for a route that takes a file (pack import). */
  bodyLimit?: number
  /** The scope the route needs; by default the rule of `requiredAccess` (GET reads, other methods write). */
  access?: Access
  /** The body carries a pack (see pack-body.ts): JSON with base64 `data`, or the file itself. */
  packBody?: boolean
  handler: (req: FastifyRequest<{Querystring: Input<Q>; Params: Input<P>; Body: Input<B>}>, reply: FastifyReply) => Promise<unknown>
}

export type JsonSchema = Record<string, unknown>

/** zod → JSON Schema in the OpenAPI 3.0 dialect; named shapes become `#/components/schemas/<id>` refs. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): {schema: JsonSchema; defs: Record<string, JsonSchema>} {
  const out = z.toJSONSchema(schema, {target: 'openapi-3.0', io, unrepresentable: 'any'}) as JsonSchema
  const defs = (out.definitions ?? out.$defs ?? {}) as Record<string, JsonSchema>
  delete out.definitions
  delete out.$defs
  const fixed = tidy(out) as JsonSchema
  const fixedDefs: Record<string, JsonSchema> = {}
  for (const [id, def] of Object.entries(defs)) {
    const {id: _id, ...rest} = tidy(def) as JsonSchema
    fixedDefs[id] = rest
  }
  return {schema: fixed, defs: fixedDefs}
}

/** Rewrites refs to components and drops the ±2^53 bounds zod gives every integer. */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy)
  if (!value || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    if (k === '$ref' && typeof v === 'string') out[k] = v.replace(/^#\/(?:definitions|\$defs)\//, '#/components/schemas/')
    else if ((k === 'minimum' || k === 'maximum') && Math.abs(v as number) === Number.MAX_SAFE_INTEGER) continue
    else out[k] = tidy(v)
  }
  return out
}

/** Registers routes on an app and remembers them for the OpenAPI document. */
export class RouteTable {
  readonly routes: RouteDef[] = []

  add<Q extends z.ZodObject | undefined = undefined, P extends z.ZodObject | undefined = undefined, B extends z.ZodType | undefined = undefined>(
    app: FastifyInstance,
    def: RouteDef<Q, P, B>,
  ): void {
    this.routes.push(def as unknown as RouteDef)
    const schema: Record<string, unknown> = {}
    if (def.query) schema.querystring = jsonSchema(def.query, 'input').schema
    if (def.params) schema.params = jsonSchema(def.params, 'input').schema
    if (def.body) schema.body = jsonSchema(def.body, 'input').schema
    const access = def.access ?? requiredAccess(def.method as string, def.url)
    app.route({method: def.method, url: def.url, schema, config: {access, packBody: def.packBody ?? false}, handler: def.handler as RouteDef['handler'], ...(def.bodyLimit ? {bodyLimit: def.bodyLimit} : {})})
  }
}

/**
 * Query strings arrive as text. Integer, number and boolean fields of a route's query schema are
 * converted here (a value that is not one is a 400 naming the field); everything else, ranges
 * included, is validated by the core's zod schema so HTTP and CLI give the same messages.
 * Bodies and params pass through unchanged to the core for the same reason.
 */
export const validatorCompiler: FastifySchemaCompiler<JsonSchema> = ({schema, httpPart}) => {
  if (httpPart !== 'querystring') return () => true
  const props = (schema.properties ?? {}) as Record<string, {type?: string}>
  const convert = Object.entries(props).filter(([, p]) => p.type === 'integer' || p.type === 'number' || p.type === 'boolean')
  if (convert.length === 0) return () => true
  return (data: unknown) => {
    if (!data || typeof data !== 'object') return true
    const query = {...(data as Record<string, unknown>)}
    for (const [name, prop] of convert) {
      const raw = query[name]
      if (raw === undefined) continue
      const parsed = typeof raw === 'string' ? convertScalar(raw, prop.type!) : undefined
      if (parsed === undefined) {
        const expected = prop.type === 'boolean' ? 'true or false' : prop.type === 'integer' ? 'a whole number' : 'a number'
        const message = `${name} must be ${expected}${Array.isArray(raw) ? ' (given more than once)' : ''}`
        return {error: new MemError('invalid_input', `Invalid ${name}: ${message}`, {details: [{path: name, message}]})}
      }
      query[name] = parsed
    }
    return {value: query}
  }
}

function convertScalar(raw: string, type: string): number | boolean | undefined {
  const s = raw.trim()
  if (type === 'boolean') {
    // as clients write them: true/false in any case (.NET writes True), 1/0, and a bare flag
    const v = s.toLowerCase()
    if (v === 'true' || v === '1' || v === '') return true
    if (v === 'false' || v === '0') return false
    return undefined
  }
  if (type === 'integer') return /^[+-]?\d{1,15}$/.test(s) ? Number.parseInt(s, 10) : undefined
  if (s === '' || !Number.isFinite(Number(s))) return undefined
  return Number(s)
}
