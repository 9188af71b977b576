/**
 * BM25F: per-field length normalisation and field weights, then one saturation per term.
 *
 *   tf'(t, d) = Σ_f w_f · tf(t, d, f) / (1 − b + b · len(d, f) / avglen(f))
 *   score(d)  = Σ_t qw_t · idf(t) · tf'(t, d) · (k1 + 1) / (tf'(t, d) + k1)
 *   idf(t)    = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))
 *
 * Both retrieval paths (the FTS4 index on disk and the in-process index) feed this one function
 * the same statistics, so a query ranks the same from the CLI and from the server.
 */
export interface Bm25Params {
  k1: number
  b: number
  /** Weight per field: body, tags, one-liner. */
  weights: readonly number[]
  /**
   * BM25+'s lower bound (Lv & Zhai, 2011): a matched term adds at least delta · idf whatever the
   * document's length, so a memory matching more of the query's terms is not outranked by one
   * repeating fewer. 0 is plain BM25.
   */
  delta: number
}

export const DEFAULT_BM25: Bm25Params = {k1: 0.9, b: 0.75, weights: [1, 1.5, 0.5], delta: 0}

export interface CorpusStats {
  docs: number
  /** Average tokens per field. */
  avgLen: readonly number[]
}

export interface WeightedTerm {
  term: string
  weight: number
  idf: number
  /** False for terms so common they only score memories that rarer terms already found. */
  candidate: boolean
  /** How many memories hold the term, when known. */
  df?: number
  /**
   * The query concept the term stands for (a query term, with its synonyms and corrections): a
   * memory scores only its best term of each concept, so a synonym does not add to the word it
   * stands in for. Numbered from 0 in the order the terms are given; absent, each term is its own.
   */
  group?: number
}

/** Group ids 0..n-1 for the terms (each its own when none is given), and how many there are. */
export function groupsOf(terms: WeightedTerm[]): {ids: Int32Array; count: number} {
  const ids = new Int32Array(terms.length)
  let count = 0
  terms.forEach((t, i) => {
    ids[i] = t.group ?? count
    count = Math.max(count, ids[i] + 1)
  })
  return {ids, count}
}

export {bm25Idf as idf} from '../../text/similarity.js'

/** One term's contribution, given its frequency per field and the document's field lengths. */
export function termScore(tf: ArrayLike<number>, len: ArrayLike<number>, stats: CorpusStats, params: Bm25Params): number {
  let eff = 0
  for (let f = 0; f < tf.length; f++) {
    if (tf[f] === 0) continue
    const avg = stats.avgLen[f] || 1
    eff += (params.weights[f] ?? 1) * (tf[f] / (1 - params.b + (params.b * len[f]) / avg))
  }
  return eff === 0 ? 0 : (eff * (params.k1 + 1)) / (eff + params.k1) + params.delta
}

/** One weighted term's contribution to a document, from its frequencies and lengths per field. */
export function scoreFieldsTf(tf: ArrayLike<number>, len: ArrayLike<number>, t: WeightedTerm, stats: CorpusStats, params: Bm25Params): number {
  const s = termScore(tf, len, stats, params)
  return s > 0 ? t.weight * t.idf * s : 0
}

/**
 * Per-term contributions for many documents at once: only the query's terms are counted, so no
 * per-document maps. `each(seq, contributions)` receives one value per term, in the given order.
 */
export function contributions(
  docs: Iterable<[number, readonly string[]]>,
  terms: WeightedTerm[],
  stats: CorpusStats,
  params: Bm25Params,
  each: (seq: number, values: Float64Array) => void,
): void {
  const index = new Map<string, number>(terms.map((t, i) => [t.term, i]))
  const perDoc = 3
  const tf = new Float64Array(terms.length * perDoc)
  const one = new Float64Array(perDoc)
  const len = new Float64Array(perDoc)
  const values = new Float64Array(terms.length)
  for (const [seq, fields] of docs) {
    tf.fill(0)
    for (let f = 0; f < perDoc; f++) {
      const text = fields[f]
      if (!text) {
        len[f] = 0
        continue
      }
      const tokens = text.split(' ')
      len[f] = tokens.length
      for (const tok of tokens) {
        const i = index.get(tok)
        if (i !== undefined) tf[i * perDoc + f]++
      }
    }
    for (let i = 0; i < terms.length; i++) {
      for (let f = 0; f < perDoc; f++) one[f] = tf[i * perDoc + f]
      values[i] = scoreFieldsTf(one, len, terms[i], stats, params)
    }
    each(seq, values)
  }
}
