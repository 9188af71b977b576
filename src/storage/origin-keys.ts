import {nodeCrypto} from '../model/lazy-require.js'
import {FOREIGN_ORIGIN} from '../model/memory.js'

/**
 * Where a memory came from, in a form a repository cannot forge (docs/security.md, "Provenance").
 *
 * Every memory this machine writes records its origin (`user`, `intake:<path>`, `pack:<name>`, …)
 * and a MAC of (id, origin, content) under this machine's origin key, which lives in MEM_HOME and
 * never in a repository. A row read back whose MAC does not verify — a committed `.mem` written on
 * another machine, a row crafted to say `user`, a store from before origins were kept that this
 * machine never adopted — reads as `foreign`. `mem init --adopt` signs a store's rows as this
 * machine's (the user vouches for them).
 */
export interface OriginKeys {
  sign(id: string, origin: string, content: string): string
  /** The origin to believe: the recorded one when its MAC verifies, else `foreign`. */
  verify(id: string, origin: string, content: string, mac: string | null): string
}

const MAC_HEX = 32

/** Keys over `key()`, read when first needed (a command that shows no memory never reads it). */
export function originKeys(key: () => Uint8Array): OriginKeys {
  let bytes: Uint8Array | undefined
  const mac = (id: string, origin: string, content: string) =>
    nodeCrypto().createHmac('sha256', (bytes ??= key())).update(id).update('\0').update(origin).update('\0').update(content).digest('hex').slice(0, MAC_HEX)
  return {
    sign: mac,
    verify(id, origin, content, given) {
      if (given === null || given.length !== MAC_HEX) return FOREIGN_ORIGIN
      const want = mac(id, origin, content)
      return nodeCrypto().timingSafeEqual(Buffer.from(want), Buffer.from(given)) ? origin : FOREIGN_ORIGIN
    },
  }
}
