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

/**
 * Term statistics for BM25 from the index itself (no text is read back): every live memory whose
 * index holds a `candidate` term, with the frequency of each of `terms` in each of its columns
 * (`tf`, term-major, terms × columns per memory) and each column's length in terms (`len`).
 * Frequencies come from FTS4's matchinfo('y'); lengths from matchinfo('l'), which costs a lookup
 * per row. When the candidate terms are rare next to the others (`df`, documents per term, tells),
 * lengths are asked in a second query of the candidate terms alone; otherwise of every row at once.
 */
export function ftsTermStats(db: Db, terms: string[], candidate: readonly boolean[], df?: readonly number[]): {seqs: number[]; tf: Uint32Array; len: Uint32Array} {
  const width = terms.length * FTS_COLUMN_COUNT
  const candidates = terms.filter((_, i) => candidate[i])
  if (candidates.length === 0) return {seqs: [], tf: new Uint32Array(0), len: new Uint32Array(0)}
  const words = (ts: string[]) => ts.map(quote).join(' OR ')
  const ints = (blob: Uint8Array) => new Uint32Array(blob.buffer, blob.byteOffset, blob.byteLength >> 2)
  let all = candidates.length === terms.length
  if (!all && df) {
    // a second MATCH costs about three row lookups per candidate row: worth it only for few rows
    let candidateDocs = 0
    let allDocs = 0
    for (let i = 0; i < terms.length; i++) {
      allDocs += df[i] ?? 0
      if (candidate[i]) candidateDocs += df[i] ?? 0
    }
    all = candidateDocs * 4 >= allDocs
  }
  const rows = db.all<{d: number; m: Uint8Array}>(`SELECT docid AS d, matchinfo(memories_fts, '${all ? 'yl' : 'y'}') AS m FROM memories_fts WHERE memories_fts MATCH ?`, [words(terms)])
  const seqs: number[] = []
  const tf = new Uint32Array(rows.length * width)
  const len = new Uint32Array(rows.length * FTS_COLUMN_COUNT)
  const at = new Map<number, number>()
  for (const r of rows) {
    const values = ints(r.m)
    let hit = false
    for (let t = 0; t < terms.length && !hit; t++) {
      if (!candidate[t]) continue
      for (let f = 0; f < FTS_COLUMN_COUNT; f++) if (values[t * FTS_COLUMN_COUNT + f] !== 0) hit = true
    }
    if (!hit) continue // only common terms: not a candidate
    const n = seqs.length
    tf.set(values.subarray(0, width), n * width)
    if (all) len.set(values.subarray(width, width + FTS_COLUMN_COUNT), n * FTS_COLUMN_COUNT)
    else at.set(r.d, n)
    seqs.push(r.d)
  }
  if (!all && seqs.length > 0) {
    for (const r of db.all<{d: number; m: Uint8Array}>(`SELECT docid AS d, matchinfo(memories_fts, 'l') AS m FROM memories_fts WHERE memories_fts MATCH ?`, [words(candidates)])) {
      const n = at.get(r.d)
      if (n !== undefined) len.set(ints(r.m).subarray(0, FTS_COLUMN_COUNT), n * FTS_COLUMN_COUNT)
    }
  }
  return {seqs, tf: tf.subarray(0, seqs.length * width), len: len.subarray(0, seqs.length * FTS_COLUMN_COUNT)}
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

/**
 * Index segments (b-trees FTS4 keeps per batch of writes, merged 16 at a time) above which a
 * checkpoint merges the index into one. Every term lookup reads every segment: on a 10k-memory
 * store written in ~45 batches, one-segment lookups are 3–5× faster (a cold `mem recall` reads the
 * snapshot as the last checkpoint left it).
 */
export const MAX_INDEX_SEGMENTS = 8

/** Merges the full-text index into one segment when it has more than MAX_INDEX_SEGMENTS; true if it did. */
export function compactIndex(db: Db): boolean {
  const segments = db.get<{n: number}>(`SELECT count(*) AS n FROM memories_fts_segdir`)!.n
  if (segments <= MAX_INDEX_SEGMENTS) return false
  db.run(`INSERT INTO memories_fts(memories_fts) VALUES ('optimize')`)
  return true
}

/** Drops change log entries older than the newest `keep` (done at checkpoints). */
export function pruneIndexLog(db: Db, keep = 20_000): void {
  db.run(`DELETE FROM fts_log WHERE n <= (SELECT max(n) FROM fts_log) - ?`, [keep])
}
