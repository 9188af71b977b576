import {createRequire} from 'node:module'

type Crypto = typeof import('node:crypto')

let crypto: Crypto | undefined

/**
 * node:crypto, loaded on first use. Loading it costs ~4 ms of a command's start, and a recall,
 * the command agents run most, never needs it (only new ids, hashes and temporary names do).
 */
export function nodeCrypto(): Crypto {
  return (crypto ??= createRequire(import.meta.url)('node:crypto') as Crypto)
}
