// POST /api/mem/consolidate, POST /api/maintenance, GET /api/maintenance/runs/{id} and
// GET /api/mem/scheduled-tasks: the spec's maintenance rules, with an injected clock and passes
// held open by the test (no sleeping).
import {describe, expect, it} from 'vitest'
import {createKey} from '../../../src/config/api-keys.js'
import {store} from '../../../src/operations/store.js'
import {MemError} from '../../../src/model/errors.js'
import {MaintenanceRuns} from '../../../src/faces/server/maintenance-runs.js'
import {buildServer} from '../../../src/faces/server/build-server.js'
import {ConsolidateResult, MaintenanceAccepted, MaintenanceReport, MaintenanceRun, ScheduledTasksResult} from '../../../src/model/shapes/operations.js'
import {ErrorResponse} from '../../../src/model/shapes/index.js'
import {memRepo} from '../../helpers/mem.js'
import {eventually, memServer, rawRequest} from '../../helpers/server.js'

const MIN = 60_000

/** Three related observations: one candidate cluster. */
async function storeE2E(ctx: Parameters<typeof store>[0], repo: string): Promise<void> {
  for (const content of [
    'The payments e2e suite times out when the stripe mock container starts slowly.',
    'Retrying the checkout e2e test fixed a timeout caused by the stripe mock warming up.',
    'Stripe mock needs about 20 seconds before the e2e payment tests can connect.',
  ]) {
    await store(ctx, {repo, content, type: 'observation', tags: ['e2e']})
  }
}

function deferred<T>() {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return {promise, resolve, reject}
}

/** A server whose maintenance passes wait for the test to finish them. */
function heldServer(options: {windowMs: number}) {
  const r = memRepo()
  const passes: Array<{repoId: string; finish: ReturnType<typeof deferred<MaintenanceReport>>}> = []
  const runs = new MaintenanceRuns({
    ctx: r.ctx,
    windowMs: options.windowMs,
    runPass: (repoId) => {
      const finish = deferred<MaintenanceReport>()
      passes.push({repoId, finish})
      return finish.promise
    },
  })
  const app = buildServer({ctx: r.ctx, maintenance: runs})
  const post = (repo = r.repo) => app.inject({method: 'POST', url: `/api/maintenance?repo=${encodeURIComponent(repo)}`})
  const poll = (path: string) => app.inject({method: 'GET', url: path})
  return {...r, app, runs, passes, post, poll}
}

const report = (repoId: string): MaintenanceReport => ({repoId, stages: [{name: 'ttl-expiry', affected: 2, durationMs: 1}]})

