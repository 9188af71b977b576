import {createHash} from 'node:crypto'
import type {Database} from 'sql.js'
import {MemError} from '../model/errors.js'
import type {MemoryType} from '../model/memory.js'
import type {Db} from './db.js'
import {loadSqlJs} from './sqljs.js'

/**
 * The `.mem` pack file: a plain SQLite database (any SQLite tool reads it) with two tables,
 *
 *   manifest (one row): format 'mem-pack', format_version, pack_id, name, version, source_repo,
 *                       created_at, entry_count, entries_sha256
 *   entries  (n = 1..entry_count): type, content, one_liner, tags (JSON array), importance,
 *                       source, created_at, lineage
 *
 * `entries_sha256` is the sha-256 of the entries' canonical serialization (entriesChecksum), so
 * a changed byte in any entry is detected even where SQLite itself would not notice. `lineage`
 * names the first version of the memory's chain in the exporting store: an opaque key that lets a
 * layer tell an edited memory (same lineage) from a new one. Nothing in the file is an id the
 * importer uses; the importer mints its own.
 *
 * This module is the only place that speaks SQL to a pack. Reading validates the whole file
 * (structure, sizes, format version, checksum) and returns plain values, before any caller writes.
 */

export const PACK_FORMAT = 'mem-pack'
export const PACK_FORMAT_VERSION = 1
/** The largest pack file mem reads or writes. */
export const MAX_PACK_BYTES = 64 * 1024 * 1024
/** The most entries a pack may hold. */
export const MAX_PACK_ENTRIES = 100_000

const SQLITE_MAGIC = 'SQLite format 3\0'

export interface PackManifest {
  format: string
  formatVersion: number
  packId: string
  name: string
  version: string
  sourceRepo: string
  createdAt: string
  entryCount: number
  entriesSha256: string
}

export interface PackEntry {
  type: MemoryType
  content: string
  oneLiner: string | null
  tags: string[]
  importance: number
  source: string
  createdAt: string
  lineage: string
}

/** The rows a pack is made of, read from a store: live memories with their chain's first id. */
export function liveRowsForPack(db: Db, excludeTag: string): PackEntry[] {
  const chain = new Map<string, string | null>()
  for (const r of db.all<{id: string; supersedes: string | null}>(`SELECT id, supersedes FROM memories WHERE supersedes IS NOT NULL`)) {
    chain.set(r.id, r.supersedes)
  }
  const lineage = (id: string): string => {
    let cur = id
    const seen = new Set([cur])
    for (let prev = chain.get(cur); prev && !seen.has(prev); prev = chain.get(cur)) {
      seen.add(prev)
      cur = prev
    }
    return cur
  }
  const rows = db.all<{id: string; type: MemoryType; content: string; one_liner: string | null; tags: string; importance: number; source: string; created_at: string}>(
    `SELECT id, type, content, one_liner, tags, importance, source, created_at FROM memories WHERE live = 1 ORDER BY created_at, seq`,
  )
  const out: PackEntry[] = []
  for (const r of rows) {
    const tags = JSON.parse(r.tags) as string[]
    if (tags.includes(excludeTag)) continue
    out.push({
      type: r.type,
      content: r.content,
      oneLiner: r.one_liner,
      tags,
      importance: r.importance,
      source: r.source,
      createdAt: r.created_at,
      lineage: lineage(r.id),
    })
  }
  return out
}

/** sha-256 (hex) of the entries in order: one JSON array per entry, newline-separated. */
export function entriesChecksum(entries: readonly PackEntry[]): string {
  const hash = createHash('sha256')
  for (const e of entries) {
    hash.update(JSON.stringify([e.type, e.content, e.oneLiner, e.tags, e.importance, e.source, e.createdAt, e.lineage]))
    hash.update('\n')
  }
  return hash.digest('hex')
}

