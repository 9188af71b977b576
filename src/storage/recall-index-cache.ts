import {existsSync, fstatSync, fsyncSync, ftruncateSync, renameSync} from 'node:fs'
import {join} from 'node:path'
import type {Db} from './db.js'
import {appendDurably, closeQuietly, encodeRecord, parseHeader, readRecords} from './journal.js'
import type {JournalRecord, Op} from './memories.js'
import {unreadableFile} from './files.js'
import {COUNTS_FILE, type CountsSidecar} from './counts-file.js'
import {openInMem, readInMem, writeInMem} from './mem-dir.js'
import type {OriginKeys} from './origin-keys.js'
import {encodeRecallIndex, moveRecallIndex, RecallIndexFile, RecallIndexUnusable, writeRecallIndex, type RecallIndexContent, type RecallIndexPosition} from './recall-index.js'

/** Where a journal stood when a read through the recall index saw it: its file and the end of its valid records. */
export interface JournalMark {
  ino: number
  end: number
}

export interface RecallIndexCacheOptions {
  /** The store's `.mem` folder. */
  dir: string
  /**
   * Journal bytes past which the index no longer answers for a store (a close would checkpoint
   * them: reading them back costs more than loading). Counted from the journal's header.
   */
  maxPendingBytes: number
  /** This machine's origin keys: the index verifies the origins it reads back with them. */
  origins?: OriginKeys
}

/**
 * The lifecycle of one store's recall index (`.mem/recall.idx`, recall-index.ts) as seen from the
 * store: whether it is current for the journal on disk, reads through it while the store is not
 * loaded, recall counters appended after such a read without loading, and when it is rewritten
 * (at close when a read found it behind, on demand, carried across a checkpoint).
 *
 * The index is a cache: every failure here leaves the store answering through its database.
 * The store decides *when* (it holds the lock and the loaded database); this module knows *what*
 * the index on disk says and how to bring it up to date.
 */
export class RecallIndexCache {
  readonly dir: string
  private readonly dbPath: string
  private readonly journalPath: string
  private readonly maxPendingBytes: number
  private readonly origins: OriginKeys | undefined
  /** The journal as a read from the recall index saw it (file and end of its valid records). */
  private indexedJournal: JournalMark | undefined
  /** Set when the recall index was missing or behind: the builder runs at close. */
  private builder: ((db: Db) => RecallIndexContent) | undefined
  /** A read found the recall index damaged: it is rewritten even if its header looks current. */
  private damaged = false
  /** What the last read() found: the index missing, behind or damaged ('behind'), or usable. */
  private found: 'behind' | 'current' | undefined

  constructor(options: RecallIndexCacheOptions) {
    this.dir = options.dir
    this.dbPath = join(options.dir, 'mem.db')
    this.journalPath = join(options.dir, 'journal')
    this.maxPendingBytes = options.maxPendingBytes
    this.origins = options.origins
  }

  /**
   * Runs `fn` on the recall index when it includes every write any process has acknowledged that
   * can change a recall. Undefined, having read nothing else, when the index is missing, behind,
   * damaged, or `fn` declines (returns undefined).
   */
  read<T>(fn: (index: RecallIndexFile) => T | undefined): T | undefined {
    let index: RecallIndexFile | null = null
    try {
      index = this.open()
      this.found = 'behind'
      if (!index) return undefined
      const journal = this.journalSince(index.header)
      if (!journal) return undefined
      this.found = 'current'
      const result = fn(index)
      if (result !== undefined) this.indexedJournal = journal
      return result
    } catch (err) {
      if (err instanceof RecallIndexUnusable) {
        this.damaged = true
        this.found = 'behind'
        return undefined
      }
      throw err
    } finally {
      index?.close()
    }
  }

  /**
   * True when the last read() found the index missing, behind the journal or damaged (not when it
   * was current and its reader declined). Without such a read, `loadedGeneration` (the generation of
   * the snapshot the store loaded, null when none) settles it: whether the index on disk is behind it.
   */
  behind(loadedGeneration: string | null): boolean {
    if (this.found === undefined && loadedGeneration !== null) this.found = this.current(loadedGeneration) ? 'current' : 'behind'
    return this.found === 'behind'
  }

  /** True after a read through the index answered: recall counters can then be appended without loading the store. */
  get readThrough(): boolean {
    return this.indexedJournal !== undefined
  }

  /** Asks for the index to be rewritten at close, with `build` over the database as it is then. */
  refreshOnClose(build: (db: Db) => RecallIndexContent): void {
    this.builder = build
  }

  /** Whatever is on disk is rewritten by the next write(), current or not. */
  markDamaged(): void {
    this.damaged = true
  }

  /** The index on disk is undamaged throughout and current (any journal size): no rebuild needed. */
  intactAndCurrent(): boolean {
    let index: RecallIndexFile | null = null
    try {
      index = this.open()
      return index !== null && this.journalSince(index.header, Number.POSITIVE_INFINITY) !== null && index.intact()
    } catch {
      return false
    } finally {
      index?.close()
    }
  }

