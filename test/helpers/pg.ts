// The Postgres of the team-store tests (see pg-global-setup.ts): the server's URL, and a fresh
// database per test, dropped when the test ends.
import {existsSync, readFileSync} from 'node:fs'
import {setTimeout as sleep} from 'node:timers/promises'
import pg from 'pg'
import {inject, onTestFinished} from 'vitest'

let serverUrl: Promise<string> | undefined

/** The test server's URL (the one CI gives, or the one started for this run). Throws when there is none. */
export function pgServerUrl(): Promise<string> {
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
  const deadline = Date.now() + 90_000
  while (!existsSync(statusFile)) {
    if (Date.now() > deadline) throw new Error('The test Postgres did not start within 90 s (scripts/pg-cluster.mjs).')
    await sleep(50)
  }
  const status = readFileSync(statusFile, 'utf8').trim()
  if (status.startsWith('ready ')) return status.slice('ready '.length)
  throw new Error(`The test Postgres could not be started: ${status.replace(/^failed /, '')}`)
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
