// A replica's write transaction in two round trips (postgres/replica-log.ts over the pipelining
// pool): BEGIN rides with the head row's lock, the batch's rows with the COMMIT. What must hold:
// a statement that fails beside the COMMIT keeps nothing (and the replica does not hold the write);
// a connection lost once the COMMIT is sent says "may or may not", and a retry with the same request
// id is written once; racing first writers of a repo with one request id write it once.
import pg from 'pg'
import {describe, expect, it, onTestFinished} from 'vitest'
import {createTeam} from '../../../src/operations/team.js'
import {getMemory, type Op} from '../../../src/storage/memories.js'
import {RepoStore} from '../../../src/storage/repo-store.js'
import {withRequestId} from '../../../src/storage/request-ids.js'
import {testMemory as memory} from '../../helpers/memory.js'
import {tempDir} from '../../helpers/mem.js'
import {teamStore} from '../../helpers/team-server.js'

const REPO = 'github.com/acme/app'
const idOf = (i: number) => `memories/github.com~acme~app/insight/${i.toString(16).padStart(12, '0')}`
const insert = (i: number, content = `Fact ${i} about the build`): Op => ({op: 'insert', memory: memory({id: idOf(i), content})})

async function sql(url: string): Promise<pg.Client> {
  const client = new pg.Client({connectionString: url})
  client.on('error', () => {})
  await client.connect()
  onTestFinished(() => client.end().catch(() => undefined))
  return client
}

async function replica(db: Awaited<ReturnType<typeof teamStore>>['db'], name: string): Promise<RepoStore> {
  const store = await RepoStore.open(tempDir(), {replica: db.replica('acme', REPO, {actor: name})})
  onTestFinished(() => store.close())
  await store.sync()
  return store
}

describe("a replica's write transaction, pipelined", () => {
  it('a row Postgres refuses beside the COMMIT (a NUL in jsonb): 400, nothing kept, the head where it was, the replica without it; the next write lands', async () => {
    const {db, url} = await teamStore()
    await createTeam(db, {name: 'acme'}, {now: new Date(), actor: 'test'})
    const store = await replica(db, 'a')
    await store.write(() => ({ops: [insert(1)], result: 1}))
    await expect(store.write(() => ({ops: [insert(2, 'Holds a NUL \u0000 here')], result: 2}))).rejects.toMatchObject({code: 'invalid_input'})
    const s = await sql(url)
    expect((await s.query('SELECT seq FROM ops ORDER BY seq')).rows.map((r) => Number(r.seq))).toEqual([1])
    expect(Number((await s.query('SELECT head FROM repos')).rows[0].head)).toBe(1)
    expect(store.read((d) => getMemory(d, idOf(2)))).toBeUndefined()
    await store.write(() => ({ops: [insert(3)], result: 3}))
    expect((await s.query('SELECT seq FROM ops ORDER BY seq')).rows.map((r) => Number(r.seq))).toEqual([1, 2])
    expect(store.read((d) => getMemory(d, idOf(3))?.content)).toBe('Fact 3 about the build')
  })

  it('the connection lost once the COMMIT is sent: "may or may not have been kept"; retried with its request id it is written once', async () => {
    const {db, url} = await teamStore()
    await createTeam(db, {name: 'acme'}, {now: new Date(), actor: 'test'})
    const store = await replica(db, 'a')
    await store.write(() => ({ops: [insert(1)], result: 1}))
    const s = await sql(url)
    // a deferred constraint trigger runs inside COMMIT: it waits there for a lock this test holds
    await s.query(`CREATE FUNCTION hold_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_advisory_xact_lock(4545); RETURN NULL; END $$`)
    await s.query('CREATE CONSTRAINT TRIGGER hold_at_commit AFTER INSERT ON ops DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION hold_commit()')
    const holder = await sql(url)
    await holder.query('SELECT pg_advisory_lock(4545)')
    const pending = withRequestId('req-lost', () => store.write(() => ({ops: [insert(2)], result: 'first'}))).then(
      () => undefined,
      (err: unknown) => err as {code: string; message: string; hint?: string},
    )
    let pid: number | undefined
    for (let tries = 0; pid === undefined; tries++) {
      if (tries > 1000) throw new Error('the write never reached its commit')
      const r = await s.query("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'advisory' AND query = 'COMMIT'")
      pid = r.rows[0]?.pid
      if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    await s.query('SELECT pg_terminate_backend($1)', [pid])
    const err = await pending
    expect([err?.code, err?.message]).toEqual(['unavailable', expect.stringContaining('may or may not have been kept')])
    expect(err?.hint).toContain('same request id')
    await holder.query('SELECT pg_advisory_unlock(4545)')
    await s.query('DROP TRIGGER hold_at_commit ON ops')
    expect(store.read((d) => getMemory(d, idOf(2)))).toBeUndefined()
    // not kept here: the retry writes it, a second retry is answered with the first answer and writes nothing
    await expect(withRequestId('req-lost', () => store.write(() => ({ops: [insert(2)], result: 'retry'})))).resolves.toBe('retry')
    await expect(withRequestId('req-lost', () => store.write(() => ({ops: [insert(2)], result: 'again'})))).resolves.toBe('retry')
    expect((await s.query("SELECT seq FROM ops WHERE request_id = 'req-lost'")).rows.map((r) => Number(r.seq))).toEqual([2])
    expect(store.read((d) => getMemory(d, idOf(2))?.content)).toBe('Fact 2 about the build')
  })

  it("two replicas making a repo's first write with one request id, at once, eight times over: written once each time", async () => {
    const {db, url} = await teamStore()
    await createTeam(db, {name: 'acme'}, {now: new Date(), actor: 'test'})
    const s = await sql(url)
    for (let round = 0; round < 8; round++) {
      const repo = `github.com/acme/app${round}`
      const [a, b] = await Promise.all(['a', 'b'].map(async (name) => RepoStore.open(tempDir(), {replica: db.replica('acme', repo, {actor: name})})))
      onTestFinished(() => Promise.all([a.close(), b.close()]))
      await Promise.all([a.sync(), b.sync()])
      const seg = repo.replaceAll('/', '~')
      const op = (): Op[] => [{op: 'insert', memory: memory({id: `memories/${seg}/insight/00000000000${round}`, content: `First fact of ${repo}`})}]
      const answers = await Promise.all([a, b].map((store, i) => withRequestId(`first-${round}`, () => store.write(() => ({ops: op(), result: `from ${i}`})))))
      // one of them wrote it; the other was answered with the same first answer
      expect(answers[0]).toBe(answers[1])
      expect((await s.query('SELECT count(*)::int AS n FROM ops WHERE repo = $1', [repo])).rows[0].n).toBe(1)
    }
  })
})
