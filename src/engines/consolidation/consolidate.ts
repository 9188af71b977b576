import {createHash} from 'node:crypto'
import {heuristicOneLiner, ONE_LINER_MAX} from '../enrichment/heuristic.js'
import {MemError} from '../../model/errors.js'
import {DERIVED_ORIGIN, isOriginTag, isOwnOrigin, OWN_ORIGIN} from '../../model/memory.js'
import {shingleSet} from '../../text/shingles.js'
import {jaccard, smoothIdf, sparseDot, tfIdfWeights} from '../../text/similarity.js'
import type {MemContext, RepoHandle} from '../context.js'
import {planStore} from '../gates/admit.js'
import {closePairs, vectorsBySeq, vectorsInUse} from '../meaning/related.js'
import {analyze, normalizeForDuplicate} from '../../text/tokenize.js'
import {withoutSectionLabel} from '../../text/values.js'
import type {Db} from '../../storage/db.js'
import {releaseBuffer} from '../../storage/files.js'
import {eachLiveBriefOfType, getExtra, getMemory, liveBriefsById, liveBriefsBySeq, liveBriefsOfType, liveDerivedFromIds, originsById, type MemoryBrief, type Op} from '../../storage/memories.js'
import type {ConsolidateResult, CandidateCluster} from '../../model/shapes/operations.js'
export type {ConsolidateResult, CandidateCluster, ClusterOutcome} from '../../model/shapes/operations.js'

/**
 * Consolidation: groups of related live observations become insights.
 *
 * 1. Observations that already fed a live insight (its `derivedFrom`) or whose cluster was found
 *    to restate one of them are left out, so a converged corpus yields no candidates.
 * 2. Each remaining observation becomes a tf-idf vector (terms from the search analyzer, idf over
 *    all live observations so that it does not move between runs). Related pairs are found by
 *    blocking, never by comparing every pair: an inverted index over the terms that are rare
 *    enough to say something (document frequency ≤ MAX_DF), plus the members of small tag groups.
 *    A pair is related when its cosine similarity reaches TEXT_SIM, or TAG_SIM when the two share
 *    a tag, or when they share a tag that at most SMALL_TAG_GROUP observations carry; with meaning
 *    on, also when their stored vectors from the meaning model reach MEANING_SIM (every pair, up to
 *    MAX_MEANING_OBSERVATIONS free observations with a vector).
 * 3. Clusters are stars: the best-connected free observation and its free related neighbours (at
 *    most MAX_CLUSTER in all); a star of fewer than MIN_CLUSTER observations is no cluster.
 * 4. Each cluster is summarised (extractively by default: the sentences that best cover the
 *    cluster's terms, redundant ones dropped; or by a language-model writer when configured).
 *    If that text only restates one member, the cluster is counted and skipped (its members are
 *    marked so that it does not come back); if a live insight already says it, that insight is
 *    boosted and gains the sources; otherwise a new insight is stored with `derivedFrom`.
 */

export const MIN_CLUSTER = 3
export const MAX_CLUSTER = 12
const TEXT_SIM = 0.3
/**
 * With meaning on (issue 30 item 5): observations whose vectors from the meaning model reach this
 * cosine are related whatever their words. For the built-in model, on a small set of 6 events each
 * noted in 3 wordings (2026-11-26): 0.7 related 1 of the 18 pairs of one event and none of the 135
 * pairs of two; 0.6 related 5 of 18 and 4 of 135 (a wrong cluster writes a wrong insight).
 */
const MEANING_SIM = 0.7
/** Pairs by meaning are compared every one with every other: above this many free observations with a vector, words alone relate them. */
const MAX_MEANING_OBSERVATIONS = 5_000
const TAG_SIM = 0.15
const SMALL_TAG_GROUP = 6
const BOOST_SIM = 0.6
const RESTATE_SIM = 0.9
const MAX_SENTENCES = 4
const MAX_BODY_CHARS = 900
const WRITE_CHUNK = 200

/** A language-model writer for a cluster's insight; null falls back to the extractive text. */
export type InsightWriter = (cluster: {members: Array<{id: string; content: string}>; tags: string[]}) => Promise<{content: string; oneLiner?: string} | null>

export interface ConsolidationProgress {
  phase: 'analyze' | 'cluster' | 'write'
  done: number
  total: number
}

export interface ConsolidateOptions {
  /** Plan only: report the candidate clusters and what would happen to each; write nothing. */
  dryRun?: boolean
  /** Writes the insight text through a language model (enrichment configured); default extractive. */
  writer?: InsightWriter
  signal?: AbortSignal
  onProgress?: (p: ConsolidationProgress) => void
  /** Apply only these candidate clusters (ids from a dry run); an id no current candidate has is refused. */
  only?: string[]
}

// ---- vectors -----------------------------------------------------------------------------------

