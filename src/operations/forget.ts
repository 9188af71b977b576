import {z} from 'zod'
import type {MemContext} from '../engines/context.js'
import {getMemory} from '../storage/memories.js'
import {notFound, repoForId} from './lookup.js'
import {MemoryId} from '../model/schemas.js'
import {track} from '../engines/context.js'
import {parseInput} from '../model/validate.js'

export const ForgetInput = z.object({
  id: MemoryId,
  repo: z.string().optional(),
  reason: z.string().trim().max(500).optional(),
})
export type ForgetInput = z.input<typeof ForgetInput>

/**
 * Soft-deletes a memory: it keeps `forgottenAt` and `forgetReason` and drops out of everything
 * but get-by-id and history. `forgotten` is false when it was already forgotten.
 */
export async function forget(ctx: MemContext, raw: ForgetInput): Promise<{forgotten: boolean}> {
  const done = track(ctx, 'forget')
  const input = parseInput(ForgetInput, raw)
  const handle = await repoForId(ctx, input.id, input.repo)
  const now = ctx.now().toISOString()
  const result = await handle.store.write<{forgotten: boolean}>((db) => {
    const m = getMemory(db, input.id)
    if (!m) throw notFound(input.id)
    if (m.forgottenAt) return {ops: [], result: {forgotten: false}}
    return {
      ops: [{op: 'update', id: m.id, set: {forgottenAt: now, forgetReason: input.reason || 'forgotten by request', updatedAt: now}}],
      result: {forgotten: true},
    }
  })
  done(handle, result.forgotten ? 1 : 0)
  return result
}
