import {z} from 'zod'
import {versionChain} from '../storage/memories.js'
import type {MemContext} from '../engines/context.js'
import {notFound, repoForId, resolveRefs} from './lookup.js'
import {MemoryRef} from '../model/schemas.js'
import {parseInput} from '../model/validate.js'
import type {HistoryResult} from '../model/shapes/memories.js'
export type {HistoryResult} from '../model/shapes/memories.js'

export const HistoryInput = z.object({id: MemoryRef, repo: z.string().optional()})
export type HistoryInput = z.input<typeof HistoryInput>

/** The version chain the memory belongs to, newest first, from any version's id. */
export async function history(ctx: MemContext, raw: HistoryInput): Promise<HistoryResult> {
  const input = await resolveRefs(ctx, parseInput(HistoryInput, raw), 'id')
  const handle = await repoForId(ctx, input.id, input.repo)
  const chain = handle.store.read((db) => versionChain(db, input.id))
  if (chain.length === 0) throw notFound(input.id)
  return {chain: chain.reverse().map((m) => ({id: m.id, content: m.content, createdAt: m.createdAt}))}
}
