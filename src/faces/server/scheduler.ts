import {mkdirSync, readFileSync} from 'node:fs'
import {dirname} from 'node:path'
import type {MemContext} from '../../engines/context.js'
import type {ScheduledTask, TaskStatus} from '../../operations/portal.js'

export type {ScheduledTask, TaskStatus} from '../../operations/portal.js'
import {writeAtomic} from '../../storage/files.js'
import type {MaintenanceRuns} from './maintenance-runs.js'
import {Ticker} from './ticker.js'

const HOUR_MS = 60 * 60 * 1000
export const MAINTENANCE_INTERVAL_MS = 24 * HOUR_MS
/** A repo never maintained is first maintained this long after the scheduler starts. */
export const FIRST_RUN_DELAY_MS = 10 * 60 * 1000
/** A failed run is retried after this (or the interval, if shorter). */
const RETRY_MS = HOUR_MS


/** One row of `GET /api/mem/scheduled-tasks` (decisions.md). */

interface MaintenanceTask {
  repoId: string
  lastRunAt: string | null
  nextRunAt: number
  status: TaskStatus
  lastError: string | null
}

export interface SchedulerOptions {
  ctx: MemContext
  runs: MaintenanceRuns
  intervalMs?: number
  firstRunDelayMs?: number
  /** How often due tasks are looked for (real time). */
  tickMs?: number
  /** Where last runs are kept across restarts (MEM_HOME/scheduler.json); none in memory only. */
  statePath?: string
  /** Tasks another component schedules itself (the update check), listed alongside. */
  external?: Array<() => ScheduledTask>
  /** Problems of the scheduler itself (never thrown). */
  onError?: (err: unknown) => void
}

interface State {
  maintenance: Record<string, {lastRunAt: string | null; status: TaskStatus; lastError: string | null}>
}

/** What the server needs of a scheduler (this one, or team mode's: team-maintenance.ts). */
export interface TaskScheduler {
  list(): {tasks: ScheduledTask[]}
  start(): void
  stop(): Promise<void>
}

/**
 * The scheduler inside `mem serve`: maintenance of every registered repo every 24 h (one repo at
 * a time, through the server's run registry, so a scheduled pass and a hand-started one on the
 * same repo are one pass), plus tasks others schedule (the nightly update check) in its listing.
 * A run that fails is recorded (status, lastError) and retried later; it never stops the
 * scheduler. Time comes from ctx.now(); `runDue()` is what the timer calls, and tests call it.
 */
export class Scheduler implements TaskScheduler {
  private readonly tasks = new Map<string, MaintenanceTask>()
  private readonly intervalMs: number
  private readonly firstRunDelayMs: number
  private readonly startedAt: number
  private readonly ticker: Ticker

  constructor(private readonly options: SchedulerOptions) {
    this.ticker = new Ticker(() => this.sweep(), {tickMs: options.tickMs, onError: options.onError})
    this.intervalMs = options.intervalMs ?? MAINTENANCE_INTERVAL_MS
    this.firstRunDelayMs = options.firstRunDelayMs ?? FIRST_RUN_DELAY_MS
    this.startedAt = options.ctx.now().getTime()
    const state = this.readState()
    for (const [repoId, saved] of Object.entries(state.maintenance)) {
      const last = saved.lastRunAt ? Date.parse(saved.lastRunAt) : NaN
      this.tasks.set(repoId, {
        repoId,
        lastRunAt: saved.lastRunAt,
        nextRunAt: Number.isNaN(last) ? this.startedAt + this.firstRunDelayMs : last + (saved.status === 'failed' ? this.retryMs() : this.intervalMs),
        status: saved.status === 'running' ? 'idle' : saved.status,
        lastError: saved.lastError,
      })
    }
  }

  private retryMs(): number {
    return Math.min(RETRY_MS, this.intervalMs)
  }

  /** Starts looking for due tasks every `tickMs` (real time; the timer does not keep the process alive). */
  start(): void {
    this.ticker.start()
  }

