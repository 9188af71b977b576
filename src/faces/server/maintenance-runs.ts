import {randomUUID} from 'node:crypto'
import {errorBody, MemError} from '../../model/errors.js'
import type {MemContext} from '../../engines/context.js'
import {runMaintenance, type PipelineOptions} from '../../engines/maintenance/pipeline.js'
import type {MaintenanceReport} from '../../engines/maintenance/types.js'

/** Spec section 8: a run that finishes within this answers 200 with its report. */
export const SYNC_WINDOW_MS = 30_000
/** Spec section 8: a finished run stays pollable this long, then its id answers 404. */
export const RUN_RETENTION_MS = 60 * 60 * 1000

export type RunStatus = 'running' | 'completed' | 'failed'
export type Trigger = 'manual' | 'scheduled'

/** The run descriptor of `GET /api/maintenance/runs/{id}`. */
export interface MaintenanceRun {
  runId: string
  repo: string
  status: RunStatus
  startedAt: string
  completedAt?: string
  report?: MaintenanceReport
  error?: string
}

/** What the maintenance routes and the server need of a run registry (this one, or team mode's: team-maintenance.ts). */
export interface RunRegistry {
  post(repoRef: string): Promise<PostAnswer>
  get(runId: string): MaintenanceRun | undefined | Promise<MaintenanceRun | undefined>
  close(): Promise<void>
}

/** One pass over one repo; any number of run ids may report it. */
interface Pass {
  repoId: string
  trigger: Trigger
  startedAt: string
  status: RunStatus
  completedAt?: string
  /** ctx.now() in ms when it finished: runs expire RUN_RETENTION_MS later. */
  finishedMs?: number
  report?: MaintenanceReport
  error?: MemError | Error
  done: Promise<void>
  abort: AbortController
}

/** What a maintenance-runs table is given, local or team: how long a POST waits, how long a finished run is kept, the pipeline's options. */
export interface RunsWindowOptions {
  windowMs?: number
  retentionMs?: number
  pipeline?: Omit<PipelineOptions, 'signal' | 'dryRun'>
}

export interface MaintenanceRunsOptions extends RunsWindowOptions {
  ctx: MemContext
  /** Runs one pass (tests replace it); by default the full pipeline with `pipeline` options. */
  runPass?: (repoId: string, signal: AbortSignal) => Promise<MaintenanceReport>
}

export type PostAnswer =
  | {status: 200; body: MaintenanceReport}
  | {status: 202; body: {runId: string; repo: string; status: 'running'; startedAt: string; poll: string}}

/**
 * The server's registry of maintenance runs (spec section 4, "Maintenance rules"):
 * - at most one pass per repo at a time in this process; a retry, or the scheduler, joins the
 *   running pass under a new run id (across processes, `.mem/maintenance.lock` refuses a second);
 * - POST waits up to the window for the pass and answers 200 with the report, else 202 with a
 *   descriptor to poll; the pass goes on in the background;
 * - runs are pollable while running and for an hour after the pass finished (by ctx.now()),
 *   then forgotten (404); a failed pass reports `error` instead of `report`.
 */
export class MaintenanceRuns implements RunRegistry {
  private readonly ctx: MemContext
  private readonly windowMs: number
  private readonly retentionMs: number
  private readonly runPass: (repoId: string, signal: AbortSignal) => Promise<MaintenanceReport>
  /** The running pass of each repo id. */
  private readonly active = new Map<string, Pass>()
  private readonly runs = new Map<string, Pass>()
  private closed = false

  constructor(options: MaintenanceRunsOptions) {
    this.ctx = options.ctx
    this.windowMs = options.windowMs ?? SYNC_WINDOW_MS
    this.retentionMs = options.retentionMs ?? RUN_RETENTION_MS
    this.runPass =
      options.runPass ??
      (async (repoId, signal) => runMaintenance(this.ctx, await this.ctx.repo(repoId, 'read'), {...options.pipeline, signal}))
  }