/** A sparse L2-normalised tf-idf vector, term ids ascending. */
interface Vec {
  ids: Int32Array
  w: Float32Array
}

function dot(a: Vec, b: Vec): number {
  return sparseDot(a.ids, a.w, 0, a.ids.length, b.ids, b.w, 0, b.ids.length)
}

/**
 * Frees large typed arrays now (see releaseBuffer): a run's working arrays (~60 MB at 100k
 * memories) otherwise stay resident until V8's next major collection, and a checkpoint of the
 * store during the writes that follow needs a whole second copy of the database on top.
 */
function releaseAll(...arrays: ArrayBufferView[]): void {
  for (const a of arrays) releaseBuffer(a)
}

/** A growable Int32Array or Float32Array (amortised doubling). */
class Growable<T extends Int32Array | Float32Array> {
  size = 0
  constructor(
    public data: T,
    private readonly make: (n: number) => T,
  ) {}

  push(x: number): void {
    if (this.size === this.data.length) {
      const next = this.make(Math.max(16, this.size * 2))
      next.set(this.data)
      this.data = next
    }
    this.data[this.size++] = x
  }

  /** The filled part, copied into an array of exactly that length. */
  trimmed(): T {
    return this.data.slice(0, this.size) as T
  }
}

const int32s = () => new Growable(new Int32Array(1024), (n) => new Int32Array(n))
const float32s = () => new Growable(new Float32Array(1024), (n) => new Float32Array(n))

/**
 * Many sparse vectors in three flat arrays (CSR): row r is `ids`/`w` from `start[r]` to
 * `start[r + 1]`. At 100k memories an object (and two typed arrays) per observation vector, with a
 * Map of term counts each, held ~150 MB of live heap during a run; these arrays hold ~10 MB.
 */
class VecRows {
  private readonly starts = int32s()
  private readonly idBuf = int32s()
  private readonly wBuf = float32s()
  start = new Int32Array(1)
  ids = new Int32Array(0)
  w = new Float32Array(0)

  constructor() {
    this.starts.push(0)
  }

  /** Appends a row (ids ascending) and returns its index. Call `seal()` before reading. */
  add(ids: ArrayLike<number>, w: ArrayLike<number>): number {
    for (let k = 0; k < ids.length; k++) {
      this.idBuf.push(ids[k])
      this.wBuf.push(w[k])
    }
    this.starts.push(this.idBuf.size)
    return this.starts.size - 2
  }

  seal(): this {
    this.start = this.starts.trimmed()
    this.ids = this.idBuf.trimmed()
    this.w = this.wBuf.trimmed()
    this.starts.data = new Int32Array(0)
    this.idBuf.data = new Int32Array(0)
    this.wBuf.data = new Float32Array(0)
    return this
  }

  release(): void {
    releaseAll(this.start, this.ids, this.w)
  }

  get length(): number {
    return this.start.length - 1
  }

  dot(a: number, b: number): number {
    return sparseDot(this.ids, this.w, this.start[a], this.start[a + 1], this.ids, this.w, this.start[b], this.start[b + 1])
  }

  static of(vecs: Vec[]): VecRows {
    const rows = new VecRows()
    for (const v of vecs) rows.add(v.ids, v.w)
    return rows.seal()
  }
}

/** The terms of the observations being clustered: an id per term, with its document frequency. */
class TermTable {
  private readonly ids = new Map<string, number>()
  df: number[] = []
  docs = 0

  get size(): number {
    return this.ids.size
  }

  termIds(text: string): Map<number, number> {
    const tf = new Map<number, number>()
    for (const term of analyze(text)) {
      let id = this.ids.get(term)
      if (id === undefined) {
        id = this.ids.size
        this.ids.set(term, id)
        this.df.push(0)
      }
      tf.set(id, (tf.get(id) ?? 0) + 1)
    }
    return tf
  }

  count(tf: Map<number, number>): void {
    this.docs++
    for (const id of tf.keys()) this.df[id]++
  }

  idf(id: number): number {
    return smoothIdf(this.docs, this.df[id] ?? 0)
  }

  /** Writes the tf-idf weights of term counts `counts` (for the ascending term `ids`) into `w` (see tfIdfWeights). */
  weigh(ids: ArrayLike<number>, counts: ArrayLike<number>, w: Float32Array): void {
    tfIdfWeights(ids, counts, (id) => this.idf(id), w)
  }

  vector(tf: Map<number, number>): Vec {
    const ids = Int32Array.from([...tf.keys()].sort((a, b) => a - b))
    const w = new Float32Array(ids.length)
    this.weigh(ids, Array.from(ids, (id) => tf.get(id)!), w)
    return {ids, w}
  }
}

/**
 * Inverted index over vector rows, limited to the blocking terms `blocking(termId)` accepts, in
 * flat arrays (each term's documents ascending). Callers decide blocking terms by document
 * frequency over a population that does not change between runs (every live observation), so the
 * candidate pairs of a run do not depend on which observations earlier runs consolidated.
 */
