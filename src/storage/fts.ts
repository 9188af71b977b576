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


/** Every indexed term with the number of live memories containing it. */
export function vocabulary(db: Db): Array<{term: string; df: number}> {
  return db.all<{term: string; df: number}>(`SELECT term, documents AS df FROM memories_vocab WHERE col = '*'`)
}

/** Live memory count (the N of IDF). */
export function indexedCount(db: Db): number {
  return db.get<{n: number}>(`SELECT count(*) AS n FROM memories WHERE live = 1`)!.n
}

/** The analyzed body and tags of indexed memories (for pseudo-relevance feedback). */
export function indexedTerms(db: Db, seqs: number[]): Array<{seq: number; body: string; tags: string}> {
  if (seqs.length === 0) return []
  return db.all<{seq: number; body: string; tags: string}>(
    `SELECT docid AS seq, body, tags FROM memories_fts WHERE docid IN (${seqs.map(() => '?').join(', ')})`,
    seqs,
  )
}
