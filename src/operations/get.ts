import {z} from 'zod'
import type {Memory} from '../model/memory.js'
import type {MemContext} from '../engines/context.js'
import {requireMemory, resolveRefs} from './lookup.js'
import {MemoryRef} from '../model/schemas.js'
import {parseInput} from '../model/validate.js'

export const GetInput = z.object({id: MemoryRef, repo: z.string().optional()})
export type GetInput = z.input<typeof GetInput>

/** The full memory entry, including superseded and forgotten ones (they stay readable by id). */
export async function get(ctx: MemContext, raw: GetInput): Promise<Memory> {
  const input = await resolveRefs(ctx, parseInput(GetInput, raw), 'id')
  const {memory} = await requireMemory(ctx, input.id, input.repo)
  return memory
}
