import type {Memory, MemoryType} from '../model.js'
import type {Db} from '../storage/db.js'
import {ftsMatchAny, indexedCount, indexedTerms, vocabulary, type FtsHit} from '../storage/fts.js'
import {getMemoriesBySeq, liveShortFields} from '../storage/memories.js'
import {bm25, DEFAULT_BM25, type Bm25Params} from './bm25.js'
import {FuzzyIndex} from './fuzzy.js'
import {queryTerms} from './query.js'
import {blendScore} from './rank.js'
import {thesaurusExpansions} from './thesaurus.js'
import {Vocabulary} from './vocabulary.js'

/**
 * Retrieval settings. Each was kept because the recall benchmark (test/bench/recall.mjs) showed
 * it helps on the project's evaluation set; the figures are in docs/recall.md.
 */
export interface Tuning {
  bm25: Bm25Params
  /** Correct query terms the index has never seen to known terms within 1–2 edits. */
  typoCorrection: boolean
  /** Weight of a corrected term relative to an original one. */
  correctionWeight: number
  /** Pseudo-relevance feedback: expand the query with terms of the top `prfDocs` results. */
  prfDocs: number
  prfTerms: number
  prfWeight: number
  /** Weight of a developer-thesaurus synonym (thesaurus.ts) relative to an original term; 0 turns it off. */
  synonymWeight: number
}

export const DEFAULT_TUNING: Tuning = {
  bm25: DEFAULT_BM25,
  typoCorrection: true,
  correctionWeight: 0.8,
  prfDocs: 3,
  prfTerms: 8,
  prfWeight: 0.3,
  synonymWeight: 0.5,
}

export interface SearchOptions {
  limit: number
  type?: MemoryType
  now: Date
  /** A key that changes whenever the store changes (for caching derived indexes). */
  version?: unknown
  tuning?: Partial<Tuning>
}

export interface SearchHit {
  memory: Memory
  score: number
}

/** How many BM25 candidates are re-ranked with the full blend, per requested result. */
const RERANK_FACTOR = 5
const RERANK_MIN = 50
/** A derived index (vocabulary, fuzzy) is rebuilt at most this often while the store keeps changing. */
const DERIVED_MAX_AGE_MS = 30_000

interface Derived<T> {
  version: unknown
  builtAt: number
  value: T
}
const vocabCache = new WeakMap<Db, Derived<Vocabulary>>()
const fuzzyCache = new WeakMap<Db, Derived<FuzzyIndex>>()

function derived<T>(cache: WeakMap<Db, Derived<T>>, db: Db, version: unknown, build: () => T): T {
  const hit = cache.get(db)
  const now = Date.now()
  if (hit && (hit.version === version || (version !== undefined && now - hit.builtAt < DERIVED_MAX_AGE_MS))) return hit.value
  const value = build()
  cache.set(db, {version, builtAt: now, value})
  return value
}

interface WeightedQuery {
  terms: string[]
  weights: number[]
}

function scoreHits(hits: FtsHit[], q: WeightedQuery, params: Bm25Params): Array<{seq: number; text: number; info: Uint32Array}> {
  return hits
    .map((h) => ({seq: h.seq, text: bm25(h.info, params, q.weights), info: h.info}))
    .sort((a, b) => b.text - a.text || a.seq - b.seq)
}

/** Terms of the query that no live memory contains, read from matchinfo's per-term row counts. */
function unknownTerms(hits: FtsHit[], terms: string[]): string[] {
  if (hits.length === 0) return terms
  const info = hits[0].info
  const c = info[1]
  const xOff = 3 + 2 * c
  return terms.filter((_, i) => {
    for (let j = 0; j < c; j++) if (info[xOff + 3 * (i * c + j) + 2] > 0) return false
    return true
  })
}

/**
 * Ranks the live memories of one store against a natural-language query:
 * 1. BM25F over the full-text index (body, tags, one-liner);
 * 2. query terms the index has never seen are corrected to known terms (typos);
 * 3. pseudo-relevance feedback adds the strongest terms of the top results, down-weighted;
 * 4. the top candidates are re-ranked with the blended score (rank.ts);
 * 5. when the index finds fewer than `limit`, fuzzy matching on one-liners and tags fills in.
 */
