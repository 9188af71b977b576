import type {Op} from '../../storage/memories.js'
import type {Db} from '../../storage/db.js'
import {countWithoutVectorFrom, liveWithoutVectorFrom, newestWithoutVectorFrom, vectorBytes} from '../../storage/vectors.js'
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
/**
 * The batch of a long-lived process's drain: small, so that a recall's question waits behind at
 * most one batch in the model's worker (whose queue puts questions first).
 */
export const DRAIN_BATCH = 8

/** A pair linked as versions of one fact after the fact: the newer, the older, and what changed. */
export interface LateUpdate {
  newer: string
  older: string
  reason: string
}

/**
 * Update detection for memories that just got their vectors (gates/admit.ts planMeaningLinks,
 * given by the caller: this engine does not reach into the gates): the ops that link them, and the pairs.
 */
export type LinkPlanner = (db: Db, model: string, embedded: ReadonlyArray<{seq: number; id: string; vector: Float32Array}>) => {ops: Op[]; linked: LateUpdate[]}

export interface Drained {
  /** Vectors written. */
  embedded: number
  /** Live memories still without a vector from the model (-1: not counted). */
  left: number
  /** Pairs the embedded memories were linked in as versions of one fact (by meaning: gates/admit.ts planMeaningLinks). */
  linked: LateUpdate[]
}

/** Per store, the version at which no memory waited for a vector from a model (skips the scan). */
const noneWaiting = new WeakMap<RepoStore, {model: string; version: number}>()

/**
 * Gives up to `limit` live memories that lack one a vector from `model`, oldest first (a drain),
 * or newest first (`newest`: a recall, for which what was just written matters most; `within`: only
 * among the store's newest rows). `left` is counted unless `count` is false (then -1).
 */
export async function embedPending(
  ctx: MemContext,
  store: RepoStore,
  model: MeaningModel,
  {
    limit = PENDING_PER_DRAIN,
    newest = false,
    within,
    batch: batchSize = WRITE_BATCH,
    count = true,
    link,
  }: {limit?: number; newest?: boolean; within?: number; batch?: number; count?: boolean; link: LinkPlanner | null},
): Promise<Drained> {
  if (!store.exists) return {embedded: 0, left: 0, linked: []}
  await store.ready()
  const known = noneWaiting.get(store)
  if (known && known.model === model.id && known.version === store.version) return {embedded: 0, left: 0, linked: []}
  let embedded = 0
  // oldest first: past this seq; newest first: before it
  let cursor = newest ? Number.MAX_SAFE_INTEGER : 0
  const linked: LateUpdate[] = []
  while (embedded < limit) {
    const take = Math.min(batchSize, limit - embedded)
    const batch = store.read((db) => (newest ? newestWithoutVectorFrom(db, model.id, cursor, take, within) : liveWithoutVectorFrom(db, model.id, cursor, take)))
    if (batch.length === 0) break
    cursor = batch[batch.length - 1].seq
    const vectors = await model.embed(batch.map((m) => m.content))
    const at = ctx.now().toISOString()
    embedded += await store.write<number>((db) => {
      const ops: Op[] = batch.map((m, i) => ({op: 'vector', id: m.id, model: model.id, dims: vectors[i].length, vector: Buffer.from(vectorBytes(vectors[i])).toString('base64'), at}))
      // a model in process detects updates by meaning: what a store would have linked had it
      // brought its vector (the enrichment runtime's vectors are for recall only, as at a store)
      if (link && model.about.kind !== 'runtime') {
        const late = link(db, model.id, batch.map((m, i) => ({seq: m.seq, id: m.id, vector: vectors[i]})))
        ops.push(...late.ops)
        linked.push(...late.linked)
      }
      return {ops, result: batch.length}
    })
  }
  // what is left (a count of the whole store: a drain's question, not a recall's)
  if (!count) return {embedded, left: -1, linked}
  const left = store.read((db) => countWithoutVectorFrom(db, model.id))
  if (left === 0) noneWaiting.set(store, {model: model.id, version: store.version})
  return {embedded, left, linked}
}

/**
 * A long-lived process's idle work (the server, `mem mcp`): each open store that has memories
 * without a vector from the model, and that this process has not read or written since the
 * previous call (idle: the requests it answers do not wait for the model or share the CPU with it), gets
 * vectors for up to `limit` of them, and the update links they bring (planMeaningLinks), so the
 * next recall finds them ready. The model loads only once a store has something to embed. Returns
 * the vectors written.
 */
export function meaningDrainer(ctx: MemContext, stores: () => Promise<RepoStore[]>, model: () => Promise<MeaningModel | null>, link: LinkPlanner | null) {
  const looked = new WeakMap<RepoStore, number>()
  const asked = new WeakMap<RepoStore, number>()
  return async (limit = 64): Promise<number> => {
    let written = 0
    for (const store of await stores()) {
      if (!store.exists || !store.isLoaded) continue
      if (asked.get(store) !== store.uses) {
        // used since the last call: wait until it is idle
        asked.set(store, store.uses)
        continue
      }
      if (looked.get(store) === store.version) continue
      const m = await model()
      if (!m) return written
      const {embedded, left} = await embedPending(ctx, store, m, {limit, batch: DRAIN_BATCH, link})
      written += embedded
      // its own reads and writes do not make it busy
      asked.set(store, store.uses)
      // looked at once nothing is left (a write after this changes the version again)
      if (left === 0) looked.set(store, store.version)
    }
    return written
  }
}
