// Teams and keys of a team store, against a real Postgres: keys stored as sha-256 only, shown once,
// verified by hash with the scope ladder and the repo list, revoked at once, and teams kept apart.
// And the store URL: where it comes from, and that its password is never shown.
import pg from 'pg'
import {describe, expect, it, onTestFinished} from 'vitest'
import {hashKey} from '../../src/config/api-keys.js'
import {maskUrl, parseStoreUrl, resolveStoreUrl} from '../../src/config/store-url.js'
import {MemError} from '../../src/model/errors.js'
import {createTeam, createTeamKey, listTeamKeys, listTeams, revokeTeamKey, verifyTeamKey} from '../../src/operations/team.js'
import {openTeamDb, type TeamDb} from '../../src/storage/postgres/index.js'
import {freshDatabase} from '../helpers/pg.js'

/** A GitHub token's shape (made up here, never issued). */
const GITHUB_TOKEN = 'ghp_' + 'Zq8xW2mR7tY4uI9oP3aS6dF1gH5jK0lZ8cV2'
const call = {now: new Date('2026-03-01T12:00:00.000Z'), actor: 'cli'}

async function store(): Promise<{db: TeamDb; url: string}> {
  const {url} = await freshDatabase()
  const db = await openTeamDb({url, shown: maskUrl(new URL(url))})
  onTestFinished(() => db.close())
  return {db, url}
}

async function fails(p: Promise<unknown>): Promise<MemError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!(err instanceof MemError)) throw new Error(`expected a MemError, got ${String(err)}`)
  return err
}

/** Every text value of every table mem made, as one string. */
async function everything(url: string): Promise<string> {
  const client = new pg.Client({connectionString: url})
  await client.connect()
  try {
    const out: string[] = []
    for (const t of ['teams', 'api_keys', 'repos', 'ops', 'snapshots', 'maintenance_tasks', 'maintenance_runs', 'audit']) {
      out.push(JSON.stringify((await client.query(`SELECT * FROM ${t}`)).rows))
    }
    return out.join('\n')
  } finally {
    await client.end()
  }
}

