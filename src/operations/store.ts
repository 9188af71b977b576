import type {MemContext} from '../engines/context.js'
import {gate, planStore, type StoreResult} from '../engines/gates/admit.js'
import {StoreInput} from '../model/shapes/memories.js'
import {parseInput} from '../model/validate.js'
import {resolveMemoryId} from './lookup.js'
import {vectorOfNewText} from '../engines/currency/meaning.js'
import {admitText} from '../text/admit.js'

export {StoreInput} from '../model/shapes/memories.js'


/**
 * Stores a memory. Content the secret scanner or the content gate flags is rejected and written
 * nowhere; content that matches a live memory returns that memory's id as `duplicateId`.
 * With `supersedes`, the named live memory is replaced and the version chain links them.
 */
export async function store(ctx: MemContext, raw: StoreInput): Promise<StoreResult> {
  const input = parseInput(StoreInput, raw)
  // issue 18: `supersedes` may be a short ref, resolved within this repo before anything is scanned
  if (input.supersedes) input.supersedes = await resolveMemoryId(ctx, input.supersedes, input.repo)
  // the repo first: a bad repo value is answered before the text is scanned
  await ctx.locate(input.repo, 'read')
  const rejected = await gate(ctx, input)
  if (rejected) return rejected
  const repo = await ctx.repo(input.repo, 'write')
  // with meaning on, the text's vector: stored with it, and its nearest memories are update candidates
  const meaning = ctx.meaning ? await vectorOfNewText(ctx, admitText(input.content)) : null
  const createdAt = ctx.now().toISOString()
  return repo.store.write((db) => planStore(db, repo, {...input, createdAt, ...(meaning ? {meaning} : {})}))
}
