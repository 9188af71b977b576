import {z} from 'zod'
import {getMemory} from '../storage/memories.js'
import type {MemContext} from '../engines/context.js'
import {notFound, repoForId} from './lookup.js'
import {MemoryId} from '../model/schemas.js'
import {track} from '../engines/context.js'
import {parseInput} from '../model/validate.js'

export const FeedbackInput = z.object({
  memoryId: MemoryId,
  wasUsed: z.boolean({error: 'wasUsed must be true or false'}),
  repo: z.string().optional(),
})
export type FeedbackInput = z.input<typeof FeedbackInput>

/**
 * Records whether a recalled memory was used. Used memories rank up in recall and context,
 * repeatedly unused ones down. `applied` is false for a forgotten or superseded memory.
 */
export async function feedback(ctx: MemContext, raw: FeedbackInput): Promise<{applied: boolean}> {
  const done = track(ctx, 'feedback')
  const input = parseInput(FeedbackInput, raw)
  const handle = await repoForId(ctx, input.memoryId, input.repo)
  const at = ctx.now().toISOString()
  const result = await handle.store.write<{applied: boolean}>((db) => {
    const m = getMemory(db, input.memoryId)
    if (!m) throw notFound(input.memoryId)
    if (m.forgottenAt || m.supersededBy) return {ops: [], result: {applied: false}}
    return {ops: [{op: 'feedback', id: m.id, used: input.wasUsed, at}], result: {applied: true}}
  })
  done(handle, result.applied ? 1 : 0)
  return result
}
