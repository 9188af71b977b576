import type {Db} from '../../storage/db.js'
import {
  allIndexedFields,
  docFrequencies,
  FTS_COLUMN_COUNT,
  ftsTermStats,
  indexChangesSince,
  indexedFields,
  indexLogBounds,
  indexTotals,
  vocabularyStartingWith,
  type IndexedFields,
} from '../../storage/fts.js'
import {rankEpoch, rankFieldsBySeq, type RankFields} from '../../storage/memories.js'
import {contributions, groupsOf, scoreFieldsTf, type Bm25Params, type CorpusStats, type WeightedTerm} from './bm25.js'
import {Vocabulary} from './vocabulary.js'

/**
 * Where BM25 gets its candidates and statistics. Two implementations answer identically:
 * - FtsRetriever asks the FTS4 index on disk: no set-up cost, right for a one-shot CLI command;
 * - MemoryIndex keeps an inverted index in the process, built once and then followed
 *   incrementally through the index change log: right for a server answering many queries.
 */
export interface Retriever {
  stats(): CorpusStats
  docFrequency(terms: string[]): Map<string, number>
  /**
   * The `k` best memories by BM25F among those matching at least one candidate term (every term
   * adds to the score), best first; ties go to the lower seq.
   */
  score(terms: WeightedTerm[], params: Bm25Params, k: number): Array<{seq: number; text: number}>
  /**
   * Adds the contribution of `extra` terms to already scored memories (only those), and returns
   * them best first. Contributions are added term by term, in order, in both implementations.
   */
  rescore(pool: Array<{seq: number; text: number}>, extra: WeightedTerm[], params: Bm25Params): Array<{seq: number; text: number}>
  /** Known terms within `maxEdits` of `term` that share its first letter. */
  corrections(term: string, maxEdits: number): string[]
  /** What the blend needs of each memory (rank.ts), by seq; unknown seqs are left out. */
  rankFields(seqs: number[]): Map<number, RankFields>
}

function statsFrom(docs: number, tokens: readonly number[]): CorpusStats {
  return {docs, avgLen: tokens.map((t) => (docs > 0 ? t / docs : 0))}
}

/** Terms of one first letter from which the on-disk index reads that letter's whole vocabulary. */
const LETTER_SCAN_MIN = 32

export class FtsRetriever implements Retriever {
  /** Fields fetched by the last score(), reused by rescore(). */
  private fields = new Map<number, IndexedFields>()

  constructor(private readonly db: Db) {}

  stats(): CorpusStats {
    const t = indexTotals(this.db)
    return statsFrom(t.docs, t.tokens)
  }

  /** Vocabulary ranges read by this retriever (one search), by first letter. */
  private vocabByLetter = new Map<string, Map<string, number>>()

  docFrequency(terms: string[]): Map<string, number> {
    // Typo variants come by the hundred with one first letter: one range scan of the vocabulary
    // for that letter is cheaper than a lookup per term. Other terms are looked up one by one.
    const byLetter = new Map<string, string[]>()
    for (const term of terms) {
      const group = byLetter.get(term[0] ?? '')
      if (group) group.push(term)
      else byLetter.set(term[0] ?? '', [term])
    }
    const out = new Map<string, number>()
    for (const [first, group] of byLetter) {
      if (group.length >= LETTER_SCAN_MIN && first) {
        const vocab = this.letterVocabulary(first)
        for (const term of group) out.set(term, vocab.get(term) ?? 0)
      } else {
        for (const [term, n] of docFrequencies(this.db, group)) out.set(term, n)
      }
    }
    return out
  }

  private letterVocabulary(first: string): Map<string, number> {
    let vocab = this.vocabByLetter.get(first)
    if (!vocab) {
      vocab = new Map(first ? vocabularyStartingWith(this.db, first).map((e) => [e.term, e.df]) : [])
      this.vocabByLetter.set(first, vocab)
    }
    return vocab
  }

