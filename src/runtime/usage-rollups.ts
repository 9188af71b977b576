import {join} from 'node:path'
import {ROLLUP_LOG_BYTES, usageLogBytes} from '../storage/usage.js'

// Its own module of the runtime, not beside planUsageRollUp in storage/usage-rollup.ts: what only
// openMem imports rides in openMem's chunk of the CLI bundle, where a module the store shares too
// becomes a chunk of its own, one more file every cold command loads (`mem hook session-start`
// loaded 15 bundle files instead of 14).

/** What the roll-ups need of a store. */
export interface RollsUpUsage {
  rollUpUsage(now: Date): Promise<number>
}

/**
 * Folds the usage logs that have grown past a threshold, in a process that has their stores open
 * anyway: one roll-up per store at a time, failures ignored (the log waits for the next one).
 */
export class UsageRollUps {
  private readonly running = new Map<string, Promise<unknown>>()

  /**
   * `storeOf(root)`: the store this process has open at `root`, or undefined (a store not open here
   * is left alone: opening one only to fold its log costs more than the log).
   */
  constructor(
    private readonly storeOf: (root: string) => Promise<RollsUpUsage> | undefined,
    private readonly now: () => Date,
  ) {}

  /** Rolls up each store of `roots` whose log holds at least `threshold` bytes (by default ROLLUP_LOG_BYTES). */
  async rollUpLarge(roots: Iterable<string>, threshold = ROLLUP_LOG_BYTES): Promise<void> {
    for (const root of roots) {
      const opening = this.storeOf(root)
      if (!opening || this.running.has(root) || usageLogBytes(join(root, '.mem')) < threshold) continue
      const run = opening.then((store) => store.rollUpUsage(this.now())).catch(() => undefined)
      this.running.set(root, run)
      await run
      this.running.delete(root)
    }
  }

  /** Resolves when every roll-up under way has finished. */
  async settled(): Promise<void> {
    await Promise.all(this.running.values())
  }
}
