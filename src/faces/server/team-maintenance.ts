/**
 * Maintenance runs and the scheduler of a team server (`mem serve --store`, docs/team.md), kept in
 * the team store so that every replica sees the same ones:
 *
 * - a run started on one replica is polled from any other (`maintenance_runs`, kept an hour after
 *   it finished); a replica that dies mid-pass frees the repo's maintenance lock (Postgres drops
 *   its advisory locks with its connections) and its run reads as failed, "abandoned", on the others;
 * - the scheduler's tasks are rows of `maintenance_tasks`: every replica looks for due ones, and a
 *   due task is claimed by one replica (`FOR UPDATE SKIP LOCKED`) and run once.
 *
 * The same routes and answers as the local server's registry (maintenance-runs.ts, scheduler.ts).
 */
import {randomUUID} from 'node:crypto'
import type {RepoHandle} from '../../engines/context.js'
import {runMaintenance} from '../../engines/maintenance/pipeline.js'
import type {MaintenanceReport} from '../../engines/maintenance/types.js'
import {errorBody, MemError} from '../../model/errors.js'
import type {ScheduledTask} from '../../operations/portal.js'
import {memoryRepoSegment, teamRepoId, type TeamRuntime} from '../../runtime/team-store.js'
import type {PassHold, TaskRow} from '../../storage/postgres/index.js'
import {RUN_RETENTION_MS, SYNC_WINDOW_MS, type MaintenanceRun, type PostAnswer, type RunStatus, type RunsWindowOptions, type Trigger} from './maintenance-runs.js'
import {FIRST_RUN_DELAY_MS, MAINTENANCE_INTERVAL_MS} from './scheduler.js'
import {Ticker} from './ticker.js'

const HOUR_MS = 60 * 60 * 1000
const TASK = 'maintenance'

interface TeamPass {
  team: string
  repo: string
  hold: Promise<PassHold>
  status: RunStatus
  error?: Error
  report?: MaintenanceReport
  startedAt: string
  done: Promise<void>
  abort: AbortController
}

/** A run started (or joined): its id, the pass's completion (never rejects) and outcome. */
export interface Started {
  runId: string
  joined: boolean
  done: Promise<void>
  outcome(): {status: RunStatus; report?: MaintenanceReport; error?: Error}
  /** The repo as memory ids carry it. */
  repo: string
  startedAt: string
}

export interface TeamMaintenanceRunsOptions extends RunsWindowOptions {
  runtime: TeamRuntime
  /** Runs one pass (tests replace it); by default the full pipeline. */
  runPass?: (repo: RepoHandle, signal: AbortSignal) => Promise<MaintenanceReport>
  onError?: (err: unknown) => void
}

/** The run registry of a team replica: the local one's answers, its runs in `maintenance_runs`. */
export class TeamMaintenanceRuns {
  private readonly runtime: TeamRuntime
  private readonly windowMs: number
  private readonly retentionMs: number
  private readonly runPass: (repo: RepoHandle, signal: AbortSignal) => Promise<MaintenanceReport>
  /** This replica's running pass of each team repo (team\0repo). */
  private readonly active = new Map<string, TeamPass>()
  private closed = false

  constructor(private readonly options: TeamMaintenanceRunsOptions) {
    this.runtime = options.runtime
    this.windowMs = options.windowMs ?? SYNC_WINDOW_MS
    this.retentionMs = options.retentionMs ?? RUN_RETENTION_MS
    this.runPass = options.runPass ?? ((repo, signal) => runMaintenance(this.runtime, repo, {...options.pipeline, signal}))
  }

