import {join} from 'node:path'
import {listLayers as listLayerRows, type LayerRecord} from '../../storage/layers.js'
import {LINK_SOURCE, liveRepoLinks} from '../../storage/links.js'
import type {RepoStore} from '../../storage/repo-store.js'
import type {MemContext, RepoHandle} from '../context.js'
import type {RepoLink} from '../../model/shapes/sharing.js'
import {assertNoLinkBetween} from '../../storage/mem-dir.js'
import {isOwnOrigin} from '../../model/memory.js'
export type {RepoLink} from '../../model/shapes/sharing.js'

/**
 * What recall and context read besides the repo's own store: its synced layers and the repos it
 * links to. Kept apart from layers.ts and links.ts (their commands, schemas and writes) so that
 * `mem recall` loads neither zod nor the pack and store code.
 */

/** Weight of memories from a mounted layer or a linked repo, against the repo's own. */
export const NON_LOCAL_WEIGHT = 0.8

/** The tag of the memories that link this repo to another (spec: "a memory tagged cross-repo-link"). */
export const CROSS_REPO_LINK_TAG = 'cross-repo-link'

export {LINK_SOURCE}

/** A store other than the repo's own that recall and context read, read-only, weighted. */
export interface ReadOnlySource {
  /** The layer id or the linked repo id. */
  id: string
  kind: 'layer' | 'repo'
  store: RepoStore
  weight: number
}

/** `.mem/layers`; refuses a link on the way (storage/mem-dir.ts: a clone may commit one). */
export function layersDir(handle: RepoHandle): string {
  const dir = join(handle.root, '.mem', 'layers')
  assertNoLinkBetween(handle.root, dir)
  return dir
}

/** The store of a layer's memories (under `.mem/layers/<id>/store`); refuses a link on the way. */
export function layerStoreRoot(handle: RepoHandle, id: string): string {
  const root = join(layersDir(handle), id, 'store')
  assertNoLinkBetween(handle.root, join(root, '.mem'))
  return root
}

/** The synced layers of a repo, as read-only sources. Costs one small query when none is mounted. */
export async function layerSources(ctx: MemContext, handle: RepoHandle): Promise<ReadOnlySource[]> {
  return layerSourcesOf(ctx, handle, handle.store.read((db) => listLayerRows(db)))
}

async function layerSourcesOf(ctx: MemContext, handle: RepoHandle, rows: LayerRecord[]): Promise<ReadOnlySource[]> {
  const out: ReadOnlySource[] = []
  for (const l of rows) {
    if (l.lastSyncAt === null) continue
    out.push({id: l.id, kind: 'layer', store: await ctx.storeAt(layerStoreRoot(handle, l.id)), weight: NON_LOCAL_WEIGHT})
  }
  return out
}

function noteOf(content: string): string {
  const i = content.indexOf(': ')
  return i >= 0 ? content.slice(i + 2) : ''
}

/** The repo's live links to other repos (its memories tagged cross-repo-link). */
export function linkItems(handle: RepoHandle): RepoLink[] {
  return linkItemsOf(handle, handle.store.read((db) => liveRepoLinks(db, CROSS_REPO_LINK_TAG)))
}

/**
 * A link is a grant to read another repository's memories: it counts only when this machine wrote
 * it (its origin verifies as the user's own, storage/origin.ts) and its signed text names the same
 * target. A link in a committed or copied store never opens another repo (docs/security.md).
 */
function linkItemsOf(handle: RepoHandle, rows: ReturnType<typeof liveRepoLinks>): RepoLink[] {
  return rows.flatMap((m) => {
    const to = (m.extra.link as {to?: unknown} | undefined)?.to
    if (typeof to !== 'string' || !isOwnOrigin(m.origin) || !(m.content === `Linked repository ${to}` || m.content.startsWith(`Linked repository ${to}: `))) return []
    return [{id: m.id, from: handle.id, to, note: noteOf(m.content), createdAt: m.createdAt}]
  })
}

/**
 * The repos whose memories this repo may read (recall, context preview's `crossRepoScope`):
 * those it links to that are still registered. A link alone, to a repo mem does not know, shows nothing.
 */
export async function linkedRepos(ctx: MemContext, handle: RepoHandle): Promise<string[]> {
  return linkedReposOf(ctx, handle, linkItems(handle))
}

async function linkedReposOf(ctx: MemContext, handle: RepoHandle, links: RepoLink[]): Promise<string[]> {
  if (links.length === 0) return []
  const registered = new Set((await ctx.listRepos()).map((r) => r.repoId))
  return [...new Set(links.map((l) => l.to))].filter((to) => to !== handle.id && registered.has(to))
}

/**
 * Everything besides the repo's own store that recall reads: its synced layers, then the
 * registered repos it links to. A link to a repo mem does not know shows nothing.
 */
export async function readOnlySources(ctx: MemContext, handle: RepoHandle): Promise<ReadOnlySource[]> {
  // one read of the store for both lists (recall asks on every query)
  const found = handle.store.read((db) => ({layers: listLayerRows(db), links: liveRepoLinks(db, CROSS_REPO_LINK_TAG)}))
  const layers = await layerSourcesOf(ctx, handle, found.layers)
  const repos: ReadOnlySource[] = []
  for (const id of await linkedReposOf(ctx, handle, linkItemsOf(handle, found.links))) {
    repos.push({id, kind: 'repo', store: (await ctx.repo(id, 'read')).store, weight: NON_LOCAL_WEIGHT})
  }
  return [...layers, ...repos]
}
