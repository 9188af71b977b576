import {nodeCrypto} from '../model/lazy-require.js'
import type {SqlValue} from 'sql.js'
import {FOREIGN_ORIGIN, hasRelation, OWN_ORIGIN, UPDATED_BY, UPDATES, type Memory, type MemoryLink, type MemoryType} from '../model/memory.js'
import {indexText, normalizeForDuplicate} from '../text/tokenize.js'
import {storedKeys, valueKeysOf} from '../text/minhash.js'
import type {Db, Row} from './db.js'
import {CONTEXT_RANK_SQL} from './schema.js'
import {deleteLayer, putLayer, type LayerRecord} from './layers.js'
import {deleteSupplement, putSupplement, type Supplement} from './supplements.js'
import {applyUsage, type UsageDelta} from './usage.js'
import {deleteVector, putVector} from './vectors.js'

/**
 * The memories repository: every SQL statement about memories, and the journal's mutations.
 * A mutation (Op) is applied the same way when it is first written and when another process
 * replays it from the journal, so apply() must be deterministic given the ops alone.
 */

export type MemoryPatch = Partial<
  Pick<
    Memory,
    | 'oneLiner'
    | 'summary'
    | 'tags'
    | 'importance'
    | 'supersedes'
    | 'supersededBy'
    | 'forgottenAt'
    | 'forgetReason'
    | 'expiresAt'
    | 'derivedFrom'
    | 'links'
    | 'updatedAt'
  >
> & {extra?: Record<string, unknown>}

export type Op =
  /** `originMac`: the writing machine's MAC of the memory's origin (storage/origin.ts), added by the store. */
  | {op: 'insert'; memory: Memory; extra?: Record<string, unknown>; originMac?: string}
  /** The user vouches for these memories (`mem init --adopt`): their origins are signed by this machine. */
  | {op: 'origin-sign'; entries: Array<[id: string, origin: string, mac: string]>}
  | {op: 'update'; id: string; set: MemoryPatch}
  /** Recalled: access counters go up (relative, so concurrent writers compose). */
  | {op: 'touch'; ids: string[]; at: string}
  | {op: 'feedback'; id: string; used: boolean; at: string}
  | {op: 'purge'; id: string}
  /** A mounted layer added or changed (storage/layers.ts). */
  | {op: 'layer-put'; layer: LayerRecord}
  | {op: 'layer-delete'; id: string}
  /** A usage roll-up (storage/usage.ts): aggregates to add, and the windows to compact to. */
  | {op: 'usage'; rows: UsageDelta[]; hourlyBefore: string; dailyBefore: string}
  /** Enrichment supplements of a memory (storage/supplements.ts); replaces earlier ones. */
  | {op: 'supplement'; id: string; supplement: Supplement}
  /** An embedding vector of a memory (storage/vectors.ts): little-endian Float32, base64; replaces an earlier one. */
  | {op: 'vector'; id: string; model: string; dims: number; vector: string; at: string}
  /**
   * The store took a repo id of its own (config/repo-identity.ts): every memory's `repoId` becomes
   * `to`. Memory ids are never rewritten (they stay valid wherever they were handed out).
   */
  | {op: 'repo-id'; to: string}

export interface JournalRecord {
  ops: Op[]
  /**
   * Team mode only: the request id of the write this record is (kept in the ops row's request_id
   * column, not in the record) and its first answer, which a replay of the same request id gets
   * (storage/request-ids.ts). Applying a record reads only `ops`.
   */
  requestId?: string
  reply?: unknown
}

const COLUMNS: Record<keyof MemoryPatch, string> = {
  oneLiner: 'one_liner',
  summary: 'summary',
  tags: 'tags',
  importance: 'importance',
  supersedes: 'supersedes',
  supersededBy: 'superseded_by',
  forgottenAt: 'forgotten_at',
  forgetReason: 'forget_reason',
  expiresAt: 'expires_at',
  derivedFrom: 'derived_from',
  links: 'links',
  updatedAt: 'updated_at',
  extra: 'extra',
}
const JSON_FIELDS = new Set(['tags', 'derivedFrom', 'links', 'extra'])

export function normHash(content: string): string {
  return nodeCrypto().createHash('sha256').update(normalizeForDuplicate(content)).digest('hex').slice(0, 32)
}

/** The origin of a row as this machine can vouch for it (storage/origin.ts); as recorded without keys. */
export function originOf(db: Db, id: string, content: string, origin: unknown, mac: unknown): string {
  const recorded = typeof origin === 'string' && origin !== '' ? origin : OWN_ORIGIN
  return db.origins ? db.origins.verify(id, recorded, content, typeof mac === 'string' ? mac : null) : recorded
}

