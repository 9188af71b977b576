import type {Op} from '../../storage/memories.js'
import type {Db} from '../../storage/db.js'
import {countWithoutVectorFrom, foreignVectorSince, liveWithoutVectorFrom, newestWithoutVectorFrom, stillWithoutVectorFrom, vectorBytes} from '../../storage/vectors.js'
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
 * Per replica store: when this process first made vectors for it (the ISO time `keepsForeign` reads
 * from), and what it found: another model's vector once (then for good), or none at a version of the
 * store (asked again only once the store has changed: the question is a scan of its vectors).
 */
const foreignSeen = new WeakMap<RepoStore, {since: string; found: boolean; version: number}>()

/**
 * Whether another model's vectors stay (only memories with no vector are embedded). A store in
 * `.mem/` replaces them: a model change re-embeds everything. A replica (team mode) replaces them
 * too, unless a vector from another model was written since this process began making vectors for
 * the repo: then a replica on another model is live, and replacing each other's vectors would go on
 * for ever; each then fills only what has none, and the first one to see it says so once.
 */
function keepsForeign(ctx: MemContext, store: RepoStore, model: MeaningModel): boolean {
  if (!store.isReplica) return false
  let seen = foreignSeen.get(store)
  if (!seen) foreignSeen.set(store, (seen = {since: ctx.now().toISOString(), found: false, version: -1}))
  if (seen.found) return true
  if (seen.version === store.version) return false
  const since = seen.since
  const other = store.read((db) => foreignVectorSince(db, model.id, since))
  seen.version = store.version
  if (other === null) return false
  seen.found = true
  tellOnce(
    ctx,
    `${model.id}\0${other}`,
    `Another replica makes this team's vectors with ${other}; this one uses ${model.id}. Each keeps the other's vectors and embeds only memories without one, and recall here reads by words the memories with ${other}'s. Set the same meaning.model on every replica (docs/team.md).`,
  )
  return true
}

const told = new Set<string>()

function tellOnce(ctx: MemContext, key: string, message: string): void {
  if (told.has(key)) return
  told.add(key)
  ctx.notice?.(message)
}

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
  const keepForeign = keepsForeign(ctx, store, model)
  let embedded = 0
  let looked = 0
  // oldest first: past this seq; newest first: before it
  let cursor = newest ? Number.MAX_SAFE_INTEGER : 0
  const linked: LateUpdate[] = []
  while (looked < limit) {
    const take = Math.min(batchSize, limit - looked)
    const batch = store.read((db) =>
      newest ? newestWithoutVectorFrom(db, model.id, cursor, take, within, keepForeign) : liveWithoutVectorFrom(db, model.id, cursor, take, keepForeign),
    )
    if (batch.length === 0) break
    looked += batch.length
    cursor = batch[batch.length - 1].seq
    const vectors = await model.embed(batch.map((m) => m.content))
    const at = ctx.now().toISOString()
    // the store's own upkeep: a replica's log names the replica (ops.actor), even when a recall's key set it off
    embedded += await store.write<number>((db) => {
      // on the state written to: another process, or another replica, may have made them meanwhile
      // (or forgotten the memory): those are left as they are
      const still = stillWithoutVectorFrom(db, model.id, batch.map((m) => m.id), keepForeign)
      const made = batch.flatMap((m, i) => (still.has(m.id) ? [{seq: m.seq, id: m.id, vector: vectors[i]}] : []))
      const ops: Op[] = made.map((m) => ({op: 'vector', id: m.id, model: model.id, dims: m.vector.length, vector: Buffer.from(vectorBytes(m.vector)).toString('base64'), at}))
      // a model in process detects updates by meaning: what a store would have linked had it
      // brought its vector (the enrichment runtime's vectors are for recall only, as at a store)
      if (link && model.about.kind !== 'runtime' && made.length > 0) {
        const late = link(db, model.id, made)
        ops.push(...late.ops)
        linked.push(...late.linked)
      }
      return {ops, result: made.length}
    }, {own: true})
  }
  // what is left (a count of the whole store: a drain's question, not a recall's)
  if (!count) return {embedded, left: -1, linked}
  const left = store.read((db) => countWithoutVectorFrom(db, model.id, keepForeign))
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
      // a replica first catches up with the team's log (one head read): the memories and vectors
      // other replicas wrote since
      if (store.isReplica) await store.sync()
      if (looked.get(store) === store.version) continue
      const m = await model()
      if (!m) return written
      // a replica drains a repo only while no other replica does (team mode's meaning lock): the
      // vectors are made once, not once per replica
      const locking = store.sharedMeaningLock()
      const release = locking ? await locking : undefined
      if (release === null) continue
      let drained: Drained
      try {
        drained = await embedPending(ctx, store, m, {limit, batch: DRAIN_BATCH, link})
      } finally {
        await release?.()
      }
      const {embedded, left} = drained
      written += embedded
      // its own reads and writes do not make it busy
      asked.set(store, store.uses)
      // looked at once nothing is left (a write after this changes the version again)
      if (left === 0) looked.set(store, store.version)
    }
    return written
  }
}
