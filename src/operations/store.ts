import {z} from 'zod'
import {DEFAULT_IMPORTANCE, DEFAULT_SOURCE} from '../model/memory.js'
import type {MemContext} from '../engines/context.js'
import {gate, planStore, type StoreResult} from '../engines/gates/admit.js'
import {Content, Importance, MemoryId, MemoryTypeSchema, RepoRef, Tags} from '../model/schemas.js'
import {track} from '../engines/context.js'
import {parseInput} from '../model/validate.js'

export const StoreInput = z.object({
  repo: RepoRef,
  content: Content,
  type: MemoryTypeSchema,
  tags: Tags.default([]),
  importance: Importance.default(DEFAULT_IMPORTANCE),
  source: z.string().trim().min(1).max(200).default(DEFAULT_SOURCE),
  sessionId: z.string().max(200).nullable().default(null),
  supersedes: MemoryId.nullable().default(null),
})
export type StoreInput = z.input<typeof StoreInput>

export {gate, isRejected, memoryId, planStore, type NewMemory, type StoreResult} from '../engines/gates/admit.js'

/**
 * Stores a memory. Content the secret scanner or the content gate flags is rejected and written
 * nowhere; content that matches a live memory returns that memory's id as `duplicateId`.
 * With `supersedes`, the named live memory is replaced and the version chain links them.
 */
export async function store(ctx: MemContext, raw: StoreInput): Promise<StoreResult> {
  const done = track(ctx, 'store')
  const input = parseInput(StoreInput, raw)
  const rejected = await gate(ctx, input.content)
  if (rejected) {
    done(await ctx.locate(input.repo, 'read'), 0)
    return rejected
  }
  const repo = await ctx.repo(input.repo, 'write')
  const createdAt = ctx.now().toISOString()
  const result = await repo.store.write((db) => planStore(db, repo, {...input, createdAt}))
  done(repo, result.success ? 1 : 0)
  return result
}
