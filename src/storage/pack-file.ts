import {createHash, type Hash} from 'node:crypto'
import type {Database, SqlValue} from 'sql.js'
import {MemError} from '../model/errors.js'
import {PACKAGE_NAME} from '../model/package-name.js'
import {MAX_CONTENT_CHARS, type MemoryType} from '../model/memory.js'
import type {Db} from './db.js'
import {loadSqlJs} from './sqljs.js'
import {bytesVector, getVector, vectorBytes} from './vectors.js'

/**
 * The `.mem` pack file: a plain SQLite database (any SQLite tool reads it) with two tables,
 *
 *   manifest (one row): format 'mem-pack', format_version, pack_id, name, version, source_repo,
 *                       created_at, entry_count, entries_sha256
 *   entries  (n = 1..entry_count): type, content, one_liner, tags (JSON array), importance,
 *                       source, created_at, lineage
 *
 * and, from format version 2, an optional third table
 *
 *   vectors  (n = the entry's n): model, dims, vector (dims little-endian Float32 numbers, a BLOB):
 *                       each memory's vector from the meaning model it was embedded by, so an
 *                       importer using the same model need not embed it again (docs/meaning.md).
 *                       A pack without vectors is written as version 1, which every mem reads.
 *
 * `entries_sha256` is the sha-256 of the entries' canonical serialization (entriesChecksum), then of
 * the vectors' when there are any (packChecksum), so
 * a changed byte in any entry is detected even where SQLite itself would not notice. `lineage`
 * names the first version of the memory's chain in the exporting store: an opaque key that lets a
 * layer tell an edited memory (same lineage) from a new one. Nothing in the file is an id the
 * importer uses; the importer mints its own.
 *
 * This module is the only place that speaks SQL to a pack. Reading validates the whole file
 * (structure, sizes, format version, checksum) and returns plain values, before any caller writes.
 *
 * A pack comes from anyone (an HTTP body, a file, a team's git layer), and a SQLite file can hold
 * more than data: generated columns, views and triggers compute values when read, one stored value
 * can be 1 GB, and SQLite parses every definition of a schema before it answers anything. So the
 * reader trusts nothing in the file to be small or inert:
 *
 *   1. the file's first page, read without SQLite, must hold the schema whole, and the schema must
 *      be the two tables and no other object (no view, trigger, index, virtual or other table);
 *   2. the two tables must be the exporter's exactly: their columns as PRAGMA table_xinfo reports
 *      them (no generated or hidden one), their options, their definitions. Nothing in the file
 *      is ever run, and no row is read before this passes;
 *   3. every field, the row count and the total text are bounded in SQL, from each value's type and
 *      byte length (which SQLite knows without loading the value), before a value reaches
 *      JavaScript;
 *   4. the entries are read twice: once, one row at a time, to verify the checksum and each entry
 *      (a refused pack never has more than one row in memory), then once to keep them.
 */

export const PACK_FORMAT = 'mem-pack'
export const PACK_FORMAT_VERSION = 2
/** The version of a pack without vectors: mem before format 2 reads it. */
export const PLAIN_PACK_FORMAT_VERSION = 1
/** The widest vector a pack may hold. */
const MAX_VECTOR_DIMS = 4_096
/** The largest pack file mem reads or writes. */
export const MAX_PACK_BYTES = 64 * 1024 * 1024
/** The most entries a pack may hold. */
export const MAX_PACK_ENTRIES = 100_000
/**
 * The most text (UTF-8 bytes over every text field of every entry) a pack may hold: the bound on
 * what reading a valid pack keeps in memory (JavaScript keeps UTF-8 text in at most as many bytes).
 * A refused pack never comes near it: it is read one row at a time, and its cost is about the
 * file's own size (SQLite's in-memory copy). Measured with test/bench/hostile-packs.mjs: checking
 * a valid pack at this budget held 94–110 MB over an idle process, refusing one ~64 MB; storing
 * its memories then costs what storing that many memories costs. Export refuses a repo above it,
 * so mem never writes a pack it would not read.
 */
