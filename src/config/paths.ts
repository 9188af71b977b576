import {existsSync, statSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'

/**
 * Normalizes a repository path or id to a repo id (decisions.md): trailing `\` and `/` trimmed,
 * each of `:` `\` `/` `.` `_` replaced by `-`, empty becomes `unknown`, case kept.
 * A value with no path separator is taken as an id that is already normalized.
 */
export function normalizeRepoId(value: string): string {
  const trimmed = value.trim().replace(/[\\/]+$/, '')
  if (trimmed === '') return 'unknown'
  if (!/[\\/]/.test(trimmed)) return trimmed
  return trimmed.replace(/[:\\/._]/g, '-')
}

/** True when the value looks like a filesystem path rather than a bare repo id. */
export function looksLikePath(value: string): boolean {
  return /[\\/]/.test(value) || value === '.' || value === '..' || value.startsWith('~')
}

/** The nearest ancestor of `start` holding `.git` or `.mem`, else `start` itself. */
export function findRepoRoot(start: string): string {
  const origin = resolve(start)
  let dir = origin
  for (;;) {
    if (existsSync(join(dir, '.mem')) || existsSync(join(dir, '.git'))) return dir
    const parent = dirname(dir)
    if (parent === dir) return origin
    dir = parent
  }
}

export function memDir(root: string): string {
  return join(root, '.mem')
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