class Postings {
  private readonly start: Int32Array
  private readonly docs: Int32Array
  private readonly weights: Float32Array

  constructor(rows: VecRows, terms: number, blocking: (termId: number) => boolean) {
    const keep = new Uint8Array(terms)
    for (let id = 0; id < terms; id++) keep[id] = blocking(id) ? 1 : 0
    const start = new Int32Array(terms + 1)
    for (let k = 0; k < rows.ids.length; k++) if (keep[rows.ids[k]]) start[rows.ids[k] + 1]++
    for (let id = 0; id < terms; id++) start[id + 1] += start[id]
    const fill = start.slice(0, terms)
    this.docs = new Int32Array(start[terms])
    this.weights = new Float32Array(start[terms])
    for (let doc = 0; doc < rows.length; doc++) {
      for (let k = rows.start[doc]; k < rows.start[doc + 1]; k++) {
        const id = rows.ids[k]
        if (!keep[id]) continue
        this.docs[fill[id]] = doc
        this.weights[fill[id]++] = rows.w[k]
      }
    }
    this.start = start
  }

  release(): void {
    releaseAll(this.start, this.docs, this.weights)
  }

  /**
   * Documents sharing a blocking term with the vector in `ids`/`w` from `from` to `to`, with the
   * partial dot product over those terms.
   */
  candidates(ids: Int32Array, w: Float32Array, from: number, to: number, acc: Float64Array, touched: number[], minDoc = -1): void {
    const terms = this.start.length - 1
    for (let k = from; k < to; k++) {
      const id = ids[k]
      if (id >= terms) continue
      const weight = w[k]
      for (let p = this.start[id]; p < this.start[id + 1]; p++) {
        const doc = this.docs[p]
        if (doc <= minDoc) continue
        if (acc[doc] === 0) touched.push(doc)
        acc[doc] += weight * this.weights[p]
      }
    }
  }
}

function maxDfFor(docs: number): number {
  return Math.min(300, Math.max(30, Math.floor(docs * 0.05)))
}

// ---- clustering --------------------------------------------------------------------------------

/** The free observations of a run, by index: only what clustering needs (texts stay in the store). */
interface FreeObservations {
  seq: number[]
  tags: string[][]
  importance: number[]
}

interface Planned {
  members: MemoryBrief[]
  centroid: Vec
}

/** A tag on more than this share of the live observations says too little to relate two of them. */
const COMMON_TAG_SHARE = 0.05

/**
 * The tags that may relate observations: not generic (intake, source:…), and carried by at most
 * COMMON_TAG_SHARE of the live observations (or by SMALL_TAG_GROUP, in a small repo).
 */
function relatingTags(tagCounts: Map<string, number>, observations: number): (tag: string) => boolean {
  const limit = Math.max(SMALL_TAG_GROUP, observations * COMMON_TAG_SHARE)
  return (tag) => !isOriginTag(tag) && (tagCounts.get(tag) ?? 0) <= limit
}

/** A tag that says what a memory is about (not where it came from): with similar wording, it relates two. */
const topical = (tag: string) => !isOriginTag(tag)

function sharesTag(a: string[], b: string[], relates: (tag: string) => boolean): boolean {
  if (a.length === 0 || b.length === 0) return false
  return a.some((t) => b.includes(t) && relates(t))
}

/** Observations consolidation must leave alone: sources of any live memory (an insight, or a procedure or heuristic that a cluster boosted) and observations marked as restated. */
function isSettled(o: MemoryBrief, derivedFrom: Set<string>): boolean {
  return derivedFrom.has(o.id) || o.extra.consolidation !== undefined
}

