import {acquireWriteLock, type Release} from './lock.js'

/**
 * The first of a store's persistence steps (lock → catch up → append → checkpoint): one writer at
 * a time across every process that shares the store. RepoStore runs each write batch, checkpoint
 * and store creation as one synchronous section inside `run`, and relies on nothing else of it.
 *
 * For the files under `.mem/` it is `write.lock` (LingeringWriterLock below). A store kept in
 * Postgres (docs: team-server.md) would implement the same two calls with its write transaction
 * holding the repo's head row (`SELECT head … FOR UPDATE`).
 */
export interface WriterLock {
  /** Runs `fn` holding the lock; sections of one process run one after another, in call order. */
  run<T>(fn: () => T): Promise<T>
  /** Gives the lock up once the sections already asked for have run; nothing may run after. */
  close(): Promise<void>
}

export interface LingeringWriterLockOptions {
  /** Milliseconds after which a dead writer's lock is taken over. */
  staleMs: number
  /**
   * How long the lock is kept after a section, so that a burst of writes takes it once (taking it
   * costs ~2 ms). Other processes wait at most this long for it. 0 releases it at once.
   */
  lingerMs: number
  /** Runs while the lock is still held, once per burst, just before it is given up (errors are the caller's to catch). */
  beforeRelease?: () => void
}

/** The cross-process writer lock of a store's `.mem/` folder (lock.ts), kept a little after each section. */
export class LingeringWriterLock implements WriterLock {
  private held: {release: Release; timer?: NodeJS.Timeout} | undefined
  /** Serializes every section that holds the lock within this process. */
  private chain: Promise<unknown> = Promise.resolve()
  private closed = false
  /** The last release under way (a section that ends after close() gives the lock up at once, unawaited). */
  private releasing: Promise<void> = Promise.resolve()

  constructor(
    readonly dir: string,
    private readonly options: LingeringWriterLockOptions,
  ) {}

  /** True while this process holds the lock (inside a section, or lingering after one). */
  get isHeld(): boolean {
    return this.held !== undefined
  }

  run<T>(fn: () => T): Promise<T> {
    const run = this.chain.then(async () => {
      if (this.held?.timer) {
        clearTimeout(this.held.timer)
        this.held.timer = undefined
      }
      this.held ??= {release: await acquireWriteLock(this.dir, this.options.staleMs)}
      try {
        return fn()
      } finally {
        this.linger()
      }
    })
    this.chain = run.catch(() => undefined)
    return run
  }

  async close(): Promise<void> {
    this.closed = true
    await (this.chain = this.chain.then(() => this.release()))
  }

  private linger(): void {
    const held = this.held
    if (!held) return
    if (this.options.lingerMs <= 0 || this.closed) {
      void this.release()
      return
    }
    held.timer = setTimeout(() => {
      this.chain = this.chain.then(() => this.release())
    }, this.options.lingerMs)
    held.timer.unref()
  }

  /** Gives the lock up if held; else resolves when a release under way has finished. */
  private release(): Promise<void> {
    const held = this.held
    if (!held) return this.releasing
    this.options.beforeRelease?.()
    this.held = undefined
    if (held.timer) clearTimeout(held.timer)
    return (this.releasing = held.release().catch(() => undefined))
  }
}
