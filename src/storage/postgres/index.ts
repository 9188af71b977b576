/**
 * The team store: Postgres as the journal and coordinator of team mode (docs/team.md). Opening it
 * connects, brings the schema up to date (or refuses a newer one), and hands out the ops table
 * (the append path and catch-up reads) and the teams' tables (teams, keys, audit).
 */
import {migrate, type MigrateResult} from './schema.js'
import {opLog, type OpLog} from './op-log.js'
import {openPg, type PgHandle, type PgOptions} from './pool.js'
import {teamTables, type TeamStoreTables} from './teams.js'
import {replicaLog, type ReplicaLogOptions} from './replica-log.js'
import {maintenanceTables, type MaintenanceTables} from './maintenance.js'
import type {ReplicaLog} from '../replica.js'

export type {AppendEntry, AppendOptions, AppendResult, AppendedEntry, MaintenanceLock, OpLog, OpRow} from './op-log.js'
export type {MaintenanceTables, PassHold, RunKind, RunRow, TaskRow} from './maintenance.js'
export type {TeamKeyRow, TeamRow, TeamScope, TeamStoreTables} from './teams.js'
export type {PgHandle, PgOptions} from './pool.js'
export {SCHEMA_VERSION} from './schema.js'

export interface TeamDb {
  readonly pg: PgHandle
  readonly ops: OpLog
  readonly teams: TeamStoreTables
  /** Maintenance runs and scheduled tasks (maintenance.ts). */
  readonly maintenance: MaintenanceTables
  /** One team repo's ops as the log a RepoStore replica reads and writes (replica-log.ts). */
  replica(team: string, repo: string, options: ReplicaLogOptions): ReplicaLog
  /** The repos of `team` (those with a record), by id. */
  repos(team: string): Promise<string[]>
  /** What opening did to the schema. */
  readonly schema: MigrateResult
  close(): Promise<void>
}

/** Connects and migrates. Fails `unavailable` (exit 69, 503) when Postgres cannot be reached or its schema is newer. */
export async function openTeamDb(options: PgOptions): Promise<TeamDb> {
  const pg = await openPg(options)
  let schema: MigrateResult
  try {
    schema = await migrate(pg)
  } catch (err) {
    await pg.close().catch(() => {})
    throw pg.error(err)
  }
  return {
    pg,
    ops: opLog(pg),
    teams: teamTables(pg),
    maintenance: maintenanceTables(pg),
    schema,
    replica: (team, repo, options) => replicaLog(pg, team, repo, options),
    async repos(team) {
      const rows = await pg.query<{repo: string}>('SELECT repo FROM repos WHERE team = $1 AND head > 0 ORDER BY repo', [team])
      return rows.map((r) => r.repo)
    },
    close: () => pg.close(),
  }
}