/** Clusters of free observations, each as its member indices (centre first) and centroid. */
function clusterObservations(
  obs: FreeObservations,
  vecs: VecRows,
  tagCounts: Map<string, number>,
  observations: number,
  postings: Postings,
  report: (done: number) => void,
  byMeaning: ReadonlyArray<{i: number; j: number}> = [],
): Array<{members: number[]; centroid: Vec}> {
  const n = vecs.length
  // Related pairs go into flat typed arrays, not an object per neighbour: at 100k memories a run
  // finds ~800k pairs, which as {j, sim} objects held ~100 MB of the pass's peak memory.
  const edges = new EdgeList()
  const link = (i: number, j: number, sim: number) => edges.add(i, j, sim)

  // pairs inside small tag groups are related whatever their wording; a group's size counts every
  // live observation (settled ones too), so it does not shrink into "small" on a later run
  const byTag = new Map<string, number[]>()
  obs.tags.forEach((tags, i) => {
    for (const t of tags) {
      let list = byTag.get(t)
      if (!list) byTag.set(t, (list = []))
      list.push(i)
    }
  })
  const linked = new Set<number>() // pairs related by a tag or by meaning: i * n + j, i < j
  const relates = relatingTags(tagCounts, observations)
  for (const [tag, list] of byTag) {
    if (list.length < MIN_CLUSTER || (tagCounts.get(tag) ?? 0) > SMALL_TAG_GROUP || !relates(tag)) continue
    for (let a = 0; a < list.length; a++) {
      for (let b = a + 1; b < list.length; b++) {
        const key = list[a] * n + list[b]
        if (linked.has(key)) continue
        linked.add(key)
        link(list[a], list[b], Math.max(TAG_SIM, vecs.dot(list[a], list[b])))
      }
    }
  }

  // pairs close by the meaning model (meaning on): related whatever their words
  for (const {i, j} of byMeaning) {
    const key = i * n + j
    if (linked.has(key)) continue
    linked.add(key)
    link(i, j, Math.max(TEXT_SIM, vecs.dot(i, j)))
  }

  // text-similar pairs through the inverted index
  const acc = new Float64Array(n)
  const touched: number[] = []
  for (let i = 0; i < n; i++) {
    postings.candidates(vecs.ids, vecs.w, vecs.start[i], vecs.start[i + 1], acc, touched, i)
    for (const j of touched) {
      const partial = acc[j]
      acc[j] = 0
      if (partial < TAG_SIM / 2 || linked.has(i * n + j)) continue
      const sim = vecs.dot(i, j)
      if (sim >= TEXT_SIM || (sim >= TAG_SIM && sharesTag(obs.tags[i], obs.tags[j], topical))) link(i, j, sim)
    }
    touched.length = 0
    if (i % 2000 === 0) report(i)
  }
  // never truncated: a cluster left out of a capped list would only show up on the next run
  const nb = edges.adjacency(n)
  const degree = (i: number) => nb.start[i + 1] - nb.start[i]

  // stars around the best-connected free observations
  const order = Array.from({length: n}, (_, i) => i)
  order.sort((a, b) => degree(b) - degree(a) || obs.importance[b] - obs.importance[a] || obs.seq[a] - obs.seq[b])
  const taken = new Uint8Array(n)
  const clusters: Array<{members: number[]; centroid: Vec}> = []
  for (const centre of order) {
    if (taken[centre]) continue
    const members = [centre]
    for (let k = nb.start[centre]; k < nb.start[centre + 1]; k++) {
      if (members.length >= MAX_CLUSTER) break
      const j = nb.node[k]
      if (!taken[j]) members.push(j)
    }
    if (members.length < MIN_CLUSTER) continue
    for (const m of members) taken[m] = 1
    clusters.push({members, centroid: centroidOf(vecs, members)})
  }
  releaseAll(acc, nb.start, nb.node, nb.sim)
  return clusters
}

/** Undirected weighted pairs in growable typed arrays, turned into sorted adjacency lists. */
class EdgeList {
  private a = new Int32Array(1024)
  private b = new Int32Array(1024)
  private sim = new Float64Array(1024)
  private size = 0

  add(i: number, j: number, sim: number): void {
    if (this.size === this.a.length) {
      const grow = <T extends Int32Array | Float64Array>(old: T, next: T): T => (next.set(old), next)
      this.a = grow(this.a, new Int32Array(this.size * 2))
      this.b = grow(this.b, new Int32Array(this.size * 2))
      this.sim = grow(this.sim, new Float64Array(this.size * 2))
    }
    this.a[this.size] = i
    this.b[this.size] = j
    this.sim[this.size++] = sim
  }

  /** Each node's neighbours (CSR: `node`/`sim` from `start[i]` to `start[i + 1]`), most similar first, then by index. */
  adjacency(n: number): {start: Int32Array; node: Int32Array; sim: Float64Array} {
    const start = new Int32Array(n + 1)
    for (let e = 0; e < this.size; e++) {
      start[this.a[e] + 1]++
      start[this.b[e] + 1]++
    }
    for (let i = 0; i < n; i++) start[i + 1] += start[i]
    const fill = start.slice(0, n)
    const node = new Int32Array(this.size * 2)
    const sim = new Float64Array(this.size * 2)
    for (let e = 0; e < this.size; e++) {
      const x = this.a[e]
      const y = this.b[e]
      node[fill[x]] = y
      sim[fill[x]++] = this.sim[e]
      node[fill[y]] = x
      sim[fill[y]++] = this.sim[e]
    }
    this.a = this.b = new Int32Array(0)
    this.sim = new Float64Array(0)
    const idx: number[] = []
    for (let i = 0; i < n; i++) {
      const from = start[i]
      const to = start[i + 1]
      if (to - from < 2) continue
      idx.length = 0
      for (let k = from; k < to; k++) idx.push(k)
      idx.sort((p, q) => sim[q] - sim[p] || node[p] - node[q])
      const ns = idx.map((k) => node[k])
      const ss = idx.map((k) => sim[k])
      for (let k = from; k < to; k++) {
        node[k] = ns[k - from]
        sim[k] = ss[k - from]
      }
    }
    return {start, node, sim}
  }
}

