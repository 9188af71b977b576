import type {FtsHit} from '../storage/fts.js'

/**
 * BM25F over FTS4's matchinfo('pcnalx'): per-column length normalisation, column weights,
 * then the usual saturation. Layout of the matchinfo array:
 *   p (phrases), c (columns), n (rows), a[c] (average tokens per column), l[c] (this row's tokens),
 *   x[p][c][3] (hits in this row, hits in all rows, rows with a hit).
 */
export interface Bm25Params {
  k1: number
  b: number
  /** Weight per column: body, tags, one-liner. */
  weights: readonly number[]
}

export const DEFAULT_BM25: Bm25Params = {k1: 1.2, b: 0.75, weights: [1, 1.5, 0.5]}

export function bm25(info: Uint32Array, params: Bm25Params = DEFAULT_BM25, termWeights?: readonly number[]): number {
  const p = info[0]
  const c = info[1]
  const n = info[2]
  const aOff = 3
  const lOff = 3 + c
  const xOff = 3 + 2 * c
  let score = 0
  for (let i = 0; i < p; i++) {
    let tf = 0
    let df = 0
    for (let j = 0; j < c; j++) {
      const x = xOff + 3 * (i * c + j)
      const hits = info[x]
      const rows = info[x + 2]
      if (rows > df) df = rows
      if (hits === 0) continue
      const avg = info[aOff + j] || 1
      const len = info[lOff + j]
      tf += (params.weights[j] ?? 1) * (hits / (1 - params.b + (params.b * len) / avg))
    }
    if (tf === 0) continue
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5))
    score += (termWeights?.[i] ?? 1) * idf * ((tf * (params.k1 + 1)) / (tf + params.k1))
  }
  return score
}

export function scoreHits(hits: FtsHit[], params?: Bm25Params, termWeights?: readonly number[]): Array<{seq: number; text: number}> {
  return hits.map((h) => ({seq: h.seq, text: bm25(h.info, params, termWeights)}))
}
