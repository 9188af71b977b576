import {describe, expect, it} from 'vitest'
import {store} from '../../src/operations/store.js'
import {forget} from '../../src/operations/forget.js'
import {halfVector} from '../../src/storage/half-float.js'
import {getVector, liveVectors, vectorBytes} from '../../src/storage/vectors.js'
import type {Db} from '../../src/storage/db.js'
import {memRepo, storedId} from '../helpers/mem.js'

const unitVector = (seed: number, dims = 4) => {
  const v = Float32Array.from({length: dims}, (_, i) => Math.sin(seed * 7 + i * 3) + 0.1)
  const n = Math.hypot(...v)
  return v.map((x) => x / n)
}

/** What liveVectors must answer, read whole with no cache. */
function expected(db: Db, model: string, dims: number) {
  const rows = db.all<{seq: number; vector: Uint8Array}>(
    `SELECT m.seq, v.vector FROM memory_vectors v JOIN memories m ON m.id = v.memory_id WHERE m.live = 1 AND v.model = ? AND v.dims = ? ORDER BY m.seq`,
    [model, dims],
  )
  // the store keeps binary16 (storage/half-float.ts): 2 bytes a number
  for (const r of rows) expect(r.vector.byteLength).toBe(dims * 2)
  return {seqs: rows.map((r) => r.seq), matrix: [...rows.flatMap((r) => [...halfVector(r.vector)])]}
}

describe('the live vectors matrix', () => {
  it('stays what a whole read gives through new, replaced, other-model and forgotten vectors, the newest row included', async () => {
    const r = memRepo()
    const ids: string[] = []
    for (let i = 0; i < 6; i++) ids.push(storedId(await store(r.ctx, {repo: r.repo, content: `Note ${i}: the service ${'abcdef'[i]} listens on its own port ${9000 + i * 17}`, type: 'observation'})))
    const handle = await r.ctx.repo(r.repo, 'write')
    const put = (id: string, seed: number, model = 'm', dims = 4) =>
      handle.store.write(() => ({ops: [{op: 'vector' as const, id, model, dims, vector: Buffer.from(vectorBytes(unitVector(seed, dims))).toString('base64'), at: r.clock().toISOString()}], result: null}))
    const check = () =>
      handle.store.read((db) => {
        const got = liveVectors(db, 'm', 4)
        expect({seqs: got.seqs, matrix: [...got.matrix]}).toEqual(expected(db, 'm', 4))
        return got.seqs.length
      })
    for (const [i, id] of ids.entries()) await put(id, i)
    expect(check()).toBe(6)
    // the newest memory's vector replaced (its row is deleted and inserted again: same place)
    await put(ids[5], 50)
    expect(check()).toBe(6)
    // replaced by another model's: it leaves this model's matrix
    await put(ids[4], 40, 'other', 3)
    expect(check()).toBe(5)
    // forgotten: it leaves
    await forget(r.ctx, {id: ids[0], reason: 'test'})
    expect(check()).toBe(4)
    // a write that is not a vector changes nothing of it; a new memory without a vector is not in it
    storedId(await store(r.ctx, {repo: r.repo, content: 'A seventh note about the billing queue retries', type: 'observation'}))
    expect(check()).toBe(4)
    await put(ids[4], 41)
    expect(check()).toBe(5)
  })

  it('takes in a memory that gets its vector late, and one that is live again, from a matrix made before either', async () => {
    const r = memRepo()
    const handle = await r.ctx.repo(r.repo, 'write')
    const put = (id: string, seed: number) =>
      handle.store.write(() => ({ops: [{op: 'vector' as const, id, model: 'm', dims: 4, vector: Buffer.from(vectorBytes(unitVector(seed))).toString('base64'), at: r.clock().toISOString()}], result: null}))
    const check = () =>
      handle.store.read((db) => {
        const got = liveVectors(db, 'm', 4)
        expect({seqs: got.seqs, matrix: [...got.matrix]}).toEqual(expected(db, 'm', 4))
        return got.seqs.length
      })
    const old = storedId(await store(r.ctx, {repo: r.repo, content: 'The ingest queue retries a failed batch five times', type: 'procedure'}))
    const late = storedId(await store(r.ctx, {repo: r.repo, content: 'Release notes are drafted from merged pull request titles', type: 'procedure'}))
    await put(old, 1)
    expect(check()).toBe(1)
    // a newer version of the first: the old one leaves
    const newer = storedId(await store(r.ctx, {repo: r.repo, content: 'The ingest queue retries a failed batch three times', type: 'procedure', supersedes: old}))
    await put(newer, 2)
    expect(check()).toBe(1)
    // the one without a vector gets one
    await put(late, 3)
    expect(check()).toBe(2)
    // the old one live again (a patch that clears its supersededBy): back in, with its vector
    await handle.store.write(() => ({ops: [{op: 'update' as const, id: old, set: {supersededBy: null}}], result: null}))
    const live = handle.store.read((db) => db.get<{live: number}>('SELECT live FROM memories WHERE id = ?', [old])!.live)
    expect(live).toBe(1)
    expect(check()).toBe(3)
  })

  it('reads a row a store written before binary16 holds (4 bytes a number) as it was', async () => {
    const r = memRepo()
    const id = storedId(await store(r.ctx, {repo: r.repo, content: 'The nightly export lands in the reports bucket', type: 'observation'}))
    const handle = await r.ctx.repo(r.repo, 'write')
    const v = unitVector(9)
    // as such a store's file holds it (no op writes Float32 rows any more)
    handle.store.read((db) => db.run(`INSERT INTO memory_vectors (memory_id, model, dims, vector, embedded_at) VALUES (?, 'old', 4, ?, '2026-01-01T00:00:00.000Z')`, [id, vectorBytes(v)]))
    handle.store.read((db) => {
      expect([...getVector(db, id)!.vector]).toEqual([...v])
      const got = liveVectors(db, 'old', 4)
      expect([...got.matrix]).toEqual([...v])
    })
  })
})
