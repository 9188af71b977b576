// The pairs by meaning consolidation and the graph use (engines/meaning/related.ts): closePairs over
// the vectors given, and the read of the free observations' own vectors, which stops past its cap.
import {describe, expect, it} from 'vitest'
import {closePairs, vectorsBySeq} from '../../../src/engines/meaning/related.js'
import {store} from '../../../src/operations/store.js'
import {halfBytes, halfVector} from '../../../src/storage/half-float.js'
import {vectorBytes} from '../../../src/storage/vectors.js'
import {memRepo, storedId} from '../../helpers/mem.js'

const unit = (v: number[]) => {
  const n = Math.hypot(...v)
  return Float32Array.from(v.map((x) => x / n))
}

describe('closePairs', () => {
  it('gives every pair at or above the cosine, in order, with its cosine; none past the cap; a length of its own is refused', () => {
    // five numbers a vector: the four running sums and the one left over are each exercised
    const vs = new Map<number, Float32Array>([
      [4, unit([1, 0, 0, 0, 0])],
      [0, unit([1, 0.1, 0, 0, 0.05])],
      [2, unit([0, 1, 0, 0, 0])],
      [7, unit([0, 1, 0.2, 0, 0])],
      [9, unit([0, 0, 0, 1, 1])],
    ])
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, k) => s + x * b[k], 0)
    const got = closePairs(vs, 0.7, 10)
    expect(got.map(({i, j}) => [i, j])).toEqual([
      [0, 4],
      [2, 7],
    ])
    expect(got[0].sim).toBeCloseTo(dot(vs.get(0)!, vs.get(4)!), 9)
    expect(got[1].sim).toBeCloseTo(dot(vs.get(2)!, vs.get(7)!), 9)
    // every pair at 0 or more: the ten pairs but those below (none is negative here)
    expect(closePairs(vs, 0, 10)).toHaveLength(10)
    expect(closePairs(vs, 0.7, 4)).toEqual([])
    expect(() => closePairs(new Map([[1, unit([1, 0])], [2, unit([1, 0, 0])]]), 0.5, 10)).toThrow(/different lengths/)
  })

  it('gives what the plain loop over every pair gives, whatever the length and the cosine asked (pairs left at the first half included)', () => {
    let seed = 7
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) - 0.5
    for (const dims of [3, 8, 37, 64, 129]) {
      const centre = Array.from({length: dims}, rand)
      const vs = new Map<number, Float32Array>()
      // near one centre, so that some pairs are close and most are not
      for (let i = 0; i < 40; i++) vs.set(i * 3, unit(centre.map((x) => x * (i % 4 === 0 ? 1 : 0.3) + rand())))
      const all = [...vs]
      for (const min of [-0.5, 0, 0.3, 0.6, 0.9]) {
        const want: Array<[number, number]> = []
        for (let x = 0; x < all.length; x++) {
          for (let y = x + 1; y < all.length; y++) {
            const dot = all[x][1].reduce((s, v, k) => s + v * all[y][1][k], 0)
            if (dot >= min) want.push([all[x][0], all[y][0]])
          }
        }
        expect(closePairs(vs, min, 100).map(({i, j}) => [i, j]), `${dims} dims, ${min}`).toEqual(want)
      }
    }
  })
})

describe('vectorsBySeq', () => {
  it('reads the vectors of the seqs asked (by position), none of a memory without one, and null once more than the cap have one', async () => {
    const m = memRepo()
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push(storedId(await store(m.ctx, {repo: m.repo, type: 'observation', content: `Queue ${i} of the ingest service drained at ${i} past two`})))
    const handle = await m.ctx.repo(m.repo, 'write')
    // vectors for the first four only
    await handle.store.write(() => ({
      ops: ids.slice(0, 4).map((id, i) => ({op: 'vector' as const, id, model: 'test/model', dims: 3, vector: Buffer.from(vectorBytes(unit([1, i, 0]))).toString('base64'), at: '2026-01-01T00:00:00.000Z'})),
      result: null,
    }))
    const seqs = handle.store.read((db) => db.all<{seq: number}>('SELECT seq FROM memories ORDER BY seq')).map((r) => r.seq)
    const of = {model: 'test/model', dims: 3}
    const asked = [seqs[4], seqs[1], seqs[3]]
    const got = handle.store.read((db) => vectorsBySeq(db, of, asked, 10))!
    expect([...got.keys()].sort()).toEqual([1, 2])
    // kept in binary16: each number to its nearest half
    const kept = (v: Float32Array) => [...halfVector(halfBytes(v))]
    expect([...got.get(1)!]).toEqual(kept(unit([1, 1, 0])))
    expect([...got.get(2)!]).toEqual(kept(unit([1, 3, 0])))
    expect(handle.store.read((db) => vectorsBySeq(db, of, seqs, 4))).not.toBe(null)
    expect(handle.store.read((db) => vectorsBySeq(db, of, seqs, 3))).toBe(null)
    // another model's or size's vectors are not these
    expect(handle.store.read((db) => vectorsBySeq(db, {model: 'test/model', dims: 4}, seqs, 10))!.size).toBe(0)
  })
})
