import {join} from 'node:path'
import {z} from 'zod'
import {errorBody, MemError} from '../model/errors.js'
import {MEMORY_TYPES, type Memory} from '../model/memory.js'
import {acquireSyncLock, classifySource, fetchPacks, prepareLayersDir, removeLayerCache} from '../engines/sharing/layer-source.js'
import {getLayer, layerMemoryRows, listLayers as listLayerRows, type LayerRecord} from '../storage/layers.js'
import {getMemory, liveCounts, type Op} from '../storage/memories.js'
import type {Db} from '../storage/db.js'
import {admitOptional, admitTags, admitText} from '../text/admit.js'
import {heuristicOneLiner} from '../engines/enrichment/heuristic.js'
import type {MemContext, RepoHandle} from '../engines/context.js'
import {layerSources, layersDir, layerStoreRoot, NON_LOCAL_WEIGHT, type ReadOnlySource} from '../engines/sharing/sources.js'
import {type DecodedPack, decodePack, entryFingerprint, entryRejected, clampTime} from './pack-import.js'
import type {PackEntry} from '../storage/pack-file.js'
import {RepoRef} from '../model/schemas.js'
import {admitManifest, admitNote, memoryId, planStore} from '../engines/gates/admit.js'
import {parseInput} from '../model/validate.js'
import type {Layer, SyncResult} from '../model/shapes/sharing.js'
export type {Layer, SyncResult} from '../model/shapes/sharing.js'

/** Hits from a mounted layer or a linked repo count this much of a local hit (decisions.md). */

export {layerSources, NON_LOCAL_WEIGHT, type ReadOnlySource}

export const LAYER_TYPES = ['local', 'shared', 'base'] as const

const LayerId = z
  .string({error: 'layerId is required'})
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'layerId must be 1 to 64 letters, digits, - or _ (starting with a letter or digit)')

export const ListLayersInput = z.object({repo: RepoRef})
export type ListLayersInput = z.input<typeof ListLayersInput>

export const MountLayerInput = z.object({
  repo: RepoRef,
  layerId: LayerId,
  type: z.enum(LAYER_TYPES, {error: 'type must be shared or base (local is the repo itself)'}),
  source: z.string().trim().min(1, 'source is empty').max(2_000).optional().describe('A directory holding .mem packs, or a git remote (URL or local repository). Without one the layer stays empty until a source is mounted.'),
  name: z.string().trim().min(1).max(200).optional().describe('A display name (default: the layer id).'),
})
export type MountLayerInput = z.input<typeof MountLayerInput>

export const LayerRefInput = z.object({repo: RepoRef, layerId: LayerId})
export type LayerRefInput = z.input<typeof LayerRefInput>

function unknownLayer(handle: RepoHandle, id: string): MemError {
  return new MemError('not_found', `No layer ${id} is mounted in ${handle.id}.`, {hint: 'Run `mem layers list` to see the mounted layers.'})
}

/** The repo itself as the `local` layer (read-write), then every mounted layer. */
export async function listLayers(ctx: MemContext, raw: ListLayersInput): Promise<{repo: string; layers: Layer[]}> {
  const input = parseInput(ListLayersInput, raw)
  const handle = await ctx.repo(input.repo, 'read')
  const {rows, counts} = handle.store.read((db) => ({rows: listLayerRows(db), counts: liveCounts(db)}))
  const local: Layer = {
    id: 'local',
    name: handle.id,
    type: 'local',
    source: handle.root,
    mountedAt: null,
    lastSyncAt: null,
    memoryCount: MEMORY_TYPES.reduce((n, t) => n + counts[t], 0),
  }
  return {repo: handle.id, layers: [local, ...rows]}
}

/**
 * Mounts a shared or base layer (read-only) whose source is a directory holding packs or a git
 * remote. The source is checked now (it exists, git can read it or it holds packs); its memories
 * arrive with the first `sync`. Answers the layer (memoryCount 0 until synced).
 */
