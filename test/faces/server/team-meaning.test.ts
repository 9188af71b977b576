// Meaning in team mode (docs/team.md "Meaning"): a replica of `mem serve --store` makes vectors with
// the same model as a local store, writes them to the team's log like any other op, and every other
// replica (a cold one too) reads them from there: a memory stored through one replica is found by
// meaning through another, with the local store's ids-for-contents and scores. The vectors are made
// once per memory, not once per replica (the meaning drain's lock, and a second look when they are
// written), and two replicas on different models do not replace each other's vectors for ever.
import {spawnSync} from 'node:child_process'
import pg from 'pg'
import {describe, expect, it} from 'vitest'
import {planMeaningLinks} from '../../../src/engines/gates/admit.js'
import {embedPending, meaningDrainer} from '../../../src/engines/meaning/pending.js'
import {meaningModel} from '../../../src/engines/meaning/use.js'
import {recall} from '../../../src/operations/recall.js'
import {store} from '../../../src/operations/store.js'
import type {JournalRecord} from '../../../src/storage/memories.js'
import {BIN} from '../../helpers/cli.js'
import {fixedClock, memRepo, storedId, tempDir} from '../../helpers/mem.js'
import {MEANING_NOTES, MEANING_QUESTIONS} from '../../helpers/meaning-cases.js'
import {opsLog} from '../../helpers/team-fixture.js'
import {api, inProcessReplica, processReplica, teamKey, teamStore} from '../../helpers/team-server.js'

const TEAM = 'acme'
const REPO = 'github.com/acme/app'
const enc = encodeURIComponent
const BUILTIN = {model: 'builtin', floor: 0} as const
const STATIC = {model: 'static', floor: 0} as const
/** Notes beside the four, so that a question has something else to rank. */
const OTHERS = [
  'Integration tests need Docker running locally',
  'The staging database is reset every Sunday night',
  'Feature flags live in config/flags.yaml',
  'Code review needs two approvals before merging',
]

/** The vector ops of the repo's log: [memory id, model] in log order. */
async function vectorOps(url: string): Promise<Array<[string, string]>> {
  const log: JournalRecord[] = await opsLog(url, TEAM, REPO)
  return log.flatMap((r) => r.ops.flatMap((op) => (op.op === 'vector' ? [[op.id, op.model] as [string, string]] : [])))
}

/** A replica runtime's meaning drain, called by the test (the server's own runs every 10 minutes here). */
function drainerOf(runtime: Parameters<typeof meaningModel>[0] & {openStores(): Promise<any[]>}) {
  const drain = meaningDrainer(runtime, () => runtime.openStores(), () => meaningModel(runtime), planMeaningLinks)
  // a store used since the drain's last call waits for the next: call it twice
  return async (limit?: number) => (await drain(limit)) + (await drain(limit))
}

const NEVER = 600_000

