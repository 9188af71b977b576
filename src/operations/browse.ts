import {z} from 'zod'
import {browseLive} from '../storage/memories.js'
import type {MemContext} from '../engines/context.js'
import {MemoryTypeSchema, RepoRef} from '../model/schemas.js'
import {parseInput} from '../model/validate.js'
import type {BrowseResult} from '../model/shapes/memories.js'
export type {BrowseResult} from '../model/shapes/memories.js'

export const BrowseInput = z.object({
  repo: RepoRef,
  skip: z.number().int().min(0, 'skip must be 0 or more').default(0),
  take: z.number().int().min(1, 'take must be 1 to 500').max(500, 'take must be 1 to 500').default(50),
  type: MemoryTypeSchema.optional(),
})
export type BrowseInput = z.input<typeof BrowseInput>

/** A page of live memories, newest first; `count` is the total matching, not the page size. */
export async function browse(ctx: MemContext, raw: BrowseInput): Promise<BrowseResult> {
  const input = parseInput(BrowseInput, raw)
  const handle = await ctx.repo(input.repo, 'read')
  const page = handle.store.read((db) => browseLive(db, input))
  return {repo: handle.id, skip: input.skip, take: input.take, count: page.count, entries: page.entries}
}
