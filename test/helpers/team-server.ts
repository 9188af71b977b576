// Team mode servers for tests: a team store on a fresh database of the test Postgres, teams and
// keys in it, and replicas of `mem serve --store` over it — in this process (startServer with a
// team runtime) or as real processes (bin/run.js serve --store), each stopped when the test ends.
import {spawn, type ChildProcess} from 'node:child_process'
import {createServer, Socket, type Server} from 'node:net'
import {join} from 'node:path'
import {onTestFinished} from 'vitest'
import {maskUrl} from '../../src/config/store-url.js'
import {startServer, type StartServerOptions} from '../../src/faces/server/serve.js'
import {teamAuth} from '../../src/faces/server/team.js'
import {createTeam, createTeamKey} from '../../src/operations/team.js'
import type {MeaningSetting} from '../../src/config/user-config.js'
import {openTeamRuntime} from '../../src/runtime/team-store.js'
import {openTeamDb, type TeamDb} from '../../src/storage/postgres/index.js'
import {BIN} from './cli.js'
import type {Clock} from './mem.js'
import {tempDir} from './mem.js'
import {freshDatabase} from './pg.js'

const call = {now: new Date('2026-03-01T12:00:00.000Z'), actor: 'test'}

/** A team store on a fresh database, closed when the test ends. */
export async function teamStore(url?: string, applicationName?: string): Promise<{db: TeamDb; url: string}> {
  const where = url ?? (await freshDatabase()).url
  const db = await openTeamDb({url: where, shown: maskUrl(new URL(where)), ...(applicationName ? {applicationName} : {})})
  onTestFinished(() => db.close())
  return {db, url: where}
}

/** Makes `team` and a key of it; answers the key's text. */
export async function teamKey(db: TeamDb, team: string, name: string, scope: 'read' | 'write' | 'admin', repos?: string[]): Promise<string> {
  if (!(await db.teams.teamExists(team))) await createTeam(db, {name: team}, call)
  return (await createTeamKey(db, {name, team, scope, ...(repos ? {repos} : {})}, call)).key
}

/** A replica of `mem serve --store` in this process, over its own connection pool to `url`. */
export async function inProcessReplica(
  url: string,
  options: {
    name?: string
    clock?: Clock
    maintenance?: StartServerOptions['maintenance']
    hotRepos?: number
    /** The meaning model (off when not given, as the team runtime's default) and how often its background drain runs. */
    meaning?: MeaningSetting
    meaningDrainMs?: number
    notices?: string[]
    /** Usage statistics (on in `mem serve --store`): off here unless a test asks, so that no timer writes to the log of a test that counts its rows or statements. */
    usage?: {flushMs?: number}
  } = {},
) {
  const {db} = await teamStore(url, options.name)
  const runtime = openTeamRuntime(db, {
    home: tempDir('mem-team-home-'),
    replicaName: options.name ?? 'test-replica',
    usage: options.usage ?? false,
    ...(options.clock ? {now: options.clock} : {}),
    ...(options.hotRepos ? {hotRepos: options.hotRepos} : {}),
    ...(options.meaning ? {meaning: options.meaning} : {}),
    ...(options.notices ? {onNotice: (m: string) => options.notices!.push(m)} : {}),
  })
  onTestFinished(() => runtime.close())
  const internalErrors: unknown[] = []
  const server = await startServer({
    runtime,
    port: 0,
    updateCheck: false,
    team: teamAuth(db, runtime),
    onInternalError: (err) => internalErrors.push(err),
    ...(options.maintenance ? {maintenance: options.maintenance} : {}),
    ...(options.meaningDrainMs ? {meaningDrainMs: options.meaningDrainMs} : {}),
  })
  onTestFinished(() => server.close())
  return {url: server.url, runtime, internalErrors}
}

/**
 * `mem serve --store URL --port 0 --json` as a process of its own (meaning off unless `env` sets
 * MEM_MEANING); `kill()` sends SIGKILL.
 */
