import {z} from 'zod'
import type {MemContext} from '../engines/context.js'
import {changeMemory, resolveRefs} from './lookup.js'
import type {ForgetResult} from '../model/shapes/memories.js'
import {MemoryRef} from '../model/schemas.js'
import {parseInput} from '../model/validate.js'
import {MAX_FORGET_REASON_CHARS} from '../model/inputs.js'
import {admitNote} from '../engines/gates/admit.js'

export const ForgetInput = z.object({
  id: MemoryRef,
  repo: z.string().optional(),
  reason: z.string().trim().max(MAX_FORGET_REASON_CHARS).optional(),
})
export type ForgetInput = z.input<typeof ForgetInput>

/**
 * Soft-deletes a memory: it keeps `forgottenAt` and `forgetReason` and drops out of everything
 * but get-by-id and history. `forgotten` is false when it was already forgotten.
 */
export async function forget(ctx: MemContext, raw: ForgetInput): Promise<ForgetResult> {
  const input = await resolveRefs(ctx, parseInput(ForgetInput, raw), 'id')
  if (input.reason) input.reason = await admitNote(ctx, 'the reason', input.reason)
  return changeMemory<ForgetResult>(ctx, input.id, input.repo, (m, now) =>
    m.forgottenAt
      ? {ops: [], result: {forgotten: false}}
      : {ops: [{op: 'update', id: m.id, set: {forgottenAt: now, forgetReason: input.reason || 'forgotten by request', updatedAt: now}}], result: {forgotten: true}},
  )
}
