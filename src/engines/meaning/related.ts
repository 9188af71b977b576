/**
 * Which memories say related things by meaning: the stored vectors of the meaning model in use,
 * compared pair by pair (issue 30 item 5: consolidation's "similar" and the graph's `similar`
 * edges). Only vectors already in the store are read — a memory without one (written with meaning
 * off and not yet embedded by a recall or the server's drain) is related by words alone.
 */
import type {Db} from '../../storage/db.js'
import {liveVectorsById, liveVectorsBySeq} from '../../storage/vectors.js'
import type {MemContext} from '../context.js'
import {meaningModel} from './use.js'

/** The model whose vectors are read: its id and length, or null when meaning is off or cannot load. */
export interface VectorsOf {
  model: string
  dims: number
}

/** The context's meaning model as VectorsOf (loading it once), or null when meaning is off or it cannot load. */
export async function vectorsInUse(ctx: MemContext): Promise<VectorsOf | null> {
  const model = await meaningModel(ctx)
  return model && model.dims > 0 ? {model: model.id, dims: model.dims} : null
}

/**
 * The stored vectors of `seqs` (live memories) from the model, by position in `seqs`; a memory
 * without one is absent. Null when more than `max` of them have one (only those rows are read, and
 * no more than max + 1 of them).
 */
export function vectorsBySeq(db: Db, of: VectorsOf, seqs: readonly number[], max: number): Map<number, Float32Array> | null {
  const bySeq = liveVectorsBySeq(db, of.model, of.dims, seqs, max)
  if (!bySeq) return null
  const out = new Map<number, Float32Array>()
  seqs.forEach((seq, i) => {
    const v = bySeq.get(seq)
    if (v) out.set(i, v)
  })
  return out
}

/** The stored vectors of the live memories `ids` from the model, by position in `ids`; a memory without one is absent. */
export function vectorsById(db: Db, of: VectorsOf, ids: readonly string[]): Map<number, Float32Array> {
  const byId = liveVectorsById(db, of.model, of.dims, ids)
  const out = new Map<number, Float32Array>()
  ids.forEach((id, i) => {
    const v = byId.get(id)
    if (v) out.set(i, v)
  })
  return out
}

/**
 * The pairs (i < j, positions) whose vectors' cosine is at least `min`, with it. Brute force over
 * the pairs: callers bound how many vectors they pass (`max`: more, and no pair is returned). The
 * vectors are copied into one row-major matrix and each dot product summed in four running sums;
 * a pair whose first half cannot reach `min` whatever the second half holds (Cauchy–Schwarz: the
 * second half's dot is at most the product of the halves' lengths) is left there. The same pairs
 * and cosines as the plain loop (`node test/bench/meaning-pairs.mjs`); on 2,384 USE-lite vectors
 * of the recall bench's texts (mean cosine 0.35), 1.4 s against 1.9 s without the bound.
 */
export function closePairs(vectors: ReadonlyMap<number, Float32Array>, min: number, max: number): Array<{i: number; j: number; sim: number}> {
  if (vectors.size > max) return []
  const rows = [...vectors].sort((a, b) => a[0] - b[0])
  const out: Array<{i: number; j: number; sim: number}> = []
  const n = rows.length
  if (n < 2) return out
  const d = rows[0][1].length
  if (rows.some(([, v]) => v.length !== d)) throw new Error('closePairs: vectors of different lengths')
  const m = new Float32Array(n * d)
  rows.forEach(([, v], r) => m.set(v, r * d))
  // the first half (a multiple of four numbers), and the length of each row's second half
  const half = (d >> 1) & ~3
  const tail = d - (d % 4)
  const rest = new Float64Array(n)
  for (let r = 0; r < n; r++) {
    let s = 0
    for (let k = r * d + half; k < (r + 1) * d; k++) s += m[k] * m[k]
    rest[r] = Math.sqrt(s)
  }
  for (let x = 0; x < n; x++) {
    const a = x * d
    for (let y = x + 1; y < n; y++) {
      const b = y * d
      let s0 = 0
      let s1 = 0
      let s2 = 0
      let s3 = 0
      for (let k = 0; k < half; k += 4) {
        s0 += m[a + k] * m[b + k]
        s1 += m[a + k + 1] * m[b + k + 1]
        s2 += m[a + k + 2] * m[b + k + 2]
        s3 += m[a + k + 3] * m[b + k + 3]
      }
      // (a margin far above the rounding of these sums)
      if (s0 + s1 + (s2 + s3) + rest[x] * rest[y] + 1e-6 < min) continue
      for (let k = half; k < tail; k += 4) {
        s0 += m[a + k] * m[b + k]
        s1 += m[a + k + 1] * m[b + k + 1]
        s2 += m[a + k + 2] * m[b + k + 2]
        s3 += m[a + k + 3] * m[b + k + 3]
      }
      for (let k = tail; k < d; k++) s0 += m[a + k] * m[b + k]
      const dot = s0 + s1 + (s2 + s3)
      if (dot >= min) out.push({i: rows[x][0], j: rows[y][0], sim: dot})
    }
  }
  return out
}