  /**
   * Starts a pass on the request's team repo, or joins the one this replica runs on it, under a new
   * run id (its row written before this answers). A pass running on another replica makes this
   * pass fail at once with a conflict (the repo's maintenance lock).
   */
  async start(repoRef: string, trigger: Trigger = 'manual'): Promise<Started> {
    if (this.closed) throw new MemError('unavailable', 'The service is shutting down; no new maintenance pass starts.', {hint: 'Try again once it is back.'})
    const {team} = this.runtime.tenant()
    const handle = await this.runtime.repo(repoRef, 'read')
    const repo = teamRepoId(repoRef)
    const key = `${team}\0${repo}`
    const runId = randomUUID()
    const now = this.runtime.now()
    this.runtime.team.maintenance.sweepRuns(now, this.retentionMs).catch((err) => this.options.onError?.(err))
    const outcome = (pass: TeamPass) => () => ({status: pass.status, report: pass.report, error: pass.error})
    const running = this.active.get(key)
    if (running) {
      await (await running.hold).addRun(runId, trigger)
      return {runId, joined: true, done: running.done, outcome: outcome(running), repo: handle.id, startedAt: running.startedAt}
    }
    const abort = new AbortController()
    const hold = this.runtime.team.maintenance.startPass({team, repo, passId: randomUUID(), runId, kind: trigger, replica: this.runtime.replicaName, at: now})
    const pass: TeamPass = {team, repo, hold, status: 'running', startedAt: now.toISOString(), abort, done: Promise.resolve()}
    this.active.set(key, pass)
    let held: PassHold
    try {
      held = await hold
    } catch (err) {
      this.active.delete(key)
      throw err
    }
    // the pass is a request of its own: its repo stays hot (never evicted) until it ends
    const scope = {...this.runtime.tenant()}
    const ran = this.runtime.asRequest(scope, async () => this.runPass(await this.runtime.repo(repoRef, 'read'), abort.signal))
    pass.done = ran.finally(() => this.runtime.endRequest(scope)).then(
      async (report) => {
        pass.status = 'completed'
        pass.report = report
        await held.finish({status: 'done', report}, this.runtime.now())
      },
      async (error: unknown) => {
        pass.status = 'failed'
        pass.error = error instanceof Error ? error : new Error(String(error))
        await held.finish({status: 'failed', error: describe(pass.error)}, this.runtime.now())
      },
    ).finally(() => {
      if (this.active.get(key) === pass) this.active.delete(key)
    })
    return {runId, joined: false, done: pass.done, outcome: outcome(pass), repo: handle.id, startedAt: pass.startedAt}
  }

  /** `POST /api/maintenance`: as the local server's (200 within the window, else 202 to poll). */
  async post(repoRef: string): Promise<PostAnswer> {
    const started = await this.start(repoRef, 'manual')
    let timer: NodeJS.Timeout | undefined
    const window = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.windowMs)
      timer.unref?.()
    })
    const first = await Promise.race([started.done.then(() => 'done' as const), window])
    clearTimeout(timer)
    const result = started.outcome()
    if (first === 'done') {
      if (result.status === 'completed' && result.report) return {status: 200, body: result.report}
      throw result.error instanceof MemError ? result.error : new MemError('internal', 'The maintenance pass failed.', {cause: result.error})
    }
    return {
      status: 202,
      body: {runId: started.runId, repo: started.repo, status: 'running', startedAt: started.startedAt, poll: `/api/maintenance/runs/${started.runId}`},
    }
  }

  /** `GET /api/maintenance/runs/{id}`: any replica's run of the request's team; undefined when unknown or expired. */
  async get(runId: string): Promise<MaintenanceRun | undefined> {
    const tenant = this.runtime.tenant()
    const row = await this.runtime.team.maintenance.run(tenant.team, runId, this.runtime.now(), this.retentionMs)
    if (!row) return undefined
    if (tenant.repos !== null && !tenant.repos.includes(row.repo)) {
      throw new MemError('forbidden', 'This key is not for the repo of this run.', {hint: 'Use a key of the team for every repo, or one that lists this repo.'})
    }
    const run: MaintenanceRun = {runId: row.runId, repo: memoryRepoSegment(row.repo), status: row.status === 'done' ? 'completed' : row.status, startedAt: row.startedAt.toISOString()}
    if (row.finishedAt) run.completedAt = row.finishedAt.toISOString()
    if (row.status === 'done') run.report = row.result?.report as MaintenanceReport
    if (row.status === 'failed') run.error = row.result?.error ?? 'The maintenance pass failed.'
    return run
  }

  /** Shutdown: no new passes; running ones stop between chunks and finish their rows. */
  async close(): Promise<void> {
    this.closed = true
    const running = [...this.active.values()]
    for (const pass of running) pass.abort.abort()
    await Promise.all(running.map((p) => p.done))
  }
}

export interface TeamSchedulerOptions {
  runtime: TeamRuntime
  runs: TeamMaintenanceRuns
  intervalMs?: number
  firstRunDelayMs?: number
  tickMs?: number
  /** How long a claimed task stays claimed (its due time is moved this far) while it runs: a claimer that dies leaves it due again after this. */
  leaseMs?: number
  external?: Array<() => ScheduledTask>
  onError?: (err: unknown) => void
}

