import {shingleSet} from '../../text/shingles.js'
import {LOOKUP_KEYS} from '../../text/minhash.js'
import {jaccard} from '../../text/similarity.js'
import {NEAR_DUPLICATE_THRESHOLD} from '../gates/duplicates.js'
import {bothInFiles} from '../gates/held.js'
import {intakeRows} from '../../storage/intake.js'
import {dupBandGroups, getMemory, liveBriefsBySeq, liveNormHashGroups, normHash, type MemoryBrief} from '../../storage/memories.js'
import {forgetOp, writeInChunks} from './chunks.js'
import {factShape, sameValues, type FactShape} from '../../text/values.js'
import {restates, sayTheSame, sureUpdate, updateRelation} from '../currency/rules.js'
import {DISTINCT, isLive, RESOLVED_UPDATE, setLink, UPDATED_BY, UPDATES, type Memory} from '../../model/memory.js'
import type {Op} from '../../storage/memories.js'
import type {Stage, StageContext} from './types.js'
import {newestVersions} from '../currency.js'

/** A band group larger than this is compared only within windows of it (very short, common texts). */
const MAX_GROUP_PAIRS = 200

/** A pair of live memories, the newer and the older (by creation). */
interface Versions {
  newer: MemoryBrief
  older: MemoryBrief
}

/**
 * The `dedup` stage (its name in the spec), in three steps over the pairs its keys find:
 * forgetDuplicates — later restatements of a live memory with the same values, with the reason
 * `duplicate of <id>`: the same normalized text, or word-shingle similarity ≥ 0.9 (the store-time
 * gate's rule, which imports, layers and older stores may have bypassed); linkUpdates — the update
 * pairs and the reverts in other words no store linked (currency/rules.ts); resolveSureUpdates —
 * the update pairs it is sure of (one sentence, one slot changed): the older is superseded by the
 * newer, with the reason. Candidates come from the norm-hash index and the MinHash band table,
 * never from comparing every pair. Memories are visited oldest first; one already forgotten as a
 * duplicate keeps nothing else out (duplicates of a duplicate whose original differs stay).
 */
export const dedup: Stage = {
  name: 'dedup',
  async run(s) {
    const unlinked = await unlinkHeldSeeds(s)
    const found = comparePairs(s)
    const {pairs, dropped} = duplicatesToForget(found.briefs, found.restatements)
    const at = s.now.toISOString()
    const forgotten = await forgetDuplicates(s, pairs, at)
    const undropped = (u: Versions) => !dropped.has(u.newer.seq) && !dropped.has(u.older.seq)
    const updates = found.updates.filter(undropped)
    const linked = await linkUpdates(s, updates, found.reverts.filter(undropped), found.shapeOf)
    const resolved = await resolveSureUpdates(s, updates, found.shapeOf, at)
    return unlinked + forgotten + linked + resolved
  },
}

/**
 * Update links between two lines the project's files hold (bothInFiles: both true at once), which
 * the links meaning found after a store made until 2026-11-28 (gates/admit.ts planMeaningLinks):
 * taken off both, so the rule a script's procedure or a neighbouring line outdated is current again.
 */
function unlinkHeldSeeds(s: StageContext): Promise<number> {
  const pairs = s.repo.store.read((db) => {
    const held = new Set(intakeRows(db).filter((r) => r.seed && !r.forgottenAt && !r.supersededBy).map((r) => r.id))
    // each pair once, whichever side holds the link (a link is kept on both, but need not be)
    const out = new Map<string, {a: string; b: string}>()
    for (const id of held) {
      for (const l of getMemory(db, id)?.links ?? []) {
        if ((l.relation !== UPDATES && l.relation !== UPDATED_BY) || !held.has(l.targetId)) continue
        const [a, b] = id < l.targetId ? [id, l.targetId] : [l.targetId, id]
        out.set(`${a}\u0000${b}`, {a, b})
      }
    }
    return [...out.values()]
  })
  return writeInChunks(s, pairs, (db, chunk) => {
    const ops: Op[] = []
    const changed = new Map<string, Memory>()
    const current = (id: string) => changed.get(id) ?? getMemory(db, id)
    for (const {a, b} of chunk) {
      const x = current(a)
      const y = current(b)
      if (!x || !y || !isLive(x) || !isLive(y) || !bothInFiles(db, a, b)) continue
      const drop = (m: Memory, other: string) => {
        const was = m.links.find((l) => l.targetId === other)
        if (!was || (was.relation !== UPDATES && was.relation !== UPDATED_BY)) return
        const next = {...m, links: setLink(m.links, other)}
        changed.set(m.id, next)
        ops.push({op: 'update', id: m.id, set: {links: next.links}})
      }
      drop(x, b)
      drop(y, a)
    }
    return {ops, affected: new Set(ops.map((o) => (o.op === 'update' ? o.id : ''))).size}
  })
}

/**
 * Reads the pairs the norm-hash groups and the band groups hold, and sorts each: a restatement (the
 * same text or near it, saying the same: `restatements`, both ways by seq), an update (the newer
 * states another value of the older's subject) or a revert in other words (the newer restates the
 * older), never two observations.
 */