function centroidOf(vecs: VecRows, rows: number[]): Vec {
  const sum = new Map<number, number>()
  for (const r of rows) for (let k = vecs.start[r]; k < vecs.start[r + 1]; k++) sum.set(vecs.ids[k], (sum.get(vecs.ids[k]) ?? 0) + vecs.w[k])
  const ids = [...sum.keys()].sort((a, b) => a - b)
  const w = Float32Array.from(ids.map((id) => sum.get(id)!))
  const norm = Math.sqrt(w.reduce((s, x) => s + x * x, 0)) || 1
  for (let k = 0; k < w.length; k++) w[k] /= norm
  return {ids: Int32Array.from(ids), w}
}

// ---- the insight text --------------------------------------------------------------------------

const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z0-9`"'(])/

function sentencesOf(content: string): string[] {
  return content
    .split(/\n+/)
    .flatMap((line) => line.split(SENTENCE_END))
    .map((s) => s.replace(/^\s*(?:[-*+]|\d+\.)\s+/, '').replace(/\s+/g, ' ').trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s))
}

interface Summary {
  content: string
  /** The text without the recurrence line: what is compared with existing insights and members. */
  body: string
  oneLiner: string
  /** The member this text only restates, if any. */
  restates?: string
}

/**
 * The extractive insight: the sentences that best cover the cluster's terms (tf-idf against the
 * centroid), each one that mostly repeats a chosen sentence skipped, at most MAX_SENTENCES.
 */
function extractiveSummary(planned: Planned, vocab: TermTable): Summary {
  const bySentence = new Map<string, {text: string; vec: Vec; owners: Set<string>}>()
  for (const m of planned.members) {
    // a seed's sentences without intake's label of where it came from ("AGENTS.md › Guide … ›
    // Testing: "): the insight says what the members say, not their file and headings
    for (const text of sentencesOf(withoutSectionLabel(m.content))) {
      const key = normalizeForDuplicate(text)
      let entry = bySentence.get(key)
      if (!entry) bySentence.set(key, (entry = {text, vec: vocab.vector(vocab.termIds(text)), owners: new Set()}))
      entry.owners.add(m.id)
    }
  }
  const scored = [...bySentence.values()]
    .map((s) => ({...s, score: dot(s.vec, planned.centroid) * (1 + 0.1 * (s.owners.size - 1))}))
    .sort((a, b) => b.score - a.score || a.text.localeCompare(b.text))
  const chosen: typeof scored = []
  let chars = 0
  for (const s of scored) {
    if (chosen.length >= MAX_SENTENCES) break
    if (chosen.some((c) => dot(c.vec, s.vec) >= 0.5)) continue
    if (chosen.length > 0 && chars + s.text.length > MAX_BODY_CHARS) continue
    chosen.push(s)
    chars += s.text.length
  }
  // the sentence most members share leads, with how often and over what time it came up; the
  // others follow as bullets
  const recurrence = recurrenceOf(planned.members)
  const head = (chosen[0]?.text ?? '').replace(/(?<![.;:,])[.;:,]+$/, '')
  const rest = chosen.slice(1).map((s) => `- ${s.text}`)
  const content = [`${head} — ${recurrence}.`, ...rest].join('\n')
  // every chosen sentence comes from one and the same member: the merge adds nothing to it
  let common: Set<string> | undefined
  for (const s of chosen) common = common ? new Set([...common].filter((id) => s.owners.has(id))) : new Set(s.owners)
  const restates = common && common.size > 0 ? [...common].sort()[0] : undefined
  const body = chosen.length === 1 ? chosen[0].text : chosen.map((s) => `- ${s.text}`).join('\n')
  return {content, body, oneLiner: titled(head, recurrence), restates}
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** "4 observations, 12 Sep – 3 Oct" (the years when the span crosses one; one date for one day). */
export function recurrenceOf(members: Array<{createdAt: string}>): string {
  const times = members.map((m) => m.createdAt).sort()
  const [first, last] = [new Date(times[0]), new Date(times.at(-1)!)]
  const crossYear = first.getUTCFullYear() !== last.getUTCFullYear()
  const day = (d: Date) => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}${crossYear ? ` ${d.getUTCFullYear()}` : ''}`
  const span = day(first) === day(last) ? `on ${day(first)}` : `${day(first)} – ${day(last)}`
  return `${members.length} observations, ${span}`
}

/** The insight's one-liner: its lead cut to fit, then the recurrence (so no two read like their sources). */
function titled(lead: string, recurrence: string): string {
  const suffix = ` — ${recurrence}`
  const room = ONE_LINER_MAX - suffix.length
  const one = heuristicOneLiner(lead).replace(/…$/, '')
  const cut = one.length <= room ? one : `${one.slice(0, room - 1).replace(/(?<!\s)\s+\S*$/, '')}…`
  return `${cut}${suffix}`
}

