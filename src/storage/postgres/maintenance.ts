/**
 * Team mode's maintenance runs and scheduled tasks, in the team store (docs/team.md):
 *
 * - `maintenance_runs`: one row per run id, so a run started on one replica is polled from any
 *   other. The replica running a pass holds a session advisory lock named after the pass for as
 *   long as it runs (taken before its rows are written, freed after they are finished). A row that
 *   says `running` while nobody holds its pass's lock belongs to a replica that died (or lost
 *   Postgres) mid-pass: whoever reads it marks it failed, "abandoned", instead of `running` forever.
 * - `maintenance_tasks`: one row per (team, repo, task) with when it is due. A replica claims a due
 *   task with `FOR UPDATE SKIP LOCKED` and moves its due time on by a lease in the same
 *   transaction, so a due task is run by one replica once; a claimer that dies leaves the task due
 *   again when the lease ends.
 */
import {MemError} from '../../model/errors.js'
import {checkRepoId, checkTeamName} from '../../model/team-names.js'
import type {PgHandle} from './pool.js'

export type RunKind = 'manual' | 'scheduled'
/** The table's statuses; the API says `completed` for `done`. */
export type RunRowStatus = 'running' | 'done' | 'failed'

export interface RunRow {
  team: string
  repo: string
  runId: string
  kind: RunKind
  status: RunRowStatus
  replica: string
  startedAt: Date
  finishedAt: Date | null
  /** `{report}` when done, `{error}` when failed. */
  result: {report?: unknown; error?: string} | null
}

/** A pass being run by this replica: its run rows, and the lock that says it is alive. */
export interface PassHold {
  /** Adds a run id reporting this pass (a retry joining it). */
  addRun(runId: string, kind: RunKind): Promise<void>
  /** Finishes every run row of the pass, then frees the pass's lock. Never throws: a lost connection frees the lock anyway. */
  finish(outcome: {status: 'done'; report: unknown} | {status: 'failed'; error: string}, at: Date): Promise<void>
}

export interface TaskRow {
  team: string
  repo: string
  task: string
  dueAt: Date
  state: {status?: string; lastRunAt?: string | null; lastError?: string | null}
  claimedBy: string | null
}

export interface MaintenanceTables {
  /**
   * Starts a pass of `team`'s `repo` on this replica: takes the pass's lock on a connection of its
   * own (held until `finish`), and writes the first run row (`running`).
   */
  startPass(p: {team: string; repo: string; passId: string; runId: string; kind: RunKind; replica: string; at: Date}): Promise<PassHold>
  /**
   * A run of `team`, or null when unknown or finished more than `retentionMs` before `now`. A row
   * still `running` whose pass's lock nobody holds is marked failed (abandoned) first.
   */
  run(team: string, runId: string, now: Date, retentionMs: number): Promise<RunRow | null>
  /** Deletes the runs finished more than `retentionMs` before `now`; answers how many. */
  sweepRuns(now: Date, retentionMs: number): Promise<number>
  /** Makes a `task` row for every repo with records that has none yet, due at `dueAt`. */
  ensureTasks(task: string, dueAt: Date): Promise<void>
  /**
   * Claims the most overdue task of kind `task` (due at or before `now`) nobody else is claiming:
   * its due time moves to `now + leaseMs` and it names `replica`, in the claiming transaction.
   */
  claimDue(task: string, replica: string, now: Date, leaseMs: number): Promise<TaskRow | null>
  /** Records a claimed task's outcome and when it is due next; frees the claim. */
  finishTask(p: {team: string; repo: string; task: string; dueAt: Date; state: TaskRow['state']}): Promise<void>
  /** Every task of kind `task` (every team's: the caller filters by tenant). */
  tasks(task: string): Promise<TaskRow[]>
}

const MAX_ERROR = 2_000

