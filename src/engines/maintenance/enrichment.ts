import {embedMissing} from '../enrichment/embed-memories.js'
import {enrichMemory} from '../enrichment/enrich-memory.js'
import type {Embedder} from '../enrichment/embed.js'
import {heuristicOneLiner} from '../enrichment/heuristic.js'
import {MemError} from '../../model/errors.js'
import {askRuntime, type EnrichRuntime} from '../enrichment/runtime.js'
import {getMemory, liveWithoutOneLiner} from '../../storage/memories.js'
import {liveWithoutSupplementFrom} from '../../storage/supplements.js'
import {checkAborted} from './chunks.js'
import type {Enricher, Stage} from './types.js'
import {admitText} from '../../text/admit.js'

export type {Enricher} from './types.js'

/** The configured runtime as an enricher: its one-liner comes through the same sanitizing as `mem enrich`. */
export function runtimeEnricher(runtime: EnrichRuntime, embedder: Embedder | null = null): Enricher {
  return {
    name: runtime.provider,
    runtime,
    ...(embedder ? {embedder} : {}),
    async oneLiner(memory) {
      return (await askRuntime(runtime, {type: 'observation', tags: [], ...memory})).oneLiner
    },
  }
}

/** Memories a pass enriches through a configured runtime (each costs a model call). */
export const RUNTIME_ENRICH_PER_PASS = 50
/** Memories a pass gives an embedding vector (in batches of 16). */
export const EMBED_PER_PASS = 500

export const heuristicEnricher: Enricher = {
  name: 'heuristic',
  async oneLiner(memory) {
    return heuristicOneLiner(memory.content) || null
  },
}

const MAX_ONE_LINER = 200

/** Fills missing one-liners of live memories (through the enricher; the heuristic by default). */
export const enrichment: Stage = {
  name: 'enrichment',
  async run(s) {
    let affected = 0
    let after = 0
    for (;;) {
      checkAborted(s.signal)
      const page = s.repo.store.read((db) => liveWithoutOneLiner(db, after, s.policy.chunk))
      if (page.length === 0) break
      after = page[page.length - 1].seq
      const lines = new Map<string, string>()
      for (const m of page) {
        const raw = await s.enricher.oneLiner(m).catch(() => null)
        let line = (raw ? admitText(raw) : null)?.replace(/\s+/g, ' ').trim().slice(0, MAX_ONE_LINER) || null
        if (line && s.enricher !== heuristicEnricher && (await s.ctx.scanSecrets(line))) line = null
        line ??= heuristicOneLiner(m.content) || null
        if (line) lines.set(m.id, line)
      }
      if (s.dryRun) {
        affected += lines.size
        continue
      }
      affected += await s.repo.store.write((db) => {
        const ops = []
        for (const [id, oneLiner] of lines) {
          const m = getMemory(db, id)
          if (!m || m.forgottenAt || m.supersededBy || m.oneLiner) continue
          ops.push({op: 'update' as const, id, set: {oneLiner}})
        }
        return {ops, result: ops.length}
      })
      s.progress(affected, affected)
    }
    const runtime = s.enricher.runtime
    if (runtime && !s.dryRun) affected += await supplementThrough(s, runtime)
    if (runtime && s.enricher.embedder && !s.dryRun) affected += await embedThrough(s, s.enricher.embedder)
    return affected
  },
}

/**
 * With a configured runtime: supplements (one-liner, summary, foresight, entities) for up to
 * RUNTIME_ENRICH_PER_PASS live memories that have none from it yet. The first runtime failure
 * ends the step with that error (the stage reports it; what was written stays).
 */
async function supplementThrough(s: Parameters<Stage['run']>[0], runtime: EnrichRuntime): Promise<number> {
  const page = s.repo.store.read((db) => liveWithoutSupplementFrom(db, runtime.provider, 0, RUNTIME_ENRICH_PER_PASS))
  let written = 0
  for (const {id} of page) {
    checkAborted(s.signal)
    const memory = s.repo.store.read((db) => getMemory(db, id))
    if (!memory || memory.forgottenAt || memory.supersededBy) continue
    if ((await enrichMemory(s.ctx, s.repo, memory, runtime)).enriched) written++
    s.progress(written, page.length)
  }
  return written
}

/**
 * With embeddings on: vectors for up to EMBED_PER_PASS live memories without one from the model.
 * A failing batch ends the step with that error (what was written stays).
 */
async function embedThrough(s: Parameters<Stage['run']>[0], embedder: Embedder): Promise<number> {
  const run = await embedMissing(s.ctx, s.repo, embedder, {limit: EMBED_PER_PASS, signal: s.signal, onProgress: (done, of) => s.progress(done, of)})
  checkAborted(s.signal)
  if (run.error) throw new MemError('unavailable', run.error, {hint: 'The next pass goes on from there.'})
  return run.embedded
}
