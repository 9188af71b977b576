import type {Db} from './db.js'

/** One full-text hit: the memory's seq and FTS4's matchinfo('pcnalx') as 32-bit integers. */
export interface FtsHit {
  seq: number
  info: Uint32Array
}

/** Columns of memories_fts, in order. */
export const FTS_COLUMNS = ['body', 'tags', 'oneliner'] as const

/**
 * Every live memory whose index matches any of `terms` (already analyzed), with the statistics
 * BM25 needs. Terms are quoted, so nothing in them is read as FTS query syntax.
 */
export function ftsMatchAny(db: Db, terms: string[]): FtsHit[] {
  if (terms.length === 0) return []
  const match = terms.map((t) => `"${t.replace(/"/g, '')}"`).join(' OR ')
  const rows = db.all<{seq: number; mi: Uint8Array}>(
    `SELECT docid AS seq, matchinfo(memories_fts, 'pcnalx') AS mi FROM memories_fts WHERE memories_fts MATCH ?`,
    [match],
  )
  return rows.map((r) => ({seq: r.seq, info: new Uint32Array(r.mi.buffer, r.mi.byteOffset, r.mi.byteLength / 4)}))
}

/** Document frequency of each term in the index (how many live memories contain it). */
export function termDocFrequencies(db: Db, terms: string[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const term of terms) {
    const row = db.get<{n: number}>(`SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH ?`, [`"${term.replace(/"/g, '')}"`])
    out.set(term, row?.n ?? 0)
  }
  return out
}
