/**
 * Enrichment of one memory: supplements (one-liner, summary, foresight, entities) through the
 * configured language-model runtime or the heuristic, and its vector when embeddings are on.
 */
import {MemError} from '../../model/errors.js'
import type {Memory} from '../../model/memory.js'
import {getMemory, type Op} from '../../storage/memories.js'
import {getSupplement} from '../../storage/supplements.js'
import {getVector} from '../../storage/vectors.js'
import type {MemContext, RepoHandle} from '../context.js'
import type {Embedder} from './embed.js'
import {vectorOp} from './embed-memories.js'
import {heuristicEntities, heuristicForesight, heuristicOneLiner, heuristicSummary} from './heuristic.js'
import {askRuntime, createRuntime, type EnrichRuntime} from './runtime.js'
import {admitText} from '../../text/admit.js'
import type {EnrichResult, EnrichProviderName, EnrichmentStatus} from '../../model/shapes/insight.js'
export type {EnrichResult, EnrichProviderName, EnrichmentStatus} from '../../model/shapes/insight.js'

/** The configured runtime, or null (enrichment off: the heuristic answers). */
export async function enrichRuntime(ctx: MemContext): Promise<EnrichRuntime | null> {
  const config = ctx.enrichment ? await ctx.enrichment() : null
  return config ? createRuntime(config) : null
}

export function assertLive(m: Memory): void {
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
    // stored in the admitted form, and only when the scanner passes it (issue 28)
    const clean = async (v: string | null) => {
      const admitted = v ? admitText(v) : null
      return admitted && !(await ctx.scanSecrets(admitted)) ? admitted : null
    }
    oneLiner = await clean(answer.oneLiner)
    summary = await clean(answer.summary)
    foresight = await clean(answer.foresight)
    for (const e of answer.entities) {
      const kept = await clean(e)
      if (kept) entities.push(kept)
    }
  }
  oneLiner ??= heuristicOneLiner(memory.content) || null
  summary ??= heuristicSummary(memory.content) || null
  foresight ??= heuristicForesight(memory.content, memory.tags)
  if (!runtime) entities = heuristicEntities(memory.content)
  const vector = embed && handle.store.read((db) => getVector(db, memory.id))?.model !== embed.model ? await vectorOp(ctx, embed, memory) : null

  const enrichedAt = ctx.now().toISOString()
  const enriched = await handle.store.write<boolean>((db) => {
    const m = getMemory(db, memory.id)
    if (!m) throw new MemError('not_found', `No memory ${memory.id}.`, {hint: 'It was removed while being enriched; run again.'})
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

/** Whether enrichment is on, with which runtime, and whether it answers (within 2 s at most). */
export async function enrichmentStatus(ctx: MemContext): Promise<EnrichmentStatus> {
  const runtime = await enrichRuntime(ctx)
  if (!runtime) return {enabled: false, provider: 'heuristic', model: null, reachable: false}
  return {enabled: true, provider: runtime.provider, model: runtime.model, reachable: await runtime.ping(Math.min(runtime.timeoutMs, 2_000))}
}
