/**
 * A sweep run every `tickMs` of real time (the timer does not keep the process alive), one at a
 * time: a call while one runs shares it; a failure goes to `onError` (the sweep never rejects);
 * stop() ends the ticks and waits for the sweep under way. The local scheduler and a team
 * replica's (scheduler.ts, team-maintenance.ts) look for due tasks through one.
 */
export class Ticker {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private ended = false

  constructor(
    private readonly sweep: () => Promise<void>,
    private readonly options: {tickMs?: number; onError?: (err: unknown) => void} = {},
  ) {}

  /** True once stop() was called. */
  get stopped(): boolean {
    return this.ended
  }

  /** Ticks from now on; `now`: a first sweep at once too. */
  start({now = false}: {now?: boolean} = {}): void {
    if (this.ended || this.timer) return
    this.timer = setInterval(() => void this.run(), this.options.tickMs ?? 60_000)
    this.timer.unref()
    if (now) void this.run()
  }

  /** One sweep, or the one under way. Never rejects. */
  run(): Promise<void> {
    if (this.ended) return Promise.resolve()
    this.running ??= this.sweep()
      .catch((err) => this.options.onError?.(err))
      .finally(() => {
        this.running = undefined
      })
    return this.running
  }

  async stop(): Promise<void> {
    this.ended = true
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    await this.running
  }
}
