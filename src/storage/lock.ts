import lockfile from 'proper-lockfile'
import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {MemError, systemReason} from '../model/errors.js'

export type Release = () => Promise<void>

/**
 * The cross-process writer lock of one repo store (a `write.lock` directory, which mkdir creates
 * atomically). A holder that dies leaves a lock that goes stale after `staleMs` and is then taken over.
 */
export async function acquireWriteLock(dir: string, staleMs = 5_000, waitMs = 30_000): Promise<Release> {
  let compromised: Error | undefined
  const deadline = Date.now() + waitMs
  let delay = 1
  for (;;) {
    try {
      const release = await lockfile.lock(dir, {
        lockfilePath: join(dir, 'write.lock'),
        realpath: false,
        stale: staleMs,
        update: Math.max(1_000, Math.floor(staleMs / 2)),
        retries: 0,
        onCompromised: (err) => {
          compromised = err
        },
      })
      return async () => {
        try {
          await release()
        } catch (err) {
          if (!compromised) throw err
        }
      }
    } catch (err) {
      // Only a lock held by another process is worth waiting for; anything else fails now.
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED' || Date.now() > deadline) throw lockError(dir, err)
      await new Promise((r) => setTimeout(r, delay + Math.random() * delay))
      delay = Math.min(delay * 1.5, 20)
    }
  }
}

/**
 * A named lock in `dir` (`<name>.lock`, a directory mkdir creates atomically) taken now or not at
 * all: null when another holder has it. It is refreshed while held and goes stale after `staleMs`
 * when its holder stops refreshing (a crashed process); losing it never crashes the holder.
 * Other failures are `unavailable` errors naming `purpose`.
 */
export async function tryNamedLock(dir: string, name: string, staleMs: number, purpose: string): Promise<Release | null> {
  try {
    mkdirSync(dir, {recursive: true})
    // proper-lockfile keys its held locks by the locked path: the store's writer lock uses `dir`
    // itself, so a named lock takes its own key or the two would overwrite each other's state
    const release = await lockfile.lock(join(dir, name), {
      lockfilePath: join(dir, `${name}.lock`),
      realpath: false,
      stale: staleMs,
      update: Math.floor(staleMs / 3),
      retries: 0,
      onCompromised: () => undefined,
    })
    return async () => {
      await release().catch(() => undefined)
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') return null
    throw new MemError('unavailable', `Could not lock ${dir} for ${purpose}: ${systemReason(err)}.`, {cause: err})
  }
}

export function lockError(dir: string, err: unknown): MemError {
  if (err instanceof MemError) return err
  const code = (err as NodeJS.ErrnoException)?.code
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new MemError('unavailable', `The memory store ${dir} is read-only (${systemReason(err)}); nothing was written.`, {
      hint: `Make it writable (chmod u+w ${dir}) or point --repo at a repository you can write to.`,
      cause: err,
    })
  }
  if (code === 'ELOCKED') {
    return new MemError('unavailable', `The memory store ${dir} stayed locked by another process; nothing was written.`, {
      hint: 'Try again. If no other mem process is running, the lock goes stale after a few seconds.',
      cause: err,
    })
  }
  return new MemError('unavailable', `Could not lock the memory store ${dir} for writing: ${systemReason(err)}.`, {cause: err})
}