/**
 * The scheduler of a team replica: maintenance of every team repo every 24 h, its tasks rows of
 * `maintenance_tasks`. Every replica looks for due tasks; each due task is claimed by one
 * (`FOR UPDATE SKIP LOCKED`) and runs once, through the run registry (so it is a run like any
 * other, pollable from every replica). Its listing is the tasks of the request's team, as read at
 * this replica's last look (every `tickMs`).
 */
export class TeamScheduler {
  private readonly intervalMs: number
  private readonly firstRunDelayMs: number
  private readonly leaseMs: number
  private readonly ticker: Ticker
  private seen: TaskRow[] = []

  constructor(private readonly options: TeamSchedulerOptions) {
    this.ticker = new Ticker(() => this.sweep(), {tickMs: options.tickMs, onError: options.onError})
    this.intervalMs = options.intervalMs ?? MAINTENANCE_INTERVAL_MS
    this.firstRunDelayMs = options.firstRunDelayMs ?? FIRST_RUN_DELAY_MS
    this.leaseMs = options.leaseMs ?? Math.min(HOUR_MS, this.intervalMs)
  }

  start(): void {
    this.ticker.start({now: true})
  }

  /** Claims and runs the due tasks, one at a time, until none is left. Concurrent calls share one sweep. Never rejects. */
  runDue(): Promise<void> {
    return this.ticker.run()
  }

  private async sweep(): Promise<void> {
    const {runtime} = this.options
    const tables = runtime.team.maintenance
    await tables.ensureTasks(TASK, new Date(runtime.now().getTime() + this.firstRunDelayMs))
    while (!this.ticker.stopped) {
      const task = await tables.claimDue(TASK, runtime.replicaName, runtime.now(), this.leaseMs)
      if (!task) break
      await this.runTask(task)
    }
    this.seen = await tables.tasks(TASK)
  }

  private async runTask(task: TaskRow): Promise<void> {
    const {runtime, runs} = this.options
    let status: 'ok' | 'failed'
    let lastError: string | null = null
    try {
      // no key: what a scheduled pass writes is the replica's (ops.actor is its name)
      const started = await runtime.asPrincipal({team: task.team, repos: null}, () => runs.start(task.repo, 'scheduled'))
      await started.done
      const outcome = started.outcome()
      status = outcome.status === 'completed' ? 'ok' : 'failed'
      if (status === 'failed') lastError = outcome.error ? describe(outcome.error) : 'the pass did not finish'
    } catch (err) {
      status = 'failed'
      lastError = describe(err)
    }
    const now = runtime.now()
    const next = now.getTime() + (status === 'ok' ? this.intervalMs : Math.min(HOUR_MS, this.intervalMs))
    await runtime.team.maintenance.finishTask({team: task.team, repo: task.repo, task: TASK, dueAt: new Date(next), state: {status, lastRunAt: now.toISOString(), lastError}})
  }

  /** `GET /api/mem/scheduled-tasks`: the request's team's tasks (and the external ones). */
  list(): {tasks: ScheduledTask[]} {
    const hours = Math.round((this.intervalMs / HOUR_MS) * 1000) / 1000
    let tenant: ReturnType<TeamRuntime['tenant']> | undefined
    try {
      tenant = this.options.runtime.tenant()
    } catch {
      tenant = undefined
    }
    const maintenance = this.seen
      .filter((t) => tenant !== undefined && t.team === tenant.team && (tenant.repos === null || tenant.repos.includes(t.repo)))
      .map((t): ScheduledTask => {
        const status = t.state.status
        return {
          id: `maintenance:${memoryRepoSegment(t.repo)}`,
          type: 'maintenance',
          repo: memoryRepoSegment(t.repo),
          intervalHours: hours,
          lastRunAt: t.state.lastRunAt ?? null,
          nextRunAt: this.ticker.stopped ? null : t.dueAt.toISOString(),
          status: status === 'ok' || status === 'failed' || status === 'running' ? status : 'idle',
          lastError: t.state.lastError ?? null,
        }
      })
    return {tasks: [...(this.options.external ?? []).map((task) => task()), ...maintenance]}
  }

  async stop(): Promise<void> {
    await this.ticker.stop()
  }
}

function describe(error: unknown): string {
  if (error instanceof MemError) return error.message
  return errorBody(error).error
}