export function rowToMemory(row: Row, db: Db): Memory {
  return {
    origin: originOf(db, row.id as string, row.content as string, row.origin, row.origin_mac),
    id: row.id as string,
    repoId: row.repo_id as string,
    type: row.type as MemoryType,
    content: row.content as string,
    oneLiner: (row.one_liner as string | null) ?? null,
    summary: (row.summary as string | null) ?? null,
    tags: JSON.parse(row.tags as string) as string[],
    importance: row.importance as number,
    source: row.source as string,
    sessionId: (row.session_id as string | null) ?? null,
    supersedes: (row.supersedes as string | null) ?? null,
    supersededBy: (row.superseded_by as string | null) ?? null,
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
    forgottenAt: (row.forgotten_at as string | null) ?? null,
    forgetReason: (row.forget_reason as string | null) ?? null,
    expiresAt: (row.expires_at as string | null) ?? null,
    accessCount: row.access_count as number,
    lastAccessedAt: (row.last_accessed_at as string | null) ?? null,
    usedCount: row.used_count as number,
    unusedCount: row.unused_count as number,
    lastUsedAt: (row.last_used_at as string | null) ?? null,
    derivedFrom: JSON.parse(row.derived_from as string) as string[],
    links: JSON.parse(row.links as string) as MemoryLink[],
  }
}

function tokenCount(text: string): number {
  return text === '' ? 0 : text.split(' ').length
}

/** Adds per-column token counts (body, tags, one-liner) to the FTS totals, in one statement. */
function addFtsTokens(db: Db, [body, tags, oneLiner]: number[]): void {
  db.run(`UPDATE fts_totals SET tokens = tokens + (CASE col WHEN 0 THEN ? WHEN 1 THEN ? ELSE ? END)`, [body, tags, oneLiner])
}

function ftsInsert(db: Db, seq: number, content: string, tags: string[], oneLiner: string | null): void {
  const fields = [indexText(content), indexText(tags.join(' ')), indexText(oneLiner ?? '')]
  db.run(`INSERT INTO memories_fts(docid, body, tags, oneliner) VALUES (?, ?, ?, ?)`, [seq, ...fields])
  addFtsTokens(db, fields.map(tokenCount))
  db.run(`INSERT INTO fts_log(docid, indexed) VALUES (?, 1)`, [seq])
}

/** Band-table keys of a memory; one cached statement run per key is faster in sql.js than a statement per key count. */
function keysInsert(db: Db, seq: number, keys: readonly number[]): void {
  for (const band of keys) db.run(`INSERT OR IGNORE INTO dup_bands(band, seq) VALUES (?, ?)`, [band, seq])
}

/** A live memory's band, subject and (while a newer version updates it) value keys (minhash.ts, values.ts). */
function bandsInsert(db: Db, seq: number, content: string, updated: boolean): void {
  keysInsert(db, seq, storedKeys(content, updated))
}

function bandsDelete(db: Db, seq: number, content: string, keys: readonly number[] = storedKeys(content, true)): void {
  if (keys.length === 0) return
  db.run(`DELETE FROM dup_bands WHERE seq = ? AND band IN (${keys.map(() => '?').join(', ')})`, [seq, ...keys])
}

function ftsDelete(db: Db, seq: number): void {
  const row = db.get<{b: string; t: string; o: string}>(
    `SELECT c0body AS b, c1tags AS t, c2oneliner AS o FROM memories_fts_content WHERE docid = ?`,
    [seq],
  )
  if (!row) return
  addFtsTokens(db, [row.b, row.t, row.o].map((f) => -tokenCount(f ?? '')))
  db.run(`DELETE FROM memories_fts WHERE docid = ?`, [seq])
  db.run(`INSERT INTO fts_log(docid, indexed) VALUES (?, 0)`, [seq])
}

/**
 * Merges each run of consecutive recall counters (`touch` ops) into one touch per distinct time,
 * each memory listed once per recall under the latest time it was recalled in the run: the same
 * counts and last access times as applying them one by one, with one update per memory. Touches
 * commute with each other but not with other ops (an insert, a purge), so those keep their place.
 */
export function coalesceTouches(ops: Op[]): Op[] {
  const out: Op[] = []
  let run = new Map<string, {n: number; at: string}>()
  const close = () => {
    if (run.size === 0) return
    const byTime = new Map<string, string[]>()
    for (const [id, {n, at}] of run) {
      let ids = byTime.get(at)
      if (!ids) byTime.set(at, (ids = []))
      for (let i = 0; i < n; i++) ids.push(id)
    }
    for (const [at, ids] of byTime) out.push({op: 'touch', ids, at})
    run = new Map()
  }
  for (const op of ops) {
    if (op.op !== 'touch') {
      close()
      out.push(op)
      continue
    }
    for (const id of op.ids) {
      const t = run.get(id)
      if (!t) run.set(id, {n: 1, at: op.at})
      else {
        t.n++
        if (op.at > t.at) t.at = op.at
      }
    }
  }
  close()
  return out
}

const rankEpochs = new WeakMap<Db, number>()

/**
 * A number that changes whenever an op may have changed the rank fields of some memory (every op
 * but a recall's `touch` and a usage roll-up), and after a rolled-back write. In-process caches
 * of rank fields (search/retriever.ts) are valid while it stays the same.
 */
export function rankEpoch(db: Db): number {
  return rankEpochs.get(db) ?? 0
}

