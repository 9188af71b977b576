import {join} from 'node:path'
import {expect} from 'vitest'
import {RepoStore} from '../../src/storage/repo-store.js'
import {appendUsageLog, emptyDelta} from '../../src/storage/usage.js'
import {tempDir} from './mem.js'

/** A store on disk (made by its first write, a roll-up of nothing) and its `.mem` folder. */
export async function madeStore() {
  const root = join(tempDir(), 'repo')
  const s = await RepoStore.open(root)
  expect(await s.create()).toBe(true)
  return {root, dir: join(root, '.mem'), store: s}
}

/** Appends to `.mem/usage.log` one delta of `operation` per bucket. */
export function logOf(dir: string, buckets: string[], operation = 'recall'): void {
  expect(appendUsageLog(dir, buckets.map((b) => ({...emptyDelta(b, operation), count: 2, totalMs: 3, maxMs: 2})))).toBe(true)
}
