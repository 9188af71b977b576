import {createEmbedder, EMBED_BATCH, type Embedder} from './embed.js'
import {MemError} from '../../model/errors.js'
import type {Op} from '../../storage/memories.js'
import {countWithoutVectorFrom, liveWithoutVectorFrom, vectorBytes} from '../../storage/vectors.js'
import type {MemContext, RepoHandle} from '../context.js'

/** The configured embedding model, or null (embeddings off: the default). Never throws. */
export async function embedder(ctx: MemContext): Promise<Embedder | null> {
  try {
    const config = ctx.embeddings ? await ctx.embeddings() : ctx.enrichment ? await ctx.enrichment() : null
    return config ? createEmbedder(config) : null
  } catch {
    return null
  }
}

/** A query's vector for recall, or null when embeddings are off or the runtime fails or is late. */
export async function queryVector(ctx: MemContext, q: string): Promise<{model: string; vector: Float32Array} | null> {
  const e = await embedder(ctx)
  if (!e) return null
  try {
    const [vector] = await e.embed([q], e.queryTimeoutMs)
    return vector ? {model: e.model, vector} : null
  } catch {
    return null
  }
}

export interface EmbedRun {
  /** Live memories without a vector from the model when the run started (at most `limit`). */
  candidates: number
  embedded: number
  /** The runtime's error that stopped the run (what was written stays), else null. */
  error: string | null
  /** The first memory of the batch that failed. */
  failedId: string | null
}

/**
 * Embeds live memories that have no vector from the configured model, EMBED_BATCH per request,
 * in store order, at most `limit`. The first failing batch stops the run (the runtime is down or
 * answers badly); each batch is written once its whole answer was checked.
 */
export async function embedMissing(
  ctx: MemContext,
  handle: RepoHandle,
  e: Embedder,
  options: {limit?: number; signal?: AbortSignal; onProgress?: (done: number, of: number) => void} = {},
): Promise<EmbedRun> {
  const available = handle.store.exists ? handle.store.read((db) => countWithoutVectorFrom(db, e.model)) : 0
  const candidates = Math.min(available, options.limit ?? Number.MAX_SAFE_INTEGER)
  const run: EmbedRun = {candidates, embedded: 0, error: null, failedId: null}
  let after = 0
  let handled = 0
  while (handled < candidates && !options.signal?.aborted) {
    const batch = handle.store.read((db) => liveWithoutVectorFrom(db, e.model, after, Math.min(EMBED_BATCH, candidates - handled)))
    if (batch.length === 0) break
    after = batch[batch.length - 1].seq
    handled += batch.length
    let vectors: Float32Array[]
    try {
      vectors = await e.embed(
        batch.map((m) => m.content),
        e.batchTimeoutMs,
      )
    } catch (err) {
      run.error = err instanceof MemError ? err.message : 'internal error'
      run.failedId = batch[0].id
      break
    }
    const at = ctx.now().toISOString()
    run.embedded += await handle.store.write<number>(() => {
      const ops: Op[] = batch.map((m, i) => ({
        op: 'vector',
        id: m.id,
        model: e.model,
        dims: vectors[i].length,
        vector: Buffer.from(vectorBytes(vectors[i])).toString('base64'),
        at,
      }))
      return {ops, result: ops.length}
    })
    options.onProgress?.(handled, candidates)
  }
  return run
}

/** One memory's vector, as an op to write with its supplements. Throws MemError('unavailable'). */
export async function vectorOp(ctx: MemContext, e: Embedder, memory: {id: string; content: string}): Promise<Op> {
  const [v] = await e.embed([memory.content], e.batchTimeoutMs)
  return {op: 'vector', id: memory.id, model: e.model, dims: v.length, vector: Buffer.from(vectorBytes(v)).toString('base64'), at: ctx.now().toISOString()}
}
