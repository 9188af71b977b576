/**
 * The composition root of team mode's store: the one place that opens a team store from a URL
 * (the runtime constructs, everything else is handed what it needs), and the context a team
 * server's operations run on (docs/team.md).
 *
 * A team context answers for the team of the request's key: `repo` is a team repo id (never a
 * path), looked up under that team only, so another team's repo is not found (404, no existence
 * leak), and a key scoped to some repos gets 403 for the others. Each repo is a RepoStore kept as a
 * replica of the repo's ops (storage/replica.ts): the same engine, recall index and queries as the
 * local store; before each read one `SELECT head` (or the head the key check read along) brings it
 * up to date.
 */
import {AsyncLocalStorage} from 'node:async_hooks'
import {createHash} from 'node:crypto'
import {join} from 'node:path'
import type {StoreUrl} from '../config/store-url.js'
import type {RepoAccess, RepoHandle} from '../engines/context.js'
import type {EnrichmentConfig, MeaningSetting} from '../config/user-config.js'
import {MemError} from '../model/errors.js'
import {checkRepoId} from '../model/team-names.js'
import type {TeamDb} from '../storage/postgres/index.js'
import type {RepoStore} from '../storage/repo-store.js'
import type {MemRuntime} from './open-mem.js'
import {MemUsageRecorder} from './usage-recorder.js'
import {usageCutoffs} from '../storage/usage-rollup.js'
import type {UsageDelta} from '../storage/usage.js'

export async function openTeamStore(store: StoreUrl, options: {max?: number; applicationName?: string} = {}): Promise<TeamDb> {
  const {openTeamDb} = await import('../storage/postgres/index.js')
  return openTeamDb({url: store.url, shown: store.shown, max: options.max, applicationName: options.applicationName})
}

/** Who a request acts as: the team of its key, and the repos the key may reach (null: all of the team's). */
export interface TeamTenant {
  team: string
  repos: string[] | null
  /** The key's name (never its text): who writes, in ops.actor and the audit. */
  key?: string
  /**
   * A repo's head read with the request's key, in the same statement (the guard, from the
   * request's `repo`): read after the request began, so it stands for the head check before the
   * request's first operation on that repo (read-your-writes holds). Used once.
   */
  seen?: {repo: string; head: number}
}

export interface TeamRuntimeOptions {
  /** MEM_HOME of the replica: its own state only (no repo lives there in team mode). */
  home: string
  /** Kept on every ops row this replica appends. */
  replicaName: string
  now?: () => Date
  /**
   * The meaning model; off (words only) when not given. `mem serve --store` gives what a local
   * store uses: MEM_MEANING, else config.yaml's `meaning:`, else the built-in model (docs/team.md).
   */
  meaning?: MeaningSetting
  /** The enrichment runtime, for a `runtime` meaning model (its embedding model). */
  meaningRuntime?: EnrichmentConfig | null
  onNotice?: (message: string) => void
  /**
   * The most repos kept hot (a replica database and recall index in memory) at once: past it the
   * least recently used idle one is closed, and reopened from the team store on its next request.
   * Default DEFAULT_HOT_REPOS (`hotRepos:` in config.yaml, MEM_HOT_REPOS).
   */
  hotRepos?: number
  /**
   * Usage statistics (docs/team.md): on by default, as in a local store. Each operation is counted
   * in memory and the counts go to the repo's log as one `usage` op every `flushMs` (5 s) and at
   * close, so every replica answers the usage routes with the team's counts. `false` keeps none.
   */
  usage?: false | {flushMs?: number}
}

/** The default ceiling of hot repos per replica (docs/team.md "Bounded replicas"). */
export const DEFAULT_HOT_REPOS = 20
/** An evicted repo with at least this many records after its newest snapshot keeps a snapshot first. */
const EVICT_SNAPSHOT_RECORDS = 50