/** Marks every cached rank field of `db` stale (a write was rolled back). */
export function rankFieldsChanged(db: Db): void {
  rankEpochs.set(db, rankEpoch(db) + 1)
}

/** Applies one journal record's mutations. The caller wraps it in a transaction. */
export function applyOps(db: Db, ops: Op[]): void {
  for (const op of ops) {
    if (op.op !== 'touch' && op.op !== 'usage') rankFieldsChanged(db)
    applyOp(db, op)
    // keep the context priority in step with importance and feedback
    if (op.op === 'insert' || op.op === 'feedback' || (op.op === 'update' && op.set.importance !== undefined)) {
      db.run(`UPDATE memories SET ctx_rank = ${CONTEXT_RANK_SQL} WHERE id = ?`, [op.op === 'insert' ? op.memory.id : op.id])
    }
  }
}

function applyOp(db: Db, op: Op): void {
  {
    switch (op.op) {
      case 'insert':
        insertMemory(db, op.memory, op.extra, op.originMac)
        break
      case 'origin-sign':
        for (const [id, origin, mac] of op.entries) db.run(`UPDATE memories SET origin = ?, origin_mac = ? WHERE id = ?`, [origin, mac, id])
        break
      case 'update':
        updateMemory(db, op.id, op.set)
        break
      case 'touch': {
        // an id listed n times was recalled n times (coalesceTouches): one update adds n
        const times = new Map<string, number>()
        for (const id of op.ids) times.set(id, (times.get(id) ?? 0) + 1)
        for (const [id, n] of times) {
          db.run(`UPDATE memories SET access_count = access_count + ?, last_accessed_at = ? WHERE id = ?`, [n, op.at, id])
        }
        break
      }
      case 'feedback':
        if (op.used) db.run(`UPDATE memories SET used_count = used_count + 1, last_used_at = ? WHERE id = ?`, [op.at, op.id])
        else db.run(`UPDATE memories SET unused_count = unused_count + 1 WHERE id = ?`, [op.id])
        break
      case 'purge': {
        const seq = seqOf(db, op.id)
        if (seq !== undefined) {
          ftsDelete(db, seq)
          const row = db.get<{content: string; live: number}>(`SELECT content, live FROM memories WHERE seq = ?`, [seq])
          if (row?.live === 1) bandsDelete(db, seq, row.content)
          db.run(`DELETE FROM memories WHERE seq = ?`, [seq])
        }
        deleteSupplement(db, op.id)
        deleteVector(db, op.id)
        break
      }
      case 'repo-id':
        db.run(`UPDATE memories SET repo_id = ? WHERE repo_id <> ?`, [op.to, op.to])
        break
      case 'layer-put':
        putLayer(db, op.layer)
        break
      case 'layer-delete':
        deleteLayer(db, op.id)
        break
      case 'usage':
        applyUsage(db, op.rows, op.hourlyBefore, op.dailyBefore)
        break
      case 'supplement':
        if (seqOf(db, op.id) !== undefined) putSupplement(db, op.id, op.supplement)
        break
      case 'vector': {
        const bytes = Buffer.from(op.vector, 'base64')
        if (seqOf(db, op.id) !== undefined && bytes.byteLength === op.dims * 4) {
          putVector(db, op.id, {model: op.model, dims: op.dims, bytes: new Uint8Array(bytes), embeddedAt: op.at})
        }
        break
      }
      default:
        throw new Error(`unknown journal op ${(op as {op: string}).op}`)
    }
  }
}

function seqOf(db: Db, id: string): number | undefined {
  return db.get<{seq: number}>(`SELECT seq FROM memories WHERE id = ?`, [id])?.seq
}

