/**
 * The persistence a RepoStore uses when its journal is not `.mem/` but a shared log (team mode:
 * the ops table of a team store, storage/postgres/replica-log.ts). The store keeps its sql.js
 * database and recall index as a replica of the log: it opens from the newest snapshot plus the
 * records after it, catches up with `after()`, and writes through `commit()`, which takes the
 * log's writer lock, hands over what other writers committed meanwhile, and appends the batch the
 * store planned on that state in one transaction (group commit).
 *
 * The steps map one to one to the file store's (repo-store.ts): write.lock → the lock `commit`
 * holds; journal append → the records `commit` appends; catch-up by stat → `head()` then `after()`;
 * checkpoint → `saveSnapshot()`; opening mem.db → `snapshot()` then `after()`.
 */
import type {JournalRecord} from './memories.js'

/** A record of the log with its place in it (1, 2, 3, … gapless). */
export interface ReplicaRecord {
  seq: number
  record: JournalRecord
}

export interface ReplicaLog {
  /** How messages name the log (never a password). */
  readonly name: string
  /** The newest snapshot: a sql.js database holding every record up to `seq`; null when there is none. */
  snapshot(): Promise<{seq: number; bytes: Uint8Array} | null>
  /** The last seq committed (0 when nothing is). One round trip: the check before every operation. */
  head(): Promise<number>
  /** Records after `seq`, in order, at most `limit`. */
  after(seq: number, limit: number): Promise<ReplicaRecord[]>
  /**
   * One write transaction: takes the log's writer lock, reads every record committed after `seq`
   * and hands them to `plan` (synchronous), which applies them and returns the records of its
   * batch, planned on that state; appends those after them and commits. Resolves once committed,
   * with the seq of each record appended. `plan` returning no record appends nothing and creates
   * nothing. Fails `unavailable` when the log cannot commit; nothing is appended then.
   * `requestIds`: the request ids of the batch's jobs; `replayed` hands `plan` the records already
   * committed under any of them (read under the lock), and a record's own `requestId` is kept on
   * its row (unique per repo), so a write sent twice is appended once.
   * `join` (group commit): called once the lock is held, just before `plan`, so that the writes
   * queued while the transaction waited for the lock go in it too; it answers their request ids,
   * whose first records are then read as well (one more statement, only for ids not read yet).
   */
  commit(
    seq: number,
    plan: (missed: ReplicaRecord[], replayed: ReadonlyMap<string, JournalRecord>) => JournalRecord[],
    requestIds?: readonly string[],
    join?: () => readonly string[],
  ): Promise<{seqs: number[]}>
  /**
   * Checks that the log can hold `record` (its size, its characters) as the store plans it, so that
   * a record it would refuse fails its own write only, not the batch committed with it. Throws the
   * error that write gets (invalid_input, payload_too_large).
   */
  admit?(record: JournalRecord): void
  /** The repo's one-maintenance-pass lock if no one holds it (freed when its holder dies); null when another holds it. */
  tryMaintenanceLock(): Promise<(() => Promise<void>) | null>
  /** The repo's lock of the meaning drain (one replica makes a repo's vectors at a time), like the maintenance lock and apart from it. */
  tryMeaningLock(): Promise<(() => Promise<void>) | null>
  /** Keeps a snapshot at `seq` if no other writer is keeping one now; true when this call kept it. */
  saveSnapshot(seq: number, bytes: Uint8Array): Promise<boolean>
  /**
   * The seq of the newest snapshot the log holds (0 when there is none): one small read, asked
   * before a replica makes a snapshot, so that replicas writing in turn do not each keep one.
   */
  snapshotSeq(): Promise<number>
  /**
   * Who is writing now, as the log records it (team mode: the request's key), asked when a write
   * is queued (in the caller's context); undefined: the log's own actor (the replica).
   */
  actorNow?(): string | undefined
}

/** The actor of a record a job planned (set by the store from `actorNow()` when the job was queued). */
const actors = new WeakMap<JournalRecord, string>()

export function setRecordActor(record: JournalRecord, actor: string): void {
  actors.set(record, actor)
}

export function recordActor(record: JournalRecord): string | undefined {
  return actors.get(record)
}
