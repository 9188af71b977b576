/**
 * What the agent hooks keep between calls, as small files in a folder of this machine's own:
 * `MEM_HOME/hooks/<repo key>/` (issue 28: a cloned repository is untrusted input, so nothing the
 * hooks trust lives in its work tree, where a commit could forge it or a symlink could point it
 * elsewhere). One file per host session (what it was shown, so nothing is shown twice), the
 * injection record (what was injected and the memory's feedback counts then, for suppression and
 * `mem quality`'s injection precision), the cached session context, and `mem setup`'s backups.
 *
 * No daemon: each hook reads and writes these and exits. Writes are atomic (temp file + rename);
 * two hooks of one repo racing may lose one's update of the injection record, which costs a
 * statistic, never a memory. A repository's old `<repo>/.mem/hooks/` (where these lived before) is
 * neither read nor deleted.
 */
import {createHash, randomBytes} from 'node:crypto'
import {closeSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {basename, join, resolve} from 'node:path'
import {readRange} from './journal.js'

/** Session files older than this are pruned when a session starts. */
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000

/** The names session files are given (host, then a hash of host and session id): pruning deletes these and nothing else. */
const SESSION_FILE = /^[a-z]+-[0-9a-f]{24}\.json$/

/**
 * The folder that holds one repository's hook state: `<home>/hooks/<name>-<hash>`, the hash of the
 * repository's real path (so two paths to one work tree share it, and two work trees never do), the
 * name only to make the folder recognisable.
 */
export function hookStateDir(home: string, root: string): string {
  let real: string
  try {
    real = realpathSync(root)
  } catch {
    real = resolve(root)
  }
  const name = basename(real).replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 40) || 'root'
  return join(home, 'hooks', `${name}-${createHash('sha256').update(real).digest('hex').slice(0, 16)}`)
}

export interface SessionState {
  host: string
  session: string
  startedAt: string
  /** Ids shown to the agent this session (context lines, injections): never injected again. */
  shown: string[]
  /** When the session context was given (a resumed session keeps it: it is not given twice). */
  contextAt?: string
  /** How many prompts the prompt hook saw, and how many turns the stop hook saw end. */
  prompts: number
  stops: number
  /** Whether the store-what-you-learned reminder was given. */
  reminded: boolean
  /** Hashes of candidate lessons already offered. */
  offered: string[]
}

export interface InjectionRecord {
  /** Times injected. */
  n: number
  first: string
  last: string
  /** The memory's used / unused feedback counts when first injected. */
  used0: number
  unused0: number
}

function ensureDir(dir: string): string {
  mkdirSync(join(dir, 'sessions'), {recursive: true})
  return dir
}

