import {MemError} from '../model/errors.js'
import type {Memory} from '../model/memory.js'
import {getMemory} from '../storage/memories.js'
import type {MemContext, RepoHandle} from '../engines/context.js'
import type {WritePlan} from '../storage/repo-store.js'
import {MEMORY_ID_PATTERN, repoIdOf, SHORT_REF_PATTERN} from '../model/schemas.js'
import {idsWithKeyPrefix} from '../storage/refs.js'

/** True for a short ref (a 6 to 12 hex digit prefix of a key) rather than a whole id. */
export function isShortRef(value: string): boolean {
  return SHORT_REF_PATTERN.test(value.trim()) && !MEMORY_ID_PATTERN.test(value.trim())
}

/**
 * The whole id a value names: a whole id as it is; a short ref (a unique prefix of a key, ≥ 6 hex
 * digits) looked up in `repo`, the request's repository, and nowhere else. No match is a 404; more
 * than one is a 400 that lists the candidates. Resolved for reading: nothing is created.
 */
export async function resolveMemoryId(ctx: MemContext, value: string, repo?: string): Promise<string> {
  const v = value.trim()
  if (!isShortRef(v)) return v
  if (!repo?.trim()) {
    throw new MemError('invalid_input', `${v} is a short ref: it needs the repository it belongs to.`, {
      hint: 'Pass the repo (--repo, ?repo=, or `repo` in the call), or give the whole id.',
    })
  }
  const ref = v.toLowerCase()
  const handle = await ctx.repo(repo, 'read')
  const ids = handle.store.read((db) => idsWithKeyPrefix(db, ref, 11))
  if (ids.length === 0) {
    throw new MemError('not_found', `No memory with ref ${ref} in repo ${handle.id}.`, {hint: 'Run `mem browse` to list memories, or give the whole id.'})
  }
  if (ids.length > 1) {
    const shown = ids.slice(0, 10)
    throw new MemError('invalid_input', `The ref ${ref} is ambiguous in repo ${handle.id}: it starts ${ids.length > 10 ? 'more than 10' : ids.length} memories' keys:\n${shown.map((id) => `  ${id}`).join('\n')}`, {
      hint: 'Give more characters of the key, or the whole id.',
      details: {candidates: shown},
    })
  }
  return ids[0]
}

/** `input` with the ids under `keys` resolved (as resolveMemoryId) within `input.repo`. */
export async function resolveRefs<T extends {repo?: string}>(ctx: MemContext, input: T, ...keys: Array<keyof T & string>): Promise<T> {
  const out = {...input}
  for (const key of keys) {
    const value = out[key]
    if (typeof value === 'string') (out as Record<string, unknown>)[key] = await resolveMemoryId(ctx, value, input.repo)
  }
  return out
}

/**
 * The repo that holds memory `id`. When the caller names a repo, the id must belong to it: an id of
 * another repository is a 404 and nothing is read or changed there (a request scoped to repo A never
 * reaches repo B through an id). Without a repo, the id's own repo (ids carry their repo id).
 * Resolved for reading: looking up an id never creates or registers a store.
 */
export async function repoForId(ctx: MemContext, id: string, repo?: string): Promise<RepoHandle> {
  if (repo) {
    const handle = await ctx.repo(repo, 'read')
    if (!answersTo(handle, repoIdOf(id))) throw notInRepo(id, handle.id)
    return handle
  }
  const handle = await ctx.repo(repoIdOf(id), 'read')
  // (issue 20, repo ids) a memory id minted under an id its store has since given up (two folders
  // once shared a lossy id; config/repo-identity.ts) is found in the store that lists it as former
  if (!ctx.formerHolders || handle.store.read((db) => getMemory(db, id))) return handle
  for (const other of await ctx.formerHolders(repoIdOf(id))) if (other.store.read((db) => getMemory(db, id))) return other
  return handle
}

/** Whether memory ids naming `repoId` belong to `handle`: its id, or one its older memories carry. */
export function answersTo(handle: RepoHandle, repoId: string): boolean {
  return handle.id === repoId || (handle.formerIds?.includes(repoId) ?? false)
}

export function notFound(id: string): MemError {
  return new MemError('not_found', `No memory ${id}.`, {hint: 'Run `mem browse` to list memories, or check the repo (--repo).'})
}

function notInRepo(id: string, repoId: string): MemError {
  return new MemError('not_found', `No memory ${id} in repo ${repoId}: the id belongs to another repository.`, {
    hint: 'Ask the repository the id names (its second segment), or leave out repo.',
  })
}

/** The memory with `id`, live or not; a 404 when it does not exist. */
export async function requireMemory(ctx: MemContext, id: string, repo?: string): Promise<{handle: RepoHandle; memory: Memory}> {
  // a recall hit from a mounted layer (repoId layer-<id>) is read from that layer of `repo`
  if (repo && repoIdOf(id).startsWith('layer-')) {
    const {layerHandle} = await import('./layers.js')
    const layer = await layerHandle(ctx, await ctx.repo(repo, 'read'), repoIdOf(id).slice('layer-'.length))
    const memory = layer?.store.read((db) => getMemory(db, id))
    if (layer && memory) return {handle: layer, memory}
  }
  const handle = await repoForId(ctx, id, repo)
  const memory = handle.store.read((db) => getMemory(db, id))
  if (!memory) throw notFound(id)
  return {handle, memory}
}

/**
 * Changes one memory by id: resolves its repository (as `repoForId`), and under the lock reads the
 * memory (a 404 when it does not exist) and hands it to `plan`, whose ops are journaled. `now` is
 * the context's clock, read once.
 */
export async function changeMemory<T>(ctx: MemContext, id: string, repo: string | undefined, plan: (memory: Memory, now: string) => WritePlan<T>): Promise<T> {
  const handle = await repoForId(ctx, id, repo)
  const now = ctx.now().toISOString()
  return handle.store.write<T>((db) => {
    const memory = getMemory(db, id)
    if (!memory) throw notFound(id)
    return plan(memory, now)
  })
}
