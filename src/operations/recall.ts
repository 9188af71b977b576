import {capitalizeType, type MemoryType} from '../model/memory.js'
import {plainRecallInput, type RecallArgs} from '../model/inputs.js'
import {searchMemories, type SearchHit} from '../engines/search/engine.js'
import {buildRecallIndex, searchIndexed} from '../engines/search/compact.js'
import {normalizeForDuplicate} from '../text/tokenize.js'
import {MemoryIndex} from '../engines/search/retriever.js'
import {ageDays, outdatedWarning, stalenessWarning} from '../engines/search/rank.js'
import type {RepoStore} from '../storage/repo-store.js'
import type {IndexVectorsHeader} from '../storage/recall-index.js'
import {readOnlySources} from '../engines/sharing/sources.js'
import type {MemContext, RepoHandle} from '../engines/context.js'
import type {OpCall} from './define.js'
import type {RecallResult} from '../model/shapes/memories.js'
export type {RecallItem, RecallResult} from '../model/shapes/memories.js'

/** The HTTP and MCP schema of this input is `RecallInput` in schemas.ts (same rules, same messages). */
export interface RecallInput {
  repo: string
  q: string
  /** RECALL_LIMITS in model/inputs.ts: 1 to 100, default 10. */
  limit?: number
  type?: MemoryType
  /** Whether this recall counts as an agent using what it returns (default true); a person browsing passes false. */
  touch?: boolean
}

/**
 * Snapshot size from which a recall that found the recall index behind leaves its rebuild to the
 * face's own process (ctx.recallIndexBehind), when it offers one: a rebuild costs about a tenth of a
 * second here (~2.5k memories) and seconds at 100k. Smaller stores rebuild it as they close.
 */
export const BACKGROUND_INDEX_BYTES = 4 * 1024 * 1024

/**
 * `mem recall` runs once per question, so its path does not load zod (a fifth of its start):
 * well-formed input is taken by the hand-written check of the contract (model/inputs.ts), anything
 * else is parsed with the schema, which words the error.
 */
async function recallInput(raw: RecallInput): Promise<RecallArgs> {
  const plain = plainRecallInput(raw)
  if (plain) return plain
  const [{RecallInput: schema}, {parseInput}] = await Promise.all([import('../model/schemas.js'), import('../model/validate.js')])
  return parseInput(schema, raw)
}

/**
 * Ranks the repo's live memories against `q` (see search/engine.ts and search/rank.ts), and those
 * of its synced layers and linked repos (read-only, weighted 0.8).
 * A query of only stop words or punctuation yields an empty list. Each recall is recorded on the
 * returned memories (access count, last accessed) in the background. With meaning on (the
 * default: engines/meaning), a question whose every word no memory holds is also ranked by the
 * meaning model's vectors (memories that lack one are embedded first, a bounded number a recall);
 * with meaning off, or a model that cannot load or answer, the ranking is the text-only one.
 * `options.meaning: false` keeps this recall to words (the prompt hook: it injects only memories
 * that share words with the prompt, so the model would cost time and add nothing).
 */
export async function recall(ctx: MemContext, raw: RecallInput, options: {meaning?: boolean} = {}): Promise<RecallResult> {
  const {hits, now} = await recallHits(ctx, raw, options)
  return recallResult(hits, now)
}

/**
 * The ranked hits recall() shapes into its result, the recall already recorded on them (unless
 * `touch` is false), and the store they came from, which is loaded unless the recall index
 * answered. Hits the index answered carry their memory's short ref and unused count (the prompt
 * hook reads them without loading the store).
 */
