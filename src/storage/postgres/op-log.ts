/**
 * The ops table as a repo's journal: the append path a replica writes through, and the reads it
 * catches up with. Team mode's `.mem/write.lock` is the repo's head row, locked with
 * `SELECT head … FOR UPDATE` in the write transaction: writers of one repo take turns across every
 * replica, and each batch gets the seqs after the head it read, so seq is gapless per repo.
 * A batch commits whole or not at all (one transaction); a connection that dies mid-batch leaves
 * nothing of it.
 *
 * Idempotency: a record may carry a request id, unique per repo. Appending a record whose request
 * id is there already appends nothing and answers the seq it got the first time (checked after the
 * head lock is held, so two copies racing resolve to one).
 */
import type {PoolClient} from 'pg'
import {MemError} from '../../model/errors.js'
import {checkRepoId, checkRequestId, checkTeamName} from '../../model/team-names.js'
import type {PgHandle} from './pool.js'

/** One record to append: a journal record (a deterministic list of ops), as JSON. */
export interface AppendEntry {
  record: unknown
  /** Names the write for retries: a second append with the same id in this repo appends nothing. */
  requestId?: string
}

export interface AppendOptions {
  /** Who writes (a key's name, `cli`, a replica): kept on each row. */
  actor: string
  /** When, from the caller's clock. */
  at: Date
}

export interface AppendedEntry {
  seq: number
  /** True when the request id had been appended before: nothing was appended for this entry. */
  replayed: boolean
}

export interface AppendResult {
  /** The repo's head after the batch. */
  head: number
  /** One answer per entry, in the order given. */
  entries: AppendedEntry[]
}

export interface OpRow {
  seq: number
  record: unknown
  actor: string
  requestId: string | null
  at: Date
}

/** What a replica needs of the ops table. */
export interface OpLog {
  append(team: string, repo: string, entries: readonly AppendEntry[], options: AppendOptions): Promise<AppendResult>
  /** Records after `seq`, in order, at most `limit` (default 1,000). */
  after(team: string, repo: string, seq: number, limit?: number): Promise<OpRow[]>
  /** The repo's head (0 for a repo with nothing appended, or none yet). */
  head(team: string, repo: string): Promise<number>
  /**
   * The repo's maintenance lock, if no one holds it: held by one connection until `release()`, and
   * freed by Postgres when that connection or its process dies. Null when another holds it.
   */
  tryMaintenanceLock(team: string, repo: string): Promise<MaintenanceLock | null>
  /**
   * The repo's lock of the meaning drain (one replica at a time makes a repo's vectors), held and
   * freed like the maintenance lock, and apart from it: a drain never holds up a maintenance pass.
   */
  tryMeaningLock(team: string, repo: string): Promise<MaintenanceLock | null>
}

export interface MaintenanceLock {
  release(): Promise<void>
}

/** At most this many records in one append (a replica's group commit stays well under it). */
export const MAX_BATCH = 1_000
/** A record's JSON, at most (a memory is ≤ 64 KB of text; its ops carry a few fields more). */
export const MAX_RECORD_BYTES = 1024 * 1024
const MAX_ACTOR = 200

export function opLog(pg: PgHandle): OpLog {
  return {
    async append(team, repo, entries, options) {
      checkTeamName(team)
      checkRepoId(repo)
      const batch = checkBatch(entries)
      checkActor(options.actor)
      checkAt(options.at)
      return pg.transaction(async (client) => {
        const head = await lockHead(client, team, repo, options.at)
        // a request id seen before (committed before this lock was taken) is answered, not appended
        const ids = [...new Set(batch.flatMap((e) => (e.requestId === undefined ? [] : [e.requestId])))]
        const earlier = new Map<string, number>()
        if (ids.length > 0) {
          const rows = await client.query<{request_id: string; seq: string}>(
            'SELECT request_id, seq FROM ops WHERE team = $1 AND repo = $2 AND request_id = ANY($3::text[])',
            [team, repo, ids],
          )
          for (const r of rows.rows) earlier.set(r.request_id, Number(r.seq))
        }
        const answers: AppendedEntry[] = []
        const seqs: number[] = []
        const records: string[] = []
        const requestIds: Array<string | null> = []
        let next = head
        for (const e of batch) {
          const first = e.requestId === undefined ? undefined : earlier.get(e.requestId)
          if (first !== undefined) {
            answers.push({seq: first, replayed: true})
            continue
          }
          next += 1
          if (e.requestId !== undefined) earlier.set(e.requestId, next) // a copy later in this batch replays it
          seqs.push(next)
          records.push(e.json)
          requestIds.push(e.requestId ?? null)
          answers.push({seq: next, replayed: false})
        }
        if (seqs.length > 0) {
          // one statement (one round trip while the head row is locked): the rows, then the head
          // (a data-modifying WITH runs whole whether or not the UPDATE reads it; an error in it fails both)
          const moved = await client.query(
            `WITH appended AS (
               INSERT INTO ops (team, repo, seq, record, actor, request_id, at)
               SELECT $1, $2, s, r, $3, q, $4 FROM unnest($5::bigint[], $6::jsonb[], $7::text[]) AS t(s, r, q)
             )
             UPDATE repos SET head = $8 WHERE team = $1 AND repo = $2`,
            [team, repo, options.actor, options.at, seqs, records, requestIds, next],
          )
          if (moved.rowCount !== 1) throw new MemError('internal', `The head of ${repo} could not be moved to ${next}.`)
        }
        return {head: next, entries: answers}
      })
    },

    async after(team, repo, seq, limit = 1_000) {
      checkTeamName(team)
      checkRepoId(repo)
      if (!Number.isSafeInteger(seq) || seq < 0) throw new MemError('invalid_input', `Invalid seq ${seq}: a whole number ≥ 0.`)
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > 10_000) throw new MemError('invalid_input', `Invalid limit ${limit}: 1 to 10,000.`)
      const rows = await pg.query<{seq: string; record: unknown; actor: string; request_id: string | null; at: Date}>(
        'SELECT seq, record, actor, request_id, at FROM ops WHERE team = $1 AND repo = $2 AND seq > $3 ORDER BY seq LIMIT $4',
        [team, repo, seq, limit],
      )
      return rows.map((r) => ({seq: Number(r.seq), record: r.record, actor: r.actor, requestId: r.request_id, at: r.at}))
    },

    async head(team, repo) {
      checkTeamName(team)
      checkRepoId(repo)
      const rows = await pg.query<{head: string}>('SELECT head FROM repos WHERE team = $1 AND repo = $2', [team, repo])
      return rows.length === 0 ? 0 : Number(rows[0].head)
    },

    async tryMaintenanceLock(team, repo) {
      checkTeamName(team)
      checkRepoId(repo)
      return tryRepoLock(pg, lockName(team, repo))
    },

    async tryMeaningLock(team, repo) {
      checkTeamName(team)
      checkRepoId(repo)
      return tryRepoLock(pg, meaningLockName(team, repo))
    },
  }
}

