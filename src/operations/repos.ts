import {basename} from 'node:path'
import type {MemContext} from '../engines/context.js'
import type {RepoItem, ReposResult} from '../model/shapes/memories.js'
export type {ReposResult} from '../model/shapes/memories.js'

export interface ReposOptions {
  /** The repository the face works in (the folder `mem serve` was started in): answered as `current`. */
  current?: string
}

/**
 * Every repository mem has touched, from the user registry, each with the name people know it by
 * (its folder's name). With `current`, that repository too, whether or not it has memories yet; a
 * `current` that names no repository is left out (the list is still answered).
 */
export async function repos(ctx: MemContext, options: ReposOptions = {}): Promise<ReposResult> {
  const list = (await ctx.listRepos()).map((r) => item(r.repoId, r.path))
  if (!options.current) return {repos: list}
  let current: RepoItem | undefined
  try {
    const {id, root} = await ctx.locate(options.current, 'read')
    current = list.find((r) => r.repoId === id) ?? item(id, root)
  } catch {
    current = undefined
  }
  return current ? {repos: list, current} : {repos: list}
}

/** A repository as people see it: its folder's name (Windows paths too, wherever this runs). */
export function item(repoId: string, path: string): RepoItem {
  const name = basename(path.replace(/\\/g, '/').replace(/(?<!\/)\/+$/, ''))
  return {repoId, path, name: name || repoId}
}
