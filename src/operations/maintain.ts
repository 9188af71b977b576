import {z} from 'zod'
import {runMaintenance, type PipelineOptions} from '../engines/maintenance/pipeline.js'
import {STAGE_NAMES, type MaintenanceReport} from '../engines/maintenance/types.js'
import type {MemContext} from '../engines/context.js'
import {RepoRef} from '../model/schemas.js'
import {parseInput} from '../model/validate.js'

export const MaintainInput = z.object({
  repo: RepoRef,
  dryRun: z.boolean().default(false).describe('Count what each stage would change; write nothing.'),
  stages: z
    .array(z.enum(STAGE_NAMES, {error: `must be one of ${STAGE_NAMES.join(', ')}`}))
    .min(1)
    .optional()
    .describe('Run only these stages (in pipeline order).'),
})
export type MaintainInput = z.input<typeof MaintainInput>
export type {MaintenanceProgress, MaintenanceReport, StageName, StageReport} from '../engines/maintenance/types.js'
export {STAGE_NAMES} from '../engines/maintenance/types.js'

/**
 * Runs the maintenance pipeline on a repo: ttl-expiry, retention, dedup, decay, cleanup,
 * enrichment, consolidation. Every memory a stage forgets carries the reason. A failing stage is
 * recorded in the report and the others still run. One pass per repo at a time across processes
 * (`.mem/maintenance.lock`): a second one is a conflict. `onProgress` reports each stage.
 */
export async function maintain(
  ctx: MemContext,
  raw: MaintainInput,
  options: Omit<PipelineOptions, 'dryRun' | 'only'> = {},
): Promise<MaintenanceReport> {
  const input = parseInput(MaintainInput, raw)
  const repo = await ctx.repo(input.repo, 'read')
  return runMaintenance(ctx, repo, {...options, dryRun: input.dryRun, only: input.stages})
}
