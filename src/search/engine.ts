import type {Memory, MemoryType} from '../model.js'
import type {Db} from '../storage/db.js'
import {ftsMatchAny} from '../storage/fts.js'
import {getMemoriesBySeq, liveShortFields} from '../storage/memories.js'
import {bm25} from './bm25.js'
import {FuzzyIndex} from './fuzzy.js'
import {queryTerms} from './query.js'
import {blendScore} from './rank.js'

export interface SearchOptions {
  limit: number
  type?: MemoryType
  now: Date
  /** A key that changes whenever the store changes (for caching the fuzzy index). */
  version?: unknown
}

export interface SearchHit {
  memory: Memory
  score: number
}

/** How many BM25 candidates are re-ranked with the full blend, per requested result. */
const RERANK_FACTOR = 5
const RERANK_MIN = 50

const fuzzyCache = new WeakMap<Db, {version: unknown; index: FuzzyIndex}>()

/**
 * Ranks the live memories of one store against a natural-language query: BM25F over the
 * full-text index for candidates, the blended score (rank.ts) to order them, and the fuzzy
 * fallback when the index finds fewer than `limit`.
 */
export function searchMemories(db: Db, q: string, opts: SearchOptions): SearchHit[] {
  const terms = queryTerms(q)
  if (terms.length === 0) return []

  const scored = ftsMatchAny(db, terms).map((h) => ({seq: h.seq, text: bm25(h.info)}))
  scored.sort((a, b) => b.text - a.text || a.seq - b.seq)
  const best = scored[0]?.text || 1
  const hits: SearchHit[] = []
  const take = Math.max(RERANK_MIN, opts.limit * RERANK_FACTOR)
  const seen = new Set<number>()
  // Walk down the BM25 order until enough candidates of the wanted type are collected.
  for (let i = 0; i < scored.length && hits.length < take; i += take) {
    const slice = scored.slice(i, i + take)
    const memories = getMemoriesBySeq(
      db,
      slice.map((s) => s.seq),
    )
    for (const s of slice) {
      const m = memories.get(s.seq)
      seen.add(s.seq)
      if (!m || (opts.type && m.type !== opts.type)) continue
      hits.push({memory: m, score: blendScore(s.text / best, m, opts.now)})
    }
  }

  if (hits.length < opts.limit) {
    for (const f of fuzzyIndex(db, opts.version).search(q, opts.limit * 2)) {
      if (seen.has(f.seq)) continue
      seen.add(f.seq)
      const m = getMemoriesBySeq(db, [f.seq]).get(f.seq)
      if (!m || (opts.type && m.type !== opts.type)) continue
      // A fuzzy match ranks below any full-text match of the same strength.
      hits.push({memory: m, score: blendScore(f.relevance * 0.6, m, opts.now)})
    }
  }

  hits.sort((a, b) => b.score - a.score || (a.memory.createdAt < b.memory.createdAt ? 1 : -1))
  return hits.slice(0, opts.limit)
}

function fuzzyIndex(db: Db, version: unknown): FuzzyIndex {
  const cached = fuzzyCache.get(db)
  if (cached && version !== undefined && cached.version === version) return cached.index
  const index = new FuzzyIndex(liveShortFields(db))
  fuzzyCache.set(db, {version, index})
  return index
}
