import {layerSources, NON_LOCAL_WEIGHT, type ReadOnlySource} from './layers.js'
import {linkedRepos} from './links.js'
import type {MemContext, RepoHandle} from './mem-context.js'

/**
 * Everything besides the repo's own store that recall reads: its synced layers, then the
 * registered repos it links to. A link to a repo mem does not know shows nothing.
 */
export async function readOnlySources(ctx: MemContext, handle: RepoHandle): Promise<ReadOnlySource[]> {
  const layers = await layerSources(ctx, handle)
  const repos: ReadOnlySource[] = []
  for (const id of await linkedRepos(ctx, handle)) {
    repos.push({id, kind: 'repo', store: (await ctx.repo(id)).store, weight: NON_LOCAL_WEIGHT})
  }
  return [...layers, ...repos]
}