describe('team mode with the meaning model on', () => {
  it('a memory stored through one replica is found by meaning through another, a cold one too, with the local store’s ranking and scores', async () => {
    const clock = fixedClock()
    const {db, url} = await teamStore()
    const key = await teamKey(db, TEAM, 'agent', 'write')
    const a = await inProcessReplica(url, {name: 'a', clock, meaning: BUILTIN, meaningDrainMs: NEVER})
    const b = await inProcessReplica(url, {name: 'b', clock, meaning: BUILTIN, meaningDrainMs: NEVER})
    const off = await inProcessReplica(url, {name: 'off', clock, meaningDrainMs: NEVER})
    const local = memRepo({}, {clock, meaning: BUILTIN, longLived: true})
    const contents = MEANING_NOTES
    for (const content of contents) {
      expect((await api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'procedure', content})).status).toBe(201)
      storedId(await store(local.ctx, {repo: local.repo, type: 'procedure', content}))
    }
    // replica a makes the vectors in its background drain (called here rather than waited for)
    expect(await drainerOf(a.runtime)()).toBe(contents.length)
    const made = await vectorOps(url)
    expect(made.map(([, model]) => model)).toEqual(contents.map(() => 'builtin/use-lite-512@0.2.0'))

    const cold = await inProcessReplica(url, {name: 'cold', clock, meaning: BUILTIN, meaningDrainMs: NEVER})
    for (const [i, q] of MEANING_QUESTIONS.entries()) {
      const want = (await recall(local.ctx, {repo: local.repo, q, touch: false})).results.map((r) => [r.content, r.score])
      // the note is among the first two, as in the local store (test/engines/meaning)
      expect(want.slice(0, 2).map(([c]) => c), q).toContain(MEANING_NOTES[i])
      for (const replica of [b, cold]) {
        const got = await api(replica.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=${enc(q)}&touch=false`)
        expect(got.status).toBe(200)
        expect(got.body.results.map((r: any) => [r.content, r.score]), q).toEqual(want)
      }
      // a replica with meaning off reads words only: none of these questions shares a word with its note
      const words = await api(off.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=${enc(q)}&touch=false`)
      expect(words.body.results.map((r: any) => r.content), q).not.toContain(MEANING_NOTES[i])
    }
    // neither b nor the cold replica made a vector again: they read a's from the log
    expect(await vectorOps(url)).toEqual(made)
    expect([...a.internalErrors, ...b.internalErrors, ...cold.internalErrors, ...off.internalErrors]).toEqual([])
  })

  it('two replicas making the same memories’ vectors at once write each one once; while one drains a repo, the other’s drain leaves it', async () => {
    const {db, url} = await teamStore()
    const key = await teamKey(db, TEAM, 'agent', 'write')
    const a = await inProcessReplica(url, {name: 'a', meaning: BUILTIN, meaningDrainMs: NEVER})
    const b = await inProcessReplica(url, {name: 'b', meaning: BUILTIN, meaningDrainMs: NEVER})
    const contents = Array.from({length: 12}, (_, i) => `Service ${i} of the billing cluster restarts nightly at ${i} past two`)
    for (const content of contents) expect((await api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content})).status).toBe(201)
    expect((await api(b.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=billing&touch=false`)).status).toBe(200)
    const as = {team: TEAM, repos: null}
    const [sa, sb] = [(await a.runtime.asPrincipal(as, () => a.runtime.repo(REPO, 'read'))).store, (await b.runtime.asPrincipal(as, () => b.runtime.repo(REPO, 'read'))).store]
    const [ma, mb] = [await meaningModel(a.runtime), await meaningModel(b.runtime)]

    // both embed the same pending memories at once (no lock here): the second write finds them made
    const [da, dbDrained] = await Promise.all([
      embedPending(a.runtime, sa, ma!, {limit: 12, link: null}),
      embedPending(b.runtime, sb, mb!, {limit: 12, link: null}),
    ])
    expect(da.embedded + dbDrained.embedded).toBe(12)
    const once = await vectorOps(url)
    expect(once).toHaveLength(12)
    expect(new Set(once.map(([id]) => id)).size).toBe(12)

    // the drain takes the repo's meaning lock: held elsewhere, b's drain leaves the repo, then takes it
    for (const content of ['Webhooks are retried three times with backoff', 'Invoices are generated on the first of the month']) {
      expect((await api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content})).status).toBe(201)
    }
    const release = await db.ops.tryMeaningLock(TEAM, REPO)
    expect(release).not.toBe(null)
    const drainB = drainerOf(b.runtime)
    expect(await drainB()).toBe(0)
    // the maintenance lock is another lock: a drain does not hold up a maintenance pass
    const maintenance = await db.ops.tryMaintenanceLock(TEAM, REPO)
    expect(maintenance).not.toBe(null)
    await maintenance!.release()
    await release!.release()
    expect(await drainB()).toBe(2)
    expect(await vectorOps(url)).toHaveLength(14)
  })

  it('replicas on two models: the first to come replaces the older model’s vectors (a model change), and once both are live neither replaces the other’s, and each says so once', async () => {
    const {db, url} = await teamStore()
    const key = await teamKey(db, TEAM, 'agent', 'write')
    const notices: string[] = []
    const a = await inProcessReplica(url, {name: 'a', meaning: STATIC, meaningDrainMs: NEVER, notices})
    const b = await inProcessReplica(url, {name: 'b', meaning: BUILTIN, meaningDrainMs: NEVER, notices})
    // the static table makes a memory's vector as it is stored (microseconds): a's come with its stores
    for (const content of OTHERS) expect((await api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content})).status).toBe(201)
    const drainA = drainerOf(a.runtime)
    const drainB = drainerOf(b.runtime)
    expect(await drainA()).toBe(0)
    expect(await vectorOps(url)).toHaveLength(4)
    const staticId = (await vectorOps(url))[0][1]
    expect(staticId).toMatch(/^static\//)
    await new Promise((r) => setTimeout(r, 20))
    // b comes later, on another model: no static vector was written since it came, so it takes them over
    expect((await api(b.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=docker&touch=false`)).status).toBe(200)
    expect(await drainB()).toBe(4)
    expect(notices).toEqual([])
    // a sees the built-in model's vectors made since it came: it keeps them, and says so
    expect(await drainA()).toBe(0)
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatch(/Another replica makes this team's vectors with builtin\/use-lite-512@0\.2\.0; this one uses static\/.*Set the same meaning\.model on every replica/)
    // a memory stored through a gets a's vector as it is stored, and keeps it
    expect((await api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'Release notes are drafted from merged pull request titles'})).status).toBe(201)
    expect(await drainB()).toBe(0)
    expect(await drainA()).toBe(0)
    expect(notices).toHaveLength(2)
    expect(notices[1]).toMatch(/Another replica makes this team's vectors with static\/.*; this one uses builtin\/use-lite-512@0\.2\.0/)
    const models = (await vectorOps(url)).map(([, model]) => (model === staticId ? 'static' : 'builtin'))
    expect(models).toEqual(['static', 'static', 'static', 'static', 'builtin', 'builtin', 'builtin', 'builtin', 'static'])
  })
})