function insertMemory(db: Db, m: Memory, extra: Record<string, unknown> = {}, originMac: string | null = null): void {
  const live = m.forgottenAt === null && m.supersededBy === null ? 1 : 0
  db.run(
    `INSERT INTO memories (id, repo_id, type, content, one_liner, summary, tags, importance, source, session_id,
      supersedes, superseded_by, created_at, updated_at, forgotten_at, forget_reason, expires_at, access_count,
      last_accessed_at, used_count, unused_count, last_used_at, derived_from, links, extra, norm_hash, live, changed,
      origin, origin_mac)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      m.id, m.repoId, m.type, m.content, m.oneLiner, m.summary, JSON.stringify(m.tags), m.importance, m.source,
      m.sessionId, m.supersedes, m.supersededBy, m.createdAt, m.updatedAt, m.forgottenAt, m.forgetReason,
      m.expiresAt, m.accessCount, m.lastAccessedAt, m.usedCount, m.unusedCount, m.lastUsedAt,
      JSON.stringify(m.derivedFrom), JSON.stringify(m.links), JSON.stringify(extra), normHash(m.content), live,
      hasRelation(m.links, UPDATES) ? 1 : 0, m.origin || OWN_ORIGIN, originMac,
    ],
  )
  if (live) {
    const seq = db.get<{seq: number}>(`SELECT last_insert_rowid() AS seq`)!.seq
    ftsInsert(db, seq, m.content, m.tags, m.oneLiner)
    bandsInsert(db, seq, m.content, hasRelation(m.links, UPDATED_BY))
  }
}

function updateMemory(db: Db, id: string, set: MemoryPatch): void {
  const before = db.get(`SELECT * FROM memories WHERE id = ?`, [id])
  if (!before) return // purged meanwhile: nothing to update
  const sets: string[] = []
  const params: SqlValue[] = []
  for (const [key, value] of Object.entries(set) as Array<[keyof MemoryPatch, unknown]>) {
    if (value === undefined) continue
    const column = COLUMNS[key]
    if (!column) throw new Error(`cannot update field ${key}`)
    sets.push(`${column} = ?`)
    params.push(JSON_FIELDS.has(key) ? JSON.stringify(value) : (value as SqlValue))
  }
  // `changed`: the memory updates another (the current version of a fact that changed: the context leads with these)
  if (set.links !== undefined) {
    sets.push('changed = ?')
    params.push(hasRelation(set.links, UPDATES) ? 1 : 0)
  }
  const forgottenAt = set.forgottenAt !== undefined ? set.forgottenAt : (before.forgotten_at as string | null)
  const supersededBy = set.supersededBy !== undefined ? set.supersededBy : (before.superseded_by as string | null)
  const live = forgottenAt === null && supersededBy === null ? 1 : 0
  sets.push('live = ?')
  params.push(live)
  db.run(`UPDATE memories SET ${sets.join(', ')} WHERE id = ?`, [...params, id])

  const seq = before.seq as number
  const wasLive = before.live === 1
  const indexed = set.tags !== undefined || set.oneLiner !== undefined
  const updatedBefore = hasRelation(before.links as string, UPDATED_BY)
  const updatedAfter = set.links !== undefined ? hasRelation(set.links, UPDATED_BY) : updatedBefore
  if (wasLive && !live) bandsDelete(db, seq, before.content as string)
  if (!wasLive && live) bandsInsert(db, seq, before.content as string, updatedAfter)
  // a memory a newer version updates is found by its values too (a revert in other words)
  if (wasLive && live && updatedBefore !== updatedAfter) {
    const values = valueKeysOf(before.content as string)
    if (updatedAfter) keysInsert(db, seq, values)
    else bandsDelete(db, seq, before.content as string, values)
  }
  if (wasLive && !live) ftsDelete(db, seq)
  else if (live && (!wasLive || indexed)) {
    if (wasLive) ftsDelete(db, seq)
    const after = db.get(`SELECT content, tags, one_liner FROM memories WHERE seq = ?`, [seq])!
    ftsInsert(db, seq, after.content as string, JSON.parse(after.tags as string), after.one_liner as string | null)
  }
}

// ---- queries ---------------------------------------------------------------------------------

/**
 * The repo ids this store's memories carry: the second segment of their ids (`memories/<repo id>/…`)
 * and their `repoId` fields, each once.
 */
export function memoryRepoIds(db: Db): {inIds: string[]; inFields: string[]} {
  const inIds = db
    .all<{r: string}>(`SELECT DISTINCT substr(id, 10, instr(substr(id, 10), '/') - 1) AS r FROM memories WHERE id LIKE 'memories/%/%'`)
    .map((row) => row.r)
  const inFields = db.all<{r: string}>(`SELECT DISTINCT repo_id AS r FROM memories`).map((row) => row.r)
  return {inIds, inFields}
}

export function getMemory(db: Db, id: string): Memory | undefined {
  const row = db.get(`SELECT * FROM memories WHERE id = ?`, [id])
  return row ? rowToMemory(row, db) : undefined
}

export function getExtra(db: Db, id: string): Record<string, unknown> {
  const row = db.get<{extra: string}>(`SELECT extra FROM memories WHERE id = ?`, [id])
  return row ? (JSON.parse(row.extra) as Record<string, unknown>) : {}
}

export function getMemoriesBySeq(db: Db, seqs: number[]): Map<number, Memory> {
  const out = new Map<number, Memory>()
  for (const row of db.allIn((list) => `SELECT * FROM memories WHERE seq IN (${list})`, seqs)) out.set(row.seq as number, rowToMemory(row, db))
  return out
}

/** What a recall result shows of a memory (the spec's recall item, before scoring). */
export type RecallFields = Pick<Memory, 'id' | 'repoId' | 'type' | 'content' | 'oneLiner' | 'tags' | 'importance' | 'createdAt' | 'usedCount' | 'links' | 'origin'> & {
  /** Only in the recall index's records: the recorded origin's MAC, verified when read (recall-index.ts). */
  originMac?: string | null
  /** Only in hits the recall index answered: the memory's short ref (refs.ts) and its unused count, as of the index (current when it answers). */
  ref?: string
  unusedCount?: number
}

/** The recall fields of memories by seq: ten columns instead of all (a third of the cost). */
export function recallFieldsBySeq(db: Db, seqs: number[]): Map<number, RecallFields> {
  return recallFieldsWhere(db, 'seq', seqs, (r) => r.seq)
}

/** The recall fields of memories by id (live or not). */
export function recallFieldsById(db: Db, ids: string[]): Map<string, RecallFields & {live: boolean; supersededBy: string | null}> {
  return recallFieldsWhere(db, 'id', ids, (r) => r.id) as Map<string, RecallFields & {live: boolean; supersededBy: string | null}>
}

function recallFieldsWhere<K extends string | number>(db: Db, column: 'seq' | 'id', keys: K[], keyOf: (r: {seq: number; id: string}) => K): Map<K, RecallFields> {
  const out = new Map<K, RecallFields>()
  if (keys.length === 0) return out
  const rows = db.allIn<{seq: number; id: string; r: string; type: MemoryType; content: string; o: string | null; tags: string; importance: number; c: string; n: number; l: string; live: number; sb: string | null; og: string; om: string | null}>(
    (list) => `SELECT seq, id, repo_id AS r, type, content, one_liner AS o, tags, importance, created_at AS c, used_count AS n, links AS l, live, superseded_by AS sb,
       origin AS og, origin_mac AS om
       FROM memories WHERE ${column} IN (${list})`,
    keys,
  )
  for (const r of rows) {
    out.set(keyOf(r), {
      links: JSON.parse(r.l) as MemoryLink[],
      ...(column === 'id' ? {live: r.live === 1, supersededBy: r.sb} : {}),
      id: r.id,
      repoId: r.r,
      type: r.type,
      content: r.content,
      oneLiner: r.o ?? null,
      tags: JSON.parse(r.tags) as string[],
      origin: originOf(db, r.id, r.content, r.og, r.om),
      importance: r.importance,
      createdAt: r.c,
      usedCount: r.n,
    })
  }
  return out
}

/** What the recall blend needs of a memory (rank.ts), without the text and JSON fields. */
/** What ranking needs of a memory: the blend's fields, whether it is live, and whether it is a question. */
export type RankFields = Pick<Memory, 'type' | 'importance' | 'createdAt' | 'lastUsedAt' | 'usedCount' | 'unusedCount'> & {live: boolean; question: boolean}

export function rankFieldsBySeq(db: Db, seqs: number[]): Map<number, RankFields> {
  const out = new Map<number, RankFields>()
  const rows = db.allIn<{seq: number; type: MemoryType; importance: number; c: string; u: string | null; n: number; x: number; l: number; q: number}>(
    (list) => `SELECT seq, type, importance, created_at AS c, last_used_at AS u, used_count AS n, unused_count AS x, live AS l,
       substr(rtrim(content, ' 
	'), -1) = '?' AS q
       FROM memories WHERE seq IN (${list})`,
    seqs,
  )
  for (const r of rows) {
    out.set(r.seq, {type: r.type, importance: r.importance, createdAt: r.c, lastUsedAt: r.u, usedCount: r.n, unusedCount: r.x, live: r.l === 1, question: r.q === 1})
  }
  return out
}

export function findLiveByNormHash(db: Db, content: string): string | undefined {
  // INDEXED BY: without it SQLite picks an index on `live` and scans every live memory (10 ms at 10k)
  return db.get<{id: string}>(`SELECT id FROM memories INDEXED BY memories_norm_hash WHERE norm_hash = ? AND live = 1 LIMIT 1`, [normHash(content)])?.id
}

/** Live memories sharing any of the MinHash band `keys`, at most `limit`. */
/** Whether any memory (live or not) has this id: one indexed lookup, no row read. */
export function hasMemory(db: Db, id: string): boolean {
  return db.get(`SELECT 1 AS x FROM memories WHERE id = ?`, [id]) !== undefined
}

/** A duplicate candidate: what the store gates read of a live memory. */
export type DuplicateCandidate = {id: string; content: string; createdAt: string; type: MemoryType; links: string}

/**
 * The live memories that hold one of `keys` in the band table, newest first, at most `limit`;
 * `fits` is asked about each one's length in characters, newest first, and the rows from the first
 * it refuses on are left unread (`unchecked` counts them): a store reads only the texts it will
 * compare (64 candidates of 16,000 characters took 11 ms to read, most of them to be left).
 */
export function nearDuplicateCandidates(db: Db, keys: readonly number[], limit: number, fits: (chars: number) => boolean = () => true): {rows: DuplicateCandidate[]; unchecked: number} {
  if (keys.length === 0) return {rows: [], unchecked: 0}
  // In two steps, the memories' seqs and then their rows: one query with `seq IN (SELECT … band
  // IN …)` took 2.5× as long in sql.js (38 vs 15 µs for a store's 13 keys), a quarter of a store's SQL.
  // Newest first: past the limit, the current versions of a fact are the ones to keep
  const seqs = [...new Set(db.column<number>(`SELECT seq FROM dup_bands WHERE band IN (${keys.map(() => '?').join(',')})`, [...keys]))].sort((a, b) => b - a)
  const found: Array<{seq: number; chars: number}> = []
  // the band table holds live memories only; `+live` (look up by rowid, not by the index on
  // `live`) keeps a stale row out all the same, and the next seqs fill its place
  for (let at = 0; at < seqs.length && found.length < limit; at += limit) {
    const some = seqs.slice(at, at + limit)
    const live = db.all<{seq: number; chars: number}>(`SELECT seq, length(content) AS chars FROM memories WHERE seq IN (${some.map(() => '?').join(',')}) AND +live = 1 ORDER BY seq DESC`, some)
    found.push(...live.slice(0, limit - found.length))
  }
  let within = 0
  while (within < found.length && fits(found[within].chars)) within++
  const read = found.slice(0, within).map((f) => f.seq)
  const rows =
    read.length === 0
      ? []
      : db.all<DuplicateCandidate>(`SELECT id, content, created_at AS createdAt, type, links FROM memories WHERE seq IN (${read.map(() => '?').join(',')}) ORDER BY seq DESC`, read)
  return {rows, unchecked: found.length - within}
}

/**
 * The newest live memories holding any of `keys` in the band table, at most `limit`, as duplicate
 * and update candidates: for keys many memories share (a role: text/roles.ts), where
 * nearDuplicateCandidates would read them all.
 */
export function newestCandidatesWithKeys(db: Db, keys: readonly number[], limit: number): DuplicateCandidate[] {
  if (keys.length === 0 || limit <= 0) return []
  // one key at a time, each read backwards along the (band, seq) key and stopped at the limit: the
  // cost stays that of `limit` rows a key, however many memories hold it
  const seqs = [...new Set(keys.flatMap((k) => db.column<number>(`SELECT seq FROM dup_bands WHERE band = ? ORDER BY seq DESC LIMIT ?`, [k, limit])))]
    .sort((a, b) => b - a)
    .slice(0, limit)
  if (seqs.length === 0) return []
  return db.all<DuplicateCandidate>(`SELECT id, content, created_at AS createdAt, type, links FROM memories WHERE seq IN (${seqs.map(() => '?').join(',')}) AND +live = 1 ORDER BY seq DESC`, seqs)
}

/** Live memories by seq, as duplicate and update candidates (and their seq). */
export function duplicateCandidatesBySeq(db: Db, seqs: readonly number[]): Array<DuplicateCandidate & {seq: number}> {
  if (seqs.length === 0) return []
  return db.all<DuplicateCandidate & {seq: number}>(
    `SELECT seq, id, content, created_at AS createdAt, type, links FROM memories WHERE seq IN (${seqs.map(() => '?').join(',')}) AND +live = 1`,
    [...seqs],
  )
}

export interface BrowseQuery {
  type?: MemoryType
  skip: number
  take: number
}

export function browseLive(db: Db, q: BrowseQuery): {count: number; entries: Memory[]} {
  const where = q.type ? `live = 1 AND type = ?` : `live = 1`
  const params: SqlValue[] = q.type ? [q.type] : []
  const count = db.get<{n: number}>(`SELECT count(*) AS n FROM memories WHERE ${where}`, params)!.n
  const rows = db.all(`SELECT * FROM memories WHERE ${where} ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?`, [
    ...params,
    q.take,
    q.skip,
  ])
  return {count, entries: rows.map((r) => rowToMemory(r, db))}
}

export function liveCounts(db: Db): Record<MemoryType, number> {
  const out = {observation: 0, insight: 0, procedure: 0, heuristic: 0}
  for (const row of db.all<{type: MemoryType; n: number}>(`SELECT type, n FROM counts`)) out[row.type] = row.n
  return out
}

/**
 * The live memories of the given types that matter most without a query: by importance and
 * feedback record (a Laplace-smoothed use rate), newest first among equals, at most `limit`.
 */
export function topLiveOfTypes(db: Db, types: MemoryType[], limit: number): Memory[] {
  const placeholders = types.map(() => '?').join(', ')
  return db
    .all(
      `SELECT * FROM memories WHERE live = 1 AND type IN (${placeholders})
       ORDER BY ctx_rank DESC
       LIMIT ?`,
      [...types, limit],
    )
    .map((r) => rowToMemory(r, db))
}

/**
 * The live memories of the given types that update another — the current versions of facts that
 * changed — best first (context priority), whatever their rank among all memories.
 */
export function topLiveChanged(db: Db, types: MemoryType[], limit: number): Memory[] {
  const placeholders = types.map(() => '?').join(', ')
  return db
    .all(
      // the partial index of changed memories (schema 11): the planner would rather walk every
      // live memory by rank, which costs ~15 ms at 10,000 when few have changed
      `SELECT * FROM memories INDEXED BY memories_changed_ctx_rank WHERE live = 1 AND changed = 1 AND type IN (${placeholders})
       ORDER BY ctx_rank DESC
       LIMIT ?`,
      [...types, limit],
    )
    .map((r) => rowToMemory(r, db))
}

/** The version chain around `id`, oldest first. */
export function versionChain(db: Db, id: string): Memory[] {
  const start = getMemory(db, id)
  if (!start) return []
  const chain: Memory[] = [start]
  const seen = new Set([start.id])
  let cur = start
  while (cur.supersedes && !seen.has(cur.supersedes)) {
    const prev = getMemory(db, cur.supersedes)
    if (!prev) break
    chain.unshift(prev)
    seen.add(prev.id)
    cur = prev
  }
  cur = start
  while (cur.supersededBy && !seen.has(cur.supersededBy)) {
    const next = getMemory(db, cur.supersededBy)
    if (!next) break
    chain.push(next)
    seen.add(next.id)
    cur = next
  }
  return chain
}


// ---- maintenance and consolidation queries (src/engines) --------------------------------------

/** A live memory reduced to what clustering and dedup compare. */
/**
 * Rows whose origin this machine does not vouch for, to sign when the user adopts the store:
 * with `all`, every row that reads as foreign; else only rows that carry no MAC at all (kept
 * before origins were: an intake seed by its source, anything else the user's).
 */
export function rowsToSign(db: Db, all: boolean): Array<{id: string; origin: string; content: string}> {
  const out: Array<{id: string; origin: string; content: string}> = []
  db.eachRow<{id: string; content: string; origin: string; origin_mac: string | null; source: string}>(
    `SELECT id, content, origin, origin_mac, source FROM memories${all ? '' : ' WHERE origin_mac IS NULL'}`,
    undefined,
    (r) => {
      if (all && r.origin_mac !== null && originOf(db, r.id, r.content, r.origin, r.origin_mac) !== FOREIGN_ORIGIN) return
      const origin = r.origin_mac === null && r.origin === OWN_ORIGIN && r.source.startsWith('intake:') ? r.source : r.origin || OWN_ORIGIN
      out.push({id: r.id, origin: origin === FOREIGN_ORIGIN ? OWN_ORIGIN : origin, content: r.content})
    },
  )
  return out
}

/** The recorded origins of memories by id and their MACs, unverified: for the recall index, which verifies them when read. */
export function recordedOrigins(db: Db, ids: readonly string[]): Map<string, {origin: string; originMac: string | null}> {
  const out = new Map<string, {origin: string; originMac: string | null}>()
  if (ids.length === 0) return out
  for (const r of db.allIn<{id: string; origin: string; origin_mac: string | null}>((list) => `SELECT id, origin, origin_mac FROM memories WHERE id IN (${list})`, [...ids])) {
    out.set(r.id, {origin: r.origin, originMac: r.origin_mac})
  }
  return out
}

/** The origins of memories by id, as this machine vouches for them (storage/origin.ts). */
export function originsById(db: Db, ids: readonly string[]): Map<string, string> {
  const out = new Map<string, string>()
  if (ids.length === 0) return out
  for (const r of db.allIn<{id: string; content: string; origin: string; origin_mac: string | null}>(
    (list) => `SELECT id, content, origin, origin_mac FROM memories WHERE id IN (${list})`,
    [...ids],
  )) {
    out.set(r.id, originOf(db, r.id, r.content, r.origin, r.origin_mac))
  }
  return out
}

export interface MemoryBrief {
  seq: number
  id: string
  type: MemoryType
  content: string
  tags: string[]
  importance: number
  createdAt: string
  derivedFrom: string[]
  extra: Record<string, unknown>
}

function rowToBrief(r: Row): MemoryBrief {
  return {
    seq: r.seq as number,
    id: r.id as string,
    type: r.type as MemoryType,
    content: r.content as string,
    tags: JSON.parse(r.tags as string) as string[],
    importance: r.importance as number,
    createdAt: r.created_at as string,
    derivedFrom: JSON.parse(r.derived_from as string) as string[],
    extra: JSON.parse(r.extra as string) as Record<string, unknown>,
  }
}

const BRIEF_COLUMNS = `seq, id, type, content, tags, importance, created_at, derived_from, extra`

/** Live memories of one type, oldest first. */
export function liveBriefsOfType(db: Db, type: MemoryType): MemoryBrief[] {
  return db.all(`SELECT ${BRIEF_COLUMNS} FROM memories WHERE live = 1 AND type = ? ORDER BY created_at, seq`, [type]).map(rowToBrief)
}

/** Calls `fn` with each live memory of one type, oldest first, without holding them all at once. */
export function eachLiveBriefOfType(db: Db, type: MemoryType, fn: (brief: MemoryBrief) => void): void {
  db.each(`SELECT ${BRIEF_COLUMNS} FROM memories WHERE live = 1 AND type = ? ORDER BY created_at, seq`, [type], (r) => fn(rowToBrief(r)))
}

/** Live memories by seq (missing or no longer live ones are left out). `+live` keeps the key index in use. */
export function liveBriefsBySeq(db: Db, seqs: number[]): MemoryBrief[] {
  return db.allIn((list) => `SELECT ${BRIEF_COLUMNS} FROM memories WHERE +live = 1 AND seq IN (${list})`, seqs).map(rowToBrief)
}

/** Live memories by id (missing or no longer live ones are left out). */
export function liveBriefsById(db: Db, ids: string[]): MemoryBrief[] {
  return db.allIn((list) => `SELECT ${BRIEF_COLUMNS} FROM memories WHERE +live = 1 AND id IN (${list})`, ids).map(rowToBrief)
}

/** Ids (and expiry) of live memories whose `expiresAt` is at or before `at`. */
export function liveExpiredAt(db: Db, at: string): Array<{id: string; expiresAt: string}> {
  return db
    .all<{id: string; expires_at: string}>(
      `SELECT id, expires_at FROM memories WHERE live = 1 AND expires_at IS NOT NULL AND expires_at <= ? ORDER BY seq`,
      [at],
    )
    .map((r) => ({id: r.id, expiresAt: r.expires_at}))
}

/**
 * Live observations created before `createdBefore` with no use (recalled or reported used)
 * since `unusedSince`.
 */
export function liveObservationsUnused(db: Db, createdBefore: string, unusedSince: string): Array<{id: string; createdAt: string; lastUse: string | null}> {
  return db
    .all<{id: string; created_at: string; last_use: string | null}>(
      `SELECT id, created_at, max(coalesce(last_used_at, ''), coalesce(last_accessed_at, '')) AS last_use
       FROM memories
       WHERE live = 1 AND type = 'observation' AND created_at < ?
         AND coalesce(last_used_at, '') < ? AND coalesce(last_accessed_at, '') < ?
       ORDER BY seq`,
      [createdBefore, unusedSince, unusedSince],
    )
    .map((r) => ({id: r.id, createdAt: r.created_at, lastUse: r.last_use || null}))
}

/** Groups (of seqs, ascending) of live memories with the same normalized text. */
export function liveNormHashGroups(db: Db): number[][] {
  return db
    .column<string>(`SELECT group_concat(seq) FROM memories WHERE live = 1 GROUP BY norm_hash HAVING count(*) > 1`)
    .map((s) => s.split(',').map(Number).sort((a, b) => a - b))
}

/** Groups (of seqs) of live memories sharing a band key, but the keys `apart` (text/minhash.ts LOOKUP_KEYS): near-duplicate and update candidates. */
export function dupBandGroups(db: Db, apart: ReadonlySet<number> = new Set()): number[][] {
  const skip = [...apart]
  return db
    .column<string>(`SELECT group_concat(seq) FROM dup_bands${skip.length > 0 ? ` WHERE band NOT IN (${skip.map(() => '?').join(',')})` : ''} GROUP BY band HAVING count(*) > 1`, skip)
    .map((s) => s.split(',').map(Number).sort((a, b) => a - b))
}

/** What decay needs of a live memory. */
export interface DecayRow {
  id: string
  type: MemoryType
  importance: number
  createdAt: string
  updatedAt: string
  lastUsedAt: string | null
  lastAccessedAt: string | null
  extra: Record<string, unknown>
}

function rowToDecay(r: Row): DecayRow {
  return {
    id: r.id as string,
    type: r.type as MemoryType,
    importance: r.importance as number,
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
    lastUsedAt: (r.last_used_at as string | null) ?? null,
    lastAccessedAt: (r.last_accessed_at as string | null) ?? null,
    extra: JSON.parse(r.extra as string) as Record<string, unknown>,
  }
}

const DECAY_COLUMNS = `id, type, importance, created_at, updated_at, last_used_at, last_accessed_at, extra`

/** Calls `fn` with each live memory with importance above `floor`, in seq order, one row at a time. */
export function eachLiveDecayRow(db: Db, floor: number, fn: (row: DecayRow) => void): void {
  db.each(`SELECT ${DECAY_COLUMNS} FROM memories WHERE live = 1 AND importance > ? ORDER BY seq`, [floor], (r) => fn(rowToDecay(r)))
}

/** The same rows for the given ids (left out when gone or no longer live). */
export function liveDecayRowsById(db: Db, ids: string[]): DecayRow[] {
  return db.allIn((list) => `SELECT ${DECAY_COLUMNS} FROM memories WHERE +live = 1 AND id IN (${list})`, ids).map(rowToDecay)
}

/** Ids of memories forgotten before `before`, oldest first. */
export function forgottenBefore(db: Db, before: string): string[] {
  return db.column<string>(`SELECT id FROM memories WHERE forgotten_at IS NOT NULL AND forgotten_at < ? ORDER BY forgotten_at, seq`, [before])
}

/** Every id named in a live memory's `derivedFrom`. */
export function liveDerivedFromIds(db: Db): Set<string> {
  const out = new Set<string>()
  for (const s of db.column<string>(`SELECT derived_from FROM memories WHERE live = 1 AND derived_from <> '[]'`)) {
    for (const id of JSON.parse(s) as string[]) out.add(id)
  }
  return out
}

/** Live memories without a one-liner (null or empty) after `afterSeq`, in seq order, at most `limit`. */
export function liveWithoutOneLiner(db: Db, afterSeq: number, limit: number): Array<{seq: number; id: string; content: string}> {
  return db.all<{seq: number; id: string; content: string}>(
    `SELECT seq, id, content FROM memories WHERE live = 1 AND (one_liner IS NULL OR one_liner = '') AND seq > ? ORDER BY seq LIMIT ?`,
    [afterSeq, limit],
  )
}
