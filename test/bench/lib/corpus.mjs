// Synthetic developer memories for benchmarks: sentences built from the vocabulary of the recall
// evaluation set, with words swapped and a serial number, so no two are near-duplicates.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

const DATA = join(import.meta.dirname, '..', 'recall', 'data')
const TYPES = ['observation', 'insight', 'procedure', 'heuristic']

export function loadEvalSet() {
  return {
    memories: JSON.parse(readFileSync(join(DATA, 'memories.json'), 'utf8')),
    questions: JSON.parse(readFileSync(join(DATA, 'questions.json'), 'utf8')),
  }
}

/** A deterministic pseudo-random generator (mulberry32). */
export function rng(seed = 42) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function syntheticMemories(count, seed = 7) {
  const {memories} = loadEvalSet()
  const vocab = [...new Set(memories.flatMap((m) => m.content.split(/\s+/)))].filter((w) => /^[a-z][a-z-]{2,}$/i.test(w))
  const rand = rng(seed)
  const pick = (arr) => arr[Math.floor(rand() * arr.length)]
  const out = []
  for (let i = 0; i < count; i++) {
    const base = pick(memories)
    const words = base.content.split(/\s+/).map((w) => (rand() < 0.4 ? pick(vocab) : w))
    out.push({
      content: `${words.join(' ')} (note ${i})`,
      type: TYPES[i % 4],
      tags: base.tags.slice(0, 2),
      importance: Math.round(rand() * 100) / 100,
    })
  }
  return out
}

/**
 * A store as it looks after months of use (for the maintenance benchmark): the synthetic
 * memories spread over `spanDays` before `now`, with realistic redundancy and debris:
 * exact duplicates (case and punctuation changed, as imports and older stores let through),
 * near duplicates (a word appended), memories whose `expiresAt` passed, entries forgotten
 * long ago, entries without a one-liner, some recalled and used recently, and families of
 * related observations (the synthetic corpus varies ~600 base texts) for consolidation.
 * Rates are per memory; returns memory-shaped objects (without id and repoId).
 */
export function realisticStore(count, {now = Date.parse('2026-03-01T12:00:00Z'), spanDays = 200, seed = 11} = {}) {
  const rand = rng(seed)
  const DAY = 86_400_000
  const base = syntheticMemories(count, seed)
  const out = []
  for (let i = 0; i < count; i++) {
    const m = base[i]
    const createdMs = now - Math.floor(rand() * spanDays * DAY)
    const entry = {
      ...m,
      type: rand() < 0.55 ? 'observation' : m.type,
      createdAt: new Date(createdMs).toISOString(),
      oneLiner: undefined,
      expiresAt: null,
      forgottenAt: null,
      forgetReason: null,
      lastAccessedAt: null,
      lastUsedAt: null,
      usedCount: 0,
    }
    const r = rand()
    if (r < 0.05 && out.length > 0) {
      // exact duplicate of an earlier memory
      const of = out[Math.floor(rand() * out.length)]
      entry.content = `${of.content.toUpperCase()}!`
    } else if (r < 0.08 && out.length > 0) {
      const of = out[Math.floor(rand() * out.length)]
      entry.content = `${of.content} again`
    } else if (r < 0.10) {
      entry.expiresAt = new Date(createdMs + Math.floor(rand() * 60) * DAY).toISOString()
    } else if (r < 0.12) {
      entry.forgottenAt = new Date(createdMs + Math.floor(rand() * 10) * DAY).toISOString()
      entry.forgetReason = 'forgotten by request'
    }
    if (rand() < 0.05) entry.oneLiner = null
    if (rand() < 0.1) {
      entry.lastAccessedAt = new Date(now - Math.floor(rand() * 60) * DAY).toISOString()
      if (rand() < 0.5) {
        entry.lastUsedAt = entry.lastAccessedAt
        entry.usedCount = 1
      }
    }
    out.push(entry)
  }
  // duplicates must be created after what they duplicate
  out.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))
  return out
}

/**
 * recall@5, recall@10 and MRR@10 of ranked lists, overall (`all`) and per group: `relevant(q)`
 * names a question's relevant items, `groupOf(q)` its group (each of `groups` is reported, empty
 * ones with n = 0). An item listed twice counts once.
 */
export function scoreRanked(questions, ranked, {relevant, groupOf, groups}) {
  const per = {all: {r5: 0, r10: 0, mrr: 0, n: 0}}
  for (const g of groups) per[g] = {r5: 0, r10: 0, mrr: 0, n: 0}
  questions.forEach((q, i) => {
    const list = ranked[i]
    const rel = new Set(relevant(q))
    const found = (k) => new Set(list.slice(0, k).filter((key) => rel.has(key))).size / rel.size
    const first = list.findIndex((key) => rel.has(key))
    for (const b of [per.all, per[groupOf(q)]]) {
      b.r5 += found(5)
      b.r10 += found(10)
      b.mrr += first >= 0 && first < 10 ? 1 / (first + 1) : 0
      b.n++
    }
  })
  for (const b of Object.values(per)) {
    if (!b.n) continue
    b.r5 /= b.n
    b.r10 /= b.n
    b.mrr /= b.n
  }
  return per
}

/**
 * Stores the evaluation set's memories through `store` (one an hour from 2026-01-01, as every
 * recall benchmark does) and returns each stored id's memory key and the clock's last time.
 * `clock` is the context's time source: its `set` moves it.
 */
export async function storeEvalSet(store, ctx, root, memories, clock) {
  let t = Date.parse('2026-01-01T00:00:00Z')
  const keyOf = new Map()
  for (const m of memories) {
    t += 3_600_000
    clock.set(t)
    const r = await store(ctx, {repo: root, content: m.content, type: m.type, tags: m.tags, importance: m.importance})
    if (!r.success) throw new Error(`eval memory ${m.key} not stored: ${JSON.stringify(r)}`)
    keyOf.set(r.id, m.key)
  }
  return {keyOf, now: new Date(t)}
}