  /**
   * Writes the index of `db` (which includes the journal up to `position`, nothing after), unless
   * the one on disk is current. `position` null: the store cannot say where it stands (no journal
   * of its generation open), and nothing is written. Best effort: true when it was written.
   */
  write(db: Db, position: RecallIndexPosition | null, build: (db: Db) => RecallIndexContent): boolean {
    if (position === null) return false
    if (!this.damaged && this.current(position.generation)) return false
    try {
      const bytes = encodeRecallIndex(build(db), position)
      if (!bytes) return false
      writeRecallIndex(this.dir, bytes)
      this.damaged = false
      return true
    } catch {
      // a read-only or full disk: recall reads the database
      return false
    }
  }

  /** At close: the rewrite refreshOnClose() asked for, if any. */
  writeOnClose(db: Db, position: RecallIndexPosition | null): void {
    if (this.builder) this.write(db, position, this.builder)
  }

  /**
   * Before a checkpoint of `generation`: where the index on disk stands if it is current for it (any
   * journal size), to be carried to the new generation by carry(); null otherwise.
   */
  positionIfCurrent(generation: string): RecallIndexPosition | null {
    try {
      const index = this.open()
      if (!index) return null
      index.close()
      const {header} = index
      return header.generation === generation && this.journalSince(header, Number.POSITIVE_INFINITY) !== null ? {generation, journalOffset: header.journalOffset} : null
    } catch {
      return null
    }
  }

  /**
   * After a checkpoint: an index current before it (only recall counters after it) is as current
   * after it, the snapshot changing nothing recall reads. Moved to the new position; left behind on
   * failure (the next recall rebuilds it).
   */
  carry(from: RecallIndexPosition, to: RecallIndexPosition): void {
    try {
      moveRecallIndex(this.dir, from, to)
    } catch {
      // left behind: the next recall rebuilds it
    }
  }

  /**
   * Under the writer lock, on a store that is not loaded: appends recall counters to the journal
   * as the write path would (after cutting a torn tail), and moves the counts sidecar along if it
   * was current (counters change no count).
   */
  appendCounters(ops: Op[]): void {
    const fd = openInMem(this.journalPath, 'r+')
    try {
      const header = parseHeader(fd, this.journalPath)
      if (!header) throw new Error('journal without a header')
      const st = fstatSync(fd)
      const from = this.indexedJournal && this.indexedJournal.ino === st.ino && this.indexedJournal.end >= header.bytes ? this.indexedJournal.end : header.bytes
      const {end} = readRecords<JournalRecord>(fd, from, this.journalPath)
      if (st.size > end) {
        // We hold the lock, so nobody is appending: these bytes were never acknowledged.
        ftruncateSync(fd, end)
        fsyncSync(fd)
      }
      const bytes = encodeRecord({ops} satisfies JournalRecord)
      appendDurably(fd, end, bytes)
      this.indexedJournal = {ino: st.ino, end: end + bytes.length}
      const countsPath = join(this.dir, COUNTS_FILE)
      try {
        const side = JSON.parse(readInMem(countsPath, 'utf8')) as CountsSidecar
        if (side.journalIno === st.ino && side.journalSize === end) {
          // a random name without node:crypto (loading it costs a recall through the index ~10 ms)
          const tmp = `${countsPath}.${Math.random().toString(36).slice(2)}.tmp`
          writeInMem(tmp, JSON.stringify({...side, journalSize: end + bytes.length}), 'wx')
          renameSync(tmp, countsPath)
        }
      } catch {
        // the sidecar is an optimisation only
      }
    } finally {
      closeQuietly(fd)
    }
  }

  private open(): RecallIndexFile | null {
    const index = RecallIndexFile.open(this.dir)
    if (index) index.origins = this.origins
    return index
  }

  /** Whether the index on disk is of `generation` and only recall counters (or nothing) followed it. */
  private current(generation: string): boolean {
    try {
      const index = RecallIndexFile.open(this.dir)
      const fresh = index !== null && index.header.generation === generation && this.journalSince(index.header) !== null
      index?.close()
      return fresh
    } catch {
      return false // damaged: rewritten
    }
  }

  /**
   * Where the journal stands if the index at `position` is current: same generation, and after its
   * position only records that change no recall (counters, usage roll-ups), and no more bytes of
   * records than `maxBytes`. Null otherwise.
   */
  private journalSince(position: RecallIndexPosition, maxBytes = this.maxPendingBytes): JournalMark | null {
    if (!existsSync(this.dbPath)) return null
    let fd: number
    try {
      fd = openInMem(this.journalPath, 'r')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw unreadableFile(this.journalPath, err)
    }
    try {
      const header = parseHeader(fd, this.journalPath)
      if (!header || header.generation !== position.generation || position.journalOffset < header.bytes) return null
      const st = fstatSync(fd)
      if (st.size < position.journalOffset || st.size - header.bytes > maxBytes) return null
      const {records, end} = readRecords<JournalRecord>(fd, position.journalOffset, this.journalPath)
      for (const r of records) for (const op of r.ops) if (op.op !== 'touch' && op.op !== 'usage') return null
      return {ino: st.ino, end}
    } finally {
      closeQuietly(fd)
    }
  }
}
