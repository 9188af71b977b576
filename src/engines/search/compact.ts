import type {Db} from '../../storage/db.js'
import {FTS_COLUMN_COUNT} from '../../storage/fts.js'
import {recordedOrigins, type RankFields, type RecallFields} from '../../storage/memories.js'
import {dominantVectorModel, liveVectors} from '../../storage/vectors.js'
import {indexBasics, indexedFieldsInOrder, liveIndexRows, type IndexedMemory, type RecallIndexContent, type RecallIndexFile} from '../../storage/recall-index.js'
import {newestVersions} from '../currency.js'
import {CROSS_REPO_LINK_TAG} from '../sharing/sources.js'
import {groupsOf, scoreFieldsTf, type Bm25Params, type CorpusStats, type WeightedTerm} from './bm25.js'
import {cosinesOf, searchIn, type SearchHit, type SearchOptions} from './engine.js'
import {byText, topK, type Retriever} from './retriever.js'
import {Vocabulary} from './vocabulary.js'

/**
 * Search over the recall index file (storage/recall-index.ts), for a one-shot `mem recall` that
 * should not load the whole database. It answers exactly as the on-disk FTS4 path does: the same
 * statistics, candidates and arithmetic (those of MemoryIndex.score), read from the file.
 */

/** What the recall index holds, read from the database (at close of a store whose index was behind). */
export function buildRecallIndex(db: Db): RecallIndexContent {
  const basics = indexBasics(db, CROSS_REPO_LINK_TAG)
  const {records, updated} = liveIndexRows(db)
  // the newest version of each memory that a newer one updates, as recall's currency step finds it
  const newest = newestVersions(db, updated)
  const newer = new Map<number, RecallFields>()
  // the index keeps origins as recorded, with their MACs: its reader verifies them (recall-index.ts)
  const recorded = recordedOrigins(db, [...newest.values()].map((n) => n.id))
  for (const m of updated) {
    const n = newest.get(m.id)
    if (n) newer.set((m as RecallFields & {seq: number}).seq, {...n, ...recorded.get(n.id)})
  }
  // the meaning vectors of the model most live memories were embedded by (engines/meaning)
  const dominant = dominantVectorModel(db)
  const vectors = dominant ? {...dominant, ...liveVectors(db, dominant.model, dominant.dims)} : undefined
  return {...basics, fields: indexedFieldsInOrder(db), records, newer, ...(vectors ? {vectors} : {})}
}

/**
 * Whether the index can rank `q`'s vector by meaning by itself: it holds a vector from that model
 * for every live memory (else the store answers, and embeds the ones that lack one first).
 */
export function indexAnswersMeaning(index: RecallIndexFile, embedding: {model: string; vector: Float32Array}): boolean {
  const v = index.header.vectors
  return index.header.solo && v !== undefined && v.model === embedding.model && v.dims === embedding.vector.length && v.missing === 0
}

/**
 * Ranks like searchMemories(db, q, {index: 'fts'}) from the index file; undefined when the file
 * cannot answer this search alone (recall would also read mounted layers or linked repos, or the
 * question's vector is of a model whose vectors the index does not hold for every memory).
 */
export function searchIndexed(index: RecallIndexFile, q: string, opts: Omit<SearchOptions, 'index' | 'tuning'>): SearchHit[] | undefined {
  if (!index.header.solo) return undefined
  const embedding = opts.embedding
  if (embedding && !indexAnswersMeaning(index, embedding)) return undefined
  const retriever = new CompactRetriever(index)
  return searchIn(
    () => ({
      retriever,
      cosines: (e) => {
        const v = index.vectors(e.model, e.vector.length)
        if (!v) throw new Error('the recall index holds no vectors of this model')
        return cosinesOf(v.seqs, v.matrix, e.vector)
      },
      // the index answers only when current, so its counts are the memory's (the prompt hook reads them: operations/agent-hooks.ts)
      recallFields: (seqs) => new Map([...retriever.records(seqs)].map(([seq, m]) => [seq, Number.isInteger(m.rank.unusedCount) && m.rank.unusedCount >= 0 ? {...m.recall, unusedCount: m.rank.unusedCount} : m.recall])),
      newestVersions: (memories: RecallFields[]) => {
        const out = new Map<string, RecallFields>()
        const byId = retriever.newerById()
        for (const m of memories) {
          const n = byId.get(m.id)
          if (n) out.set(m.id, n)
        }
        return out
      },
    }),
    q,
    opts,
  )
}

export class CompactRetriever implements Retriever {
  private readonly postingCache = new Map<string, {seqs: Uint32Array; tf: Uint32Array} | null>()
  private readonly recordCache = new Map<number, IndexedMemory>()
  private readonly letters = new Map<string, Array<{term: string; df: number}>>()

  constructor(private readonly index: RecallIndexFile) {}

  stats(): CorpusStats {
    const {docs, tokens} = this.index.header
    return {docs, avgLen: tokens.map((t) => (docs > 0 ? t / docs : 0))}
  }

  docFrequency(terms: string[]): Map<string, number> {
    return new Map(terms.map((t) => [t, this.index.docFrequency(t)]))
  }

