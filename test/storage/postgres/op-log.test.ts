// The append path of team mode against a real Postgres: gapless seqs under concurrent writers on
// two pools, idempotent request ids, no half batch from a connection killed mid-transaction,
// teams kept apart, the per-repo maintenance lock, and bad input refused with nothing written.
import pg from 'pg'
import {describe, expect, it, onTestFinished} from 'vitest'
import {maskUrl} from '../../../src/config/store-url.js'
import {MemError} from '../../../src/model/errors.js'
import {openTeamDb, type TeamDb} from '../../../src/storage/postgres/index.js'
import {freshDatabase} from '../../helpers/pg.js'

const AT = new Date('2026-03-01T12:00:00.000Z')
const REPO = 'github.com/org/app'

async function openDb(url: string, max = 10): Promise<TeamDb> {
  // hundreds of appends queue for a pool's connections at once here: on a loaded machine the wait
  // may pass the default 5 s, which would be a 503 (unavailable), not what these tests look at
  const db = await openTeamDb({url, shown: maskUrl(new URL(url)), max, connectTimeoutMs: 120_000})
  onTestFinished(() => db.close())
  return db
}

/** A database with teams a and b, and a raw client to look at the rows. */
async function setup(): Promise<{url: string; db: TeamDb; sql: pg.Client}> {
  const {url} = await freshDatabase()
  const db = await openDb(url)
  await db.teams.createTeam('a', AT, 'test')
  await db.teams.createTeam('b', AT, 'test')
  const sql = new pg.Client({connectionString: url})
  sql.on('error', () => {})
  await sql.connect()
  onTestFinished(() => sql.end())
  return {url, db, sql}
}

async function seqs(sql: pg.Client, team: string, repo: string): Promise<number[]> {
  return (await sql.query('SELECT seq FROM ops WHERE team = $1 AND repo = $2 ORDER BY seq', [team, repo])).rows.map((r) => Number(r.seq))
}

const range = (n: number) => Array.from({length: n}, (_, i) => i + 1)

async function rejection(p: Promise<unknown>): Promise<MemError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!(err instanceof MemError)) throw new Error(`expected a MemError, got ${String(err)}`)
  return err
}

