import {z} from 'zod'
import {MemError} from '../errors.js'
import {heuristicEntities, heuristicForesight, heuristicOneLiner, heuristicSummary} from '../enrich/heuristic.js'
import type {Embedder} from '../enrich/embed.js'
import {askRuntime, createRuntime, type EnrichRuntime} from '../enrich/runtime.js'
import type {Memory} from '../model.js'
import {getMemory, type Op} from '../storage/memories.js'
import {countWithoutSupplementFrom, getSupplement, liveWithoutSupplementFrom} from '../storage/supplements.js'
import {getVector} from '../storage/vectors.js'
import {embedder, embedMissing, vectorOp} from './embed.js'
import {notFound, requireMemory} from './lookup.js'
import type {MemContext, RepoHandle} from './mem-context.js'
import {MemoryId, RepoRef} from './schemas.js'
import {track} from './track.js'
import {parseInput} from './validate.js'

export const EnrichInput = z.object({id: MemoryId, repo: z.string().optional()})
export type EnrichInput = z.input<typeof EnrichInput>

export const EnrichAllInput = z.object({
  repo: RepoRef,
  limit: z.number().int().min(1, 'limit must be 1 or more').optional().describe('Enrich at most this many memories.'),
})
export type EnrichAllInput = z.input<typeof EnrichAllInput>

export type EnrichProviderName = 'ollama' | 'openai' | 'heuristic'

export interface EnrichResult {
  id: string
  /** True when new supplements were stored; false when they were already the same. */
  enriched: boolean
  oneLiner: string | null
  summary: string | null
  foresight: string | null
  entities: string[]
  provider: EnrichProviderName
}

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

export interface EnrichmentStatus {
  enabled: boolean
  provider: EnrichProviderName
  model: string | null
  /** Whether the configured runtime answers its health endpoint; false when enrichment is off. */
  reachable: boolean
}

/** The configured runtime, or null (enrichment off: the heuristic answers). */
export async function enrichRuntime(ctx: MemContext): Promise<EnrichRuntime | null> {
  const config = ctx.enrichment ? await ctx.enrichment() : null
  return config ? createRuntime(config) : null
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
  const done = track(ctx, 'enrich')
  const input = parseInput(EnrichInput, raw)
  const {handle, memory} = await requireMemory(ctx, input.id, input.repo)
  assertLive(memory)
  const runtime = await enrichRuntime(ctx)
  const result = await enrichMemory(ctx, handle, memory, runtime, runtime ? await embedder(ctx) : null)
  done(handle, result.enriched ? 1 : 0)
  return result
}

function assertLive(m: Memory): void {
  if (m.supersededBy) throw new MemError('conflict', `${m.id} was superseded by ${m.supersededBy}.`, {hint: `Enrich the newest version, ${m.supersededBy}.`})
  if (m.forgottenAt) throw new MemError('conflict', `${m.id} was forgotten; it is not enriched.`, {hint: 'Only live memories are enriched.'})
}

/**
 * Enriches one memory (already read) and stores the supplements, and, with an embedder, its
 * vector when it has none from that model (in the same write: a failure leaves both unwritten).
 */
export async function enrichMemory(
  ctx: MemContext,
  handle: RepoHandle,
  memory: Memory,
  runtime: EnrichRuntime | null,
  embed: Embedder | null = null,
): Promise<EnrichResult> {
  const provider: EnrichProviderName = runtime?.provider ?? 'heuristic'
  let oneLiner: string | null = null
  let summary: string | null = null
  let foresight: string | null = null
  let entities: string[] = []
  if (runtime) {
    const answer = await askRuntime(runtime, memory)
    const clean = async (v: string | null) => (v && !(await ctx.scanSecrets(v)) ? v : null)
    oneLiner = await clean(answer.oneLiner)
    summary = await clean(answer.summary)
    foresight = await clean(answer.foresight)
    for (const e of answer.entities) if (await clean(e)) entities.push(e)
  }
  oneLiner ??= heuristicOneLiner(memory.content) || null
  summary ??= heuristicSummary(memory.content) || null
  foresight ??= heuristicForesight(memory.content, memory.tags)
  if (!runtime) entities = heuristicEntities(memory.content)
  const vector = embed && handle.store.read((db) => getVector(db, memory.id))?.model !== embed.model ? await vectorOp(ctx, embed, memory) : null

  const enrichedAt = ctx.now().toISOString()
  const enriched = await handle.store.write<boolean>((db) => {
    const m = getMemory(db, memory.id)
    if (!m) throw notFound(memory.id)
    assertLive(m)
    const before = getSupplement(db, m.id)
    const same =
      before !== undefined &&
      before.provider === provider &&
      before.oneLiner === oneLiner &&
      before.summary === summary &&
      before.foresight === foresight &&
      JSON.stringify(before.entities) === JSON.stringify(entities) &&
      m.oneLiner === oneLiner &&
      m.summary === summary
    const ops: Op[] = vector ? [vector] : []
    if (same) return {ops, result: ops.length > 0}
    if (m.oneLiner !== oneLiner || m.summary !== summary) ops.push({op: 'update', id: m.id, set: {oneLiner, summary}})
    ops.push({
      op: 'supplement',
      id: m.id,
      supplement: {provider, model: runtime?.model ?? null, oneLiner, summary, foresight, entities, enrichedAt},
    })
    return {ops, result: true}
  })
  return {id: memory.id, enriched, oneLiner, summary, foresight, entities, provider}
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
  const done = track(ctx, 'enrich-all')
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
  done(handle, result.enriched)
  return result
}

/** Whether enrichment is on, with which runtime, and whether it answers (within 2 s at most). */
export async function enrichmentStatus(ctx: MemContext): Promise<EnrichmentStatus> {
  const runtime = await enrichRuntime(ctx)
  if (!runtime) return {enabled: false, provider: 'heuristic', model: null, reachable: false}
  return {enabled: true, provider: runtime.provider, model: runtime.model, reachable: await runtime.ping(Math.min(runtime.timeoutMs, 2_000))}
}
