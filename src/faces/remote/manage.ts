/**
 * What `mem remote set|unset|status|sync|push` do (the commands are thin over these): map a
 * checkout to a team server and back, say where its memory goes and what waits, send the outbox,
 * and move the local store in (docs/team.md, "Remote mode").
 */
import {createHash} from 'node:crypto'
import {MemApiError, type MemoryEntry} from '../../client/index.js'
import type {MemContext} from '../../engines/context.js'
import {MemError} from '../../model/errors.js'
import {
  checkoutTeamRepoId,
  checkTeamRepoId,
  forgetKey,
  normalizeServerUrl,
  readRemoteMapping,
  remotePath,
  remoteTarget,
  removeRemoteMapping,
  saveKey,
  type RemoteTarget,
  writeRemoteMapping,
} from '../../runtime/remote-config.js'
import {listOutbox, listRefused, outboxDir} from '../../runtime/remote-outbox.js'
import {asMemError, clientFor, replayOutbox} from './calls.js'

export interface RemoteEnv {
  MEM_SERVER?: string
  MEM_KEY?: string
}

export interface RemoteSetResult {
  server: string
  repo: string
  repoFrom: 'flag' | 'team.yaml' | 'git remote'
  /** Where the key is kept: MEM_HOME's remote-keys.json, or the environment (MEM_KEY) on every command. */
  key: 'saved' | 'env'
  keyFile: string | null
  config: string
  /** Live memories of the team repo now (0 for a repo nobody has written yet). */
  memories: number
}

const SET_TIMEOUT_MS = 10_000

/** Checks the server and the key, then maps the checkout at `root` to the team repo. */
export async function remoteSet(root: string, home: string, env: RemoteEnv, given: {url: string; key?: string; repoId?: string}): Promise<RemoteSetResult> {
  const server = normalizeServerUrl(given.url)
  const fromFlag = given.repoId?.trim()
  const {id: repo, from} = fromFlag ? {id: checkTeamRepoId(fromFlag), from: 'flag' as const} : checkoutTeamRepoId(root)
  const key = given.key?.trim() || env.MEM_KEY?.trim()
  if (!key) {
    throw new MemError('invalid_input', 'No key for the team server: a team server answers only requests made with a team key.', {
      hint: 'mem remote set URL --key KEY (kept in MEM_HOME, never in the repo), or export MEM_KEY=KEY. Keys: mem keys create NAME --team TEAM --scope write --store URL.',
    })
  }
  const target: RemoteTarget = {server, key, repo, root, from: 'config', keyFrom: 'env'}
  let memories: number
  try {
    memories = await probe(target)
  } catch (err) {
    if (err instanceof MemError && err.code === 'unavailable') throw new MemError('unavailable', `${err.message} Nothing was changed.`, {hint: 'Check the URL and that mem serve --store runs there (and answers from this machine).'})
    throw err
  }
  await writeRemoteMapping(root, {server, repo, setAt: new Date().toISOString()})
  let keyFile: string | null = null
  if (given.key?.trim()) {
    saveKey(home, server, key)
    keyFile = `${home}/remote-keys.json`
  }
  return {server, repo, repoFrom: from, key: keyFile ? 'saved' : 'env', keyFile, config: remotePath(root), memories}
}

/** The team repo's live memories; throws why when the server cannot be reached or refuses the key. */
async function probe(target: RemoteTarget): Promise<number> {
  const client = clientFor(target, SET_TIMEOUT_MS)
  try {
    try {
      await client.health()
    } catch (err) {
      if (err instanceof MemApiError && err.status !== 0) {
        throw new MemError('invalid_input', `${target.server} does not answer as a mem server (GET /api/health: HTTP ${err.status}).`, {hint: 'Give the address `mem serve --store` listens on, e.g. https://mem.example.com'})
      }
      throw asMemError(err, target)
    }
    try {
      const stats = (await client.request('GET', '/api/mem/stats', {query: {repo: target.repo}})).body as {total?: number}
      return typeof stats.total === 'number' ? stats.total : 0
    } catch (err) {
      if (err instanceof MemApiError && err.status === 404) return 0 // a team repo comes to be with its first write
      throw asMemError(err, target)
    }
  } finally {
    client.close()
  }
}

export interface RemoteUnsetResult {
  removed: boolean
  /** Writes still in the outbox: they stay, and are sent once a remote is set again. */
  waiting: number
  keyForgotten: boolean
}

export function remoteUnset(root: string, home: string, options: {forgetKey?: boolean} = {}): RemoteUnsetResult {
  let mapping: ReturnType<typeof readRemoteMapping>
  try {
    mapping = readRemoteMapping(root)
  } catch {
    mapping = undefined // a damaged mapping is removed all the same: that is how one gets out of it
  }
  const removed = removeRemoteMapping(root)
  const keyForgotten = options.forgetKey && mapping ? forgetKey(home, mapping.server) : false
  return {removed, waiting: listOutbox(root).length, keyForgotten}
}

export interface RemoteStatus {
  /** Where this checkout's memory goes. */
  mode: 'local' | 'remote'
  root: string
  server: string | null
  repo: string | null
  /** What decided: MEM_SERVER, .mem/remote.json, or nothing (local). */
  from: 'env' | 'config' | null
  keyFrom: 'env' | 'home' | 'none' | null
  /** Whether the server answered (with this key) just now; null in local mode. */
  reachable: boolean | null
  /** Why not, when it did not. */
  problem: string | null
  memories: number | null
  outbox: {waiting: number; oldest: string | null; dir: string}
  refused: Array<{requestId: string; op: string; status: number; error: string; refusedAt: string}>
}

