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
}

export const DEFAULT_BM25: Bm25Params = {k1: 1.2, b: 0.75, weights: [1, 1.5, 0.5]}

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
  return eff === 0 ? 0 : (eff * (params.k1 + 1)) / (eff + params.k1)
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
