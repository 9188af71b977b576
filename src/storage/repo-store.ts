import {nodeCrypto} from '../model/lazy-require.js'
import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  renameSync,
  statSync,
} from 'node:fs'
import {join} from 'node:path'
import type {SqlJsStatic} from 'sql.js'
import {MemError} from '../model/errors.js'
import {Db} from './db.js'
import {appendDurably, closeQuietly, encodeHeader, encodeRecord, parseHeader, readRecords} from './journal.js'
import {claimIndexRefresh, type RecallIndexContent, type RecallIndexFile, type RecallIndexPosition} from './recall-index.js'
import {RecallIndexCache} from './recall-index-cache.js'
import {lockError} from './lock.js'
import {LingeringWriterLock, type WriterLock} from './writer-lock.js'
import {applyOps, coalesceTouches, liveCounts, rankFieldsChanged, type JournalRecord, type Op} from './memories.js'
import {compactIndex, pruneIndexLog} from './fts.js'
import {OWN_ORIGIN, type MemoryType} from '../model/memory.js'
import type {OriginKeys} from './origin-keys.js'
import {COUNTS_FILE, type CountsSidecar, peekCounts} from './counts-file.js'
import {releaseBuffer, unreadableFile, writeAtomic} from './files.js'
import {assertMemDir, makeMemDir, openInMem, readInMem, writeInMem} from './mem-dir.js'
import {getMeta, migrate, setMeta} from './schema.js'
import {loadSqlJs} from './sqljs.js'
import {planUsageRollUp} from './usage-rollup.js'
import {setRecordActor, type ReplicaLog, type ReplicaRecord} from './replica.js'
import {nextRequestId} from './request-ids.js'

const SQLITE_MAGIC = 'SQLite format 3\0'

/** Signs the origin of every memory this process inserts (one this machine vouches for). */
function signInserts(keys: OriginKeys, ops: Op[]): void {
  for (const op of ops) {
    if (op.op === 'insert' && op.originMac === undefined) op.originMac = keys.sign(op.memory.id, op.memory.origin || OWN_ORIGIN, op.memory.content)
  }
}
/** Journal size past which a write checkpoints (rewrites the snapshot and starts a new journal). */
const CHECKPOINT_BYTES = 8 * 1024 * 1024
/** Journal size past which closing a store checkpoints it. */
const CLOSE_CHECKPOINT_BYTES = 512 * 1024


/** The `.mem/.gitignore` a new store gets (remote mode writes it too when it makes `.mem/` first). */
export const GITIGNORE = `# mem keeps its database, journal and locks out of git.
mem.db
mem.db.*
journal
journal.*
counts.json
counts.json.*
write.lock
maintenance.lock
usage.log
usage.log.*
*.tmp
hooks.log
hooks.log.*
repo.json
recall.idx
recall.idx.*
`

/** What a write job hands back: the mutations to journal and the value to resolve with. */
export interface WritePlan<T> {
  ops: Op[]
  result: T
}

interface Job {
  build: (db: Db) => WritePlan<unknown>
  resolve: (value: unknown) => void
  reject: (err: unknown) => void
  /** A replica's log records who wrote (team mode: the request's key), asked when the job is queued. */
  actor?: string
  /** A replica's write sent with a request id (storage/request-ids.ts): written once however often it is sent. */
  requestId?: string
}

export interface RepoStoreOptions {
  /** Milliseconds after which a dead writer's lock is taken over. */
  lockStaleMs?: number
  /**
   * How long the writer lock is kept after a write, so that a burst of writes takes it once
   * (taking it costs ~2 ms). Other processes wait at most this long for it.
   */
  lockLingerMs?: number
  checkpointBytes?: number
  /**
   * Called once when this process makes the store's `.mem/` folder (its first write): the runtime
   * records the repo id there (config/repo-identity.ts). Its errors are ignored.
   */
  onCreate?: () => void
  /**
   * Opened without reading the snapshot (nor starting sql.js): `ready()` loads it, and every read
   * or write before that is a programming error. What the store can answer unloaded: `readIndexed`.
   */
  lazy?: boolean
  /**
   * This machine's origin keys (storage/origin.ts): memories this process inserts are signed with
   * them, and rows read back verified. Without them origins read as recorded (tools and tests).
   */
  origins?: OriginKeys
  /**
   * Keep the store as a replica of a shared log (team mode: replica.ts) instead of `.mem/`: nothing
   * is read or written under `root`; `sync()` before each operation catches up with the log.
   */
  replica?: ReplicaLog
}

/** Records after a replica's snapshot past which it keeps a new one: a cold replica replays at most about this many (at 10k memories, 383 records took ~2 s to replay at load 9, and a snapshot is ~15 MB). */
const REPLICA_SNAPSHOT_RECORDS = 250
/**
 * The most writes a replica commits in one transaction of its log (group commit): those queued
 * when the transaction starts plus those that arrive while it waits for the log's lock, up to this.
 */
const REPLICA_BATCH_JOBS = 64
/** Records a replica asks the log for at once while catching up. */
const REPLICA_PAGE = 1_000

/**
 * How long recall counters wait for the next write before they are written on their own. A busy
 * server's recalls within this window become one record with one update per memory (coalesced).
 */
const BACKGROUND_FLUSH_MS = 1_000