  private postings(term: string): {seqs: Uint32Array; tf: Uint32Array} | null {
    let p = this.postingCache.get(term)
    if (p === undefined) {
      p = this.index.postings(term)
      this.postingCache.set(term, p)
    }
    return p
  }

  score(terms: WeightedTerm[], params: Bm25Params, k: number): Array<{seq: number; text: number}> {
    const stats = this.stats()
    const seqCount = this.index.header.seqs
    const acc = new Float64Array(seqCount).fill(Number.NaN)
    const best = new Float64Array(seqCount)
    const len = this.index.lengths
    const touched: number[] = []
    const {k1, b, delta} = params
    const w0 = params.weights[0] ?? 1
    const w1 = params.weights[1] ?? 1
    const w2 = params.weights[2] ?? 1
    const a0 = stats.avgLen[0] || 1
    const a1 = stats.avgLen[1] || 1
    const a2 = stats.avgLen[2] || 1
    // the memories holding a candidate term are the ones scored (as MemoryIndex.score)
    for (const t of terms) {
      if (!t.candidate) continue
      const p = this.postings(t.term)
      if (!p) continue
      for (const seq of p.seqs) {
        if (Number.isNaN(acc[seq])) {
          acc[seq] = 0
          touched.push(seq)
        }
      }
    }
    const groups = groupsOf(terms)
    const inGroup: number[] = []
    for (let g = 0; g < groups.count; g++) {
      for (let ti = 0; ti < terms.length; ti++) {
        if (groups.ids[ti] !== g) continue
        const t = terms[ti]
        const p = this.postings(t.term)
        if (!p) continue
        const scale = t.weight * t.idf
        const {seqs, tf} = p
        // the arithmetic of MemoryIndex.score (and termScore in bm25.ts), in the same order
        for (let i = 0; i < seqs.length; i++) {
          const seq = seqs[i]
          if (Number.isNaN(acc[seq])) continue
          const l = seq * FTS_COLUMN_COUNT
          let eff = 0
          if (tf[i * 3] !== 0) eff += w0 * (tf[i * 3] / (1 - b + (b * len[l]) / a0))
          if (tf[i * 3 + 1] !== 0) eff += w1 * (tf[i * 3 + 1] / (1 - b + (b * len[l + 1]) / a1))
          if (tf[i * 3 + 2] !== 0) eff += w2 * (tf[i * 3 + 2] / (1 - b + (b * len[l + 2]) / a2))
          if (eff === 0) continue
          const v = scale * ((eff * (k1 + 1)) / (eff + k1) + delta)
          if (best[seq] === 0) inGroup.push(seq)
          if (v > best[seq]) best[seq] = v
        }
      }
      for (const seq of inGroup) {
        acc[seq] += best[seq]
        best[seq] = 0
      }
      inGroup.length = 0
    }
    return topK(
      touched.map((seq) => ({seq, text: acc[seq]})),
      k,
    )
  }

  rescore(pool: Array<{seq: number; text: number}>, extra: WeightedTerm[], params: Bm25Params): Array<{seq: number; text: number}> {
    const stats = this.stats()
    const text = new Map(pool.map((p) => [p.seq, p.text]))
    const len = this.index.lengths
    for (const t of extra) {
      const p = this.postings(t.term)
      if (!p) continue
      for (let i = 0; i < p.seqs.length; i++) {
        const seq = p.seqs[i]
        const had = text.get(seq)
        if (had === undefined) continue
        const l = seq * FTS_COLUMN_COUNT
        text.set(seq, had + scoreFieldsTf(p.tf.subarray(i * 3, i * 3 + 3), len.subarray(l, l + 3), t, stats, params))
      }
    }
    return [...text].map(([seq, t]) => ({seq, text: t})).sort(byText)
  }

  corrections(term: string, maxEdits: number): string[] {
    const first = term[0]
    let entries = this.letters.get(first)
    if (!entries) {
      // the range FtsRetriever reads: terms from this letter up to the next code point
      entries = first ? this.index.termsBetween(first, String.fromCodePoint(first.codePointAt(0)! + 1)) : []
      this.letters.set(first, entries)
    }
    return new Vocabulary(entries, 0).corrections(term, maxEdits)
  }

  /** The index's records of `seqs` (live indexed memories only). */
  records(seqs: number[]): Map<number, IndexedMemory> {
    const missing = seqs.filter((s) => !this.recordCache.has(s))
    if (missing.length > 0) for (const [seq, m] of this.index.memories(missing)) this.recordCache.set(seq, m)
    const out = new Map<number, IndexedMemory>()
    for (const seq of seqs) {
      const m = this.recordCache.get(seq)
      if (m) out.set(seq, m)
    }
    return out
  }

  /** The newest versions known for the records read so far, by the older memory's id. */
  newerById(): Map<string, RecallFields> {
    const out = new Map<string, RecallFields>()
    for (const m of this.recordCache.values()) if (m.newer) out.set(m.recall.id, m.newer)
    return out
  }

  rankFields(seqs: number[]): Map<number, RankFields> {
    return new Map([...this.records(seqs)].map(([seq, m]) => [seq, m.rank]))
  }
}
