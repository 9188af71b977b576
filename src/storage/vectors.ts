import type {Db} from './db.js'
import {halfBytes, halfVector} from './half-float.js'

/**
 * Embedding vectors of memories (migration 8): one row per memory, from one model. The journal op
 * and packs carry little-endian Float32 numbers (unit length; see enrich/embed.ts); the store keeps
 * them as little-endian binary16 (storage/half-float.ts), a BLOB of 2 bytes a number: a third of the
 * pages. A row of 4 bytes a number (a store written before 2026-11-27) is read as Float32. A new
 * vector replaces the row; a purge removes it. Only live memories' vectors are read for recall.
 */
export interface StoredVector {
  model: string
  dims: number
  vector: Float32Array
  embeddedAt: string
}

/** A Float32Array as little-endian bytes (the journal op, base64-encoded, and packs). */
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

/**
 * A stored row's vector of `dims` numbers: binary16 (2 bytes a number) or, as older stores hold
 * them, Float32 (4); null for any other length. Written into `into` at `at` when given.
 */
export function storedVector(b: Uint8Array, dims: number, into?: Float32Array, at = 0): Float32Array | null {
  if (b.byteLength === dims * 2) return halfVector(b, into, at)
  if (b.byteLength !== dims * 4) return null
  const v = bytesVector(b)
  if (!into) return v
  into.set(v, at)
  return into
}

/** Keeps `bytes` (the op's little-endian Float32 numbers) as the memory's vector, in binary16. */
export function putVector(db: Db, id: string, v: {model: string; dims: number; bytes: Uint8Array; embeddedAt: string}): void {
  const row = halfBytes(bytesVector(v.bytes))
  db.run(`INSERT OR REPLACE INTO memory_vectors (memory_id, model, dims, vector, embedded_at) VALUES (?, ?, ?, ?, ?)`, [id, v.model, v.dims, row, v.embeddedAt])
  matrixCache.get(db)?.changed.add(id)
}

export function deleteVector(db: Db, id: string): void {
  db.run(`DELETE FROM memory_vectors WHERE memory_id = ?`, [id])
  matrixCache.get(db)?.changed.add(id)
}

export function getVector(db: Db, id: string): StoredVector | undefined {
  const r = db.get<{model: string; dims: number; vector: Uint8Array; embedded_at: string}>(`SELECT * FROM memory_vectors WHERE memory_id = ?`, [id])
  const vector = r ? storedVector(r.vector, r.dims) : null
  if (!r || !vector) return undefined
  return {model: r.model, dims: r.dims, vector, embeddedAt: r.embedded_at}
}

/**
 * The condition "no vector from `model`" on `v` (memory_vectors joined to m): none at all, or one from
 * another model — unless `keepForeign`, when another model's vector stays (team mode with replicas
 * on other models: engines/meaning/pending.ts), and only a memory with no vector counts.
 */
function lacking(keepForeign: boolean): string {
  return keepForeign ? 'v.model IS NULL' : '(v.model IS NULL OR v.model <> ?)'
}

/** The parameters `lacking(keepForeign)` reads. */
function lackingParams(model: string, keepForeign: boolean): string[] {
  return keepForeign ? [] : [model]
}

/** Live memories after `afterSeq` with no vector from `model` (see `lacking`), in seq order, at most `limit`. */
export function liveWithoutVectorFrom(db: Db, model: string, afterSeq: number, limit: number, keepForeign = false): Array<{seq: number; id: string; content: string}> {
  return db.all<{seq: number; id: string; content: string}>(
    `SELECT m.seq, m.id, m.content FROM memories m LEFT JOIN memory_vectors v ON v.memory_id = m.id
     WHERE m.live = 1 AND m.seq > ? AND ${lacking(keepForeign)} ORDER BY m.seq LIMIT ?`,
    [afterSeq, ...lackingParams(model, keepForeign), limit],
  )
}