export function searchMemories(db: Db, q: string, opts: SearchOptions): SearchHit[] {
  const tuning: Tuning = {...DEFAULT_TUNING, ...opts.tuning}
  const original = queryTerms(q)
  if (original.length === 0) return []
  const query: WeightedQuery = {terms: [...original], weights: original.map(() => 1)}

  if (tuning.synonymWeight > 0) {
    const synonyms = thesaurusExpansions(original)
    query.terms.push(...synonyms)
    query.weights.push(...synonyms.map(() => tuning.synonymWeight))
  }

  let hits = ftsMatchAny(db, query.terms)
  const vocab = () => derived(vocabCache, db, opts.version, () => new Vocabulary(vocabulary(db), indexedCount(db)))

  if (tuning.typoCorrection) {
    const added: string[] = []
    for (const term of unknownTerms(hits, query.terms).filter((t) => original.includes(t))) {
      if (!/^[a-z]{4,}$/.test(term)) continue
      for (const fix of vocab().corrections(term, term.length >= 8 ? 2 : 1)) {
        if (query.terms.includes(fix) || added.includes(fix)) continue
        added.push(fix)
      }
    }
    if (added.length > 0) {
      query.terms.push(...added)
      query.weights.push(...added.map(() => tuning.correctionWeight))
      hits = ftsMatchAny(db, query.terms)
    }
  }

  let scored = scoreHits(hits, query, tuning.bm25)

  if (tuning.prfDocs > 0 && tuning.prfTerms > 0 && scored.length > 0) {
    const expansion = feedbackTerms(db, scored.slice(0, tuning.prfDocs), query.terms, tuning.prfTerms, vocab())
    if (expansion.length > 0) {
      query.terms.push(...expansion.map((e) => e.term))
      query.weights.push(...expansion.map((e) => tuning.prfWeight * e.weight))
      scored = scoreHits(ftsMatchAny(db, query.terms), query, tuning.bm25)
    }
  }

  const best = scored[0]?.text || 1
  const hitsOut: SearchHit[] = []
  const take = Math.max(RERANK_MIN, opts.limit * RERANK_FACTOR)
  const seen = new Set<number>()
  // Walk down the BM25 order until enough candidates of the wanted type are collected.
  for (let i = 0; i < scored.length && hitsOut.length < take; i += take) {
    const slice = scored.slice(i, i + take)
    const memories = getMemoriesBySeq(
      db,
      slice.map((s) => s.seq),
    )
    for (const s of slice) {
      const m = memories.get(s.seq)
      seen.add(s.seq)
      if (!m || (opts.type && m.type !== opts.type)) continue
      hitsOut.push({memory: m, score: blendScore(s.text / best, m, opts.now)})
    }
  }

  if (hitsOut.length < opts.limit) {
    const fuzzy = derived(fuzzyCache, db, opts.version, () => new FuzzyIndex(liveShortFields(db)))
    for (const f of fuzzy.search(q, opts.limit * 2)) {
      if (seen.has(f.seq)) continue
      seen.add(f.seq)
      const m = getMemoriesBySeq(db, [f.seq]).get(f.seq)
      if (!m || (opts.type && m.type !== opts.type)) continue
      // A fuzzy match ranks below any full-text match of the same strength.
      hitsOut.push({memory: m, score: blendScore(f.relevance * 0.6, m, opts.now)})
    }
  }

  hitsOut.sort((a, b) => b.score - a.score || (a.memory.createdAt < b.memory.createdAt ? 1 : -1))
  return hitsOut.slice(0, opts.limit)
}

/**
 * Pseudo-relevance feedback: terms that are frequent in the top results and rare in the store,
 * weighted by tf · idf within those results, normalised so the strongest is 1.
 */
function feedbackTerms(
  db: Db,
  top: Array<{seq: number; text: number}>,
  exclude: string[],
  count: number,
  vocab: Vocabulary,
): Array<{term: string; weight: number}> {
  const skip = new Set(exclude)
  const score = new Map<string, number>()
  const bestText = top[0]?.text || 1
  for (const doc of indexedTerms(
    db,
    top.map((t) => t.seq),
  )) {
    const docWeight = (top.find((t) => t.seq === doc.seq)?.text ?? 0) / bestText
    const terms = `${doc.body} ${doc.tags}`.split(' ').filter(Boolean)
    const tf = new Map<string, number>()
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1)
    for (const [t, n] of tf) {
      if (skip.has(t) || t.length < 3 || /^\d+$/.test(t)) continue
      score.set(t, (score.get(t) ?? 0) + docWeight * (n / terms.length) * vocab.idf(t))
    }
  }
  const ranked = [...score].sort((a, b) => b[1] - a[1]).slice(0, count)
  const max = ranked[0]?.[1] || 1
  return ranked.map(([term, s]) => ({term, weight: s / max}))
}
