import type {MemRuntime} from './open-mem.js'

/** How often a long-lived process gives memories written since their vectors. */
export const MEANING_DRAIN_MS = 2_000

/**
 * In a long-lived process (`mem serve`, `mem mcp`), every few seconds, memories written since (by
 * any path: store, edit, intake, pack import, layer sync, consolidation) get their meaning vectors
 * and the update links those bring (engines/meaning/pending.ts), a batch a store at a time once the
 * process has not used the store for one interval, so the requests it answers neither wait for them
 * nor share the CPU with them. Nothing is done with meaning off; the model loads once a store
 * has something new.
 */
export function meaningInBackground(runtime: MemRuntime, everyMs: number, report: (err: unknown) => void) {
  let running: Promise<unknown> | undefined
  let drain: ((limit?: number) => Promise<number>) | undefined
  const timer = setInterval(() => {
    running ??= (async () => {
      if (!drain) {
        const [{meaningDrainer}, {meaningModel}, {planMeaningLinks}] = await Promise.all([
          import('../engines/meaning/pending.js'),
          import('../engines/meaning/use.js'),
          import('../engines/gates/admit.js'),
        ])
        drain = meaningDrainer(runtime, () => runtime.openStores(), () => meaningModel(runtime), planMeaningLinks)
      }
      await drain()
    })()
      .catch(report)
      .finally(() => {
        running = undefined
      })
  }, everyMs)
  timer.unref()
  return {
    stop: () => clearInterval(timer),
    drain: async () => {
      await running
    },
  }
}
