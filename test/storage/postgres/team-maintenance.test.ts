// Team mode's maintenance runs and scheduler in the team store (faces/server/team-maintenance.ts,
// storage/postgres/maintenance.ts), against the real Postgres with two replicas in this process: a
// run started on one is polled from the other, a replica that dies mid-pass frees the repo's lock
// and its run reads as failed (abandoned), and a due task is run by one replica once.
import {describe, expect, it} from 'vitest'
import {runMaintenance} from '../../../src/engines/maintenance/pipeline.js'
import {withMaintenanceLock} from '../../../src/engines/maintenance/lock.js'
import type {RepoHandle} from '../../../src/engines/context.js'
import {TeamMaintenanceRuns, TeamScheduler} from '../../../src/faces/server/team-maintenance.js'
import {fixedClock} from '../../helpers/mem.js'
import {admin} from '../../helpers/pg.js'
import {api, inProcessReplica, teamKey, teamStore} from '../../helpers/team-server.js'

const REPO = 'github.com/acme/app'
const ACME = {team: 'acme', repos: null}
const HOUR = 60 * 60 * 1000

function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return {open, opened}
}

async function setup(repos = [REPO]) {
  const {db, url} = await teamStore()
  const key = await teamKey(db, 'acme', 'ops', 'admin')
  const reader = await teamKey(db, 'acme', 'reader', 'read')
  const other = await teamKey(db, 'globex', 'ops', 'admin')
  const clock = fixedClock()
  const a = await inProcessReplica(url, {name: 'replica-a', clock, maintenance: {schedule: false}})
  const b = await inProcessReplica(url, {name: 'replica-b', clock, maintenance: {schedule: false}})
  for (const repo of repos) {
    for (let i = 0; i < 3; i++) {
      const res = await api(a.url, key, 'POST', '/api/mem', {repo, type: 'insight', content: `The ${repo} build needs step ${i} before the deploy`})
      expect(res.status).toBe(201)
    }
  }
  return {db, url, key, reader, other, clock, a, b}
}