function writeJson(path: string, value: unknown): void {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`
  writeFileSync(tmp, JSON.stringify(value))
  renameSync(tmp, path)
}

function readJson<T>(path: string): T | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T
  } catch {
    return null
  }
}

function sessionPath(dir: string, host: string, session: string): string {
  const key = createHash('sha256').update(`${host}\0${session}`).digest('hex').slice(0, 24)
  return join(dir, 'sessions', `${host.replace(/[^a-z]/g, '')}-${key}.json`)
}

/** The session's state (a fresh one when none was kept, or when there is no folder to keep it in). */
export function readSession(dir: string | null, host: string, session: string, now: Date): SessionState {
  const found = dir ? readJson<SessionState>(sessionPath(dir, host, session)) : null
  if (found && Array.isArray(found.shown)) {
    return {...found, offered: found.offered ?? [], reminded: found.reminded ?? false, prompts: found.prompts ?? 0, stops: found.stops ?? 0}
  }
  return {host, session, startedAt: now.toISOString(), shown: [], prompts: 0, stops: 0, reminded: false, offered: []}
}

export function writeSession(dir: string, state: SessionState): void {
  ensureDir(dir)
  writeJson(sessionPath(dir, state.host, state.session), state)
}

/**
 * Removes session files not written for SESSION_TTL_MS; returns how many. Only regular files named
 * as mem names them, in mem's own folder: anything else there is left alone.
 */
export function pruneSessions(dir: string, now: Date): number {
  const sessions = join(dir, 'sessions')
  let removed = 0
  let names: string[]
  try {
    if (!lstatSync(sessions).isDirectory()) return 0
    names = readdirSync(sessions)
  } catch {
    return 0
  }
  for (const name of names) {
    if (!SESSION_FILE.test(name)) continue
    const path = join(sessions, name)
    try {
      const st = lstatSync(path)
      if (st.isFile() && now.getTime() - st.mtimeMs > SESSION_TTL_MS) {
        rmSync(path, {force: true})
        removed++
      }
    } catch {
      // gone meanwhile
    }
  }
  return removed
}

export function readInjections(dir: string): Record<string, InjectionRecord> {
  return readJson<Record<string, InjectionRecord>>(join(dir, 'injections.json')) ?? {}
}

export function recordInjections(dir: string, memories: Array<{id: string; usedCount: number; unusedCount: number}>, now: Date): void {
  if (memories.length === 0) return
  ensureDir(dir)
  const all = readInjections(dir)
  const at = now.toISOString()
  for (const m of memories) {
    const r = all[m.id]
    all[m.id] = r ? {...r, n: r.n + 1, last: at} : {n: 1, first: at, last: at, used0: m.usedCount, unused0: m.unusedCount}
  }
  writeJson(join(dir, 'injections.json'), all)
}

// ---- setup's backups ------------------------------------------------------------------------

/** What `mem setup <host>` found before it first wrote: each file's original bytes, and the folders it made. */
export interface SetupBackup {
  files: Record<string, {existed: boolean; text?: string}>
  dirs: string[]
}

function backupPath(dir: string, host: string): string {
  return join(dir, 'setup', `${host.replace(/[^a-z]/g, '')}.json`)
}

export function readSetupBackup(dir: string, host: string): SetupBackup {
  const found = readJson<SetupBackup>(backupPath(dir, host))
  return found && typeof found.files === 'object' && found.files !== null && Array.isArray(found.dirs) ? found : {files: {}, dirs: []}
}

export function writeSetupBackup(dir: string, host: string, backup: SetupBackup): void {
  mkdirSync(join(dir, 'setup'), {recursive: true})
  writeJson(backupPath(dir, host), backup)
}

export function removeSetupBackup(dir: string, host: string): void {
  rmSync(backupPath(dir, host), {force: true})
}

// ---- the cached session context ------------------------------------------------------------

/** Where a store's journal stood when the cache was written (see counts-file.ts for the idea). */
export interface JournalMark {
  /** The `.mem` folder of the store (the repo's own, or a mounted layer's). */
  dir: string
  ino: number
  size: number
}

export interface CachedContext {
  /** The repository's store folder it was built from. */
  root: string
  tokens: number
  budget: number
  context: string
  ids: string[]
  writtenAt: string
  marks: JournalMark[]
}

/** The cache is rebuilt at least this often: recency moves the order a little over hours. */
export const CONTEXT_CACHE_MAX_AGE_MS = 6 * 3600 * 1000

export function journalMark(dir: string): JournalMark | null {
  try {
    const st = statSync(join(dir, 'journal'))
    return {dir, ino: st.ino, size: st.size}
  } catch {
    return null
  }
}

/**
 * The cached context when nothing it was built from changed since: every store's journal is the
 * same file, and what was appended to it since (if anything) is only recall's access records
 * (`touch`), which the context does not read. Reads a few small files and the appended journal
 * bytes; loads no database. Null when it must be rebuilt: built for another root or budget, older
 * than CONTEXT_CACHE_MAX_AGE_MS, or written "in the future" (a clock that moved back, or a file
 * not written by this code).
 */
export function readCachedContext(dir: string, root: string, budget: number, now: Date): CachedContext | null {
  const cached = readJson<CachedContext>(join(dir, 'context.json'))
  if (!cached || cached.root !== root || cached.budget !== budget || !Array.isArray(cached.marks) || cached.marks.length === 0) return null
  if (!Array.isArray(cached.ids) || typeof cached.context !== 'string') return null
  const age = now.getTime() - Date.parse(cached.writtenAt)
  if (!(age >= 0 && age <= CONTEXT_CACHE_MAX_AGE_MS)) return null
  for (const mark of cached.marks) {
    const current = journalMark(mark.dir)
    if (!current || current.ino !== mark.ino || current.size < mark.size) return null
    if (current.size > mark.size && !onlyTouches(join(mark.dir, 'journal'), mark.size, current.size)) return null
  }
  return cached
}

export function writeCachedContext(dir: string, value: CachedContext): void {
  ensureDir(dir)
  writeJson(join(dir, 'context.json'), value)
}

/** True when every journal record between two offsets only records access (`{"ops":[{"op":"touch",…}]}`). */
function onlyTouches(path: string, from: number, to: number): boolean {
  if (to - from > 4 * 1024 * 1024) return false
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    const text = readRange(fd, from, to - from).toString('utf8')
    for (const line of text.split('\n')) {
      if (!line) continue
      const json = line.slice(line.indexOf(' ', line.indexOf(' ') + 1) + 1)
      const record = JSON.parse(json) as {ops?: Array<{op?: string}>}
      if (!Array.isArray(record.ops) || !record.ops.every((op) => op.op === 'touch')) return false
    }
    return true
  } catch {
    return false
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