  score(terms: WeightedTerm[], params: Bm25Params, k: number): Array<{seq: number; text: number}> {
    this.fields.clear()
    const stats = this.stats()
    const {k1, b, delta} = params
    const w = [params.weights[0] ?? 1, params.weights[1] ?? 1, params.weights[2] ?? 1]
    const avg = [stats.avgLen[0] || 1, stats.avgLen[1] || 1, stats.avgLen[2] || 1]
    // Same arithmetic, in the same order, as MemoryIndex.score.
    const {seqs, tf, len} = ftsTermStats(
      this.db,
      terms.map((t) => t.term),
      terms.map((t) => t.candidate),
      terms.every((t) => t.df !== undefined) ? terms.map((t) => t.df!) : undefined,
    )
    const width = terms.length * FTS_COLUMN_COUNT
    const groups = groupsOf(terms)
    const best = new Float64Array(groups.count)
    const out: Array<{seq: number; text: number}> = []
    for (let d = 0; d < seqs.length; d++) {
      best.fill(0)
      for (let t = 0; t < terms.length; t++) {
        let eff = 0
        for (let f = 0; f < FTS_COLUMN_COUNT; f++) {
          const n = tf[d * width + t * FTS_COLUMN_COUNT + f]
          if (n !== 0) eff += w[f] * (n / (1 - b + (b * len[d * FTS_COLUMN_COUNT + f]) / avg[f]))
        }
        if (eff > 0) {
          const v = terms[t].weight * terms[t].idf * ((eff * (k1 + 1)) / (eff + k1) + delta)
          if (v > best[groups.ids[t]]) best[groups.ids[t]] = v
        }
      }
      // concepts summed in group order, as MemoryIndex.score adds them
      let acc = 0
      for (let g = 0; g < groups.count; g++) acc += best[g]
      out.push({seq: seqs[d], text: acc})
    }
    return topK(out, k)
  }

  rescore(pool: Array<{seq: number; text: number}>, extra: WeightedTerm[], params: Bm25Params): Array<{seq: number; text: number}> {
    const missing = pool.map((p) => p.seq).filter((seq) => !this.fields.has(seq))
    for (const [seq, f] of indexedFields(this.db, missing)) this.fields.set(seq, f)
    const text = new Map(pool.map((p) => [p.seq, p.text]))
    const docs = pool.flatMap((p): Array<[number, IndexedFields]> => {
      const f = this.fields.get(p.seq)
      return f ? [[p.seq, f]] : []
    })
    contributions(docs, extra, this.stats(), params, (seq, values) => {
      let t = text.get(seq)!
      for (let i = 0; i < values.length; i++) t += values[i]
      text.set(seq, t)
    })
    return [...text].map(([seq, t]) => ({seq, text: t})).sort(byText)
  }

  corrections(term: string, maxEdits: number): string[] {
    const vocab = new Vocabulary(
      [...this.letterVocabulary(term[0])].map(([t, df]) => ({term: t, df})),
      0,
    )
    return vocab.corrections(term, maxEdits)
  }

  rankFields(seqs: number[]): Map<number, RankFields> {
    return rankFieldsBySeq(this.db, seqs)
  }
}

const STRIDE = 1 + 2 * FTS_COLUMN_COUNT // seq, tf per field, length per field

export class MemoryIndex implements Retriever {
  private termIds = new Map<string, number>()
  private termList: string[] = []
  /** Per term: flat [seq, tf0, tf1, tf2, len0, len1, len2] per document. */
  private postings: number[][] = []
  private df: number[] = []
  private forward = new Map<number, number[]>()
  private tokens = [0, 0, 0]
  private vocab: Vocabulary | undefined
  private logPosition = 0
  private maxSeq = 0
  /** The database's write counter when the index was last brought up to date. */
  private syncedAt = -1
  /** Rank fields read so far, valid while the store's rank epoch stays the same. */
  private ranks = new Map<number, RankFields>()
  private ranksEpoch = -1

  private constructor(private readonly db: Db) {}

  /** The index for this database, built on first use and brought up to date on every call. */
  static for(db: Db): MemoryIndex {
    let index = indexes.get(db)
    if (!index) {
      index = new MemoryIndex(db)
      index.rebuild()
      indexes.set(db, index)
    } else index.sync()
    return index
  }

  private rebuild(): void {
    this.termIds.clear()
    this.termList = []
    this.postings = []
    this.df = []
    this.forward.clear()
    this.tokens = [0, 0, 0]
    this.vocab = undefined
    this.logPosition = indexLogBounds(this.db).last
    this.syncedAt = this.db.writeCount
    for (const [seq, ...fields] of allIndexedFields(this.db)) this.add(seq, fields)
  }

  private sync(): void {
    // nothing was written since the last look: the change log cannot have moved
    if (this.db.writeCount === this.syncedAt) return
    this.syncedAt = this.db.writeCount
    const {first, last} = indexLogBounds(this.db)
    if (last === this.logPosition) return
    if (last < this.logPosition || first > this.logPosition + 1) {
      this.rebuild() // the log was pruned past us, or belongs to another database
      return
    }
    const changes = indexChangesSince(this.db, this.logPosition)
    const latest = new Map<number, boolean>()
    for (const c of changes) latest.set(c.seq, c.indexed)
    const toAdd = [...latest].filter(([, indexed]) => indexed).map(([seq]) => seq)
    const fields = indexedFields(this.db, toAdd)
    for (const seq of latest.keys()) this.remove(seq)
    for (const seq of toAdd) {
      const f = fields.get(seq)
      if (f) this.add(seq, f)
    }
    this.logPosition = last
  }