/**
 * The member whose text `content` only restates, if any: contained in it, or (with `similar`, for
 * text not made of the members' own sentences) a near-duplicate of it by word shingles.
 */
function restatedMember(content: string, members: MemoryBrief[], similar: boolean): string | undefined {
  const body = normalizeForDuplicate(content)
  const shingles = similar ? shingleSet(content) : undefined
  for (const m of members) {
    if (normalizeForDuplicate(m.content).includes(body)) return m.id
    if (shingles && jaccard(shingles, shingleSet(m.content)) >= RESTATE_SIM) return m.id
  }
  return undefined
}

function clusterTags(members: MemoryBrief[]): string[] {
  const counts = new Map<string, number>()
  for (const m of members) for (const t of m.tags) if (!isOriginTag(t)) counts.set(t, (counts.get(t) ?? 0) + 1)
  return [...counts]
    .filter(([, c]) => c >= 2 && c * 2 >= members.length)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 8)
    .map(([t]) => t)
}

/** Importance from the sources: the highest, raised a little for each confirming observation. */
export function insightImportance(members: Array<{importance: number}>): number {
  const top = Math.max(...members.map((m) => m.importance))
  return round3(Math.min(1, top + Math.min(0.2, 0.05 * (members.length - 1))))
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000
}

// ---- the operation -----------------------------------------------------------------------------

/** A candidate cluster's id: its members' ids, hashed. Another member set (the store changed) is another id. */
export function clusterId(memberIds: string[]): string {
  return `c-${createHash('sha256').update([...memberIds].sort().join('\n')).digest('hex').slice(0, 12)}`
}

function aborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new MemError('unavailable', 'Consolidation was stopped before it finished (the service is shutting down).', {hint: 'Run it again.'})
}

/**
 * Consolidates one repository's live observations into insights (see the module comment).
 * Reads a snapshot to plan, then writes in chunks, re-checking under the writer lock that every
 * member is still live. The caller holds the maintenance lock (`src/operations/consolidate.ts`, or the maintenance pass in
 * `src/engines/maintenance/pipeline.ts`).
 */
export async function runConsolidation(ctx: MemContext, repo: RepoHandle, options: ConsolidateOptions = {}): Promise<ConsolidateResult> {
  const progress = options.onProgress ?? (() => undefined)
  // planning's working set (vocabulary, member texts, indexes) is garbage before the writes start
  const planned = await planClusters(ctx, repo, options, progress)
  let clusters = planned
  if (options.only) {
    const ids = new Set(planned.map((c) => c.id))
    const unknown = options.only.filter((id) => !ids.has(id))
    if (unknown.length > 0) {
      throw new MemError('not_found', `No current candidate cluster ${unknown.join(', ')}: its observations changed since the dry run, it was applied, or the id is wrong.`, {
        hint: `Run the dry run again for the current ids (${planned.length} candidate${planned.length === 1 ? '' : 's'} now): mem consolidate --dry-run`,
      })
    }
    const chosen = new Set(options.only)
    clusters = planned.filter((c) => chosen.has(c.id))
  }

  const result: ConsolidateResult = {candidates: planned.length, insightsCreated: 0, insightsBoosted: 0}
  if (options.dryRun) {
    result.insightsCreated = clusters.filter((c) => c.outcome === 'create').length
    result.insightsBoosted = clusters.filter((c) => c.outcome === 'boost').length
    result.clusters = clusters
    return result
  }

  for (let i = 0; i < clusters.length; i += WRITE_CHUNK) {
    aborted(options.signal)
    const chunk = clusters.slice(i, i + WRITE_CHUNK)
    const now = ctx.now().toISOString()
    const counts = await repo.store.write((db) => applyClusters(db, repo, chunk, now))
    result.insightsCreated += counts.created
    result.insightsBoosted += counts.boosted
    progress({phase: 'write', done: Math.min(clusters.length, i + WRITE_CHUNK), total: clusters.length})
  }
  return result
}

