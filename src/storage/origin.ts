import {rowsToSign} from './memories.js'
import type {RepoStore} from './repo-store.js'

/**
 * Signs as this machine's the origins of a store's rows it does not vouch for (all rows that read
 * as foreign with `all`, else rows from before origins were kept), in journaled chunks. Returns
 * how many were signed. Without keys it signs nothing.
 */
export async function adoptRows(store: RepoStore, all: boolean): Promise<number> {
  const keys = store.origins
  if (!keys) return 0
  await store.ready()
  const rows = store.read((db) => rowsToSign(db, all))
  for (let i = 0; i < rows.length; i += ADOPT_CHUNK) {
    const entries = rows.slice(i, i + ADOPT_CHUNK).map((r): [string, string, string] => [r.id, r.origin, keys.sign(r.id, r.origin, r.content)])
    await store.write(() => ({ops: [{op: 'origin-sign', entries}], result: undefined}))
  }
  return rows.length
}

const ADOPT_CHUNK = 2_000
