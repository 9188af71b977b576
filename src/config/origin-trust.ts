import {chmodSync, closeSync, mkdirSync, openSync, readFileSync, writeSync} from 'node:fs'
import {join} from 'node:path'
import {nodeCrypto} from '../model/lazy-require.js'
import {writeAtomic} from '../storage/files.js'

/**
 * What this machine knows of memory provenance, kept in MEM_HOME and never in a repository
 * (docs/security.md, "Provenance"):
 * - `origin.key`: 32 random bytes, readable by the user only, that sign the origin of every memory
 *   this machine writes (storage/origin.ts);
 * - `trust.json`: for each store folder this version of mem first met already holding memories,
 *   whether it took the store's unsigned rows as this user's (a store this machine used before:
 *   its folder is in the registry) or left them foreign (a clone's committed `.mem`), so the
 *   question is settled once and a later pull cannot reopen it; and what `mem init --adopt` adopted.
 */
export const ORIGIN_KEY_FILE = 'origin.key'
export const TRUST_FILE = 'trust.json'

export type TrustDecision = 'own' | 'adopted' | 'foreign'

/** This machine's origin key, made on first use. A home that cannot keep one gets a key for this process only. */
export function loadOriginKey(home: string): Uint8Array {
  const path = join(home, ORIGIN_KEY_FILE)
  try {
    const text = readFileSync(path, 'utf8').trim()
    if (/^[0-9a-f]{64}$/.test(text)) return Buffer.from(text, 'hex')
  } catch {
    // made below
  }
  const key = nodeCrypto().randomBytes(32)
  try {
    mkdirSync(home, {recursive: true})
    const fd = openSync(path, 'wx', 0o600)
    try {
      writeSync(fd, `${key.toString('hex')}\n`)
    } finally {
      closeSync(fd)
    }
    chmodSync(path, 0o600)
    return key
  } catch (err) {
    // another process made it meanwhile: theirs is the key
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      const text = readFileSync(path, 'utf8').trim()
      if (/^[0-9a-f]{64}$/.test(text)) return Buffer.from(text, 'hex')
    }
    return key // a read-only home: what this process writes will read as foreign later
  }
}

export class TrustBook {
  readonly file: string
  constructor(home: string) {
    this.file = join(home, TRUST_FILE)
  }

  private read(): Record<string, TrustDecision> {
    try {
      const doc = JSON.parse(readFileSync(this.file, 'utf8')) as {stores?: Record<string, unknown>}
      const out: Record<string, TrustDecision> = {}
      for (const [root, d] of Object.entries(doc.stores ?? {})) if (d === 'own' || d === 'adopted' || d === 'foreign') out[root] = d
      return out
    } catch {
      return {}
    }
  }

  get(root: string): TrustDecision | undefined {
    return this.read()[root]
  }

  /** Records a decision (last writer wins: two processes settling one store decide alike). */
  set(root: string, decision: TrustDecision): void {
    const stores = {...this.read(), [root]: decision}
    try {
      writeAtomic(this.file, Buffer.from(`${JSON.stringify({stores}, null, 2)}\n`))
    } catch {
      // a read-only home: the question is asked again next time, and answered alike
    }
  }
}
