import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {MemError} from '../../../src/model/errors.js'
import {MaintenanceRuns} from '../../../src/faces/server/maintenance-runs.js'
import type {MaintenanceReport} from '../../../src/engines/maintenance/types.js'
import {Scheduler} from '../../../src/faces/server/scheduler.js'
import {memRepo} from '../../helpers/mem.js'

const MIN = 60_000
const HOUR = 60 * MIN

function deferred<T>() {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return {promise, resolve, reject}
}

/** Two registered repos, a run registry whose passes are recorded (and can be made to fail or wait). */
async function setup() {
  const r = memRepo()
  const a = await r.ctx.repo(r.repo, 'write')
  const b = await r.ctx.repo('other-repo-id', 'write')
  const calls: string[] = []
  const failing = new Set<string>()
  let gate: Promise<void> | undefined
  let gated = ''
  const runs = new MaintenanceRuns({
    ctx: r.ctx,
    runPass: async (repoId, signal): Promise<MaintenanceReport> => {
      calls.push(repoId)
      if (gate && repoId === gated) await gate
      if (signal.aborted) throw new MemError('unavailable', 'stopped')
      if (failing.has(repoId)) throw new MemError('unavailable', `store of ${repoId} unreadable`)
      return {repoId, stages: []}
    },
  })
  const statePath = join(r.home, 'scheduler.json')
  const scheduler = new Scheduler({ctx: r.ctx, runs, statePath})
  return {...r, a, b, calls, failing, runs, scheduler, statePath, setGate: (p: Promise<void>, repoId: string) => {
      gate = p
      gated = repoId
    }}
}

describe('the scheduler', () => {
  it('maintains every registered repo 10 minutes after start, then every 24 hours', async () => {
    const {scheduler, clock, calls, a, b} = await setup()
    await scheduler.runDue()
    expect(calls).toEqual([])
    const listed = scheduler.list().tasks
    expect(listed.map((t) => t.id).sort()).toEqual([`maintenance:${a.id}`, `maintenance:${b.id}`].sort())
    for (const t of listed) {
      expect(t).toMatchObject({type: 'maintenance', intervalHours: 24, lastRunAt: null, status: 'idle', lastError: null})
      expect(t.nextRunAt).toBe(new Date(clock().getTime() + 10 * MIN).toISOString())
    }

    clock.advance(10 * MIN)
    await scheduler.runDue()
    expect(calls.sort()).toEqual([a.id, b.id].sort())
    for (const t of scheduler.list().tasks) {
      expect(t).toMatchObject({status: 'ok', lastRunAt: clock().toISOString(), lastError: null})
      expect(t.nextRunAt).toBe(new Date(clock().getTime() + 24 * HOUR).toISOString())
    }

    clock.advance(23 * HOUR)
    await scheduler.runDue()
    expect(calls).toHaveLength(2)
    clock.advance(HOUR)
    await scheduler.runDue()
    expect(calls).toHaveLength(4)
  })

  it('records a failed run, keeps going with the other repos, and retries an hour later', async () => {
    const {scheduler, clock, calls, failing, a, b} = await setup()
    failing.add(a.id)
    clock.advance(10 * MIN)
    await scheduler.runDue()
    const byRepo = Object.fromEntries(scheduler.list().tasks.map((t) => [t.repo, t]))
    expect(byRepo[a.id]).toMatchObject({status: 'failed', lastError: `store of ${a.id} unreadable`})
    expect(byRepo[a.id].nextRunAt).toBe(new Date(clock().getTime() + HOUR).toISOString())
    expect(byRepo[b.id]).toMatchObject({status: 'ok', lastError: null})

    failing.delete(a.id)
    clock.advance(HOUR)
    await scheduler.runDue()
    expect(calls.filter((id) => id === a.id)).toHaveLength(2)
    expect(scheduler.list().tasks.find((t) => t.repo === a.id)).toMatchObject({status: 'ok', lastError: null})
  })

  it('remembers the last runs across restarts', async () => {
    const {scheduler, clock, ctx, runs, statePath, a} = await setup()
    clock.advance(10 * MIN)
    await scheduler.runDue()
    const ranAt = clock().toISOString()
    clock.advance(2 * HOUR)
    const restarted = new Scheduler({ctx, runs, statePath})
    const task = restarted.list().tasks.find((t) => t.repo === a.id)!
    expect(task).toMatchObject({lastRunAt: ranAt, status: 'ok'})
    expect(task.nextRunAt).toBe(new Date(Date.parse(ranAt) + 24 * HOUR).toISOString())
  })

  it('a scheduled run joins a hand-started pass on the same repo instead of colliding with it', async () => {
    const {scheduler, clock, calls, runs, a, b, setGate} = await setup()
    const gate = deferred<void>()
    setGate(gate.promise, a.id)
    const manual = await runs.start(a.id, 'manual')
    expect(runs.running(a.id)?.trigger).toBe('manual')
    clock.advance(10 * MIN)
    const sweep = scheduler.runDue()
    // the scheduler reaches repo a while the hand-started pass still runs
    while (scheduler.list().tasks.find((t) => t.repo === a.id)?.status !== 'running') await new Promise((r) => setImmediate(r))
    expect(runs.running(a.id)?.trigger).toBe('manual')
    gate.resolve()
    await sweep
    await manual.done
    expect(calls.filter((id) => id === a.id)).toHaveLength(1) // one pass, two runs reporting it
    expect(calls.filter((id) => id === b.id)).toHaveLength(1)
    expect(scheduler.list().tasks.find((t) => t.repo === a.id)?.status).toBe('ok')
  })

  it('stop() ends scheduling; a stopped scheduler runs nothing and shows no next run', async () => {
    const {scheduler, clock, calls} = await setup()
    await scheduler.runDue()
    await scheduler.stop()
    clock.advance(25 * HOUR)
    await scheduler.runDue()
    expect(calls).toEqual([])
    for (const t of scheduler.list().tasks) expect(t.nextRunAt).toBeNull()
  })

  it('lists external tasks (the update check) first', async () => {
    const {ctx, runs} = await setup()
    const ext = {id: 'update-check', type: 'update-check' as const, intervalHours: 24, lastRunAt: null, nextRunAt: null, status: 'disabled' as const, lastError: null}
    const scheduler = new Scheduler({ctx, runs, external: [() => ext]})
    await scheduler.runDue()
    expect(scheduler.list().tasks[0]).toEqual(ext)
  })
})

describe('the run registry', () => {
  it('shutdown stops running passes and waits for them; afterwards no pass starts', async () => {
    const {runs, a, setGate} = await setup()
    const gate = deferred<void>()
    setGate(gate.promise, a.id)
    const {runId, done} = await runs.start(a.id)
    const closing = runs.close()
    gate.resolve()
    await closing
    await done
    expect(runs.get(runId)).toMatchObject({status: 'failed', error: 'stopped'})
    const err = await runs.start(a.id).catch((e: unknown) => e)
    expect((err as MemError).code).toBe('unavailable')
  })
})
