import {errorBody, MemError} from '../../model/errors.js'
import type {MemContext, RepoHandle} from '../context.js'
import {track} from '../context.js'
import type {InsightWriter} from '../consolidation/consolidate.js'
import {checkAborted} from './chunks.js'
import {cleanup} from './cleanup.js'
import {consolidation} from './consolidation.js'
import {decay} from './decay.js'
import {dedup} from './dedup.js'
import {enrichment, heuristicEnricher, runtimeEnricher, type Enricher} from './enrichment.js'
import {enrichRuntime} from '../enrichment/enrich-memory.js'
import {embedder} from '../enrichment/embed-memories.js'
import {withMaintenanceLock} from './lock.js'
import {retention} from './retention.js'
import {ttlExpiry} from './ttl-expiry.js'
import {DEFAULT_POLICY, STAGE_NAMES, type MaintenancePolicy, type MaintenanceProgress, type MaintenanceReport, type Stage, type StageName, type StageReport} from './types.js'

export const STAGES: Stage[] = [ttlExpiry, retention, dedup, decay, cleanup, enrichment, consolidation]

export interface PipelineOptions {
  dryRun?: boolean
  /** Run only these stages (still in pipeline order); all by default. */
  only?: StageName[]
  onProgress?: (p: MaintenanceProgress) => void
  /** Stops the pass between chunks (service shutdown); the pass then fails with a clear error. */
  signal?: AbortSignal
  enricher?: Enricher
  writer?: InsightWriter
  policy?: Partial<MaintenancePolicy>
  /** The stage implementations (tests replace one to make it fail or wait). */
  stages?: Stage[]
}

/** A stage's error as the report shows it: a MemError's message, otherwise a generic line. */
function stageError(err: unknown): string {
  if (err instanceof MemError) return err.message
  return `${errorBody(err).error}${err instanceof Error && err.message ? ` (${err.message})` : ''}`
}

/**
 * One maintenance pass over a repository: the stages in order, each timed and counted; a stage
 * that fails is recorded with its error and the pass goes on. Holds `.mem/maintenance.lock`
 * (a dry run, which writes nothing, does not), so no other process runs a pass on the repo meanwhile.
 */
export async function runMaintenance(ctx: MemContext, repo: RepoHandle, options: PipelineOptions = {}): Promise<MaintenanceReport> {
  const done = track(ctx, 'maintain')
  const dryRun = options.dryRun ?? false
  const run = () => runStages(ctx, repo, options, dryRun)
  const report = dryRun || !repo.store.exists ? await run() : await withMaintenanceLock(repo.store, run)
  done(repo, report.stages.reduce((n, s) => n + s.affected, 0))
  return report
}

async function runStages(ctx: MemContext, repo: RepoHandle, options: PipelineOptions, dryRun: boolean): Promise<MaintenanceReport> {
  const impls = options.stages ?? STAGES
  const names = STAGE_NAMES.filter((n) => !options.only || options.only.includes(n))
  const policy = {...DEFAULT_POLICY, ...options.policy}
  const progress = options.onProgress ?? (() => undefined)
  const now = ctx.now()
  const stages: StageReport[] = []
  // the configured language-model runtime, when enrichment is on and no enricher was given
  let enricher = options.enricher
  if (!enricher && names.includes('enrichment')) {
    const runtime = await enrichRuntime(ctx).catch(() => null)
    enricher = runtime ? runtimeEnricher(runtime, await embedder(ctx)) : heuristicEnricher
  }
  for (const [i, name] of names.entries()) {
    checkAborted(options.signal)
    const stage = impls.find((s) => s.name === name)
    if (!stage) continue
    const base = {stage: name, index: i + 1, total: names.length}
    progress({...base, phase: 'start'})
    const started = performance.now()
    const report: StageReport = {name, affected: 0, durationMs: 0}
    try {
      report.affected = await stage.run({
        ctx,
        repo,
        now,
        dryRun,
        policy,
        enricher: enricher ?? heuristicEnricher,
        writer: options.writer,
        signal: options.signal,
        progress: (done, of) => progress({...base, phase: 'progress', done, of}),
      })
    } catch (err) {
      if (options.signal?.aborted) throw err
      report.error = stageError(err)
    }
    report.durationMs = Math.round(performance.now() - started)
    stages.push(report)
    progress({...base, phase: 'done', affected: report.affected, error: report.error})
  }
  return {repoId: repo.id, stages}
}