export const MAX_PACK_TEXT_BYTES = 48 * 1024 * 1024
/** The longest tags field: 32 tags of 64 characters, JSON-escaped (a control character is 6). */
const MAX_TAGS_JSON_CHARS = 16_000

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
  return liveRowsAndVectorsForPack(db, excludeTag).entries
}

/** The rows a pack is made of, and each one's meaning vector when it has one (by entry index). */
export function liveRowsAndVectorsForPack(db: Db, excludeTag: string): {entries: PackEntry[]; vectors: Map<number, PackVector>} {
  const ids: string[] = []
  const entries = packRows(db, excludeTag, ids)
  const vectors = new Map<number, PackVector>()
  ids.forEach((id, i) => {
    const v = getVector(db, id)
    if (v && v.vector.length === v.dims) vectors.set(i, {model: v.model, dims: v.dims, vector: v.vector})
  })
  return {entries, vectors}
}

function packRows(db: Db, excludeTag: string, ids: string[]): PackEntry[] {
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
    ids.push(r.id)
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

/** A memory's vector in a pack: the meaning model's id, its size, and the numbers (unit length). */
export interface PackVector {
  model: string
  dims: number
  vector: Float32Array
}

/** sha-256 (hex) of the entries in order: one JSON array per entry, newline-separated. */
export function entriesChecksum(entries: readonly PackEntry[]): string {
  return packChecksum(entries, new Map())
}

/**
 * sha-256 (hex) of the entries, then of the vectors by entry (index from 0) when there are any: a
 * pack without vectors has the checksum it always had.
 */
export function packChecksum(entries: readonly PackEntry[], vectors: ReadonlyMap<number, PackVector>): string {
  const hash = createHash('sha256')
  for (const e of entries) hashEntry(hash, e)
  hashVectors(hash, vectors)
  return hash.digest('hex')
}

function hashVectors(hash: Hash, vectors: ReadonlyMap<number, PackVector>): void {
  if (vectors.size === 0) return
  hash.update('vectors\n')
  for (const i of [...vectors.keys()].sort((a, b) => a - b)) {
    const v = vectors.get(i)!
    hash.update(JSON.stringify([i + 1, v.model, v.dims, Buffer.from(vectorBytes(v.vector)).toString('base64')]))
    hash.update('\n')
  }
}

function hashEntry(hash: Hash, e: PackEntry): void {
  hash.update(JSON.stringify([e.type, e.content, e.oneLiner, e.tags, e.importance, e.source, e.createdAt, e.lineage]))
  hash.update('\n')
}

/** The UTF-8 bytes of text the entries hold (what MAX_PACK_TEXT_BYTES bounds). */
export function entriesTextBytes(entries: readonly PackEntry[]): number {
  let bytes = 0
  for (const e of entries) {
    bytes += Buffer.byteLength(e.type) + Buffer.byteLength(e.content) + (e.oneLiner === null ? 0 : Buffer.byteLength(e.oneLiner))
    bytes += Buffer.byteLength(JSON.stringify(e.tags)) + Buffer.byteLength(e.source) + Buffer.byteLength(e.createdAt) + Buffer.byteLength(e.lineage)
  }
  return bytes
}

/** A column of a pack table: its declaration as the exporter writes it, and what its values may be. */
interface Column {
  name: string
  type: 'TEXT' | 'INTEGER' | 'REAL' | 'BLOB'
  notNull: boolean
  pk?: true
  /** The storage classes (SQLite typeof) a value may have. */
  values: readonly string[]
  /** The longest text, in characters. */
  max?: number
}

const text = (name: string, max: number, notNull = true): Column => ({name, type: 'TEXT', notNull, values: notNull ? ['text'] : ['text', 'null'], max})

const MANIFEST_COLUMNS: readonly Column[] = [
  text('format', 100),
  {name: 'format_version', type: 'INTEGER', notNull: true, values: ['integer']},
  text('pack_id', 100),
  text('name', 200),
  text('version', 100),
  text('source_repo', 1_000),
  text('created_at', 40),
  {name: 'entry_count', type: 'INTEGER', notNull: true, values: ['integer']},
  text('entries_sha256', 64),
]

const ENTRY_COLUMNS: readonly Column[] = [
  {name: 'n', type: 'INTEGER', notNull: false, pk: true, values: ['integer']},
  text('type', 20),
  text('content', MAX_CONTENT_CHARS),
  text('one_liner', 1_000, false),
  text('tags', MAX_TAGS_JSON_CHARS),
  {name: 'importance', type: 'REAL', notNull: true, values: ['real', 'integer']},
  text('source', 200),
  text('created_at', 40),
  text('lineage', 300),
]

// The exporter's definitions, kept as written by every mem so far; a pack's must equal them (whitespace aside).
const MANIFEST_DDL = `CREATE TABLE manifest (
        format TEXT NOT NULL, format_version INTEGER NOT NULL, pack_id TEXT NOT NULL, name TEXT NOT NULL,
        version TEXT NOT NULL, source_repo TEXT NOT NULL, created_at TEXT NOT NULL, entry_count INTEGER NOT NULL,
        entries_sha256 TEXT NOT NULL
      )`
const ENTRIES_DDL = `CREATE TABLE entries (
        n INTEGER PRIMARY KEY, type TEXT NOT NULL, content TEXT NOT NULL, one_liner TEXT, tags TEXT NOT NULL,
        importance REAL NOT NULL, source TEXT NOT NULL, created_at TEXT NOT NULL, lineage TEXT NOT NULL
      )`
const VECTOR_COLUMNS: readonly Column[] = [
  {name: 'n', type: 'INTEGER', notNull: false, pk: true, values: ['integer']},
  text('model', 200),
  {name: 'dims', type: 'INTEGER', notNull: true, values: ['integer']},
  {name: 'vector', type: 'BLOB', notNull: true, values: ['blob']},
]
const VECTORS_DDL = `CREATE TABLE vectors (
        n INTEGER PRIMARY KEY, model TEXT NOT NULL, dims INTEGER NOT NULL, vector BLOB NOT NULL
      )`
const TABLES = [
  {name: 'manifest', ddl: MANIFEST_DDL, columns: MANIFEST_COLUMNS},
  {name: 'entries', ddl: ENTRIES_DDL, columns: ENTRY_COLUMNS},
] as const
const VECTORS_TABLE = {name: 'vectors', ddl: VECTORS_DDL, columns: VECTOR_COLUMNS} as const

/** Writes a pack file; `vectors` (by entry index from 0) go into the vectors table (format version 2). */
export async function writePackFile(manifest: PackManifest, entries: readonly PackEntry[], vectors: ReadonlyMap<number, PackVector> = new Map()): Promise<Uint8Array> {
  const SQL = await loadSqlJs()
  const db = new SQL.Database()
  try {
    db.exec(`
      PRAGMA journal_mode = MEMORY;
      ${MANIFEST_DDL};
      ${ENTRIES_DDL};
      ${vectors.size > 0 ? `${VECTORS_DDL};` : ''}
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
    if (vectors.size > 0) {
      const put = db.prepare(`INSERT INTO vectors VALUES (?, ?, ?, ?)`)
      try {
        for (const [i, v] of vectors) put.run([i + 1, v.model, v.dims, vectorBytes(v.vector)])
      } finally {
        put.free()
      }
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

/** A file that is SQLite, and maybe meant as a pack, but not laid out as the exporter writes one. */
function foreign(what: string): MemError {
  return refuse(`The file is not a mem pack as mem writes it: ${what}.`, 'Nothing was imported. A pack is the two plain tables `mem pack export` writes and nothing else (mem never runs anything a pack holds); import only files it wrote.')
}

type Row = Record<string, SqlValue>

/** A definition's shape: SQLite keeps a CREATE statement as it was written, whitespace and all. */
function shape(sql: string): string {
  return sql.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').trim()
}

const quote = (name: SqlValue | undefined): string => JSON.stringify(String(name).slice(0, 80))
const an = (word: string): string => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`
const count = (n: number): string => n.toLocaleString('en-US')

/**
 * Reads and checks a pack file. Refuses (400, nothing read further) anything that is not a whole,
 * unmodified mem pack of a format this mem understands: a file that is not SQLite, a truncated or
 * damaged one, a SQLite file of another kind or of another layout (an extra object or column, a
 * generated column, a view, a trigger, a virtual table, another definition), a newer format
 * version, a value of the wrong type or length, a manifest whose entry count or checksum does not
 * match the entries. `accept` checks and converts one entry (throwing its refusal); it sees every
 * entry twice, the first time before the checksum is known to match.
 */
export async function readPackFile<T>(bytes: Uint8Array, accept: (entry: PackEntry, index: number) => T): Promise<{manifest: PackManifest; entries: T[]; vectors: Map<number, PackVector>}> {
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
  const encoding = ['UTF-8', 'UTF-16le', 'UTF-16be'][view.getUint32(56) - 1]
  if (encoding !== 'UTF-8') throw foreign(`its text is stored as ${encoding ?? 'an unknown encoding'}; packs are UTF-8`)
  const objects = schemaObjects(bytes, pageSize)
  if (!objects) throw foreign('its schema is not a pack\'s (the two table definitions of a pack fit the first page of the file; these do not)')
  checkSchemaObjects(objects)
  const hasVectors = objects.some((o) => o.type === 'table' && o.name === 'vectors')

  const SQL = await loadSqlJs()
  let db: Database
  try {
    db = new SQL.Database(bytes)
  } catch {
    throw refuse('The pack is damaged: SQLite cannot open it.')
  }
  try {
    const all = (sql: string, params: SqlValue[] = []): Row[] => {
      const out: Row[] = []
      const stmt = db.prepare(sql, params)
      try {
        while (stmt.step()) out.push(stmt.getAsObject())
      } finally {
        stmt.free()
      }
      return out
    }
    /** Runs one step of the check; a SQLite error in it (not one of the refusals) means `damaged`. */
    const step = <R>(damaged: string, run: () => R): R => {
      try {
        return run()
      } catch (err) {
        if (err instanceof MemError) throw err
        throw refuse(`The pack is damaged: ${damaged}.`)
      }
    }
    // Nothing in the file may run: no schema function outside the innocuous ones, no write at all.
    step('SQLite cannot read it', () => db.exec('PRAGMA trusted_schema = OFF; PRAGMA query_only = ON'))
    step('SQLite cannot read its schema', () => checkTables(all, hasVectors ? [...TABLES, VECTORS_TABLE] : TABLES))
    step('SQLite reports it corrupt', () => {
      const check = all(`PRAGMA quick_check`)
      if (check.length !== 1 || check[0].quick_check !== 'ok') throw new Error('quick_check failed')
    })
    const manifest = step('its manifest cannot be read', () => readManifest(all))
    step('its entries cannot be read', () => checkEntries(all, manifest))
    if (hasVectors && manifest.formatVersion < 2) throw refuse('The pack is damaged: it holds a vectors table, which packs of format version 1 do not have.')
    const vectors = hasVectors ? step('its vectors cannot be read', () => readVectors(all, manifest)) : new Map<number, PackVector>()

    const each = (visit: (entry: PackEntry, index: number) => void): void => {
      const stmt = db.prepare(`SELECT ${ENTRY_COLUMNS.map((c) => c.name).join(', ')} FROM entries ORDER BY n LIMIT ${manifest.entryCount}`)
      try {
        for (let i = 0; stmt.step(); i++) visit(entryOf(stmt.get()), i)
      } finally {
        stmt.free()
      }
    }
    // First pass, one row at a time: the checksum, and each entry. A changed pack is reported as
    // changed even where the change also broke an entry.
    let invalid: unknown
    const hash = createHash('sha256')
    step('its entries cannot be read', () =>
      each((entry, i) => {
        hashEntry(hash, entry)
        if (invalid !== undefined) return
        try {
          accept(entry, i)
        } catch (err) {
          invalid = err
        }
      }),
    )
    hashVectors(hash, vectors)
    if (hash.digest('hex') !== manifest.entriesSha256) {
      throw refuse('The pack is damaged: its entries do not match the manifest checksum (changed or corrupted after export).')
    }
    if (invalid !== undefined) throw invalid
    const entries: T[] = []
    step('its entries cannot be read', () => each((entry, i) => entries.push(accept(entry, i))))
    return {manifest, entries, vectors}
  } finally {
    db.close()
  }
}

interface SchemaObject {
  type: string
  name: string
  sql: string | null
}

/**
 * The schema's objects (the rows of sqlite_schema: type, name, sql), read from the file's first
 * page without SQLite; undefined unless the schema is one leaf page whose rows all fit in it, as
 * the exporter's two short definitions do. SQLite parses every definition, and loads the rows of
 * sqlite_stat1, when it first reads a file: 60 MB of views took it a minute, so nothing a schema
 * holds reaches SQLite before the schema is known to be a pack's.
 */
function schemaObjects(bytes: Uint8Array, pageSize: number): SchemaObject[] | undefined {
  const usable = pageSize - bytes[20] // bytes reserved at the end of each page
  const LEAF_TABLE_PAGE = 0x0d
  if (bytes[100] !== LEAF_TABLE_PAGE) return undefined // an interior page: the schema spans several
  const cells = (bytes[103] << 8) | bytes[104]
  const pointersEnd = 108 + 2 * cells // the cell pointer array follows the 8-byte page header
  if (pointersEnd > usable) return undefined
  const objects: SchemaObject[] = []
  for (let i = 0; i < cells; i++) {
    let at = (bytes[108 + 2 * i] << 8) | bytes[109 + 2 * i]
    if (at < pointersEnd) return undefined
    // SQLite's varints: 7 bits a byte, high bit set while more follow; nothing in one page needs more than 3 bytes
    const varint = (): number | undefined => {
      let value = 0
      for (let n = 0; n < 4 && at < usable; n++) {
        const byte = bytes[at++]
        value = value * 128 + (byte & 0x7f)
        if (byte < 0x80) return value
      }
      return undefined
    }
    const size = varint()
    if (size === undefined || size > usable - 35) return undefined // the row spills into overflow pages
    if (varint() === undefined) return undefined // the rowid
    const start = at
    const end = start + size
    const headerSize = varint()
    if (end > usable || headerSize === undefined || start + headerSize > end) return undefined
    const serialTypes: number[] = []
    while (at < start + headerSize) {
      const type = varint()
      if (type === undefined) return undefined
      serialTypes.push(type)
    }
    at = start + headerSize
    const values: Array<string | null> = []
    for (const type of serialTypes) {
      // 0 NULL, 1-6 integers of 1, 2, 3, 4, 6, 8 bytes, 7 a float, 8-9 the constants 0 and 1,
      // 10-11 reserved, then blobs (even) and texts (odd) of (type - 12) / 2 bytes
      const length = type >= 12 ? (type - 12) >> 1 : [0, 1, 2, 3, 4, 6, 8, 8, 0, 0][type]
      if (length === undefined || at + length > end) return undefined
      values.push(type >= 13 && type % 2 === 1 ? Buffer.from(bytes.subarray(at, at + length)).toString('utf8') : null)
      at += length
    }
    if (values.length !== 5) return undefined
    objects.push({type: values[0] ?? '', name: values[1] ?? '', sql: values[4]})
  }
  return objects
}

/**
 * The schema holds the tables manifest and entries and no other object: no view, trigger, index,
 * virtual table or other table. Names the worst stray first: a virtual table (its rows come from
 * code), then anything that runs or computes, then a table.
 */
function checkSchemaObjects(objects: SchemaObject[]): void {
  const required = (o: SchemaObject) => o.type === 'table' && (o.name === 'manifest' || o.name === 'entries')
  const ours = (o: SchemaObject) => required(o) || (o.type === 'table' && o.name === 'vectors')
  if (objects.filter(required).length !== 2) {
    throw refuse('The file is a SQLite database but not a mem pack (no manifest and entries tables).', 'Import only files written by `mem pack export`.')
  }
  const virtual = objects.find((o) => o.type === 'table' && /^\s*CREATE\s+VIRTUAL\s+TABLE\b/i.test(o.sql ?? ''))
  if (virtual) {
    const module = /\bUSING\s+(\w+)/i.exec(virtual.sql ?? '')?.[1]
    throw foreign(`${quote(virtual.name)} is a virtual table${module ? ` (USING ${module})` : ''}, whose rows come from code rather than from the file`)
  }
  const strays = objects.filter((o) => !ours(o)).sort((a, b) => Number(a.type === 'table') - Number(b.type === 'table'))
  if (strays.length > 0) {
    const [stray] = strays
    const more = strays.length - 1
    throw foreign(`it holds ${an(stray.type)} ${quote(stray.name)}${more > 0 ? ` and ${count(more)} more schema ${more === 1 ? 'object' : 'objects'}` : ''}; a pack holds the tables manifest and entries and nothing else`)
  }
}

/**
 * The two tables must be the exporter's, exactly: their columns as written (no hidden or generated
 * one: PRAGMA table_xinfo), their options and their definitions. Reads the schema only: until this
 * passes, no row of the file is read (quick_check would evaluate a generated NOT NULL column).
 */
function checkTables(all: (sql: string, params?: SqlValue[]) => Row[], tables: ReadonlyArray<{name: string; ddl: string; columns: readonly Column[]}>): void {
  for (const table of tables) {
    const [listed] = all(`SELECT wr, strict FROM pragma_table_list WHERE schema = 'main' AND name = ?`, [table.name])
    if (listed?.wr) throw foreign(`table ${table.name} is declared WITHOUT ROWID`)
    if (listed?.strict) throw foreign(`table ${table.name} is declared STRICT`)
    const columns = all(`PRAGMA table_xinfo(${table.name})`)
    // hidden 2 and 3: generated columns (VIRTUAL, STORED); 1: a virtual table's hidden column
    const computed = columns.find((c) => c.hidden !== 0)
    if (computed) {
      throw foreign(
        computed.hidden === 1
          ? `column ${quote(computed.name)} of table ${table.name} is hidden`
          : `column ${quote(computed.name)} of table ${table.name} is generated (GENERATED ALWAYS AS …), computed by SQLite whenever it is read; a pack stores plain values`,
      )
    }
    const names = columns.map((c) => String(c.name))
    const extra = names.find((name) => !table.columns.some((c) => c.name === name))
    if (extra !== undefined) {
      throw foreign(`table ${table.name} has a column ${quote(extra)} that packs do not have (its columns are ${table.columns.map((c) => c.name).join(', ')})`)
    }
    const missing = table.columns.find((c) => !names.includes(c.name))
    if (missing) throw foreign(`table ${table.name} has no column ${missing.name}`)
    table.columns.forEach((want, i) => {
      const got = columns[i]
      if (got.name !== want.name) throw foreign(`the columns of table ${table.name} are not in the order mem writes them (${table.columns.map((c) => c.name).join(', ')})`)
      const declared = `${String(got.type)}${got.notnull ? ' NOT NULL' : ''}${got.pk ? ' PRIMARY KEY' : ''}`.trim() || 'without a type'
      const expected = `${want.type}${want.notNull ? ' NOT NULL' : ''}${want.pk ? ' PRIMARY KEY' : ''}`
      if (declared !== expected) throw foreign(`column ${want.name} of table ${table.name} is declared ${declared}; mem writes ${expected}`)
    })
    // what table_xinfo does not show: defaults, CHECK, COLLATE, AUTOINCREMENT, WITHOUT ROWID, STRICT
    const [{sql}] = all(`SELECT CASE WHEN length(sql) <= 4000 THEN sql END AS sql FROM sqlite_schema WHERE type = 'table' AND name = ?`, [table.name])
    if (typeof sql !== 'string' || shape(sql) !== shape(table.ddl)) {
      throw foreign(`the definition of table ${table.name} differs from the one mem writes (it adds a default, constraint, collation or table option)`)
    }
  }
}

/** What is wrong with a value: the storage class it has instead of the column's, or its length. */
interface BadValue {
  at: number
  column: Column
  /** e.g. `a blob, not text`, `16,001 characters; at most 16,000` */
  why: string
  wrongType: boolean
}

/**
 * The first row of `table` (by rowid) holding a value of a storage class the column does not take,
 * or longer than its limit; undefined when every value fits. Types and byte lengths come from the
 * record header, so a value too long is refused without being loaded; length() then reads at most
 * 4 bytes a character.
 */
function firstBadValue(all: (sql: string, params?: SqlValue[]) => Row[], table: string, columns: readonly Column[]): BadValue | undefined {
  const tests = columns.map((c, i) => {
    const type = `WHEN typeof(${c.name}) NOT IN (${c.values.map((v) => `'${v}'`).join(', ')}) THEN ${i}`
    return c.max === undefined ? type : `${type} WHEN octet_length(${c.name}) > ${4 * c.max} THEN ${i} WHEN length(${c.name}) > ${c.max} THEN ${i}`
  })
  const [found] = all(`SELECT at, bad FROM (SELECT rowid AS at, CASE ${tests.join(' ')} END AS bad FROM ${table}) WHERE bad IS NOT NULL ORDER BY at LIMIT 1`)
  if (!found) return undefined
  const column = columns[Number(found.bad)]
  const max = column.max ?? 0
  const [value] = all(
    `SELECT typeof(${column.name}) AS type, octet_length(${column.name}) AS bytes, CASE WHEN octet_length(${column.name}) <= ${4 * max} THEN length(${column.name}) END AS chars FROM ${table} WHERE rowid = ?`,
    [found.at],
  )
  const at = Number(found.at)
  if (!column.values.includes(String(value.type))) {
    const expected = column.values.filter((v) => v !== 'null').map((v) => (v === 'real' ? 'a number' : v === 'integer' ? 'a whole number' : 'text'))
    return {at, column, wrongType: true, why: `${an(String(value.type))}, not ${expected.join(' or ')}`}
  }
  const why = value.chars === null ? `${count(Number(value.bytes))} bytes long; at most ${count(max)} characters` : `${count(Number(value.chars))} characters long; at most ${count(max)}`
  return {at, column, wrongType: false, why}
}

function readManifest(all: (sql: string, params?: SqlValue[]) => Row[]): PackManifest {
  const [{rows}] = all(`SELECT count(*) AS rows FROM manifest`)
  if (rows !== 1) throw refuse('The pack is damaged: its manifest must have exactly one row.')
  const bad = firstBadValue(all, 'manifest', MANIFEST_COLUMNS)
  if (bad) throw refuse(`The pack is damaged: manifest field ${bad.column.name} is ${bad.why}.`)
  const [m] = all(`SELECT ${MANIFEST_COLUMNS.map((c) => c.name).join(', ')} FROM manifest`)
  if (m.format !== PACK_FORMAT) {
    throw refuse(`The file is not a mem pack (format ${JSON.stringify(String(m.format ?? '')).slice(0, 40)}).`, 'Import only files written by `mem pack export`.')
  }
  const formatVersion = Number(m.format_version)
  if (!Number.isInteger(formatVersion) || formatVersion < 1) throw refuse('The pack is damaged: its format version is not a positive whole number.')
  if (formatVersion > PACK_FORMAT_VERSION) {
    throw refuse(
      `The pack has format version ${formatVersion}, newer than this mem reads (${PACK_FORMAT_VERSION}).`,
      `Upgrade mem (npm install -g ${PACKAGE_NAME}@latest), then import it again. Nothing was imported.`,
    )
  }
  const text = (key: string): string => {
    const v = m[key]
    if (typeof v !== 'string' || v.length === 0) throw refuse(`The pack is damaged: manifest field ${key} is missing or invalid.`)
    return v
  }
  const entryCount = Number(m.entry_count)
  if (!Number.isInteger(entryCount) || entryCount < 0 || entryCount > MAX_PACK_ENTRIES) {
    throw refuse(`The pack's entry count must be 0 to ${MAX_PACK_ENTRIES.toLocaleString('en-US')}.`)
  }
  return {
    format: PACK_FORMAT,
    formatVersion,
    packId: text('pack_id'),
    name: text('name'),
    version: text('version'),
    sourceRepo: text('source_repo'),
    createdAt: text('created_at'),
    entryCount,
    entriesSha256: text('entries_sha256'),
  }
}

/** Bounds the entries in SQL: their number, each value's type and length, then their total text. */
function checkEntries(all: (sql: string, params?: SqlValue[]) => Row[], manifest: PackManifest): void {
  const [{rows}] = all(`SELECT count(*) AS rows FROM entries`)
  if (rows !== manifest.entryCount) {
    throw refuse(`The pack is damaged: the manifest lists ${manifest.entryCount} entries, the file holds ${Number(rows).toLocaleString('en-US')}.`)
  }
  const bad = firstBadValue(all, 'entries', ENTRY_COLUMNS)
  if (bad) throw refuse(`The pack is damaged: entry ${bad.at} has ${an(bad.column.name)} ${bad.wrongType ? `that is ${bad.why}` : bad.why}.`)
  const textColumns = ENTRY_COLUMNS.filter((c) => c.type === 'TEXT')
  const [{bytes}] = all(`SELECT ${textColumns.map((c) => `total(octet_length(${c.name}))`).join(' + ')} AS bytes FROM entries`)
  if (Number(bytes) > MAX_PACK_TEXT_BYTES) {
    throw new MemError('payload_too_large', `The pack holds ${count(Number(bytes))} bytes of text; mem reads at most ${count(MAX_PACK_TEXT_BYTES)} from one pack.`, {
      hint: 'Nothing was imported. Split the memories into several packs.',
    })
  }
}

/**
 * The vectors table, bounded in SQL before any value is read (each row's types, an entry it belongs
 * to, a size from 1 to MAX_VECTOR_DIMS and a blob of exactly that many numbers), then read: every
 * number finite. By entry index (from 0).
 */
function readVectors(all: (sql: string, params?: SqlValue[]) => Row[], manifest: PackManifest): Map<number, PackVector> {
  const bad = firstBadValue(all, 'vectors', VECTOR_COLUMNS)
  if (bad) throw refuse(`The pack is damaged: vector ${bad.at} has ${an(bad.column.name)} ${bad.wrongType ? `that is ${bad.why}` : bad.why}.`)
  const [wrong] = all(
    `SELECT n FROM vectors WHERE n < 1 OR n > ? OR dims < 1 OR dims > ? OR octet_length(vector) != dims * 4 ORDER BY n LIMIT 1`,
    [manifest.entryCount, MAX_VECTOR_DIMS],
  )
  if (wrong) throw refuse(`The pack is damaged: vector ${wrong.n} does not belong to an entry, or its size is not 1 to ${count(MAX_VECTOR_DIMS)} numbers as stored.`)
  const out = new Map<number, PackVector>()
  for (const r of all(`SELECT n, model, dims, vector FROM vectors ORDER BY n`)) {
    const vector = bytesVector(r.vector as Uint8Array)
    if (!vector.every(Number.isFinite)) throw refuse(`The pack is damaged: vector ${r.n} holds a number that is not finite.`)
    out.set(Number(r.n) - 1, {model: r.model as string, dims: Number(r.dims), vector})
  }
  return out
}

/** One entries row (the columns of ENTRY_COLUMNS, types already checked in SQL) as an entry. */
function entryOf(row: SqlValue[]): PackEntry {
  let tags: unknown
  try {
    tags = JSON.parse(row[4] as string)
  } catch {
    throw refuse(`The pack is damaged: entry ${row[0]} has tags that are not a JSON array.`)
  }
  return {
    type: row[1] as MemoryType,
    content: row[2] as string,
    oneLiner: row[3] as string | null,
    tags: tags as string[],
    importance: row[5] as number,
    source: row[6] as string,
    createdAt: row[7] as string,
    lineage: row[8] as string,
  }
}
