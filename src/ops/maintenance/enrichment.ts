import {heuristicOneLiner} from '../../enrich/heuristic.js'
import {getMemory, liveWithoutOneLiner} from '../../storage/memories.js'
import {checkAborted} from './chunks.js'
import type {Stage} from './types.js'

/**
 * What enrichment needs from a language-model runtime (a later issue adds ollama and
 * OpenAI-compatible ones). Without one, the deterministic heuristic writes the one-liner.
 * A runtime's output is data: the caller length-limits it and scans it for secrets.
 */
export interface Enricher {
  name: string
  oneLiner(memory: {id: string; content: string}): Promise<string | null>
}

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
        let line = (await s.enricher.oneLiner(m).catch(() => null))?.replace(/\s+/g, ' ').trim().slice(0, MAX_ONE_LINER) || null
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
    return affected
  },
}