  /**
   * Starts a pass on the repo, or joins the one running. Returns a new run id either way, and the
   * pass's completion (which never rejects; failures are recorded on the pass).
   */
  async start(repoRef: string, trigger: Trigger = 'manual'): Promise<{runId: string; joined: boolean; done: Promise<void>}> {
    if (this.closed) throw new MemError('unavailable', 'The service is shutting down; no new maintenance pass starts.', {hint: 'Try again once it is back.'})
    const repo = await this.ctx.repo(repoRef, 'read')
    this.sweep()
    let pass = this.active.get(repo.id)
    const joined = pass !== undefined
    if (!pass) {
      const abort = new AbortController()
      const started: Pass = {repoId: repo.id, trigger, startedAt: this.ctx.now().toISOString(), status: 'running', abort, done: Promise.resolve()}
      started.done = this.runPass(repo.id, abort.signal).then(
        (report) => this.finish(started, {report}),
        (error: unknown) => this.finish(started, {error: error instanceof Error ? error : new Error(String(error))}),
      )
      this.active.set(repo.id, started)
      pass = started
    }
    const runId = randomUUID()
    this.runs.set(runId, pass)
    return {runId, joined, done: pass.done}
  }

  private finish(pass: Pass, outcome: {report?: MaintenanceReport; error?: Error}): void {
    const now = this.ctx.now()
    pass.status = outcome.report ? 'completed' : 'failed'
    pass.report = outcome.report
    pass.error = outcome.error
    pass.completedAt = now.toISOString()
    pass.finishedMs = now.getTime()
    if (this.active.get(pass.repoId) === pass) this.active.delete(pass.repoId)
  }

  /**
   * `POST /api/maintenance`: 200 with the report when the pass (new or joined) finishes within
   * the window, else 202 with the run descriptor. A pass that fails within the window throws its
   * error (a conflict when another process holds the repo's maintenance lock).
   */
  async post(repoRef: string): Promise<PostAnswer> {
    const {runId, done} = await this.start(repoRef, 'manual')
    const pass = this.runs.get(runId)!
    let timer: NodeJS.Timeout | undefined
    const window = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.windowMs)
      timer.unref?.()
    })
    const first = await Promise.race([done.then(() => 'done' as const), window])
    clearTimeout(timer)
    if (first === 'done') {
      if (pass.report) return {status: 200, body: pass.report}
      throw pass.error instanceof MemError ? pass.error : new MemError('internal', 'The maintenance pass failed.', {cause: pass.error})
    }
    return {
      status: 202,
      body: {runId, repo: pass.repoId, status: 'running', startedAt: pass.startedAt, poll: `/api/maintenance/runs/${runId}`},
    }
  }

  /** `GET /api/maintenance/runs/{id}`: the descriptor, or undefined when unknown or expired. */
  get(runId: string): MaintenanceRun | undefined {
    this.sweep()
    const pass = this.runs.get(runId)
    if (!pass) return undefined
    const run: MaintenanceRun = {runId, repo: pass.repoId, status: pass.status, startedAt: pass.startedAt}
    if (pass.completedAt) run.completedAt = pass.completedAt
    if (pass.status === 'completed') run.report = pass.report
    if (pass.status === 'failed') run.error = describe(pass.error)
    return run
  }

  /** The pass running on a repo id, if any. */
  running(repoId: string): {trigger: Trigger; startedAt: string; done: Promise<void>} | undefined {
    const pass = this.active.get(repoId)
    return pass && {trigger: pass.trigger, startedAt: pass.startedAt, done: pass.done}
  }

  /** The outcome of a finished pass a run id reports (for the scheduler). */
  outcome(runId: string): {status: RunStatus; error?: string} | undefined {
    const pass = this.runs.get(runId)
    return pass && {status: pass.status, error: pass.status === 'failed' ? describe(pass.error) : undefined}
  }

  private sweep(): void {
    const now = this.ctx.now().getTime()
    for (const [id, pass] of this.runs) {
      if (pass.finishedMs !== undefined && now - pass.finishedMs >= this.retentionMs) this.runs.delete(id)
    }
  }

  /**
   * Shutdown: no new passes; running ones are told to stop between chunks (each chunk is one
   * journaled write, so the store stays consistent) and are waited for.
   */
  async close(): Promise<void> {
    this.closed = true
    const running = [...this.active.values()]
    for (const pass of running) pass.abort.abort()
    await Promise.all(running.map((p) => p.done))
  }
}

function describe(error: unknown): string {
  if (error instanceof MemError) return error.message
  return errorBody(error).error
}
