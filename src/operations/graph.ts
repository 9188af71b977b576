import {z} from 'zod'
import {buildGraph} from '../engines/export/graph.js'
import type {MemContext} from '../engines/context.js'
import {vectorsInUse} from '../engines/meaning/related.js'
import {RepoRef} from '../model/schemas.js'
import {parseInput} from '../model/validate.js'
import type {GraphResult} from '../model/shapes/operations.js'
export type {GraphResult} from '../model/shapes/operations.js'

export const MAX_GRAPH_LIMIT = 2000

export const GraphInput = z.object({
  repo: RepoRef,
  limit: z.number().int('limit must be a whole number').min(1, `limit must be 1 to ${MAX_GRAPH_LIMIT}`).max(MAX_GRAPH_LIMIT, `limit must be 1 to ${MAX_GRAPH_LIMIT}`).default(200),
  history: z.boolean().default(false).describe('Also return earlier versions of the nodes, so `supersedes` edges show.'),
})
export type GraphInput = z.input<typeof GraphInput>
export type {GraphEdge, GraphNode} from '../engines/export/graph.js'

/**
 * The knowledge graph of a repo: the top `limit` live memories by importance, then recency, as
 * nodes (`label` = one-liner, else the first 80 characters), and the relations between them as
 * edges: `derived` (insight → each observation it came from) and `supersedes` (new → old version,
 * when both are nodes: with `history`, earlier versions are added as nodes). Read-only.
 */
export async function graph(ctx: MemContext, raw: GraphInput): Promise<GraphResult> {
  const input = parseInput(GraphInput, raw)
  const handle = await ctx.repo(input.repo, 'read')
  // with meaning on, the model's stored vectors relate memories too (`similar` edges)
  const meaning = ctx.meaning ? await vectorsInUse(ctx) : null
  const g = handle.store.read((db) => buildGraph(db, {limit: input.limit, history: input.history, meaning}))
  return {repo: handle.id, ...g}
}
