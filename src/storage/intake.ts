import type {MemoryType} from '../model/memory.js'
import type {Db} from './db.js'

/** A memory written by intake, or a later version of one (edits keep the source). */
export interface IntakeRow {
  id: string
  type: MemoryType
  content: string
  source: string
  supersedes: string | null
  supersededBy: string | null
  forgottenAt: string | null
  forgetReason: string | null
  /** The seed's place (`extra.intake`): set on memories intake wrote, absent on a person's edits. */
  seed: {path: string; key: string} | null
}

/**
 * Every memory whose source is `intake:…`, live or not, in write order. Intake reads them once
 * per run to match a file's new seeds against the ones it wrote before.
 */
export function intakeRows(db: Db): IntakeRow[] {
  return db
    .all<{id: string; type: MemoryType; content: string; source: string; supersedes: string | null; superseded_by: string | null; forgotten_at: string | null; forget_reason: string | null; extra: string}>(
      `SELECT id, type, content, source, supersedes, superseded_by, forgotten_at, forget_reason, extra
       FROM memories WHERE source >= 'intake:' AND source < 'intake;' ORDER BY seq`,
    )
    .map((r) => {
      const extra = JSON.parse(r.extra) as {intake?: {path?: unknown; key?: unknown}}
      const seed = extra.intake && typeof extra.intake.path === 'string' && typeof extra.intake.key === 'string' ? {path: extra.intake.path, key: extra.intake.key} : null
      return {
        id: r.id,
        type: r.type,
        content: r.content,
        source: r.source,
        supersedes: r.supersedes,
        supersededBy: r.superseded_by,
        forgottenAt: r.forgotten_at,
        forgetReason: r.forget_reason,
        seed,
      }
    })
}

/** Live state of a memory: whether it is live, and who superseded it. */
export function liveState(db: Db, id: string): {live: boolean; supersededBy: string | null; forgottenAt: string | null} | undefined {
  const row = db.get<{live: number; superseded_by: string | null; forgotten_at: string | null}>(`SELECT live, superseded_by, forgotten_at FROM memories WHERE id = ?`, [id])
  return row ? {live: row.live === 1, supersededBy: row.superseded_by, forgottenAt: row.forgotten_at} : undefined
}
