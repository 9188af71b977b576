/**
 * Team mode's ceiling of hot repos per replica (docs/team.md "Bounded replicas"): MEM_HOT_REPOS,
 * else `hotRepos:` in the user config, else the default. A value that is not a whole number from 1
 * to 100,000 is refused (exit 2), naming where it came from.
 */
import {MemError} from '../model/errors.js'

export const MAX_HOT_REPOS = 100_000

export function resolveHotRepos(given: {env: {MEM_HOT_REPOS?: string}; config: number | null}, fallback: number): number {
  const raw = given.env.MEM_HOT_REPOS?.trim()
  if (raw) {
    const n = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN
    if (!Number.isSafeInteger(n) || n < 1 || n > MAX_HOT_REPOS) {
      throw new MemError('invalid_input', `MEM_HOT_REPOS=${JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw)} is not a whole number from 1 to ${MAX_HOT_REPOS}.`, {
        hint: 'Set it to how many repos a replica keeps in memory at once (e.g. MEM_HOT_REPOS=50), or unset it for the default.',
      })
    }
    return n
  }
  return given.config ?? fallback
}