export async function recallHits(ctx: MemContext, raw: RecallInput, options: {meaning?: boolean} = {}): Promise<{hits: SearchHit[]; now: Date; store: RepoStore}> {
  const input = await recallInput(raw)
  // a one-shot command first tries the recall index, which answers without loading the store
  const handle = await ctx.repo(input.repo, 'read', {deferLoad: !ctx.longLived})
  const now = ctx.now()
  // with meaning on (the default), words answer first; the model is asked only when no memory
  // holds every word of the question (engines/meaning/fuse.ts WORDS_ANSWER_COVER)
  const meaning = options.meaning !== false && ctx.meaning && (await meaningIsOn(ctx)) ? await import('../engines/meaning/fuse.js') : null
  // false once the model could not answer this recall (it says so once; the store then ranks by words)
  let askModel = true
  if (!ctx.longLived) {
    if (!handle.store.isLoaded) {
      let vectors: IndexVectorsHeader | undefined
      const indexed = handle.store.readIndexed((index) => {
        vectors = index.header.vectors
        return searchIndexed(index, input.q, {limit: input.limit, type: input.type, now})
      })
      if (indexed && (!meaning || meaning.wordsAnswer(input.q, indexed))) return indexHits(handle.store, indexed, input.touch, now)
      if (indexed && meaning) {
        if (vectors && vectors.missing === 0) {
          // the words did not answer, and the index holds every memory's vector: the question's
          // vector is ranked with them (when they are the model's in use), the store is not loaded
          const embedding = await meaning.queryVector(ctx, input.q)
          askModel = embedding !== null
          const byMeaning = embedding ? handle.store.readIndexed((index) => searchIndexed(index, input.q, {limit: input.limit, type: input.type, now, embedding})) : undefined
          if (byMeaning) return indexHits(handle.store, byMeaning, input.touch, now)
        } else {
          // the model loads while the store does (both take a while cold)
          void meaning.preload(ctx)
        }
      }
    }
    // the index is missing or behind: the store answers, and the index is brought up to date in a
    // process of its own (the CLI's) or when the store closes (after the answer is out)
    if (handle.store.recallIndexBehind) {
      const elsewhere = ctx.recallIndexBehind !== undefined && handle.store.snapshotBytes() >= BACKGROUND_INDEX_BYTES
      if (elsewhere) ctx.recallIndexBehind!(handle.root)
      else handle.store.refreshIndexOnClose(buildRecallIndex)
    }
  }
  await handle.store.ready()
  let found = await searchAll(ctx, handle, input, now)
  if (meaning && askModel && !meaning.wordsAnswer(input.q, found.hits)) {
    const {planMeaningLinks} = await import('../engines/gates/admit.js')
    const embedding = await meaning.queryWithVectors(ctx, handle, input.q, planMeaningLinks)
    if (embedding) found = await searchAll(ctx, handle, input, now, embedding)
  }
  // the recall is recorded on this repository's own memories only
  touchHits(handle.store, found.local, input.touch, now)
  return {hits: found.hits, now, store: handle.store}
}

/** Hits the recall index answered (all the repo's own), the recall recorded on them. */
function indexHits(store: RepoStore, hits: SearchHit[], touch: boolean | undefined, now: Date): {hits: SearchHit[]; now: Date; store: RepoStore} {
  touchHits(store, hits, touch, now)
  return {hits, now, store}
}

/** Whether the context's meaning setting is other than off (a wrong setting counts as on: the model step says what is wrong, once). */
async function meaningIsOn(ctx: MemContext): Promise<boolean> {
  try {
    return (await ctx.meaning!()).setting.model !== 'off'
  } catch {
    return true
  }
}

