import {MemError} from '../../model/errors.js'
import {tryNamedLock} from '../../storage/lock.js'

export type ReleaseMaintenance = () => Promise<void>

/** A holder that stops refreshing the lock (a crashed process) loses it after this long. */
const STALE_MS = 30_000

/**
 * The cross-process "one maintenance pass per repo" lock: `.mem/maintenance.lock`, refreshed while
 * the pass runs. Within one process the server's run registry coalesces passes before they get
 * here; this lock keeps a CLI `mem maintain` (or `mem consolidate`) and a server's pass on the
 * same repo apart.
 */
export async function acquireMaintenanceLock(memDir: string): Promise<ReleaseMaintenance> {
  const release = await tryNamedLock(memDir, 'maintenance', STALE_MS, 'maintenance')
  if (!release) {
    throw new MemError('conflict', `A maintenance pass is already running on ${memDir} (another mem process holds .mem/maintenance.lock).`, {
      hint: 'Wait for it to finish and try again; `mem serve` runs maintenance on a schedule.',
    })
  }
  return release
}

/**
 * Runs `fn` holding the maintenance lock of the repo whose store this is: `.mem/maintenance.lock`,
 * or for a replica of a shared log (team mode) the log's lock, which every replica obeys.
 */
export async function withMaintenanceLock<T>(store: {dir: string; sharedMaintenanceLock(): Promise<ReleaseMaintenance | null> | undefined}, fn: () => Promise<T>): Promise<T> {
  const shared = store.sharedMaintenanceLock()
  let release: ReleaseMaintenance
  if (shared) {
    const got = await shared
    if (!got) {
      throw new MemError('conflict', 'A maintenance pass is already running on this repo (another replica of the team store holds its lock).', {
        hint: 'Wait for it to finish and try again.',
      })
    }
    release = got
  } else release = await acquireMaintenanceLock(store.dir)
  try {
    return await fn()
  } finally {
    await release()
  }
}
