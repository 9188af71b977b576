import {existsSync, statSync} from 'node:fs'
import {assertMemDir, readInMem} from '../storage/mem-dir.js'
import {join} from 'node:path'
import {nodeCrypto} from '../model/lazy-require.js'
import {writeAtomic} from '../storage/files.js'
import {isDirectory, normalizeRepoId} from './paths.js'

/**
 * Which repo id a repository folder has (docs/storage.md, "Repo ids").
 *
 * 1. A path's *base id* is `normalizeRepoId(path)`: the specification's `C:\proj` → `C--proj`, and
 *    every `:` `\` `/` `.` `_` a `-` (`/home/u/app` → `-home-u-app`). This is the id mem has always
 *    given a path, so existing ids stay what they were.
 * 2. The base id is lossy (`/tmp/my_app` and `/tmp/my.app` share `-tmp-my-app`), so a folder takes it
 *    only while no other folder holding a store has it in the registry. Otherwise it takes
 *    `<base id>~<first 8 hex of sha-256(path)>`, longer while even that is taken: the registry
 *    (MEM_HOME/repos.yaml) never maps one id to two folders.
 * 3. Once chosen, the id is written into the store itself (`.mem/repo.json`) and read from there on
 *    every later open: it no longer depends on the registry, the order repositories were first
 *    used in, or the process's working directory. A repository moved to another folder keeps it; a
 *    copy (both folders alive, same recorded id) gets an id of its own.
 * 4. A store written before ids were recorded is migrated on its first open: it takes its id by
 *    rule 2, and the ids its memories were minted under that are not its id (`formerIds`) are
 *    recorded, so their memory ids (`memories/<former id>/…`, which never change) still resolve.
 */
export const REPO_RECORD_FILE = 'repo.json'

export interface RepoRecord {
  /** The repository's id. */
  repoId: string
  /** The folder the id was recorded for (a different folder means the store was moved or copied). */
  path: string
  /**
   * Other repo ids this store's memory ids carry (minted under an id the folder no longer has).
   * Absent until the store's memories have been looked at (a record written before the store opened).
   */
  formerIds?: string[]
}

export function repoRecordPath(root: string): string {
  return join(root, '.mem', REPO_RECORD_FILE)
}

/** The record in `root/.mem/repo.json`; undefined when there is none or it is not one. */
export function readRepoRecord(root: string): RepoRecord | undefined {
  const path = repoRecordPath(root)
  // every store and recall locates its repo: a record read before is reused while the file's
  // size and modification time stay the same (a stat instead of a read and a parse)
  let stat: {mtimeMs: number; size: number}
  try {
    stat = statSync(path)
  } catch {
    RECORDS.delete(path)
    return undefined
  }
  const known = RECORDS.get(path)
  if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size) return known.record && {...known.record}
  let text: string
  try {
    text = readInMem(path, 'utf8')
  } catch {
    return undefined
  }
  let record: RepoRecord | undefined
  try {
    const doc = JSON.parse(text) as Partial<RepoRecord>
    if (typeof doc.repoId === 'string' && doc.repoId !== '' && typeof doc.path === 'string') {
      const formerIds = Array.isArray(doc.formerIds) ? doc.formerIds.filter((x): x is string => typeof x === 'string' && x !== '') : undefined
      record = {repoId: doc.repoId, path: doc.path, ...(formerIds ? {formerIds} : {})}
    }
  } catch {
    record = undefined
  }
  if (RECORDS.size >= 1_000) RECORDS.clear()
  RECORDS.set(path, {mtimeMs: stat.mtimeMs, size: stat.size, record})
  return record && {...record}
}

const RECORDS = new Map<string, {mtimeMs: number; size: number; record: RepoRecord | undefined}>()

/** Writes the record (all or nothing). Only into an existing `.mem/`: it never creates a store. */
export function writeRepoRecord(root: string, record: RepoRecord): void {
  const dir = join(root, '.mem')
  if (!isDirectory(dir)) return
  assertMemDir(dir) // a linked .mem: the store's own open refuses it (storage/mem-dir.ts)
  writeAtomic(repoRecordPath(root), Buffer.from(`${JSON.stringify(record, null, 2)}\n`))
  RECORDS.delete(repoRecordPath(root))
}

/** True when `root` holds a store that has been written (a database or a journal). */
export function hasStore(root: string): boolean {
  const dir = join(root, '.mem')
  return existsSync(join(dir, 'mem.db')) || existsSync(join(dir, 'journal'))
}

/** The id a folder takes when its base id is taken: `<base>~<hex of sha-256(path)>`, `length` hex digits. */
export function suffixedRepoId(base: string, path: string, length = 8): string {
  return `${base}~${nodeCrypto().createHash('sha256').update(path).digest('hex').slice(0, length)}`
}

/** The candidate ids of `path`, in the order they are tried: the base id, then ever longer suffixes. */
export function candidateRepoIds(path: string): string[] {
  const base = normalizeRepoId(path)
  return [base, suffixedRepoId(base, path, 8), suffixedRepoId(base, path, 16), suffixedRepoId(base, path, 64)]
}

/**
 * Whether the registry entry `id → registeredPath` keeps `id` from the folder `path`: it names
 * another folder that still holds a store. An entry for a folder that is gone (or holds no `.mem/`)
 * no longer owns its id.
 */
export function heldByAnother(registeredPath: string | undefined, path: string): boolean {
  return registeredPath !== undefined && registeredPath !== path && isDirectory(join(registeredPath, '.mem'))
}
