/**
 * One team repo's ops table as the log a RepoStore replica reads and writes (storage/replica.ts).
 * The write transaction is op-log's: the head row locked `FOR UPDATE` (writers of the repo take
 * turns across every replica), the records after the replica's place read in it, the batch
 * planned on them and appended after the head, all committed at once. Snapshots are rows of
 * `snapshots`, kept under a transaction-level advisory lock so that one replica writes one at a time.
 */
import {MemError} from '../../model/errors.js'
import {checkRepoId, checkTeamName} from '../../model/team-names.js'
import type {JournalRecord} from '../memories.js'
import {recordActor, type ReplicaLog, type ReplicaRecord} from '../replica.js'
import {lockHead, MAX_BATCH, MAX_RECORD_BYTES, opLog} from './op-log.js'
import type {PoolClient} from 'pg'
import type {PgHandle} from './pool.js'

/** Snapshots kept per repo (the newest serves cold replicas; one more while it is being replaced). */
const SNAPSHOTS_KEPT = 2

/** Thrown inside the transaction to roll it back when the batch has nothing to append. */
class NothingToAppend {}

export interface ReplicaLogOptions {
  /** Who writes: kept on each ops row (a replica's name), unless a record names its own (recordActor). */
  actor: string
  now?: () => Date
  /** Who writes now, in the caller's context (team mode: `key:<name>` of the request's key). */
  currentActor?: () => string | undefined
}

/** The first record kept under each of these request ids (read in the write transaction). */
async function replayedOf(client: PoolClient, team: string, repo: string, requestIds: readonly string[]): Promise<Map<string, JournalRecord>> {
  const again = await client.query<{request_id: string; record: JournalRecord}>('SELECT request_id, record FROM ops WHERE team = $1 AND repo = $2 AND request_id = ANY($3::text[])', [team, repo, [...requestIds]])
  return new Map(again.rows.map((r) => [r.request_id, r.record]))
}

/** `\\u0000` as JSON writes a NUL: preceded by an even number of backslashes (an odd one escapes the backslash, not the NUL). */
const NUL_IN_JSON = /(?<!\\)(?:\\\\)*\\u0000/

/** The JSON text each record is appended as (without its request id, which has its own column), made once. */
const texts = new WeakMap<JournalRecord, string>()

/**
 * A record as the ops row holds it; refused when the row cannot hold it: more than
 * MAX_RECORD_BYTES of JSON, or a NUL character, which `jsonb` cannot store (checked here, for the
 * one write, rather than by Postgres, which would refuse the whole batch it came in).
 */
function encoded(record: JournalRecord): string {
  let text = texts.get(record)
  if (text !== undefined) return text
  const {requestId: _id, ...rest} = record
  text = JSON.stringify(rest)
  if (Buffer.byteLength(text) > MAX_RECORD_BYTES) throw new MemError('payload_too_large', `A write's record is more than ${MAX_RECORD_BYTES} bytes of JSON.`, {hint: 'Send less in one write.'})
  if (NUL_IN_JSON.test(text)) {
    throw new MemError('invalid_input', 'The text holds a character Postgres cannot store (a NUL, \\u0000).', {hint: 'Remove the NUL characters and send it again.'})
  }
  texts.set(record, text)
  return text
}

/** At most this many memory ids in one audit row of deletions (the count says how many there were). */
const AUDIT_IDS = 100

