import {existsSync, realpathSync, statSync} from 'node:fs'
import {platform} from 'node:os'
import {dirname, isAbsolute, join, relative, resolve, win32} from 'node:path'
import {MemError} from '../model/errors.js'

/** The longest `repo` value taken (a path); longer ones are refused before touching the disk. */
export const MAX_REPO_PATH_CHARS = 1024
/** The longest repo id: it is a folder name under MEM_HOME/repos (255 bytes on most filesystems). */
export const MAX_REPO_ID_CHARS = 200

/**
 * Normalizes a repository path or id to a repo id (decisions.md): trailing `\` and `/` trimmed,
 * each of `:` `\` `/` `.` `_` replaced by `-`, empty becomes `unknown`, case kept.
 * A value with no path separator is taken as an id that is already normalized.
 */
export function normalizeRepoId(value: string): string {
  const trimmed = value.trim().replace(/(?<![\\/])[\\/]+$/, '')
  if (trimmed === '') return 'unknown'
  if (!/[\\/]/.test(trimmed)) return trimmed
  return trimmed.replace(/[:\\/._]/g, '-')
}

/** True when the value looks like a filesystem path rather than a bare repo id. */
export function looksLikePath(value: string): boolean {
  return /[\\/]/.test(value) || value === '.' || value === '..' || value.startsWith('~')
}

/** A drive path (`C:\proj`, `d:/work`): a path on Windows, a repo id to normalize anywhere else. */
export function isDrivePath(value: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(value)
}

/** What a `repo` value names: a folder on this machine, or a repo id. */
export type RepoRefTarget = {kind: 'path'; path: string} | {kind: 'id'; id: string}

export interface ParseRepoRefOptions {
  /** Base for relative paths; without it a relative path is refused (a server's cwd means nothing to its clients). */
  cwd?: string
  /** Whether drive paths are paths here (Windows) or ids (elsewhere). */
  windows?: boolean
}

function invalidRepo(message: string, hint: string): MemError {
  return new MemError('invalid_input', `Invalid repo: ${message}`, {details: [{path: 'repo', message}], hint})
}

/**
 * Checks a `repo` value and says what it names, without touching the disk. Refused (400): an empty,
 * over-long or control-character value, an id that is `.`/`..` or too long for a folder name, and
 * a relative path when there is no working directory to resolve it against.
 */
export function parseRepoRef(value: string, options: ParseRepoRefOptions = {}): RepoRefTarget {
  const ref = typeof value === 'string' ? value.trim() : ''
  if (ref === '') return invalidRef('repo is required', 'Pass the repository as a path or repo id.')
  if (ref.length > MAX_REPO_PATH_CHARS) {
    return invalidRef(`repo is longer than ${MAX_REPO_PATH_CHARS.toLocaleString('en-US')} characters`, 'Pass the repository\'s path or its repo id (`mem repos` lists them).')
  }
  if (/[\u0000-\u001f\u007f]/.test(ref)) return invalidRef('repo contains a control character', 'Pass the repository\'s path or its repo id as plain text.')
  const windows = options.windows ?? platform() === 'win32'
  if (isDrivePath(ref)) {
    if (!windows) return {kind: 'id', id: checkId(normalizeRepoId(ref))}
    return {kind: 'path', path: win32.resolve(ref)}
  }
  if (looksLikePath(ref)) {
    if (isAbsolute(ref)) return {kind: 'path', path: resolve(ref)}
    if (options.cwd === undefined) {
      return invalidRef(
        `${JSON.stringify(ref)} is a relative path; the service cannot know what it is relative to`,
        'Pass the repository\'s absolute path, or its repo id (GET /api/mem/repos lists them).',
      )
    }
    return {kind: 'path', path: resolve(options.cwd, ref)}
  }
  return {kind: 'id', id: checkId(ref)}
}

function invalidRef(message: string, hint: string): never {
  throw invalidRepo(message, hint)
}

/** A repo id must be usable as one folder name under MEM_HOME/repos. */
function checkId(id: string): string {
  if (id.length > MAX_REPO_ID_CHARS) invalidRef(`a repo id is at most ${MAX_REPO_ID_CHARS} characters`, 'Pass the repository\'s path, or a shorter repo id.')
  if (id === '.' || id === '..' || /[<>:"|?*]/.test(id)) invalidRef(`${JSON.stringify(id)} is not a repo id`, 'A repo id is a name such as my-app (`mem repos` lists them), or pass the repository\'s path.')
  return id
}

/** True for a folder that is a git work tree (`.git`, a folder or a worktree's file) or already holds `.mem/`. */
export function isRepoRoot(path: string): boolean {
  return existsSync(join(path, '.git')) || isDirectory(join(path, '.mem'))
}

/**
 * Refuses a folder that is not a repository: mem keeps a store only beside a git work tree or in a
 * folder that already holds `.mem/` (made by `mem init`), so a typo never makes a hidden store.
 * `given` is the value as the caller wrote it (the message names it, not a path it did not give).
 */
export function requireRepoRoot(path: string, given: string): void {
  if (!isDirectory(path)) {
    throw new MemError('invalid_input', `Invalid repo: ${JSON.stringify(given)} is not a folder.`, {
      details: [{path: 'repo', message: 'no such folder'}],
      hint: 'Check the path for a typo, or pass a repo id (`mem repos` lists the repositories mem knows).',
    })
  }
  if (!isRepoRoot(path)) {
    throw new MemError('invalid_input', `Invalid repo: ${JSON.stringify(given)} is not a repository (not a git work tree, and it holds no .mem folder).`, {
      details: [{path: 'repo', message: 'not a repository'}],
      hint: 'Run `git init` there, or `mem init` to keep memories in that folder without git; or pass the repository\'s root folder.',
    })
  }
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

/**
 * Where `path` really is (links resolved), and whether that is inside `realRoot` — a repository's
 * own real path (the root itself counts as inside). `real` is null when the path cannot be resolved
 * (missing, or a dangling link). One rule for every reader and writer that must not leave a
 * repository through a link it ships: intake, `mem setup`, `mem hooks install` (docs/security.md).
 */
export function realPathIn(realRoot: string, path: string): {real: string | null; inside: boolean} {
  let real: string
  try {
    real = realpathSync.native(path)
  } catch {
    return {real: null, inside: false}
  }
  const rel = relative(realRoot, real)
  return {real, inside: rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))}
}
