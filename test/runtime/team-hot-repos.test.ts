// Bounded replicas (runtime/team-store.ts): a replica keeps at most its ceiling of repos hot; the
// least recently used idle one is closed (with a snapshot when it has many records since its
// newest) and reopened from the team store on its next request, answering as before.
import {describe, expect, it, vi} from 'vitest'
import {resolveHotRepos} from '../../src/config/hot-repos.js'
import {readUserConfig} from '../../src/config/user-config.js'
import {MemError} from '../../src/model/errors.js'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {tempDir} from '../helpers/mem.js'
import {api, inProcessReplica, teamKey, teamStore} from '../helpers/team-server.js'

const enc = encodeURIComponent
const REPOS = ['github.com/acme/a', 'github.com/acme/b', 'github.com/acme/c', 'github.com/acme/d']

async function recallContents(base: string, key: string, repo: string, q: string): Promise<string[]> {
  const res = await api(base, key, 'GET', `/api/mem/recall?repo=${enc(repo)}&q=${enc(q)}&limit=10`)
  expect(res.status).toBe(200)
  return res.body.results.map((r: any) => r.content)
}

describe('a replica with a ceiling of hot repos', () => {
  it('keeps at most the ceiling hot, evicts the least recently used, and an evicted repo reopens with the same answers and takes writes', async () => {
    const {db, url} = await teamStore()
    const key = await teamKey(db, 'acme', 'agent', 'write')
    const a = await inProcessReplica(url, {name: 'replica-a', hotRepos: 2, maintenance: {schedule: false}})
    const b = await inProcessReplica(url, {name: 'replica-b', maintenance: {schedule: false}})
    for (const repo of REPOS) {
      for (let i = 0; i < 3; i++) {
        const res = await api(a.url, key, 'POST', '/api/mem', {repo, type: 'insight', content: `In ${repo} the queue worker ${i} retries jobs ${i + 2} times`})
        expect(res.status).toBe(201)
      }
    }
    await vi.waitFor(() => expect(a.runtime.hotRepos()).toMatchObject({hot: 2, max: 2}))
    const evictedBefore = a.runtime.hotRepos().evicted
    expect(evictedBefore).toBeGreaterThanOrEqual(2)

    // three rounds over the four repos: every answer right, never more than two hot once a request is over
    for (let round = 0; round < 3; round++) {
      for (const repo of REPOS) {
        const found = await recallContents(a.url, key, repo, 'queue worker retries jobs')
        expect(found.sort()).toEqual([0, 1, 2].map((i) => `In ${repo} the queue worker ${i} retries jobs ${i + 2} times`))
        const stats = await api(a.url, key, 'GET', `/api/mem/stats?repo=${enc(repo)}`)
        expect(stats.status).toBe(200)
        expect(JSON.stringify(stats.body)).toMatch(/"total":3\b/)
        await vi.waitFor(() => expect(a.runtime.hotRepos().hot).toBeLessThanOrEqual(2))
      }
    }
    expect(a.runtime.hotRepos().evicted).toBeGreaterThanOrEqual(evictedBefore + 12)

    // a write to a repo evicted just before, then read through the other replica
    const wrote = await api(a.url, key, 'POST', '/api/mem', {repo: REPOS[0], type: 'insight', content: 'We pin the queue library at its exact version'})
    expect(wrote.status).toBe(201)
    expect((await api(b.url, key, 'GET', `/api/mem/${enc(wrote.body.id)}`)).body.content).toBe('We pin the queue library at its exact version')
    const seqs = await db.pg.query<{seq: string}>('SELECT seq FROM ops WHERE team = $1 AND repo = $2 ORDER BY seq', ['acme', REPOS[0]])
    expect(seqs.map((r) => Number(r.seq))).toEqual(seqs.map((_, i) => i + 1))
    expect(a.internalErrors).toEqual([])
  })

  it('an evicted repo with many records since its newest snapshot keeps a snapshot, and reopens from it', async () => {
    const {db, url} = await teamStore()
    const key = await teamKey(db, 'acme', 'agent', 'write')
    const a = await inProcessReplica(url, {name: 'replica-a', hotRepos: 1, maintenance: {schedule: false}})
    for (let i = 0; i < 60; i++) {
      const res = await api(a.url, key, 'POST', '/api/mem', {repo: REPOS[0], type: 'observation', content: `Build ${i} of the api took ${100 + i} seconds on runner ${i % 7}`})
      expect(res.status).toBe(201)
    }
    const snapshots = async () => Number((await db.pg.query<{n: string}>('SELECT count(*) AS n FROM snapshots WHERE repo = $1', [REPOS[0]]))[0].n)
    expect(await snapshots()).toBe(0)
    // another repo's request evicts the first (ceiling 1)
    expect((await api(a.url, key, 'POST', '/api/mem', {repo: REPOS[1], type: 'insight', content: 'The lint step runs before the tests'})).status).toBe(201)
    await vi.waitFor(async () => expect(await snapshots()).toBe(1))
    const found = await recallContents(a.url, key, REPOS[0], 'Build 59 of the api')
    expect(found).toContain('Build 59 of the api took 159 seconds on runner 3')
  })

  it('repos in use are never closed under a request: concurrent requests over more repos than the ceiling all answer, then it shrinks back', async () => {
    const {db, url} = await teamStore()
    const key = await teamKey(db, 'acme', 'agent', 'write')
    const a = await inProcessReplica(url, {name: 'replica-a', hotRepos: 1, maintenance: {schedule: false}})
    const results = await Promise.all(
      Array.from({length: 24}, (_, i) => {
        const repo = REPOS[i % 3]
        return api(a.url, key, 'POST', '/api/mem', {repo, type: 'insight', content: `Concurrent fact ${i} about ${repo}: the cache holds ${i * 10} entries`})
      }),
    )
    expect(results.map((r) => r.status)).toEqual(results.map(() => 201))
    for (const [i, r] of results.entries()) {
      const got = await api(a.url, key, 'GET', `/api/mem/${enc(r.body.id)}`)
      expect(got.body.content).toBe(`Concurrent fact ${i} about ${REPOS[i % 3]}: the cache holds ${i * 10} entries`)
    }
    await vi.waitFor(() => expect(a.runtime.hotRepos().hot).toBe(1))
    expect(a.internalErrors).toEqual([])
  })
})