/** A team server's context: every operation runs as the principal the request's key named. */
export interface TeamRuntime extends MemRuntime {
  readonly team: TeamDb
  /** Runs `fn` (and everything it starts) as `principal`: the tenancy every repo lookup inside obeys. */
  asPrincipal<T>(principal: TeamTenant, fn: () => T): T
  /** The principal the current request runs as (401 outside one). */
  tenant(): TeamTenant
  /**
   * Runs `fn` as `principal` for one request (or a background pass): every repo it opens is kept
   * hot, never evicted, until `endRequest(principal)`.
   */
  asRequest<T>(principal: TeamTenant, fn: () => T): T
  endRequest(principal: TeamTenant): void
  /** The hot repos now, the ceiling, and how many were evicted since the start. */
  hotRepos(): {hot: number; max: number; evicted: number}
  /** Kept on every ops row and run this replica writes. */
  readonly replicaName: string
}

/**
 * A team repo id as a memory id carries it: memory ids hold one segment for their repo, so the
 * id's '/' become '~' (`github.com/org/app` → `github.com~org~app`). A team repo served here may
 * hold no '~' nor ':' (memory ids cannot), which keeps the two forms one to one.
 */
export function memoryRepoSegment(teamRepoId: string): string {
  return teamRepoId.replaceAll('/', '~')
}

/**
 * The team repo id a request's `repo` names: the id (`github.com/org/app`) or its memory-id form
 * (`github.com~org~app`). A path, or anything else that is no repo id, is refused (400).
 */
export function teamRepoId(ref: string): string {
  const given = ref.trim()
  const id = given.includes('/') ? given : given.replaceAll('~', '/')
  if (given.startsWith('/') || given.startsWith('~') || given.startsWith('.') || /^[A-Za-z]:[\\/]/.test(given) || given.includes('\\')) {
    throw new MemError('invalid_input', `In team mode a repo is an id like github.com/org/app, never a path: ${JSON.stringify(given.length > 200 ? `${given.slice(0, 200)}…` : given)}.`, {
      hint: 'Pass the team repo id (its normalized git remote), not a folder.',
    })
  }
  checkRepoId(id)
  if (/[~:]/.test(id)) {
    throw new MemError('invalid_input', `The team repo id ${JSON.stringify(id)} holds '~' or ':', which memory ids cannot carry.`, {
      hint: "Use letters, digits and . _ @ + - in each segment (github.com/org/app).",
    })
  }
  return id
}

