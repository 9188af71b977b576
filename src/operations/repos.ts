import type {MemContext} from '../engines/context.js'
import type {ReposResult} from '../model/shapes/memories.js'
export type {ReposResult} from '../model/shapes/memories.js'

/** Every repository mem has touched, from the user registry. */
export async function repos(ctx: MemContext): Promise<ReposResult> {
  return {repos: await ctx.listRepos()}
}
