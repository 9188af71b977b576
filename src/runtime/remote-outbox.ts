/**
 * The outbox of a checkout in remote mode (docs/team.md, "Remote mode"): writes made while the
 * team server could not be reached, each an operation call (its name and input) with the request
 * id it will be sent under, kept until the server has answered it.
 *
 * One file per write in `<repo>/.mem/outbox/`, named by its place in line (`00000007-<request id>.json`),
 * written all or nothing (a fsync'd temp file renamed into place, then the folder fsync'd): a crash
 * leaves a write queued or not, never half of one. A write the server refused for good (a 4xx:
 * the memory is gone, the content is rejected) moves to `outbox/refused/` with the server's answer,
 * so nothing queued is ever dropped silently.
 */
import {mkdirSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {writeAtomic} from '../storage/files.js'
import {makeMemDir} from '../storage/mem-dir.js'

export interface OutboxEntry {
  /** The file's name in the outbox (its place in line). */
  file: string
  requestId: string
  /** The operation's name (store, feedback, forget, edit). */
  op: string
  input: Record<string, unknown>
  queuedAt: string
}

export interface RefusedEntry extends OutboxEntry {
  refusedAt: string
  status: number
  error: string
}

const ENTRY = /^(\d{8})-([\x21-\x7e]+)\.json$/

export function outboxDir(root: string): string {
  return join(root, '.mem', 'outbox')
}

/** The queued writes, oldest first. Reading an empty or missing outbox costs one readdir. */
export function listOutbox(root: string): OutboxEntry[] {
  let names: string[]
  try {
    names = readdirSync(outboxDir(root))
  } catch {
    return []
  }
  const out: OutboxEntry[] = []
  for (const file of names.filter((n) => ENTRY.test(n)).sort()) {
    try {
      const doc = JSON.parse(readFileSync(join(outboxDir(root), file), 'utf8')) as Omit<OutboxEntry, 'file'>
      if (typeof doc.requestId === 'string' && typeof doc.op === 'string' && doc.input && typeof doc.input === 'object') out.push({...doc, file})
    } catch {
      // a file another process is renaming away this instant: the next look finds it or not
    }
  }
  return out
}

/** Queues a write at the end of the line; durable once this returns. */
export function enqueue(root: string, entry: Omit<OutboxEntry, 'file'>): OutboxEntry {
  makeMemDir(join(root, '.mem'))
  const dir = outboxDir(root)
  mkdirSync(dir, {recursive: true})
  const last = readdirSync(dir)
    .map((n) => ENTRY.exec(n)?.[1])
    .filter((n): n is string => n !== undefined)
    .sort()
    .at(-1)
  const file = `${String((last ? Number(last) : 0) + 1).padStart(8, '0')}-${entry.requestId}.json`
  writeAtomic(join(dir, file), Buffer.from(`${JSON.stringify(entry)}\n`))
  return {...entry, file}
}

/** Takes a write the server has answered out of the line. */
export function settle(root: string, entry: OutboxEntry): void {
  rmSync(join(outboxDir(root), entry.file), {force: true})
}

/** Moves a write the server refused for good to `outbox/refused/`, with its answer. */
export function refuse(root: string, entry: OutboxEntry, status: number, error: string, at: Date): void {
  const dir = join(outboxDir(root), 'refused')
  mkdirSync(dir, {recursive: true})
  const {file, ...rest} = entry
  const refused: Omit<RefusedEntry, 'file'> = {...rest, refusedAt: at.toISOString(), status, error}
  writeAtomic(join(dir, file), Buffer.from(`${JSON.stringify(refused)}\n`))
  settle(root, entry)
}

export function listRefused(root: string): RefusedEntry[] {
  const dir = join(outboxDir(root), 'refused')
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  const out: RefusedEntry[] = []
  for (const file of names.filter((n) => ENTRY.test(n)).sort()) {
    try {
      out.push({...(JSON.parse(readFileSync(join(dir, file), 'utf8')) as RefusedEntry), file})
    } catch {
      // unreadable: left where it is
    }
  }
  return out
}