/**
 * The newest live memories before `beforeSeq` that lack a vector from `model`, newest first; with
 * `within`, only among the `within` newest rows of the table (a range of the primary key, however
 * large the store: what was just written).
 */
export function newestWithoutVectorFrom(db: Db, model: string, beforeSeq: number, limit: number, within?: number, keepForeign = false): Array<{seq: number; id: string; content: string}> {
  const from = within === undefined ? 0 : (db.get<{top: number | null}>('SELECT max(seq) AS top FROM memories')?.top ?? 0) - within
  return db.all<{seq: number; id: string; content: string}>(
    `SELECT m.seq, m.id, m.content FROM memories m LEFT JOIN memory_vectors v ON v.memory_id = m.id
     WHERE m.seq > ? AND m.seq < ? AND m.live = 1 AND ${lacking(keepForeign)} ORDER BY m.seq DESC LIMIT ?`,
    [from, beforeSeq, ...lackingParams(model, keepForeign), limit],
  )
}

/** How many live memories lack a vector from `model` (see `lacking`). */
export function countWithoutVectorFrom(db: Db, model: string, keepForeign = false): number {
  return db.get<{n: number}>(
    `SELECT count(*) AS n FROM memories m LEFT JOIN memory_vectors v ON v.memory_id = m.id
     WHERE m.live = 1 AND ${lacking(keepForeign)}`,
    lackingParams(model, keepForeign),
  )!.n
}

/**
 * Of `ids`, the live memories that still lack a vector from `model` (see `lacking`): asked again
 * when the vectors are written, on the state they are written to (another process or replica may
 * have written them since they were read).
 */
export function stillWithoutVectorFrom(db: Db, model: string, ids: readonly string[], keepForeign = false): Set<string> {
  const rows = db.allIn<{id: string}>(
    (list) => `SELECT m.id FROM memories m LEFT JOIN memory_vectors v ON v.memory_id = m.id WHERE m.live = 1 AND ${lacking(keepForeign)} AND m.id IN (${list})`,
    ids,
    lackingParams(model, keepForeign),
  )
  return new Set(rows.map((r) => r.id))
}

