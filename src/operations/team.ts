/**
 * Teams and their API keys in a team store (Postgres), and the check a team server runs on every
 * request's key. The faces (`mem team`, `mem keys … --team`) are thin adapters over these.
 *
 * A key is `mem_` + 32 random bytes (base64url), shown once and stored as its sha-256: the key has
 * 256 bits of entropy, so a slow password hash (bcrypt, argon2) would protect nothing more and cost
 * every request its time, while an unsalted digest lets the server find a key by an index lookup
 * on its hash. The local keys of `mem serve` are stored the same way (src/config/api-keys.ts).
 */
import {generateKey, hashKey, KEY_PATTERN, scopeAllows} from '../config/api-keys.js'
import {SCOPES, type Scope} from '../config/user-config.js'
import {MemError} from '../model/errors.js'
import {checkKeyName, checkRepoId, checkTeamName} from '../model/team-names.js'
import type {TeamDb} from '../storage/postgres/index.js'

/** What these operations need of a team store. */
export type TeamStore = Pick<TeamDb, 'teams'> & {pg: {shown: string}}

/** Who is acting and when: the face says. */
export interface TeamCall {
  now: Date
  /** Recorded in the audit table: `cli`, or the name of the key a server request came with. */
  actor: string
}

/** At most this many repos on one key (list them, or give the key the whole team). */
export const MAX_KEY_REPOS = 100

export interface TeamCreated {
  team: string
  created: string
  store: string
}

export async function createTeam(store: TeamStore, input: {name: string}, call: TeamCall): Promise<TeamCreated> {
  const team = checkTeamName(input.name.trim())
  await refuseSecrets([['team name', team]])
  const row = await store.teams.createTeam(team, call.now, call.actor)
  return {team: row.team, created: row.created.toISOString(), store: store.pg.shown}
}

export interface TeamListing {
  store: string
  teams: Array<{team: string; created: string}>
}

export async function listTeams(store: TeamStore): Promise<TeamListing> {
  const rows = await store.teams.listTeams()
  return {store: store.pg.shown, teams: rows.map((r) => ({team: r.team, created: r.created.toISOString()}))}
}

export interface TeamKeyCreated {
  /** The key itself: shown once, stored nowhere. */
  key: string
  team: string
  name: string
  scope: Scope
  /** The repos the key may reach; null: every repo of the team. */
  repos: string[] | null
  prefix: string
  created: string
  store: string
}

/** How many characters of a key `mem keys list` shows (as for local keys). */
const SHOWN_PREFIX = 'mem_'.length + 6

export async function createTeamKey(store: TeamStore, input: {name: string; team: string; scope: string; repos?: string | readonly string[]}, call: TeamCall): Promise<TeamKeyCreated> {
  const name = checkKeyName(input.name.trim())
  const team = checkTeamName(input.team.trim())
  const scope = checkScope(input.scope)
  const repos = input.repos === undefined ? null : parseRepos(input.repos)
  await refuseSecrets([['key name', name], ...(repos ?? []).map((r): [string, string] => ['repo id', r])])
  const key = generateKey()
  const created = call.now
  await store.teams.insertKey({hash: hashKey(key), team, name, prefix: key.slice(0, SHOWN_PREFIX), scope, repos, created}, call.actor)
  return {key, team, name, scope, repos, prefix: key.slice(0, SHOWN_PREFIX), created: created.toISOString(), store: store.pg.shown}
}

export interface TeamKeyListing {
  team: string
  store: string
  keys: Array<{name: string; scope: Scope; repos: string[] | null; prefix: string; created: string}>
}

export async function listTeamKeys(store: TeamStore, input: {team: string}): Promise<TeamKeyListing> {
  const team = checkTeamName(input.team.trim())
  if (!(await store.teams.teamExists(team))) throw noTeam(team)
  const rows = await store.teams.listKeys(team)
  return {
    team,
    store: store.pg.shown,
    keys: rows.map((r) => ({name: r.name, scope: r.scope, repos: r.repos, prefix: r.prefix, created: r.created.toISOString()})),
  }
}

export async function revokeTeamKey(store: TeamStore, input: {team: string; name: string}, call: TeamCall): Promise<{revoked: string; team: string; store: string}> {
  const team = checkTeamName(input.team.trim())
  const name = checkKeyName(input.name.trim())
  if (!(await store.teams.teamExists(team))) throw noTeam(team)
  if (!(await store.teams.revokeKey(team, name, call.now, call.actor))) {
    throw new MemError('not_found', `Team ${team} has no key named ${name}.`, {hint: `Run \`mem keys list --team ${team} --store URL\` to see its keys.`})
  }
  return {revoked: name, team, store: store.pg.shown}
}