export function openTeamRuntime(team: TeamDb, options: TeamRuntimeOptions): TeamRuntime {
  const tenancy = new AsyncLocalStorage<TeamTenant>()
  /** The hot repos, least recently used first (a use moves a repo to the end). */
  const stores = new Map<string, Hot>()
  const max = options.hotRepos ?? DEFAULT_HOT_REPOS
  if (!Number.isSafeInteger(max) || max < 1) throw new MemError('invalid_input', `Invalid ceiling of hot repos ${max}: a whole number ≥ 1.`)
  /** The releases of the repos each request in flight keeps hot. */
  const leases = new WeakMap<TeamTenant, Array<() => void>>()
  const closing = new Set<Promise<void>>()
  let evicted = 0
  const now = options.now ?? (() => new Date())
  let scanner: ((text: string) => Promise<import('../engines/context.js').SecretFinding | null>) | undefined

  const principal = (): TeamTenant => {
    const p = tenancy.getStore()
    if (!p) throw new MemError('unauthorized', 'A team server answers only requests made with a team key.', {hint: 'Send Authorization: Bearer <key> (mem keys create NAME --team T).'})
    return p
  }

  /** The team repo `ref` names for the request's key: its id, or 403 when the key is not for it. */
  const allowed = (ref: string): {team: string; id: string} => {
    const p = principal()
    const id = teamRepoId(ref)
    if (p.repos !== null && !p.repos.includes(id)) {
      throw new MemError('forbidden', 'This key is not for this repo.', {hint: 'Use a key of the team for every repo, or one that lists this repo (mem keys create … --repos).'})
    }
    return {team: p.team, id}
  }

  /** ops.actor of a write made for a request: its key's name (never its text); the replica's name otherwise. */
  const currentActor = (): string | undefined => {
    const key = tenancy.getStore()?.key
    return key ? `key:${key}` : undefined
  }

  /** The team and repo of each root handed out (the usage counts are kept by root). */
  const repoOfRoot = new Map<string, {teamName: string; id: string}>()
  const rootOf = (teamName: string, id: string): string => {
    // never made on disk: a replica reads and writes nothing under it (RepoStore with a replica log)
    const root = join(options.home, 'team-replicas', createHash('sha256').update(`${teamName}\0${id}`).digest('hex').slice(0, 24))
    if (!repoOfRoot.has(root)) repoOfRoot.set(root, {teamName, id})
    return root
  }

  // Usage: counted in memory, written to each repo's log as one `usage` op (the replica's own
  // write, as its vectors are); a write that fails loses those counts and says so once.
  const writing = new Set<Promise<unknown>>()
  let usageFailed = false
  const writeUsage = (root: string, deltas: UsageDelta[]): void => {
    const where = repoOfRoot.get(root)
    if (!where) return
    const {hot} = openStore(where.teamName, where.id)
    const done = hot.opening
      .then((store) => (store.exists ? store.write(() => ({ops: [{op: 'usage', rows: deltas, ...usageCutoffs(now())}], result: deltas.length}), {own: true}) : 0))
      .catch((err: unknown) => {
        if (usageFailed) return
        usageFailed = true
        options.onNotice?.(`Usage counts could not be written to the team store (${(err as Error)?.message ?? String(err)}); the counts of that moment are not kept.`)
      })
      .finally(() => writing.delete(done))
    writing.add(done)
  }
  const usage = options.usage === false ? undefined : new MemUsageRecorder({now, sink: writeUsage})
  const usageTimer = usage ? setInterval(() => usage.flush(), (options.usage || undefined)?.flushMs ?? 5_000) : undefined
  usageTimer?.unref()

  /** The repo's hot entry (opened when it is not hot), now the most recently used. */
  function openStore(teamName: string, id: string): {hot: Hot; made: boolean} {
    const key = `${teamName}\0${id}`
    let hot = stores.get(key)
    if (hot) {
      stores.delete(key)
      stores.set(key, hot)
      return {hot, made: false}
    }
    const opening = import('../storage/repo-store.js').then(({RepoStore}) =>
      RepoStore.open(rootOf(teamName, id), {replica: team.replica(teamName, id, {actor: options.replicaName, now, currentActor}), lazy: true}),
    )
    const made: Hot = {opening, pins: 0}
    hot = made
    stores.set(key, made)
    opening.catch(() => {
      if (stores.get(key) === made) stores.delete(key)
    })
    return {hot: made, made: true}
  }

  /**
   * Closes the least recently used repos no request holds until at most `max` are hot (a repo in
   * use is never closed under it: the ceiling is reached again once its requests end). A repo with
   * many records since its newest snapshot keeps one first, so that reopening it replays few.
   */
  function evict(): void {
    for (const [key, hot] of stores) {
      if (stores.size <= max) return
      if (hot.pins > 0) continue
      stores.delete(key)
      evicted++
      const closed = hot.opening
        .then(async (store) => {
          if (store.isLoaded && store.exists && store.pendingJournalBytes >= EVICT_SNAPSHOT_RECORDS) await store.checkpoint()
          await store.close()
        })
        .catch((err: unknown) => options.onNotice?.(`Closing an evicted repo failed: ${(err as Error)?.message ?? String(err)}`))
        .finally(() => closing.delete(closed))
      closing.add(closed)
    }
  }

  async function repo(ref: string, access: RepoAccess): Promise<RepoHandle> {
    const {team: teamName, id} = allowed(ref)
    const p = principal()
    let known: number | undefined
    if (p.seen?.repo === id) {
      known = p.seen.head
      p.seen = undefined
    }
    if (access === 'read' && !stores.has(`${teamName}\0${id}`)) {
      // a repo this team has not written is not found, whichever team may have one of that id
      const head = known ?? (await team.replica(teamName, id, {actor: options.replicaName}).head())
      if (head === 0) throw notFound(id)
      known = head
    }
    const {hot, made} = openStore(teamName, id)
    const lease = leases.get(principal())
    if (lease) {
      hot.pins++
      let held = true
      lease.push(() => {
        if (!held) return
        held = false
        hot.pins--
      })
    }
    evict()
    const store = await hot.opening
    // No head check (sync(0) only loads the store) when this call opened it: it reads the log to
    // its end, after this request began; nor for a write: its transaction reads every record
    // after the replica's place under the head row's lock and plans on that (a store plans all
    // its reads there). Otherwise one `SELECT head`, or the head the key check read with it.
    await store.sync(made || access === 'write' ? 0 : known)
    if (access === 'read' && !store.exists) throw notFound(id)
    return {id: memoryRepoSegment(id), root: rootOf(teamName, id), given: ref, store}
  }

  const notInTeamMode = (what: string) =>
    new MemError('invalid_input', `${what} is not available on a team server: its repos live in the team store, not in folders.`, {
      hint: 'Run it against a local store (mem serve without --store).',
    })

  return {
    team,
    home: options.home,
    now,
    longLived: true,
    asPrincipal: (p, fn) => tenancy.run(p, fn),
    tenant: principal,
    asRequest(p, fn) {
      if (!leases.has(p)) leases.set(p, [])
      return tenancy.run(p, fn)
    },
    endRequest(p) {
      const held = leases.get(p)
      leases.delete(p)
      if (!held || held.length === 0) return
      for (const release of held) release()
      evict()
    },
    hotRepos: () => ({hot: stores.size, max, evicted}),
    replicaName: options.replicaName,
    ...(usage ? {usage} : {}),
    async enrichment() {
      return null
    },
    async embeddings() {
      return null
    },
    async meaning() {
      return {setting: options.meaning ?? {model: 'off'}, runtime: options.meaningRuntime ?? null}
    },
    ...(options.onNotice ? {notice: options.onNotice} : {}),
    // resolves without opening anything: the repo's checks, not whether it has records yet
    async locate(ref) {
      const {team: teamName, id} = allowed(ref)
      return {id: memoryRepoSegment(id), root: rootOf(teamName, id)}
    },
    repo,
    storeAt: async () => {
      throw notInTeamMode('A layer store')
    },
    adoptStore: async () => {
      throw notInTeamMode('Adopting a folder')
    },
    dropStoreAt: async () => undefined,
    async listRepos() {
      const p = principal()
      const ids = await team.repos(p.team)
      return ids.filter((id) => p.repos === null || p.repos.includes(id)).map((id) => ({repoId: id, path: ''}))
    },
    async scanSecrets(text) {
      scanner ??= (await import('../engines/gates/secrets.js')).scanSecrets
      return scanner(text)
    },
    async openStores() {
      const all = await Promise.all([...stores.values()].map((h) => h.opening.catch(() => undefined)))
      return all.filter((s): s is RepoStore => s !== undefined && s.isLoaded)
    },
    async close() {
      if (usageTimer) clearInterval(usageTimer)
      usage?.flush()
      await Promise.all([...writing])
      const all = [...stores.values()]
      stores.clear()
      for (const hot of all) {
        const store = await hot.opening.catch(() => undefined)
        await store?.close()
      }
      await Promise.all([...closing])
    },
  }
}

/** A hot repo: its store (being opened, or open) and how many requests in flight use it. */
interface Hot {
  opening: Promise<RepoStore>
  pins: number
}

function notFound(id: string): MemError {
  return new MemError('not_found', `No repo ${id} in this team.`, {hint: 'Check the repo id; a repo comes to be with its first stored memory.'})
}
