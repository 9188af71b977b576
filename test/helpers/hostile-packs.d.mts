// Types of hostile-packs.mjs (a module the benchmark shares with the tests, so plain JavaScript).
import type {SqlJsStatic} from 'sql.js'
import type {PackEntry} from '../../src/storage/pack-file.js'

/** The pack module's entriesChecksum. */
type Checksum = (entries: readonly PackEntry[]) => string

/** A pack by its trick: what its refusal says, and its bytes. */
export interface HostilePack {
  expect: RegExp
  build(SQL: SqlJsStatic, checksum: Checksum): Uint8Array
}

export function entry(i?: number, content?: string): PackEntry
export const HOSTILE_PACKS: Record<string, HostilePack>
export function plainPack(SQL: SqlJsStatic, checksum: Checksum, entries?: PackEntry[]): Uint8Array
export const BENCH_ONLY_PACKS: Record<string, HostilePack>
