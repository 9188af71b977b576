/**
 * Remote mode for a checkout (docs/team.md, "Remote mode"): where a repository's memory goes when
 * it is mapped to a team server, and the files that mapping keeps.
 *
 * - `<repo>/.mem/remote.json` — the mapping: the server's URL and the team repo id. No key: a key
 *   is never written inside the work tree (a clone, a commit or a backup of it would carry it).
 * - `MEM_HOME/remote-keys.json` (mode 0600) — the keys `mem remote set --key` was given, by server URL.
 * - `MEM_SERVER` (+ `MEM_KEY`) in the environment override both: the checkout then goes to that
 *   server, with the team repo id of the checkout (`.mem/team.yaml` `id:`, else its git remote).
 *
 * The faces read the environment and pass it in; nothing here reads `process`.
 */
import {checkoutTeamRepoId as teamRepoIdOf} from '../config/team-repo-id.js'
import {chmodSync, existsSync, mkdirSync, readFileSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {MemError} from '../model/errors.js'
import {checkRepoId} from '../model/team-names.js'
import {writeAtomic} from '../storage/files.js'
import {makeMemDir} from '../storage/mem-dir.js'

export const REMOTE_FILE = 'remote.json'
export const REMOTE_KEYS_FILE = 'remote-keys.json'

/** The mapping kept in `.mem/remote.json`. */
export interface RemoteMapping {
  server: string
  repo: string
  setAt: string
}

/** Where a checkout's memory goes, resolved: the server, its key (never shown), the team repo id, and where each came from. */
export interface RemoteTarget {
  server: string
  key: string | undefined
  repo: string
  root: string
  /** `env` when MEM_SERVER decided, `config` when `.mem/remote.json` did. */
  from: 'env' | 'config'
  keyFrom: 'env' | 'home' | 'none'
}

export function remotePath(root: string): string {
  return join(root, '.mem', REMOTE_FILE)
}

/**
 * The server URL as mem keeps it: http(s), a host, no user or password, no query or fragment,
 * no trailing slash. Anything else is refused with the rule.
 */
export function normalizeServerUrl(given: string): string {
  const text = given.trim()
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new MemError('invalid_input', `The server URL ${JSON.stringify(clip(text))} is not a URL.`, {hint: 'Give the team server as http(s)://HOST[:PORT], e.g. mem remote set https://mem.example.com'})
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new MemError('invalid_input', `The server URL must start with http:// or https://, not ${url.protocol}//.`, {hint: 'mem remote set https://mem.example.com'})
  }
  if (url.username || url.password) {
    throw new MemError('invalid_input', 'The server URL carries a user or password; mem never keeps credentials in a URL.', {hint: 'Give the key with --key KEY or MEM_KEY instead.'})
  }
  if (url.search || url.hash) throw new MemError('invalid_input', 'The server URL has a query or fragment; give only its scheme, host, port and path.', {hint: 'mem remote set https://mem.example.com'})
  return `${url.protocol}//${url.host}${url.pathname.replace(/(?<!\/)\/+$/, '')}`
}

function clip(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text
}

/** The mapping in `.mem/remote.json`; undefined without one (one stat: what local mode pays). */
export function readRemoteMapping(root: string): RemoteMapping | undefined {
  const path = remotePath(root)
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined
    throw new MemError('unavailable', `${path} cannot be read: ${(err as Error).message}`, {hint: 'Fix its permissions, or run `mem remote unset` to go back to the local store.'})
  }
  try {
    const doc = JSON.parse(text) as Partial<RemoteMapping>
    if (typeof doc.server === 'string' && typeof doc.repo === 'string') return {server: normalizeServerUrl(doc.server), repo: checkTeamRepoId(doc.repo), setAt: String(doc.setAt ?? '')}
  } catch (err) {
    if (err instanceof MemError) throw new MemError('invalid_input', `${path} names a server or repo mem refuses: ${err.message}`, {hint: 'Run `mem remote set URL` again, or `mem remote unset`.'})
  }
  throw new MemError('invalid_input', `${path} is not a remote mapping mem wrote.`, {hint: 'Run `mem remote set URL` again, or `mem remote unset` to go back to the local store.'})
}

export async function writeRemoteMapping(root: string, mapping: RemoteMapping): Promise<void> {
  makeMemDir(join(root, '.mem'))
  await ignoreInMem(root)
  writeAtomic(remotePath(root), Buffer.from(`${JSON.stringify(mapping, null, 2)}\n`))
}

/** Removes the mapping; true when there was one. */
export function removeRemoteMapping(root: string): boolean {
  const path = remotePath(root)
  if (!existsSync(path)) return false
  rmSync(path, {force: true})
  return true
}

