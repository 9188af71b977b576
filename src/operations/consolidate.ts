import {z} from 'zod'
import {withMaintenanceLock} from '../engines/maintenance/lock.js'
import {runConsolidation, type ConsolidateOptions, type ConsolidateResult} from '../engines/consolidation/consolidate.js'
import type {MemContext} from '../engines/context.js'
import {RepoRef} from '../model/schemas.js'
import {parseInput} from '../model/validate.js'

export const ConsolidateInput = z.object({
  repo: RepoRef,
  dryRun: z.boolean().default(false).describe('Report the candidate clusters and write nothing.'),
  clusters: z
    .array(z.string().trim().regex(/^c-[0-9a-f]{12}$/, 'a cluster id looks like c-0123456789ab (the ids `mem consolidate --dry-run` lists)'))
    .min(1, 'name at least one cluster, or leave clusters out to apply them all')
    .max(500, 'at most 500 clusters at once')
    .optional()
    .describe('Apply only these candidate clusters (ids from a dry run); every cluster when absent.'),
})
export type ConsolidateInput = z.input<typeof ConsolidateInput>
export type {ConsolidateResult, CandidateCluster} from '../engines/consolidation/consolidate.js'

/**
 * Groups related live observations (≥ 3 sharing a tag or mutually similar) into insights that
 * keep `derivedFrom`. `candidates` counts the clusters considered; a cluster that would only
 * restate one of its observations is counted and skipped; a live insight that already says it is
 * boosted instead of duplicated; a converged corpus answers all zeros. With `dryRun` nothing is
 * written and `clusters` lists each candidate (its id, text and members) and what a run would do
 * with it; `clusters` in the input applies only the candidates named (an id that is no current
 * candidate is refused, 404, and nothing is written).
 * Holds the repo's maintenance lock (a conflict while a maintenance pass runs elsewhere).
 */
export async function consolidate(
  ctx: MemContext,
  raw: ConsolidateInput,
  options: Pick<ConsolidateOptions, 'writer' | 'signal' | 'onProgress'> = {},
): Promise<ConsolidateResult> {
  const input = parseInput(ConsolidateInput, raw)
  const repo = await ctx.repo(input.repo, 'read')
  const run = () => runConsolidation(ctx, repo, {...options, dryRun: input.dryRun, ...(input.clusters ? {only: input.clusters} : {})})
  const result = input.dryRun || !repo.store.exists ? await run() : await withMaintenanceLock(repo.store, run)
  return result
}
