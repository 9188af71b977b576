/**
 * The knowledge graph: memories as nodes, their relations as edges. Nodes are the top `limit`
 * live memories by importance, then recency; edges join only returned nodes. Edges come from a
 * list of edge sources, each reading one kind of relation, so that a new relation (memory links)
 * is one more function in EDGE_SOURCES.
 */
import type {Db} from '../../storage/db.js'
import {graphRowsById, topLiveByImportance, type GraphRow} from '../../storage/graph.js'
import type {GraphNode, GraphEdge} from '../../model/shapes/operations.js'
export type {GraphNode, GraphEdge} from '../../model/shapes/operations.js'

/** What an edge source sees: the database and the node set (id → row). */
export interface EdgeSourceInput {
  db: Db
  nodes: ReadonlyMap<string, GraphRow>
}

/** Returns edges of one relation; the graph keeps only those whose ends are both nodes. */
export type EdgeSource = (input: EdgeSourceInput) => GraphEdge[]

/** `derived`: an insight → each observation it was consolidated from (its `derivedFrom`). */
export const derivedEdges: EdgeSource = ({nodes}) => {
  const out: GraphEdge[] = []
  for (const n of nodes.values()) for (const from of n.derivedFrom) out.push({from: n.id, to: from, relation: 'derived'})
  return out
}

/** `supersedes`: a newer version → the one it replaced (version chains). */
export const supersedesEdges: EdgeSource = ({nodes}) => {
  const out: GraphEdge[] = []
  for (const n of nodes.values()) if (n.supersedes) out.push({from: n.id, to: n.supersedes, relation: 'supersedes'})
  return out
}

/** Memory links (`mem links attach`, `POST /api/mem/{id}/links`): the memory → its target, named by the link's relation. */
export const linkEdges: EdgeSource = ({nodes}) => {
  const out: GraphEdge[] = []
  for (const n of nodes.values()) for (const link of n.links) out.push({from: n.id, to: link.targetId, relation: link.relation})
  return out
}

/** Every relation the graph shows, in order. Add a source here for a new kind of edge. */
export const EDGE_SOURCES: EdgeSource[] = [derivedEdges, supersedesEdges, linkEdges]

export const LABEL_CHARS = 80

export function label(row: Pick<GraphRow, 'oneLiner' | 'content'>): string {
  if (row.oneLiner && row.oneLiner.trim()) return row.oneLiner.trim()
  const text = row.content.replace(/\s+/g, ' ').trim()
  return text.length <= LABEL_CHARS ? text : text.slice(0, LABEL_CHARS)
}

export interface BuildGraphOptions {
  limit: number
  /** Also include the earlier versions of returned memories (at most `HISTORY_DEPTH` each), so `supersedes` edges show. */
  history?: boolean
  sources?: EdgeSource[]
}

export const HISTORY_DEPTH = 10

export function buildGraph(db: Db, options: BuildGraphOptions): {nodes: GraphNode[]; edges: GraphEdge[]} {
  const rows = topLiveByImportance(db, options.limit)
  const nodes = new Map(rows.map((r) => [r.id, r]))
  if (options.history) {
    let frontier = rows.map((r) => r.supersedes).filter((id): id is string => id !== null)
    for (let depth = 0; depth < HISTORY_DEPTH && frontier.length > 0; depth++) {
      const older = graphRowsById(db, frontier.filter((id) => !nodes.has(id)))
      for (const r of older) nodes.set(r.id, r)
      frontier = older.map((r) => r.supersedes).filter((id): id is string => id !== null && !nodes.has(id))
    }
  }
  const seen = new Set<string>()
  const edges: GraphEdge[] = []
  for (const source of options.sources ?? EDGE_SOURCES) {
    for (const e of source({db, nodes})) {
      if (!nodes.has(e.from) || !nodes.has(e.to) || e.from === e.to) continue
      const key = `${e.from}\n${e.to}\n${e.relation}`
      if (seen.has(key)) continue
      seen.add(key)
      edges.push(e)
    }
  }
  edges.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : a.relation < b.relation ? -1 : a.relation > b.relation ? 1 : 0))
  return {
    nodes: [...nodes.values()].map((r) => ({id: r.id, type: r.type, label: label(r), importance: r.importance, tags: r.tags})),
    edges,
  }
}