/**
 * One repository's store: a sql.js database in memory, durable through `.mem/journal`.
 *
 * Writes go through the queue: under the cross-process lock the store first replays what other
 * processes appended, then applies each job in a transaction, appends its record and fsyncs once
 * for the batch, and only then resolves the jobs. Reads first replay what is new (one stat).
 * Nothing on the write path rewrites mem.db; checkpoints do, through a temp file and a rename.
 * The recall index on disk is a cache over it (recall-index-cache.ts); the usage roll-up is one
 * write like any other (usage-rollup.ts).
 *
 * The persistence steps, which team-server.md maps one by one to Postgres: the lock is a
 * `WriterLock` (writer-lock.ts); catch-up is `catchUp()` (one stat, then a replay of what other
 * processes appended); append is the one `appendDurably()` of `writeBatch()`; checkpoint is
 * `checkpointLocked()`. Only the lock is behind an interface so far: the other three share the
 * journal's file state (descriptor, offsets, generation) with the loaded database.
 */
export class RepoStore {
  readonly dir: string
  readonly dbPath: string
  readonly journalPath: string
  private db!: Db
  private SQL: SqlJsStatic | undefined
  private loaded = false
  private loading: Promise<void> | undefined
  /** The recall index on disk: when it answers for the store, and when it is rewritten. */
  private readonly index: RecallIndexCache
  /** Generation of the snapshot this process loaded; null while no store exists on disk. */
  private generation: string | null = null
  private journalFd: number | undefined
  private journalWritable = false
  private journalIno = 0
  private journalStart = 0
  private journalOffset = 0
  /** The journal on disk belongs to the previous generation (a checkpoint was cut short). */
  private staleJournal = false
  private migrated = false
  private ignoreChecked = false
  /** Whether `.mem` was checked for links (once per store; later opens use O_NOFOLLOW). */
  private dirChecked = false
  private queue: Job[] = []
  private background: Op[] = []
  private backgroundTimer: NodeJS.Timeout | undefined
  private draining: Promise<void> | undefined
  private closed = false
  private changeCount = 0
  private useCount = 0
  private readonly checkpointBytes: number
  private readonly onCreate: (() => void) | undefined
  readonly origins: OriginKeys | undefined
  /** One writer at a time across processes (writer-lock.ts). */
  private readonly lock: WriterLock
  /** The shared log this store is a replica of (team mode); undefined for a store in `.mem/`. */
  private readonly replica: ReplicaLog | undefined
  /** The replica's place in the log: every record up to it is applied, none after. */
  private replicaSeq = 0
  /** The seq of the snapshot the log holds last this replica knows of. */
  private snapshotSeq = 0
  /** Serializes what moves the replica forward (catch-up, a write batch, a snapshot). */
  private advancing: Promise<unknown> = Promise.resolve()
  private snapshotting: Promise<unknown> | undefined

  private constructor(
    readonly root: string,
    options: RepoStoreOptions,
  ) {
    this.dir = join(root, '.mem')
    this.dbPath = join(this.dir, 'mem.db')
    this.journalPath = join(this.dir, 'journal')
    this.lock = new LingeringWriterLock(this.dir, {
      staleMs: options.lockStaleMs ?? 5_000,
      lingerMs: options.lockLingerMs ?? 20,
      // once per burst of writes, while still holding the lock
      beforeRelease: () => {
        if (this.generation !== null) this.writeCountsSidecar()
      },
    })
    this.checkpointBytes = options.checkpointBytes ?? CHECKPOINT_BYTES
    this.onCreate = options.onCreate
    this.origins = options.origins
    this.replica = options.replica
    this.index = new RecallIndexCache({dir: this.dir, maxPendingBytes: CLOSE_CHECKPOINT_BYTES, origins: options.origins})
  }

  static async open(root: string, options: RepoStoreOptions = {}): Promise<RepoStore> {
    const store = new RepoStore(root, options)
    if (!options.lazy) await store.ready()
    return store
  }

  /** Loads sql.js and the snapshot, and replays the journal (once; at once for a store not opened lazily). */
  ready(): Promise<void> {
    this.loading ??= (async () => {
      this.SQL = await loadSqlJs()
      if (this.replica) await this.loadReplica(this.replica)
      else this.load()
      this.loaded = true
    })()
    // a store that failed to load (a damaged snapshot, say) is tried again on the next call
    this.loading.catch(() => (this.loading = undefined))
    return this.loading
  }

  /** True once the snapshot is loaded (`ready()` resolved). */
  get isLoaded(): boolean {
    return this.loaded
  }

  private assertLoaded(): void {
    if (!this.loaded) throw new Error('RepoStore used before ready()')
  }

  /**
   * Runs `fn` on the recall index (recall-index.ts) instead of the database, when the store is not
   * loaded and the index includes every write any process has acknowledged that can change a recall
   * (what the journal holds after its position is recall counters and usage roll-ups only). Returns
   * undefined, having read nothing else, when the index is missing, behind, damaged, or `fn`
   * declines (returns undefined): the caller then loads the store. After a read through the index,
   * recall counters written in the background are appended to the journal without loading it.
   */
  readIndexed<T>(fn: (index: RecallIndexFile) => T | undefined): T | undefined {
    this.assertOpen()
    if (this.loaded) return undefined
    return this.index.read(fn)
  }

  /**
   * True when the last readIndexed() found the recall index missing, behind the journal or
   * damaged (not when it was current and its reader declined); for a store loaded without such a
   * read, whether the index on disk is behind it.
   */
  get recallIndexBehind(): boolean {
    if (this.replica) return false // a replica keeps its recall index in memory only
    // loaded before any read of the index (a store's first open settles its repo record): asked now
    return this.index.behind(this.loaded ? this.generation : null)
  }

  /** Size of the snapshot on disk (0 when there is none). */
  snapshotBytes(): number {
    try {
      return statSync(this.dbPath).size
    } catch {
      return 0
    }
  }

