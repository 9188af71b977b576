/**
 * The operations a server is running. A request's work goes on when its client has gone (the
 * connection ends, the operation does not), so a server that stops waits for them before it closes
 * the stores they read and write (`mem serve` stopped while a recall waits for the meaning model).
 */
export class InFlight {
  private readonly running = new Set<Promise<void>>()

  /** Counts `work` as running until it settles; returns it as it is. */
  track<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    )
    this.running.add(settled)
    void settled.then(() => this.running.delete(settled))
    return work
  }

  /** How many are running now. */
  get size(): number {
    return this.running.size
  }

  /** Resolves once nothing is running (work started meanwhile included). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running])
  }
}
