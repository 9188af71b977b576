// The team store's schema against a real Postgres: made once by racing replicas, a newer one
// refused and left as it is, and connection failures that say what to fix without the password.
import pg from 'pg'
import {describe, expect, it, onTestFinished} from 'vitest'
import {MemError} from '../../../src/model/errors.js'
import {openTeamDb, SCHEMA_VERSION} from '../../../src/storage/postgres/index.js'
import {MIGRATION_LOCK, MIGRATIONS} from '../../../src/storage/postgres/schema.js'
import {maskUrl} from '../../../src/config/store-url.js'
import {closedPort, freshDatabase} from '../../helpers/pg.js'

const open = (url: string) => openTeamDb({url, shown: maskUrl(new URL(url))})

async function tables(url: string): Promise<string[]> {
  const client = new pg.Client({connectionString: url})
  await client.connect()
  try {
    const r = await client.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
    return r.rows.map((x) => x.tablename as string)
  } finally {
    await client.end()
  }
}

async function versions(url: string): Promise<number[]> {
  const client = new pg.Client({connectionString: url})
  await client.connect()
  try {
    return (await client.query('SELECT version FROM mem_schema ORDER BY version')).rows.map((r) => r.version as number)
  } finally {
    await client.end()
  }
}

const ALL_TABLES = ['api_keys', 'audit', 'maintenance_runs', 'maintenance_tasks', 'mem_schema', 'ops', 'repos', 'snapshots', 'teams']

describe('team store schema', () => {
  it('an empty database gets every table and its version; opening again changes nothing', async () => {
    const {url} = await freshDatabase()
    const db = await open(url)
    expect(db.schema).toEqual({from: 0, to: SCHEMA_VERSION, applied: MIGRATIONS.map((m) => m.version)})
    await db.close()
    expect(await tables(url)).toEqual(ALL_TABLES)
    const again = await open(url)
    expect(again.schema).toEqual({from: SCHEMA_VERSION, to: SCHEMA_VERSION, applied: []})
    await again.close()
    expect(await versions(url)).toEqual(MIGRATIONS.map((m) => m.version))
  })

  it('a database at version 1 is brought to the current one; snapshots are compressed with lz4', async () => {
    const {url} = await freshDatabase()
    const client = new pg.Client({connectionString: url})
    await client.connect()
    onTestFinished(() => client.end())
    // the database as the first team mode made it
    await client.query('CREATE TABLE mem_schema (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())')
    await client.query(MIGRATIONS[0].sql)
    await client.query('INSERT INTO mem_schema (version, name) VALUES (1, $1)', [MIGRATIONS[0].name])
    const db = await open(url)
    expect(db.schema).toEqual({from: 1, to: SCHEMA_VERSION, applied: MIGRATIONS.slice(1).map((m) => m.version)})
    await db.close()
    // Debian's and the official builds have lz4 (a server without it keeps pglz, and says nothing)
    const column = await client.query("SELECT attcompression AS c FROM pg_attribute WHERE attrelid = 'snapshots'::regclass AND attname = 'bytes'")
    expect(column.rows[0].c).toBe('l')
  })

  it('replicas booting together on an empty database make one schema (four connections racing)', async () => {
    const {url} = await freshDatabase()
    const results = await Promise.allSettled([open(url), open(url), open(url), open(url)])
    const failures = results.filter((r) => r.status === 'rejected')
    expect(failures).toEqual([])
    const dbs = results.map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof open>>>).value)
    // exactly one of them applied the migrations; the others waited and found them done
    expect(dbs.filter((d) => d.schema.applied.length > 0).length).toBe(1)
    await Promise.all(dbs.map((d) => d.close()))
    expect(await versions(url)).toEqual(MIGRATIONS.map((m) => m.version))
    expect(await tables(url)).toEqual(ALL_TABLES)
  })

  it('a migration waits for the advisory lock another connection holds', async () => {
    const {url} = await freshDatabase()
    const holder = new pg.Client({connectionString: url})
    holder.on('error', () => {})
    await holder.connect()
    // pg_stat_activity is read from a connection outside any transaction (inside one, it is a snapshot)
    const watcher = new pg.Client({connectionString: url})
    watcher.on('error', () => {})
    await watcher.connect()
    await holder.query('BEGIN')
    await holder.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`)
    const opening = open(url)
    // the opener's connection shows up waiting on an advisory lock, and the schema is not there yet
    for (let tries = 0; ; tries++) {
      if (tries > 1000) throw new Error('the opener never waited on the lock')
      const r = await watcher.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'")
      if (r.rows[0].n === 1) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect((await holder.query("SELECT to_regclass('teams')::text AS t")).rows[0].t).toBe(null)
    await holder.query('COMMIT')
    await holder.end()
    await watcher.end()
    const db = await opening
    expect(db.schema.applied).toEqual(MIGRATIONS.map((m) => m.version))
    await db.close()
  })

  it('a schema newer than this code is refused and left untouched', async () => {
    const {url} = await freshDatabase()
    await (await open(url)).close()
    const client = new pg.Client({connectionString: url})
    await client.connect()
    await client.query("INSERT INTO mem_schema (version, name) VALUES ($1, 'from the future')", [SCHEMA_VERSION + 1])
    const err = await open(url).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(MemError)
    expect((err as MemError).code).toBe('unavailable')
    expect((err as MemError).exitCode).toBe(69)
    expect((err as MemError).message).toContain(`schema version ${SCHEMA_VERSION + 1}, newer than this mem understands (${SCHEMA_VERSION})`)
    expect((await client.query('SELECT version FROM mem_schema ORDER BY version')).rows.map((r) => r.version)).toEqual([...MIGRATIONS.map((m) => m.version), SCHEMA_VERSION + 1])
    await client.end()
  })

  it('Postgres unreachable: unavailable (exit 69), the URL shown without its password', async () => {
    const port = await closedPort()
    const url = `postgres://mem:hunter2-very-secret@127.0.0.1:${port}/mem`
    const err = (await open(url).catch((e: unknown) => e)) as MemError
    expect(err).toBeInstanceOf(MemError)
    expect(err.code).toBe('unavailable')
    expect(err.exitCode).toBe(69)
    expect(err.message).toBe(`Postgres at postgres://mem:***@127.0.0.1:${port}/mem cannot be reached (connection refused).`)
    expect(JSON.stringify({m: err.message, h: err.hint})).not.toContain('hunter2')
  })

  it('a database that does not exist says so and how to make it', async () => {
    const {url} = await freshDatabase()
    const missing = new URL(url)
    missing.pathname = '/no_such_db_here'
    missing.password = 'pw-secret-1'
    const err = (await open(missing.href).catch((e: unknown) => e)) as MemError
    expect(err.code).toBe('unavailable')
    expect(err.message).toContain('the database does not exist')
    expect(err.message).toContain(':***@')
    expect(err.hint).toContain('createdb')
    expect(JSON.stringify({m: err.message, h: err.hint})).not.toContain('pw-secret-1')
  })
})