  /**
   * Rebuilds the recall index now (loading the store), unless it is current or another process is
   * rebuilding it; true when this call wrote it.
   */
  async rebuildIndex(build: (db: Db) => RecallIndexContent): Promise<boolean> {
    this.assertOpen()
    if (this.replica) return false
    const release = existsSync(this.dbPath) ? claimIndexRefresh(this.dir) : null
    if (!release) return false
    try {
      // the recall that asked may have found it damaged where a header check does not look
      if (this.index.intactAndCurrent()) return false
      await this.ready()
      this.catchUp()
      this.index.markDamaged() // whatever is on disk is rewritten
      return this.index.write(this.db, this.indexPosition(), build)
    } finally {
      release()
    }
  }

  /**
   * Asks for the recall index to be rebuilt when this store closes (with `build` over the database
   * as it is then), unless the index on disk is current. Loads nothing now.
   */
  refreshIndexOnClose(build: (db: Db) => RecallIndexContent): void {
    this.index.refreshOnClose(build)
  }

  /** Where the database stands in the journal, as the recall index records it; null without a journal of its generation open. */
  private indexPosition(): RecallIndexPosition | null {
    if (this.generation === null || this.journalFd === undefined || this.staleJournal) return null
    return {generation: this.generation, journalOffset: this.journalOffset}
  }

  /** A number that changes whenever the visible data changes (for caches over the store). */
  get version(): number {
    this.assertLoaded()
    return this.changeCount
  }

  /**
   * How many reads and writes this process has asked of the store: a background task that should
   * not slow the requests it answers (the meaning drain) waits until it stops changing.
   */
  get uses(): number {
    return this.useCount
  }

  /** True once the store has a snapshot on disk. */
  get exists(): boolean {
    this.assertLoaded()
    if (this.replica) return this.replicaSeq > 0
    return this.generation !== null
  }

  /** Bytes of journal records not yet folded into the snapshot (a replica: records after its log's last snapshot). */
  get pendingJournalBytes(): number {
    this.assertLoaded()
    if (this.replica) return this.replicaSeq - this.snapshotSeq
    return this.journalOffset - this.journalStart
  }

  /** Runs `fn` on a database that includes every write any process has acknowledged. */
  read<T>(fn: (db: Db) => T): T {
    this.assertOpen()
    this.assertLoaded()
    this.useCount++
    this.catchUp()
    return fn(this.db)
  }

  /**
   * Queues a write. `build` runs under the lock on caught-up state and returns the ops to journal;
   * if it throws, nothing is written and the promise rejects with its error. `own`: the store's own
   * upkeep, whoever's request set it off (meaning vectors): a replica's log names the replica as
   * who wrote it, not the request's key.
   */
  write<T>(build: (db: Db) => WritePlan<T>, {own = false}: {own?: boolean} = {}): Promise<T> {
    this.assertOpen()
    this.useCount++
    return new Promise<T>((resolve, reject) => {
      const requestId = this.replica ? nextRequestId() : undefined
      const actor = own ? undefined : this.replica?.actorNow?.()
      this.queue.push({build, resolve: resolve as (v: unknown) => void, reject, actor, ...(requestId ? {requestId} : {})})
      void this.drain()
    })
  }

  /**
   * Queues ops whose loss on a crash costs nothing acknowledged (recall counters): they ride
   * along with the next write, or are flushed shortly after, in a batch.
   */
  writeInBackground(ops: Op[]): void {
    if (this.closed || ops.length === 0) return
    this.background.push(...ops)
    if (!this.backgroundTimer) {
      this.backgroundTimer = setTimeout(() => {
        this.backgroundTimer = undefined
        void this.drain().catch(() => undefined)
      }, BACKGROUND_FLUSH_MS)
      this.backgroundTimer.unref()
    }
  }

  /** Flushes queued writes. */
  async flush(): Promise<void> {
    while (this.queue.length > 0 || this.background.length > 0 || this.draining) await this.drain()
  }

  /**
   * Folds `.mem/usage.log` into the usage tables (one journal record, under the lock), and
   * compacts them: hourly rows older than 35 days become daily rows, daily rows older than 400
   * days go. Returns how many aggregates were folded.
   */
  async rollUpUsage(now: Date): Promise<number> {
    this.assertOpen()
    await this.ready()
    if (this.replica) return 0 // usage is counted in `.mem/usage.log`, which a replica has not
    if (!this.exists && !existsSync(this.dbPath)) return 0
    return this.write((db) => planUsageRollUp(this.dir, db, now))
  }

  /** Creates the store on disk (`.mem/` with an empty snapshot) if it is not there; true when it was made now. */
  async create(): Promise<boolean> {
    this.assertOpen()
    await this.ready()
    await this.flush()
    if (this.exists || this.replica) return false // a replica's repo comes to be with its first record
    this.prepareDir()
    return this.withLock(() => {
      const made = !existsSync(this.dbPath)
      this.ensureOnDisk()
      return made
    })
  }

  /** Folds the journal into a new snapshot (under the lock). */
  async checkpoint(): Promise<void> {
    this.assertOpen()
    await this.ready()
    await this.flush()
    if (this.replica) return this.snapshotReplica(this.replica)
    if (!this.exists && !existsSync(this.dbPath)) return
    await this.withLock(() => {
      this.catchUp()
      this.checkpointLocked()
    })
  }

  /**
   * Runs `fn` (synchronous) holding the writer lock. The lock is kept for `lockLingerMs` after,
   * so that the next write of a burst does not take it again.
   */
  private withLock<T>(fn: () => T): Promise<T> {
    return this.lock.run(fn)
  }

