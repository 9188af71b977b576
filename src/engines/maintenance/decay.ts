import {eachLiveDecayRow, liveDecayRowsById, type DecayRow} from '../../storage/memories.js'
import {writeInChunks} from './chunks.js'
import {DAY_MS, type MaintenancePolicy, type Stage} from './types.js'

/** Smaller changes are not written; the time they stand for stays owed (the anchor is not moved). */
const MIN_CHANGE = 0.001

function latest(...times: Array<string | null | undefined>): number {
  let best = -Infinity
  for (const t of times) {
    if (!t) continue
    const ms = Date.parse(t)
    if (ms > best) best = ms
  }
  return best
}

/**
 * Decays one memory: importance × 2^(−elapsed / half-life), not below the floor. `elapsed` runs
 * from the memory's decay anchor: the latest of its creation, its last edit, its last use (recall
 * or feedback) and the last decay applied (`extra.decayedAt`). Decaying per elapsed interval
 * composes: two passes a day apart decay exactly as one pass after two days, and a second pass on
 * the same day changes nothing. Recently used memories are skipped. Returns null for no change.
 */
export function decayed(row: DecayRow, now: Date, policy: MaintenancePolicy['decay']): number | null {
  if (row.importance <= policy.floor) return null
  const nowMs = now.getTime()
  if (latest(row.lastUsedAt, row.lastAccessedAt) > nowMs - policy.recentlyUsedDays * DAY_MS) return null
  const decayedAt = typeof row.extra.decayedAt === 'string' ? row.extra.decayedAt : null
  const anchor = latest(row.createdAt, row.updatedAt, row.lastUsedAt, row.lastAccessedAt, decayedAt)
  const elapsedDays = (nowMs - anchor) / DAY_MS
  if (!(elapsedDays > 0)) return null
  const next = Math.max(policy.floor, row.importance * 2 ** (-elapsedDays / policy.halfLifeDays[row.type]))
  const rounded = Math.round(next * 10_000) / 10_000
  return row.importance - rounded >= MIN_CHANGE ? rounded : null
}

/** Lowers the importance of memories nobody uses, by type-specific half-lives (decisions.md). */
export const decay: Stage = {
  name: 'decay',
  async run(s) {
    const policy = s.policy.decay
    const at = s.now.toISOString()
    // rows are looked at one at a time: holding all of them (100k at 100k memories) sent ~50 MB
    // to the old generation, garbage that waited there for V8's next major collection
    const due: string[] = []
    s.repo.store.read((db) =>
      eachLiveDecayRow(db, policy.floor, (r) => {
        if (decayed(r, s.now, policy) !== null) due.push(r.id)
      }),
    )
    return writeInChunks(s, due, (db, chunk) => {
      const ops = []
      for (const row of liveDecayRowsById(db, chunk)) {
        const importance = decayed(row, s.now, policy)
        if (importance === null) continue
        ops.push({op: 'update' as const, id: row.id, set: {importance, extra: {...row.extra, decayedAt: at}}})
      }
      return {ops, affected: ops.length}
    })
  },
}
