// A replica's write transaction in two round trips (postgres/replica-log.ts over the pipelining
// pool): BEGIN rides with the head row's lock, the batch's rows with the COMMIT. What must hold:
// a record the ops row cannot hold is refused for its write alone; a statement that fails beside the
// COMMIT keeps nothing of the batch (and the replica does not hold its writes);
// a connection lost once the COMMIT is sent says "may or may not", and a retry with the same request
// id is written once; racing first writers of a repo with one request id write it once. Group
// commit: the writes queued while a batch waits for the head row join it (bounded at 64).
import {describe, expect, it, onTestFinished} from 'vitest'
import {createTeam} from '../../../src/operations/team.js'
import {MemError} from '../../../src/model/errors.js'
import {getMemory, type Op} from '../../../src/storage/memories.js'
import {RepoStore} from '../../../src/storage/repo-store.js'
import {withRequestId} from '../../../src/storage/request-ids.js'
import {testMemory as memory} from '../../helpers/memory.js'
import {tempDir} from '../../helpers/mem.js'
import {holdHead, pgClient, until} from '../../helpers/pg.js'
import {teamStore} from '../../helpers/team-server.js'

const REPO = 'github.com/acme/app'
const idOf = (i: number) => `memories/github.com~acme~app/insight/${i.toString(16).padStart(12, '0')}`
const insert = (i: number, content = `Fact ${i} about the build`): Op => ({op: 'insert', memory: memory({id: idOf(i), content})})

async function replica(db: Awaited<ReturnType<typeof teamStore>>['db'], name: string): Promise<RepoStore> {
  const store = await RepoStore.open(tempDir(), {replica: db.replica('acme', REPO, {actor: name})})
  onTestFinished(() => store.close())
  await store.sync()
  return store
}