  /** Flushes, checkpoints a long journal, and frees the database. */
  async close(): Promise<void> {
    if (this.closed) return
    try {
      await this.flush().catch(() => undefined)
      // a replica's snapshot in flight reads the database: it ends first (its failure is not the close's)
      await this.snapshotting
      if (this.loaded && this.exists && (this.pendingJournalBytes > CLOSE_CHECKPOINT_BYTES || this.migrated)) {
        await this.checkpoint().catch(() => undefined)
      }
      if (this.loaded && !this.replica) this.index.writeOnClose(this.db, this.indexPosition())
    } finally {
      this.closed = true
      await this.lock.close()
      if (this.backgroundTimer) clearTimeout(this.backgroundTimer)
      closeQuietly(this.journalFd)
      this.journalFd = undefined
      if (this.loaded) this.db.close()
    }
  }

  // ---- loading and catching up -----------------------------------------------------------------

  private load(): void {
    for (let attempt = 0; attempt < 20; attempt++) {
      if (this.tryLoad()) return
      sleepSync(5 + attempt * 5)
    }
    throw new MemError('unavailable', `The journal ${this.journalPath} does not belong to the snapshot ${this.dbPath}.`, {
      hint: 'Both files were left untouched. If no other mem process is checkpointing, restore them from a backup.',
    })
  }

  /** Loads snapshot + journal; false when a concurrent checkpoint made them disagree (retry). */
  private tryLoad(): boolean {
    this.resetState()
    this.changeCount++
    let snapshot: Buffer | null = null
    try {
      assertMemDir(this.dir, !this.dirChecked)
      this.dirChecked = true
      snapshot = readInMem(this.dbPath)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw unreadableFile(this.dbPath, err)
    }
    if (snapshot === null) {
      if (existsSync(this.journalPath)) {
        // A checkpoint renames the snapshot before the journal, so a journal never outlives it.
        if (existsSync(this.dbPath)) return false
        throw new MemError('unavailable', `The memory store ${this.dir} has a journal but no snapshot (mem.db is missing).`, {
          hint: 'The journal was left untouched. Restore mem.db from a backup, or move the journal aside to start empty.',
        })
      }
      this.db = this.newDb(null)
      this.migrated = false
      return true
    }
    if (snapshot.length < 100 || snapshot.subarray(0, 16).toString('latin1') !== SQLITE_MAGIC) {
      throw new MemError('unavailable', `The snapshot ${this.dbPath} is not a SQLite database (corrupt or overwritten).`, {
        hint: 'It was left untouched for inspection. Restore it from a backup, or move the .mem folder aside to start empty.',
      })
    }
    // sql.js keeps this Buffer as its in-memory file (MEMFS takes a Buffer#slice view, no copy)
    // until the file first grows: it must not be released or reused here
    const db = this.newDb(snapshot)
    const generation = getMeta(db, 'generation') ?? null
    const previous = getMeta(db, 'prev_generation') ?? null
    if (!generation) {
      db.close()
      throw new MemError('unavailable', `The snapshot ${this.dbPath} has no generation; it was not written by mem.`, {
        hint: 'It was left untouched. Move the .mem folder aside to start empty.',
      })
    }
    this.db = db
    this.generation = generation

    let fd: number
    try {
      fd = openInMem(this.journalPath, 'r')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true // first writer creates it
      throw unreadableFile(this.journalPath, err)
    }
    const header = parseHeader(fd, this.journalPath)
    if (header === null) {
      closeSync(fd)
      return true
    }
    this.journalFd = fd
    this.journalIno = fstatSync(fd).ino
    this.journalStart = header.bytes
    this.journalOffset = header.bytes
    if (header.generation === generation) {
      this.replay()
      return true
    }
    if (header.generation === previous) {
      // A checkpoint wrote the snapshot but not yet the new journal: the snapshot has it all.
      this.staleJournal = true
      this.journalOffset = fstatSync(fd).size
      return true
    }
    db.close()
    closeQuietly(fd)
    this.journalFd = undefined
    return false
  }

  private newDb(bytes: Uint8Array | null): Db {
    let raw
    try {
      raw = new this.SQL!.Database(bytes ?? undefined)
    } catch (err) {
      throw unreadableFile(this.dbPath, err)
    }
    const db = new Db(raw)
    db.origins = this.origins
    // The database is a file in sql.js's in-memory FS with one connection: exclusive locking spares
    // every statement sqlite's check for a hot journal and a changed file (a quarter of a recall's
    // row reads). Other processes' writes arrive through the journal (catchUp), never through sqlite.
    db.onReopen((d) => d.exec('PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY; PRAGMA locking_mode = EXCLUSIVE;'))
    try {
      this.migrated = migrate(db, this.dbPath)
    } catch (err) {
      db.close()
      if (err instanceof MemError) throw err
      throw unreadableFile(this.dbPath, err)
    }
    return db
  }

  private resetState(): void {
    closeQuietly(this.journalFd)
    this.journalFd = undefined
    this.journalWritable = false
    this.journalIno = 0
    this.journalStart = 0
    this.journalOffset = 0
    this.generation = null
    this.staleJournal = false
  }