export async function remoteStatus(root: string, home: string, env: RemoteEnv): Promise<RemoteStatus> {
  const target = remoteTarget(root, env, home)
  const waiting = listOutbox(root)
  const refused = listRefused(root).map((r) => ({requestId: r.requestId, op: r.op, status: r.status, error: r.error, refusedAt: r.refusedAt}))
  const outbox = {waiting: waiting.length, oldest: waiting[0]?.queuedAt ?? null, dir: outboxDir(root)}
  if (!target) return {mode: 'local', root, server: null, repo: null, from: null, keyFrom: null, reachable: null, problem: null, memories: null, outbox, refused}
  let reachable = true
  let problem: string | null = null
  let memories: number | null = null
  try {
    memories = await probe(target)
  } catch (err) {
    reachable = false
    problem = err instanceof Error ? err.message : String(err)
  }
  return {mode: 'remote', root, server: target.server, repo: target.repo, from: target.from, keyFrom: target.keyFrom, reachable, problem, memories, outbox, refused}
}

export interface RemoteSyncResult {
  sent: number
  refused: number
  waiting: number
}

/** Sends the outbox now; unreachable is an error (exit 69) naming what still waits. */
export async function remoteSync(ctx: MemContext, root: string, home: string, env: RemoteEnv): Promise<RemoteSyncResult> {
  const target = requireTarget(root, home, env)
  const client = clientFor(target, 15_000)
  try {
    const r = await replayOutbox(client, target, ctx.now())
    if (r.offline) {
      throw new MemError('unavailable', `The team server ${target.server} cannot be reached: ${r.sent} sent, ${r.waiting} still wait${r.waiting === 1 ? 's' : ''} in the outbox.`, {
        hint: 'Run `mem remote sync` again once it answers; any command that reaches it sends them too.',
      })
    }
    return {sent: r.sent, refused: r.refused, waiting: r.waiting}
  } finally {
    client.close()
  }
}

export function requireTarget(root: string, home: string, env: RemoteEnv): RemoteTarget {
  const target = remoteTarget(root, env, home)
  if (!target) throw new MemError('invalid_input', `The checkout ${root} has no team server: its memory is the local store.`, {hint: 'mem remote set https://mem.example.com --key KEY'})
  return target
}

export interface RemotePushResult {
  server: string
  repo: string
  /** Live memories in the local store (what the pack carried). */
  exported: number
  imported: number
  /** Not written: already in the team repo (the same text), or refused by the server's gates. */
  skipped: number
  /** Feedback reports carried over (one call per used or unused report of a moved memory; sent again, written once). */
  feedback: number
  /** Links between moved memories carried over. */
  links: number
}

/** A request id of a push's call that is the same on every push of this store: a second push writes none of them again. */
function pushRequestId(...parts: string[]): string {
  return `push-${createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 40)}`
}

const PAGE = 500

/**
 * Moving in: the local store's live memories, as a pack (the same export `mem pack export` makes),
 * imported into the team repo through the server's pack import. The server's duplicate check
 * skips what the team repo already holds, so pushing twice imports nothing the second time.
 * Then, as operation calls with request ids derived from the local memory (so a second push
 * writes none of them again): each moved memory's used and unused reports (feedback), and the
 * links between moved memories. `localCtx` is a context without the remote route: the export
 * reads this machine's store.
 */
export async function remotePush(localCtx: MemContext, root: string, home: string, env: RemoteEnv): Promise<RemotePushResult> {
  const target = requireTarget(root, home, env)
  const [{packExport}, {browse}] = await Promise.all([import('../../operations/pack-export.js'), import('../../operations/browse.js')])
  const pack = await packExport(localCtx, {repo: root})
  const local: MemoryEntry[] = []
  for (let skip = 0; ; skip += PAGE) {
    const page = await browse(localCtx, {repo: root, skip, take: PAGE})
    local.push(...page.entries)
    if (page.entries.length < PAGE) break
  }
  const client = clientFor(target, 120_000)
  try {
    const result = await client.packImport(target.repo, pack.data)
    // the team's id of each moved memory, by its text
    const byContent = new Map<string, string>()
    for (let skip = 0; ; skip += PAGE) {
      const page = await client.browse(target.repo, skip, PAGE)
      for (const e of page.entries) if (!byContent.has(e.content)) byContent.set(e.content, e.id)
      if (page.entries.length < PAGE) break
    }
    const teamId = new Map(local.flatMap((e) => (byContent.has(e.content) ? [[e.id, byContent.get(e.content)!] as const] : [])))
    let feedback = 0
    let links = 0
    for (const e of local) {
      const id = teamId.get(e.id)
      if (!id) continue
      for (const [used, n] of [[true, e.usedCount], [false, e.unusedCount]] as const) {
        for (let i = 0; i < n; i++) {
          await client.feedback(id, used, {requestId: pushRequestId(target.repo, e.id, used ? 'used' : 'unused', String(i))})
          feedback++
        }
      }
      for (const link of e.links) {
        const to = teamId.get(link.targetId)
        if (!to) continue
        await client.request('POST', `/api/mem/${encodeURIComponent(id)}/links`, {body: {targetId: to, relation: link.relation}, requestId: pushRequestId(target.repo, e.id, 'link', link.targetId)})
        links++
      }
    }
    return {server: target.server, repo: target.repo, exported: pack.manifest.entryCount, imported: result.imported, skipped: result.skipped, feedback, links}
  } catch (err) {
    throw asMemError(err, target)
  } finally {
    client.close()
  }
}