/** The candidate clusters of a snapshot, each with its insight text and what a run does with it. */
async function planClusters(
  ctx: MemContext,
  repo: RepoHandle,
  options: ConsolidateOptions,
  progress: (p: ConsolidationProgress) => void,
): Promise<CandidateCluster[]> {
  // one read (a consistent snapshot) plans every cluster; observation texts are analysed as they
  // are stepped and not kept: only the members of the clusters found are read back in full
  const vocab = new TermTable()
  // with meaning on, the model's stored vectors relate observations too
  const meaning = ctx.meaning ? await vectorsInUse(ctx) : null
  const {stars, insights} = repo.store.read((db) => {
    const derivedFrom = liveDerivedFromIds(db)
    // idf over every live observation: it stays put between runs, so clusters do too
    const free: FreeObservations = {seq: [], tags: [], importance: []}
    const freeIds = int32s()
    const freeCounts = int32s()
    const freeStart = int32s()
    freeStart.push(0)
    const tagCounts = new Map<string, number>()
    eachLiveBriefOfType(db, 'observation', (o) => {
      const tf = vocab.termIds(o.content)
      vocab.count(tf)
      for (const t of o.tags) tagCounts.set(t, (tagCounts.get(t) ?? 0) + 1)
      if (isSettled(o, derivedFrom)) return
      free.seq.push(o.seq)
      free.tags.push(o.tags)
      free.importance.push(o.importance)
      for (const id of [...tf.keys()].sort((a, b) => a - b)) {
        freeIds.push(id)
        freeCounts.push(tf.get(id)!)
      }
      freeStart.push(freeIds.size)
    })
    progress({phase: 'analyze', done: vocab.docs, total: vocab.docs})

    const total = free.seq.length
    const vecs = new VecRows()
    for (let r = 0; r < total; r++) {
      const from = freeStart.data[r]
      const to = freeStart.data[r + 1]
      const ids = freeIds.data.subarray(from, to)
      const w = new Float32Array(to - from)
      vocab.weigh(ids, freeCounts.data.subarray(from, to), w)
      vecs.add(ids, w)
    }
    vecs.seal()
    freeIds.data = freeCounts.data = freeStart.data = new Int32Array(0)
    const maxDf = maxDfFor(vocab.docs)
    const postings = new Postings(vecs, vocab.size, (id) => vocab.df[id] <= maxDf)
    // the free observations' own vectors only, and none once more than the cap have one
    const freeVectors = meaning ? vectorsBySeq(db, meaning, free.seq, MAX_MEANING_OBSERVATIONS) : null
    const byMeaning = freeVectors ? closePairs(freeVectors, MEANING_SIM, MAX_MEANING_OBSERVATIONS) : []
    const stars = clusterObservations(free, vecs, tagCounts, vocab.docs, postings, (done) => progress({phase: 'cluster', done, total}), byMeaning)
    postings.release()
    vecs.release()
    progress({phase: 'cluster', done: total, total})

    return {stars: stars.map((c) => ({seqs: c.members.map((m) => free.seq[m]), centroid: c.centroid})), insights: liveBriefsOfType(db, 'insight')}
  })
  aborted(options.signal)

  const insightVecs = insights.map((m) => vocab.vector(vocab.termIds(m.content)))
  const insightIds = insights.map((m) => m.id)
  insights.length = 0 // their texts are not needed any more
  const insightDf = new Map<number, number>()
  for (const v of insightVecs) for (const id of v.ids) insightDf.set(id, (insightDf.get(id) ?? 0) + 1)
  const insightMaxDf = maxDfFor(insightIds.length)
  const insightIndex = new Postings(VecRows.of(insightVecs), vocab.size, (id) => (insightDf.get(id) ?? 0) <= insightMaxDf)
  const acc = new Float64Array(insightIds.length)
  const touched: number[] = []
  const existingInsight = (v: Vec): string | undefined => {
    insightIndex.candidates(v.ids, v.w, 0, v.ids.length, acc, touched)
    // the index leaves out the terms common among insights: over them a unit vector adds at most
    // their norm in `v` to a cosine (Cauchy–Schwarz), so an insight whose sum over the indexed terms
    // is further below the bar than that cannot reach it, and is not compared whole
    let common = 0
    for (let k = 0; k < v.ids.length; k++) if ((insightDf.get(v.ids[k]) ?? 0) > insightMaxDf) common += v.w[k] * v.w[k]
    const reach = BOOST_SIM - Math.sqrt(common) - 1e-6
    let best: {doc: number; sim: number} | undefined
    for (const doc of touched) {
      const indexed = acc[doc]
      acc[doc] = 0
      if (indexed < reach) continue
      const sim = dot(v, insightVecs[doc])
      if (sim >= BOOST_SIM && (!best || sim > best.sim)) best = {doc, sim}
    }
    touched.length = 0
    return best ? insightIds[best.doc] : undefined
  }

  const clusters: CandidateCluster[] = []
  for (const star of stars) {
    // the members are read back one cluster at a time (holding the texts of every member of every
    // cluster made up most of the live heap of this phase); content never changes under an id,
    // and a member forgotten meanwhile is left out (applyClusters checks again when writing)
    const bySeq = new Map(repo.store.read((db) => liveBriefsBySeq(db, star.seqs)).map((b) => [b.seq, b]))
    const p: Planned = {members: star.seqs.map((seq) => bySeq.get(seq)).filter((m): m is MemoryBrief => m !== undefined), centroid: star.centroid}
    if (p.members.length < MIN_CLUSTER) continue
    let summary = extractiveSummary(p, vocab)
    let fromWriter = false
    if (options.writer) {
      const written = await options.writer({members: p.members.map((m) => ({id: m.id, content: m.content})), tags: clusterTags(p.members)}).catch(() => null)
      // the model's output is data: length-limited and scanned like any stored text
      if (written && written.content.trim() && !(await ctx.scanSecrets(written.content))) {
        const content = written.content.trim().slice(0, 4000)
        summary = {content, body: content, oneLiner: titled(written.oneLiner?.trim() || content, recurrenceOf(p.members))}
        fromWriter = true
      }
    }
    // extractive text is made of whole member sentences, whose owners were already checked
    const restates = summary.restates ?? restatedMember(summary.body, p.members, fromWriter)
    const base = {
      id: clusterId(p.members.map((m) => m.id)),
      memberIds: p.members.map((m) => m.id),
      members: p.members.map((m) => ({id: m.id, text: heuristicOneLiner(m.content)})),
      tags: clusterTags(p.members),
      oneLiner: summary.oneLiner,
      content: summary.content,
      importance: insightImportance(p.members),
    }
    if (restates) {
      clusters.push({...base, outcome: 'restates', target: restates})
      continue
    }
    const twin = existingInsight(vocab.vector(vocab.termIds(summary.body)))
    clusters.push(twin ? {...base, outcome: 'boost', target: twin} : {...base, outcome: 'create'})
  }
  return clusters
}