/**
 * The remote's own files in `.mem/` are this machine's: kept out of git like the database. A
 * `.mem/` made here first gets the store's whole `.gitignore`, so a store made later in it is
 * ignored as always.
 */
async function ignoreInMem(root: string): Promise<void> {
  const path = join(root, '.mem', '.gitignore')
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    text = (await import('../storage/repo-store.js')).GITIGNORE
  }
  const missing = [REMOTE_FILE, 'outbox/'].filter((line) => !text.split('\n').includes(line))
  if (missing.length === 0 && existsSync(path)) return
  writeAtomic(path, Buffer.from(`${text.endsWith('\n') || text === '' ? text : `${text}\n`}${missing.join('\n')}${missing.length ? '\n' : ''}`))
}

// ---- keys ------------------------------------------------------------------------------------

interface KeysFile {
  version: 1
  servers: Record<string, {key: string; savedAt: string}>
}

function readKeys(home: string): KeysFile {
  try {
    const doc = JSON.parse(readFileSync(join(home, REMOTE_KEYS_FILE), 'utf8')) as KeysFile
    if (doc && typeof doc.servers === 'object' && doc.servers) return {version: 1, servers: doc.servers}
  } catch {
    // none yet, or unreadable: no key kept
  }
  return {version: 1, servers: {}}
}

/** The key kept for `server` in MEM_HOME, if any. */
export function savedKey(home: string, server: string): string | undefined {
  const key = readKeys(home).servers[server]?.key
  return typeof key === 'string' && key ? key : undefined
}

/** Keeps `key` for `server` in MEM_HOME/remote-keys.json, readable by this user only. */
export function saveKey(home: string, server: string, key: string): void {
  const keys = readKeys(home)
  keys.servers[server] = {key, savedAt: new Date().toISOString()}
  mkdirSync(home, {recursive: true})
  const path = join(home, REMOTE_KEYS_FILE)
  writeAtomic(path, Buffer.from(`${JSON.stringify(keys, null, 2)}\n`))
  chmodSync(path, 0o600)
}

export function forgetKey(home: string, server: string): boolean {
  const keys = readKeys(home)
  if (!keys.servers[server]) return false
  delete keys.servers[server]
  writeAtomic(join(home, REMOTE_KEYS_FILE), Buffer.from(`${JSON.stringify(keys, null, 2)}\n`))
  return true
}

// ---- the team repo id of a checkout ----------------------------------------------------------

/** A team repo id as a team server takes it (model/team-names.ts, minus '~' and ':', which memory ids cannot carry). */
export function checkTeamRepoId(id: string): string {
  checkRepoId(id)
  if (/[~:]/.test(id)) throw new MemError('invalid_input', `The team repo id ${JSON.stringify(id)} holds '~' or ':', which memory ids cannot carry.`, {hint: 'Use letters, digits and . _ @ + - in each segment (github.com/org/app).'})
  return id
}

/**
 * The team repo id of a checkout: `.mem/team.yaml`'s `id:` (committed, so every clone agrees), else
 * its normalized git remote — src/config/team-repo-id.ts, the strict resolver (hostile remotes and
 * bad team.yaml files refused, the host's case rules applied) — checked as a team server takes it.
 */
export function checkoutTeamRepoId(root: string): {id: string; from: 'team.yaml' | 'git remote'} {
  const {id, source} = teamRepoIdOf(root)
  return {id: checkTeamRepoId(id), from: source}
}

/**
 * Where the checkout at `root` sends its memory, or undefined for the local store. MEM_SERVER wins
 * over `.mem/remote.json`; MEM_KEY over a key kept in MEM_HOME. Costs one stat in local mode.
 */
export function remoteTarget(root: string, env: {MEM_SERVER?: string; MEM_KEY?: string}, home: string): RemoteTarget | undefined {
  const envServer = env.MEM_SERVER?.trim()
  const envKey = env.MEM_KEY?.trim() || undefined
  if (envServer) {
    const server = normalizeServerUrl(envServer)
    const mapping = readRemoteMapping(root)
    const repo = mapping?.repo ?? checkoutTeamRepoId(root).id
    const key = envKey ?? savedKey(home, server)
    return {server, key, repo, root, from: 'env', keyFrom: envKey ? 'env' : key ? 'home' : 'none'}
  }
  const mapping = readRemoteMapping(root)
  if (!mapping) return undefined
  const key = envKey ?? savedKey(home, mapping.server)
  return {server: mapping.server, key, repo: mapping.repo, root, from: 'config', keyFrom: envKey ? 'env' : key ? 'home' : 'none'}
}

