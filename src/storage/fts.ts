import type {Db} from './db.js'

/**
 * The full-text index of live memories (FTS4 over analyzed text, see search/tokenize.ts) and the
 * statistics BM25 needs. Columns: 0 body, 1 tags, 2 one-liner; each holds space-separated terms.
 */
export const FTS_COLUMN_COUNT = 3

export type IndexedFields = [body: string, tags: string, oneLiner: string]

function quote(term: string): string {
  return `"${term.replace(/"/g, '')}"`
}

/** Live memories whose index holds any of `terms`. */
export function ftsMatchAny(db: Db, terms: string[]): number[] {
  if (terms.length === 0) return []
  return db.column<number>(`SELECT docid FROM memories_fts WHERE memories_fts MATCH ?`, [terms.map(quote).join(' OR ')])
}

/** The analyzed fields of indexed memories, by seq (rowid lookups in the index's content table). */
export function indexedFields(db: Db, seqs: number[]): Map<number, IndexedFields> {
  const out = new Map<number, IndexedFields>()
  const rows = db.allIn<{d: number; b: string | null; t: string | null; o: string | null}>(
    (list) => `SELECT docid AS d, c0body AS b, c1tags AS t, c2oneliner AS o FROM memories_fts_content WHERE docid IN (${list})`,
    seqs,
  )
  for (const r of rows) out.set(r.d, [r.b ?? '', r.t ?? '', r.o ?? ''])
  return out
}

/** Every indexed memory's analyzed fields (to build an in-process index). */
export function allIndexedFields(db: Db): Array<[seq: number, ...IndexedFields]> {
  const result = db.raw.exec(`SELECT docid, c0body, c1tags, c2oneliner FROM memories_fts_content`)
  return (result[0]?.values ?? []).map((v) => [v[0] as number, (v[1] as string) ?? '', (v[2] as string) ?? '', (v[3] as string) ?? ''])
}

/** How many live memories contain each term. */
export function docFrequencies(db: Db, terms: string[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const term of terms) {
    out.set(term, db.get<{n: number}>(`SELECT documents AS n FROM memories_vocab WHERE col = '*' AND term = ?`, [term])?.n ?? 0)
  }
  return out
}

export interface IndexTotals {
  docs: number
  tokens: number[]
}

/** Live memory count and total tokens per column (kept as the index changes). */
export function indexTotals(db: Db): IndexTotals {
  const docs = db.get<{n: number}>(`SELECT coalesce(sum(n), 0) AS n FROM counts`)!.n
  const tokens = [0, 0, 0]
  for (const r of db.all<{col: number; tokens: number}>(`SELECT col, tokens FROM fts_totals`)) tokens[r.col] = r.tokens
  return {docs, tokens}
}

/** Indexed terms starting with `first` (one letter), with their document frequencies. */
export function vocabularyStartingWith(db: Db, first: string): Array<{term: string; df: number}> {
  const next = String.fromCodePoint(first.codePointAt(0)! + 1)
  return db.all<{term: string; df: number}>(
    `SELECT term, documents AS df FROM memories_vocab WHERE col = '*' AND term >= ? AND term < ?`,
    [first, next],
  )
}

/** Index changes after log position `after`: seq, and whether it is now indexed or removed. */
export function indexChangesSince(db: Db, after: number): Array<{n: number; seq: number; indexed: boolean}> {
  return db
    .all<{n: number; docid: number; indexed: number}>(`SELECT n, docid, indexed FROM fts_log WHERE n > ? ORDER BY n`, [after])
    .map((r) => ({n: r.n, seq: r.docid, indexed: r.indexed === 1}))
}

/** The newest and oldest change log positions (0 when empty). */
export function indexLogBounds(db: Db): {first: number; last: number} {
  // Two queries: SQLite answers a lone min() or max() of the rowid from the b-tree's edge.
  const last = db.get<{n: number | null}>(`SELECT max(n) AS n FROM fts_log`)!.n ?? 0
  const first = db.get<{n: number | null}>(`SELECT min(n) AS n FROM fts_log`)!.n ?? 0
  return {first, last}
}

/** Drops change log entries older than the newest `keep` (done at checkpoints). */
export function pruneIndexLog(db: Db, keep = 20_000): void {
  db.run(`DELETE FROM fts_log WHERE n <= (SELECT max(n) FROM fts_log) - ?`, [keep])
}