/** The advisory lock's name: team names hold no '/', so team and repo cannot run into each other. */
function lockName(team: string, repo: string): string {
  return `mem-maintenance:${team}/${repo}`
}

/** The advisory lock of the meaning drain: a name of its own, so it never meets the maintenance lock. */
function meaningLockName(team: string, repo: string): string {
  return `mem-meaning:${team}/${repo}`
}

/** A session advisory lock named `name`, if no one holds it: one pooled connection holds it until released. */
async function tryRepoLock(pg: PgHandle, name: string): Promise<MaintenanceLock | null> {
  const {client, done} = await pg.checkout()
  try {
    const got = await client.query<{ok: boolean}>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [name])
    if (!got.rows[0]?.ok) {
      done()
      return null
    }
  } catch (err) {
    done(err)
    throw pg.error(err)
  }
  let released = false
  return {
    async release() {
      if (released) return
      released = true
      try {
        await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [name])
        done()
      } catch (err) {
        // the connection is gone, and the lock with it
        done(err)
      }
    },
  }
}

/**
 * Locks the repo's head row (making the row on the repo's first write) and returns the head.
 * A team that does not exist is not_found.
 */
export async function lockHead(client: PoolClient, team: string, repo: string, at: Date): Promise<number> {
  const locked = await client.query<{head: string}>('SELECT head FROM repos WHERE team = $1 AND repo = $2 FOR UPDATE', [team, repo])
  if (locked.rows.length > 0) return Number(locked.rows[0].head)
  const team_ = await client.query('SELECT 1 FROM teams WHERE team = $1', [team])
  if (team_.rows.length === 0) throw unknownTeam(team)
  // two first writers race here: one inserts, the other waits on its row, then locks it
  await client.query('INSERT INTO repos (team, repo, head, created_at) VALUES ($1, $2, 0, $3) ON CONFLICT DO NOTHING', [team, repo, at])
  const again = await client.query<{head: string}>('SELECT head FROM repos WHERE team = $1 AND repo = $2 FOR UPDATE', [team, repo])
  return Number(again.rows[0].head)
}

export function unknownTeam(team: string): MemError {
  return new MemError('not_found', `No team ${team} in this team store.`, {hint: `Create it: mem team create ${team} --store URL.`})
}

function checkAt(at: Date): void {
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) throw new MemError('invalid_input', 'Invalid time for the append: a valid Date.')
}

function checkActor(actor: string): void {
  if (typeof actor !== 'string' || actor.length === 0 || actor.length > MAX_ACTOR || /[\u0000-\u001f\u007f]/.test(actor)) {
    throw new MemError('invalid_input', 'Invalid actor: 1 to 200 characters, no control characters.')
  }
}

function checkBatch(entries: readonly AppendEntry[]): Array<{json: string; requestId?: string}> {
  if (!Array.isArray(entries) || entries.length === 0) throw new MemError('invalid_input', 'Nothing to append: the batch is empty.')
  if (entries.length > MAX_BATCH) {
    throw new MemError('invalid_input', `A batch of ${entries.length} records is more than ${MAX_BATCH}.`, {hint: 'Append it in smaller batches.'})
  }
  return entries.map((e, i) => {
    if (e.requestId !== undefined) checkRequestId(e.requestId)
    let json: string | undefined
    try {
      json = JSON.stringify(e.record)
    } catch {
      json = undefined
    }
    if (json === undefined || e.record === null || typeof e.record !== 'object') {
      throw new MemError('invalid_input', `Record ${i + 1} of the batch is not a JSON object or array.`)
    }
    if (Buffer.byteLength(json) > MAX_RECORD_BYTES) {
      throw new MemError('payload_too_large', `Record ${i + 1} of the batch is ${Buffer.byteLength(json)} bytes of JSON, more than ${MAX_RECORD_BYTES}.`)
    }
    return {json, requestId: e.requestId}
  })
}
