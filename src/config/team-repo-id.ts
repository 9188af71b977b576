/**
 * A checkout's team repo id (team mode, issue 31 item 3; docs/team.md "Team repo ids"): the id
 * every laptop, CI runner and cloud agent with a clone of the repository agrees on, so that they
 * all reach the same team repo.
 *
 * 1. An explicit `id:` in a committed `.mem/team.yaml` wins (for a repo without a remote on a
 *    server, a fork that should share with its upstream, a monorepo split, a moved repository):
 *    it must be a valid team repo id, or the checkout is refused with what is wrong and the fix.
 * 2. Otherwise the normalized URL of its git remote (`origin`, else its only remote): the host in
 *    lower case without user, password or port, then the path without a trailing `.git` or `/`:
 *    `git@github.com:Org/App.git`, `ssh://git@github.com:22/org/app`, `https://user@GitHub.com/org/app/`
 *    all give `github.com/org/app` (on github.com, gitlab.com and bitbucket.org, whose paths are
 *    case-insensitive, the whole id is lower case; elsewhere the path keeps its case).
 *
 * A remote on this machine (a path, `file://`) names no server and gives no id; nor does a remote
 * whose path cannot be an id (`~user`, `..`, a character ids cannot carry): `.mem/team.yaml` names
 * one then. The URL's credentials never reach the id, an error or anything else mem keeps.
 *
 * The remote is read from the repository's git config file (`.git/config`, or the common folder
 * of a worktree) without running git: `include` files and `url.<base>.insteadOf` are not followed.
 */
import {lstatSync, readFileSync} from 'node:fs'
import {isAbsolute, join, resolve} from 'node:path'
import {MemError} from '../model/errors.js'
import {lazyRequire} from '../model/lazy-require.js'
import {checkRepoId, MAX_REPO_ID} from '../model/team-names.js'
import {assertMemDir, readInMem} from '../storage/mem-dir.js'

export const TEAM_FILE = 'team.yaml'
/** `.mem/team.yaml` is a few lines; anything larger is not one. */
const MAX_TEAM_FILE = 16 * 1024
/** A git config larger than this is not read (nobody's remote section needs it). */
const MAX_GIT_CONFIG = 1024 * 1024

export type TeamRepoIdSource = 'team.yaml' | 'git remote'

export interface TeamRepoIdentity {
  /** The team repo id, e.g. `github.com/org/app`. */
  id: string
  /** Where it came from: an explicit `id:` in `.mem/team.yaml`, or the git remote. */
  source: TeamRepoIdSource
  /** For a git remote: its name (`origin`, or the only one). */
  remote?: string
}

const yaml = lazyRequire<typeof import('yaml')>('yaml')

/** Hosts whose repository paths are case-insensitive: their ids are wholly lower case. */
const CASE_INSENSITIVE_HOSTS = new Set(['github.com', 'gitlab.com', 'bitbucket.org'])

/**
 * The team repo id of the checkout whose root folder is `root`. Throws `invalid_input` (exit 2,
 * 400) naming the problem and the fix: a bad `.mem/team.yaml`, or no usable remote and no file.
 */
export function checkoutTeamRepoId(root: string): TeamRepoIdentity {
  const explicit = readTeamFile(root)
  if (explicit !== undefined) return {id: explicit, source: 'team.yaml'}
  const remotes = readRemotes(root)
  const name = remotes.has('origin') ? 'origin' : remotes.size === 1 ? [...remotes.keys()][0] : undefined
  if (name === undefined) {
    const why = remotes.size === 0 ? 'it has no git remote' : `it has several git remotes and none is called origin (${[...remotes.keys()].slice(0, 5).join(', ')})`
    throw new MemError('invalid_input', `The checkout at ${root} has no team repo id: ${why}, and no .mem/${TEAM_FILE}.`, {hint: HINT_TEAM_FILE})
  }
  try {
    return {id: teamIdFromRemote(remotes.get(name)!), source: 'git remote', remote: name}
  } catch (err) {
    if (!(err instanceof MemError)) throw err
    throw new MemError('invalid_input', `The checkout at ${root} has no team repo id: its git remote ${name} ${err.message}`, {hint: HINT_TEAM_FILE})
  }
}

const HINT_TEAM_FILE = `Name the team repo in a committed .mem/${TEAM_FILE}: a line \`id: github.com/org/app\` (letters, digits and . _ @ + - in segments joined by /).`

/**
 * A git remote URL as a team repo id. Throws `invalid_input` whose message continues "its git
 * remote X …" (the reason; never the URL's credentials).
 */