  private add(seq: number, fields: IndexedFields): void {
    if (seq > this.maxSeq) this.maxSeq = seq
    const perTerm = new Map<number, number[]>()
    const len = fields.map((f) => (f ? f.split(' ').length : 0))
    fields.forEach((field, f) => {
      if (!field) return
      this.tokens[f] += len[f]
      for (const term of field.split(' ')) {
        let id = this.termIds.get(term)
        if (id === undefined) {
          id = this.termList.length
          this.termIds.set(term, id)
          this.termList.push(term)
          this.postings.push([])
          this.df.push(0)
          this.vocab = undefined
        }
        let tf = perTerm.get(id)
        if (!tf) perTerm.set(id, (tf = [0, 0, 0]))
        tf[f]++
      }
    })
    for (const [id, tf] of perTerm) {
      this.postings[id].push(seq, tf[0], tf[1], tf[2], len[0], len[1], len[2])
      if (this.df[id]++ === 0) this.vocab = undefined
    }
    this.forward.set(seq, [...perTerm.keys()])
  }

  private remove(seq: number): void {
    const ids = this.forward.get(seq)
    if (!ids) return
    this.forward.delete(seq)
    let lens: number[] | undefined
    for (const id of ids) {
      const p = this.postings[id]
      for (let i = 0; i < p.length; i += STRIDE) {
        if (p[i] !== seq) continue
        lens ??= p.slice(i + 1 + FTS_COLUMN_COUNT, i + STRIDE)
        p.splice(i, STRIDE)
        break
      }
      if (--this.df[id] === 0) this.vocab = undefined
    }
    if (lens) lens.forEach((n, f) => (this.tokens[f] -= n))
  }

  stats(): CorpusStats {
    return statsFrom(this.forward.size, this.tokens)
  }

  docFrequency(terms: string[]): Map<string, number> {
    return new Map(terms.map((t) => [t, this.df[this.termIds.get(t) ?? -1] ?? 0]))
  }

