import {z} from 'zod'
import type {MemContext} from '../engines/context.js'
import {changeMemory, resolveRefs} from './lookup.js'
import type {FeedbackResult} from '../model/shapes/memories.js'
import {MemoryRef} from '../model/schemas.js'
import {parseInput} from '../model/validate.js'

export const FeedbackInput = z.object({
  memoryId: MemoryRef,
  wasUsed: z.boolean({error: 'wasUsed must be true or false'}),
  repo: z.string().optional(),
})
export type FeedbackInput = z.input<typeof FeedbackInput>

/**
 * Records whether a recalled memory was used. Used memories rank up in recall and context,
 * repeatedly unused ones down. `applied` is false for a forgotten or superseded memory.
 */
export async function feedback(ctx: MemContext, raw: FeedbackInput): Promise<FeedbackResult> {
  const input = await resolveRefs(ctx, parseInput(FeedbackInput, raw), 'memoryId')
  return changeMemory<FeedbackResult>(ctx, input.memoryId, input.repo, (m, at) =>
    m.forgottenAt || m.supersededBy ? {ops: [], result: {applied: false}} : {ops: [{op: 'feedback', id: m.id, used: input.wasUsed, at}], result: {applied: true}},
  )
}
