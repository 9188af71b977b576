import type {SearchHit} from '../search/engine.js'
import {queryTerms} from '../search/query.js'
import {termsHeld} from '../search/thesaurus.js'
import {analyze} from '../../text/tokenize.js'
import type {MemContext, RepoHandle} from '../context.js'
import {embedPending, PENDING_PER_LIVE_RECALL, PENDING_PER_RECALL, type LinkPlanner} from './pending.js'
import {meaningModel} from './use.js'
import type {MeaningModel} from './model.js'

/** A question's vector as search takes it: the model's id, and the floor of a hit found by meaning alone. */
export interface QueryEmbedding {
  model: string
  vector: Float32Array
  onlyFloor?: number
}

export function queryEmbedding(model: MeaningModel, vector: Float32Array): QueryEmbedding {
  return model.onlyFloor === undefined ? {model: model.id, vector} : {model: model.id, vector, onlyFloor: model.onlyFloor}
}

/**
 * How much of the question the best word match must hold for the words to answer alone: all of it.
 * Three quarters was tried (2026-11-27) to ask the model less often: the meaning bench's three sets
 * did not move (own 0.906 / 0.867, paraphrase 0.545 / 0.468, LoCoMo dev 0.640 / 0.549 recall@5 /
 * MRR@10), but the currency bench's meaning row fell from 94.4% to 93.5% current above outdated and
 * 83.3% to 82.4% current first, so it was not kept.
 */
export const WORDS_ANSWER_COVER = 1

/**
 * Words first, meaning when words fail (docs/meaning.md): when the best word match holds every word
 * of the question (WORDS_ANSWER_COVER, as the index analyzes words), the words answer and the
 * model is not asked — an exact match keeps its precision and costs no model. Otherwise the question
 * is ranked again with its vector (search/engine.ts Fusion).
 */
export function wordsAnswer(q: string, hits: SearchHit[], enough = WORDS_ANSWER_COVER): boolean {
  return wordCover(q, hits) >= enough
}

/**
 * The share of the question's words (as the index analyzes them) the best word match holds, itself
 * or through a tool of a role the word names ("Use pnpm" holds "how do I install dependencies"):
 * 1 for a question of no word, 0 without a match.
 */
export function wordCover(q: string, hits: SearchHit[]): number {
  const top = hits[0]?.memory
  if (!top) return 0
  const terms = queryTerms(q)
  if (terms.length === 0) return 1
  const have = new Set(analyze(`${top.content} ${top.tags.join(' ')} ${top.oneLiner ?? ''}`, {keepStopWords: true}))
  return termsHeld(q, terms, have).length / terms.length
}

/** Starts loading the context's model (recall, once the words did not answer: it loads while the store does). */
export function preload(ctx: MemContext): Promise<unknown> {
  return meaningModel(ctx).catch(() => null)
}

/**
 * The question's vector from the context's model, as it is (no memory is embedded first: the
 * recall index's vectors answer); null when meaning is off or the model cannot load or answer.
 */
export async function queryVector(ctx: MemContext, q: string): Promise<QueryEmbedding | null> {
  const model = await meaningModel(ctx)
  if (!model) return null
  try {
    const [vector] = await model.embed([q], {query: true})
    return vector ? queryEmbedding(model, vector) : null
  } catch (err) {
    failed(ctx, err)
    return null
  }
}

/**
 * The question's vector from the context's model, after the repository's memories that lack a
 * vector from it got one (a bounded number, newest first: embedPending, with the update links
 * `link` finds for them); null when meaning is off or the model
 * cannot load or answer (then recall is the word-only one).
 */
export async function queryWithVectors(ctx: MemContext, handle: RepoHandle, q: string, link: LinkPlanner): Promise<QueryEmbedding | null> {
  const model = await meaningModel(ctx)
  if (!model) return null
  try {
    // a long-lived process embeds what was just written (the store's newest rows; a backlog — a
    // burst of stores, a store that grew before meaning was on — is its drain's work: a recall
    // does not wait for it, nor count it)
    const live = ctx.longLived
    await embedPending(ctx, handle.store, model, {limit: live ? PENDING_PER_LIVE_RECALL : PENDING_PER_RECALL, newest: true, ...(live ? {within: PENDING_PER_LIVE_RECALL} : {}), count: false, link})
  } catch (err) {
    failed(ctx, err)
    return null
  }
  return queryVector(ctx, q)
}

/** Says once per failure that the model failed and this recall answers by words. */
function failed(ctx: MemContext, err: unknown): void {
  ctx.notice?.(`The meaning model failed (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); this recall answers by words alone.`)
}