/** Writes a pack file. */
export async function writePackFile(manifest: PackManifest, entries: readonly PackEntry[]): Promise<Uint8Array> {
  const SQL = await loadSqlJs()
  const db = new SQL.Database()
  try {
    db.exec(`
      PRAGMA journal_mode = MEMORY;
      CREATE TABLE manifest (
        format TEXT NOT NULL, format_version INTEGER NOT NULL, pack_id TEXT NOT NULL, name TEXT NOT NULL,
        version TEXT NOT NULL, source_repo TEXT NOT NULL, created_at TEXT NOT NULL, entry_count INTEGER NOT NULL,
        entries_sha256 TEXT NOT NULL
      );
      CREATE TABLE entries (
        n INTEGER PRIMARY KEY, type TEXT NOT NULL, content TEXT NOT NULL, one_liner TEXT, tags TEXT NOT NULL,
        importance REAL NOT NULL, source TEXT NOT NULL, created_at TEXT NOT NULL, lineage TEXT NOT NULL
      );
      BEGIN;
    `)
    db.run(`INSERT INTO manifest VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
      manifest.format,
      manifest.formatVersion,
      manifest.packId,
      manifest.name,
      manifest.version,
      manifest.sourceRepo,
      manifest.createdAt,
      manifest.entryCount,
      manifest.entriesSha256,
    ])
    const insert = db.prepare(`INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    try {
      entries.forEach((e, i) => {
        insert.run([i + 1, e.type, e.content, e.oneLiner, JSON.stringify(e.tags), e.importance, e.source, e.createdAt, e.lineage])
      })
    } finally {
      insert.free()
    }
    db.exec('COMMIT')
    return db.export()
  } finally {
    db.close()
  }
}

function refuse(message: string, hint?: string): MemError {
  return new MemError('invalid_input', message, {
    hint: hint ?? 'Nothing was imported. Export the pack again with `mem pack export` and copy it whole (binary, not as text).',
  })
}

/**
 * Reads and checks a pack file. Refuses (400, nothing read further) anything that is not a whole,
 * unmodified mem pack of a format this mem understands: a file that is not SQLite, a truncated or
 * damaged one, a SQLite file of another kind, a newer format version, a manifest whose entry count
 * or checksum does not match the entries. Values are returned raw; the caller validates each entry.
 */
export async function readPackFile(bytes: Uint8Array): Promise<{manifest: PackManifest; rows: Array<Record<string, unknown>>}> {
  if (bytes.length > MAX_PACK_BYTES) {
    throw new MemError('payload_too_large', `The pack is ${bytes.length.toLocaleString('en-US')} bytes; the limit is ${MAX_PACK_BYTES.toLocaleString('en-US')}.`, {
      hint: 'Split the memories into several packs (e.g. by repository).',
    })
  }
  if (bytes.length < 512 || Buffer.from(bytes.subarray(0, 16)).toString('latin1') !== SQLITE_MAGIC) {
    throw refuse('The file is not a mem pack: it is not a SQLite database.')
  }
  // SQLite's header states the page size and, when valid, the page count: a file of another
  // length was cut short or padded, and SQLite may read it without noticing.
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const rawPageSize = view.getUint16(16)
  const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize
  const pages = view.getUint32(28)
  const valid = view.getUint32(92) === view.getUint32(24)
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) throw refuse('The pack is damaged: its SQLite header is invalid.')
  if (!valid || pages === 0) throw refuse('The pack is damaged: its SQLite header has no valid page count.')
  if (pages * pageSize !== bytes.length) {
    throw refuse(`The pack is truncated or damaged: its header says ${(pages * pageSize).toLocaleString('en-US')} bytes, the file has ${bytes.length.toLocaleString('en-US')}.`)
  }

  const SQL = await loadSqlJs()
  let db: Database
  try {
    db = new SQL.Database(bytes)
  } catch {
    throw refuse('The pack is damaged: SQLite cannot open it.')
  }
  try {
    const query = (sql: string): Array<Record<string, unknown>> => {
      const out: Array<Record<string, unknown>> = []
      const stmt = db.prepare(sql)
      try {
        while (stmt.step()) out.push(stmt.getAsObject())
      } finally {
        stmt.free()
      }
      return out
    }
    let tables: Array<Record<string, unknown>>
    try {
      const check = query(`PRAGMA quick_check`)
      if (check.length !== 1 || check[0].quick_check !== 'ok') throw new Error('quick_check failed')
      tables = query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('manifest', 'entries')`)
    } catch {
      throw refuse('The pack is damaged: SQLite reports it corrupt.')
    }
    if (tables.length !== 2) {
      throw refuse('The file is a SQLite database but not a mem pack (no manifest and entries tables).', 'Import only files written by `mem pack export`.')
    }
    let manifestRows: Array<Record<string, unknown>>
    let rows: Array<Record<string, unknown>>
    try {
      manifestRows = query(`SELECT * FROM manifest`)
    } catch {
      throw refuse('The pack is damaged: its manifest cannot be read.')
    }
    if (manifestRows.length !== 1) throw refuse('The pack is damaged: its manifest must have exactly one row.')
    const m = manifestRows[0]
    if (m.format !== PACK_FORMAT) {
      throw refuse(`The file is not a mem pack (format ${JSON.stringify(String(m.format ?? '')).slice(0, 40)}).`, 'Import only files written by `mem pack export`.')
    }
    const formatVersion = Number(m.format_version)
    if (!Number.isInteger(formatVersion) || formatVersion < 1) throw refuse('The pack is damaged: its format version is not a positive whole number.')
    if (formatVersion > PACK_FORMAT_VERSION) {
      throw refuse(
        `The pack has format version ${formatVersion}, newer than this mem reads (${PACK_FORMAT_VERSION}).`,
        'Upgrade mem (npm install -g mem@latest), then import it again. Nothing was imported.',
      )
    }
    const text = (key: string, max: number): string => {
      const v = m[key]
      if (typeof v !== 'string' || v.length === 0 || v.length > max) throw refuse(`The pack is damaged: manifest field ${key} is missing or invalid.`)
      return v
    }
    const entryCount = Number(m.entry_count)
    if (!Number.isInteger(entryCount) || entryCount < 0 || entryCount > MAX_PACK_ENTRIES) {
      throw refuse(`The pack's entry count must be 0 to ${MAX_PACK_ENTRIES.toLocaleString('en-US')}.`)
    }
    const manifest: PackManifest = {
      format: PACK_FORMAT,
      formatVersion,
      packId: text('pack_id', 100),
      name: text('name', 200),
      version: text('version', 100),
      sourceRepo: text('source_repo', 1000),
      createdAt: text('created_at', 40),
      entryCount,
      entriesSha256: text('entries_sha256', 64),
    }
    try {
      // LIMIT: a count in the manifest is never trusted to size anything
      rows = query(`SELECT n, type, content, one_liner, tags, importance, source, created_at, lineage FROM entries ORDER BY n LIMIT ${MAX_PACK_ENTRIES + 1}`)
    } catch {
      throw refuse('The pack is damaged: its entries cannot be read.')
    }
    if (rows.length !== entryCount) {
      throw refuse(`The pack is damaged: the manifest lists ${entryCount} entries, the file holds ${rows.length}.`)
    }
    return {manifest, rows}
  } finally {
    db.close()
  }
}
