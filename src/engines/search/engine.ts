import type {MemoryType} from '../../model/memory.js'
import type {Db} from '../../storage/db.js'
import {indexedFields} from '../../storage/fts.js'
import {liveShortFields, recallFieldsBySeq, type RecallFields} from '../../storage/memories.js'
import {liveVectors} from '../../storage/vectors.js'
import {DEFAULT_BM25, idf, type Bm25Params, type WeightedTerm} from './bm25.js'
import {FuzzyIndex} from './fuzzy.js'
import {queryTerms} from './query.js'
import {blendScore} from './rank.js'
import {FtsRetriever, MemoryIndex, type Retriever} from './retriever.js'
import {thesaurusExpansions} from './thesaurus.js'
import {oneEditStems, surfaceWords} from './typos.js'

/**
 * Retrieval settings. Each was kept because the recall benchmark (test/bench/recall.mjs) showed
 * it helps on the project's evaluation set; the figures are in docs/recall.md.
 */
export interface Tuning {
  bm25: Bm25Params
  /** Weight of a developer-thesaurus synonym (thesaurus.ts) relative to a query term; 0 turns it off. */
  synonymWeight: number
  /** Correct query terms the index has never seen to known terms within 1–2 edits. */
  typoCorrection: boolean
  correctionWeight: number
  /** Pseudo-relevance feedback: expand the query with terms of the top `prfDocs` results. */
  prfDocs: number
  prfTerms: number
  prfWeight: number
}

export const DEFAULT_TUNING: Tuning = {
  bm25: DEFAULT_BM25,
  synonymWeight: 0.5,
  typoCorrection: true,
  correctionWeight: 0.8,
  // Measured neutral on the evaluation set (recall@5 equal, MRR −0.012, recall@10 +0.005), so off.
  prfDocs: 0,
  prfTerms: 8,
  prfWeight: 0.3,
}

export interface SearchOptions {
  limit: number
  type?: MemoryType
  now: Date
  /** 'memory' keeps an in-process index (servers); 'fts' asks the on-disk index (one-shot commands). */
  index?: 'memory' | 'fts'
  /** A key that changes whenever the store changes (for caching the fuzzy index). */
  version?: unknown
  tuning?: Partial<Tuning>
  /**
   * The query's embedding (unit length) from the configured model, when embeddings are on and the
   * runtime answered in time; absent, the ranking is exactly the text-only one.
   */
  embedding?: {model: string; vector: Float32Array}
}

export interface SearchHit {
  memory: RecallFields
  score: number
}

/** How many BM25 candidates are re-ranked with the full blend, per requested result. */
const RERANK_FACTOR = 5
const RERANK_MIN = 50
const FUZZY_MAX_AGE_MS = 30_000
/**
 * The fuzzy fallback scans every document it holds on each search (fuse.js has no index), so it
 * holds at most this many: the live memories with the highest context priority. Below this size
 * it sees the whole store; at 100k it keeps a query nothing matches at ~0.3 s instead of ~3 s.
 * Typos in rarer memories are still found through typo correction against the index vocabulary.
 */
export const FUZZY_MAX_DOCS = 10_000
/** The best BM25 results kept for re-ranking and type filtering (limit 100 × 5). */
const RERANK_POOL = 500
const COMMON_SHARE = 0.05
const COMMON_MIN_DOCS = 500

const fuzzyCache = new WeakMap<Db, {version: unknown; builtAt: number; index: FuzzyIndex}>()

/**
 * Embeddings as a second signal (docs/recall.md): for a memory with a stored vector, the relevance
 * fed to the blend is EMBED_TEXT · (BM25F / best) + EMBED_COSINE · max(0, cosine); a memory
 * without one keeps its text relevance. The EMBED_NEIGHBORS (at least `limit`) nearest memories
 * by cosine, at or above EMBED_MIN_COSINE, join the candidates (with no text relevance).
 */
export const EMBED_TEXT = 0.6
export const EMBED_COSINE = 0.4
export const EMBED_NEIGHBORS = 10
export const EMBED_MIN_COSINE = 0.2

const vectorCache = new WeakMap<Db, {version: unknown; model: string; dims: number; seqs: number[]; matrix: Float32Array}>()

/**
 * Ranks the live memories of one store against a natural-language query:
 * 1. the query is analyzed like documents and expanded with developer synonyms (thesaurus.ts);
 * 2. query terms no memory contains are corrected to known terms within 1–2 edits (typos);
 * 3. BM25F over body, tags and one-liner (bm25.ts) scores every memory matching any term;
 * 4. pseudo-relevance feedback adds the strongest terms of the top results, down-weighted;
 * 5. the top candidates are re-ranked with the blended score (rank.ts);
 * 6. when the index finds fewer than `limit`, fuzzy matching on one-liners and tags fills in.
 */
