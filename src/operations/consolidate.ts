import {z} from 'zod'
import {withMaintenanceLock} from '../engines/maintenance/lock.js'
import {runConsolidation, type ConsolidateOptions, type ConsolidateResult} from '../engines/consolidation/consolidate.js'
import type {MemContext} from '../engines/context.js'
import {RepoRef} from '../model/schemas.js'
import {parseInput} from '../model/validate.js'

export const ConsolidateInput = z.object({
  repo: RepoRef,
  dryRun: z.boolean().default(false).describe('Report the candidate clusters and write nothing.'),
})
export type ConsolidateInput = z.input<typeof ConsolidateInput>
export type {ConsolidateResult, CandidateCluster} from '../engines/consolidation/consolidate.js'

/**
 * Groups related live observations (≥ 3 sharing a tag or mutually similar) into insights that
 * keep `derivedFrom`. `candidates` counts the clusters considered; a cluster that would only
 * restate one of its observations is counted and skipped; a live insight that already says it is
 * boosted instead of duplicated; a converged corpus answers all zeros. With `dryRun` nothing is
 * written and `clusters` lists each candidate and what a run would do with it.
 * Holds the repo's maintenance lock (a conflict while a maintenance pass runs elsewhere).
 */
export async function consolidate(
  ctx: MemContext,
  raw: ConsolidateInput,
  options: Pick<ConsolidateOptions, 'writer' | 'signal' | 'onProgress'> = {},
): Promise<ConsolidateResult> {
  const input = parseInput(ConsolidateInput, raw)
  const repo = await ctx.repo(input.repo, 'read')
  const run = () => runConsolidation(ctx, repo, {...options, dryRun: input.dryRun})
  const result = input.dryRun || !repo.store.exists ? await run() : await withMaintenanceLock(repo.store.dir, run)
  return result
}
