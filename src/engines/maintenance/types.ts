import type {MemContext, RepoHandle} from '../context.js'
import type {MemoryType} from '../../model/memory.js'
import type {InsightWriter} from '../consolidation/consolidate.js'
import type {Embedder} from '../enrichment/embed.js'
import type {EnrichRuntime} from '../enrichment/types.js'
import type {StageName} from '../../model/shapes/operations.js'
export {STAGE_NAMES} from '../../model/names.js'
export type {StageName, StageReport, MaintenanceReport} from '../../model/shapes/operations.js'

export interface MaintenanceProgress {
  stage: StageName
  /** 1-based position of the stage in this pass, and how many stages it runs. */
  index: number
  total: number
  phase: 'start' | 'progress' | 'done'
  /** Items handled so far and in all (phase progress). */
  done?: number
  of?: number
  affected?: number
  error?: string
}

/** The rules of the stages (decisions.md); tests and config may change them. */
export interface MaintenancePolicy {
  retention: {olderThanDays: number; unusedDays: number}
  decay: {halfLifeDays: Record<MemoryType, number>; floor: number; recentlyUsedDays: number}
  cleanup: {purgeForgottenAfterDays: number}
  /**
   * Ops per write: large changes are split so that memory stays bounded. A write transaction keeps
   * the pages it changes in sqlite's in-memory journal, inside the WebAssembly heap, which never
   * shrinks: at 100k memories chunks of 1,000 grew it by ~16 MiB for good, chunks of 250 not at all.
   */
  chunk: number
}

export const DEFAULT_POLICY: MaintenancePolicy = {
  retention: {olderThanDays: 90, unusedDays: 45},
  decay: {halfLifeDays: {observation: 30, insight: 90, procedure: 365, heuristic: 730}, floor: 0.05, recentlyUsedDays: 14},
  cleanup: {purgeForgottenAfterDays: 30},
  chunk: 250,
}

/** What a stage is handed. `now` is fixed for the whole pass (read once from ctx.now()). */
export interface StageContext {
  ctx: MemContext
  repo: RepoHandle
  now: Date
  dryRun: boolean
  policy: MaintenancePolicy
  enricher: Enricher
  writer?: InsightWriter
  signal?: AbortSignal
  /** Reports progress within the stage. */
  progress(done: number, of: number): void
}

export interface Stage {
  name: StageName
  /** Returns how many memories it changed (or, in a dry run, would change). */
  run(s: StageContext): Promise<number>
}

export const DAY_MS = 24 * 60 * 60 * 1000

export function daysBefore(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString()
}

/**
 * What the stage's first step needs from a language-model runtime: a one-liner. Without one,
 * the deterministic heuristic writes it. A runtime's output is data: the caller length-limits
 * it and scans it for secrets.
 */
export interface Enricher {
  name: string
  oneLiner(memory: {id: string; content: string}): Promise<string | null>
  /** The runtime behind it, when it is the configured one (the stage then also writes supplements). */
  runtime?: EnrichRuntime
  /** The configured embedding model (`enrichment.embeddings`), when on: the stage also writes vectors. */
  embedder?: Embedder
}