  score(terms: WeightedTerm[], params: Bm25Params, k: number): Array<{seq: number; text: number}> {
    const stats = this.stats()
    const acc = this.accumulator()
    const touched: number[] = []
    const {k1, b, delta} = params
    const w0 = params.weights[0] ?? 1
    const w1 = params.weights[1] ?? 1
    const w2 = params.weights[2] ?? 1
    const a0 = stats.avgLen[0] || 1
    const a1 = stats.avgLen[1] || 1
    const a2 = stats.avgLen[2] || 1
    // The memories holding a candidate term are the ones scored (rarer terms find, common ones add).
    for (const t of terms) {
      const id = this.termIds.get(t.term)
      if (!t.candidate || id === undefined) continue
      const p = this.postings[id]
      for (let i = 0; i < p.length; i += STRIDE) {
        if (Number.isNaN(acc[p[i]])) {
          acc[p[i]] = 0
          touched.push(p[i])
        }
      }
    }
    // Then concept by concept, in group order: each memory adds its best term of the concept.
    const groups = groupsOf(terms)
    const best = this.groupBest()
    const inGroup: number[] = []
    for (let g = 0; g < groups.count; g++) {
      for (let ti = 0; ti < terms.length; ti++) {
        if (groups.ids[ti] !== g) continue
        const t = terms[ti]
        const id = this.termIds.get(t.term)
        if (id === undefined) continue
        const p = this.postings[id]
        const scale = t.weight * t.idf
        // Same arithmetic as termScore() in bm25.ts, inlined for the hot loop.
        for (let i = 0; i < p.length; i += STRIDE) {
          const seq = p[i]
          if (Number.isNaN(acc[seq])) continue
          let eff = 0
          if (p[i + 1] !== 0) eff += w0 * (p[i + 1] / (1 - b + (b * p[i + 4]) / a0))
          if (p[i + 2] !== 0) eff += w1 * (p[i + 2] / (1 - b + (b * p[i + 5]) / a1))
          if (p[i + 3] !== 0) eff += w2 * (p[i + 3] / (1 - b + (b * p[i + 6]) / a2))
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
    const out = topSeqs(touched, acc, k)
    for (const seq of touched) acc[seq] = Number.NaN
    return out
  }

  rescore(pool: Array<{seq: number; text: number}>, extra: WeightedTerm[], params: Bm25Params): Array<{seq: number; text: number}> {
    const stats = this.stats()
    const acc = this.accumulator()
    for (const p of pool) acc[p.seq] = p.text
    const tf = [0, 0, 0]
    const len = [0, 0, 0]
    for (const t of extra) {
      const id = this.termIds.get(t.term)
      if (id === undefined) continue
      const p = this.postings[id]
      for (let i = 0; i < p.length; i += STRIDE) {
        const seq = p[i]
        if (Number.isNaN(acc[seq])) continue
        for (let f = 0; f < FTS_COLUMN_COUNT; f++) {
          tf[f] = p[i + 1 + f]
          len[f] = p[i + 1 + FTS_COLUMN_COUNT + f]
        }
        acc[seq] += scoreFieldsTf(tf, len, t, stats, params)
      }
    }
    const out = pool.map(({seq}) => ({seq, text: acc[seq]})).sort(byText)
    for (const p of pool) acc[p.seq] = Number.NaN
    return out
  }

  private acc: Float64Array = new Float64Array(0)
  private best: Float64Array = new Float64Array(0)

  /** A score slot per seq, NaN meaning "not a candidate"; reused across queries. */
  /** Zeroed scratch, one slot per memory, for a concept's best term per memory. */
  private groupBest(): Float64Array {
    if (this.best.length <= this.maxSeq) this.best = new Float64Array(Math.max(this.maxSeq + 1, this.best.length * 2, 1024))
    return this.best
  }

  private accumulator(): Float64Array {
    if (this.acc.length <= this.maxSeq) {
      this.acc = new Float64Array(Math.max(this.maxSeq + 1, this.acc.length * 2, 1024)).fill(Number.NaN)
    }
    return this.acc
  }

  rankFields(seqs: number[]): Map<number, RankFields> {
    const epoch = rankEpoch(this.db)
    if (epoch !== this.ranksEpoch) {
      this.ranks.clear()
      this.ranksEpoch = epoch
    }
    const out = new Map<number, RankFields>()
    const missing: number[] = []
    for (const seq of seqs) {
      const r = this.ranks.get(seq)
      if (r) out.set(seq, r)
      else missing.push(seq)
    }
    if (missing.length > 0) {
      for (const [seq, r] of rankFieldsBySeq(this.db, missing)) {
        this.ranks.set(seq, r)
        out.set(seq, r)
      }
    }
    return out
  }

  corrections(term: string, maxEdits: number): string[] {
    this.vocab ??= new Vocabulary(
      this.termList.map((t, id) => ({term: t, df: this.df[id]})).filter((e) => e.df > 0),
      this.forward.size,
    )
    return this.vocab.corrections(term, maxEdits)
  }
}

const indexes = new WeakMap<Db, MemoryIndex>()

export function byText(a: {seq: number; text: number}, b: {seq: number; text: number}): number {
  return b.text - a.text || a.seq - b.seq
}

/** The `k` best of `items`, best first, without sorting everything (a bounded min-heap). */
export function topK<T extends {seq: number; text: number}>(items: T[], k: number): T[] {
  if (items.length <= k) return items.sort(byText)
  const heap: T[] = []
  const worse = (a: T, b: T) => byText(a, b) > 0
  for (const it of items) {
    if (heap.length < k) {
      heap.push(it)
      for (let i = heap.length - 1; i > 0; ) {
        const p = (i - 1) >> 1
        if (!worse(heap[i], heap[p])) break
        ;[heap[i], heap[p]] = [heap[p], heap[i]]
        i = p
      }
    } else if (worse(heap[0], it)) {
      heap[0] = it
      for (let i = 0; ; ) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < heap.length && worse(heap[l], heap[m])) m = l
        if (r < heap.length && worse(heap[r], heap[m])) m = r
        if (m === i) break
        ;[heap[i], heap[m]] = [heap[m], heap[i]]
        i = m
      }
    }
  }
  return heap.sort(byText)
}

/** topK over scores held in an accumulator, creating objects only for those that may make it. */
function topSeqs(seqs: number[], acc: Float64Array, k: number): Array<{seq: number; text: number}> {
  if (seqs.length <= k) return seqs.map((seq) => ({seq, text: acc[seq]})).sort(byText)
  // The k-th best score is a threshold: only items at or above it can be in the top k.
  const scores = new Float64Array(seqs.length)
  for (let i = 0; i < seqs.length; i++) scores[i] = acc[seqs[i]]
  const threshold = kthLargest(scores, k)
  const pool: Array<{seq: number; text: number}> = []
  for (const seq of seqs) if (acc[seq] >= threshold) pool.push({seq, text: acc[seq]})
  return topK(pool, k)
}

/** The k-th largest value (1-based), by quickselect; reorders `a`. */
function kthLargest(a: Float64Array, k: number): number {
  let lo = 0
  let hi = a.length - 1
  const target = a.length - k // index of the k-th largest in ascending order
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]
    let i = lo
    let j = hi
    while (i <= j) {
      while (a[i] < pivot) i++
      while (a[j] > pivot) j--
      if (i <= j) {
        const t = a[i]
        a[i] = a[j]
        a[j] = t
        i++
        j--
      }
    }
    if (target <= j) hi = j
    else if (target >= i) lo = i
    else return a[target]
  }
  return a[target]
}
