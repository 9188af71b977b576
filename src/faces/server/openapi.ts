import {type JsonSchema, jsonSchema, requiredAccess, type RouteDef} from './route.js'
import {ErrorResponse} from '../../model/shapes/common.js'

const ERROR_STATUSES: Record<number, string> = {
  401: 'Authentication required, or the API key is unknown (only when auth is on)',
  403: 'The key\'s scope is too small (body has `required`), or a browser request from another origin was refused',
  413: 'Body over 1 MB',
  500: 'Internal error (no details shown)',
}

/**
 * The OpenAPI 3.0 document of every route, built from the same zod schemas the routes and the core
 * use, so a client in any language (.NET included) can be generated from it.
 */
export function openApiDocument(routes: readonly RouteDef[], info: {version: string}): Record<string, unknown> {
  const components: Record<string, JsonSchema> = {}
  const take = (s: Parameters<typeof jsonSchema>[0], io: 'input' | 'output') => {
    const {schema, defs} = jsonSchema(s, io)
    Object.assign(components, defs)
    return schema
  }
  const errorRef = {$ref: '#/components/schemas/Error'}
  take(ErrorResponse, 'output')

  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const path = route.url.replace(/:(\w+)/g, '{$1}')
    const access = route.access ?? requiredAccess(route.method as string, route.url)
    const parameters: unknown[] = []
    for (const [where, schema] of [['path', route.params], ['query', route.query]] as const) {
      if (!schema) continue
      const json = take(schema, 'input') as {properties?: Record<string, JsonSchema>; required?: string[]}
      for (const [name, prop] of Object.entries(json.properties ?? {})) {
        const {description, ...rest} = prop
        parameters.push({
          name,
          in: where,
          required: where === 'path' || (json.required ?? []).includes(name),
          ...(description ? {description} : {}),
          schema: rest,
        })
      }
    }
    const responses: Record<string, unknown> = {}
    for (const [status, r] of Object.entries(route.responses)) {
      responses[status] = {
        description: r.description,
        ...(r.schema ? {content: {[r.contentType ?? 'application/json']: {schema: take(r.schema, 'output')}}} : {}),
      }
    }
    for (const [status, description] of Object.entries(ERROR_STATUSES)) {
      if (access === 'public' && (status === '401' || status === '403')) continue
      if (route.method === 'GET' && status === '413') continue
      responses[status] ??= {description, content: {'application/json': {schema: errorRef}}}
    }
    paths[path] ??= {}
    paths[path][(route.method as string).toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? {description: route.description} : {}),
      tags: [route.tag],
      ...(parameters.length ? {parameters} : {}),
      ...(route.body ? {requestBody: {required: true, content: {'application/json': {schema: take(route.body, 'input')}}}} : {}),
      responses,
      security: access === 'public' ? [] : [{bearerAuth: []}],
      'x-mem-scope': access,
    }
  }

  return {
    openapi: '3.0.3',
    info: {
      title: 'mem',
      version: info.version,
      description:
        'A local-first memory store for coding agents. Every repo-scoped endpoint takes the repository in `repo` ' +
        '(a path or a repo id); memory ids in paths are URL-encoded (`/` as `%2F`). When API key auth is on, ' +
        'every route but health and status needs `Authorization: Bearer <key>` of scope read (GET), write ' +
        '(POST, PUT, DELETE) or admin (maintenance); see `x-mem-scope` on each operation.',
    },
    servers: [{url: 'http://127.0.0.1:7373'}],
    tags: [
      {name: 'service', description: 'Health and status (public)'},
      {name: 'memories', description: 'Storing, recalling and reading memories'},
      {name: 'sharing', description: 'Packs, layers and links: memories travelling between repos and people'},
      {name: 'insight', description: 'Usage statistics, the quality report, the dashboard data and enrichment'},
    ],
    paths,
    components: {
      schemas: components,
      securitySchemes: {bearerAuth: {type: 'http', scheme: 'bearer', description: 'An API key from `mem keys create` (mem_…)'}},
    },
  }
}
