import {z} from 'zod'
import type {MemContext} from '../engines/context.js'
import {changeMemory} from './lookup.js'
import type {FeedbackResult} from '../model/shapes/memories.js'
import {MemoryId} from '../model/schemas.js'
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
export async function feedback(ctx: MemContext, raw: FeedbackInput): Promise<FeedbackResult> {
  const input = parseInput(FeedbackInput, raw)
  return changeMemory<FeedbackResult>(ctx, input.memoryId, input.repo, (m, at) =>
    m.forgottenAt || m.supersededBy ? {ops: [], result: {applied: false}} : {ops: [{op: 'feedback', id: m.id, used: input.wasUsed, at}], result: {applied: true}},
  )
}
