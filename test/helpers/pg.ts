// The Postgres of the team-store tests (see pg-global-setup.ts): the server's URL, and a fresh
// database per test, dropped when the test ends.
import {spawn} from 'node:child_process'
import {closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {join} from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'
import pg from 'pg'
import {expect, inject, onTestFinished} from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
let serverUrl: Promise<string> | undefined

/** The test server's URL (the one CI gives, or the one started for this run). Throws when there is none. */
export function pgServerUrl(): Promise<string> {
  // the fast part needs none of what test-prepare sets up, and a cluster's start is most of its minute
  if (inject('suitePart') === 'fast') {
    throw new Error(`${expect.getState().testPath ?? 'This test file'} asks for Postgres but is in the fast part of the suite: list it in SLOW_TESTS (vitest.config.ts).`)
  }
  serverUrl ??= findServer()
  return serverUrl
}

async function findServer(): Promise<string> {
  const given = inject('pgUrl')
  if (given) return given
  const statusFile = inject('pgStatusFile')
  if (!statusFile) {
    throw new Error('MEM_TEST_PG_URL is not set: under CI=true the team-store tests need a Postgres. .ci/run starts one (scripts/pg-cluster.mjs); or export MEM_TEST_PG_URL=postgres://…')
  }
  // the first worker to get here starts the run's cluster; the others wait for its status
  if (!existsSync(statusFile) && claim(`${statusFile}.lock`)) await startCluster(statusFile)
  const deadline = Date.now() + 120_000
  while (!existsSync(statusFile)) {
    if (Date.now() > deadline) throw new Error('The test Postgres did not start within 120 s (scripts/pg-cluster.mjs).')
    await sleep(50)
  }
  const status = readFileSync(statusFile, 'utf8').trim()
  const ready = /^ready (\S+) /.exec(status)
  if (ready) return ready[1]
  throw new Error(`The test Postgres could not be started: ${status.replace(/^failed /, '')}`)
}

function claim(lock: string): boolean {
  try {
    closeSync(openSync(lock, 'wx'))
    return true
  } catch {
    return false
  }
}

function startCluster(statusFile: string): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'pg-cluster.mjs'), 'start'], {stdio: ['ignore', 'pipe', 'pipe']})
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.on('close', (code) => {
      const url = /MEM_TEST_PG_URL='([^']+)'/.exec(out)?.[1]
      const dir = /MEM_TEST_PG_DIR='([^']+)'/.exec(out)?.[1]
      writeFileSync(`${statusFile}.tmp`, code === 0 && url && dir ? `ready ${url} ${dir}\n` : `failed ${err.trim() || `pg-cluster exited ${code}`}\n`)
      // renamed into place: a reader never sees half a line
      renameSync(`${statusFile}.tmp`, statusFile)
      resolve()
    })
  })
}

let counter = 0

/** A new, empty database on the test server, dropped (connections and all) when the test ends. */
export async function freshDatabase(): Promise<{url: string; name: string}> {
  const server = await pgServerUrl()
  const name = `mem_t_${process.pid}_${Date.now().toString(36)}_${counter++}`
  await admin(server, `CREATE DATABASE ${name}`)
  onTestFinished(async () => {
    await admin(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  })
  const url = new URL(server)
  url.pathname = `/${name}`
  return {url: url.href, name}
}

/** One statement on the server's maintenance database. */
export async function admin(server: string, sql: string, values?: unknown[]): Promise<pg.QueryResult> {
  const client = new pg.Client({connectionString: server})
  await client.connect()
  try {
    return await client.query(sql, values)
  } finally {
    await client.end()
  }
}

/** The rows of one statement on a database (`admin` on any URL). */
export async function rows(url: string, sql: string, values: unknown[] = []): Promise<any[]> {
  return (await admin(url, sql, values)).rows
}

/** A loopback port nothing listens on (taken, then freed). */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address() as {port: number}
      server.close(() => resolve(port))
    })
  })
}

/** A client of a database, closed when the test ends (its errors once the server is gone are the test's to see through its queries). */
export async function pgClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({connectionString: url})
  client.on('error', () => {})
  await client.connect()
  onTestFinished(() => client.end().catch(() => undefined))
  return client
}

/** Polls `check` (a state of the system, not a time) until it holds. */
export async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; !(await check()); tries++) {
    if (tries > 2000) throw new Error(`never: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/** Holds a repo's head row of team acme (as another replica's write transaction does) until `release()`; `waiting()` counts the backends queued on a lock. */
export async function holdHead(url: string, repo: string): Promise<{release(): Promise<void>; waiting(): Promise<number>}> {
  const holder = await pgClient(url)
  const watch = await pgClient(url)
  await holder.query('BEGIN')
  await holder.query("SELECT head FROM repos WHERE team = 'acme' AND repo = $1 FOR UPDATE", [repo])
  return {
    release: async () => void (await holder.query('COMMIT')),
    waiting: async () => Number((await watch.query("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows[0].n),
  }
}