/** The model of a vector not from `model` made at or after `since` (an ISO time), if there is one. */
export function foreignVectorSince(db: Db, model: string, since: string): string | null {
  return db.get<{model: string}>(`SELECT model FROM memory_vectors WHERE model <> ? AND embedded_at >= ? LIMIT 1`, [model, since])?.model ?? null
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

/**
 * Every live memory's vector from `model` with `dims` numbers, as one row-major matrix (seqs
 * ascending). Kept per database and brought up to date by what changed since the last call — the
 * vectors putVector and deleteVector wrote since (the only writers of the table), and the live
 * memories when anything was written — rather than read whole: a store or a recall after a write in
 * a long-lived process reads a few rows, not every vector (at 10,000 memories, reading them all
 * through sql.js takes ~0.3–0.7 s here). The cache holds the matrix and nothing else of size (no
 * copy a row): a row that is no longer in it (a memory live again) is read from the store when
 * needed. The arrays returned are never changed afterwards (a change makes new ones): callers may
 * keep them.
 */
export function liveVectors(db: Db, model: string, dims: number): {seqs: number[]; matrix: Float32Array} {
  const changes = totalChanges(db)
  let c = matrixCache.get(db)
  if (!c || c.model !== model || c.dims !== dims) {
    const result = readLiveVectors(db, model, dims)
    const rowOf = rowsOf(result.seqs)
    // the live memories without one, so that a later call does not look for theirs one by one
    const none = new Set<number>()
    db.eachRow<{seq: number}>(`SELECT seq FROM memories WHERE live = 1`, undefined, (r) => {
      if (!rowOf.has(r.seq)) none.add(r.seq)
    })
    c = {model, dims, changes, changed: new Set(), written: new Map(), none, result, rowOf}
    matrixCache.set(db, c)
    return c.result
  }
  if (c.changes === changes) return c.result
  // the vectors written since the last call (one replaced by another model's, or removed: none now)
  for (const id of c.changed) {
    const r = db.get<{seq: number; model: string | null; dims: number | null; vector: Uint8Array | null}>(
      `SELECT m.seq AS seq, v.model AS model, v.dims AS dims, v.vector AS vector FROM memories m LEFT JOIN memory_vectors v ON v.memory_id = m.id WHERE m.id = ?`,
      [id],
    )
    if (!r) continue
    const v = r.vector && r.model === model && r.dims === dims ? storedVector(r.vector, dims) : null
    c.written.set(r.seq, v)
    if (v) c.none.delete(r.seq)
  }
  const rebuild = c.changed.size > 0
  c.changed.clear()
  // the live memories now (a forgotten or superseded one leaves), each with where its vector is
  const cache = c
  const seqs: number[] = []
  const from: Array<Float32Array | number> = []
  db.eachRow<{seq: number}>(`SELECT seq FROM memories WHERE live = 1 ORDER BY seq`, undefined, (r) => {
    const v = vectorOf(db, cache, r.seq)
    if (v === null) return
    seqs.push(r.seq)
    from.push(v)
  })
  const before = c.result.seqs
  if (rebuild || seqs.length !== before.length || seqs.some((seq, i) => seq !== before[i])) {
    const matrix = new Float32Array(seqs.length * dims)
    from.forEach((v, i) => matrix.set(typeof v === 'number' ? c.result.matrix.subarray(v * dims, (v + 1) * dims) : v, i * dims))
    c.result = {seqs, matrix}
    c.rowOf = rowsOf(seqs)
    c.written.clear()
  }
  c.changes = changes
  return c.result
}

/** Where a live memory's vector is: a row of the cached matrix, an array read since, or null (none from the cache's model). */
function vectorOf(db: Db, c: MatrixCache, seq: number): Float32Array | number | null {
  const written = c.written.get(seq)
  if (written !== undefined) return written
  const row = c.rowOf.get(seq)
  if (row !== undefined) return row
  if (c.none.has(seq)) return null
  // live now and not when the matrix was made: read it once (a memory without one is remembered as such)
  const r = db.get<{vector: Uint8Array}>(
    `SELECT v.vector AS vector FROM memories m JOIN memory_vectors v ON v.memory_id = m.id WHERE m.seq = ? AND v.model = ? AND v.dims = ?`,
    [seq, c.model, c.dims],
  )
  const v = r ? storedVector(r.vector, c.dims) : null
  if (v) c.written.set(seq, v)
  else c.none.add(seq)
  return v
}

/** The live memories' vectors from `model` with `dims` numbers, read straight into one matrix (seqs ascending). */
function readLiveVectors(db: Db, model: string, dims: number): {seqs: number[]; matrix: Float32Array} {
  const where = `FROM memories m JOIN memory_vectors v ON v.memory_id = m.id WHERE m.live = 1 AND v.model = ? AND v.dims = ? AND length(v.vector) IN (?, ?)`
  const params = [model, dims, dims * 2, dims * 4]
  const n = db.get<{n: number}>(`SELECT count(*) AS n ${where}`, params)!.n
  const matrix = new Float32Array(n * dims)
  const seqs: number[] = []
  db.eachRow<{seq: number; vector: Uint8Array}>(`SELECT m.seq AS seq, v.vector AS vector ${where} ORDER BY m.seq`, params, (r) => {
    if (seqs.length < n && storedVector(r.vector, dims, matrix, seqs.length * dims)) seqs.push(r.seq)
  })
  return {seqs, matrix: seqs.length === n ? matrix : matrix.slice(0, seqs.length * dims)}
}

function rowsOf(seqs: readonly number[]): Map<number, number> {
  return new Map(seqs.map((seq, i) => [seq, i]))
}

/** Rows this connection has changed since it opened (SQLite's total_changes()): any write moves it. */
function totalChanges(db: Db): number {
  return db.get<{n: number}>(`SELECT total_changes() AS n`)!.n
}

interface MatrixCache {
  model: string
  dims: number
  /** totalChanges() when `result` was made or checked. */
  changes: number
  /** Memory ids whose vector putVector or deleteVector wrote since the last call. */
  changed: Set<string>
  /** By seq, vectors read since `result` was made (null: none from this model now); they win over its rows. */
  written: Map<number, Float32Array | null>
  /** Seqs known to have no vector from this model (read once). */
  none: Set<number>
  result: {seqs: number[]; matrix: Float32Array}
  /** By seq, its row in `result.matrix`. */
  rowOf: Map<number, number>
}

const matrixCache = new WeakMap<Db, MatrixCache>()

/**
 * The vectors from `model` with `dims` numbers of the live memories of `seqs`, by seq (a memory
 * without one is absent), read for those rows only, 500 at a time; null as soon as more than `max`
 * are found (the rest is not read: the reason this is not one db.allIn).
 */
export function liveVectorsBySeq(db: Db, model: string, dims: number, seqs: readonly number[], max: number): Map<number, Float32Array> | null {
  const out = new Map<number, Float32Array>()
  for (let at = 0; at < seqs.length; at += 500) {
    const some = seqs.slice(at, at + 500)
    db.eachRow<{seq: number; vector: Uint8Array}>(
      `SELECT m.seq AS seq, v.vector AS vector FROM memories m JOIN memory_vectors v ON v.memory_id = m.id
       WHERE m.live = 1 AND v.model = ? AND v.dims = ? AND m.seq IN (${some.map(() => '?').join(',')})`,
      [model, dims, ...some],
      (r) => {
        const v = storedVector(r.vector, dims)
        if (v) out.set(r.seq, v)
      },
    )
    if (out.size > max) return null
  }
  return out
}

/** The vectors from `model` with `dims` numbers of the live memories among `ids`, by id (a memory without one is absent). */
export function liveVectorsById(db: Db, model: string, dims: number, ids: readonly string[]): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>()
  const rows = db.allIn<{id: string; vector: Uint8Array}>(
    (list) => `SELECT m.id, v.vector FROM memory_vectors v JOIN memories m ON m.id = v.memory_id WHERE m.live = 1 AND v.model = ? AND v.dims = ? AND m.id IN (${list})`,
    ids,
    [model, dims],
  )
  for (const r of rows) {
    const v = storedVector(r.vector, dims)
    if (v) out.set(r.id, v)
  }
  return out
}

