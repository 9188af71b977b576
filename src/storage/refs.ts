import type {Db} from './db.js'

/**
 * The store's memory keys (an id's last segment, 12 hex digits), sorted, with their ids: short
 * refs are found by binary search instead of a scan per ref. Kept per database and rebuilt when a
 * memory is added or purged (its stamp is the highest seq and the row count), so a session
 * context's thirty refs cost one read of the ids, not thirty scans.
 */
interface KeyIndex {
  stamp: string
  /** The database's write count when the stamp was last checked: no write since, no check. */
  checkedAt: number
  /** [key, id] pairs, by key then id. */
  entries: Array<[string, string]>
}

const indexes = new WeakMap<Db, KeyIndex>()

function keyIndex(db: Db): KeyIndex {
  const known = indexes.get(db)
  if (known && known.checkedAt === db.writeCount) return known
  const row = db.get<{m: number | null; n: number}>(`SELECT max(seq) AS m, count(*) AS n FROM memories`)
  const stamp = `${row?.m ?? 0}:${row?.n ?? 0}`
  let index = known
  if (!index || index.stamp !== stamp) {
    const entries = db
      .all<{id: string}>(`SELECT id FROM memories`)
      .map((r): [string, string] => [r.id.slice(r.id.lastIndexOf('/') + 1), r.id])
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
    index = {stamp, entries, checkedAt: db.writeCount}
    indexes.set(db, index)
  }
  index.checkedAt = db.writeCount
  return index
}

/** The first position whose key is not below `key`. */
function lowerBound(entries: Array<[string, string]>, key: string): number {
  let lo = 0
  let hi = entries.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (entries[mid][0] < key) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Ids of the store whose key (the id's last segment, 12 hex digits) starts with `prefix`, of any
 * repo segment and type, at most `limit`, in id order.
 */
export function idsWithKeyPrefix(db: Db, prefix: string, limit = 20): string[] {
  const {entries} = keyIndex(db)
  const out: string[] = []
  for (let i = lowerBound(entries, prefix); i < entries.length && entries[i][0].startsWith(prefix) && out.length < limit; i++) out.push(entries[i][1])
  return out.sort()
}

function commonPrefix(a: string, b: string): number {
  let n = 0
  while (n < a.length && n < b.length && a[n] === b[n]) n++
  return n
}

/** The fewest characters of a key a short ref has (unless the key is shorter). */
const SHORT_REF_MIN = 8

/** An id's key: its last segment. */
const keyOf = (id: string) => id.slice(id.lastIndexOf('/') + 1)

/**
 * Whether `ref` is what shortRef() can give for `id`, whatever the store: a prefix of its key of
 * SHORT_REF_MIN characters or more, or the whole key (a ref read from a file is checked so).
 */
export function isShortRefOf(id: string, ref: string): boolean {
  const key = keyOf(id)
  return key.startsWith(ref) && (ref.length >= SHORT_REF_MIN || ref === key)
}

/**
 * The shortest prefix of `id`'s key, at least `min` characters, that names no other memory of the
 * store (the whole key when even that is shared). For the session context's refs.
 */
export function shortRef(db: Db, id: string, min = SHORT_REF_MIN): string {
  const key = keyOf(id)
  const {entries} = keyIndex(db)
  // the keys next to this one in sorted order share the longest prefixes with it
  let shared = 0
  const at = lowerBound(entries, key)
  for (let i = at - 1; i >= 0; i--) {
    if (entries[i][1] === id) continue
    shared = Math.max(shared, commonPrefix(entries[i][0], key))
    break
  }
  for (let i = at; i < entries.length; i++) {
    if (entries[i][1] === id) continue
    shared = Math.max(shared, commonPrefix(entries[i][0], key))
    break
  }
  const n = Math.max(min, shared + 1)
  return n >= key.length ? key : key.slice(0, n)
}
