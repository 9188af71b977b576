import type {Db} from './db.js'

/**
 * Embedding vectors of memories (migration 8): one row per memory, from one model, as a BLOB of
 * little-endian Float32 numbers (unit length; see enrich/embed.ts). A new vector replaces the row;
 * a purge removes it. Only live memories' vectors are read for recall.
 */
export interface StoredVector {
  model: string
  dims: number
  vector: Float32Array
  embeddedAt: string
}

/** A Float32Array as little-endian bytes (the BLOB and, base64-encoded, the journal op). */
export function vectorBytes(v: Float32Array): Uint8Array {
  const out = new Uint8Array(v.length * 4)
  const view = new DataView(out.buffer)
  for (let i = 0; i < v.length; i++) view.setFloat32(i * 4, v[i], true)
  return out
}

/** Whether this machine stores numbers little-endian (then the bytes are the Float32Array as they are). */
const LITTLE_ENDIAN = new Uint8Array(new Float32Array([1]).buffer)[3] === 0x3f

export function bytesVector(b: Uint8Array): Float32Array {
  const n = Math.floor(b.byteLength / 4)
  // a copy of the bytes as they are (one memcpy), not a number at a time
  if (LITTLE_ENDIAN) return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + n * 4))
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength)
  const out = new Float32Array(n)
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true)
  return out
}

export function putVector(db: Db, id: string, v: {model: string; dims: number; bytes: Uint8Array; embeddedAt: string}): void {
  db.run(`INSERT OR REPLACE INTO memory_vectors (memory_id, model, dims, vector, embedded_at) VALUES (?, ?, ?, ?, ?)`, [id, v.model, v.dims, v.bytes, v.embeddedAt])
}

export function deleteVector(db: Db, id: string): void {
  db.run(`DELETE FROM memory_vectors WHERE memory_id = ?`, [id])
}

export function getVector(db: Db, id: string): StoredVector | undefined {
  const r = db.get<{model: string; dims: number; vector: Uint8Array; embedded_at: string}>(`SELECT * FROM memory_vectors WHERE memory_id = ?`, [id])
  if (!r) return undefined
  return {model: r.model, dims: r.dims, vector: bytesVector(r.vector), embeddedAt: r.embedded_at}
}

/** Live memories after `afterSeq` with no vector from `model`, in seq order, at most `limit`. */
export function liveWithoutVectorFrom(db: Db, model: string, afterSeq: number, limit: number): Array<{seq: number; id: string; content: string}> {
  return db.all<{seq: number; id: string; content: string}>(
    `SELECT m.seq, m.id, m.content FROM memories m LEFT JOIN memory_vectors v ON v.memory_id = m.id
     WHERE m.live = 1 AND m.seq > ? AND (v.model IS NULL OR v.model <> ?) ORDER BY m.seq LIMIT ?`,
    [afterSeq, model, limit],
  )
}

/** How many live memories lack a vector from `model`. */
export function countWithoutVectorFrom(db: Db, model: string): number {
  return db.get<{n: number}>(
    `SELECT count(*) AS n FROM memories m LEFT JOIN memory_vectors v ON v.memory_id = m.id
     WHERE m.live = 1 AND (v.model IS NULL OR v.model <> ?)`,
    [model],
  )!.n
}

/**
 * The model and size most of the live memories' vectors come from (the one a recall index carries),
 * with how many live memories have none from it; null when no live memory has a vector.
 */
export function dominantVectorModel(db: Db): {model: string; dims: number; missing: number} | null {
  const top = db.get<{model: string; dims: number}>(
    `SELECT v.model, v.dims FROM memory_vectors v JOIN memories m ON m.id = v.memory_id
     WHERE m.live = 1 GROUP BY v.model, v.dims ORDER BY count(*) DESC, v.model LIMIT 1`,
  )
  return top ? {...top, missing: countWithoutVectorFrom(db, top.model)} : null
}

/** Every live memory's vector from `model` with `dims` numbers, as one row-major matrix. */
export function liveVectors(db: Db, model: string, dims: number): {seqs: number[]; matrix: Float32Array} {
  const rows = db.all<{seq: number; vector: Uint8Array}>(
    `SELECT m.seq, v.vector FROM memory_vectors v JOIN memories m ON m.id = v.memory_id
     WHERE m.live = 1 AND v.model = ? AND v.dims = ? ORDER BY m.seq`,
    [model, dims],
  )
  const matrix = new Float32Array(rows.length * dims)
  const bytes = new Uint8Array(matrix.buffer)
  const seqs: number[] = []
  for (const r of rows) {
    if (r.vector.byteLength !== dims * 4) continue
    if (LITTLE_ENDIAN) bytes.set(r.vector, seqs.length * dims * 4)
    else matrix.set(bytesVector(r.vector), seqs.length * dims)
    seqs.push(r.seq)
  }
  return {seqs, matrix: matrix.subarray(0, seqs.length * dims)}
}

/** The vectors from `model` with `dims` numbers of the live memories among `ids`, by id (a memory without one is absent). */
export function liveVectorsById(db: Db, model: string, dims: number, ids: readonly string[]): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>()
  for (let at = 0; at < ids.length; at += 500) {
    const some = ids.slice(at, at + 500)
    const rows = db.all<{id: string; vector: Uint8Array}>(
      `SELECT m.id, v.vector FROM memory_vectors v JOIN memories m ON m.id = v.memory_id
       WHERE m.live = 1 AND v.model = ? AND v.dims = ? AND m.id IN (${some.map(() => '?').join(',')})`,
      [model, dims, ...some],
    )
    for (const r of rows) if (r.vector.byteLength === dims * 4) out.set(r.id, bytesVector(r.vector))
  }
  return out
}
