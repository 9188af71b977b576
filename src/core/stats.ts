import {z} from 'zod'
import {MEMORY_TYPES, type MemoryType} from '../model.js'
import {liveCounts} from '../storage/memories.js'
import {RepoStore} from '../storage/repo-store.js'
import type {MemContext} from './mem-context.js'
import {RepoRef} from './schemas.js'
import {track} from './track.js'
import {parseInput} from './validate.js'

export const StatsInput = z.object({repo: RepoRef})
export type StatsInput = z.input<typeof StatsInput>

export interface StatsResult {
  repo: string
  summary: string
  counts: Record<MemoryType, number>
  total: number
}

const PLURAL: Record<MemoryType, string> = {
  observation: 'observations',
  insight: 'insights',
  procedure: 'procedures',
  heuristic: 'heuristics',
}

/** Live memory counts by type, read from counts kept as memories change (no scan). */
export async function stats(ctx: MemContext, raw: StatsInput): Promise<StatsResult> {
  const done = track(ctx, 'stats')
  const input = parseInput(StatsInput, raw)
  // Counts change only with writes; a current sidecar answers without loading the database.
  const where = await ctx.locate(input.repo)
  const counts = RepoStore.peekCounts(where.root) ?? (await ctx.repo(input.repo)).store.read((db) => liveCounts(db))
  const total = MEMORY_TYPES.reduce((n, t) => n + counts[t], 0)
  done(where, total)
  return {repo: input.repo, summary: summarize(counts, total), counts, total}
}

export function summarize(counts: Record<MemoryType, number>, total: number): string {
  if (total === 0) return 'No memories yet.'
  const parts = MEMORY_TYPES.filter((t) => counts[t] > 0).map((t) => `${counts[t]} ${counts[t] === 1 ? t : PLURAL[t]}`)
  return `${total} ${total === 1 ? 'memory' : 'memories'}: ${parts.join(', ')}.`
}
