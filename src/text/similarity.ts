/**
 * How alike two texts are, one module for every engine that asks: search weighs terms with BM25's
 * idf, consolidation clusters on cosine similarity of tf-idf vectors, and the duplicate gates
 * (store and maintenance) compare word-shingle sets by Jaccard similarity. Pure functions.
 */

/** BM25's inverse document frequency (Robertson–Spärck Jones, kept positive). */
export function bm25Idf(docs: number, df: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5))
}

/** A smoothed idf for tf-idf vectors: positive for every term, rare terms weigh most. */
export function smoothIdf(docs: number, df: number): number {
  return Math.log(1 + (docs + 1) / (df + 1))
}

/**
 * Writes the tf-idf weights of a document's terms (ascending `ids` with their `counts`) into `out`:
 * sublinear term frequency times `idf(id)`, L2-normalised, so a dot product of two vectors is
 * their cosine similarity. Computed in doubles, stored as float32.
 */
export function tfIdfWeights(ids: ArrayLike<number>, counts: ArrayLike<number>, idf: (id: number) => number, out: Float32Array): void {
  let norm = 0
  for (let k = 0; k < ids.length; k++) {
    const v = (1 + Math.log(counts[k])) * idf(ids[k])
    out[k] = v
    norm += v * v
  }
  norm = Math.sqrt(norm) || 1
  for (let k = 0; k < out.length; k++) out[k] /= norm
}

/**
 * Dot product of two sparse vectors given as ranges of (ascending ids, weights) arrays: the cosine
 * similarity of two vectors of `tfIdfWeights`.
 */
export function sparseDot(aIds: Int32Array, aW: Float32Array, i: number, aEnd: number, bIds: Int32Array, bW: Float32Array, j: number, bEnd: number): number {
  let s = 0
  while (i < aEnd && j < bEnd) {
    const x = aIds[i]
    const y = bIds[j]
    if (x === y) s += aW[i++] * bW[j++]
    else if (x < y) i++
    else j++
  }
  return s
}

/** Jaccard similarity of two sets (1 for two empty sets). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1
  let inter = 0
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  for (const x of small) if (large.has(x)) inter++
  return inter / (a.size + b.size - inter)
}