function comparePairs(s: StageContext) {
  const plan = s.repo.store.read((db) => {
    const exact = liveNormHashGroups(db)
    // not the role, quantity and version keys: a store compares the newest few sharing one of those
    const bands = dupBandGroups(db, LOOKUP_KEYS)
    const seqs = new Set<number>()
    for (const g of [...exact, ...bands]) for (const seq of g) seqs.add(seq)
    const briefs = new Map(liveBriefsBySeq(db, [...seqs]).map((b) => [b.seq, b]))
    return {exact, bands, briefs}
  })
  const {briefs} = plan
  const restatements = new Map<number, Set<number>>()
  const restated = (a: number, b: number) => {
    if (!restatements.has(a)) restatements.set(a, new Set())
    if (!restatements.has(b)) restatements.set(b, new Set())
    restatements.get(a)!.add(b)
    restatements.get(b)!.add(a)
  }
  const shapes = new Map<number, FactShape>()
  const shapeOf = (b: MemoryBrief) => {
    let shape = shapes.get(b.seq)
    if (!shape) shapes.set(b.seq, (shape = factShape(b.content)))
    return shape
  }
  // a text that differs from another only by a value ('e_' → 'e') folds to the same hash: not a duplicate
  const alike = (a: MemoryBrief | undefined, b: MemoryBrief | undefined) => !!a && !!b && sayTheSame(shapeOf(a), shapeOf(b))
  for (const g of plan.exact) for (let i = 1; i < g.length; i++) if (alike(briefs.get(g[0]), briefs.get(g[i]))) restated(g[0], g[i])
  const shingles = new Map<number, Set<string>>()
  const shinglesOf = (b: MemoryBrief) => {
    let set = shingles.get(b.seq)
    if (!set) shingles.set(b.seq, (set = shingleSet(b.content)))
    return set
  }
  // pairs compared, as one number each (a string per pair is most of this stage's memory at 100k)
  const compared = new Set<number | string>()
  const updates: Array<Versions & {reason: string}> = []
  const reverts: Versions[] = []
  for (const group of plan.bands) {
    const members = group.map((seq) => briefs.get(seq)).filter((b): b is MemoryBrief => b !== undefined)
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length && j < i + MAX_GROUP_PAIRS; j++) {
        const [x, y] = [members[i].seq, members[j].seq]
        const key = x < 2 ** 26 && y < 2 ** 26 ? x * 2 ** 26 + y : `${x}:${y}`
        if (compared.has(key)) continue
        compared.add(key)
        const [a, b] = [members[i], members[j]]
        if (jaccard(shinglesOf(a), shinglesOf(b)) >= NEAR_DUPLICATE_THRESHOLD && alike(a, b)) restated(a.seq, b.seq)
        else if (a.type !== 'observation' || b.type !== 'observation') {
          // the same subject with another value: the newer updates the older (currency.ts)
          const [older, newer] = a.createdAt <= b.createdAt ? [a, b] : [b, a]
          const relation = updateRelation(shapeOf(newer), shapeOf(older))
          if (relation) updates.push({newer, older, reason: relation.reason})
          // the older value said again in other words: a revert, if the older has a newer version
          else if (restates(shapeOf(newer), shapeOf(older))) reverts.push({newer, older})
        }
      }
    }
  }
  return {briefs, restatements, updates, reverts, shapeOf}
}

/** Of each group of restatements, the later ones (oldest first, as the store saw them): the duplicates to forget, and their seqs. */
function duplicatesToForget(briefs: ReadonlyMap<number, MemoryBrief>, restatements: ReadonlyMap<number, ReadonlySet<number>>) {
  const order = [...restatements.keys()].map((seq) => briefs.get(seq)!).filter(Boolean)
  order.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.seq - b.seq))
  const rank = new Map(order.map((b, i) => [b.seq, i]))
  const dropped = new Set<number>()
  const pairs: Array<{dup: MemoryBrief; original: MemoryBrief}> = []
  for (const original of order) {
    if (dropped.has(original.seq)) continue
    for (const other of restatements.get(original.seq) ?? []) {
      if (dropped.has(other) || rank.get(other)! < rank.get(original.seq)!) continue
      dropped.add(other)
      pairs.push({dup: briefs.get(other)!, original})
    }
  }
  return {pairs, dropped}
}

/** Forgets each duplicate still as it was read, with the reason `duplicate of <id>`; never a revert. */
function forgetDuplicates(s: StageContext, pairs: Array<{dup: MemoryBrief; original: MemoryBrief}>, at: string): Promise<number> {
  return writeInChunks(s, pairs, (db, chunk) => {
    const ops = []
    for (const {dup, original} of chunk) {
      const d = getMemory(db, dup.id)
      const o = getMemory(db, original.id)
      if (!d || !o || d.forgottenAt || d.supersededBy || o.forgottenAt || o.supersededBy) continue
      if (d.content !== dup.content) continue
      const same = normHash(d.content) === normHash(o.content) || jaccard(shingleSet(d.content), shingleSet(o.content)) >= NEAR_DUPLICATE_THRESHOLD
      if (!same || !sayTheSame(factShape(d.content), factShape(o.content))) continue
      // a restatement of a memory a newer one updates is a revert (18 → 20 → 18), the current
      // version: never a duplicate (the store-time rule, duplicates.ts)
      if (newestVersions(db, [o]).size > 0) continue
      ops.push(forgetOp(d.id, at, `duplicate of ${o.id}`))
    }
    return {ops, affected: ops.length}
  })
}

