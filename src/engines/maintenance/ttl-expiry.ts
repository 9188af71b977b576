import {getMemory, liveExpiredAt} from '../../storage/memories.js'
import {forgetOp, writeInChunks} from './chunks.js'
import type {Stage} from './types.js'

/** Forgets live memories whose `expiresAt` has passed; the reason names the expiry. */
export const ttlExpiry: Stage = {
  name: 'ttl-expiry',
  async run(s) {
    const at = s.now.toISOString()
    const expired = s.repo.store.read((db) => liveExpiredAt(db, at))
    return writeInChunks(s, expired, (db, chunk) => {
      const ops = []
      for (const e of chunk) {
        const m = getMemory(db, e.id)
        if (!m || m.forgottenAt || m.supersededBy || !m.expiresAt || m.expiresAt > at) continue
        ops.push(forgetOp(m.id, at, `expired: its expiresAt ${m.expiresAt} has passed`))
      }
      return {ops, affected: ops.length}
    })
  },
}
