// `mem serve --store` in team mode, against the real Postgres: the core operations over HTTP and
// MCP through two replicas (two servers of this process, each with its own pool and replica
// stores) on one database; tenancy (another team's repos and ids, a repo-scoped key, paths as
// repos, revoked keys); Postgres unreachable → 503 and nothing acknowledged; recall through a
// replica and through the local store give the same ids and scores.
import {describe, expect, it} from 'vitest'
import {rows} from '../../helpers/pg.js'
import {revokeTeamKey} from '../../../src/operations/team.js'
import {httpMcpClient, type ToolResult} from '../../helpers/mcp.js'
import {fixedClock} from '../../helpers/mem.js'
import {memServer} from '../../helpers/server.js'
import {api, inProcessReplica, pgRelay, teamKey, teamStore} from '../../helpers/team-server.js'

const REPO = 'github.com/acme/app'

const enc = encodeURIComponent

describe('mem serve --store: the core operations over two replicas', () => {
  it('store on one replica, then get, recall, feedback, forget and context on either: each answer has every write before it', async () => {
    const {db, url} = await teamStore()
    const key = await teamKey(db, 'acme', 'agent', 'write')
    const a = await inProcessReplica(url, {name: 'a'})
    const b = await inProcessReplica(url, {name: 'b'})

    const stored = await api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'procedure', content: 'Run npm run db:migrate before starting the API server locally'})
    expect(stored.status).toBe(201)
    const id: string = stored.body.id
    // the id carries the team repo id with '/' as '~' (memory ids hold one segment for their repo)
    expect(id).toMatch(/^memories\/github\.com~acme~app\/procedure\/[0-9a-f]{12}$/)

    const got = await api(b.url, key, 'GET', `/api/mem/${enc(id)}`)
    expect(got.status).toBe(200)
    expect(got.body.content).toBe('Run npm run db:migrate before starting the API server locally')
    const recalled = await api(b.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=migrate`)
    expect(recalled.status).toBe(200)
    expect(recalled.body.results.map((r: any) => r.id)).toEqual([id])

    // feedback alternating between the replicas: every count lands
    for (let i = 0; i < 6; i++) {
      const res = await api(i % 2 ? a.url : b.url, key, 'POST', '/api/mem/feedback', {memoryId: id, wasUsed: i < 4})
      expect(res.status).toBe(200)
    }
    for (const r of [a, b]) {
      const m = (await api(r.url, key, 'GET', `/api/mem/${enc(id)}`)).body
      expect([m.usedCount, m.unusedCount]).toEqual([4, 2])
    }

    const context = await api(a.url, key, 'GET', `/api/mem/context?repo=${enc(REPO)}`)
    expect(context.status).toBe(200)
    expect(context.body.context).toContain('db:migrate')

    const forgotten = await api(b.url, key, 'DELETE', `/api/mem/${enc(id)}?reason=${enc('moved to make')}`)
    expect(forgotten.status).toBe(200)
    const after = await api(a.url, key, 'GET', `/api/mem/${enc(id)}`)
    expect(after.body.forgottenAt).not.toBeNull()
    expect((await api(a.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=migrate`)).body.results).toEqual([])

    // the log: gapless seqs from 1; what the requests wrote names their key, the replicas' own writes (recall counters) the replica
    const ops = await rows(url, 'SELECT seq, actor FROM ops WHERE team = $1 AND repo = $2 ORDER BY seq', ['acme', REPO])
    expect(ops.map((r) => Number(r.seq))).toEqual(ops.map((_, i) => i + 1))
    expect(ops.map((r) => r.actor)).toContain('key:agent')
    expect(ops.filter((r) => !['key:agent', 'a', 'b'].includes(r.actor))).toEqual([])
    expect([...a.internalErrors, ...b.internalErrors]).toEqual([])
  })

  it('MCP on /mcp answers over the team store too, with the team key', async () => {
    const {db, url} = await teamStore()
    const key = await teamKey(db, 'acme', 'agent', 'write')
    const a = await inProcessReplica(url, {name: 'a'})
    const b = await inProcessReplica(url, {name: 'b'})
    const ca = await httpMcpClient(a.url, {apiKey: key, query: `?repo=${enc(REPO)}`})
    const cb = await httpMcpClient(b.url, {apiKey: key, query: `?repo=${enc(REPO)}`})
    const stored = (await ca.callTool({name: 'memory_store', arguments: {repo: REPO, type: 'heuristic', content: 'Prefer pnpm over npm in the monorepo workspace'}})) as ToolResult
    expect(stored.isError ?? false).toBe(false)
    const id = stored.structuredContent.id as string
    const recalled = (await cb.callTool({name: 'memory_recall', arguments: {repo: REPO, query: 'pnpm workspace'}})) as ToolResult
    expect(recalled.isError ?? false).toBe(false)
    expect(recalled.structuredContent.results.map((r: any) => r.id)).toEqual([id])
    // without a key, /mcp is refused like every other route
    const bare = await api(a.url, undefined, 'POST', '/mcp', {jsonrpc: '2.0', id: 1, method: 'tools/list'})
    expect(bare.status).toBe(401)
  })
})

