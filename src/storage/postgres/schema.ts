/**
 * The team store's schema: numbered migrations, applied in order under one advisory lock, each
 * in the same transaction as the version it records. Replicas booting together on an empty
 * database make one schema: the first takes the lock and migrates, the others wait for it, then
 * find nothing left to do. A database whose schema is newer than this code is refused, never
 * rewritten (as the file store refuses a newer journal).
 *
 * Every table is keyed by team first: no statement of mem's reads or writes a row without naming
 * its team.
 */
import {MemError} from '../../model/errors.js'
import type {PgHandle} from './pool.js'

/** A fixed key for pg_advisory_xact_lock: 'mem-sch' in ASCII (0x6d656d2d736368), as a bigint. */
export const MIGRATION_LOCK = '30792292049838952'

export const MIGRATIONS: ReadonlyArray<{version: number; name: string; sql: string}> = [
  {
    version: 1,
    name: 'teams, keys, repos, ops, snapshots, maintenance, audit',
    sql: `
CREATE TABLE teams (
  team text PRIMARY KEY,
  created_at timestamptz NOT NULL
);

-- a key is stored as the sha-256 of its text (the key is 32 random bytes: nothing to guess)
CREATE TABLE api_keys (
  key_hash text PRIMARY KEY CHECK (key_hash ~ '^[0-9a-f]{64}$'),
  team text NOT NULL REFERENCES teams (team),
  name text NOT NULL,
  prefix text NOT NULL,
  scope text NOT NULL CHECK (scope IN ('read', 'write', 'admin')),
  repos text[],
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE UNIQUE INDEX api_keys_live_name ON api_keys (team, name) WHERE revoked_at IS NULL;

CREATE TABLE repos (
  team text NOT NULL REFERENCES teams (team),
  repo text NOT NULL,
  head bigint NOT NULL DEFAULT 0 CHECK (head >= 0),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (team, repo)
);

CREATE TABLE ops (
  team text NOT NULL,
  repo text NOT NULL,
  seq bigint NOT NULL CHECK (seq >= 1),
  record jsonb NOT NULL,
  actor text NOT NULL,
  request_id text,
  at timestamptz NOT NULL,
  PRIMARY KEY (team, repo, seq),
  FOREIGN KEY (team, repo) REFERENCES repos (team, repo)
);
CREATE UNIQUE INDEX ops_request ON ops (team, repo, request_id) WHERE request_id IS NOT NULL;

CREATE TABLE snapshots (
  team text NOT NULL,
  repo text NOT NULL,
  seq bigint NOT NULL,
  bytes bytea NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (team, repo, seq),
  FOREIGN KEY (team, repo) REFERENCES repos (team, repo)
);

CREATE TABLE maintenance_tasks (
  team text NOT NULL,
  repo text NOT NULL,
  task text NOT NULL,
  due_at timestamptz NOT NULL,
  state jsonb NOT NULL DEFAULT '{}'::jsonb,
  claimed_by text,
  claimed_at timestamptz,
  PRIMARY KEY (team, repo, task),
  FOREIGN KEY (team, repo) REFERENCES repos (team, repo)
);
CREATE INDEX maintenance_tasks_due ON maintenance_tasks (due_at);

CREATE TABLE maintenance_runs (
  team text NOT NULL,
  repo text NOT NULL,
  run_id text NOT NULL,
  kind text NOT NULL,
  status text NOT NULL CHECK (status IN ('running', 'done', 'failed', 'cancelled')),
  replica text NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz,
  progress jsonb,
  result jsonb,
  PRIMARY KEY (team, run_id),
  FOREIGN KEY (team, repo) REFERENCES repos (team, repo)
);
CREATE INDEX maintenance_runs_repo ON maintenance_runs (team, repo, started_at DESC);

CREATE TABLE audit (
  id bigserial PRIMARY KEY,
  team text NOT NULL REFERENCES teams (team),
  at timestamptz NOT NULL,
  actor text NOT NULL,
  action text NOT NULL,
  repo text,
  target text,
  details jsonb
);
CREATE INDEX audit_team_at ON audit (team, at);
`,
  },
  {
    version: 2,
    name: 'snapshots compressed with lz4',
    // a snapshot is ~15 MB at 10k memories: pglz (the default) took ~330 ms of the server's CPU to
    // keep one, lz4 ~70 ms. A server built without lz4 keeps pglz (new rows only either way).
    sql: `
DO $$
BEGIN
  EXECUTE 'ALTER TABLE snapshots ALTER COLUMN bytes SET COMPRESSION lz4';
EXCEPTION WHEN feature_not_supported OR syntax_error THEN
  NULL;
END
$$;
`,
  },
]

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version

export interface MigrateResult {
  /** The schema version before (0: an empty database). */
  from: number
  to: number
  applied: number[]
}

/**
 * Brings the database to this code's schema. Cheap when it is there already (one read, no lock).
 * Throws `unavailable` for a schema newer than this code (nothing is changed).
 */
export async function migrate(pg: PgHandle): Promise<MigrateResult> {
  const seen = await currentVersion(pg)
  if (seen !== undefined) {
    refuseNewer(seen, pg.shown)
    if (seen === SCHEMA_VERSION) return {from: seen, to: seen, applied: []}
  }
  return pg.transaction(async (client) => {
    // held to the end of this transaction: a second replica waits here, then finds the work done
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`)
    await client.query('CREATE TABLE IF NOT EXISTS mem_schema (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())')
    const rows = (await client.query<{v: number | null}>('SELECT max(version) AS v FROM mem_schema')).rows
    const from = rows[0]?.v ?? 0
    refuseNewer(from, pg.shown)
    const applied: number[] = []
    for (const m of MIGRATIONS) {
      if (m.version <= from) continue
      await client.query(m.sql)
      await client.query('INSERT INTO mem_schema (version, name) VALUES ($1, $2)', [m.version, m.name])
      applied.push(m.version)
    }
    return {from, to: SCHEMA_VERSION, applied}
  })
}

/** The recorded schema version; undefined when mem's table is not there (an empty database). */
export async function currentVersion(pg: PgHandle): Promise<number | undefined> {
  const exists = await pg.query<{t: string | null}>("SELECT to_regclass('mem_schema')::text AS t")
  if (!exists[0]?.t) return undefined
  const rows = await pg.query<{v: number | null}>('SELECT max(version) AS v FROM mem_schema')
  return rows[0]?.v ?? 0
}

function refuseNewer(version: number, shown: string): void {
  if (version > SCHEMA_VERSION) {
    throw new MemError('unavailable', `The team store at ${shown} has schema version ${version}, newer than this mem understands (${SCHEMA_VERSION}). It was left untouched.`, {
      hint: 'Upgrade mem here to the version the other replicas run (stop all replicas, start the new version).',
    })
  }
}
