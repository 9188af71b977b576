import {MemError} from '../model/errors.js'
import {MEMORY_TYPES, type MemoryType} from '../model/memory.js'
import {peekCounts} from '../storage/counts-file.js'
import type {MemContext} from '../engines/context.js'
import type {StatsResult} from '../model/shapes/memories.js'
export type {StatsResult} from '../model/shapes/memories.js'

/** The HTTP and MCP schema of this input is `StatsInput` in schemas.ts; see `stats` for why it is not used here. */
export interface StatsInput {
  repo: string
}

const PLURAL: Record<MemoryType, string> = {
  observation: 'observations',
  insight: 'insights',
  procedure: 'procedures',
  heuristic: 'heuristics',
}

/** Live memory counts by type, read from counts kept as memories change (no scan). */
export async function stats(ctx: MemContext, raw: StatsInput): Promise<StatsResult> {
  // `mem stats` is the command people and prompts run most, so its path loads neither zod nor the
  // store: the one field is checked by hand, with the same message as the RepoRef schema.
  const repo = typeof raw?.repo === 'string' ? raw.repo.trim() : ''
  if (!repo) throw new MemError('invalid_input', 'Invalid repo: repo is required', {details: [{path: 'repo', message: 'repo is required'}], hint: 'Pass the repository as a path or repo id.'})
  const input = {repo}
  // Counts change only with writes; a current sidecar answers without loading the database.
  const where = await ctx.locate(input.repo, 'read')
  const counts =
    peekCounts(where.root) ??
    (await (async () => {
      const {liveCounts} = await import('../storage/memories.js')
      return (await ctx.repo(input.repo, 'read')).store.read((db) => liveCounts(db))
    })())
  const total = MEMORY_TYPES.reduce((n, t) => n + counts[t], 0)
  return {repo: input.repo, summary: summarize(counts, total), counts, total}
}

export function summarize(counts: Record<MemoryType, number>, total: number): string {
  if (total === 0) return 'No memories yet.'
  const parts = MEMORY_TYPES.filter((t) => counts[t] > 0).map((t) => `${counts[t]} ${counts[t] === 1 ? t : PLURAL[t]}`)
  return `${total} ${total === 1 ? 'memory' : 'memories'}: ${parts.join(', ')}.`
}
