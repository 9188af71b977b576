import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import lockfile from 'proper-lockfile'
import {MemError} from '../../errors.js'

export type ReleaseMaintenance = () => Promise<void>

/** A holder that stops refreshing the lock (a crashed process) loses it after this long. */
const STALE_MS = 30_000

/**
 * The cross-process "one maintenance pass per repo" lock: `.mem/maintenance.lock`, a directory
 * mkdir creates atomically (proper-lockfile), refreshed while the pass runs. Within one process
 * the server's run registry coalesces passes before they get here; this lock keeps a CLI
 * `mem maintain` (or `mem consolidate`) and a server's pass on the same repo apart.
 */
export async function acquireMaintenanceLock(memDir: string): Promise<ReleaseMaintenance> {
  try {
    mkdirSync(memDir, {recursive: true})
  } catch (err) {
    throw new MemError('unavailable', `Cannot create ${memDir} (${(err as NodeJS.ErrnoException).code ?? err}).`, {cause: err})
  }
  try {
    // proper-lockfile keys its held locks by the locked path: the store's writer lock already uses
    // `memDir`, so this lock takes its own key or the two would overwrite each other's state
    const release = await lockfile.lock(join(memDir, 'maintenance'), {
      lockfilePath: join(memDir, 'maintenance.lock'),
      realpath: false,
      stale: STALE_MS,
      update: STALE_MS / 3,
      retries: 0,
      // losing the lock mid-pass (the clock jumped, the folder vanished) must not crash the process
      onCompromised: () => undefined,
    })
    return async () => {
      await release().catch(() => undefined)
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new MemError('conflict', `A maintenance pass is already running on ${memDir} (another mem process holds .mem/maintenance.lock).`, {
        hint: 'Wait for it to finish and try again; `mem serve` runs maintenance on a schedule.',
        cause: err,
      })
    }
    throw new MemError('unavailable', `Could not lock ${memDir} for maintenance (${(err as NodeJS.ErrnoException).code ?? err}).`, {cause: err})
  }
}

/** Runs `fn` holding the maintenance lock of the repo whose store lives in `memDir`. */
export async function withMaintenanceLock<T>(memDir: string, fn: () => Promise<T>): Promise<T> {
  const release = await acquireMaintenanceLock(memDir)
  try {
    return await fn()
  } finally {
    await release()
  }
}
