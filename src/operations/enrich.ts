import {z} from 'zod'
import {MemError} from '../model/errors.js'
import {getMemory} from '../storage/memories.js'
import {countWithoutSupplementFrom, liveWithoutSupplementFrom} from '../storage/supplements.js'
import {embedder, embedMissing} from '../engines/enrichment/embed-memories.js'
import {assertLive, enrichMemory, enrichRuntime, type EnrichProviderName, type EnrichResult} from '../engines/enrichment/enrich-memory.js'
import {notFound, requireMemory, resolveRefs} from './lookup.js'
import type {MemContext} from '../engines/context.js'
import {MemoryRef, RepoRef} from '../model/schemas.js'
import {parseInput} from '../model/validate.js'

export const EnrichInput = z.object({id: MemoryRef, repo: z.string().optional()})
export type EnrichInput = z.input<typeof EnrichInput>

export const EnrichAllInput = z.object({
  repo: RepoRef,
  limit: z.number().int().min(1, 'limit must be 1 or more').optional().describe('Enrich at most this many memories.'),
})
export type EnrichAllInput = z.input<typeof EnrichAllInput>

export interface EnrichAllResult {
  repo: string
  provider: EnrichProviderName
  /** Live memories without supplements from this provider when the run started. */
  candidates: number
  enriched: number
  unchanged: number
  failed: number
  errors: Array<{id: string; error: string}>
  /** Why the run stopped before the end (the runtime failed three times in a row), else null. */
  stopped: string | null
  /** Memories given an embedding vector (0 unless `enrichment.embeddings` is enabled). */
  embedded: number
}

/**
 * Writes a one-liner, a summary, a foresight hint (when it will matter) and entities for a live
 * memory, through the configured language-model runtime, or the deterministic heuristic when
 * none is configured (`provider: "heuristic"`). The model's answer is untrusted data: parsed,
 * stripped of markup and instruction-like sentences, cut to length, and every field the secret
 * scanner flags is dropped (the heuristic fills it). The supplements are stored beside the memory
 * (its one-liner and summary are updated); its content never changes. A runtime that times out
 * or fails is a 503 `unavailable` and the memory is left unchanged.
 */
export async function enrich(ctx: MemContext, raw: EnrichInput): Promise<EnrichResult> {
  const input = await resolveRefs(ctx, parseInput(EnrichInput, raw), 'id')
  const {handle, memory} = await requireMemory(ctx, input.id, input.repo)
  assertLive(memory)
  const runtime = await enrichRuntime(ctx)
  const result = await enrichMemory(ctx, handle, memory, runtime, runtime ? await embedder(ctx) : null)
  return result
}

/**
 * Enriches every live memory of the repo that has no supplements from the current provider yet
 * (at most `limit`), in store order, reporting progress. A memory the runtime fails on is counted
 * and left unchanged; three failures in a row stop the run (the runtime is down).
 */
export async function enrichAll(
  ctx: MemContext,
  raw: EnrichAllInput,
  options: {onProgress?: (done: number, of: number) => void; signal?: AbortSignal} = {},
): Promise<EnrichAllResult> {
  const input = parseInput(EnrichAllInput, raw)
  const handle = await ctx.repo(input.repo, 'read')
  const runtime = await enrichRuntime(ctx)
  const provider: EnrichProviderName = runtime?.provider ?? 'heuristic'
  const available = handle.store.exists ? handle.store.read((db) => countWithoutSupplementFrom(db, provider)) : 0
  const candidates = Math.min(available, input.limit ?? Number.MAX_SAFE_INTEGER)
  const result: EnrichAllResult = {repo: input.repo, provider, candidates, enriched: 0, unchanged: 0, failed: 0, errors: [], stopped: null, embedded: 0}
  let after = 0
  let handled = 0
  let failedInRow = 0
  options.onProgress?.(0, candidates)
  outer: while (handled < candidates) {
    const page = handle.store.read((db) => liveWithoutSupplementFrom(db, provider, after, Math.min(100, candidates - handled)))
    if (page.length === 0) break
    for (const {seq, id} of page) {
      after = seq
      if (options.signal?.aborted) {
        result.stopped = 'stopped by request'
        break outer
      }
      handled++
      const memory = handle.store.read((db) => getMemory(db, id))
      try {
        if (!memory) throw notFound(id)
        const r = await enrichMemory(ctx, handle, memory, runtime)
        if (r.enriched) result.enriched++
        else result.unchanged++
        failedInRow = 0
      } catch (err) {
        result.failed++
        failedInRow++
        const message = err instanceof MemError ? err.message : 'internal error'
        if (result.errors.length < 10) result.errors.push({id, error: message})
        if (failedInRow >= 3) {
          result.stopped = `The runtime failed on 3 memories in a row; the rest were left for a later run. Last error: ${message}`
          break outer
        }
      }
      options.onProgress?.(handled, candidates)
    }
  }
  // then the vectors, in batches, for every live memory without one from the model (no limit:
  // they are cheap next to a chat answer)
  const e = runtime && !result.stopped ? await embedder(ctx) : null
  if (e) {
    const run = await embedMissing(ctx, handle, e, {signal: options.signal})
    result.embedded = run.embedded
    if (run.error) {
      result.failed++
      if (result.errors.length < 10) result.errors.push({id: run.failedId!, error: run.error})
      result.stopped = `Embedding stopped after ${run.embedded} of ${run.candidates} memories; the rest were left for a later run. Error: ${run.error}`
    }
  }
  return result
}

export {enrichMemory, enrichmentStatus, enrichRuntime, type EnrichmentStatus, type EnrichProviderName, type EnrichResult} from '../engines/enrichment/enrich-memory.js'
