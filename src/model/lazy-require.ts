import {createRequire} from 'node:module'

/**
 * A module loaded on first use instead of at start-up, for what a cold command (a `mem recall`)
 * rarely needs but would pay for on every start: node:crypto costs ~4 ms to load, fuse.js 57 kB
 * to compile.
 */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined
  return () => (loaded ??= createRequire(import.meta.url)(id) as T)
}

/** node:crypto, on first use: only new ids, hashes and temporary names need it, never a recall. */
export const nodeCrypto = lazyRequire<typeof import('node:crypto')>('node:crypto')
