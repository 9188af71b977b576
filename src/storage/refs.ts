import type {Db} from './db.js'

/**
 * Ids of the store whose key (the id's last segment, 12 hex digits) starts with `prefix`, of any
 * repo segment and type, at most `limit`. A scan of the primary key: a few milliseconds at 10k
 * memories, and only when someone types a short ref.
 */
export function idsWithKeyPrefix(db: Db, prefix: string, limit = 20): string[] {
  // `_` matches one character: the pattern ends the id with a 12-character segment that starts with
  // the prefix, which only the key is
  const pattern = `%/${prefix}${'_'.repeat(Math.max(0, 12 - prefix.length))}`
  return db
    .all<{id: string}>(`SELECT id FROM memories WHERE id LIKE ? ORDER BY id LIMIT ?`, [pattern, limit])
    .map((r) => r.id)
    .filter((id) => id.slice(id.lastIndexOf('/') + 1).startsWith(prefix))
}

/**
 * The shortest prefix of `id`'s key, at least `min` characters, that names no other memory of the
 * store (the whole key when even that is shared). For the session context's refs.
 */
export function shortRef(db: Db, id: string, min = 8): string {
  const key = id.slice(id.lastIndexOf('/') + 1)
  for (let n = min; n < key.length; n++) {
    const prefix = key.slice(0, n)
    if (idsWithKeyPrefix(db, prefix, 2).length <= 1) return prefix
  }
  return key
}
