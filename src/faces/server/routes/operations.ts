import type {FastifyInstance} from 'fastify'
import {z} from 'zod'
import {exportMarkdown} from '../../../operations/export.js'
import {graph} from '../../../operations/graph.js'
import {intake} from '../../../operations/intake.js'
import type {MemContext} from '../../../engines/context.js'
import type {RouteTable} from '../route.js'
import {ErrorResponse} from '../schemas.js'
import * as S from '../schemas-ops.js'

const ERRORS = {400: {description: 'Invalid input', schema: ErrorResponse}}

/** Intake of project files, the markdown export and the knowledge graph. */
export function operationRoutes(app: FastifyInstance, routes: RouteTable, ctx: MemContext): void {
  routes.add(app, {
    method: 'POST',
    url: '/api/mem/intake',
    operationId: 'intake',
    tag: 'operations',
    summary: 'Seed memories from the project files',
    description:
      'Scans agent instruction files, README.md, CONTRIBUTING.md, .editorconfig, package.json, tsconfig.json, Makefile, pyproject.toml, Cargo.toml, go.mod and version files, and stores small seed memories (tags `intake`, `source:<path>`). A second run writes nothing (`skippedCount`); a changed file supersedes its old seeds. `repo` must be a path (or a registered id) of a working tree.',
    query: S.IntakeQuery,
    responses: {200: {description: 'Counts, and what each file gave', schema: S.IntakeResponse}, ...ERRORS, 404: {description: 'No working tree for that repo', schema: ErrorResponse}},
    handler: async (req) => intake(ctx, req.query),
  })

  routes.add(app, {
    method: 'GET',
    url: '/api/mem/export',
    operationId: 'exportMarkdown',
    tag: 'operations',
    summary: 'The memories as markdown, organised by type',
    description: 'Procedures, heuristics, insights, observations; each in creation order. The same store gives the same bytes.',
    query: S.ExportQuery,
    responses: {200: {description: 'Markdown', contentType: 'text/markdown', schema: z.string()}, ...ERRORS},
    handler: async (req, reply) => {
      const result = await exportMarkdown(ctx, req.query)
      return reply.type('text/markdown; charset=utf-8').send(result.markdown)
    },
  })

  routes.add(app, {
    method: 'GET',
    url: '/api/mem/graph',
    operationId: 'graph',
    tag: 'memories',
    summary: 'The knowledge graph: memories as nodes, their relations as edges',
    description:
      'Nodes: the top `limit` (1 to 2000, default 200) live memories by importance, then recency. Edges only between returned nodes: `derived` (insight → observation) and `supersedes` (new → old; with `history=true` earlier versions are added as nodes).',
    query: S.GraphQuery,
    responses: {200: {description: 'Nodes and edges', schema: S.GraphResponse}, ...ERRORS},
    handler: async (req) => graph(ctx, req.query),
  })
}