describe('the ceiling: MEM_HOT_REPOS, else hotRepos: in config.yaml, else the default', () => {
  it('reads and refuses values', async () => {
    expect(resolveHotRepos({env: {}, config: null}, 50)).toBe(50)
    expect(resolveHotRepos({env: {}, config: 8}, 50)).toBe(8)
    expect(resolveHotRepos({env: {MEM_HOT_REPOS: ' 12 '}, config: 8}, 50)).toBe(12)
    expect(resolveHotRepos({env: {MEM_HOT_REPOS: ''}, config: 8}, 50)).toBe(8)
    for (const bad of ['0', '-1', '1.5', 'ten', '1e3', '100001', '0x10', '9999999999']) {
      let err: unknown
      try {
        resolveHotRepos({env: {MEM_HOT_REPOS: bad}, config: null}, 50)
      } catch (e) {
        err = e
      }
      expect(err, bad).toBeInstanceOf(MemError)
      expect((err as MemError).code).toBe('invalid_input')
      expect((err as MemError).message).toContain('MEM_HOT_REPOS')
    }
    const home = tempDir('mem-hot-home-')
    writeFileSync(join(home, 'config.yaml'), 'hotRepos: 7\n')
    expect((await readUserConfig(home)).hotRepos).toBe(7)
    for (const bad of ['hotRepos: 0\n', 'hotRepos: 2.5\n', 'hotRepos: many\n', 'hotRepos: 200000\n']) {
      writeFileSync(join(home, 'config.yaml'), bad)
      await expect(readUserConfig(home), bad).rejects.toThrow(/hotRepos: must be a whole number from 1 to 100000/)
    }
  })
})