  /** Applies what other processes appended since we last looked. */
  private catchUp(): void {
    if (this.replica) return // a replica catches up in sync(), before the operation
    if (this.generation === null) {
      if (existsSync(this.dbPath)) this.reload()
      return
    }
    let st
    try {
      st = statSync(this.journalPath)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && this.journalFd === undefined) return
      this.reload()
      return
    }
    if (this.journalFd === undefined || st.ino !== this.journalIno) this.reload()
    else if (st.size > this.journalOffset && !this.staleJournal) this.replay()
  }

  private reload(): void {
    this.db.close()
    this.load()
  }

  private replay(): void {
    const {records, end} = readRecords<JournalRecord>(this.journalFd!, this.journalOffset, this.journalPath)
    if (records.length > 0) {
      this.db.exec('BEGIN')
      try {
        // another process's recalls come as many small touch records: coalesced, one update per memory
        applyOps(this.db, coalesceTouches(records.flatMap((r) => r.ops)))
        this.db.exec('COMMIT')
        this.changeCount++
      } catch (err) {
        this.db.exec('ROLLBACK')
        rankFieldsChanged(this.db)
        throw new MemError('unavailable', `A record in ${this.journalPath} could not be applied: ${(err as Error).message}`, {
          hint: 'The journal was left untouched. It may come from a newer mem; upgrade, or restore from a backup.',
          cause: err,
        })
      }
    }
    this.journalOffset = end
  }

  // ---- writing ---------------------------------------------------------------------------------

  private drain(): Promise<void> {
    if (this.draining) return this.draining
    if (this.queue.length === 0 && this.background.length === 0) return Promise.resolve()
    this.draining = this.drainOnce().finally(() => {
      this.draining = undefined
      if (this.queue.length > 0) void this.drain()
    })
    return this.draining
  }

  private async drainOnce(): Promise<void> {
    // One turn of the event loop first, so that writes arriving together (a server's concurrent
    // requests) join this batch and share its fsync: 4 HTTP clients, 10k memories: ~130 → ~200/s.
    await new Promise<void>((resolve) => setImmediate(resolve))
    if (this.replica) return this.drainReplica(this.replica)
    if (!this.loaded) {
      if (this.queue.length === 0 && this.index.readThrough && this.background.every((op) => op.op === 'touch')) {
        const ops = coalesceTouches(this.background.splice(0))
        await this.withLock(() => this.index.appendCounters(ops)).catch(() => undefined)
        return
      }
      if (!(await this.readyOrFailQueue())) return
    }
    if (this.settleWithoutStore()) return
    try {
      this.prepareDir()
      await this.withLock(() => this.writeBatch())
    } catch (err) {
      const jobs = this.queue.splice(0)
      this.background = []
      for (const job of jobs) job.reject(err)
    }
  }

  /**
   * While nothing is on disk, a batch whose jobs all write nothing (feedback on an unknown id,
   * maintenance of an empty repo) is answered without creating the store: only a real write makes
   * `.mem/`. Returns false when some job has ops (or a background op waits): the batch then runs
   * the normal way, under the lock, where every job is planned again on caught-up state.
   */
  private settleWithoutStore(): boolean {
    if (this.generation !== null || this.background.length > 0 || this.queue.length === 0 || existsSync(this.dbPath)) return false
    const jobs = [...this.queue]
    const outcomes: Array<{job: Job; ok: true; value: unknown} | {job: Job; ok: false; err: unknown}> = []
    this.db.exec('BEGIN')
    try {
      for (const job of jobs) {
        try {
          const plan = job.build(this.db)
          if (plan.ops.length > 0) return false
          outcomes.push({job, ok: true, value: plan.result})
        } catch (err) {
          outcomes.push({job, ok: false, err})
        }
      }
    } finally {
      this.db.exec('ROLLBACK')
      rankFieldsChanged(this.db)
    }
    this.queue.splice(0, jobs.length)
    for (const o of outcomes) {
      if (o.ok) o.job.resolve(o.value)
      else o.job.reject(o.err)
    }
    return true
  }

  /** Runs under the lock: everything here is synchronous, so no other code interleaves. */
  private writeBatch(): void {
    const jobs = this.queue.splice(0)
    const background = coalesceTouches(this.background.splice(0))
    try {
      this.ensureOnDisk()
      this.catchUp()
      this.openForWrite()
    } catch (err) {
      for (const job of jobs) job.reject(err)
      return
    }

    this.db.exec('BEGIN')
    const planned = this.planJobs(jobs, background)
    const {done, failed} = planned
    const records = planned.records.map((r) => encodeRecord(r))
    if (records.length > 0) {
      const bytes = Buffer.concat(records)
      try {
        appendDurably(this.journalFd!, this.journalOffset, bytes)
      } catch (err) {
        this.db.exec('ROLLBACK')
        rankFieldsChanged(this.db)
        const error = lockError(this.dir, err)
        for (const {job} of done) job.reject(error)
        for (const {job, err: e} of failed) job.reject(e)
        return
      }
      this.journalOffset += bytes.length
    }
    this.db.exec('COMMIT')
    if (records.length > 0) this.changeCount++
    for (const {job, result} of done) job.resolve(result)
    for (const {job, err} of failed) job.reject(err)

    if (this.pendingJournalBytes > this.checkpointBytes || this.migrated) {
      try {
        this.checkpointLocked()
      } catch {
        // the journal still holds everything; the next write or close tries again
      }
    }
  }

  /**
   * Writes `.mem/counts.json`: the live counts as of this journal size. Readers that only need the
   * counts (`mem stats`) use it while the journal is still that size, without loading the database.
   * Best effort and not fsync'd: a stale or missing file only sends readers the slow way.
   */
  private writeCountsSidecar(): void {
    if (this.journalFd === undefined) return
    try {
      const st = fstatSync(this.journalFd)
      const body: CountsSidecar = {journalIno: st.ino, journalSize: st.size, counts: liveCounts(this.db)}
      const tmp = `${join(this.dir, COUNTS_FILE)}.${nodeCrypto().randomBytes(6).toString('hex')}.tmp`
      writeInMem(tmp, JSON.stringify(body), 'wx')
      renameSync(tmp, join(this.dir, COUNTS_FILE))
    } catch {
      // a read-only or full disk: the sidecar is an optimisation only
    }
  }

  /** The live counts of the store at `root` from its counts sidecar, if current (see counts-file.ts). */
  static peekCounts(root: string): Record<MemoryType, number> | null {
    return peekCounts(root)
  }

  private prepareDir(): void {
    try {
      mkdirSync(this.root, {recursive: true})
      // .mem itself is made here, never through a link, and may hold no link (mem-dir.ts)
      assertMemDir(this.dir, !this.dirChecked)
      this.dirChecked = true
      if (makeMemDir(this.dir)) {
        try {
          this.onCreate?.()
        } catch {
          // the store works without it
        }
      }
      const ignore = join(this.dir, '.gitignore')
      if (!existsSync(ignore)) writeInMem(ignore, GITIGNORE)
      else if (!this.ignoreChecked) {
        // a .gitignore written by an earlier mem lacks the usage log
        let text = readInMem(ignore, 'utf8')
        const missing = [
          ...(/^usage\.log$/m.test(text) ? [] : ['usage.log', 'usage.log.*']),
          // the store's record of its repo id and folder (config/repo-identity.ts) is this machine's
          ...(/^repo\.json$/m.test(text) ? [] : ['repo.json']),
          // the recall index (recall-index.ts), a cache rebuilt from the database
          ...(/^recall\.idx$/m.test(text) ? [] : ['recall.idx', 'recall.idx.*']),
        ]
        if (missing.length > 0) {
          text = `${text.endsWith('\n') ? text : `${text}\n`}${missing.join('\n')}\n`
          writeInMem(ignore, text)
        }
      }
      this.ignoreChecked = true
    } catch (err) {
      throw lockError(this.dir, err)
    }
  }

  /** Under the lock: the snapshot and a journal of its generation exist on disk. */
  private ensureOnDisk(): void {
    if (this.generation === null) {
      if (existsSync(this.dbPath)) {
        this.reload()
      } else {
        if (existsSync(this.journalPath)) this.load() // reports the orphan journal
        const generation = newGeneration()
        setMeta(this.db, 'generation', generation)
        this.writeSnapshot()
        writeAtomic(this.journalPath, encodeHeader(generation))
        this.generation = generation
        this.openJournal()
        return
      }
    }
    if (!existsSync(this.journalPath) || this.staleJournal) {
      writeAtomic(this.journalPath, encodeHeader(this.generation!))
      this.staleJournal = false
      this.openJournal()
    }
  }

  private openJournal(): void {
    closeQuietly(this.journalFd)
    const fd = openInMem(this.journalPath, 'r+')
    const header = parseHeader(fd, this.journalPath)
    this.journalFd = fd
    this.journalWritable = true
    this.journalIno = fstatSync(fd).ino
    this.journalStart = header?.bytes ?? 0
    this.journalOffset = this.journalStart
    this.replay()
  }

  /** Reopens the journal for writing and cuts a torn tail left by a writer that crashed. */
  private openForWrite(): void {
    if (!this.journalWritable) {
      const fd = openInMem(this.journalPath, 'r+')
      closeQuietly(this.journalFd)
      this.journalFd = fd
      this.journalWritable = true
      if (fstatSync(fd).ino !== this.journalIno) {
        this.reload()
        this.openForWrite()
        return
      }
    }
    const size = fstatSync(this.journalFd!).size
    if (size > this.journalOffset) {
      // We hold the lock, so nobody is appending: these bytes were never acknowledged.
      ftruncateSync(this.journalFd!, this.journalOffset)
      fsyncSync(this.journalFd!)
    }
  }

  private checkpointLocked(): void {
    if (this.generation === null) return
    const previous = this.generation
    const generation = newGeneration()
    // a recall index current before the checkpoint (only recall counters after it) is as current
    // after it: the snapshot changes nothing recall reads. Not across a migration.
    const carried = this.migrated ? null : this.index.positionIfCurrent(previous)
    // the index change log only serves in-process indexes catching up: keep its recent end
    pruneIndexLog(this.db)
    try {
      compactIndex(this.db)
    } catch {
      // sqlite rolled the merge back: the index is as it was, only slower to read
    }
    setMeta(this.db, 'generation', generation)
    setMeta(this.db, 'prev_generation', previous)
    try {
      this.writeSnapshot()
    } catch (err) {
      setMeta(this.db, 'generation', previous)
      throw lockError(this.dir, err)
    }
    this.generation = generation
    this.migrated = false
    writeAtomic(this.journalPath, encodeHeader(generation))
    this.staleJournal = false
    this.openJournal()
    this.writeCountsSidecar()
    if (carried) this.index.carry(carried, {generation, journalOffset: this.journalOffset})
  }

  /** Writes the database to mem.db atomically; its serialized copy is freed at once after. */
  private writeSnapshot(): void {
    const bytes = this.db.export()
    try {
      writeAtomic(this.dbPath, bytes)
    } finally {
      releaseBuffer(bytes)
    }
  }

  // ---- a replica of a shared log (team mode: replica.ts) ---------------------------------------

  /**
   * Brings the store up to date before an operation: for a replica, one `head()` (or `knownHead`,
   * read since the operation began) and, when the log moved on, the records after this replica's
   * place (read-your-writes across replicas). A store
   * in `.mem/` catches up in read() itself: loading it is all this does.
   */
  async sync(knownHead?: number): Promise<void> {
    this.assertOpen()
    await this.ready()
    const replica = this.replica
    if (!replica) return
    // a head the caller read after its request began (team mode: with the key, in one statement)
    const head = knownHead ?? (await replica.head())
    if (head <= this.replicaSeq) return
    await this.advance(async () => {
      while (this.replicaSeq < head) {
        const rows = await replica.after(this.replicaSeq, REPLICA_PAGE)
        this.applyReplicaRecords(rows)
        if (rows.length < REPLICA_PAGE) break
      }
    })
  }

  /**
   * For a replica, its log's maintenance lock (resolving to its release, or null when another
   * holds it); undefined for a store in `.mem/`, whose lock is `.mem/maintenance.lock`.
   */
  sharedMaintenanceLock(): Promise<(() => Promise<void>) | null> | undefined {
    return this.replica?.tryMaintenanceLock()
  }

  /**
   * For a replica, its log's meaning-drain lock (its release, or null when another replica holds
   * it); undefined for a store in `.mem/`, whose writers make vectors each for their own process.
   */
  sharedMeaningLock(): Promise<(() => Promise<void>) | null> | undefined {
    return this.replica?.tryMeaningLock()
  }

  /** Whether the store is a replica of a shared log (team mode), not a store in `.mem/`. */
  get isReplica(): boolean {
    return this.replica !== undefined
  }

  /** Writes queued and not yet taken into a batch (a batch in flight holds its own). */
  get queuedWrites(): number {
    return this.queue.length
  }

  /** The seq of the last record this replica applied (0 for a store in `.mem/`). */
  get replicaPosition(): number {
    return this.replicaSeq
  }

  /** Runs `fn` after whatever moves the replica forward already, and before what comes next. */
  private advance<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.advancing.then(fn)
    this.advancing = run.catch(() => undefined)
    return run
  }

  /** Opens from the log's newest snapshot plus the records after it. */
  private async loadReplica(replica: ReplicaLog): Promise<void> {
    const snapshot = await replica.snapshot()
    this.db = this.newDb(snapshot?.bytes ?? null)
    this.replicaSeq = snapshot?.seq ?? 0
    this.snapshotSeq = this.replicaSeq
    try {
      for (;;) {
        const rows = await replica.after(this.replicaSeq, REPLICA_PAGE)
        this.applyReplicaRecords(rows)
        if (rows.length < REPLICA_PAGE) break
      }
    } catch (err) {
      this.db.close()
      throw err
    }
  }

  /** Applies committed records of the log, in order, from this replica's place; a gap or a record of the past is refused. */
  private applyReplicaRecords(rows: readonly ReplicaRecord[]): void {
    const fresh = rows.filter((r) => r.seq > this.replicaSeq)
    if (fresh.length === 0) return
    fresh.forEach((r, i) => {
      if (r.seq !== this.replicaSeq + i + 1) {
        throw new MemError('internal', `The log ${this.replica?.name ?? ''} skipped from seq ${this.replicaSeq + i} to ${r.seq}: the replica stopped there.`)
      }
    })
    this.db.exec('BEGIN')
    try {
      applyOps(this.db, coalesceTouches(fresh.flatMap((r) => r.record.ops)))
      this.db.exec('COMMIT')
    } catch (err) {
      this.db.exec('ROLLBACK')
      rankFieldsChanged(this.db)
      throw new MemError('unavailable', `A record of ${this.replica?.name ?? 'the log'} (seq ${fresh[0].seq} to ${fresh.at(-1)!.seq}) could not be applied: ${(err as Error).message}`, {
        hint: 'The log was left untouched. It may come from a newer mem; upgrade every replica to the same version.',
        cause: err,
      })
    }
    this.replicaSeq = fresh.at(-1)!.seq
    this.changeCount++
  }

  /** Loads the store for the queued writes; when it cannot load, each waiting write fails with why (false). */
  private async readyOrFailQueue(): Promise<boolean> {
    try {
      await this.ready()
      return true
    } catch (err) {
      const jobs = this.queue.splice(0)
      this.background = []
      for (const job of jobs) job.reject(err)
      return false
    }
  }

  /**
   * Group commit on a replica: the queued jobs (at most REPLICA_BATCH_JOBS, with those that queue
   * while the transaction waits for the log's lock) are planned in one write transaction of the
   * log, on the state it hands over (every record committed before its lock), and their records
   * appended in it. The plan is rolled back in the database at once; once the log has committed, the records
   * are applied as any replica applies them (as data, from their JSON), and only then are the jobs
   * answered. So the database only ever holds what the log committed: a reader in between sees the
   * state before the batch, never a write that might still fail.
   */
  private async drainReplica(replica: ReplicaLog): Promise<void> {
    if (!(await this.readyOrFailQueue())) return
    const jobs = this.queue.splice(0, REPLICA_BATCH_JOBS)
    const background = coalesceTouches(this.background.splice(0))
    let done: Array<{job: Job; result: unknown}> = []
    let failed: Array<{job: Job; err: unknown}> = []
    const idsOf = (some: Job[]) => [...new Set(some.flatMap((j) => (j.requestId ? [j.requestId] : [])))]
    const requestIds = idsOf(jobs)
    // the writes queued while the transaction waited for the log's lock go in it too (up to the bound)
    const join = () => {
      const more = this.queue.splice(0, Math.max(0, REPLICA_BATCH_JOBS - jobs.length))
      jobs.push(...more)
      return idsOf(more)
    }
    await this.advance(async () => {
      let planned: JournalRecord[] = []
      try {
        const {seqs} = await replica.commit(
          this.replicaSeq,
          (missed, replayed) => {
            this.applyReplicaRecords(missed)
            // a write sent again is answered as the first time and planned no more (nor a second copy in this batch)
            const fresh: Job[] = []
            const again: Array<{job: Job; kept?: JournalRecord; original?: Job}> = []
            const first = new Map<string, Job>()
            for (const job of jobs) {
              const id = job.requestId
              const kept = id ? replayed.get(id) : undefined
              if (kept) again.push({job, kept})
              else if (id && first.has(id)) again.push({job, original: first.get(id)})
              else {
                if (id) first.set(id, job)
                fresh.push(job)
              }
            }
            const plan = this.planReplicaBatch(fresh, background)
            done = plan.done
            failed = plan.failed
            for (const a of again) {
              const lost = a.original && failed.find((f) => f.job === a.original)
              if (lost) failed.push({job: a.job, err: lost.err})
              else done.push({job: a.job, result: a.kept ? a.kept.reply : done.find((d) => d.job === a.original)?.result})
            }
            planned = plan.records
            return planned
          },
          requestIds,
          join,
        )
        // what every other replica will read back: the records as data
        this.applyReplicaRecords(seqs.map((seq, i) => ({seq, record: JSON.parse(JSON.stringify(planned[i])) as JournalRecord})))
      } catch (err) {
        const planning = new Set(failed.map((f) => f.job))
        for (const job of jobs) if (!planning.has(job)) job.reject(err)
        for (const {job, err: e} of failed) job.reject(e)
        return
      }
      for (const {job, result} of done) job.resolve(result)
      for (const {job, err} of failed) job.reject(err)
    })
    if (this.replicaSeq - this.snapshotSeq >= REPLICA_SNAPSHOT_RECORDS && !this.snapshotting) {
      // kept in the background: a failure leaves the records in the log, where they are anyway
      this.snapshotting = this.snapshotReplica(replica, {whenDue: true})
        .catch(() => undefined)
        .finally(() => (this.snapshotting = undefined))
    }
  }

  /**
   * Inside an open transaction: plans and applies each job on the state as it is (jobs see the ones
   * before them), each in a savepoint of its own (a job that throws is rolled back alone), then the
   * background ops; the records to append, one per job that wrote and one for the background.
   */
  private planJobs(
    jobs: Job[],
    background: Op[],
    admit?: (record: JournalRecord) => void,
  ): {records: JournalRecord[]; done: Array<{job: Job; result: unknown}>; failed: Array<{job: Job; err: unknown}>} {
    const records: JournalRecord[] = []
    const done: Array<{job: Job; result: unknown}> = []
    const failed: Array<{job: Job; err: unknown}> = []
    for (const job of jobs) {
      this.db.exec('SAVEPOINT job')
      try {
        const plan = job.build(this.db)
        if (this.origins) signInserts(this.origins, plan.ops)
        if (plan.ops.length > 0) {
          applyOps(this.db, plan.ops)
          // a replica's write with a request id keeps its answer, which a replay of it gets
          const record: JournalRecord = job.requestId ? {ops: plan.ops, requestId: job.requestId, reply: plan.result} : {ops: plan.ops}
          // a record the log cannot hold fails this job alone (a replica: not the batch beside it)
          admit?.(record)
          if (job.actor) setRecordActor(record, job.actor)
          records.push(record)
        }
        this.db.exec('RELEASE job')
        done.push({job, result: plan.result})
      } catch (err) {
        this.db.exec('ROLLBACK TO job')
        rankFieldsChanged(this.db)
        this.db.exec('RELEASE job')
        failed.push({job, err})
      }
    }
    if (background.length > 0) {
      try {
        this.db.exec('SAVEPOINT bg')
        applyOps(this.db, background)
        records.push({ops: background})
        this.db.exec('RELEASE bg')
      } catch {
        this.db.exec('ROLLBACK TO bg')
        rankFieldsChanged(this.db)
        this.db.exec('RELEASE bg')
      }
    }
    return {records, done, failed}
  }

  /** Plans each job on the state as it is (planJobs), and rolls it all back: the log commits first. */
  private planReplicaBatch(jobs: Job[], background: Op[]): {records: JournalRecord[]; done: Array<{job: Job; result: unknown}>; failed: Array<{job: Job; err: unknown}>} {
    this.db.exec('BEGIN')
    let planned: ReturnType<RepoStore['planJobs']> | null = null
    try {
      planned = this.planJobs(jobs, background, this.replica?.admit ? (r) => this.replica!.admit!(r) : undefined)
    } finally {
      this.db.exec('ROLLBACK')
      // what a job read while planning is gone: rank caches of the planned state too (recall
      // counters and usage change no rank field: a batch of those alone leaves them)
      if (!planned || planned.failed.length > 0 || planned.records.some((r) => r.ops.some((op) => op.op !== 'touch' && op.op !== 'usage'))) rankFieldsChanged(this.db)
    }
    return planned
  }

  /**
   * Keeps a snapshot of the replica in the log when records came after the last one. `whenDue`:
   * only when REPLICA_SNAPSHOT_RECORDS came after the log's newest snapshot (a checkpoint asked for
   * keeps one whenever anything is new).
   */
  private async snapshotReplica(replica: ReplicaLog, {whenDue = false}: {whenDue?: boolean} = {}): Promise<void> {
    await this.advance(async () => {
      if (this.replicaSeq <= this.snapshotSeq) return
      if (whenDue) {
        // another replica may have kept one since this one last looked (replicas writing in turn
        // would each keep a snapshot of about the same state, ~15 MB at 10k memories)
        const kept = await replica.snapshotSeq()
        if (kept > this.snapshotSeq) this.snapshotSeq = Math.min(kept, this.replicaSeq)
        if (this.replicaSeq - this.snapshotSeq < REPLICA_SNAPSHOT_RECORDS) return
      }
      const seq = this.replicaSeq
      // as a file checkpoint does: the index change log's recent end, the full-text index merged
      pruneIndexLog(this.db)
      try {
        compactIndex(this.db)
      } catch {
        // sqlite rolled the merge back: the index is as it was, only slower to read
      }
      const bytes = this.db.export()
      try {
        await replica.saveSnapshot(seq, bytes)
      } finally {
        releaseBuffer(bytes)
      }
      // kept by this call or by another replica at the same time: either way the log has a recent one
      this.snapshotSeq = seq
    })
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('RepoStore used after close')
  }
}

function newGeneration(): string {
  return `${Date.now().toString(36)}-${nodeCrypto().randomBytes(6).toString('hex')}`
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}