describe('POST /api/maintenance and its runs', () => {
  it('answers 200 with the report when the pass finishes within the window', async () => {
    const {url, repo, ctx, clock} = await memServer()
    clock.set('2026-03-01T12:00:00.000Z')
    await store(ctx, {repo, content: 'expiring note', type: 'observation'})
    const r = await rawRequest(`${url}/api/maintenance?repo=${encodeURIComponent(repo)}`, {method: 'POST'})
    expect(r.status).toBe(200)
    const body = MaintenanceReport.parse(r.json())
    expect(body.repoId).toBe((await ctx.repo(repo, 'write')).id)
    expect(body.stages.map((s) => s.name)).toEqual(['ttl-expiry', 'retention', 'dedup', 'decay', 'cleanup', 'enrichment', 'consolidation'])
  })

  it('answers 202 with {runId, repo, status, startedAt, poll} past the window; the run is polled to completion', async () => {
    const {post, poll, passes, clock, repo, ctx} = heldServer({windowMs: 0})
    const repoId = (await ctx.repo(repo, 'write')).id
    const r = await post()
    expect(r.statusCode).toBe(202)
    const accepted = MaintenanceAccepted.parse(r.json())
    expect(accepted).toEqual({runId: accepted.runId, repo: repoId, status: 'running', startedAt: clock().toISOString(), poll: `/api/maintenance/runs/${accepted.runId}`})

    const running = await poll(accepted.poll)
    expect(running.statusCode).toBe(200)
    expect(MaintenanceRun.parse(running.json())).toEqual({runId: accepted.runId, repo: repoId, status: 'running', startedAt: accepted.startedAt})

    clock.advance(5 * MIN)
    passes[0].finish.resolve(report(repoId))
    await eventually(async () => (await poll(accepted.poll)).json().status === 'completed')
    const done = MaintenanceRun.parse((await poll(accepted.poll)).json())
    expect(done).toEqual({
      runId: accepted.runId,
      repo: repoId,
      status: 'completed',
      startedAt: accepted.startedAt,
      completedAt: clock().toISOString(),
      report: report(repoId),
    })
  })

  it('a retry starts no second pass: it gets a new run id reporting the same pass', async () => {
    const {post, poll, passes, clock, ctx, repo} = heldServer({windowMs: 0})
    const repoId = (await ctx.repo(repo, 'write')).id
    const first = (await post()).json()
    clock.advance(MIN)
    const second = (await post()).json()
    expect(second.runId).not.toBe(first.runId)
    expect(second.startedAt).toBe(first.startedAt) // the same pass
    expect(passes).toHaveLength(1)
    passes[0].finish.resolve(report(repoId))
    await eventually(async () => (await poll(second.poll)).json().status === 'completed')
    expect((await poll(first.poll)).json().report).toEqual((await poll(second.poll)).json().report)
    // once finished, a new POST starts a new pass
    const third = (await post()).json()
    expect(passes).toHaveLength(2)
    expect(third.startedAt).toBe(clock().toISOString())
  })

  it('a retry within the window of a pass that then finishes answers 200 with that pass report', async () => {
    const {post, passes, ctx, repo} = heldServer({windowMs: 60_000})
    const repoId = (await ctx.repo(repo, 'write')).id
    const a = post()
    const b = post()
    await eventually(() => passes.length === 1)
    passes[0].finish.resolve(report(repoId))
    const [ra, rb] = await Promise.all([a, b])
    expect([ra.statusCode, rb.statusCode]).toEqual([200, 200])
    expect(ra.json()).toEqual(report(repoId))
    expect(rb.json()).toEqual(report(repoId))
    expect(passes).toHaveLength(1)
  })

  it('a finished run stays pollable for one hour, then answers 404', async () => {
    const {post, poll, passes, clock, ctx, repo} = heldServer({windowMs: 0})
    const repoId = (await ctx.repo(repo, 'write')).id
    const {poll: path} = (await post()).json()
    clock.advance(10 * MIN) // running time does not count
    passes[0].finish.resolve(report(repoId))
    await eventually(async () => (await poll(path)).json().status === 'completed')
    clock.advance(60 * MIN - 1)
    expect((await poll(path)).statusCode).toBe(200)
    clock.advance(1)
    const gone = await poll(path)
    expect(gone.statusCode).toBe(404)
    expect(ErrorResponse.parse(gone.json())).toMatchObject({code: 'not_found'})
    expect((await poll('/api/maintenance/runs/no-such-run')).statusCode).toBe(404)
  })

  it('a failed run reports status failed and error instead of report', async () => {
    const {post, poll, passes, clock} = heldServer({windowMs: 0})
    const {poll: path, runId, startedAt} = (await post()).json()
    clock.advance(2 * MIN)
    passes[0].finish.reject(new MemError('unavailable', 'The memory store is read-only; nothing was written.'))
    await eventually(async () => (await poll(path)).json().status === 'failed')
    const body = MaintenanceRun.parse((await poll(path)).json())
    expect(body).toMatchObject({runId, status: 'failed', error: 'The memory store is read-only; nothing was written.'})
    expect(body.report).toBeUndefined()
    expect(body.completedAt).toBe(clock().toISOString())
    expect(body.completedAt).not.toBe(startedAt)
  })

  it('a bug in a pass shows a generic error, never its internals', async () => {
    const {post, poll, passes} = heldServer({windowMs: 0})
    const {poll: path} = (await post()).json()
    passes[0].finish.reject(new TypeError('secret internal detail'))
    await eventually(async () => (await poll(path)).json().status === 'failed')
    expect((await poll(path)).json().error).toBe('Internal error: this is a bug in mem.')
  })

  it('within the window, a pass that fails answers its error (409 while another process holds the lock)', async () => {
    const {post, passes} = heldServer({windowMs: 60_000})
    const answer = post()
    await eventually(() => passes.length === 1)
    passes[0].finish.reject(new MemError('conflict', 'A maintenance pass is already running on /x/.mem (another mem process holds .mem/maintenance.lock).'))
    const r = await answer
    expect(r.statusCode).toBe(409)
    expect(r.json()).toMatchObject({code: 'conflict', error: expect.stringMatching(/already running/)})
  })

  it('with the real pipeline and no window, a pass answers 202 and completes in the background', async () => {
    const {url, repo, ctx} = await memServer({server: {maintenance: {windowMs: 0}}})
    await store(ctx, {repo, content: 'something to maintain', type: 'observation'})
    const r = await rawRequest(`${url}/api/maintenance?repo=${encodeURIComponent(repo)}`, {method: 'POST'})
    expect(r.status).toBe(202)
    const {poll} = r.json()
    const done = await eventually(async () => {
      const p = (await rawRequest(`${url}${poll}`)).json()
      return p.status === 'completed' && p
    })
    expect(MaintenanceRun.parse(done).report!.stages).toHaveLength(7)
  })
})