describe('mem serve --store: maintenance', () => {
  it('one pass per repo across replicas: while another holds the repo\'s lock a pass is a 409 on any replica; once freed it runs', async () => {
    const {db, url} = await teamStore()
    const key = await teamKey(db, 'acme', 'ops', 'admin')
    const a = await inProcessReplica(url, {name: 'a'})
    expect((await api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'Nightly builds publish to the staging bucket'})).status).toBe(201)
    // another replica's pass, as Postgres sees it: the repo's advisory lock held by another connection
    const held = await db.ops.tryMaintenanceLock('acme', REPO)
    expect(held).not.toBeNull()
    const refused = await api(a.url, key, 'POST', `/api/maintenance?repo=${enc(REPO)}`)
    expect([refused.status, refused.body.code]).toEqual([409, 'conflict'])
    await held!.release()
    const ran = await api(a.url, key, 'POST', `/api/maintenance?repo=${enc(REPO)}`)
    expect(ran.status).toBe(200)
    expect(ran.body.stages.length).toBeGreaterThan(0)
    // and the pass let go of the lock: another can take it
    const again = await db.ops.tryMaintenanceLock('acme', REPO)
    expect(again).not.toBeNull()
    await again!.release()
  })
})

describe('mem serve --store: tenancy', () => {
  it('another team gets 404 for the repos and ids of this one; a repo-scoped key 403 elsewhere; a path as repo 400; a revoked key 401; nothing is written by any of them', async () => {
    const {db, url} = await teamStore()
    const acme = await teamKey(db, 'acme', 'agent', 'write')
    const other = await teamKey(db, 'other', 'agent', 'admin')
    const scoped = await teamKey(db, 'acme', 'lib-only', 'write', ['github.com/acme/lib'])
    const reader = await teamKey(db, 'acme', 'reader', 'read')
    const a = await inProcessReplica(url, {name: 'a'})
    const stored = await api(a.url, acme, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'The billing service retries webhooks three times with backoff'})
    const id: string = stored.body.id
    const before = await rows(url, 'SELECT count(*)::int AS n FROM ops')

    // another team: its repo and its ids are not found, not forbidden (no existence leak)
    const notFound = [
      await api(a.url, other, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=billing`),
      await api(a.url, other, 'GET', `/api/mem/${enc(id)}`),
      await api(a.url, other, 'POST', '/api/mem/feedback', {memoryId: id, wasUsed: true}),
      await api(a.url, other, 'DELETE', `/api/mem/${enc(id)}`),
      await api(a.url, other, 'GET', `/api/mem/context?repo=${enc('github.com~acme~app')}`),
    ]
    for (const res of notFound) expect([res.status, res.body.code]).toEqual([404, 'not_found'])
    // the same answer as for a repo nobody has
    const nobody = await api(a.url, other, 'GET', `/api/mem/recall?repo=${enc('github.com/nobody/none')}&q=billing`)
    expect(nobody.body).toEqual({...notFound[0].body, error: notFound[0].body.error.replace(REPO, 'github.com/nobody/none')})
    expect((await api(a.url, other, 'GET', '/api/mem/repos')).body.repos).toEqual([])

    // a key for some repos of the team: 403 for the others, through a repo or an id
    for (const res of [
      await api(a.url, scoped, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=billing`),
      await api(a.url, scoped, 'GET', `/api/mem/${enc(id)}`),
      await api(a.url, scoped, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'Scoped keys must not write here at all'}),
    ]) {
      expect([res.status, res.body.code]).toEqual([403, 'forbidden'])
    }
    // a read key cannot write
    expect((await api(a.url, reader, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'Readers must not write here at all'})).status).toBe(403)

    // a path, an encoded path, a Windows path, a traversal: 400 naming the rule
    for (const repo of ['/etc', '/home/me/app', '..', 'github.com/../etc', 'C:\\src\\app', './app', '~/app']) {
      const res = await api(a.url, acme, 'GET', `/api/mem/recall?repo=${enc(repo)}&q=billing`)
      expect([res.status, res.body.code], repo).toEqual([400, 'invalid_input'])
    }
    const path = await api(a.url, acme, 'POST', '/api/mem', {repo: '/tmp/app', type: 'insight', content: 'A path is never a team repo at all'})
    expect(path.status).toBe(400)
    expect(path.body.error).toContain('never a path')

    // no key, a malformed header, an unknown key, a revoked key: 401
    expect((await api(a.url, undefined, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=billing`)).status).toBe(401)
    const malformed = await fetch(`${a.url}/api/mem/repos`, {headers: {authorization: `Basic ${acme}`}})
    expect(malformed.status).toBe(401)
    expect((await api(a.url, `mem_${'A'.repeat(43)}`, 'GET', '/api/mem/repos')).status).toBe(401)
    await revokeTeamKey(db, {team: 'acme', name: 'agent'}, {now: new Date(), actor: 'test'})
    expect((await api(a.url, acme, 'GET', `/api/mem/${enc(id)}`)).status).toBe(401)

    expect(await rows(url, 'SELECT count(*)::int AS n FROM ops')).toEqual(before)
    expect(a.internalErrors).toEqual([])
  })
})

describe('mem serve --store: Postgres unreachable', () => {
  it('answers 503 unavailable while Postgres cannot be reached, acknowledges nothing it did not commit, and serves again after', async () => {
    const {db, url} = await teamStore()
    const key = await teamKey(db, 'acme', 'agent', 'write')
    const relay = await pgRelay(url)
    const a = await inProcessReplica(relay.url, {name: 'a'})
    const first = await api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'Deploys go out from the main branch only'})
    expect(first.status).toBe(201)

    await relay.down()
    const down = [
      await api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'This one is written while Postgres is away'}),
      await api(a.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=deploys`),
    ]
    for (const res of down) expect([res.status, res.body.code]).toEqual([503, 'unavailable'])
    // the message names the store by its masked URL and no driver text
    expect(down[0].body.error).toMatch(/^Postgres at postgres:\/\/.* cannot be reached|gave no connection in time/)

    await relay.up()
    const recalled = await api(a.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=deploys%20written%20away`)
    expect(recalled.status).toBe(200)
    expect(recalled.body.results.map((r: any) => r.id)).toEqual([first.body.id])
    const ops = await rows(url, 'SELECT seq FROM ops ORDER BY seq')
    expect(ops.map((r) => Number(r.seq))).toEqual(ops.map((_, i) => i + 1))
    expect(JSON.stringify(await rows(url, 'SELECT record FROM ops'))).not.toContain('while Postgres is away')
  })
})

describe('mem serve --store: recall runs the local code', () => {
  it('the same memories give the same ids (but for the repo segment) and scores through a replica and through the local mem serve', async () => {
    const clock = fixedClock('2026-03-01T12:00:00.000Z')
    const {db, url} = await teamStore()
    const key = await teamKey(db, 'acme', 'agent', 'write')
    const team = await inProcessReplica(url, {name: 'a', clock})
    const local = await memServer({clock})
    const topics = ['database migrations', 'webhook retries', 'release branch', 'flaky tests', 'cache invalidation', 'feature flags']
    const contents: string[] = []
    topics.forEach((t, i) => {
      for (let j = 0; j < 4; j++) contents.push(`Note ${i}.${j} about ${t}: ${['check', 'avoid', 'prefer', 'document'][j]} the ${t} step ${j * 7 + i} in service ${['api', 'worker', 'web', 'cli'][j]}`)
    })
    for (const [i, content] of contents.entries()) {
      const type = ['insight', 'procedure', 'heuristic', 'observation'][i % 4]
      expect((await api(team.url, key, 'POST', '/api/mem', {repo: REPO, type, content})).status).toBe(201)
      expect((await api(local.url, undefined, 'POST', '/api/mem', {repo: local.root, type, content})).status).toBe(201)
      clock.advance(60_000)
    }
    const localKey = (id: string) => id.split('/').slice(2).join('/')
    for (const q of ['migrations step', 'webhook retries worker', 'flaky tests', 'prefer the cache', 'document feature flags cli', 'release']) {
      const t = (await api(team.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=${enc(q)}&limit=10`)).body.results
      const l = (await api(local.url, undefined, 'GET', `/api/mem/recall?repo=${enc(local.root)}&q=${enc(q)}&limit=10`)).body.results
      expect(t.length, q).toBeGreaterThan(0)
      expect(t.map((r: any) => [r.content, r.score]), q).toEqual(l.map((r: any) => [r.content, r.score]))
      // ids are made from the repo and the content: the same key once the repo segment is set aside
      expect(t.map((r: any) => localKey(r.id)), q).toEqual(l.map((r: any) => localKey(r.id)))
    }
  })
})