export function replicaLog(pg: PgHandle, team: string, repo: string, options: ReplicaLogOptions): ReplicaLog {
  checkTeamName(team)
  checkRepoId(repo)
  const now = options.now ?? (() => new Date())
  const name = `${pg.shown} (team ${team}, repo ${repo})`
  return {
    name,

    async snapshot() {
      const rows = await pg.query<{seq: string; bytes: Buffer}>('SELECT seq, bytes FROM snapshots WHERE team = $1 AND repo = $2 ORDER BY seq DESC LIMIT 1', [team, repo])
      if (rows.length === 0) return null
      return {seq: Number(rows[0].seq), bytes: new Uint8Array(rows[0].bytes.buffer, rows[0].bytes.byteOffset, rows[0].bytes.byteLength)}
    },

    async snapshotSeq() {
      const rows = await pg.query<{seq: string | null}>('SELECT max(seq) AS seq FROM snapshots WHERE team = $1 AND repo = $2', [team, repo])
      return Number(rows[0]?.seq ?? 0)
    },

    async head() {
      const rows = await pg.query<{head: string}>('SELECT head FROM repos WHERE team = $1 AND repo = $2', [team, repo])
      return rows.length === 0 ? 0 : Number(rows[0].head)
    },

    async after(seq, limit) {
      const rows = await pg.query<{seq: string; record: JournalRecord}>('SELECT seq, record FROM ops WHERE team = $1 AND repo = $2 AND seq > $3 ORDER BY seq LIMIT $4', [team, repo, seq, limit])
      return rows.map((r) => ({seq: Number(r.seq), record: r.record}))
    },

    admit(record) {
      encoded(record)
    },

    async commit(seq, plan, requestIds = [], join) {
      try {
        // Two round trips (the connections pipeline, pool.ts): BEGIN, the head row locked with the
        // first records after the replica's place and the request ids' first records (read once
        // the lock is held: each statement of a transaction sees what committed before it ran);
        // then the batch's rows, the head moved and the audit, with the COMMIT.
        return await pg.transaction(async (client, tx) => {
          const at = now()
          const missed: ReplicaRecord[] = []
          const lockedSent = client.query<{head: string; seq: string | null; record: JournalRecord | null}>(
            `SELECT r.head, o.seq, o.record FROM repos r
               LEFT JOIN LATERAL (SELECT seq, record FROM ops WHERE team = r.team AND repo = r.repo AND seq > $3 ORDER BY seq LIMIT 1000) o ON true
             WHERE r.team = $1 AND r.repo = $2 FOR UPDATE OF r`,
            [team, repo, seq],
          )
          const replayedSent = requestIds.length > 0 ? replayedOf(client, team, repo, requestIds) : undefined
          replayedSent?.catch(() => undefined) // its failure is read below, or the lock's comes first
          const locked = await lockedSent
          let replayed: Map<string, JournalRecord>
          let head: number
          if (locked.rows.length > 0) {
            head = Number(locked.rows[0].head)
            replayed = (await replayedSent) ?? new Map()
          } else {
            // the repo's first write: made (and locked) the slow way, and its request ids read again
            // under that lock (the read above ran before it: a racing first writer's copy may have landed since)
            await replayedSent
            head = await lockHead(client, team, repo, at)
            replayed = requestIds.length > 0 ? await replayedOf(client, team, repo, requestIds) : new Map()
          }
          for (const r of locked.rows) if (r.seq !== null) missed.push({seq: Number(r.seq), record: r.record!})
          // every record after the replica's place, read under the lock: nothing can come between
          for (let from = missed.at(-1)?.seq ?? seq; from < head; ) {
            const rows = await client.query<{seq: string; record: JournalRecord}>('SELECT seq, record FROM ops WHERE team = $1 AND repo = $2 AND seq > $3 ORDER BY seq LIMIT 1000', [team, repo, from])
            if (rows.rows.length === 0) break
            for (const r of rows.rows) missed.push({seq: Number(r.seq), record: r.record})
            from = missed.at(-1)!.seq
          }
          // group commit: the writes queued while this transaction waited for the lock join it (their
          // request ids read under the lock too, in one more statement when there are new ones)
          const joined = join ? join().filter((id) => !requestIds.includes(id)) : []
          if (joined.length > 0) for (const [id, record] of await replayedOf(client, team, repo, joined)) replayed.set(id, record)
          const records = plan(missed, replayed)
          if (records.length === 0) throw new NothingToAppend()
          if (records.length > MAX_BATCH) throw new MemError('invalid_input', `A batch of ${records.length} records is more than ${MAX_BATCH}.`)
          const ids = records.map((r) => r.requestId ?? null)
          const json = records.map((r) => encoded(r))
          const seqs = json.map((_, i) => head + i + 1)
          const actors = records.map((r) => recordActor(r) ?? options.actor)
          // sent with the COMMIT, so checked in the statement: a head that did not move from the
          // one locked is a division by zero, which aborts the transaction (nothing is kept)
          tx.withCommit(
            client.query(
              `WITH appended AS (
                 INSERT INTO ops (team, repo, seq, record, actor, request_id, at)
                 SELECT $1, $2, s, r, a, q, $3 FROM unnest($4::bigint[], $5::jsonb[], $6::text[], $8::text[]) AS t(s, r, a, q)
               ), moved AS (
                 UPDATE repos SET head = $7 WHERE team = $1 AND repo = $2 AND head = $9 RETURNING 1
               )
               SELECT 1 / (SELECT count(*)::int FROM moved) AS moved`,
              [team, repo, at, seqs, json, actors, head + json.length, ids, head],
            ),
          )
          // deletions go to the audit, in the same transaction: who forgot or purged which memories
          const audit = deletions(records, seqs, actors)
          if (audit.length > 0) {
            tx.withCommit(
              client.query(
                `INSERT INTO audit (team, at, actor, action, repo, target, details)
                 SELECT $1, $2, a, x, $3, t, d FROM unnest($4::text[], $5::text[], $6::text[], $7::jsonb[]) AS u(a, x, t, d)`,
                [team, at, repo, audit.map((e) => e.actor), audit.map((e) => e.action), audit.map((e) => e.target), audit.map((e) => JSON.stringify(e.details))],
              ),
            )
          }
          return {seqs}
        })
      } catch (err) {
        if (err instanceof NothingToAppend || (err as {cause?: unknown})?.cause instanceof NothingToAppend) return {seqs: []}
        throw err
      }
    },

    actorNow: () => options.currentActor?.(),

    async tryMaintenanceLock() {
      const lock = await opLog(pg).tryMaintenanceLock(team, repo)
      return lock ? () => lock.release() : null
    },

    async tryMeaningLock() {
      const lock = await opLog(pg).tryMeaningLock(team, repo)
      return lock ? () => lock.release() : null
    },

    async saveSnapshot(seq, bytes) {
      try {
        return await pg.transaction(async (client) => {
          const got = await client.query<{ok: boolean}>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok', [`mem-snapshot:${team}/${repo}`])
          if (!got.rows[0]?.ok) return false
          await client.query('INSERT INTO snapshots (team, repo, seq, bytes, at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [
            team,
            repo,
            seq,
            Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
            now(),
          ])
          await client.query(
            `DELETE FROM snapshots WHERE team = $1 AND repo = $2 AND seq < (
               SELECT min(seq) FROM (SELECT seq FROM snapshots WHERE team = $1 AND repo = $2 ORDER BY seq DESC LIMIT $3) AS kept)`,
            [team, repo, SNAPSHOTS_KEPT],
          )
          return true
        })
      } catch (err) {
        throw pg.error(err)
      }
    },
  }
}

/** The audit rows of a batch's deletions: per record, one row per kind (forget, purge), naming the memories. */
function deletions(records: JournalRecord[], seqs: number[], actors: string[]): Array<{actor: string; action: string; target: string | null; details: {seq: number; count: number; ids: string[]}}> {
  const rows: Array<{actor: string; action: string; target: string | null; details: {seq: number; count: number; ids: string[]}}> = []
  for (const [i, record] of records.entries()) {
    const forgotten: string[] = []
    const purged: string[] = []
    for (const op of record.ops) {
      if (op.op === 'purge') purged.push(op.id)
      else if (op.op === 'update' && typeof op.set.forgottenAt === 'string') forgotten.push(op.id)
    }
    for (const [action, ids] of [['memory.forget', forgotten], ['memory.purge', purged]] as const) {
      if (ids.length === 0) continue
      rows.push({actor: actors[i], action, target: ids.length === 1 ? ids[0] : null, details: {seq: seqs[i], count: ids.length, ids: ids.slice(0, AUDIT_IDS)}})
    }
  }
  return rows
}