/**
 * Update pairs no store linked (stored before this rule, imported, synced): linked now, both ways,
 * unless anything already links the two (a person's `distinct` included). And the reverts said in
 * other words no store linked (the store-time rule, duplicates.ts): the restating memory updates the
 * newest version of the one it restates, when that version is older than it and states another value.
 */
function linkUpdates(s: StageContext, updates: Versions[], reverts: Versions[], shapeOf: (b: MemoryBrief) => FactShape): Promise<number> {
  const toLink = [...updates.map((u) => ({...u, revert: false})), ...reverts.map((u) => ({...u, revert: true}))]
  return writeInChunks(s, toLink, (db, chunk) => {
    const ops: Op[] = []
    const changed = new Map<string, Memory>()
    const current = (id: string) => changed.get(id) ?? getMemory(db, id)
    for (const {newer, older, revert} of chunk) {
      const n = current(newer.id)
      let o = current(older.id)
      if (!n || !o || !isLive(n) || !isLive(o)) continue
      if (revert) {
        const head = newestVersions(db, [o]).get(o.id)
        o = head && current(head.id)
        if (!o || o.id === n.id || !isLive(o) || o.createdAt >= n.createdAt || sameValues(shapeOf(newer), factShape(o.content))) continue
      }
      if (n.links.some((l) => l.targetId === o.id) || o.links.some((l) => l.targetId === n.id)) continue
      if (bothInFiles(db, n.id, o.id)) continue
      // an older version a live memory already updates is reached through it (the chain)
      if (!revert && o.links.some((l) => l.relation === UPDATED_BY && isLiveMemory(current(l.targetId)))) continue
      const nl = {...n, links: setLink(n.links, o.id, UPDATES)}
      const ol = {...o, links: setLink(o.links, n.id, UPDATED_BY)}
      changed.set(n.id, nl)
      changed.set(o.id, ol)
      ops.push({op: 'update', id: n.id, set: {links: nl.links}}, {op: 'update', id: o.id, set: {links: ol.links}})
    }
    return {ops, affected: ops.length / 2}
  })
}

/**
 * The pairs it is sure of — one sentence, one slot changed ("CI runs on Node 18" → "… 20") — are
 * resolved: the older is superseded by its next version, with the reason, and leaves recall and the
 * context (`mem history` keeps the chain; `distinct` undoes it). Oldest first, so a chain e_ → f_ →
 * j_ supersedes e_ by f_ and f_ by j_.
 */
function resolveSureUpdates(s: StageContext, updates: Versions[], shapeOf: (b: MemoryBrief) => FactShape, at: string): Promise<number> {
  const sure = updates
    .map((u) => ({...u, relation: sureUpdate(shapeOf(u.newer), shapeOf(u.older))}))
    .filter((u): u is typeof u & {relation: NonNullable<typeof u.relation>} => u.relation !== null && u.older.createdAt < u.newer.createdAt)
    .sort((x, y) => cmp(x.older.createdAt, y.older.createdAt) || x.older.seq - y.older.seq || cmp(x.newer.createdAt, y.newer.createdAt) || x.newer.seq - y.newer.seq)
  return writeInChunks(s, sure, (db, chunk) => {
    const ops: Op[] = []
    const changed = new Map<string, Memory>()
    const current = (id: string) => changed.get(id) ?? getMemory(db, id)
    for (const {newer, older, relation} of chunk) {
      const n = current(newer.id)
      const o = current(older.id)
      if (!n || !o || !isLive(n) || !isLive(o) || n.supersedes || bothInFiles(db, n.id, o.id)) continue
      // a person's `distinct` (or any other stated relation but the update) keeps both
      const between = [...n.links.filter((l) => l.targetId === o.id), ...o.links.filter((l) => l.targetId === n.id)]
      if (between.some((l) => l.relation === DISTINCT || (l.relation !== UPDATES && l.relation !== UPDATED_BY))) continue
      const reason = `${RESOLVED_UPDATE}, ${relation.reason}`
      changed.set(o.id, {...o, supersededBy: n.id, forgetReason: reason})
      changed.set(n.id, {...n, supersedes: o.id})
      ops.push({op: 'update', id: o.id, set: {supersededBy: n.id, forgetReason: reason, updatedAt: at}}, {op: 'update', id: n.id, set: {supersedes: o.id, updatedAt: at}})
    }
    return {ops, affected: ops.length / 2}
  })
}

const isLiveMemory = (m: Memory | undefined): boolean => !!m && isLive(m)

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