describe('who makes the vectors, as the log records it', () => {
  it('a recall that makes vectors (a read key) writes them as the replica, not as the key', async () => {
    const {db, url} = await teamStore()
    const writer = await teamKey(db, TEAM, 'writer', 'write')
    const reader = await teamKey(db, TEAM, 'reader', 'read')
    const a = await inProcessReplica(url, {name: 'replica-a', meaning: BUILTIN, meaningDrainMs: NEVER})
    for (const content of MEANING_NOTES) expect((await api(a.url, writer, 'POST', '/api/mem', {repo: REPO, type: 'procedure', content})).status).toBe(201)
    // no drain ran: the recall embeds what it needs
    expect((await api(a.url, reader, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=${enc(MEANING_QUESTIONS[0])}&touch=false`)).status).toBe(200)
    const client = new pg.Client({connectionString: url})
    await client.connect()
    try {
      const {rows} = await client.query<{actor: string; record: JournalRecord}>('SELECT actor, record FROM ops WHERE team = $1 AND repo = $2 ORDER BY seq', [TEAM, REPO])
      const vectors = rows.filter((r) => r.record.ops.some((op) => op.op === 'vector'))
      expect(vectors.length).toBeGreaterThan(0)
      expect(vectors.flatMap((r) => r.record.ops).filter((op) => op.op === 'vector')).toHaveLength(MEANING_NOTES.length)
      expect(new Set(vectors.map((r) => r.actor))).toEqual(new Set(['replica-a']))
      // the stores are the writer key's
      expect(new Set(rows.filter((r) => r.record.ops.some((op) => op.op === 'insert')).map((r) => r.actor))).toEqual(new Set(['key:writer']))
    } finally {
      await client.end()
    }
  })
})

describe('mem serve --store reads the meaning model as a local store does', () => {
  it('MEM_MEANING=static: the replica makes each memory’s vector with the static table; a bad MEM_MEANING stops it before it serves, naming the fix', async () => {
    const {db, url} = await teamStore()
    const key = await teamKey(db, TEAM, 'agent', 'write')
    const replica = await processReplica(url, {env: {MEM_MEANING: 'static'}})
    expect((await api(replica.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: OTHERS[0]})).status).toBe(201)
    // the static table makes it as the memory is stored (a built-in model: the drain, every 2 s)
    let made: Array<[string, string]> = []
    for (let i = 0; i < 100 && made.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 200))
      made = await vectorOps(url)
    }
    expect(made).toHaveLength(1)
    expect(made[0][1]).toMatch(/^static\//)

    const bad = spawnSync(process.execPath, [BIN, 'serve', '--store', url, '--port', '0', '--json'], {
      env: {...process.env, MEM_HOME: tempDir('mem-team-home-'), MEM_STORE: '', MEM_MEANING: 'bogus'},
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(bad.status).toBe(2)
    expect(JSON.parse(bad.stdout)).toMatchObject({
      code: 'invalid_input',
      error: expect.stringMatching(/MEM_MEANING is "bogus": it must be off, static, builtin, runtime or the absolute path of a model directory/),
      hint: expect.stringMatching(/set it to off/),
    })
  })
})