/** Who a request's key says it is: its team, name, scope and repos. */
export interface TeamPrincipal {
  team: string
  key: string
  scope: Scope
  /** null: every repo of the team. */
  repos: string[] | null
  /** With `headOf`: the head of the key's team's repo of that id, read with the key (0: none). */
  seen?: {repo: string; head: number}
}

/**
 * The check a team server runs on a request: the key (the `Bearer` token's text) must be a live key
 * of the store (unauthorized, 401, when it is not, whatever the reason: no oracle), allow the scope
 * the route needs (forbidden, 403), and, when the request names a repo, list that repo or have the
 * whole team (403). A repo of another team is not this check's business: the server looks repos up
 * under the principal's team only, so another team's repo is a 404 there.
 *
 * The lookup is by the key's sha-256 through the table's primary key; what an attacker could learn
 * from its timing is where a hash of their guess sorts, not any part of a real key.
 */
export async function verifyTeamKey(store: TeamStore, token: string | undefined, need: {scope: Scope; repo?: string; headOf?: string}): Promise<TeamPrincipal> {
  if (token === undefined || token === '') throw new MemError('unauthorized', 'Authentication required', {hint: 'Send the key as `Authorization: Bearer mem_…`.'})
  if (!KEY_PATTERN.test(token)) throw invalidKey()
  const row = await store.teams.keyByHash(hashKey(token), need.headOf)
  if (!row) throw invalidKey()
  if (!scopeAllows(row.scope, need.scope)) {
    throw new MemError('forbidden', `This key's scope (${row.scope}) does not allow ${need.scope}.`, {hint: `Use a key with scope ${need.scope} or more.`, details: {required: need.scope}})
  }
  if (need.repo !== undefined && row.repos !== null && !row.repos.includes(need.repo)) {
    throw new MemError('forbidden', 'This key is not for this repo.', {hint: 'Use a key of the team for every repo, or one that lists this repo (mem keys create … --repos).'})
  }
  return {team: row.team, key: row.name, scope: row.scope, repos: row.repos, ...(need.headOf !== undefined && row.head !== undefined ? {seen: {repo: need.headOf, head: row.head}} : {})}
}

/**
 * Records in the team's audit that a key was used (`key.use`: its name and scope, the replica that
 * saw it; never its text or hash). A server calls it on a key's first request of a window.
 */
export async function recordKeyUse(store: TeamStore, principal: TeamPrincipal, call: {now: Date; replica: string}): Promise<void> {
  await store.teams.addAudit({team: principal.team, at: call.now, actor: `key:${principal.key}`, action: 'key.use', target: principal.key, details: {scope: principal.scope, replica: call.replica}})
}

/**
 * Names are kept in the team store and shown in lists and the audit: the secret gate reads them as
 * it reads every kept field (a token pasted as a name is refused, exit 5 / 422, and stored nowhere).
 */
async function refuseSecrets(fields: ReadonlyArray<[what: string, text: string]>): Promise<void> {
  const {scanSecrets} = await import('../engines/gates/secrets.js')
  for (const [what, text] of fields) {
    const found = await scanSecrets(text)
    if (found) throw new MemError('unprocessable', `The ${what} looks like a secret: ${found.message}`, {hint: `Nothing was stored. Pick a ${what} that is not a credential.`})
  }
}

function invalidKey(): MemError {
  return new MemError('unauthorized', 'Invalid API key', {hint: 'The key is unknown or revoked: ask for a new one (mem keys create … --team).'})
}

function noTeam(team: string): MemError {
  return new MemError('not_found', `No team ${team} in this team store.`, {hint: `Create it: mem team create ${team} --store URL.`})
}

function checkScope(scope: string): Scope {
  if (!(SCOPES as readonly string[]).includes(scope)) {
    throw new MemError('invalid_input', `Invalid scope ${JSON.stringify(scope)}: use read, write or admin.`, {
      hint: 'read: every GET; write: also stores, edits, deletes; admin: also maintenance.',
    })
  }
  return scope as Scope
}

/** `--repos a,b` or a list: ids checked, duplicates dropped, order kept. */
function parseRepos(value: string | readonly string[]): string[] {
  const items = (typeof value === 'string' ? value.split(',') : [...value]).map((r) => r.trim()).filter(Boolean)
  if (items.length === 0) {
    throw new MemError('invalid_input', '--repos lists no repo id.', {hint: 'Give ids separated by commas (--repos github.com/org/app,github.com/org/lib), or leave --repos out for every repo of the team.'})
  }
  const repos = [...new Set(items.map(checkRepoId))]
  if (repos.length > MAX_KEY_REPOS) {
    throw new MemError('invalid_input', `--repos lists ${repos.length} repos, more than ${MAX_KEY_REPOS}.`, {hint: 'Leave --repos out to give the key every repo of the team.'})
  }
  return repos
}
