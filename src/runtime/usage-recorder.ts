import {join} from 'node:path'
import type {UsageRecorder} from '../engines/context.js'
import {appendUsageLog, binOf, emptyDelta, type UsageDelta} from '../storage/usage.js'

export interface UsageRecorderOptions {
  now: () => Date
  /** Milliseconds of a monotonic clock (durations); the CLI passes process.hrtime (cheaper to start than performance). */
  elapsed?: () => number
  /** Flush after this many distinct (repo, hour, operation) aggregates are pending. */
  maxPending?: number
  /** Called after a flush with the repo roots whose logs grew (the runtime rolls large ones up). */
  onFlushed?: (roots: string[]) => void
  /**
   * Where a flush sends each repo's aggregates, instead of its `.mem/usage.log`: a team replica
   * (runtime/team-store.ts) writes them to the repo's shared log, as one `usage` op.
   */
  sink?: (root: string, deltas: UsageDelta[]) => void
}

/**
 * The usage recorder of a runtime: operations are added to in-memory aggregates per repo, UTC
 * hour and operation (count, total and max duration, a duration histogram, results), and appended
 * to each repo's `.mem/usage.log` when flushed: by the owner's timer (long-lived processes), when
 * many aggregates are pending, and at close. A one-shot command appends one line per operation
 * it ran, with no fsync and no lock.
 */
export class MemUsageRecorder implements UsageRecorder {
  private pending = new Map<string, {root: string; delta: UsageDelta}>()
  private readonly elapsed: () => number
  private readonly maxPending: number

  constructor(private readonly options: UsageRecorderOptions) {
    this.elapsed = options.elapsed ?? (() => performance.now())
    this.maxPending = options.maxPending ?? 512
  }

  start(operation: string): (repo: {root: string}, resultCount: number) => void {
    const started = this.elapsed()
    return (repo, resultCount) => this.record(operation, repo.root, this.elapsed() - started, resultCount)
  }

  /** Records one finished operation (the recorder's own timing, or a duration measured elsewhere). */
  record(operation: string, root: string, durationMs: number, resultCount: number): void {
    const hour = this.hourOf(this.options.now().getTime())
    const key = `${root}\0${hour}\0${operation}`
    let entry = this.pending.get(key)
    if (!entry) {
      entry = {root, delta: emptyDelta(hour, operation)}
      this.pending.set(key, entry)
    }
    const d = entry.delta
    const ms = durationMs > 0 ? durationMs : 0
    d.count++
    d.totalMs += ms
    if (ms > d.maxMs) d.maxMs = ms
    d.totalResults += resultCount > 0 ? resultCount : 0
    d.hist[binOf(ms)]++
    if (this.pending.size >= this.maxPending) this.flush()
  }

  private hourStart = 0
  private hourText = ''

  /** `YYYY-MM-DDTHH` of a time, formatted once per hour. */
  private hourOf(ms: number): string {
    if (ms < this.hourStart || ms >= this.hourStart + 3_600_000) {
      this.hourStart = ms - (ms % 3_600_000)
      this.hourText = new Date(this.hourStart).toISOString().slice(0, 13)
    }
    return this.hourText
  }

  /** Aggregates not yet flushed (for tests and for queries in this process). */
  get pendingCount(): number {
    return this.pending.size
  }

  /**
   * Copies of the aggregates of a repo not yet written, where a flush writes them later (a sink):
   * a usage query adds them to what is written. Null where a flush appends them to the usage log
   * at once (the query flushes, then reads the log).
   */
  pendingOf(root: string): UsageDelta[] | null {
    if (!this.options.sink) return null
    const out: UsageDelta[] = []
    for (const entry of this.pending.values()) if (entry.root === root) out.push({...entry.delta, hist: [...entry.delta.hist]})
    return out
  }

  flush(): void {
    if (this.pending.size === 0) return
    const byRoot = new Map<string, UsageDelta[]>()
    for (const {root, delta} of this.pending.values()) {
      const list = byRoot.get(root)
      if (list) list.push(delta)
      else byRoot.set(root, [delta])
    }
    this.pending = new Map()
    const sink = this.options.sink
    if (sink) {
      for (const [root, deltas] of byRoot) sink(root, deltas)
      return
    }
    const grown: string[] = []
    for (const [root, deltas] of byRoot) if (appendUsageLog(join(root, '.mem'), deltas)) grown.push(root)
    if (grown.length > 0) this.options.onFlushed?.(grown)
  }
}