export function teamIdFromRemote(url: string): string {
  const text = url.trim()
  if (text === '' || text.length > 2_048 || /[\u0000-\u001f\u007f\s]/.test(text)) throw remoteError('is empty, too long, or holds spaces or control characters')
  let host: string
  let path: string
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(text)
  if (scheme) {
    const protocol = scheme[1].toLowerCase()
    if (protocol === 'file') throw remoteError('is a folder on this machine (file://), which names no server')
    if (!['ssh', 'git+ssh', 'ssh+git', 'git', 'http', 'https', 'ftp', 'ftps'].includes(protocol)) throw remoteError(`uses ${protocol}://, which mem does not read as a server`)
    let parsed: URL
    try {
      parsed = new URL(text)
    } catch {
      throw remoteError('is not a valid URL')
    }
    host = parsed.hostname
    // the path as written: the URL parser would resolve '..' (also as %2e%2e) into another repository
    // eslint-disable-next-line regexp/no-super-linear-move -- the text is at most 2,048 characters (checked above)
    const written = text.slice(scheme[0].length).replace(/[?#].*$/, '')
    const slash = written.indexOf('/')
    const raw = slash < 0 ? '' : written.slice(slash)
    if (/%(2f|5c)/i.test(raw)) throw remoteError('has an encoded slash in its path')
    try {
      path = raw.split('/').map((s) => decodeURIComponent(s)).join('/')
    } catch {
      throw remoteError('has a path that is not valid percent-encoding')
    }
  } else {
    // scp-like: [user@]host:path — a colon before any slash; a one-letter "host" is a Windows drive
    const scp = /^(?:[^@/:]+@)?([^@/:\\]+):(.*)$/.exec(text)
    if (!scp || /^[A-Za-z]$/.test(scp[1])) throw remoteError('is a path on this machine, which names no server')
    host = scp[1]
    path = scp[2]
  }
  host = host.toLowerCase().replace(/\.$/, '')
  if (host === '' || host.startsWith('[') || !/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(host)) throw remoteError('has no host name mem can use (an IP v6 address or an odd character)')
  let segments = path.split('/').filter((s) => s !== '')
  if (segments.length > 0) segments[segments.length - 1] = segments[segments.length - 1].replace(/\.git$/i, '')
  segments = segments.filter((s) => s !== '')
  // Azure DevOps spells one repository two ways: https …/org/project/_git/repo, ssh v3/org/project/repo
  if (host === 'ssh.dev.azure.com' || host === 'vs-ssh.visualstudio.com') {
    host = 'dev.azure.com'
    if (segments[0]?.toLowerCase() === 'v3') segments = segments.slice(1)
  }
  if (host === 'dev.azure.com' && segments.length === 4 && segments[2] === '_git') segments = [segments[0], segments[1], segments[3]]
  if (segments.length === 0) throw remoteError('names a server but no repository')
  for (const s of segments) {
    if (s === '.' || s === '..') throw remoteError("has a '.' or '..' segment in its path")
    if (!/^[A-Za-z0-9_@+-][A-Za-z0-9._@+-]*$/.test(s)) throw remoteError(`has a path segment mem ids cannot carry (${JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s)}: letters, digits and . _ @ + - only)`)
  }
  let id = [host, ...segments].join('/')
  if (CASE_INSENSITIVE_HOSTS.has(host)) id = id.toLowerCase()
  if (id.length > MAX_REPO_ID) throw remoteError(`gives an id longer than ${MAX_REPO_ID} characters`)
  return checkTeamRepoId(id)
}

function remoteError(reason: string): MemError {
  return new MemError('invalid_input', `${reason}.`, {hint: HINT_TEAM_FILE})
}

/**
 * A team repo id as team mode takes it: the store's rule (model/team-names.ts) minus `~` and `:`,
 * which memory ids cannot carry. Throws `invalid_input` naming the id and the rule.
 */
export function checkTeamRepoId(id: string): string {
  checkRepoId(id)
  if (/[~:]/.test(id)) {
    throw new MemError('invalid_input', `Invalid team repo id ${JSON.stringify(id)}: '~' and ':' cannot be in a team repo id (memory ids carry it).`, {
      hint: 'Use letters, digits and . _ @ + - in segments joined by / (github.com/org/app).',
    })
  }
  return id
}

/** The `id:` of `root/.mem/team.yaml`; undefined when there is no such file. Throws for a bad one. */
function readTeamFile(root: string): string | undefined {
  const path = join(root, '.mem', TEAM_FILE)
  let text: string
  assertMemDir(join(root, '.mem')) // a .mem that is a link is refused, never followed
  try {
    const st = lstatSync(path)
    if (st.isFile() && st.size > MAX_TEAM_FILE) throw badFile(path, `is ${st.size} bytes; a team file is a few lines (at most ${MAX_TEAM_FILE})`)
    text = readInMem(path, 'utf8') // never through a link (storage/mem-dir.ts)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    if (err instanceof MemError) throw err
    if (code === 'EISDIR') throw badFile(path, 'is a folder, not a file')
    throw badFile(path, `cannot be read (${code ?? 'unknown error'})`)
  }
  let doc: unknown
  try {
    doc = yaml().parse(text, {maxAliasCount: 0, uniqueKeys: true})
  } catch (err) {
    throw badFile(path, `is not valid YAML (${String((err as Error).message).split('\n')[0].slice(0, 200)})`)
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw badFile(path, 'is not a mapping of keys to values')
  const keys = Object.keys(doc)
  const unknown = keys.filter((k) => k !== 'id')
  if (unknown.length > 0) throw badFile(path, `has keys mem does not know (${unknown.slice(0, 5).map((k) => JSON.stringify(k.slice(0, 40))).join(', ')}); it holds only id`)
  const id = (doc as {id?: unknown}).id
  if (typeof id !== 'string' || id.trim() === '') throw badFile(path, 'has no id: a line like `id: github.com/org/app`')
  try {
    return checkTeamRepoId(id.trim())
  } catch (err) {
    throw badFile(path, `has an id that is not a team repo id: ${(err as Error).message}`)
  }
}

function badFile(path: string, reason: string): MemError {
  return new MemError('invalid_input', `${path} ${reason}.`, {hint: `Write one line, \`id: github.com/org/app\` (the id every clone of the repository shares), or remove the file to use the git remote.`})
}

/** The remotes of the repository at `root` (name → url), read from its git config file. */
function readRemotes(root: string): Map<string, string> {
  const config = gitConfigPath(root)
  if (!config) return new Map()
  let text: string
  try {
    const st = lstatSync(config)
    if (!st.isFile() || st.size > MAX_GIT_CONFIG) return new Map()
    text = readFileSync(config, 'utf8')
  } catch {
    return new Map()
  }
  return parseRemotes(text)
}

/** `.git/config`, or for a worktree or submodule (`.git` a file: `gitdir: …`) its common folder's. */
function gitConfigPath(root: string): string | undefined {
  const dotGit = join(root, '.git')
  let st
  try {
    st = lstatSync(dotGit)
  } catch {
    return undefined
  }
  if (st.isDirectory()) return join(dotGit, 'config')
  if (!st.isFile() || st.size > 4_096) return undefined
  // eslint-disable-next-line regexp/no-super-linear-backtracking -- a .git file of at most 4,096 bytes (above)
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'))
  if (!m) return undefined
  const gitDir = isAbsolute(m[1]) ? m[1] : resolve(root, m[1])
  let common = gitDir
  try {
    const rel = readFileSync(join(gitDir, 'commondir'), 'utf8').trim()
    if (rel) common = isAbsolute(rel) ? rel : resolve(gitDir, rel)
  } catch {
    // a submodule's git folder has no commondir: its config is its own
  }
  return join(common, 'config')
}

/**
 * The `url` of each `[remote "name"]` section of a git config file's text: section and key names
 * case-insensitive, values unquoted and unescaped, `#`/`;` comments dropped; the last url wins.
 * Exported for tests.
 */
export function parseRemotes(text: string): Map<string, string> {
  const remotes = new Map<string, string>()
  let remote: string | undefined
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]
    // a value continued on the next line
    while (/(?<!\\)(\\\\)*\\$/.test(line) && i + 1 < lines.length) line = line.slice(0, -1) + lines[++i]
    const section = /^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(?!\s)(.*)$/.exec(line)
    if (section) {
      remote = section[1].toLowerCase() === 'remote' && section[2] !== undefined ? section[2].replace(/\\(.)/g, '$1') : undefined
      line = section[3]
      if (!line.trim()) continue
    }
    if (remote === undefined) continue
    const entry = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*=\s*(?!\s)(.*)$/.exec(line)
    if (!entry || entry[1].toLowerCase() !== 'url') continue
    remotes.set(remote, gitValue(entry[2]))
  }
  return remotes
}

/** A git config value: quotes removed, escapes read, a comment outside quotes dropped, ends trimmed. */
function gitValue(raw: string): string {
  let out = ''
  let quoted = false
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]
    if (c === '"') quoted = !quoted
    else if (c === '\\' && i + 1 < raw.length) {
      const n = raw[++i]
      out += n === 'n' ? '\n' : n === 't' ? '\t' : n === 'b' ? '\b' : n
    } else if (!quoted && (c === '#' || c === ';')) break
    else out += c
  }
  return out.trim()
}