export function searchMemories(db: Db, q: string, opts: SearchOptions): SearchHit[] {
  const tuning: Tuning = {...DEFAULT_TUNING, ...opts.tuning}
  const original = queryTerms(q)
  if (original.length === 0) return []
  const retriever: Retriever = opts.index === 'memory' ? MemoryIndex.for(db) : new FtsRetriever(db)
  const stats = retriever.stats()

  const weights = new Map<string, number>(original.map((t) => [t, 1]))
  if (tuning.synonymWeight > 0) for (const s of thesaurusExpansions(original)) if (!weights.has(s)) weights.set(s, tuning.synonymWeight)
  const df = retriever.docFrequency([...weights.keys()])

  if (tuning.typoCorrection) {
    const fixes: string[] = []
    for (const term of original) {
      if (df.get(term) !== 0 || !/^[a-z]{4,}$/.test(term)) continue
      // the known stems of words one edit from the query's word, most frequent first, then the
      // known stems within 1–2 edits of its stem
      const variants = [...new Set(surfaceWords(q, term).flatMap((w) => [...oneEditStems(w)]))]
      const vdf = retriever.docFrequency(variants)
      const known = variants.filter((v) => (vdf.get(v) ?? 0) > 0).sort((a, b) => vdf.get(b)! - vdf.get(a)! || (a < b ? -1 : 1))
      const candidates = [...new Set([...known.slice(0, 2), ...retriever.corrections(term, term.length >= 8 ? 2 : 1)])]
      for (const fix of candidates.slice(0, 2)) {
        // a correction outweighs the same term reached as a synonym of another query term
        const had = weights.get(fix)
        if (had === undefined || had < tuning.correctionWeight) {
          weights.set(fix, tuning.correctionWeight)
          if (had === undefined) fixes.push(fix)
        }
      }
    }
    if (fixes.length > 0) for (const [t, n] of retriever.docFrequency(fixes)) df.set(t, n)
  }

  // Terms in more than a twentieth of a large store only add to memories rarer terms found;
  // expansions (synonyms, corrections) that common are dropped: they cost a long scan for little.
  const commonAt = Math.max(COMMON_MIN_DOCS, stats.docs * COMMON_SHARE)
  const originals = new Set(original)
  const weighted = (): WeightedTerm[] => {
    const terms = [...weights]
      .filter(([t]) => (df.get(t) ?? 0) > 0 && (originals.has(t) || df.get(t)! <= commonAt))
      .map(([term, weight]) => ({term, weight, idf: idf(stats.docs, df.get(term)!), candidate: df.get(term)! <= commonAt, df: df.get(term)!}))
    if (!terms.some((t) => t.candidate)) for (const t of terms) t.candidate = true
    return [...terms.filter((t) => t.candidate), ...terms.filter((t) => !t.candidate)]
  }
  // Without a type filter (or feedback terms to re-rank), the first `take` are all the blend sees.
  const take = Math.max(RERANK_MIN, opts.limit * RERANK_FACTOR)
  const pool = opts.type || tuning.prfDocs > 0 ? RERANK_POOL : take
  let scored = retriever.score(weighted(), tuning.bm25, pool)

  if (tuning.prfDocs > 0 && tuning.prfTerms > 0 && scored.length > 0) {
    const expansion = feedbackTerms(db, scored.slice(0, tuning.prfDocs), weights, tuning.prfTerms, retriever, stats.docs)
    if (expansion.length > 0) {
      // Feedback terms re-rank what the query found; they do not bring in memories of their own.
      const edf = retriever.docFrequency(expansion.map((e) => e.term))
      const extra = expansion
        .filter((e) => (edf.get(e.term) ?? 0) > 0)
        .map((e) => ({term: e.term, weight: tuning.prfWeight * e.weight, idf: idf(stats.docs, edf.get(e.term)!), candidate: false}))
      scored = retriever.rescore(scored, extra, tuning.bm25)
    }
  }

  const best = scored[0]?.text || 1
  const cosines = opts.embedding ? cosineBySeq(db, opts.embedding, opts.version) : null
  const relevance = (seq: number, text: number): number => {
    const cos = cosines?.get(seq)
    return cos === undefined ? text : EMBED_TEXT * text + EMBED_COSINE * Math.max(0, cos)
  }
  // Rank on the few fields the blend needs; read whole memories only for the ones returned.
  const ranked: Array<{seq: number; createdAt: string; score: number}> = []
  const seen = new Set<number>()
  // Walk down the BM25 order until enough candidates of the wanted type are collected.
  for (let i = 0; i < scored.length && ranked.length < take; i += take) {
    const slice = scored.slice(i, i + take)
    const fields = retriever.rankFields(slice.map((s) => s.seq))
    for (const s of slice) {
      const m = fields.get(s.seq)
      seen.add(s.seq)
      if (!m || (opts.type && m.type !== opts.type)) continue
      ranked.push({seq: s.seq, createdAt: m.createdAt, score: blendScore(cosines ? relevance(s.seq, s.text / best) : s.text / best, m, opts.now)})
    }
  }

  if (cosines) {
    // the nearest memories by meaning that the words did not find
    const near = [...cosines]
      .filter(([seq, cos]) => cos >= EMBED_MIN_COSINE && !seen.has(seq))
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    const want = Math.max(EMBED_NEIGHBORS, opts.limit)
    for (let i = 0, added = 0; i < near.length && added < want; i += want) {
      const slice = near.slice(i, i + want)
      const fields = retriever.rankFields(slice.map(([seq]) => seq))
      for (const [seq] of slice) {
        const m = fields.get(seq)
        seen.add(seq)
        if (!m || (opts.type && m.type !== opts.type) || added >= want) continue
        ranked.push({seq, createdAt: m.createdAt, score: blendScore(relevance(seq, 0), m, opts.now)})
        added++
      }
    }
  }

  if (ranked.length < opts.limit) {
    const fuzzy = fuzzyIndex(db, opts.version)
      .search(q, opts.limit * 2)
      .filter((f) => !seen.has(f.seq))
    const fields = retriever.rankFields(fuzzy.map((f) => f.seq))
    for (const f of fuzzy) {
      const m = fields.get(f.seq)
      if (!m || (opts.type && m.type !== opts.type)) continue
      // A fuzzy match ranks below any full-text match of the same strength.
      ranked.push({seq: f.seq, createdAt: m.createdAt, score: blendScore(f.relevance * 0.6, m, opts.now)})
    }
  }

  ranked.sort((a, b) => b.score - a.score || (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0) || a.seq - b.seq)
  const top = ranked.slice(0, opts.limit)
  const memories = recallFieldsBySeq(
    db,
    top.map((r) => r.seq),
  )
  return top.flatMap((r) => {
    const memory = memories.get(r.seq)
    return memory ? [{memory, score: r.score}] : []
  })
}

