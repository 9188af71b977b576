/**
 * Teams, their API keys and the audit trail, in the team store. A key is kept as the sha-256 of
 * its text, never the text; the audit rows name keys by name, never by text or hash.
 */
import {MemError} from '../../model/errors.js'
import type {PgHandle} from './pool.js'
import {unknownTeam} from './op-log.js'

export type TeamScope = 'read' | 'write' | 'admin'

export interface TeamKeyRow {
  team: string
  name: string
  prefix: string
  scope: TeamScope
  /** null: every repo of the team. */
  repos: string[] | null
  created: Date
}

export interface TeamRow {
  team: string
  created: Date
}

export interface AuditEntry {
  team: string
  at: Date
  actor: string
  action: string
  repo?: string
  target?: string
  details?: Record<string, unknown>
}

export interface TeamStoreTables {
  createTeam(team: string, at: Date, actor: string): Promise<TeamRow>
  listTeams(): Promise<TeamRow[]>
  teamExists(team: string): Promise<boolean>
  /** Stores a key (by hash). A live key of that name in the team is a conflict. */
  insertKey(row: TeamKeyRow & {hash: string}, actor: string): Promise<void>
  listKeys(team: string): Promise<TeamKeyRow[]>
  /** Marks a live key revoked; false when the team has no live key of that name. */
  revokeKey(team: string, name: string, at: Date, actor: string): Promise<boolean>
  /**
   * The live key with this hash, of whichever team. With `headOf` (a repo id), also the head of the
   * key's team's repo of that id (0 when it has none), read in the same statement.
   */
  keyByHash(hash: string, headOf?: string): Promise<(TeamKeyRow & {head?: number}) | undefined>
  /** One audit row (its team must exist). Never given a key's text or hash: names only. */
  addAudit(entry: AuditEntry): Promise<void>
  audit(team: string, limit: number): Promise<Array<Required<Pick<AuditEntry, 'at' | 'actor' | 'action'>> & Pick<AuditEntry, 'repo' | 'target' | 'details'>>>
}

interface KeyDbRow {
  team: string
  name: string
  prefix: string
  scope: TeamScope
  repos: string[] | null
  created_at: Date
  [k: string]: unknown
}

const toKey = (r: KeyDbRow): TeamKeyRow => ({team: r.team, name: r.name, prefix: r.prefix, scope: r.scope, repos: r.repos, created: r.created_at})

export function teamTables(pg: PgHandle): TeamStoreTables {
  return {
    async createTeam(team, at, actor) {
      return pg.transaction(async (client) => {
        const made = await client.query('INSERT INTO teams (team, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [team, at])
        if (made.rowCount === 0) throw new MemError('conflict', `A team named ${team} exists already.`, {hint: 'Pick another name, or create keys for it: mem keys create NAME --team ' + team + ' --scope write --store URL.'})
        await client.query('INSERT INTO audit (team, at, actor, action, target) VALUES ($1, $2, $3, $4, $5)', [team, at, actor, 'team.create', team])
        return {team, created: at}
      })
    },

    async listTeams() {
      const rows = await pg.query<{team: string; created_at: Date}>('SELECT team, created_at FROM teams ORDER BY team')
      return rows.map((r) => ({team: r.team, created: r.created_at}))
    },

    async teamExists(team) {
      return (await pg.query('SELECT 1 FROM teams WHERE team = $1', [team])).length > 0
    },

    async insertKey(row, actor) {
      await pg.transaction(async (client) => {
        const team = await client.query('SELECT 1 FROM teams WHERE team = $1 FOR SHARE', [row.team])
        if (team.rows.length === 0) throw unknownTeam(row.team)
        const inserted = await client.query(
          `INSERT INTO api_keys (key_hash, team, name, prefix, scope, repos, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (team, name) WHERE revoked_at IS NULL DO NOTHING`,
          [row.hash, row.team, row.name, row.prefix, row.scope, row.repos, row.created],
        )
        if (inserted.rowCount === 0) {
          throw new MemError('conflict', `Team ${row.team} has a key named ${row.name} already.`, {
            hint: `Revoke it first (mem keys revoke ${row.name} --team ${row.team} --store URL) or pick another name.`,
          })
        }
        await client.query('INSERT INTO audit (team, at, actor, action, target, details) VALUES ($1, $2, $3, $4, $5, $6)', [
          row.team,
          row.created,
          actor,
          'key.create',
          row.name,
          {scope: row.scope, repos: row.repos},
        ])
      })
    },

    async listKeys(team) {
      const rows = await pg.query<KeyDbRow>('SELECT team, name, prefix, scope, repos, created_at FROM api_keys WHERE team = $1 AND revoked_at IS NULL ORDER BY name', [team])
      return rows.map(toKey)
    },

    async revokeKey(team, name, at, actor) {
      return pg.transaction(async (client) => {
        const done = await client.query('UPDATE api_keys SET revoked_at = $3 WHERE team = $1 AND name = $2 AND revoked_at IS NULL', [team, name, at])
        if (done.rowCount === 0) return false
        await client.query('INSERT INTO audit (team, at, actor, action, target) VALUES ($1, $2, $3, $4, $5)', [team, at, actor, 'key.revoke', name])
        return true
      })
    },

    async addAudit(e) {
      await pg.query('INSERT INTO audit (team, at, actor, action, repo, target, details) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
        e.team,
        e.at,
        e.actor.slice(0, 200),
        e.action,
        e.repo ?? null,
        e.target ?? null,
        e.details === undefined ? null : JSON.stringify(e.details),
      ])
    },

    async keyByHash(hash, headOf) {
      if (headOf === undefined) {
        const rows = await pg.query<KeyDbRow>('SELECT team, name, prefix, scope, repos, created_at FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL', [hash])
        return rows.length === 0 ? undefined : toKey(rows[0])
      }
      // one round trip for a request's two reads before its operation: its key, and the head of the
      // repo it names (of the key's own team only)
      const rows = await pg.query<KeyDbRow & {head: string | null}>(
        `SELECT k.team, k.name, k.prefix, k.scope, k.repos, k.created_at, (SELECT r.head FROM repos r WHERE r.team = k.team AND r.repo = $2) AS head
           FROM api_keys k WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
        [hash, headOf],
      )
      return rows.length === 0 ? undefined : {...toKey(rows[0]), head: Number(rows[0].head ?? 0)}
    },

    async audit(team, limit) {
      const rows = await pg.query<{at: Date; actor: string; action: string; repo: string | null; target: string | null; details: Record<string, unknown> | null}>(
        'SELECT at, actor, action, repo, target, details FROM audit WHERE team = $1 ORDER BY id DESC LIMIT $2',
        [team, limit],
      )
      return rows.map((r) => ({at: r.at, actor: r.actor, action: r.action, repo: r.repo ?? undefined, target: r.target ?? undefined, details: r.details ?? undefined}))
    },
  }
}
