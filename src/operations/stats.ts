import {MEMORY_TYPES, type MemoryType} from '../model/memory.js'
import {plainStatsInput} from '../model/inputs.js'
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
  // store: well-formed input is taken by the contract's hand-written check (model/inputs.ts), and
  // anything else is parsed with the StatsInput schema, which words the error
  const input = plainStatsInput(raw) ?? (await parseWithSchema(raw))
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

async function parseWithSchema(raw: unknown): Promise<{repo: string}> {
  const [{StatsInput: schema}, {parseInput}] = await Promise.all([import('../model/schemas.js'), import('../model/validate.js')])
  return parseInput(schema, raw)
}

export function summarize(counts: Record<MemoryType, number>, total: number): string {
  if (total === 0) return 'No memories yet.'
  const parts = MEMORY_TYPES.filter((t) => counts[t] > 0).map((t) => `${counts[t]} ${counts[t] === 1 ? t : PLURAL[t]}`)
  return `${total} ${total === 1 ? 'memory' : 'memories'}: ${parts.join(', ')}.`
}