describe('the ops table as a journal', () => {
  it('two pools × 150 concurrent appends to one repo: seq 1..300, gapless, each record where its answer says', async () => {
    const {url, db, sql} = await setup()
    const other = await openDb(url)
    const writes = range(300).map((n) => (n % 2 ? db : other).ops.append('a', REPO, [{record: {n}}], {actor: n % 2 ? 'replica-1' : 'replica-2', at: AT}))
    const results = await Promise.all(writes)
    const answered = results.map((r) => r.entries[0].seq)
    expect([...answered].sort((x, y) => x - y)).toEqual(range(300))
    expect(await seqs(sql, 'a', REPO)).toEqual(range(300))
    expect(await db.ops.head('a', REPO)).toBe(300)
    // each answer names the row that holds that write's record
    const rows = (await sql.query('SELECT seq, record FROM ops WHERE team = $1 AND repo = $2', ['a', REPO])).rows
    const bySeq = new Map(rows.map((r) => [Number(r.seq), (r.record as {n: number}).n]))
    results.forEach((r, i) => expect(bySeq.get(r.entries[0].seq)).toBe(i + 1))
  })

  it('concurrent batches of 8 take 8 consecutive seqs each, in the order given', async () => {
    const {db, sql} = await setup()
    const batches = range(40).map((b) => db.ops.append('a', REPO, range(8).map((i) => ({record: {b, i}})), {actor: 't', at: AT}))
    const results = await Promise.all(batches)
    for (const r of results) {
      const s = r.entries.map((e) => e.seq)
      expect(s).toEqual(range(8).map((i) => s[0] + i - 1))
      expect(r.entries.every((e) => !e.replayed)).toBe(true)
    }
    expect(await seqs(sql, 'a', REPO)).toEqual(range(320))
  })

  it('a replayed request id appends nothing and answers the first seq; racing copies append once', async () => {
    const {db, sql} = await setup()
    const first = await db.ops.append('a', REPO, [{record: {v: 'first'}, requestId: 'req-1'}], {actor: 't', at: AT})
    expect(first).toEqual({head: 1, entries: [{seq: 1, replayed: false}]})
    const again = await db.ops.append('a', REPO, [{record: {v: 'second'}, requestId: 'req-1'}], {actor: 't', at: AT})
    expect(again).toEqual({head: 1, entries: [{seq: 1, replayed: true}]})
    expect((await sql.query('SELECT record FROM ops WHERE team = $1 AND repo = $2', ['a', REPO])).rows.map((r) => r.record)).toEqual([{v: 'first'}])

    // a batch mixing new and replayed records appends the new ones only; a copy inside the batch replays the first
    const mixed = await db.ops.append(
      'a',
      REPO,
      [{record: {v: 'x'}, requestId: 'req-1'}, {record: {v: 'y'}, requestId: 'req-2'}, {record: {v: 'z'}}, {record: {v: 'y2'}, requestId: 'req-2'}],
      {actor: 't', at: AT},
    )
    expect(mixed).toEqual({head: 3, entries: [{seq: 1, replayed: true}, {seq: 2, replayed: false}, {seq: 3, replayed: false}, {seq: 2, replayed: true}]})

    const racing = await Promise.all(range(12).map((n) => db.ops.append('a', REPO, [{record: {n}, requestId: 'req-race'}], {actor: 't', at: AT})))
    expect(new Set(racing.map((r) => r.entries[0].seq))).toEqual(new Set([4]))
    expect(racing.filter((r) => !r.entries[0].replayed).length).toBe(1)
    expect(await seqs(sql, 'a', REPO)).toEqual([1, 2, 3, 4])
  })

  it('a connection killed mid-batch leaves nothing of the batch, and the next append takes the next seq', async () => {
    const {url, db, sql} = await setup()
    await db.ops.append('a', REPO, [{record: {n: 1}}, {record: {n: 2}}], {actor: 't', at: AT})
    // a trigger that makes the batch's third row wait for a lock this test holds: the append is then
    // stuck inside its transaction, after its head lock and two rows of its batch
    await sql.query(`CREATE FUNCTION hold_each_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.record->>'n' = '103' THEN PERFORM pg_advisory_xact_lock(4242); END IF; RETURN NEW; END $$`)
    await sql.query('CREATE TRIGGER hold_rows BEFORE INSERT ON ops FOR EACH ROW EXECUTE FUNCTION hold_each_row()')
    const holder = new pg.Client({connectionString: url})
    holder.on('error', () => {})
    await holder.connect()
    await holder.query('SELECT pg_advisory_lock(4242)')
    const victim = await openDb(url, 1)
    const pending = rejection(victim.ops.append('a', REPO, range(5).map((n) => ({record: {n: 100 + n}})), {actor: 'victim', at: AT}))
    let pid: number | undefined
    for (let tries = 0; pid === undefined; tries++) {
      if (tries > 1000) throw new Error('the append never reached its third row')
      const r = await sql.query("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'advisory' AND query LIKE '%INSERT INTO ops%'")
      pid = r.rows[0]?.pid
      if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    // the victim is inside its INSERT (rows 101 and 102 in, uncommitted; the trigger holds 103) and holds the head row
    expect((await sql.query("SELECT count(*)::int AS n FROM pg_locks WHERE pid = $1 AND locktype = 'transactionid' AND granted", [pid])).rows[0].n).toBe(1)
    await sql.query('SELECT pg_terminate_backend($1)', [pid])
    const err = await pending
    expect(err.code).toBe('unavailable')
    await holder.query('SELECT pg_advisory_unlock(4242)')
    await holder.end()
    await sql.query('DROP TRIGGER hold_rows ON ops')
    expect(await seqs(sql, 'a', REPO)).toEqual([1, 2])
    expect(await db.ops.head('a', REPO)).toBe(2)
    // the pool of the killed connection works again, and the seq goes on from the head
    const next = await victim.ops.append('a', REPO, [{record: {n: 3}}], {actor: 'victim', at: AT})
    expect(next.entries).toEqual([{seq: 3, replayed: false}])
  })

  it('a connection lost while committing: an error that says the write may have been kept, and a retry with its request id appends once', async () => {
    const {url, db, sql} = await setup()
    // a deferred constraint trigger runs inside COMMIT: it waits there for a lock this test holds
    await sql.query(`CREATE FUNCTION hold_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_advisory_xact_lock(4343); RETURN NULL; END $$`)
    await sql.query('CREATE CONSTRAINT TRIGGER hold_at_commit AFTER INSERT ON ops DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION hold_commit()')
    const holder = new pg.Client({connectionString: url})
    holder.on('error', () => {})
    await holder.connect()
    await holder.query('SELECT pg_advisory_lock(4343)')
    const victim = await openDb(url, 1)
    const pending = rejection(victim.ops.append('a', REPO, [{record: {n: 1}, requestId: 'req-commit'}], {actor: 'victim', at: AT}))
    let pid: number | undefined
    for (let tries = 0; pid === undefined; tries++) {
      if (tries > 1000) throw new Error('the append never reached its commit')
      const r = await sql.query("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'advisory' AND query = 'COMMIT'")
      pid = r.rows[0]?.pid
      if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    await sql.query('SELECT pg_terminate_backend($1)', [pid])
    const err = await pending
    expect([err.code, err.message]).toEqual(['unavailable', expect.stringContaining('went away while committing: the write may or may not have been kept')])
    expect(err.hint).toContain('same request id')
    await holder.end()
    await sql.query('DROP TRIGGER hold_at_commit ON ops')
    // here it was not kept; the retry appends it once, and a second retry replays it
    const retry = await victim.ops.append('a', REPO, [{record: {n: 1}, requestId: 'req-commit'}], {actor: 'victim', at: AT})
    expect(retry.entries).toEqual([{seq: 1, replayed: false}])
    const again = await db.ops.append('a', REPO, [{record: {n: 1}, requestId: 'req-commit'}], {actor: 'victim', at: AT})
    expect(again.entries).toEqual([{seq: 1, replayed: true}])
    expect(await seqs(sql, 'a', REPO)).toEqual([1])
  })

  it('another team’s repo of the same id is a separate repo: its own seqs, head and reads', async () => {
    const {db} = await setup()
    await db.ops.append('a', REPO, [{record: {team: 'a', n: 1}}, {record: {team: 'a', n: 2}}], {actor: 't', at: AT})
    await db.ops.append('b', REPO, [{record: {team: 'b', n: 1}}], {actor: 't', at: AT})
    // the same request id in each team is two requests
    await db.ops.append('a', REPO, [{record: {team: 'a', n: 3}, requestId: 'same'}], {actor: 't', at: AT})
    const b2 = await db.ops.append('b', REPO, [{record: {team: 'b', n: 2}, requestId: 'same'}], {actor: 't', at: AT})
    expect(b2.entries).toEqual([{seq: 2, replayed: false}])
    expect(await db.ops.head('a', REPO)).toBe(3)
    expect(await db.ops.head('b', REPO)).toBe(2)
    expect((await db.ops.after('b', REPO, 0)).map((r) => r.record)).toEqual([{team: 'b', n: 1}, {team: 'b', n: 2}])
    expect((await db.ops.after('a', REPO, 0)).map((r) => (r.record as {team: string}).team)).toEqual(['a', 'a', 'a'])
  })

  it('catch-up reads the records after a seq, in order, with who wrote them and when', async () => {
    const {db} = await setup()
    await db.ops.append('a', REPO, range(5).map((n) => ({record: {n}})), {actor: 'key:ci', at: AT})
    await db.ops.append('a', REPO, [{record: {n: 6}, requestId: 'r6'}], {actor: 'key:dev', at: new Date('2026-03-01T12:00:01.000Z')})
    const after3 = await db.ops.after('a', REPO, 3, 2)
    expect(after3).toEqual([
      {seq: 4, record: {n: 4}, actor: 'key:ci', requestId: null, at: AT},
      {seq: 5, record: {n: 5}, actor: 'key:ci', requestId: null, at: AT},
    ])
    expect((await db.ops.after('a', REPO, 5)).map((r) => [r.seq, r.actor, r.requestId])).toEqual([[6, 'key:dev', 'r6']])
    expect(await db.ops.after('a', REPO, 6)).toEqual([])
    expect(await db.ops.after('a', 'github.com/org/none', 0)).toEqual([])
    expect(await db.ops.head('a', 'github.com/org/none')).toBe(0)
  })

  it('bad input is refused with a message and nothing is written', async () => {
    const {db, sql} = await setup()
    const opt = {actor: 't', at: AT}
    const cases: Array<[() => Promise<unknown>, string, RegExp]> = [
      [() => db.ops.append('nobody', REPO, [{record: {n: 1}}], opt), 'not_found', /No team nobody/],
      [() => db.ops.append('a', '/home/me/app', [{record: {n: 1}}], opt), 'invalid_input', /never a path/],
      [() => db.ops.append('a', 'github.com/org/../x', [{record: {n: 1}}], opt), 'invalid_input', /never a path/],
      [() => db.ops.append('a', REPO, [], opt), 'invalid_input', /batch is empty/],
      [() => db.ops.append('a', REPO, [{record: 'text'}], opt), 'invalid_input', /not a JSON object/],
      [() => db.ops.append('a', REPO, [{record: {n: 1}, requestId: 'has space'}], opt), 'invalid_input', /Invalid request id/],
      [() => db.ops.append('a', REPO, [{record: {n: 1}}, {record: {s: 'nul \u0000 here'}}], opt), 'invalid_input', /NUL/],
      [() => db.ops.append('a', REPO, [{record: {s: 'x'.repeat(1024 * 1024)}}], opt), 'payload_too_large', /more than/],
      [() => db.ops.append('a', REPO, range(1001).map((n) => ({record: {n}})), opt), 'invalid_input', /more than 1000/],
      [() => db.ops.append('a', REPO, [{record: {n: 1}}], {actor: '', at: AT}), 'invalid_input', /Invalid actor/],
      [() => db.ops.append('a', REPO, [{record: {n: 1}}], {actor: 't', at: new Date('not a date')}), 'invalid_input', /Invalid time/],
      [() => db.ops.after('a', REPO, -1), 'invalid_input', /Invalid seq/],
    ]
    for (const [p, code, message] of cases) {
      const err = await rejection(p())
      expect([err.code, err.message]).toEqual([code, expect.stringMatching(message)])
    }
    expect((await sql.query('SELECT count(*)::int AS n FROM ops')).rows[0].n).toBe(0)
    expect((await sql.query("SELECT count(*)::int AS n FROM repos WHERE team <> 'a' OR repo <> $1", [REPO])).rows[0].n).toBe(0)
    expect(await db.ops.head('a', REPO)).toBe(0)
  })
})

describe('a pool with no connection free', () => {
  it('answers unavailable (503, exit 69) once its wait for a connection is over, and works again after', async () => {
    const {url} = await setup()
    const db = await openTeamDb({url, shown: maskUrl(new URL(url)), max: 1, connectTimeoutMs: 200})
    onTestFinished(() => db.close())
    const held = await db.ops.tryMaintenanceLock('a', REPO) // holds the pool's one connection
    const err = await rejection(db.ops.head('a', REPO))
    expect([err.code, err.exitCode, err.message]).toEqual(['unavailable', 69, expect.stringContaining('gave no connection in time')])
    await held!.release()
    expect(await db.ops.head('a', REPO)).toBe(0)
  })
})

describe('the maintenance lock', () => {
  it('one holder per repo across pools; released, the next gets it; other repos and teams are free', async () => {
    const {url, db} = await setup()
    const other = await openDb(url)
    const held = await db.ops.tryMaintenanceLock('a', REPO)
    expect(held).not.toBe(null)
    expect(await other.ops.tryMaintenanceLock('a', REPO)).toBe(null)
    const elsewhere = await other.ops.tryMaintenanceLock('b', REPO)
    expect(elsewhere).not.toBe(null)
    const otherRepo = await other.ops.tryMaintenanceLock('a', 'github.com/org/lib')
    expect(otherRepo).not.toBe(null)
    await held!.release()
    const next = await other.ops.tryMaintenanceLock('a', REPO)
    expect(next).not.toBe(null)
    await Promise.all([next!.release(), elsewhere!.release(), otherRepo!.release()])
  })

  it('a holder whose connection dies frees the lock (as when its replica is killed)', async () => {
    const {url, db, sql} = await setup()
    const doomed = await openDb(url, 1)
    const held = await doomed.ops.tryMaintenanceLock('a', REPO)
    expect(held).not.toBe(null)
    expect(await db.ops.tryMaintenanceLock('a', REPO)).toBe(null)
    const r = await sql.query("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")
    expect(r.rows.length).toBe(1)
    await sql.query('SELECT pg_terminate_backend($1)', [r.rows[0].pid])
    let after = await db.ops.tryMaintenanceLock('a', REPO)
    // the backend's exit is asynchronous to pg_terminate_backend's answer
    for (let tries = 0; after === null; tries++) {
      if (tries > 1000) throw new Error('the lock was never freed')
      await new Promise((resolve) => setTimeout(resolve, 20))
      after = await db.ops.tryMaintenanceLock('a', REPO)
    }
    await after.release()
    await held!.release() // on a dead connection: no error
  })
})
