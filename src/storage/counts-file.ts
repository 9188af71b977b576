import {statSync} from 'node:fs'
import {readInMem} from './mem-dir.js'
import {join} from 'node:path'
import type {MemoryType} from '../model/memory.js'

/**
 * `.mem/counts.json`: the live counts by type as of one journal size, written by the store when it
 * releases its lock. Kept in its own module so `mem stats` can read it without loading the store,
 * sql.js or the search code.
 */
export const COUNTS_FILE = 'counts.json'

export interface CountsSidecar {
  journalIno: number
  journalSize: number
  counts: Record<MemoryType, number>
}

/**
 * The live counts of the store at `root` if its counts file matches the journal as it is now
 * (same file, same size), else null. Costs two small reads; loads no database.
 */
export function peekCounts(root: string): Record<MemoryType, number> | null {
  const dir = join(root, '.mem')
  try {
    const side = JSON.parse(readInMem(join(dir, COUNTS_FILE), 'utf8')) as CountsSidecar
    const st = statSync(join(dir, 'journal'))
    if (st.ino !== side.journalIno || st.size !== side.journalSize) return null
    return side.counts
  } catch {
    return null
  }
}
