import {MemError} from '../../model/errors.js'
import type {Db} from '../../storage/db.js'
import type {Op} from '../../storage/memories.js'
import type {StageContext} from './types.js'

export function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) {
    throw new MemError('unavailable', 'The maintenance pass was stopped before it finished (the service is shutting down).', {
      hint: 'Nothing half-written was kept: every chunk is one journaled write. Run it again.',
    })
  }
}

/**
 * Applies a stage's changes in chunks of `policy.chunk` items, one journaled write each, so a
 * pass over 100k memories never holds all its ops at once and a shutdown between chunks leaves a
 * consistent store. `build` runs under the writer lock on current state and must re-check what
 * it planned; in a dry run it runs on a read and its ops are dropped. Returns the affected count.
 */
export async function writeInChunks<T>(s: StageContext, items: T[], build: (db: Db, chunk: T[]) => {ops: Op[]; affected: number}): Promise<number> {
  let affected = 0
  for (let i = 0; i < items.length; i += s.policy.chunk) {
    checkAborted(s.signal)
    const chunk = items.slice(i, i + s.policy.chunk)
    if (s.dryRun) affected += s.repo.store.read((db) => build(db, chunk).affected)
    else affected += await s.repo.store.write((db) => {
      const plan = build(db, chunk)
      return {ops: plan.ops, result: plan.affected}
    })
    s.progress(Math.min(items.length, i + s.policy.chunk), items.length)
  }
  return affected
}

/** The patch that forgets a memory with a reason. */
export function forgetOp(id: string, at: string, reason: string): Op {
  return {op: 'update', id, set: {forgottenAt: at, forgetReason: reason, updatedAt: at}}
}
