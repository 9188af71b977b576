import {runConsolidation} from '../consolidation/consolidate.js'
import type {Stage} from './types.js'

/** Runs consolidation (the pass already holds the maintenance lock); affected = insights created + boosted. */
export const consolidation: Stage = {
  name: 'consolidation',
  async run(s) {
    const r = await runConsolidation(s.ctx, s.repo, {
      dryRun: s.dryRun,
      writer: s.writer,
      signal: s.signal,
      onProgress: (p) => s.progress(p.done, p.total),
    })
    return r.insightsCreated + r.insightsBoosted
  },
}
