import type {MemContext} from '../engines/context.js'

export interface ReposResult {
  repos: Array<{repoId: string; path: string}>
}

/** Every repository mem has touched, from the user registry. */
export async function repos(ctx: MemContext): Promise<ReposResult> {
  return {repos: await ctx.listRepos()}
}
