import {closeSync, constants, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, writeSync, type Stats} from 'node:fs'
import {join, relative, sep} from 'node:path'
import {MemError} from '../model/errors.js'

/**
 * The one way into a repository's `.mem` folder (docs/security.md). A repository is untrusted
 * input: a clone may commit `.mem` itself, or an entry inside it, as a symbolic link to a folder
 * or file outside the repo, so that mem's writes, appends, deletions and reads land there. So:
 * - `.mem` must be a real folder, and no entry directly inside it may be a link (checked when a
 *   store opens and before its folder is prepared for a write);
 * - every file mem opens under it is opened with O_NOFOLLOW (a link put there later, by a pull
 *   while a server runs, fails the open instead of being followed);
 * - files are replaced by renaming a temp file over them (a rename replaces a link, never writes
 *   through it), and deletions name only files mem made.
 */

const NOFOLLOW = constants.O_NOFOLLOW ?? 0
const FLAGS = {
  r: constants.O_RDONLY,
  'r+': constants.O_RDWR,
  w: constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC,
  wx: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
  a: constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND,
} as const
export type OpenMode = keyof typeof FLAGS

export const MEM_DIR = '.mem'

/** The error for a link found where mem keeps its files. */
export function linkRefused(path: string): MemError {
  return new MemError('unavailable', `${path} is a symbolic link; mem never follows a link in .mem out of the repository, so nothing was read or written.`, {
    hint: `If you did not make this link, the repository ships it: remove it (rm ${JSON.stringify(path)}) and run the command again. To keep memories elsewhere, use --repo or MEM_REPO instead of a link.`,
  })
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null
    throw err
  }
}

/**
 * Throws unless `dir` (a `.mem` folder) is absent or a real folder. With `entries`, also refuses a
 * link directly inside it (one readdir; the names mem keeps there are all plain files or folders).
 */
export function assertMemDir(dir: string, entries = false): void {
  const st = lstatOrNull(dir)
  if (st === null) return
  if (st.isSymbolicLink()) throw linkRefused(dir)
  if (!st.isDirectory()) {
    throw new MemError('unavailable', `${dir} is not a folder, so it cannot hold a memory store; nothing was written.`, {
      hint: `Move it aside (mv ${JSON.stringify(dir)} ${JSON.stringify(`${dir}.bak`)}) or point --repo at another repository.`,
    })
  }
  if (!entries) return
  for (const entry of readdirSync(dir, {withFileTypes: true})) if (entry.isSymbolicLink()) throw linkRefused(join(dir, entry.name))
}

/**
 * Throws when any folder from `base` down to `path` (both included; `path` need not exist) is a
 * link. For stores kept deep inside a repo's `.mem` (a layer's `.mem/layers/<id>/store`).
 */
export function assertNoLinkBetween(base: string, path: string): void {
  const rel = relative(base, path)
  if (rel.startsWith('..')) return
  let at = base
  const check = (p: string) => {
    const st = lstatOrNull(p)
    if (st?.isSymbolicLink()) throw linkRefused(p)
    return st !== null
  }
  if (!check(at)) return
  for (const part of rel.split(sep).filter(Boolean)) {
    at = join(at, part)
    if (!check(at)) return
  }
}

/** Makes `dir` (a `.mem` folder or one of its folders) if missing; refuses a link. True when it was made. */
export function makeMemDir(dir: string): boolean {
  assertMemDir(dir)
  try {
    mkdirSync(dir)
    return true
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    assertMemDir(dir)
    return false
  }
}

/** Opens a file under `.mem` without following a link (a link fails with the error above). */
export function openInMem(path: string, mode: OpenMode, perms = 0o666): number {
  try {
    return openSync(path, FLAGS[mode] | NOFOLLOW, perms)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw linkRefused(path)
    throw err
  }
}

/** Reads a file under `.mem` without following a link. */
export function readInMem(path: string): Buffer
export function readInMem(path: string, encoding: 'utf8'): string
export function readInMem(path: string, encoding?: 'utf8'): Buffer | string {
  const fd = openInMem(path, 'r')
  try {
    return encoding ? readFileSync(fd, encoding) : readFileSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** Writes (or with mode `a` appends to) a file under `.mem` without following a link. */
export function writeInMem(path: string, data: string | Uint8Array, mode: 'w' | 'wx' | 'a' = 'w'): void {
  const fd = openInMem(path, mode)
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data
    let written = 0
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written)
  } finally {
    closeSync(fd)
  }
}