describe("a replica's write transaction, pipelined", () => {
  it('a record jsonb cannot hold (a NUL), refused while planning: 400, nothing kept, the head where it was, the replica without it; the next write lands', async () => {
    const {url, store} = await oneWriteCommitted()
    await expect(store.write(() => ({ops: [insert(2, 'Holds a NUL \u0000 here')], result: 2}))).rejects.toMatchObject({code: 'invalid_input'})
    const s = await pgClient(url)
    expect((await s.query('SELECT seq FROM ops ORDER BY seq')).rows.map((r) => Number(r.seq))).toEqual([1])
    expect(Number((await s.query('SELECT head FROM repos')).rows[0].head)).toBe(1)
    expect(store.read((d) => getMemory(d, idOf(2)))).toBeUndefined()
    await store.write(() => ({ops: [insert(3)], result: 3}))
    expect((await s.query('SELECT seq FROM ops ORDER BY seq')).rows.map((r) => Number(r.seq))).toEqual([1, 2])
    expect(store.read((d) => getMemory(d, idOf(3))?.content)).toBe('Fact 3 about the build')
  })

  it('the connection lost once the COMMIT is sent: "may or may not have been kept"; retried with its request id it is written once', async () => {
    const {url, store} = await oneWriteCommitted()
    const s = await pgClient(url)
    // a deferred constraint trigger runs inside COMMIT: it waits there for a lock this test holds
    await s.query(`CREATE FUNCTION hold_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_advisory_xact_lock(4545); RETURN NULL; END $$`)
    await s.query('CREATE CONSTRAINT TRIGGER hold_at_commit AFTER INSERT ON ops DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION hold_commit()')
    const holder = await pgClient(url)
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
    const s = await pgClient(url)
    for (let round = 0; round < 8; round++) {
      const repo = `github.com/acme/app${round}`
      const [a, b] = await Promise.all(['a', 'b'].map(async (name) => RepoStore.open(tempDir(), {replica: db.replica('acme', repo, {actor: name})})))
      onTestFinished(async () => {
        await Promise.all([a.close(), b.close()])
      })
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

/** A replica of a fresh team store (team acme) with one write committed. */
async function oneWriteCommitted() {
  const {db, url} = await teamStore()
  await createTeam(db, {name: 'acme'}, {now: new Date(), actor: 'test'})
  const store = await replica(db, 'a')
  await store.write(() => ({ops: [insert(1)], result: 1}))
  return {db, url, store}
}

/**
 * A write the test awaits only later, after a step (a released lock) that may answer it first: its
 * rejection is handled from the start, so it is never an unhandled rejection in between (which
 * kills the test worker once the meaning model's WebAssembly glue has set its process handlers);
 * awaiting the returned promise still sees the rejection.
 */
function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined)
  return p
}

/** The replica's next write (insert 2, answering `result`), waiting for the repo's head row, which a test connection holds. */
async function secondWriteWaiting(url: string, store: RepoStore, result: unknown) {
  const head = await holdHead(url, REPO)
  const first = handled(store.write(() => ({ops: [insert(2)], result})))
  await until(async () => (await head.waiting()) === 1, 'the first write waits for the head row')
  return {head, first}
}

/** The transaction (xmin) that wrote each ops row, by seq. */
async function transactions(url: string): Promise<Map<number, string>> {
  const s = await pgClient(url)
  return new Map((await s.query('SELECT seq, xmin::text AS tx FROM ops ORDER BY seq')).rows.map((r) => [Number(r.seq), r.tx as string]))
}

describe('group commit on a replica: the writes queued while its transaction waits for the head row go in it', () => {
  it('five writes queued behind a locked head row commit in one transaction, each planned on the ones before it, each answered its own result', async () => {
    const {db, url, store} = await oneWriteCommitted()
    const {head, first} = await secondWriteWaiting(url, store, 'first')
    // each later job reads what the jobs before it in the batch wrote (and nothing is committed yet)
    const seen: string[] = []
    const later = [3, 4, 5, 6].map((i) =>
      store.write((d) => {
        seen.push(`${i}: ${getMemory(d, idOf(i - 1))?.content ?? 'missing'}`)
        return {ops: [insert(i)], result: `job ${i}`}
      }),
    )
    await until(() => store.queuedWrites === 4, 'four writes queued')
    await head.release()
    expect(await Promise.all([first, ...later])).toEqual(['first', 'job 3', 'job 4', 'job 5', 'job 6'])
    expect(seen).toEqual(['3: Fact 2 about the build', '4: Fact 3 about the build', '5: Fact 4 about the build', '6: Fact 5 about the build'])
    const tx = await transactions(url)
    expect([...tx.keys()]).toEqual([1, 2, 3, 4, 5, 6])
    expect(new Set([2, 3, 4, 5, 6].map((seq) => tx.get(seq))).size).toBe(1)
    expect(tx.get(1)).not.toBe(tx.get(2))
    // the other replica reads every one of them
    const other = await replica(db, 'b')
    expect(other.read((d) => [1, 2, 3, 4, 5, 6].map((i) => getMemory(d, idOf(i))?.content))).toEqual([1, 2, 3, 4, 5, 6].map((i) => `Fact ${i} about the build`))
  })

  it('a write the rules refuse (its plan throws) and a record Postgres cannot hold (a NUL) fail alone; the writes beside them commit in the same transaction', async () => {
    const {url, store} = await oneWriteCommitted()
    const {head, first} = await secondWriteWaiting(url, store, 2)
    const refused = handled(
      store.write(() => {
        throw new MemError('conflict', 'Refused by the rules.')
      }),
    )
    const nul = handled(store.write(() => ({ops: [insert(3, 'Holds a NUL \u0000 here')], result: 3})))
    const escaped = handled(store.write(() => ({ops: [insert(4, 'A backslash then u0000 is text: \\u0000')], result: 4})))
    const last = handled(store.write(() => ({ops: [insert(5)], result: 5})))
    await until(() => store.queuedWrites === 4, 'four writes queued')
    await head.release()
    await expect(refused).rejects.toMatchObject({code: 'conflict'})
    await expect(nul).rejects.toMatchObject({code: 'invalid_input', message: expect.stringContaining('NUL')})
    expect(await Promise.all([first, escaped, last])).toEqual([2, 4, 5])
    const tx = await transactions(url)
    expect([...tx.keys()]).toEqual([1, 2, 3, 4])
    expect(new Set([2, 3, 4].map((seq) => tx.get(seq))).size).toBe(1)
    expect(store.read((d) => [2, 3, 4, 5].map((i) => getMemory(d, idOf(i))?.content ?? null))).toEqual([
      'Fact 2 about the build',
      null,
      'A backslash then u0000 is text: \\u0000',
      'Fact 5 about the build',
    ])
  })

  it('a row Postgres refuses at COMMIT fails every write of the batch with the same error: none acknowledged, nothing kept, the head where it was; the next write lands', async () => {
    const {url, store} = await oneWriteCommitted()
    const s = await pgClient(url)
    await s.query(`CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.record::text LIKE '%poison%' THEN RAISE EXCEPTION 'poisoned row'; END IF; RETURN NEW; END $$`)
    await s.query('CREATE TRIGGER refuse_poison BEFORE INSERT ON ops FOR EACH ROW EXECUTE FUNCTION refuse_poison()')
    const {head, first} = await secondWriteWaiting(url, store, 2)
    const rest = [handled(store.write(() => ({ops: [insert(3, 'A poison pill')], result: 3}))), handled(store.write(() => ({ops: [insert(4)], result: 4})))]
    await until(() => store.queuedWrites === 2, 'two writes queued')
    await head.release()
    const outcomes = await Promise.allSettled([first, ...rest])
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected'])
    const errors = outcomes.map((o) => (o as PromiseRejectedResult).reason as MemError)
    expect(new Set(errors.map((e) => `${e.code}: ${e.message}`)).size).toBe(1)
    expect(errors[0].code).toBe('internal')
    expect(errors[0].message).not.toContain('poison')
    expect((await s.query('SELECT seq FROM ops ORDER BY seq')).rows.map((r) => Number(r.seq))).toEqual([1])
    expect(Number((await s.query('SELECT head FROM repos')).rows[0].head)).toBe(1)
    expect(store.read((d) => [2, 3, 4].map((i) => getMemory(d, idOf(i)) ?? null))).toEqual([null, null, null])
    await s.query('DROP TRIGGER refuse_poison ON ops')
    await expect(store.write(() => ({ops: [insert(5)], result: 5}))).resolves.toBe(5)
    expect((await s.query('SELECT seq FROM ops ORDER BY seq')).rows.map((r) => Number(r.seq))).toEqual([1, 2])
  })

  it('request ids of writes that join late: one already committed is answered its first result and appends nothing; two copies in the batch append once', async () => {
    const {db, url} = await teamStore()
    await createTeam(db, {name: 'acme'}, {now: new Date(), actor: 'test'})
    const store = await replica(db, 'a')
    await withRequestId('req-kept', () => store.write(() => ({ops: [insert(1)], result: 'kept first'})))
    const {head, first} = await secondWriteWaiting(url, store, 2)
    const again = withRequestId('req-kept', () => store.write(() => ({ops: [insert(9)], result: 'sent again'})))
    const copies = [0, 1].map((n) => withRequestId('req-new', () => store.write(() => ({ops: [insert(3)], result: `copy ${n}`}))))
    await until(() => store.queuedWrites === 3, 'three writes queued')
    await head.release()
    expect(await Promise.all([first, again, ...copies])).toEqual([2, 'kept first', 'copy 0', 'copy 0'])
    const s = await pgClient(url)
    expect((await s.query('SELECT seq, request_id FROM ops ORDER BY seq')).rows.map((r) => [Number(r.seq), r.request_id])).toEqual([
      [1, 'req-kept'],
      [2, null],
      [3, 'req-new'],
    ])
    expect(store.read((d) => getMemory(d, idOf(9)))).toBeUndefined()
  })

  it('a batch is bounded: 150 writes queued behind a locked head row go in transactions of at most 64, gapless, all answered', async () => {
    const {url, store} = await oneWriteCommitted()
    const {head, first} = await secondWriteWaiting(url, store, 2)
    const rest = Array.from({length: 149}, (_, i) => store.write(() => ({ops: [insert(i + 3)], result: i + 3})))
    await until(() => store.queuedWrites === 149, '149 writes queued')
    await head.release()
    expect(await Promise.all([first, ...rest])).toEqual(Array.from({length: 150}, (_, i) => i + 2))
    const tx = await transactions(url)
    expect([...tx.keys()]).toEqual(Array.from({length: 151}, (_, i) => i + 1))
    const sizes = new Map<string, number>()
    for (const [seq, t] of tx) if (seq > 1) sizes.set(t, (sizes.get(t) ?? 0) + 1)
    expect(Math.max(...sizes.values())).toBe(64)
    expect([...sizes.values()].reduce((a, b) => a + b, 0)).toBe(150)
  })
})