describe('scopes', () => {
  it('maintenance POST and poll need admin; consolidate needs write; scheduled tasks read', async () => {
    const {url, home, repo, ctx} = await memServer()
    await store(ctx, {repo, content: 'a note', type: 'observation'})
    const keys: Record<string, string> = {}
    for (const scope of ['read', 'write', 'admin']) keys[scope] = (await createKey(home, {name: scope, scope, now: new Date()})).key
    const q = `repo=${encodeURIComponent(repo)}`
    const call = (method: string, path: string, scope?: string) =>
      rawRequest(`${url}${path}`, {method, headers: scope ? {authorization: `Bearer ${keys[scope]}`} : {}})

    expect((await call('POST', `/api/maintenance?${q}`)).status).toBe(401)
    for (const scope of ['read', 'write']) {
      const r = await call('POST', `/api/maintenance?${q}`, scope)
      expect(r.status).toBe(403)
      expect(r.json()).toMatchObject({code: 'forbidden', required: 'admin'})
      expect((await call('GET', '/api/maintenance/runs/x', scope)).status).toBe(403)
    }
    expect((await call('POST', `/api/maintenance?${q}`, 'admin')).status).toBe(200)
    expect((await call('GET', '/api/maintenance/runs/x', 'admin')).status).toBe(404)

    expect((await call('POST', `/api/mem/consolidate?${q}`, 'read')).status).toBe(403)
    expect((await call('POST', `/api/mem/consolidate?${q}`, 'write')).status).toBe(200)
    expect((await call('GET', '/api/mem/scheduled-tasks')).status).toBe(401)
    expect((await call('GET', '/api/mem/scheduled-tasks', 'read')).status).toBe(200)
  })
})

describe('POST /api/mem/consolidate', () => {
  it('dry_run lists candidates and writes nothing; a run creates; a second run answers zeros', async () => {
    const {url, repo, ctx} = await memServer()
    await storeE2E(ctx, repo)
    const q = `repo=${encodeURIComponent(repo)}`
    const dry = await rawRequest(`${url}/api/mem/consolidate?${q}&dry_run=true`, {method: 'POST'})
    expect(dry.status).toBe(200)
    const plan = ConsolidateResult.parse(dry.json())
    expect(plan).toMatchObject({candidates: 1, insightsCreated: 1, insightsBoosted: 0})
    expect(plan.clusters).toHaveLength(1)

    const run = await rawRequest(`${url}/api/mem/consolidate?${q}`, {method: 'POST'})
    expect(ConsolidateResult.parse(run.json())).toEqual({candidates: 1, insightsCreated: 1, insightsBoosted: 0})
    const again = await rawRequest(`${url}/api/mem/consolidate?${q}&dry_run=false`, {method: 'POST'})
    expect(again.json()).toEqual({candidates: 0, insightsCreated: 0, insightsBoosted: 0})

    const bad = await rawRequest(`${url}/api/mem/consolidate?${q}&dry_run=maybe`, {method: 'POST'})
    expect(bad.status).toBe(400)
    expect((await rawRequest(`${url}/api/mem/consolidate`, {method: 'POST'})).status).toBe(400)
  })
})

describe('GET /api/mem/scheduled-tasks', () => {
  it('lists the update check and a maintenance task per registered repo with last and next run', async () => {
    const {url, repo, ctx, clock} = await memServer({server: {maintenance: {tickMs: 10}}})
    const repoId = (await ctx.repo(repo, 'write')).id
    const tasks = async () => ScheduledTasksResult.parse((await rawRequest(`${url}/api/mem/scheduled-tasks`)).json()).tasks
    const listed = await eventually(async () => {
      const t = await tasks()
      return t.length === 2 && t
    })
    expect(listed[0]).toEqual({id: 'update-check', type: 'update-check', intervalHours: 24, lastRunAt: null, nextRunAt: null, status: 'disabled', lastError: null})
    expect(listed[1]).toEqual({
      id: `maintenance:${repoId}`,
      type: 'maintenance',
      repo: repoId,
      intervalHours: 24,
      lastRunAt: null,
      nextRunAt: new Date(clock().getTime() + 10 * MIN).toISOString(),
      status: 'idle',
      lastError: null,
    })
    clock.advance(10 * MIN)
    const ran = await eventually(async () => {
      const t = (await tasks())[1]
      return t.status === 'ok' && t
    })
    expect(ran.lastRunAt).toBe(clock().toISOString())
    expect(ran.nextRunAt).toBe(new Date(clock().getTime() + 24 * 60 * MIN).toISOString())
  })
})

describe('POST /api/mem/consolidate with clusters', () => {
  it('applies only the clusters named (comma-separated ids from a dry run); an id no candidate has is a 404 and writes nothing', async () => {
    const {url, repo, ctx} = await memServer()
    await storeE2E(ctx, repo)
    const q = `repo=${encodeURIComponent(repo)}`
    const dry = ConsolidateResult.parse((await rawRequest(`${url}/api/mem/consolidate?${q}&dry_run=true`, {method: 'POST'})).json())
    const [cluster] = dry.clusters!
    expect(cluster.members).toHaveLength(3)

    const missing = await rawRequest(`${url}/api/mem/consolidate?${q}&clusters=${cluster.id},c-000000000000`, {method: 'POST'})
    expect(missing.status).toBe(404)
    expect(ErrorResponse.parse(missing.json()).error).toContain('c-000000000000')
    expect((await rawRequest(`${url}/api/mem/consolidate?${q}&clusters=oops`, {method: 'POST'})).status).toBe(400)

    const applied = await rawRequest(`${url}/api/mem/consolidate?${q}&clusters=${cluster.id}`, {method: 'POST'})
    expect(applied.status).toBe(200)
    expect(ConsolidateResult.parse(applied.json())).toEqual({candidates: 1, insightsCreated: 1, insightsBoosted: 0})
  })
})