export async function mountLayer(ctx: MemContext, raw: MountLayerInput): Promise<Layer> {
  const input = parseInput(MountLayerInput, raw)
  if (input.type === 'local') {
    throw new MemError('invalid_input', 'The local layer is the repository\'s own store; it is always there and cannot be mounted.', {
      hint: 'Mount a layer of type shared or base.',
    })
  }
  if (input.layerId === 'local') throw new MemError('invalid_input', 'The layer id local is reserved for the repository itself.', {hint: 'Choose another layerId.'})
  const handle = await ctx.repo(input.repo, 'write')
  const existing = handle.store.read((db) => getLayer(db, input.layerId))
  if (existing) {
    throw new MemError('conflict', `A layer ${input.layerId} is already mounted in ${handle.id}${existing.source ? ` (source ${existing.source})` : ''}.`, {
      hint: `Unmount it first (mem layers unmount ${input.layerId}) or choose another layerId.`,
    })
  }
  if (input.source) await classifySource(input.source)
  // the source is a path or URL as given (a folder's name is what it is): scanned, not rewritten
  if (input.source) await admitNote(ctx, "the layer's source", input.source)
  const name = input.name === undefined ? input.layerId : await admitNote(ctx, "the layer's name", input.name)
  const layer: LayerRecord = {
    id: input.layerId,
    name,
    type: input.type,
    source: input.source ?? null,
    mountedAt: ctx.now().toISOString(),
    lastSyncAt: null,
    memoryCount: 0,
  }
  const mounted = await handle.store.write((db) => {
    if (getLayer(db, layer.id)) throw new MemError('conflict', `A layer ${layer.id} is already mounted in ${handle.id}.`)
    return {ops: [{op: 'layer-put', layer}], result: layer as Layer}
  })
  return mounted
}

/**
 * Syncs a mounted layer with its source: clones or pulls it with git (or reads the directory),
 * checks every pack (a damaged or foreign one refuses the whole sync, nothing written), then
 * brings the layer's store in line: new entries added, changed ones (same lineage) updated,
 * entries no longer in any pack removed. Entries the secret scanner or content gate flags are
 * left out. Answers what changed.
 */
export async function syncLayer(ctx: MemContext, raw: LayerRefInput): Promise<SyncResult> {
  const input = parseInput(LayerRefInput, raw)
  const handle = await ctx.repo(input.repo, 'read')
  if (input.layerId === 'local') throw new MemError('invalid_input', 'The local layer is the repository itself; there is nothing to sync.', {hint: 'Sync a shared or base layer.'})
  const layer = handle.store.read((db) => getLayer(db, input.layerId))
  if (!layer) throw unknownLayer(handle, input.layerId)

  prepareLayersDir(layersDir(handle))
  const release = await acquireSyncLock(join(layersDir(handle), layer.id), layer.id)
  try {
    const result = await syncLocked(ctx, handle, layer)
    return result
  } finally {
    await release()
  }
}

async function syncLocked(ctx: MemContext, handle: RepoHandle, layer: LayerRecord): Promise<SyncResult> {
  // the spec syncs "with its remote source, if one is configured": without one there is nothing to do
  if (layer.source === null) return {layerId: layer.id, added: 0, updated: 0, removed: 0}
  const files = await fetchPacks(layer.source, join(layersDir(handle), layer.id))
  const packs: Array<{path: string; pack: DecodedPack}> = []
  for (const f of files) {
    try {
      const pack = await decodePack(f.bytes)
      packs.push({path: f.path, pack: {...pack, manifest: await admitManifest(ctx, pack.manifest)}})
    } catch (err) {
      if (err instanceof MemError) throw new MemError(err.code, `${f.path} in layer ${layer.id}: ${err.message}`, {hint: 'The layer was left as it was. Fix or remove that pack in the source, then sync again.'})
      throw err
    }
  }

  const store = await ctx.storeAt(layerStoreRoot(handle, layer.id))
  const layerHandle: RepoHandle = {id: `layer-${layer.id}`, root: layerStoreRoot(handle, layer.id), given: layer.id, store}
  const now = ctx.now()
  const current = new Map(store.read((db) => layerMemoryRows(db)).map((r) => [r.key, r]))

  // What the layer should hold: one entry per (pack name, lineage); the first pack wins a tie.
  // An entry the layer already holds unchanged passed the gates when it came in.
  const wanted = new Map<string, {entry: DecodedPack['entries'][number]; fingerprint: string}>()
  for (const {pack} of packs) {
    for (const entry of pack.entries) {
      const key = `${pack.manifest.name}\n${entry.lineage}`
      if (wanted.has(key)) continue
      const fingerprint = entryFingerprint(entry)
      if (current.get(key)?.fingerprint === fingerprint || !(await entryRejected(ctx, entry))) wanted.set(key, {entry, fingerprint})
    }
  }
  const jobs: Array<Promise<'added' | 'updated' | 'removed' | null>> = []
  // a write that fails is reported (failed, error), never counted as an entry that changed nothing
  const failures: string[] = []
  for (const [key, {entry, fingerprint}] of wanted) {
    const old = current.get(key)
    if (old && old.fingerprint === fingerprint) continue
    jobs.push(
      store
        .write((db) => {
          // the same type, text and time: the new version's id is the old one's (memoryId), so only its metadata changed
          if (old && memoryId(layerHandle.id, entry.type, admitText(entry.content), clampTime(entry.createdAt, now)) === old.id) {
            return {ops: replaceMetadata(db, old.id, entry, {layerKey: key, fingerprint}), result: 'updated' as const}
          }
          const plan = planStore(db, layerHandle, {
            content: entry.content,
            type: entry.type,
            tags: entry.tags,
            importance: entry.importance,
            source: entry.source,
            sessionId: null,
            supersedes: old?.id ?? null,
            createdAt: clampTime(entry.createdAt, now),
            origin: `layer:${layer.id}`,
            oneLiner: entry.oneLiner ?? undefined,
          })
          const ops: Op[] = plan.ops
          const insert = ops[0]
          if (insert?.op === 'insert') insert.extra = {layerKey: key, fingerprint}
          // a layer keeps no history: the replaced version goes
          if (old) ops.push({op: 'purge', id: old.id})
          const outcome: 'added' | 'updated' | 'removed' | null = plan.result.success ? (old ? 'updated' : 'added') : old ? 'removed' : null
          return {ops, result: outcome}
        })
        .catch((err: unknown) => {
          failures.push(`${entry.lineage}: ${errorBody(err).error}`)
          return null
        }),
    )
  }
  for (const [key, old] of current) {
    if (!wanted.has(key)) jobs.push(store.write(() => ({ops: [{op: 'purge', id: old.id}] as Op[], result: 'removed' as const})))
  }
  const outcomes = await Promise.all(jobs)
  await store.flush()
  const counts = store.read((db) => liveCounts(db))
  const memoryCount = MEMORY_TYPES.reduce((n, t) => n + counts[t], 0)
  const syncedAt = ctx.now().toISOString()
  await handle.store.write((db) => {
    const still = getLayer(db, layer.id)
    if (!still) throw unknownLayer(handle, layer.id) // unmounted meanwhile
    return {ops: [{op: 'layer-put', layer: {...still, lastSyncAt: syncedAt, memoryCount}}], result: null}
  })
  return {
    layerId: layer.id,
    added: outcomes.filter((o) => o === 'added').length,
    updated: outcomes.filter((o) => o === 'updated').length,
    removed: outcomes.filter((o) => o === 'removed').length,
    ...(failures.length > 0 ? {failed: failures.length, error: failures[0]} : {}),
  }
}

