import {MemError} from '../errors.js'
import type {Memory} from '../model.js'
import {getMemory} from '../storage/memories.js'
import type {MemContext, RepoHandle} from './mem-context.js'
import {repoIdOf} from './schemas.js'

/**
 * The repo that holds memory `id`: the one the caller named when the id belongs to it,
 * else the repo the id itself names (ids carry their repo id).
 */
export async function repoForId(ctx: MemContext, id: string, repo?: string): Promise<RepoHandle> {
  if (repo) {
    const handle = await ctx.repo(repo)
    if (handle.id === repoIdOf(id)) return handle
  }
  return ctx.repo(repoIdOf(id))
}

export function notFound(id: string): MemError {
  return new MemError('not_found', `No memory ${id}.`, {hint: 'Run `mem browse` to list memories, or check the repo (--repo).'})
}

/** The memory with `id`, live or not; a 404 when it does not exist. */
export async function requireMemory(ctx: MemContext, id: string, repo?: string): Promise<{handle: RepoHandle; memory: Memory}> {
  // a recall hit from a mounted layer (repoId layer-<id>) is read from that layer of `repo`
  if (repo && repoIdOf(id).startsWith('layer-')) {
    const {layerHandle} = await import('./layers.js')
    const layer = await layerHandle(ctx, await ctx.repo(repo), repoIdOf(id).slice('layer-'.length))
    const memory = layer?.store.read((db) => getMemory(db, id))
    if (layer && memory) return {handle: layer, memory}
  }
  const handle = await repoForId(ctx, id, repo)
  const memory = handle.store.read((db) => getMemory(db, id))
  if (!memory) throw notFound(id)
  return {handle, memory}
}
