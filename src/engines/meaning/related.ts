/**
 * Which memories say related things by meaning: the stored vectors of the meaning model in use,
 * compared pair by pair (issue 30 item 5: consolidation's "similar" and the graph's `similar`
 * edges). Only vectors already in the store are read — a memory without one (written with meaning
 * off and not yet embedded by a recall or the server's drain) is related by words alone.
 */
import type {Db} from '../../storage/db.js'
import {liveVectors, liveVectorsById} from '../../storage/vectors.js'
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

/** The stored vectors of `seqs` (live memories) from the model, by position in `seqs`; a memory without one is absent. */
export function vectorsBySeq(db: Db, of: VectorsOf, seqs: readonly number[]): Map<number, Float32Array> {
  const {seqs: have, matrix} = liveVectors(db, of.model, of.dims)
  const row = new Map(have.map((seq, r) => [seq, r]))
  const out = new Map<number, Float32Array>()
  seqs.forEach((seq, i) => {
    const r = row.get(seq)
    if (r !== undefined) out.set(i, matrix.subarray(r * of.dims, (r + 1) * of.dims))
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
 * the pairs: callers bound how many vectors they pass (`max`: more, and no pair is returned).
 */
export function closePairs(vectors: ReadonlyMap<number, Float32Array>, min: number, max: number): Array<{i: number; j: number; sim: number}> {
  if (vectors.size > max) return []
  const rows = [...vectors].sort((a, b) => a[0] - b[0])
  const out: Array<{i: number; j: number; sim: number}> = []
  for (let x = 0; x < rows.length; x++) {
    const [i, a] = rows[x]
    for (let y = x + 1; y < rows.length; y++) {
      const [j, b] = rows[y]
      let dot = 0
      for (let k = 0; k < a.length; k++) dot += a[k] * b[k]
      if (dot >= min) out.push({i, j, sim: dot})
    }
  }
  return out
}
