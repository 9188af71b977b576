// Two replicas of `mem serve --store` as real processes on one database (the test Postgres): four
// clients alternating between them, and a replica killed with SIGKILL in the middle of a burst.
// Bounded counts; nothing here asserts a time.
import pg from 'pg'
import {describe, expect, it, vi} from 'vitest'
import {api, ownCluster, processReplica, teamKey, teamStore} from '../../helpers/team-server.js'

const REPO = 'github.com/acme/app'
const enc = encodeURIComponent

async function seqs(url: string, repo = REPO): Promise<number[]> {
  const client = new pg.Client({connectionString: url})
  await client.connect()
  try {
    return (await client.query('SELECT seq FROM ops WHERE team = $1 AND repo = $2 ORDER BY seq', ['acme', repo])).rows.map((r) => Number(r.seq))
  } finally {
    await client.end()
  }
}

describe('two mem serve --store processes on one database', () => {
  it('four clients alternating between them: every acknowledged store readable through both, feedback counters exact, seq gapless', async () => {
    const {db, url} = await teamStore()
    const key = await teamKey(db, 'acme', 'agent', 'write')
    const replicas = [await processReplica(url), await processReplica(url)]
    const PER_CLIENT = 12
    const ids: string[] = []
    await Promise.all(
      [0, 1, 2, 3].map(async (c) => {
        for (let i = 0; i < PER_CLIENT; i++) {
          const r = replicas[(c + i) % 2]
          const res = await api(r.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: `Client ${c} learned fact number ${i}: service ${c * 100 + i} needs its own queue`})
          expect(res.status).toBe(201)
          ids.push(res.body.id)
        }
      }),
    )
    expect(new Set(ids).size).toBe(4 * PER_CLIENT)
    // feedback on one memory from all four clients, alternating replicas: 4 × 5 used, 4 × 3 unused
    const target = ids[0]
    await Promise.all(
      [0, 1, 2, 3].map(async (c) => {
        for (let i = 0; i < 8; i++) {
          const res = await api(replicas[(c + i) % 2].url, key, 'POST', '/api/mem/feedback', {memoryId: target, wasUsed: i < 5})
          expect(res.status).toBe(200)
        }
      }),
    )
    for (const r of replicas) {
      for (const id of ids) expect((await api(r.url, key, 'GET', `/api/mem/${enc(id)}`)).status, id).toBe(200)
      const recalled = await api(r.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=${enc('Client 3 learned fact number 11')}&limit=5`)
      expect(recalled.body.results.map((x: any) => x.content)).toContain('Client 3 learned fact number 11: service 311 needs its own queue')
      const m = (await api(r.url, key, 'GET', `/api/mem/${enc(target)}`)).body
      expect([m.usedCount, m.unusedCount]).toEqual([20, 12])
    }
    const s = await seqs(url)
    expect(s).toEqual(s.map((_, i) => i + 1))
    expect(s.length).toBeGreaterThanOrEqual(1) // batches: fewer records than writes, never a gap
  })

  it('kill -9 of a replica mid-burst: every store it acknowledged is readable through the other; seq stays gapless', async () => {
    const {db, url} = await teamStore()
    const key = await teamKey(db, 'acme', 'agent', 'write')
    const victim = await processReplica(url)
    const survivor = await processReplica(url)
    const acked: string[] = []
    let killed = false
    const burst = [0, 1, 2, 3].map(async (c) => {
      for (let i = 0; i < 40; i++) {
        if (killed && i % 2 === 0) continue
        const r = i % 2 === 0 ? victim : survivor
        try {
          const res = await api(r.url, key, 'POST', '/api/mem', {repo: REPO, type: 'observation', content: `Burst ${c}-${i}: the deploy of build ${c * 1000 + i} passed`})
          if (res.status === 201) acked.push(res.body.id)
        } catch {
          // the victim's connection cut: not acknowledged
        }
        // kill once a few stores were acknowledged, with requests in flight
        if (!killed && acked.length >= 10) {
          killed = true
          await victim.kill()
        }
      }
    })
    await Promise.all(burst)
    expect(killed).toBe(true)
    expect(acked.length).toBeGreaterThan(10)
    for (const id of acked) {
      const res = await api(survivor.url, key, 'GET', `/api/mem/${enc(id)}`)
      expect(res.status, id).toBe(200)
    }
    const s = await seqs(url)
    expect(s).toEqual(s.map((_, i) => i + 1))
    expect(survivor.stderr()).not.toContain('internal error')
  })

  it('Postgres killed with pg_ctl -m immediate mid-burst: 503 during the gap, never a false acknowledgement, both replicas serve again with every acknowledged store', async () => {
    const cluster = await ownCluster()
    const {db, url} = await teamStore(cluster.url)
    const key = await teamKey(db, 'acme', 'agent', 'write')
    const replicas = [await processReplica(url), await processReplica(url)]
    const acked: Array<{id: string; content: string}> = []
    const statuses: number[] = []
    const store = async (r: {url: string}, content: string) => {
      const res = await api(r.url, key, 'POST', '/api/mem', {repo: REPO, type: 'observation', content})
      statuses.push(res.status)
      if (res.status === 201) acked.push({id: res.body.id, content})
      return res
    }
    let killing: Promise<void> | undefined
    // four clients alternating between the replicas; Postgres is killed once 12 stores are acknowledged, with requests in flight
    await Promise.all(
      [0, 1, 2, 3].map(async (c) => {
        for (let i = 0; i < 12; i++) {
          await store(replicas[(c + i) % 2], `Before the crash ${c}-${i}: the cache of service ${c * 100 + i} warmed`)
          if (!killing && acked.length >= 12) killing = cluster.kill()
        }
      }),
    )
    expect(killing).toBeDefined()
    await killing
    // the gap: both replicas answer 503 unavailable, and acknowledge nothing
    for (const r of replicas) {
      for (let i = 0; i < 3; i++) {
        const res = await store(r, `During the gap ${i}: this store must not be acknowledged`)
        expect(res.status).toBe(503)
        expect(res.body.error).toBeTruthy()
        const read = await api(r.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=cache`)
        expect(read.status).toBe(503)
      }
    }
    expect(acked.some((a) => a.content.startsWith('During the gap'))).toBe(false)
    // every answer was an acknowledgement or a 503: no 500, no hang
    expect(statuses.filter((s) => s !== 201 && s !== 503)).toEqual([])

    await cluster.restart()
    // both replicas serve again (their pools reconnect; a request on a dead pooled connection is a 503 first)
    for (const [n, r] of replicas.entries()) {
      await vi.waitFor(async () => expect((await store(r, `After the restart, replica ${n} stores again`)).status).toBe(201), {timeout: 20_000, interval: 200})
    }
    for (let i = 0; i < 4; i++) expect((await store(replicas[i % 2], `After the restart ${i}: the deploy of build ${i} resumed`)).status).toBe(201)
    // every acknowledged store, through both replicas; one replica's write read through the other
    for (const r of replicas) {
      for (const {id, content} of acked) {
        const got = await api(r.url, key, 'GET', `/api/mem/${enc(id)}`)
        expect(got.status, id).toBe(200)
        expect(got.body.content).toBe(content)
      }
    }
    const s = await seqs(url)
    expect(s).toEqual(s.map((_, i) => i + 1))
    for (const r of replicas) expect(r.stderr()).not.toContain('internal error')
  }, 120_000) // its own cluster, started, killed and restarted: ~10 s idle, past 30 s on a loaded machine (a CI run beside two other sessions)

  it('kill -9 of a replica holding the maintenance lock mid-pass: the lock is freed, its run reads failed (abandoned) from the survivor, and a new pass runs there', async () => {
    const {db, url} = await teamStore()
    const key = await teamKey(db, 'acme', 'ops', 'admin')
    const victim = await processReplica(url)
    const survivor = await processReplica(url)
    const ids: string[] = []
    for (let i = 0; i < 6; i++) {
      const res = await api(victim.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: `Service ${i} needs the retry budget raised to ${i + 3} before the release`})
      expect(res.status).toBe(201)
      ids.push(res.body.id)
    }
    // hold the repo's head row so the pass blocks at its first commit, holding the maintenance lock
    const blocker = new pg.Client({connectionString: url})
    await blocker.connect()
    await blocker.query('BEGIN')
    await blocker.query('SELECT head FROM repos WHERE team = $1 AND repo = $2 FOR NO KEY UPDATE', ['acme', REPO])
    const posted = api(victim.url, key, 'POST', `/api/maintenance?repo=${enc(REPO)}`).catch((err: unknown) => err)
    // the pass runs on the victim and waits on the row: its run row says running, and another replica cannot take the lock
    const runId = await vi.waitFor(
      async () => {
        const rows = (await db.pg.query<{run_id: string}>("SELECT run_id FROM maintenance_runs WHERE status = 'running'"))
        expect(rows).toHaveLength(1)
        // the pass holds the maintenance lock (a replica's usage flush may be the backend waiting on the row before it does)
        const held = await db.pg.query<{n: string}>(
          "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0)",
          [`mem-maintenance:acme/${REPO}`],
        )
        expect(Number(held[0].n)).toBe(1)
        const waiting = await db.pg.query<{n: string}>("SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND application_name = 'mem-serve'")
        expect(Number(waiting[0].n)).toBeGreaterThanOrEqual(1)
        return rows[0].run_id
      },
      {timeout: 20_000, interval: 100},
    )
    expect(await db.ops.tryMaintenanceLock('acme', REPO)).toBeNull()
    expect((await api(survivor.url, key, 'GET', `/api/maintenance/runs/${runId}`)).body.status).toBe('running')
    expect((await api(survivor.url, key, 'POST', `/api/maintenance?repo=${enc(REPO)}`)).status).toBe(409)

    await victim.kill()
    expect(await posted).toBeInstanceOf(Error) // the connection died with the process: no answer
    // Postgres drops the dead process's idle connections, and their advisory locks with them
    const lock = await vi.waitFor(
      async () => {
        const got = await db.ops.tryMaintenanceLock('acme', REPO)
        expect(got).not.toBeNull()
        return got!
      },
      {timeout: 20_000, interval: 100},
    )
    await lock.release()
    // the pass's own lock was on another of the dead replica's connections, which Postgres may drop
    // a moment after the first: the survivor reads the run as abandoned once that one is gone too
    const run = await vi.waitFor(
      async () => {
        const r = await api(survivor.url, key, 'GET', `/api/maintenance/runs/${runId}`)
        expect(r.status).toBe(200)
        expect(r.body.status).toBe('failed')
        return r
      },
      {timeout: 20_000, interval: 100},
    )
    expect(run.body.error).toMatch(/^abandoned: the replica running it \(.+\) stopped/)

    // the blocked transaction of the dead replica never commits; a new pass runs on the survivor
    await blocker.query('ROLLBACK')
    await blocker.end()
    const again = await api(survivor.url, key, 'POST', `/api/maintenance?repo=${enc(REPO)}`)
    expect(again.status).toBe(200)
    for (const id of ids) expect((await api(survivor.url, key, 'GET', `/api/mem/${enc(id)}`)).status, id).toBe(200)
    const s = await seqs(url)
    expect(s).toEqual(s.map((_, i) => i + 1))
    expect(survivor.stderr()).not.toContain('internal error')
  })
})
