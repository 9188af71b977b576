// The two stores the storage contract suite and the recall identity test run against, made the
// same way: (a) the local file store (sql.js under a repo's .mem/) and (b) team mode (a team repo
// of Postgres, kept by replicas: storage/replica.ts over postgres/replica-log.ts).
//
// `contractStore(kind)` gives two handles on one store, each a MemClient of a `mem serve` of this
// process: for the file store two local servers, each with its own context (RepoStore) on the same
// repo folder, as two processes sharing a checkout; for team mode two replicas of `mem serve
// --store` on one database. A test writes through one and reads through the other.
//
// `teamOperations()` is team mode without HTTP: a team runtime the operations run on in this
// process as a key's tenant (what a replica's routes do), for tests that call operations directly.
import {mkdirSync, openSync, closeSync} from 'node:fs'
import {join} from 'node:path'
import pg from 'pg'
import {onTestFinished} from 'vitest'
import {MemClient} from '../../src/client/index.js'
import {startServer} from '../../src/faces/server/serve.js'
import {openMem} from '../../src/runtime/open-mem.js'
import {openTeamRuntime, type TeamRuntime, type TeamTenant} from '../../src/runtime/team-store.js'
import {readRecords, parseHeader} from '../../src/storage/journal.js'
import type {JournalRecord} from '../../src/storage/memories.js'
import {type Clock, fixedClock, tempDir} from './mem.js'
import {inProcessReplica, teamKey, teamStore} from './team-server.js'

export type StoreKind = 'file' | 'team'
export const STORE_KINDS: StoreKind[] = ['file', 'team']

/** The team, repo and key name every team fixture uses. */
export const TEAM = 'acme'
export const TEAM_REPO = 'github.com/acme/app'

export interface ContractStore {
  kind: StoreKind
  /** How requests name the repo: its folder (file) or its team repo id (team). */
  repo: string
  /** A second repo of the same store (another folder; another team repo id of the same team). */
  otherRepo: string
  /** Two handles on the one store (two servers of this process). */
  a: MemClient
  b: MemClient
  clock: Clock
  /**
   * The repo's log, oldest first: the records of `.mem/journal` (file) or of the repo's `ops` rows
   * (team; their seqs are checked to be 1..n, gapless, before they are answered).
   */
  log(): Promise<JournalRecord[]>
  /** Internal errors either server reported (a contract test expects none). */
  internalErrors: unknown[]
}

/** A store of `kind` with two handles on it, everything stopped and removed when the test ends. */
export async function contractStore(kind: StoreKind, options: {clock?: Clock} = {}): Promise<ContractStore> {
  const clock = options.clock ?? fixedClock()
  return kind === 'file' ? fileStore(clock) : teamStoreHandles(clock)
}

async function fileStore(clock: Clock): Promise<ContractStore> {
  const base = tempDir('mem-contract-')
  const home = join(base, 'home')
  const repo = join(base, 'repo')
  const otherRepo = join(base, 'other')
  for (const root of [repo, otherRepo]) mkdirSync(join(root, '.git'), {recursive: true})
  const internalErrors: unknown[] = []
  const handle = async () => {
    // like `mem serve`: a long-lived context with its own RepoStore per repo, word recall
    const ctx = openMem({home, now: clock, longLived: true, meaning: {model: 'off'}})
    onTestFinished(() => ctx.close())
    const server = await startServer({runtime: ctx, port: 0, updateCheck: false, onInternalError: (err) => internalErrors.push(err)})
    onTestFinished(() => server.close())
    return client(server.url)
  }
  const a = await handle()
  const b = await handle()
  return {
    kind: 'file',
    repo,
    otherRepo,
    a,
    b,
    clock,
    internalErrors,
    async log() {
      const path = join(repo, '.mem', 'journal')
      const fd = openSync(path, 'r')
      try {
        const header = parseHeader(fd, path)
        return header ? readRecords<JournalRecord>(fd, header.bytes, path).records : []
      } finally {
        closeSync(fd)
      }
    },
  }
}

async function teamStoreHandles(clock: Clock): Promise<ContractStore> {
  const {db, url} = await teamStore()
  const key = await teamKey(db, TEAM, 'contract', 'admin')
  const ra = await inProcessReplica(url, {name: 'replica-a', clock})
  const rb = await inProcessReplica(url, {name: 'replica-b', clock})
  return {
    kind: 'team',
    repo: TEAM_REPO,
    otherRepo: 'github.com/acme/lib',
    a: client(ra.url, key),
    b: client(rb.url, key),
    clock,
    get internalErrors() {
      return [...ra.internalErrors, ...rb.internalErrors]
    },
    log: () => opsLog(url, TEAM, TEAM_REPO),
  }
}

function client(url: string, key?: string): MemClient {
  const c = new MemClient(url, key)
  onTestFinished(() => c.close())
  return c
}

/** A team repo's ops records in seq order; throws when the seqs are not 1..n. */
export async function opsLog(url: string, team: string, repo: string): Promise<JournalRecord[]> {
  const c = new pg.Client({connectionString: url})
  await c.connect()
  try {
    const {rows} = await c.query('SELECT seq, record FROM ops WHERE team = $1 AND repo = $2 ORDER BY seq', [team, repo])
    rows.forEach((r, i) => {
      if (Number(r.seq) !== i + 1) throw new Error(`ops of ${team}/${repo}: seq ${r.seq} at place ${i + 1} (a gap or a repeat)`)
    })
    return rows.map((r) => r.record as JournalRecord)
  } finally {
    await c.end()
  }
}

/**
 * Team mode without HTTP: a team store on a fresh database with the team made, and `open(name, now?)`
 * giving a replica's runtime on it (meaning off, its own RepoStores; the clock `now`) whose
 * `run(fn)` runs `fn` as the team's key (every repo of the team), as a replica's routes run an
 * operation. Closed when the test ends.
 */
export async function teamOperations() {
  const {db, url} = await teamStore()
  await teamKey(db, TEAM, 'operations', 'admin')
  const tenant: TeamTenant = {team: TEAM, repos: null, key: 'operations'}
  const open = (name: string, now?: () => Date): {runtime: TeamRuntime; run<T>(fn: (runtime: TeamRuntime) => Promise<T>): Promise<T>} => {
    const runtime = openTeamRuntime(db, {home: tempDir('mem-team-home-'), replicaName: name, meaning: {model: 'off'}, ...(now ? {now} : {})})
    onTestFinished(() => runtime.close())
    return {
      runtime,
      async run(fn) {
        try {
          return await runtime.asRequest(tenant, () => fn(runtime))
        } finally {
          runtime.endRequest(tenant)
        }
      },
    }
  }
  return {db, url, open}
}
