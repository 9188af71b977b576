import {forgottenBefore, getMemory, liveDerivedFromIds} from '../../storage/memories.js'
import {writeInChunks} from './chunks.js'
import {daysBefore, type Stage} from './types.js'

/**
 * Purges (deletes for good) memories forgotten more than `cleanup.purgeForgottenAfterDays` (30)
 * days ago, through the storage purge op. A forgotten memory a live insight still names in its
 * `derivedFrom` is kept, so the graph's `derived` edges never point at nothing. Superseded
 * versions are not forgotten and are never purged: history keeps them.
 */
export const cleanup: Stage = {
  name: 'cleanup',
  async run(s) {
    const cutoff = daysBefore(s.now, s.policy.cleanup.purgeForgottenAfterDays)
    const ids = s.repo.store.read((db) => {
      const referenced = liveDerivedFromIds(db)
      return forgottenBefore(db, cutoff).filter((id) => !referenced.has(id))
    })
    return writeInChunks(s, ids, (db, chunk) => {
      const ops = []
      for (const id of chunk) {
        const m = getMemory(db, id)
        if (!m || !m.forgottenAt || m.forgottenAt >= cutoff) continue
        ops.push({op: 'purge' as const, id})
      }
      return {ops, affected: ops.length}
    })
  },
}