describe('teams and keys in a team store', () => {
  it('a key is shown once, stored as its sha-256 (the key text is nowhere in the database), listed without it', async () => {
    const {db, url} = await store()
    expect(await createTeam(db, {name: 'platform'}, call)).toEqual({team: 'platform', created: '2026-03-01T12:00:00.000Z', store: db.pg.shown})
    const created = await createTeamKey(db, {name: 'ci', team: 'platform', scope: 'write'}, call)
    expect(created.key).toMatch(/^mem_[A-Za-z0-9_-]{43}$/)
    expect(created).toMatchObject({team: 'platform', name: 'ci', scope: 'write', repos: null, prefix: created.key.slice(0, 10)})
    const dump = await everything(url)
    expect(dump).not.toContain(created.key)
    expect(dump).not.toContain(created.key.slice(10))
    expect(dump).toContain(hashKey(created.key))
    const listing = await listTeamKeys(db, {team: 'platform'})
    expect(listing.keys).toEqual([{name: 'ci', scope: 'write', repos: null, prefix: created.prefix, created: '2026-03-01T12:00:00.000Z'}])
    expect(JSON.stringify(listing)).not.toContain(created.key)
    expect((await db.teams.audit('platform', 10)).map((a) => [a.action, a.target, a.actor])).toEqual([
      ['key.create', 'ci', 'cli'],
      ['team.create', 'platform', 'cli'],
    ])
  })

  it('verification: the scope ladder, the repo list, revoked and unknown keys, and which team a key is of', async () => {
    const {db} = await store()
    await createTeam(db, {name: 'a'}, call)
    await createTeam(db, {name: 'b'}, call)
    const reader = await createTeamKey(db, {name: 'reader', team: 'a', scope: 'read'}, call)
    const writer = await createTeamKey(db, {name: 'writer', team: 'a', scope: 'write', repos: 'github.com/org/app, github.com/org/lib,github.com/org/app'}, call)
    expect(writer.repos).toEqual(['github.com/org/app', 'github.com/org/lib'])
    const admin = await createTeamKey(db, {name: 'admin', team: 'b', scope: 'admin'}, call)

    expect(await verifyTeamKey(db, reader.key, {scope: 'read', repo: 'github.com/any/thing'})).toEqual({team: 'a', key: 'reader', scope: 'read', repos: null})
    const tooLow = await fails(verifyTeamKey(db, reader.key, {scope: 'write'}))
    expect([tooLow.code, tooLow.status, tooLow.message]).toEqual(['forbidden', 403, "This key's scope (read) does not allow write."])

    expect(await verifyTeamKey(db, writer.key, {scope: 'read', repo: 'github.com/org/lib'})).toMatchObject({team: 'a', scope: 'write'})
    const elsewhere = await fails(verifyTeamKey(db, writer.key, {scope: 'write', repo: 'github.com/org/other'}))
    expect([elsewhere.code, elsewhere.status]).toEqual(['forbidden', 403])
    expect((await fails(verifyTeamKey(db, writer.key, {scope: 'admin', repo: 'github.com/org/app'}))).code).toBe('forbidden')

    // a key says which team it is of: a server looks repos up under that team only
    expect((await verifyTeamKey(db, admin.key, {scope: 'admin', repo: 'github.com/org/app'})).team).toBe('b')

    for (const bad of [undefined, '', 'mem_short', `${reader.key}x`, reader.key.replace(/.$/, reader.key.endsWith('A') ? 'B' : 'A'), 'Bearer ' + reader.key]) {
      const err = await fails(verifyTeamKey(db, bad, {scope: 'read'}))
      expect([err.code, err.status]).toEqual(['unauthorized', 401])
    }

    await revokeTeamKey(db, {team: 'a', name: 'reader'}, call)
    const revoked = await fails(verifyTeamKey(db, reader.key, {scope: 'read'}))
    expect([revoked.code, revoked.message]).toEqual(['unauthorized', 'Invalid API key'])
    // the name may be used again, for a new key
    const again = await createTeamKey(db, {name: 'reader', team: 'a', scope: 'read'}, call)
    expect(again.key).not.toBe(reader.key)
    expect((await listTeamKeys(db, {team: 'a'})).keys.map((k) => k.name)).toEqual(['reader', 'writer'])
  })

  it('teams are apart: the same key name in two teams, lists and revokes by team', async () => {
    const {db} = await store()
    await createTeam(db, {name: 'a'}, call)
    await createTeam(db, {name: 'b'}, call)
    await createTeamKey(db, {name: 'ci', team: 'a', scope: 'write'}, call)
    const bKey = await createTeamKey(db, {name: 'ci', team: 'b', scope: 'read'}, call)
    await revokeTeamKey(db, {team: 'a', name: 'ci'}, call)
    expect((await listTeamKeys(db, {team: 'a'})).keys).toEqual([])
    expect((await listTeamKeys(db, {team: 'b'})).keys.map((k) => [k.name, k.scope])).toEqual([['ci', 'read']])
    expect((await verifyTeamKey(db, bKey.key, {scope: 'read'})).team).toBe('b')
    expect((await listTeams(db)).teams.map((t) => t.team)).toEqual(['a', 'b'])
  })

  it('bad input: a clear error, its code, and nothing written', async () => {
    const {db, url} = await store()
    await createTeam(db, {name: 'a'}, call)
    await createTeamKey(db, {name: 'ci', team: 'a', scope: 'write'}, call)
    const before = await everything(url)
    const cases: Array<[() => Promise<unknown>, string, RegExp]> = [
      [() => createTeam(db, {name: 'a'}, call), 'conflict', /exists already/],
      [() => createTeam(db, {name: 'bad name'}, call), 'invalid_input', /Invalid team name/],
      [() => createTeam(db, {name: 'x/y'}, call), 'invalid_input', /Invalid team name/],
      [() => createTeamKey(db, {name: 'k', team: 'nope', scope: 'read'}, call), 'not_found', /No team nope/],
      [() => createTeamKey(db, {name: 'k', team: 'a', scope: 'root'}, call), 'invalid_input', /Invalid scope "root"/],
      [() => createTeamKey(db, {name: 'ci', team: 'a', scope: 'read'}, call), 'conflict', /has a key named ci already/],
      [() => createTeamKey(db, {name: 'k', team: 'a', scope: 'read', repos: ' , '}, call), 'invalid_input', /lists no repo id/],
      [() => createTeamKey(db, {name: 'k', team: 'a', scope: 'read', repos: '/home/me/app'}, call), 'invalid_input', /never a path/],
      [() => createTeamKey(db, {name: 'k', team: 'a', scope: 'read', repos: '../etc'}, call), 'invalid_input', /never a path/],
      [() => createTeamKey(db, {name: 'k', team: 'a', scope: 'read', repos: Array.from({length: 101}, (_, i) => `r/${i}`)}, call), 'invalid_input', /more than 100/],
      [() => createTeamKey(db, {name: '-k', team: 'a', scope: 'read'}, call), 'invalid_input', /Invalid key name/],
      [() => listTeamKeys(db, {team: 'nope'}), 'not_found', /No team nope/],
      [() => createTeam(db, {name: GITHUB_TOKEN}, call), 'unprocessable', /team name looks like a secret/],
      [() => createTeamKey(db, {name: GITHUB_TOKEN, team: 'a', scope: 'read'}, call), 'unprocessable', /key name looks like a secret/],
      [() => createTeamKey(db, {name: 'k', team: 'a', scope: 'read', repos: `github.com/org/${GITHUB_TOKEN}`}, call), 'unprocessable', /repo id looks like a secret/],
      [() => revokeTeamKey(db, {team: 'a', name: 'nokey'}, call), 'not_found', /has no key named nokey/],
      [() => revokeTeamKey(db, {team: 'nope', name: 'ci'}, call), 'not_found', /No team nope/],
    ]
    for (const [run, code, message] of cases) {
      const err = await fails(run())
      expect([err.code, err.message]).toEqual([code, expect.stringMatching(message)])
      expect(err.hint).toMatch(/\S/)
      expect(JSON.stringify([err.message, err.hint])).not.toContain(GITHUB_TOKEN.slice(4))
    }
    expect(await everything(url)).toBe(before)
  })
})