/** The dot product of `v` with each of the first `rows` rows of `matrix` (rows of `v.length`, as liveVectors gives them), each summed in order. */
export function dotProducts(matrix: Float32Array, v: Float32Array, rows: number): Float64Array {
  const dims = v.length
  const values = new Float64Array(rows)
  let r = 0
  // four rows at once, each element of the question read once for the four: 2.5x faster than a row
  // at a time at 10,000 x 512 (3.8 vs 9.8 ms on this machine; ~1.8x at 100,000, where memory bounds it)
  for (; r + 4 <= rows; r += 4) {
    const b0 = r * dims
    const b1 = b0 + dims
    const b2 = b1 + dims
    const b3 = b2 + dims
    let a = 0
    let b = 0
    let c = 0
    let d = 0
    for (let i = 0; i < dims; i++) {
      const x = v[i]
      a += matrix[b0 + i] * x
      b += matrix[b1 + i] * x
      c += matrix[b2 + i] * x
      d += matrix[b3 + i] * x
    }
    values[r] = a
    values[r + 1] = b
    values[r + 2] = c
    values[r + 3] = d
  }
  for (; r < rows; r++) {
    const base = r * dims
    let a = 0
    for (let i = 0; i < dims; i++) a += matrix[base + i] * v[i]
    values[r] = a
  }
  return values
}
