// RepoStore as a replica of a team repo's ops (storage/replica.ts, postgres/replica-log.ts), against
// the real Postgres: group commit, catch-up, a cold replica opening from the newest snapshot plus the
// ops after it, and a batch whose jobs write nothing appends (and creates) nothing.
import pg from 'pg'
import {describe, expect, it, onTestFinished} from 'vitest'
import {createTeam} from '../../../src/operations/team.js'
import {getMemory, type Op} from '../../../src/storage/memories.js'
import {RepoStore} from '../../../src/storage/repo-store.js'
import {testMemory as memory} from '../../helpers/memory.js'
import {tempDir} from '../../helpers/mem.js'
import {teamStore} from '../../helpers/team-server.js'

const REPO = 'github.com/acme/app'

async function count(url: string, sql: string): Promise<number> {
  const client = new pg.Client({connectionString: url})
  await client.connect()
  try {
    return Number((await client.query(sql)).rows[0].n)
  } finally {
    await client.end()
  }
}

describe('a RepoStore replica of a team repo', () => {
  it('writes through the log, catches up with another replica, and a cold one opens from the snapshot plus the ops after it', async () => {
    const {db, url} = await teamStore()
    await createTeam(db, {name: 'acme'}, {now: new Date(), actor: 'test'})
    const open = async (name: string) => {
      const store = await RepoStore.open(tempDir(), {replica: db.replica('acme', REPO, {actor: name})})
      onTestFinished(() => store.close())
      await store.sync()
      return store
    }
    const a = await open('a')
    const b = await open('b')
    const insert = (i: number): Op => ({op: 'insert', memory: memory({id: `memories/github.com~acme~app/insight/${i.toString(16).padStart(12, '0')}`, content: `Fact ${i} about the build`})})

    // 20 writes queued together: group commit (one transaction a batch), seq gapless
    await Promise.all(Array.from({length: 20}, (_, i) => a.write(() => ({ops: [insert(i)], result: i}))))
    expect(a.replicaPosition).toBe(await db.replica('acme', REPO, {actor: 'x'}).head())
    expect(await count(url, 'SELECT count(*) AS n FROM ops')).toBe(20)

    // b catches up before reading, then writes after a's records
    await b.sync()
    expect(b.read((d) => getMemory(d, 'memories/github.com~acme~app/insight/000000000013')?.content)).toBe('Fact 19 about the build')
    await b.checkpoint()
    expect(await count(url, 'SELECT count(*) AS n FROM snapshots')).toBe(1)
    await Promise.all([20, 21, 22].map((i) => b.write(() => ({ops: [insert(i)], result: i}))))

    // a writes without a sync: the write transaction hands it b's records first
    await a.write(() => ({ops: [insert(23)], result: 23}))
    expect(a.read((d) => getMemory(d, 'memories/github.com~acme~app/insight/000000000016')?.content)).toBe('Fact 22 about the build')

    // cold: the snapshot (seq 20) plus 4 records
    const cold = await open('cold')
    expect(cold.pendingJournalBytes).toBe(4)
    expect(cold.replicaPosition).toBe(24)
    for (let i = 0; i < 24; i++) expect(cold.read((d) => getMemory(d, `memories/github.com~acme~app/insight/${i.toString(16).padStart(12, '0')}`)?.content)).toBe(`Fact ${i} about the build`)
  })

  it('replicas writing in turn keep one snapshot between them, not one each', async () => {
    const {db, url} = await teamStore()
    await createTeam(db, {name: 'acme'}, {now: new Date(), actor: 'test'})
    const insert = (i: number): Op => ({op: 'insert', memory: memory({id: `memories/github.com~acme~app/insight/${i.toString(16).padStart(12, '0')}`, content: `Fact ${i} about the deploy`})})
    const a = await RepoStore.open(tempDir(), {replica: db.replica('acme', REPO, {actor: 'a'})})
    onTestFinished(() => a.close())
    await a.write(() => ({ops: [insert(0)], result: null}))
    await a.checkpoint()
    // b opens from that snapshot (seq 1)
    const b = await RepoStore.open(tempDir(), {replica: db.replica('acme', REPO, {actor: 'b'})})
    onTestFinished(() => b.close())
    await b.sync()
    expect(b.replicaPosition).toBe(1)
    // 260 records through a: past the 250 after which a replica keeps a snapshot
    for (let i = 1; i <= 260; i += 20) await Promise.all(Array.from({length: 20}, (_, j) => a.write(() => ({ops: [insert(i + j)], result: null}))))
    await a.close() // waits for its snapshot in flight
    expect(await count(url, 'SELECT count(*) AS n FROM snapshots')).toBe(2)
    // b is as far past its own snapshot: it finds a's, recent, and keeps none
    await b.write(() => ({ops: [insert(1000)], result: null}))
    await b.close()
    expect(await count(url, 'SELECT count(*) AS n FROM snapshots')).toBe(2)
    expect(await count(url, 'SELECT max(seq) AS n FROM snapshots')).toBe(261)
  })

  it('a batch that writes nothing (a job refused, a no-op) appends nothing and makes no repo row', async () => {
    const {db, url} = await teamStore()
    await createTeam(db, {name: 'acme'}, {now: new Date(), actor: 'test'})
    const store = await RepoStore.open(tempDir(), {replica: db.replica('acme', REPO, {actor: 'a'})})
    onTestFinished(() => store.close())
    await expect(store.write(() => ({ops: [], result: 'nothing'}))).resolves.toBe('nothing')
    await expect(
      store.write(() => {
        throw new Error('refused')
      }),
    ).rejects.toThrow('refused')
    expect(await count(url, 'SELECT count(*) AS n FROM repos')).toBe(0)
    expect(store.exists).toBe(false)
  })

  it('a team that does not exist: the write fails not_found and nothing is kept', async () => {
    const {db, url} = await teamStore()
    const store = await RepoStore.open(tempDir(), {replica: db.replica('ghost', REPO, {actor: 'a'})})
    onTestFinished(() => store.close())
    const op: Op = {op: 'insert', memory: memory({id: 'memories/github.com~acme~app/insight/000000000001', content: 'No team holds this'})}
    await expect(store.write(() => ({ops: [op], result: 1}))).rejects.toMatchObject({code: 'not_found'})
    expect(await count(url, 'SELECT count(*) AS n FROM ops')).toBe(0)
    expect(store.read((d) => getMemory(d, 'memories/github.com~acme~app/insight/000000000001'))).toBeUndefined()
  })
})
