/**
 * The composition root of team mode's store: the one place that opens a team store from a URL
 * (the runtime constructs, everything else is handed what it needs), and the context a team
 * server's operations run on (docs/team.md).
 *
 * A team context answers for the team of the request's key: `repo` is a team repo id (never a
 * path), looked up under that team only, so another team's repo is not found (404, no existence
 * leak), and a key scoped to some repos gets 403 for the others. Each repo is a RepoStore kept as a
 * replica of the repo's ops (storage/replica.ts): the same engine, recall index and queries as the
 * local store; before each operation one `SELECT head` brings it up to date.
 */
import {AsyncLocalStorage} from 'node:async_hooks'
import {createHash} from 'node:crypto'
import {join} from 'node:path'
import type {StoreUrl} from '../config/store-url.js'
import type {RepoAccess, RepoHandle} from '../engines/context.js'
import type {MeaningSetting} from '../config/user-config.js'
import {MemError} from '../model/errors.js'
import {checkRepoId} from '../model/team-names.js'
import type {TeamDb} from '../storage/postgres/index.js'
import type {RepoStore} from '../storage/repo-store.js'
import type {MemRuntime} from './open-mem.js'

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
}

export interface TeamRuntimeOptions {
  /** MEM_HOME of the replica: its own state only (no repo lives there in team mode). */
  home: string
  /** Kept on every ops row this replica appends. */
  replicaName: string
  now?: () => Date
  /** The meaning model; off (words only) by default, as the local store's default. */
  meaning?: MeaningSetting
  onNotice?: (message: string) => void
}

/** A team server's context: every operation runs as the principal the request's key named. */
export interface TeamRuntime extends MemRuntime {
  readonly team: TeamDb
  /** Runs `fn` (and everything it starts) as `principal`: the tenancy every repo lookup inside obeys. */
  asPrincipal<T>(principal: TeamTenant, fn: () => T): T
  /** The principal the current request runs as (401 outside one). */
  tenant(): TeamTenant
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
  const stores = new Map<string, Promise<RepoStore>>()
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

  const rootOf = (teamName: string, id: string): string =>
    // never made on disk: a replica reads and writes nothing under it (RepoStore with a replica log)
    join(options.home, 'team-replicas', createHash('sha256').update(`${teamName}\0${id}`).digest('hex').slice(0, 24))

  function openStore(teamName: string, id: string): Promise<RepoStore> {
    const key = `${teamName}\0${id}`
    let opening = stores.get(key)
    if (!opening) {
      opening = import('../storage/repo-store.js').then(({RepoStore}) =>
        RepoStore.open(rootOf(teamName, id), {replica: team.replica(teamName, id, {actor: options.replicaName, now}), lazy: true}),
      )
      stores.set(key, opening)
      opening.catch(() => stores.delete(key))
    }
    return opening
  }

  async function repo(ref: string, access: RepoAccess): Promise<RepoHandle> {
    const {team: teamName, id} = allowed(ref)
    if (access === 'read' && !stores.has(`${teamName}\0${id}`)) {
      // a repo this team has not written is not found, whichever team may have one of that id
      const head = await team.replica(teamName, id, {actor: options.replicaName}).head()
      if (head === 0) throw notFound(id)
    }
    const store = await openStore(teamName, id)
    await store.sync()
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
    replicaName: options.replicaName,
    async enrichment() {
      return null
    },
    async embeddings() {
      return null
    },
    async meaning() {
      return {setting: options.meaning ?? {model: 'off'}, runtime: null}
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
      const all = await Promise.all([...stores.values()].map((o) => o.catch(() => undefined)))
      return all.filter((s): s is RepoStore => s !== undefined && s.isLoaded)
    },
    async close() {
      const all = [...stores.values()]
      stores.clear()
      for (const opening of all) {
        const store = await opening.catch(() => undefined)
        await store?.close()
      }
    },
  }
}

function notFound(id: string): MemError {
  return new MemError('not_found', `No repo ${id} in this team.`, {hint: 'Check the repo id; a repo comes to be with its first stored memory.'})
}