/**
 * The ops that give a layer's memory an entry's new metadata (tags, importance, one-liner, source)
 * when its type, text and creation time are the same: the version keeps its id (a new one would
 * take it, memoryId), and with it the links other memories of the layer have to it. A layer keeps
 * no history, so the row is replaced (purge, insert) rather than superseded.
 */
function replaceMetadata(db: Db, id: string, entry: PackEntry, extra: {layerKey: string; fingerprint: string}): Op[] {
  const was = getMemory(db, id)
  if (!was) throw new MemError('not_found', `No memory ${id} in the layer to update.`, {hint: 'Sync the layer again.'})
  const oneLiner = admitOptional(entry.oneLiner ?? undefined)
  const memory: Memory = {
    ...was,
    tags: admitTags(entry.tags),
    importance: entry.importance,
    source: admitText(entry.source),
    oneLiner: oneLiner ?? heuristicOneLiner(was.content),
  }
  return [
    {op: 'purge', id},
    {op: 'insert', memory, extra},
  ]
}

/** Unmounts a layer: its row goes, and its cache (clone and store) is deleted. */
export async function unmountLayer(ctx: MemContext, raw: LayerRefInput): Promise<{unmounted: true}> {
  const input = parseInput(LayerRefInput, raw)
  const handle = await ctx.repo(input.repo, 'read')
  if (input.layerId === 'local') throw new MemError('invalid_input', 'The local layer is the repository itself; it cannot be unmounted.')
  await handle.store.write((db) => {
    if (!getLayer(db, input.layerId)) throw unknownLayer(handle, input.layerId)
    return {ops: [{op: 'layer-delete', id: input.layerId}], result: null}
  })
  await ctx.dropStoreAt(layerStoreRoot(handle, input.layerId))
  removeLayerCache(join(layersDir(handle), input.layerId))
  return {unmounted: true}
}

/** The store of mounted layer `id` of a repo as a handle (its memories have repoId layer-<id>), or undefined. */
export async function layerHandle(ctx: MemContext, handle: RepoHandle, id: string): Promise<RepoHandle | undefined> {
  if (!handle.store.read((db) => getLayer(db, id))) return undefined
  const root = layerStoreRoot(handle, id)
  return {id: `layer-${id}`, root, given: id, store: await ctx.storeAt(root)}
}
