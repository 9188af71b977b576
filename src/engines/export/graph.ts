/**
 * The knowledge graph: memories as nodes, their relations as edges: stated ones (derived,
 * supersedes, links such as updates) and inferred ones (similar text, a shared topic tag), an
 * inferred edge only where no stated one joins the pair. Nodes are the top `limit`
 * live memories by importance, then recency; edges join only returned nodes. Edges come from a
 * list of edge sources, each reading one kind of relation, so that a new relation (memory links)
 * is one more function in EDGE_SOURCES.
 */
import type {Db} from '../../storage/db.js'
import {graphRowsById, topLiveByImportance, type GraphRow} from '../../storage/graph.js'
import type {GraphNode, GraphEdge} from '../../model/shapes/operations.js'
import {analyze} from '../../text/tokenize.js'
import {isOriginTag} from '../../model/memory.js'
import {DISTINCT, UPDATED_BY} from '../currency.js'
import {closePairs, vectorsById, type VectorsOf} from '../meaning/related.js'
export type {GraphNode, GraphEdge} from '../../model/shapes/operations.js'

/** What an edge source sees: the database and the node set (id → row). */
export interface EdgeSourceInput {
  db: Db
  nodes: ReadonlyMap<string, GraphRow>
  /** The meaning model whose stored vectors relate memories too (similarEdges), when meaning is on. */
  meaning?: VectorsOf | null
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

/**
 * Memory links (`mem links attach`, `POST /api/mem/{id}/links`): the memory → its target, named by
 * the link's relation. Pairs kept on both memories show once: `updates` (newer → older; its
 * reverse `updated-by` is not repeated) and `distinct` (from the newer).
 */
export const linkEdges: EdgeSource = ({nodes}) => {
  const out: GraphEdge[] = []
  for (const n of nodes.values()) {
    for (const link of n.links) {
      if (link.relation === UPDATED_BY) continue
      if (link.relation === DISTINCT && (nodes.get(link.targetId)?.createdAt ?? '') > n.createdAt) continue
      out.push({from: n.id, to: link.targetId, relation: link.relation})
    }
  }
  return out
}

/** A tag on more than this share of the nodes (or a tag naming where memories came from) relates nothing. */
const TAG_SHARE = 0.2

/**
 * `tag:<name>`: memories that share a topic tag, each joined to the group's most important one (a
 * star, not every pair). Tags that say where memories came from (intake, source:…) and tags on
 * more than a fifth of the nodes say too little to draw.
 */
export const tagEdges: EdgeSource = ({nodes}) => {
  const byTag = new Map<string, GraphRow[]>()
  for (const n of nodes.values()) {
    for (const t of new Set(n.tags)) {
      if (isOriginTag(t)) continue
      let list = byTag.get(t)
      if (!list) byTag.set(t, (list = []))
      list.push(n)
    }
  }
  const out: GraphEdge[] = []
  const most = Math.max(2, nodes.size * TAG_SHARE)
  for (const [tag, list] of byTag) {
    if (list.length < 2 || list.length > most) continue
    const [hub, ...rest] = [...list].sort((a, b) => b.importance - a.importance || (a.createdAt < b.createdAt ? 1 : -1) || (a.id < b.id ? -1 : 1))
    for (const n of rest) out.push({from: n.id, to: hub.id, relation: `tag:${tag}`})
  }
  return out
}

/** Similar text: the share of rare terms two memories have in common (weighted by idf) at least this. */
const SIMILAR_MIN = 0.3
/** Each memory is joined to at most this many of its most similar. */
const SIMILAR_PER_NODE = 3

/**
 * By meaning (issue 30 item 5): the cosine of two memories' vectors from the meaning model at least
 * this also makes them similar. Chosen by hand for the built-in model, not tuned on a set (an edge
 * of the graph hides nothing, unlike an update link).
 */
const SIMILAR_MEANING_MIN = 0.7

/**
 * `similar`: memories that say related things in other words — cosine similarity of their term
 * vectors (the search analyzer's terms, idf over the nodes) of at least SIMILAR_MIN, or, with
 * meaning on, of their vectors from the meaning model of at least SIMILAR_MEANING_MIN — each joined
 * to its SIMILAR_PER_NODE closest (by how far each measure passes its own floor). Pairs come from an
 * inverted index of the terms, never every pair; by meaning, every pair of the nodes (at most
 * MAX_GRAPH_LIMIT of them) that have a vector.
 */
export const similarEdges: EdgeSource = ({db, nodes, meaning}) => {
  const list = [...nodes.values()]
  const terms = list.map((n) => {
    const counts = new Map<string, number>()
    for (const t of analyze(`${n.content} ${n.tags.join(' ')}`)) counts.set(t, (counts.get(t) ?? 0) + 1)
    return counts
  })
  const df = new Map<string, number>()
  for (const c of terms) for (const t of c.keys()) df.set(t, (df.get(t) ?? 0) + 1)
  const maxDf = Math.max(2, list.length * 0.1)
  const vectors = terms.map((c) => {
    const v = new Map<string, number>()
    let norm = 0
    for (const [t, n] of c) {
      const w = (1 + Math.log(n)) * Math.log(1 + list.length / df.get(t)!)
      v.set(t, w)
      norm += w * w
    }
    norm = Math.sqrt(norm) || 1
    for (const [t, w] of v) v.set(t, w / norm)
    return v
  })
  const postings = new Map<string, number[]>()
  vectors.forEach((v, i) => {
    for (const t of v.keys()) {
      if (df.get(t)! > maxDf) continue
      let p = postings.get(t)
      if (!p) postings.set(t, (p = []))
      p.push(i)
    }
  })
  // with meaning on: the pairs close by the model, each by the first of its two nodes
  const close = new Map<number, Array<{j: number; sim: number}>>()
  if (meaning) {
    for (const {i, j, sim} of closePairs(vectorsById(db, meaning, list.map((n) => n.id)), SIMILAR_MEANING_MIN, list.length)) {
      let l = close.get(i)
      if (!l) close.set(i, (l = []))
      l.push({j, sim: sim / SIMILAR_MEANING_MIN})
    }
  }
  const out: GraphEdge[] = []
  vectors.forEach((v, i) => {
    const seen = new Set<number>()
    const best: Array<{j: number; sim: number}> = []
    for (const t of v.keys()) {
      for (const j of postings.get(t) ?? []) {
        if (j <= i || seen.has(j)) continue
        seen.add(j)
        let sim = 0
        for (const [term, w] of v) {
          const o = vectors[j].get(term)
          if (o !== undefined) sim += w * o
        }
        if (sim >= SIMILAR_MIN) best.push({j, sim: meaning ? sim / SIMILAR_MIN : sim})
      }
    }
    for (const c of close.get(i) ?? []) {
      const found = best.find((b) => b.j === c.j)
      if (!found) best.push(c)
      else found.sim = Math.max(found.sim, c.sim)
    }
    best.sort((a, b) => b.sim - a.sim || a.j - b.j)
    for (const {j} of best.slice(0, SIMILAR_PER_NODE)) out.push({from: list[i].id, to: list[j].id, relation: 'similar'})
  })
  return out
}

/** Every relation the graph shows, in order. Add a source here for a new kind of edge. */
export const EDGE_SOURCES: EdgeSource[] = [derivedEdges, supersedesEdges, linkEdges, similarEdges, tagEdges]

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
  /** The meaning model whose stored vectors relate memories too, when meaning is on (similarEdges). */
  meaning?: VectorsOf | null
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
  // pairs a stated relation (derived, supersedes, a link) joins: similar text or a shared tag adds nothing to them
  const joined = new Set<string>()
  const pair = (e: GraphEdge) => (e.from < e.to ? `${e.from}\n${e.to}` : `${e.to}\n${e.from}`)
  const inferred = (e: GraphEdge) => e.relation === 'similar' || e.relation.startsWith('tag:')
  const edges: GraphEdge[] = []
  for (const source of options.sources ?? EDGE_SOURCES) {
    for (const e of source({db, nodes, meaning: options.meaning ?? null})) {
      if (!nodes.has(e.from) || !nodes.has(e.to) || e.from === e.to) continue
      const key = `${e.from}\n${e.to}\n${e.relation}`
      if (seen.has(key) || (inferred(e) && joined.has(pair(e)))) continue
      seen.add(key)
      joined.add(pair(e))
      edges.push(e)
    }
  }
  edges.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : a.relation < b.relation ? -1 : a.relation > b.relation ? 1 : 0))
  return {
    nodes: [...nodes.values()].map((r) => ({id: r.id, type: r.type, label: label(r), importance: r.importance, tags: r.tags})),
    edges,
  }
}