/** The ranked hits of the repo and of its layers and linked repos (read-only, weighted below local hits). */
async function searchAll(
  ctx: MemContext,
  handle: RepoHandle,
  input: {q: string; limit: number; type?: MemoryType},
  now: Date,
  embedding?: {model: string; vector: Float32Array},
): Promise<{hits: SearchHit[]; local: SearchHit[]}> {
  const search = (store: RepoStore) =>
    store.read((db) =>
      searchMemories(db, input.q, {
        limit: input.limit,
        type: input.type,
        now,
        index: ctx.longLived ? 'memory' : 'fts',
        version: store.version,
        ...(embedding ? {embedding} : {}),
      }),
    )
  const local = search(handle.store)
  let hits = [...local]
  // Mounted layers and linked repos are read, never written (no touch), and weighted below local hits.
  const others = await readOnlySources(ctx, handle)
  if (others.length > 0) {
    // The same text reached through a layer or a linked repo (a pack imported here, say) is shown
    // once: the local copy, or else the first one found.
    const seen = new Set(hits.map((h) => normalizeForDuplicate(h.memory.content)))
    for (const source of others) {
      for (const h of search(source.store)) {
        const key = normalizeForDuplicate(h.memory.content)
        if (seen.has(key)) continue
        seen.add(key)
        hits.push({...h, score: h.score * source.weight})
      }
    }
    hits = [...hits].sort((a, b) => b.score - a.score || (a.memory.createdAt < b.memory.createdAt ? 1 : -1)).slice(0, input.limit)
  }
  return {hits, local}
}

/** Records the recall on the returned memories (access count, last accessed), in the background. */
function touchHits(store: RepoStore, hits: SearchHit[], touch: boolean | undefined, now: Date): void {
  if (hits.length > 0 && touch !== false) store.writeInBackground([{op: 'touch', ids: hits.map((h) => h.memory.id), at: now.toISOString()}])
}

/** A score as recall's result shows it (and the prompt hook compares it): four decimals. */
export function shownScore(score: number): number {
  return Math.round(score * 10_000) / 10_000
}

/** The result of the ranked hits. */
function recallResult(hits: SearchHit[], now: Date): RecallResult {
  return {
    results: hits.map(({memory: m, score, newer}) => ({
      id: m.id,
      repoId: m.repoId,
      type: capitalizeType(m.type),
      content: m.content,
      oneLiner: m.oneLiner,
      tags: m.tags,
      importance: m.importance,
      score: shownScore(score),
      createdAt: m.createdAt,
      ageDays: ageDays(m.createdAt, now),
      stalenessWarning: newer ? outdatedWarning(newer) : stalenessWarning(m, now),
      origin: m.origin,
    })),
  }
}

/**
 * Rebuilds the repo's recall index (storage/recall-index.ts) from its store unless it is current
 * or another process is rebuilding it; `rebuilt` says whether this call wrote it. What the CLI runs,
 * in a process of its own, after a recall found the index behind.
 */
export async function refreshRecallIndex(ctx: MemContext, input: {repo: string}): Promise<{rebuilt: boolean}> {
  const handle = await ctx.repo(input.repo, 'read', {deferLoad: true})
  return {rebuilt: await handle.store.rebuildIndex(buildRecallIndex)}
}

export interface PrepareRecallInput {
  repo: string
}

/**
 * In a long-lived context (the TUI, a server), builds the repo's in-process search index now,
 * at a moment the caller chooses, instead of inside the first recall. Records no access and
 * returns nothing to show; `prepared` is false for a one-shot context (it asks the on-disk index).
 */
export async function prepareRecall(ctx: MemContext, raw: PrepareRecallInput): Promise<{prepared: boolean}> {
  const [{PrepareRecallInput: schema}, {parseInput}] = await Promise.all([import('../model/schemas.js'), import('../model/validate.js')])
  const input = parseInput(schema, raw)
  if (!ctx.longLived) return {prepared: false}
  const handle = await ctx.repo(input.repo, 'read')
  handle.store.read((db) => MemoryIndex.for(db))
  return {prepared: true}
}

/** How recall is run and counted; its declaration (catalog/memories.ts) spreads this in. */
/**
 * Counted as `recall`, or as `browse-search` when a person searched (`touch: false`: the TUI and the
 * web UI), so the usage statistics show what agents recalled apart from what people looked up.
 */
export const recallCall: OpCall<RecallInput, RecallResult> = {
  name: 'recall',
  track: {as: (input) => (input.touch === false ? 'browse-search' : 'recall'), count: (r) => r.results.length},
  run: recall,
}
