/**
 * What the agent hooks keep between calls, as small files under `<repo>/.mem/hooks/` (kept out of
 * git by their own .gitignore): one file per host session (what it was shown, so nothing is shown
 * twice), the injection record (what was injected and the memory's feedback counts then, for
 * suppression and `mem quality`'s injection precision), and the cached session context. No
 * daemon: each hook reads and writes these and exits. Writes are atomic (temp file + rename);
 * two hooks of one repo racing may lose one's update of the injection record, which costs a
 * statistic, never a memory.
 */
import {createHash, randomBytes} from 'node:crypto'
import {closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {readRange} from './journal.js'

export const HOOKS_DIR = 'hooks'
/** Session files older than this are pruned when a session starts. */
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000

export interface SessionState {
  host: string
  session: string
  startedAt: string
  /** Ids shown to the agent this session (context lines, injections): never injected again. */
  shown: string[]
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

function hooksDir(root: string): string {
  return join(root, '.mem', HOOKS_DIR)
}

function ensureDir(root: string): string {
  const dir = hooksDir(root)
  mkdirSync(join(dir, 'sessions'), {recursive: true})
  try {
    writeFileSync(join(dir, '.gitignore'), '# per-machine state of mem\'s agent hooks\n*\n', {flag: 'wx'})
  } catch {
    // already there
  }
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

function sessionPath(root: string, host: string, session: string): string {
  const key = createHash('sha256').update(`${host}\0${session}`).digest('hex').slice(0, 24)
  return join(hooksDir(root), 'sessions', `${host}-${key}.json`)
}

export function readSession(root: string, host: string, session: string, now: Date): SessionState {
  const found = readJson<SessionState>(sessionPath(root, host, session))
  if (found && Array.isArray(found.shown)) return {...found, offered: found.offered ?? [], reminded: found.reminded ?? false, prompts: found.prompts ?? 0, stops: found.stops ?? 0}
  return {host, session, startedAt: now.toISOString(), shown: [], prompts: 0, stops: 0, reminded: false, offered: []}
}

export function writeSession(root: string, state: SessionState): void {
  ensureDir(root)
  writeJson(sessionPath(root, state.host, state.session), state)
}

/** Removes session files not written for SESSION_TTL_MS; returns how many. */
export function pruneSessions(root: string, now: Date): number {
  const dir = join(hooksDir(root), 'sessions')
  let removed = 0
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return 0
  }
  for (const name of names) {
    const path = join(dir, name)
    try {
      if (now.getTime() - statSync(path).mtimeMs > SESSION_TTL_MS) {
        rmSync(path, {force: true})
        removed++
      }
    } catch {
      // gone meanwhile
    }
  }
  return removed
}

export function readInjections(root: string): Record<string, InjectionRecord> {
  return readJson<Record<string, InjectionRecord>>(join(hooksDir(root), 'injections.json')) ?? {}
}

export function recordInjections(root: string, memories: Array<{id: string; usedCount: number; unusedCount: number}>, now: Date): void {
  if (memories.length === 0) return
  const dir = ensureDir(root)
  const all = readInjections(root)
  const at = now.toISOString()
  for (const m of memories) {
    const r = all[m.id]
    all[m.id] = r ? {...r, n: r.n + 1, last: at} : {n: 1, first: at, last: at, used0: m.usedCount, unused0: m.unusedCount}
  }
  writeJson(join(dir, 'injections.json'), all)
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
 * bytes; loads no database. Null when it must be rebuilt.
 */
export function readCachedContext(root: string, budget: number, now: Date): CachedContext | null {
  const cached = readJson<CachedContext>(join(hooksDir(root), 'context.json'))
  if (!cached || cached.budget !== budget || !Array.isArray(cached.marks) || cached.marks.length === 0) return null
  if (now.getTime() - Date.parse(cached.writtenAt) > CONTEXT_CACHE_MAX_AGE_MS) return null
  for (const mark of cached.marks) {
    const current = journalMark(mark.dir)
    if (!current || current.ino !== mark.ino || current.size < mark.size) return null
    if (current.size > mark.size && !onlyTouches(join(mark.dir, 'journal'), mark.size, current.size)) return null
  }
  return cached
}

export function writeCachedContext(root: string, value: CachedContext): void {
  ensureDir(root)
  writeJson(join(hooksDir(root), 'context.json'), value)
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