describe('maintenance runs in the team store', () => {
  it('a run started on one replica is polled from the other, by its team only, and forgotten an hour after it finished', async () => {
    const {key, reader, other, clock, a, b} = await setup()
    const hold = gate()
    const runsA = new TeamMaintenanceRuns({
      runtime: a.runtime,
      runPass: async (repo: RepoHandle, signal) => {
        await hold.opened
        return runMaintenance(a.runtime, repo, {signal})
      },
    })
    const runsB = new TeamMaintenanceRuns({runtime: b.runtime})
    const started = await a.runtime.asPrincipal(ACME, () => runsA.start(REPO))
    expect(started.joined).toBe(false)

    const running = await b.runtime.asPrincipal(ACME, () => runsB.get(started.runId))
    expect(running).toMatchObject({runId: started.runId, repo: 'github.com~acme~app', status: 'running', startedAt: clock().toISOString()})
    expect(running?.completedAt).toBeUndefined()
    // a retry on A joins the pass under a new run id, which B sees too
    const joined = await a.runtime.asPrincipal(ACME, () => runsA.start(REPO))
    expect(joined.joined).toBe(true)
    expect(joined.runId).not.toBe(started.runId)
    expect((await b.runtime.asPrincipal(ACME, () => runsB.get(joined.runId)))?.status).toBe('running')
    // another team's key: not found, through the route too
    expect(await b.runtime.asPrincipal({team: 'globex', repos: null}, () => runsB.get(started.runId))).toBeUndefined()

    hold.open()
    await started.done
    for (const runId of [started.runId, joined.runId]) {
      const done = await b.runtime.asPrincipal(ACME, () => runsB.get(runId))
      expect(done?.status).toBe('completed')
      expect(done?.completedAt).toBe(clock().toISOString())
      expect(done?.report?.stages.length).toBeGreaterThan(0)
      expect(done?.report?.repoId).toBe('github.com~acme~app')
      expect(done?.report?.repoId).toBe(started.outcome().report?.repoId)
    }

    // the same through HTTP on B (the route's own runs registry reads the same table)
    const polled = await api(b.url, key, 'GET', `/api/maintenance/runs/${started.runId}`)
    expect(polled.status).toBe(200)
    expect(polled.body).toMatchObject({runId: started.runId, status: 'completed', repo: 'github.com~acme~app'})
    expect((await api(b.url, other, 'GET', `/api/maintenance/runs/${started.runId}`)).status).toBe(404)
    expect((await api(b.url, reader, 'GET', `/api/maintenance/runs/${started.runId}`)).status).toBe(403)
    expect((await api(b.url, key, 'GET', '/api/maintenance/runs/no-such-run')).status).toBe(404)

    clock.advance(HOUR - 1)
    expect((await api(a.url, key, 'GET', `/api/maintenance/runs/${started.runId}`)).status).toBe(200)
    clock.advance(1)
    expect((await api(a.url, key, 'GET', `/api/maintenance/runs/${started.runId}`)).status).toBe(404)
  })

  it('a POST through one replica answers the report, and a pass running on the other is a 409 conflict', async () => {
    const {key, a, b} = await setup()
    const hold = gate()
    const holding = gate()
    const runsA = new TeamMaintenanceRuns({
      runtime: a.runtime,
      runPass: (repo: RepoHandle) =>
        withMaintenanceLock(repo.store, async () => {
          holding.open()
          await hold.opened
          return runMaintenance(a.runtime, repo, {dryRun: true})
        }),
    })
    const started = await a.runtime.asPrincipal(ACME, () => runsA.start(REPO))
    await holding.opened
    const conflict = await api(b.url, key, 'POST', `/api/maintenance?repo=${encodeURIComponent(REPO)}`)
    expect(conflict.status).toBe(409)
    hold.open()
    await started.done
    const ok = await api(b.url, key, 'POST', `/api/maintenance?repo=${encodeURIComponent(REPO)}`)
    expect(ok.status).toBe(200)
    expect(ok.body.stages.length).toBeGreaterThan(0)
  })

  it('a replica that dies holding the maintenance lock frees it, and its run reads as failed (abandoned) from the other', async () => {
    const {url, key, a, b} = await setup()
    const hold = gate()
    const holding = gate()
    const runsA = new TeamMaintenanceRuns({
      runtime: a.runtime,
      runPass: (repo: RepoHandle) =>
        withMaintenanceLock(repo.store, async () => {
          holding.open()
          await hold.opened
          throw new Error('unreachable: the test ends the pass after its connections died')
        }),
    })
    const runsB = new TeamMaintenanceRuns({runtime: b.runtime})
    const started = await a.runtime.asPrincipal(ACME, () => runsA.start(REPO))
    await holding.opened
    const lockOf = (repo: string) => b.runtime.team.ops.tryMaintenanceLock('acme', repo)
    expect(await lockOf(REPO)).toBeNull()
    expect((await b.runtime.asPrincipal(ACME, () => runsB.get(started.runId)))?.status).toBe('running')

    // replica A's connections all die, as when its process is killed (the slow test kills a process)
    const killed = await admin(url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'replica-a'")
    expect(killed.rowCount).toBeGreaterThan(0)

    const lock = await lockOf(REPO)
    expect(lock).not.toBeNull()
    await lock!.release()
    const run = await b.runtime.asPrincipal(ACME, () => runsB.get(started.runId))
    expect(run?.status).toBe('failed')
    expect(run?.error).toMatch(/^abandoned: the replica running it \(replica-a\) stopped/)
    expect(run?.completedAt).toBeDefined()
    // and through HTTP, and a new pass runs on the survivor
    expect((await api(b.url, key, 'GET', `/api/maintenance/runs/${started.runId}`)).body.status).toBe('failed')
    expect((await api(b.url, key, 'POST', `/api/maintenance?repo=${encodeURIComponent(REPO)}`)).status).toBe(200)

    hold.open()
    await started.done // its rows cannot be finished (the connection is gone): they stay failed
    expect((await b.runtime.asPrincipal(ACME, () => runsB.get(started.runId)))?.error).toMatch(/^abandoned/)
  })
})

describe('the scheduler in maintenance_tasks', () => {
  it('two replicas looking for due tasks at once run each due task once, then again when it is due again', async () => {
    const repos = [REPO, 'github.com/acme/lib', 'github.com/acme/web']
    const {db, clock, a, b} = await setup(repos)
    const passes: Array<{replica: string; repo: string}> = []
    const scheduler = (replica: typeof a, name: string) => {
      const runs = new TeamMaintenanceRuns({
        runtime: replica.runtime,
        runPass: async (repo: RepoHandle, signal) => {
          passes.push({replica: name, repo: repo.id})
          return runMaintenance(replica.runtime, repo, {signal})
        },
      })
      return new TeamScheduler({runtime: replica.runtime, runs, firstRunDelayMs: 0, intervalMs: 24 * HOUR})
    }
    const sa = scheduler(a, 'a')
    const sb = scheduler(b, 'b')
    await Promise.all([sa.runDue(), sb.runDue(), sa.runDue(), sb.runDue()])
    expect(passes.map((p) => p.repo).sort()).toEqual(['github.com~acme~app', 'github.com~acme~lib', 'github.com~acme~web'])

    // nothing is due any more
    await Promise.all([sa.runDue(), sb.runDue()])
    expect(passes).toHaveLength(3)
    const listed = a.runtime.asPrincipal(ACME, () => sa.list().tasks)
    expect(listed.map((t) => [t.repo, t.status, t.lastRunAt, t.nextRunAt])).toEqual(
      repos.map((r) => [r.replaceAll('/', '~'), 'ok', clock().toISOString(), new Date(clock().getTime() + 24 * HOUR).toISOString()]).sort(),
    )
    expect(a.runtime.asPrincipal({team: 'globex', repos: null}, () => sa.list().tasks)).toEqual([])
    const scheduled = await db.pg.query<{n: string}>("SELECT count(*) AS n FROM maintenance_runs WHERE kind = 'scheduled' AND status = 'done'")
    expect(Number(scheduled[0].n)).toBe(3)

    clock.advance(24 * HOUR)
    await Promise.all([sb.runDue(), sa.runDue()])
    expect(passes).toHaveLength(6)
    expect(passes.slice(3).map((p) => p.repo).sort()).toEqual(['github.com~acme~app', 'github.com~acme~lib', 'github.com~acme~web'])
  })

  it('a failed pass is recorded and retried after an hour; a claimer that dies leaves its task due again when the lease ends', async () => {
    const {db, clock, a, b} = await setup()
    let fail = true
    const runs = new TeamMaintenanceRuns({
      runtime: a.runtime,
      runPass: async (repo: RepoHandle, signal) => {
        if (fail) throw new Error('stage exploded')
        return runMaintenance(a.runtime, repo, {signal})
      },
    })
    const sa = new TeamScheduler({runtime: a.runtime, runs, firstRunDelayMs: 0})
    await sa.runDue()
    const [task] = a.runtime.asPrincipal(ACME, () => sa.list().tasks)
    expect(task).toMatchObject({status: 'failed', nextRunAt: new Date(clock().getTime() + HOUR).toISOString()})
    expect(task.lastError).toBeTruthy()
    fail = false
    clock.advance(HOUR)
    await sa.runDue()
    expect(a.runtime.asPrincipal(ACME, () => sa.list().tasks)[0]).toMatchObject({status: 'ok', lastError: null})

    // a claim whose replica never finishes it: due again once its lease is over, not before
    clock.advance(24 * HOUR)
    const claimed = await db.maintenance.claimDue('maintenance', 'a-replica-that-dies', clock(), HOUR)
    expect(claimed?.repo).toBe(REPO)
    const sb = new TeamScheduler({runtime: b.runtime, runs: new TeamMaintenanceRuns({runtime: b.runtime}), firstRunDelayMs: 0})
    await sb.runDue()
    expect(b.runtime.asPrincipal(ACME, () => sb.list().tasks)[0]).toMatchObject({status: 'running'})
    clock.advance(HOUR)
    await sb.runDue()
    expect(b.runtime.asPrincipal(ACME, () => sb.list().tasks)[0]).toMatchObject({status: 'ok', lastRunAt: clock().toISOString()})
  })
})
