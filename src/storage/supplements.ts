import type {Db} from './db.js'

/**
 * Enrichment supplements: what a language-model runtime (or the heuristic) wrote about a memory,
 * kept beside it and never in place of its content. One row per memory; a new enrichment
 * replaces the row.
 */
export interface Supplement {
  provider: string
  model: string | null
  oneLiner: string | null
  summary: string | null
  foresight: string | null
  entities: string[]
  enrichedAt: string
}

export function putSupplement(db: Db, id: string, s: Supplement): void {
  db.run(
    `INSERT OR REPLACE INTO memory_supplements (memory_id, provider, model, one_liner, summary, foresight, entities, enriched_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [id, s.provider, s.model, s.oneLiner, s.summary, s.foresight, JSON.stringify(s.entities), s.enrichedAt],
  )
}

export function deleteSupplement(db: Db, id: string): void {
  db.run(`DELETE FROM memory_supplements WHERE memory_id = ?`, [id])
}

export function getSupplement(db: Db, id: string): Supplement | undefined {
  const r = db.get<Record<string, string | null>>(`SELECT * FROM memory_supplements WHERE memory_id = ?`, [id])
  if (!r) return undefined
  return {
    provider: r.provider as string,
    model: r.model,
    oneLiner: r.one_liner,
    summary: r.summary,
    foresight: r.foresight,
    entities: JSON.parse((r.entities as string) ?? '[]') as string[],
    enrichedAt: r.enriched_at as string,
  }
}

/** Live memories after `afterSeq` with no supplement from `provider`, in seq order, at most `limit`. */
export function liveWithoutSupplementFrom(db: Db, provider: string, afterSeq: number, limit: number): Array<{seq: number; id: string}> {
  return db.all<{seq: number; id: string}>(
    `SELECT m.seq, m.id FROM memories m LEFT JOIN memory_supplements s ON s.memory_id = m.id
     WHERE m.live = 1 AND m.seq > ? AND (s.provider IS NULL OR s.provider <> ?) ORDER BY m.seq LIMIT ?`,
    [afterSeq, provider, limit],
  )
}

/** How many live memories lack a supplement from `provider`. */
export function countWithoutSupplementFrom(db: Db, provider: string): number {
  return db.get<{n: number}>(
    `SELECT count(*) AS n FROM memories m LEFT JOIN memory_supplements s ON s.memory_id = m.id
     WHERE m.live = 1 AND (s.provider IS NULL OR s.provider <> ?)`,
    [provider],
  )!.n
}
