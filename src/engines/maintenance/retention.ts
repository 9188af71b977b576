import {getMemory, liveObservationsUnused} from '../../storage/memories.js'
import {forgetOp, writeInChunks} from './chunks.js'
import {daysBefore, type Stage} from './types.js'

/**
 * Forgets observations older than `retention.olderThanDays` (90) that were not used in
 * `retention.unusedDays` (45): neither recalled nor reported used. Insights, procedures and
 * heuristics are kept; decay lowers their importance instead.
 */
export const retention: Stage = {
  name: 'retention',
  async run(s) {
    const {olderThanDays, unusedDays} = s.policy.retention
    const createdBefore = daysBefore(s.now, olderThanDays)
    const unusedSince = daysBefore(s.now, unusedDays)
    const at = s.now.toISOString()
    const reason = `retention: observation older than ${olderThanDays} days, not used in ${unusedDays} days`
    const stale = s.repo.store.read((db) => liveObservationsUnused(db, createdBefore, unusedSince))
    return writeInChunks(s, stale, (db, chunk) => {
      const ops = []
      for (const c of chunk) {
        const m = getMemory(db, c.id)
        if (!m || m.forgottenAt || m.supersededBy || m.type !== 'observation' || m.createdAt >= createdBefore) continue
        if ((m.lastUsedAt ?? '') >= unusedSince || (m.lastAccessedAt ?? '') >= unusedSince) continue
        ops.push(forgetOp(m.id, at, reason))
      }
      return {ops, affected: ops.length}
    })
  },
}