export async function processReplica(storeUrl: string, options: {env?: Record<string, string>} = {}): Promise<{url: string; child: ChildProcess; stderr: () => string; kill(): Promise<void>}> {
  const home = tempDir('mem-team-home-')
  const child = spawn(process.execPath, [BIN, 'serve', '--store', storeUrl, '--port', '0', '--json'], {
    env: {...process.env, MEM_HOME: home, MEM_STORE: '', MEM_MEANING: 'off', ...options.env},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let err = ''
  child.stderr!.on('data', (d: Buffer) => (err += d))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await exited
  })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    const onData = (d: Buffer) => {
      out += d
      const line = out.split('\n')[0]
      if (out.includes('\n')) {
        child.stdout!.off('data', onData)
        try {
          resolve(JSON.parse(line).api as string)
        } catch {
          reject(new Error(`mem serve --store printed ${line}; stderr: ${err}`))
        }
      }
    }
    child.stdout!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`mem serve --store exited ${code} before listening: ${err}`)))
  })
  return {
    url,
    child,
    stderr: () => err,
    async kill() {
      child.kill('SIGKILL')
      await exited
    },
  }
}

/**
 * A TCP relay on a free loopback port to the test Postgres: `down()` refuses and cuts every
 * connection (Postgres unreachable, as when it stops), `up()` relays again on the same port.
 */
export async function pgRelay(url: string): Promise<{url: string; down(): Promise<void>; up(): Promise<void>}> {
  const target = new URL(url)
  const sockets = new Set<Socket>()
  let server: Server | undefined
  let port = 0
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((inbound) => {
        const outbound = new Socket()
        sockets.add(inbound).add(outbound)
        const drop = () => {
          inbound.destroy()
          outbound.destroy()
          sockets.delete(inbound)
          sockets.delete(outbound)
        }
        inbound.on('error', drop).on('close', drop)
        outbound.on('error', drop).on('close', drop)
        outbound.connect(Number(target.port), target.hostname, () => {
          inbound.pipe(outbound)
          outbound.pipe(inbound)
        })
      })
      s.once('error', reject)
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as {port: number}).port
        server = s
        resolve()
      })
    })
  const down = async () => {
    const s = server
    server = undefined
    for (const socket of sockets) socket.destroy()
    sockets.clear()
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()))
  }
  await listen()
  onTestFinished(down)
  const relayed = new URL(url)
  relayed.port = String(port)
  return {url: relayed.href, down, up: listen}
}

/** A JSON request to a replica with a key; answers status and body. */
export async function call_(base: string, key: string | undefined, method: string, path: string, body?: unknown): Promise<{status: number; body: any}> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {...(key ? {authorization: `Bearer ${key}`} : {}), ...(body === undefined ? {} : {'content-type': 'application/json'})},
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {
    // not JSON: the text as it is
  }
  return {status: res.status, body: parsed}
}
export {call_ as api}

/**
 * A Postgres cluster of the test's own (scripts/pg-cluster.mjs), so that killing it breaks no other
 * test: `kill()` is `pg_ctl -m immediate` (a crash: no checkpoint; fsync stays on, as shipped),
 * `restart()` starts it again on the same port (replaying its WAL). Removed when the test ends.
 */
export async function ownCluster(): Promise<{url: string; dir: string; port: number; kill(): Promise<void>; restart(): Promise<void>}> {
  const script = join(import.meta.dirname, '..', '..', 'scripts', 'pg-cluster.mjs')
  const node = (args: string[]) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [script, ...args], {stdio: ['ignore', 'pipe', 'pipe']})
      let out = ''
      let err = ''
      child.stdout!.on('data', (d: Buffer) => (out += d))
      child.stderr!.on('data', (d: Buffer) => (err += d))
      child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`pg-cluster ${args[0]} exited ${code}: ${err.trim()}`))))
    })
  const out = await node(['start'])
  const url = /MEM_TEST_PG_URL='([^']+)'/.exec(out)?.[1]
  const dir = /MEM_TEST_PG_DIR='([^']+)'/.exec(out)?.[1]
  if (!url || !dir) throw new Error(`pg-cluster start printed ${out}`)
  onTestFinished(() => node(['stop', dir]).then(() => undefined))
  const port = Number(new URL(url).port)
  return {url, dir, port, kill: () => node(['kill', dir]).then(() => undefined), restart: () => node(['restart', dir, String(port)]).then(() => undefined)}
}