/** Cosine similarity of the query to every live memory's vector from the same model (brute force). */
function cosineBySeq(db: Db, q: {model: string; vector: Float32Array}, version: unknown): Map<number, number> {
  const dims = q.vector.length
  let hit = vectorCache.get(db)
  if (!hit || version === undefined || hit.version !== version || hit.model !== q.model || hit.dims !== dims) {
    hit = {version, model: q.model, dims, ...liveVectors(db, q.model, dims)}
    vectorCache.set(db, hit)
  }
  const out = new Map<number, number>()
  const {seqs, matrix} = hit
  const v = q.vector
  for (let r = 0; r < seqs.length; r++) {
    let dot = 0
    const base = r * dims
    for (let i = 0; i < dims; i++) dot += matrix[base + i] * v[i]
    out.set(seqs[r], dot)
  }
  return out
}

function fuzzyIndex(db: Db, version: unknown): FuzzyIndex {
  const hit = fuzzyCache.get(db)
  const now = Date.now()
  if (hit && (hit.version === version || (version !== undefined && now - hit.builtAt < FUZZY_MAX_AGE_MS))) return hit.index
  const index = new FuzzyIndex(liveShortFields(db, FUZZY_MAX_DOCS))
  fuzzyCache.set(db, {version, builtAt: now, index})
  return index
}

/**
 * Pseudo-relevance feedback: terms frequent in the top results and rare in the store, weighted by
 * tf · idf within those results and normalised so the strongest is 1.
 */
function feedbackTerms(
  db: Db,
  top: Array<{seq: number; text: number}>,
  exclude: Map<string, number>,
  count: number,
  retriever: Retriever,
  docs: number,
): Array<{term: string; weight: number}> {
  const bestText = top[0]?.text || 1
  const tfs: Array<{weight: number; tf: Map<string, number>; len: number}> = []
  const candidates = new Set<string>()
  const fields = indexedFields(
    db,
    top.map((t) => t.seq),
  )
  for (const doc of top) {
    const f = fields.get(doc.seq)
    if (!f) continue
    const terms = `${f[0]} ${f[1]}`.split(' ').filter(Boolean)
    const tf = new Map<string, number>()
    for (const t of terms) {
      if (exclude.has(t) || t.length < 3 || /^\d+$/.test(t)) continue
      tf.set(t, (tf.get(t) ?? 0) + 1)
      candidates.add(t)
    }
    tfs.push({weight: doc.text / bestText, tf, len: terms.length || 1})
  }
  const df = retriever.docFrequency([...candidates].sort())
  const score = new Map<string, number>()
  for (const {weight, tf, len} of tfs) {
    for (const [t, n] of tf) score.set(t, (score.get(t) ?? 0) + weight * (n / len) * idf(docs, df.get(t) ?? 0))
  }
  const ranked = [...score].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, count)
  const max = ranked[0]?.[1] || 1
  return ranked.map(([term, s]) => ({term, weight: s / max}))
}