  /** Runs every due task, one at a time. Concurrent calls share one sweep. Never rejects. */
  runDue(): Promise<void> {
    return this.ticker.run()
  }

  private async sweep(): Promise<void> {
    await this.syncRepos()
    const due = [...this.tasks.values()].filter((t) => t.nextRunAt <= this.options.ctx.now().getTime()).sort((a, b) => a.nextRunAt - b.nextRunAt)
    for (const task of due) {
      if (this.ticker.stopped) return
      await this.runTask(task)
    }
  }

  /** Every registered repo has a maintenance task (a newly registered one gets its first run soon). */
  private async syncRepos(): Promise<void> {
    for (const {repoId} of await this.options.ctx.listRepos()) {
      if (this.tasks.has(repoId)) continue
      const now = this.options.ctx.now().getTime()
      this.tasks.set(repoId, {repoId, lastRunAt: null, nextRunAt: Math.max(now, this.startedAt + this.firstRunDelayMs), status: 'idle', lastError: null})
    }
  }

  private async runTask(task: MaintenanceTask): Promise<void> {
    task.status = 'running'
    try {
      const {runId, done} = await this.options.runs.start(task.repoId, 'scheduled')
      await done
      const outcome = this.options.runs.outcome(runId)
      task.status = outcome?.status === 'completed' ? 'ok' : 'failed'
      task.lastError = outcome?.status === 'completed' ? null : (outcome?.error ?? 'the pass did not finish')
    } catch (err) {
      task.status = 'failed'
      task.lastError = (err as Error)?.message ?? String(err)
    }
    const now = this.options.ctx.now()
    task.lastRunAt = now.toISOString()
    task.nextRunAt = now.getTime() + (task.status === 'ok' ? this.intervalMs : this.retryMs())
    this.writeState()
  }

  /** `GET /api/mem/scheduled-tasks`. */
  list(): {tasks: ScheduledTask[]} {
    const hours = Math.round((this.intervalMs / HOUR_MS) * 1000) / 1000
    const maintenance = [...this.tasks.values()]
      .sort((a, b) => a.repoId.localeCompare(b.repoId))
      .map(
        (t): ScheduledTask => ({
          id: `maintenance:${t.repoId}`,
          type: 'maintenance',
          repo: t.repoId,
          intervalHours: hours,
          lastRunAt: t.lastRunAt,
          nextRunAt: this.ticker.stopped ? null : new Date(t.nextRunAt).toISOString(),
          status: t.status,
          lastError: t.lastError,
        }),
      )
    return {tasks: [...(this.options.external ?? []).map((task) => task()), ...maintenance]}
  }

  /**
   * Stops scheduling and waits for the sweep in progress; the pass it runs is stopped between
   * chunks by the run registry's close (call that too), so shutdown never waits a whole pass.
   */
  async stop(): Promise<void> {
    await this.ticker.stop()
  }

  private readState(): State {
    if (!this.options.statePath) return {maintenance: {}}
    try {
      const state = JSON.parse(readFileSync(this.options.statePath, 'utf8')) as Partial<State>
      return {maintenance: state.maintenance && typeof state.maintenance === 'object' ? state.maintenance : {}}
    } catch {
      return {maintenance: {}}
    }
  }

  private writeState(): void {
    if (!this.options.statePath) return
    const state: State = {maintenance: {}}
    for (const t of this.tasks.values()) {
      if (t.lastRunAt) state.maintenance[t.repoId] = {lastRunAt: t.lastRunAt, status: t.status, lastError: t.lastError}
    }
    try {
      mkdirSync(dirname(this.options.statePath), {recursive: true})
      writeAtomic(this.options.statePath, Buffer.from(`${JSON.stringify(state, null, 2)}\n`))
    } catch (err) {
      this.options.onError?.(err) // a read-only home keeps the schedule in memory only
    }
  }
}