/** Under the writer lock: the ops of a chunk of clusters, each re-checked against current state. */
function applyClusters(db: Db, repo: RepoHandle, chunk: CandidateCluster[], now: string) {
  const ops: Op[] = []
  let created = 0
  let boosted = 0
  const newIds = new Set<string>()
  const newBodies = new Map<string, string>()
  const boostedHere = new Map<string, {importance: number; derivedFrom: string[]}>()

  const markRestated = (members: MemoryBrief[], target: string) => {
    for (const m of members) {
      ops.push({op: 'update', id: m.id, set: {extra: {...getExtra(db, m.id), consolidation: {restates: target, at: now}}}})
    }
  }
  const boost = (targetId: string, c: CandidateCluster, members: MemoryBrief[]): boolean => {
    const prior = boostedHere.get(targetId)
    const target = prior ? undefined : getMemory(db, targetId)
    if (!prior && (!target || target.forgottenAt || target.supersededBy)) return false
    const state = prior ?? {importance: target!.importance, derivedFrom: target!.derivedFrom}
    const derivedFrom = [...new Set([...state.derivedFrom, ...members.map((m) => m.id)])]
    const importance = round3(Math.min(1, Math.max(state.importance, c.importance) + 0.05))
    boostedHere.set(targetId, {importance, derivedFrom})
    ops.push({op: 'update', id: targetId, set: {importance, derivedFrom, updatedAt: now}})
    return true
  }

  for (const c of chunk) {
    const members = liveBriefsById(db, c.memberIds).filter((m) => m.type === 'observation' && m.extra.consolidation === undefined)
    if (members.length < MIN_CLUSTER) continue // changed since planning: next run looks again
    if (c.outcome === 'restates') {
      markRestated(members, c.target!)
      continue
    }
    if (c.outcome === 'boost' && boost(c.target!, c, members)) {
      boosted++
      continue
    }
    // (an insight to boost that is gone meanwhile: the cluster becomes a new insight)
    const body = normalizeForDuplicate(c.content)
    const twinHere = newBodies.get(body)
    if (twinHere) {
      markRestated(members, twinHere) // another cluster of this chunk already wrote exactly this
      continue
    }
    const plan = planStore(db, repo, {
      content: c.content,
      type: 'insight',
      tags: c.tags,
      importance: c.importance,
      source: 'consolidation',
      sessionId: null,
      supersedes: null,
      createdAt: now,
      derivedFrom: members.map((m) => m.id),
      oneLiner: c.oneLiner,
      // an insight is the user's own only when every observation it stands on is
      origin: [...originsById(db, members.map((m) => m.id)).values()].every(isOwnOrigin) ? OWN_ORIGIN : DERIVED_ORIGIN,
    })
    const r = plan.result
    if (r.success) {
      if (newIds.has(r.id)) {
        markRestated(members, r.id)
        continue
      }
      newIds.add(r.id)
      newBodies.set(body, r.id)
      ops.push(...plan.ops)
      created++
    } else if ('duplicateId' in r) {
      // a live memory already says exactly this: an insight (or procedure, heuristic) is boosted;
      // an observation means the merge restates it
      const twin = getMemory(db, r.duplicateId)
      if (twin && twin.type !== 'observation' && boost(twin.id, c, members)) boosted++
      else markRestated(members, r.duplicateId)
    }
  }
  return {ops, result: {created, boosted}}
}
