import {shingleSet} from '../../text/shingles.js'
import {jaccard} from '../../text/similarity.js'
import {NEAR_DUPLICATE_THRESHOLD} from '../gates/duplicates.js'
import {dupBandGroups, getMemory, liveBriefsBySeq, liveNormHashGroups, normHash, type MemoryBrief} from '../../storage/memories.js'
import {forgetOp, writeInChunks} from './chunks.js'
import type {Stage} from './types.js'

/** A band group larger than this is compared only within windows of it (very short, common texts). */
const MAX_GROUP_PAIRS = 200

/**
 * Forgets later duplicates of a live memory, with the reason `duplicate of <id>`: the same
 * normalized text, or word-shingle similarity ≥ 0.9 (the store-time gate's rule, which imports,
 * layers and older stores may have bypassed). Candidates come from the norm-hash index and the
 * MinHash band table, never from comparing every pair. Memories are visited oldest first; one
 * already forgotten as a duplicate keeps nothing else out (duplicates of a duplicate whose
 * original differs stay).
 */
export const dedup: Stage = {
  name: 'dedup',
  async run(s) {
    const plan = s.repo.store.read((db) => {
      const exact = liveNormHashGroups(db)
      const bands = dupBandGroups(db)
      const seqs = new Set<number>()
      for (const g of [...exact, ...bands]) for (const seq of g) seqs.add(seq)
      const briefs = new Map(liveBriefsBySeq(db, [...seqs]).map((b) => [b.seq, b]))
      return {exact, bands, briefs}
    })
    const {briefs} = plan
    const neighbours = new Map<number, Set<number>>()
    const link = (a: number, b: number) => {
      if (!neighbours.has(a)) neighbours.set(a, new Set())
      if (!neighbours.has(b)) neighbours.set(b, new Set())
      neighbours.get(a)!.add(b)
      neighbours.get(b)!.add(a)
    }
    for (const g of plan.exact) for (let i = 1; i < g.length; i++) link(g[0], g[i])
    const shingles = new Map<number, Set<string>>()
    const shinglesOf = (b: MemoryBrief) => {
      let set = shingles.get(b.seq)
      if (!set) shingles.set(b.seq, (set = shingleSet(b.content)))
      return set
    }
    const compared = new Set<string>()
    for (const group of plan.bands) {
      const members = group.map((seq) => briefs.get(seq)).filter((b): b is MemoryBrief => b !== undefined)
      for (let i = 0; i < members.length; i++) {
        for (let j = i + 1; j < members.length && j < i + MAX_GROUP_PAIRS; j++) {
          const key = `${members[i].seq}:${members[j].seq}`
          if (compared.has(key)) continue
          compared.add(key)
          if (jaccard(shinglesOf(members[i]), shinglesOf(members[j])) >= NEAR_DUPLICATE_THRESHOLD) link(members[i].seq, members[j].seq)
        }
      }
    }
    shingles.clear()

    const order = [...neighbours.keys()].map((seq) => briefs.get(seq)!).filter(Boolean)
    order.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.seq - b.seq))
    const rank = new Map(order.map((b, i) => [b.seq, i]))
    const dropped = new Set<number>()
    const pairs: Array<{dup: MemoryBrief; original: MemoryBrief}> = []
    for (const original of order) {
      if (dropped.has(original.seq)) continue
      for (const other of neighbours.get(original.seq) ?? []) {
        if (dropped.has(other) || rank.get(other)! < rank.get(original.seq)!) continue
        dropped.add(other)
        pairs.push({dup: briefs.get(other)!, original})
      }
    }

    const at = s.now.toISOString()
    return writeInChunks(s, pairs, (db, chunk) => {
      const ops = []
      for (const {dup, original} of chunk) {
        const d = getMemory(db, dup.id)
        const o = getMemory(db, original.id)
        if (!d || !o || d.forgottenAt || d.supersededBy || o.forgottenAt || o.supersededBy) continue
        if (d.content !== dup.content) continue
        const same = normHash(d.content) === normHash(o.content) || jaccard(shingleSet(d.content), shingleSet(o.content)) >= NEAR_DUPLICATE_THRESHOLD
        if (!same) continue
        ops.push(forgetOp(d.id, at, `duplicate of ${o.id}`))
      }
      return {ops, affected: ops.length}
    })
  },
}
