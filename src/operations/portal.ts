import {z} from 'zod'
import {browseLive, liveCounts} from '../storage/memories.js'
import type {MemContext} from '../engines/context.js'
import {qualityOf} from './quality.js'
import {hookDir} from './agent-hooks.js'
import {RepoRef} from '../model/schemas.js'
import {dailyBuckets, usageSummary} from './usage.js'
import {parseInput} from '../model/validate.js'
import type {PortalResult} from '../model/shapes/insight.js'
import type {ScheduledTask} from '../model/shapes/operations.js'
export type {ScheduledTask, TaskStatus} from '../model/shapes/operations.js'
export type {PortalResult} from '../model/shapes/insight.js'

export const PortalInput = z.object({repo: RepoRef})
export type PortalInput = z.input<typeof PortalInput>

export const PORTAL_USAGE_DAYS = 30
export const PORTAL_RECENT = 10

/**
 * Everything the web UI's dashboard shows, in one call: counts, the ten newest memories, the
 * quality report, 30 days of usage (summary and daily buckets) and the scheduled tasks.
 * `tasks` comes from the caller (the server's scheduler); without one it is empty.
 */
export async function portal(ctx: MemContext, raw: PortalInput, options: {tasks?: () => ScheduledTask[]} = {}): Promise<PortalResult> {
  const input = parseInput(PortalInput, raw)
  const handle = await ctx.repo(input.repo, 'read')
  const now = ctx.now()
  const {counts, recent} = handle.store.read((db) => ({counts: liveCounts(db), recent: browseLive(db, {skip: 0, take: PORTAL_RECENT}).entries}))
  const summary = usageSummary(ctx, handle, now, PORTAL_USAGE_DAYS, input.repo)
  const result: PortalResult = {
    repo: input.repo,
    repoId: handle.id,
    generatedAt: now.toISOString(),
    counts,
    total: counts.observation + counts.insight + counts.procedure + counts.heuristic,
    recent,
    quality: qualityOf(handle, now, input.repo, hookDir(ctx, handle.root)),
    usage: {days: PORTAL_USAGE_DAYS, total: summary.total, operations: summary.operations, timeseries: dailyBuckets(ctx, handle, now, PORTAL_USAGE_DAYS)},
    tasks: (options.tasks?.() ?? []).filter((t) => t.repo === undefined || t.repo === handle.id),
  }
  return result
}
