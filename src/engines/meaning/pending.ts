import type {Op} from '../../storage/memories.js'
import {countWithoutVectorFrom, liveWithoutVectorFrom, vectorBytes} from '../../storage/vectors.js'
import type {RepoStore} from '../../storage/repo-store.js'
import type {MemContext} from '../context.js'
import type {MeaningModel} from './model.js'

/**
 * The queue of vectors to make is the store itself: every live memory without a vector from the
 * model in use (storage/vectors.ts). Whatever wrote a memory (store, edit, intake, pack import, layer
 * sync, consolidation), the next recall that asks the model embeds it (PENDING_PER_RECALL at most
 * a recall: a store imported whole is embedded over several), or the server's drain in the
 * background, and writes the vectors through the journal like any other op (a crash loses at
 * most the batch being embedded, which stays in the queue). A model change leaves every memory
 * without a vector from the new model: they are embedded again, the old vectors replaced one by one.
 */
/** The default batch of embedPending. */
export const PENDING_PER_DRAIN = 256
/** What one recall embeds before it answers, at most (a second or two with the built-in model). */
export const PENDING_PER_RECALL = 64
/**
 * What one recall embeds in a long-lived process (MCP, the server, the TUI), at most: a backlog (a
 * store that grew before meaning was on) is the server's background drain's work, and a recall
 * there should not wait ~1.5 s for 64 of it (measured with the MCP bench at 5,000 memories).
 */
export const PENDING_PER_LIVE_RECALL = 16
const WRITE_BATCH = 32

export interface Drained {
  /** Vectors written. */
  embedded: number
  /** Live memories still without a vector from the model. */
  left: number
}

/** Per store, the version at which no memory waited for a vector from a model (skips the scan). */
const noneWaiting = new WeakMap<RepoStore, {model: string; version: number}>()

export async function embedPending(ctx: MemContext, store: RepoStore, model: MeaningModel, limit = PENDING_PER_DRAIN): Promise<Drained> {
  if (!store.exists) return {embedded: 0, left: 0}
  await store.ready()
  const known = noneWaiting.get(store)
  if (known && known.model === model.id && known.version === store.version) return {embedded: 0, left: 0}
  let embedded = 0
  let after = 0
  while (embedded < limit) {
    const batch = store.read((db) => liveWithoutVectorFrom(db, model.id, after, Math.min(WRITE_BATCH, limit - embedded)))
    if (batch.length === 0) break
    after = batch[batch.length - 1].seq
    const vectors = await model.embed(batch.map((m) => m.content))
    const at = ctx.now().toISOString()
    embedded += await store.write<number>(() => {
      const ops: Op[] = batch.map((m, i) => ({op: 'vector', id: m.id, model: model.id, dims: vectors[i].length, vector: Buffer.from(vectorBytes(vectors[i])).toString('base64'), at}))
      return {ops, result: ops.length}
    })
  }
  const left = store.read((db) => countWithoutVectorFrom(db, model.id))
  if (left === 0) noneWaiting.set(store, {model: model.id, version: store.version})
  return {embedded, left}
}

/** How many live memories wait for a vector from the model (0 for a store not yet loaded or made). */
export function pendingCount(store: RepoStore, model: MeaningModel): number {
  return store.exists && store.isLoaded ? store.read((db) => countWithoutVectorFrom(db, model.id)) : 0
}

/**
 * A long-lived process's idle work (the server): each open store that changed since it was last
 * looked at, and has not changed since the previous call (idle: a burst of stores is not slowed by
 * embedding), gets vectors for up to `limit` memories that lack one, so the next recall finds them
 * ready. The model loads only once a store has something to embed. Returns the vectors written.
 */
export function meaningDrainer(ctx: MemContext, stores: () => Promise<RepoStore[]>, model: () => Promise<MeaningModel | null>) {
  const looked = new WeakMap<RepoStore, number>()
  const lastSeen = new WeakMap<RepoStore, number>()
  return async (limit = 64): Promise<number> => {
    let written = 0
    for (const store of await stores()) {
      if (!store.exists || !store.isLoaded || looked.get(store) === store.version) continue
      if (lastSeen.get(store) !== store.version) {
        // changed since the last call: wait until it is idle
        lastSeen.set(store, store.version)
        continue
      }
      const m = await model()
      if (!m) return written
      const {embedded, left} = await embedPending(ctx, store, m, limit)
      written += embedded
      lastSeen.set(store, store.version)
      // looked at once nothing is left (a write after this changes the version again)
      if (left === 0) looked.set(store, store.version)
    }
    return written
  }
}