describe('the store URL', () => {
  it('comes from --store, else MEM_STORE, else the config; none: local mode', () => {
    const env = {MEM_STORE: 'postgres://env@h/db'}
    expect(resolveStoreUrl({flag: 'postgres://flag@h/db', env, config: 'postgres://cfg@h/db'})).toMatchObject({url: 'postgres://flag@h/db', from: '--store'})
    expect(resolveStoreUrl({flag: ' ', env, config: 'postgres://cfg@h/db'})).toMatchObject({url: 'postgres://env@h/db', from: 'MEM_STORE'})
    expect(resolveStoreUrl({env: {MEM_STORE: ''}, config: 'postgres://cfg@h/db'})).toMatchObject({url: 'postgres://cfg@h/db', from: 'config'})
    expect(resolveStoreUrl({env: {}, config: null})).toBe(undefined)
  })

  it('its password (and a password-like parameter) is masked; bad URLs are refused without echoing them', () => {
    expect(parseStoreUrl('postgresql://app:s3cr3t@db.internal:5432/mem?sslmode=require&password=p2', '--store').shown).toBe(
      'postgresql://app:***@db.internal:5432/mem?sslmode=require&password=***',
    )
    const cases: Array<[string, RegExp]> = [
      ['not a url s3cr3t', /is not a URL\.$/],
      ['mysql://u:s3cr3t@h/db', /mysql:\/\/u:\*\*\*@h\/db .* not a Postgres URL/],
      ['postgres://u:s3cr3t@h', /names no database/],
      ['postgres://u:s3cr3t@h/db\u0001', /control character/],
    ]
    for (const [raw, message] of cases) {
      let err: unknown
      try {
        parseStoreUrl(raw, 'MEM_STORE')
      } catch (e) {
        err = e
      }
      expect(err).toBeInstanceOf(MemError)
      expect((err as MemError).code).toBe('invalid_input')
      expect((err as MemError).message).toMatch(message)
      expect(JSON.stringify({m: (err as MemError).message, h: (err as MemError).hint})).not.toContain('s3cr3t')
    }
  })
})
