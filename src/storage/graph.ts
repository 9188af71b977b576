import type {MemoryType} from '../model/memory.js'
import type {Db} from './db.js'

/** What the graph and the markdown export read of a memory. */
export interface GraphRow {
  id: string
  type: MemoryType
  content: string
  oneLiner: string | null
  importance: number
  tags: string[]
  source: string
  createdAt: string
  supersedes: string | null
  derivedFrom: string[]
  /** Links to other memories (`mem links attach`). */
  links: Array<{targetId: string; relation: string}>
  live: boolean
}

const COLUMNS = `id, type, content, one_liner, importance, tags, source, created_at, supersedes, derived_from, links, live`

function toRow(r: Record<string, unknown>): GraphRow {
  return {
    id: r.id as string,
    type: r.type as MemoryType,
    content: r.content as string,
    oneLiner: (r.one_liner as string | null) ?? null,
    importance: r.importance as number,
    tags: JSON.parse(r.tags as string) as string[],
    source: r.source as string,
    createdAt: r.created_at as string,
    supersedes: (r.supersedes as string | null) ?? null,
    derivedFrom: JSON.parse(r.derived_from as string) as string[],
    links: JSON.parse((r.links as string | null) ?? '[]') as Array<{targetId: string; relation: string}>,
    live: r.live === 1,
  }
}

/** The top `limit` live memories by importance, then newest first (then id, for a stable order). */
export function topLiveByImportance(db: Db, limit: number): GraphRow[] {
  return db.all(`SELECT ${COLUMNS} FROM memories WHERE live = 1 ORDER BY importance DESC, created_at DESC, id LIMIT ?`, [limit]).map(toRow)
}

/** Memories by id, live or not (missing ones are left out). */
export function graphRowsById(db: Db, ids: string[]): GraphRow[] {
  return db.allIn((list) => `SELECT ${COLUMNS} FROM memories WHERE id IN (${list})`, ids).map(toRow)
}

/** Every live memory in a stable order for export: by type, then creation time, then id. */
export function liveForExport(db: Db): GraphRow[] {
  return db.all(`SELECT ${COLUMNS} FROM memories WHERE live = 1 ORDER BY type, created_at, id`).map(toRow)
}