export function maintenanceTables(pg: PgHandle): MaintenanceTables {
  const passLock = (team: string, passId: string) => `mem-pass:${team}/${passId}`

  return {
    async startPass(p) {
      checkTeamName(p.team)
      checkRepoId(p.repo)
      const {client, done} = await pg.checkout()
      try {
        const got = await client.query<{ok: boolean}>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [passLock(p.team, p.passId)])
        if (!got.rows[0]?.ok) throw new MemError('internal', `The lock of maintenance pass ${p.passId} is held already.`)
        await insertRun(client, p.team, p.repo, p.runId, p.kind, p.replica, p.passId, p.at)
      } catch (err) {
        done(err)
        throw pg.error(err)
      }
      const runIds = [p.runId]
      let finished = false
      return {
        async addRun(runId, kind) {
          if (finished) throw new MemError('internal', `Maintenance pass ${p.passId} has finished.`)
          // its own statement on the pool: the pass's connection may be busy finishing
          await pg.query(
            `INSERT INTO maintenance_runs (team, repo, run_id, kind, status, replica, started_at, progress)
             SELECT team, repo, $3, $4, status, replica, started_at, progress FROM maintenance_runs WHERE team = $1 AND run_id = $2`,
            [p.team, p.runId, runId, kind],
          )
          runIds.push(runId)
        },
        async finish(outcome, at) {
          if (finished) return
          finished = true
          const result = outcome.status === 'done' ? {report: outcome.report} : {error: outcome.error.slice(0, MAX_ERROR)}
          try {
            await client.query(
              "UPDATE maintenance_runs SET status = $3, finished_at = $4, result = $5 WHERE team = $1 AND run_id = ANY($2::text[]) AND status = 'running'",
              [p.team, runIds, outcome.status, at, JSON.stringify(result)],
            )
            await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [passLock(p.team, p.passId)])
            done()
          } catch (err) {
            // the connection is gone, and the lock with it: a reader marks the rows abandoned
            done(err)
          }
        },
      }
    },

    async run(team, runId, now, retentionMs) {
      checkTeamName(team)
      const rows = await pg.query<DbRun>('SELECT * FROM maintenance_runs WHERE team = $1 AND run_id = $2', [team, runId])
      let row = rows[0]
      if (!row) return null
      if (row.status === 'running') {
        const passId = (row.progress as {pass?: string} | null)?.pass ?? ''
        row = await pg.transaction(async (client) => {
          // the runner took this lock before writing the row and holds it until the row is finished:
          // getting it means the runner is gone (its connection, and with it the lock, died)
          const free = await client.query<{ok: boolean}>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok', [passLock(team, passId)])
          if (!free.rows[0]?.ok) return row!
          const error = `abandoned: the replica running it (${row!.replica}) stopped or lost the team store before the pass finished`
          const updated = await client.query<DbRun>(
            `UPDATE maintenance_runs SET status = 'failed', finished_at = $3, result = $4
             WHERE team = $1 AND progress->>'pass' = $2 AND status = 'running' RETURNING *`,
            [team, passId, now, JSON.stringify({error})],
          )
          return updated.rows.find((r) => r.run_id === runId) ?? (await client.query<DbRun>('SELECT * FROM maintenance_runs WHERE team = $1 AND run_id = $2', [team, runId])).rows[0]
        })
      }
      if (row.finished_at && now.getTime() - row.finished_at.getTime() >= retentionMs) return null
      return toRun(row)
    },

    async sweepRuns(now, retentionMs) {
      const rows = await pg.query("DELETE FROM maintenance_runs WHERE status <> 'running' AND finished_at <= $1 RETURNING 1", [new Date(now.getTime() - retentionMs)])
      return rows.length
    },

    async ensureTasks(task, dueAt) {
      await pg.query(
        `INSERT INTO maintenance_tasks (team, repo, task, due_at)
         SELECT team, repo, $1, $2 FROM repos WHERE head > 0 ON CONFLICT DO NOTHING`,
        [task, dueAt],
      )
    },

    async claimDue(task, replica, now, leaseMs) {
      return pg.transaction(async (client) => {
        const due = await client.query<DbTask>(
          'SELECT * FROM maintenance_tasks WHERE task = $1 AND due_at <= $2 ORDER BY due_at LIMIT 1 FOR UPDATE SKIP LOCKED',
          [task, now],
        )
        const row = due.rows[0]
        if (!row) return null
        const claimed = await client.query<DbTask>(
          `UPDATE maintenance_tasks SET due_at = $4, claimed_by = $5, claimed_at = $6,
             state = state || jsonb_build_object('status', 'running')
           WHERE team = $1 AND repo = $2 AND task = $3 RETURNING *`,
          [row.team, row.repo, task, new Date(now.getTime() + leaseMs), replica, now],
        )
        return toTask(claimed.rows[0])
      })
    },

    async finishTask(p) {
      await pg.query('UPDATE maintenance_tasks SET due_at = $4, state = $5, claimed_by = NULL, claimed_at = NULL WHERE team = $1 AND repo = $2 AND task = $3', [
        p.team,
        p.repo,
        p.task,
        p.dueAt,
        JSON.stringify({...p.state, lastError: p.state.lastError?.slice(0, MAX_ERROR) ?? null}),
      ])
    },

    async tasks(task) {
      const rows = await pg.query<DbTask>('SELECT * FROM maintenance_tasks WHERE task = $1 ORDER BY team, repo', [task])
      return rows.map(toTask)
    },
  }
}

type DbRun = {
  team: string
  repo: string
  run_id: string
  kind: string
  status: string
  replica: string
  started_at: Date
  finished_at: Date | null
  progress: unknown
  result: RunRow['result']
}

type DbTask = {
  team: string
  repo: string
  task: string
  due_at: Date
  state: TaskRow['state'] | null
  claimed_by: string | null
}

async function insertRun(client: import('pg').PoolClient, team: string, repo: string, runId: string, kind: RunKind, replica: string, passId: string, at: Date): Promise<void> {
  await client.query(
    `INSERT INTO maintenance_runs (team, repo, run_id, kind, status, replica, started_at, progress)
     VALUES ($1, $2, $3, $4, 'running', $5, $6, $7)`,
    [team, repo, runId, kind, replica, at, JSON.stringify({pass: passId})],
  )
}

function toRun(r: DbRun): RunRow {
  return {
    team: r.team,
    repo: r.repo,
    runId: r.run_id,
    kind: r.kind === 'scheduled' ? 'scheduled' : 'manual',
    status: r.status === 'done' ? 'done' : r.status === 'running' ? 'running' : 'failed',
    replica: r.replica,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    result: r.result,
  }
}

function toTask(r: DbTask): TaskRow {
  return {team: r.team, repo: r.repo, task: r.task, dueAt: r.due_at, state: r.state ?? {}, claimedBy: r.claimed_by}
}
