import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {contextPreview} from '../../src/operations/session-context.js'
import {edit} from '../../src/operations/edit.js'
import {forget} from '../../src/operations/forget.js'
import {get} from '../../src/operations/get.js'
import {linkMemory, linkRepo, listLinks, unlinkMemory} from '../../src/operations/links.js'
import {packExport} from '../../src/operations/pack-export.js'
import {recall} from '../../src/operations/recall.js'
import {stats} from '../../src/operations/stats.js'
import {store} from '../../src/operations/store.js'
import {memRepo, storedId, refused} from '../helpers/mem.js'

/** Two repos in one MEM_HOME; `api` is registered once a command touched it. */
async function twoRepos() {
  const r = memRepo()
  const api = join(r.base, 'api')
  mkdirSync(join(api, '.git'), {recursive: true})
  const apiId = (await stats(r.ctx, {repo: api})) && (await r.ctx.repo(api, 'write')).id
  const appId = (await r.ctx.repo(r.repo, 'write')).id
  return {...r, api, apiId, appId}
}

describe('cross-repo links', () => {
  it('links a registered repo: 201 shape, listed, a memory tagged cross-repo-link', async () => {
    const {ctx, repo, api, apiId, appId} = await twoRepos()
    const link = await linkRepo(ctx, {repo, targetRepo: apiId, note: 'the app calls this API for billing'})
    expect(link).toEqual({id: expect.stringMatching(/^memories\//), from: appId, to: apiId, note: 'the app calls this API for billing'})
    const m = await get(ctx, {id: link.id})
    expect(m.tags).toEqual(['cross-repo-link'])
    expect(m.content).toContain(apiId)
    const listed = await listLinks(ctx, {repo})
    expect(listed).toEqual({repo: appId, links: [{...link, createdAt: m.createdAt}]})
    // a path names the same registered repo; a second link to it is a conflict
    await refused(linkRepo(ctx, {repo, targetRepo: api, note: 'again'}), 'conflict', /already linked/)
  })

  it('refuses an unknown repo, the repo itself, and a note with a secret', async () => {
    const {ctx, repo, appId, apiId} = await twoRepos()
    const err = await refused(linkRepo(ctx, {repo, targetRepo: 'no-such-repo', note: ''}), 'not_found', /Unknown repository no-such-repo/)
    expect(err.hint).toMatch(/mem repos/)
    await refused(linkRepo(ctx, {repo, targetRepo: '/does/not/exist', note: ''}), 'not_found')
    await refused(linkRepo(ctx, {repo, targetRepo: appId}), 'invalid_input', /itself/)
    await refused(linkRepo(ctx, {repo, targetRepo: apiId, note: 'token ghp_1234567890abcdefghijklmnopqrstuvwxyzAB'}), 'unprocessable')
    expect((await listLinks(ctx, {repo})).links).toEqual([])
    expect((await ctx.listRepos()).map((r) => r.repoId)).not.toContain('no-such-repo')
  })

  it('a linked, registered repo is in crossRepoScope and its memories come back in recall, weighted 0.8', async () => {
    const {ctx, repo, api, apiId} = await twoRepos()
    storedId(await store(ctx, {repo: api, content: 'billing API rate limit is 100 requests per minute per key', type: 'insight', importance: 0.5}))
    expect((await recall(ctx, {repo, q: 'billing rate limit'})).results).toEqual([])
    expect((await contextPreview(ctx, {repo})).crossRepoScope).toEqual([])

    const link = await linkRepo(ctx, {repo, targetRepo: apiId, note: 'billing'})
    expect((await contextPreview(ctx, {repo})).crossRepoScope).toEqual([apiId])
    const own = (await recall(ctx, {repo: api, q: 'billing rate limit'})).results[0]
    const seen = (await recall(ctx, {repo, q: 'billing rate limit'})).results
    const hit = seen.find((h) => h.repoId === apiId)!
    expect(hit.id).toBe(own.id)
    expect(hit.score).toBeCloseTo(own.score * 0.8, 3)

    // forgetting the link memory removes the scope again
    await forget(ctx, {id: link.id})
    expect((await contextPreview(ctx, {repo})).crossRepoScope).toEqual([])
    expect((await recall(ctx, {repo, q: 'billing rate limit'})).results.some((h) => h.repoId === apiId)).toBe(false)
  })

  it('the same text in this repo and a linked one comes back once, the local copy', async () => {
    const {ctx, repo, api, apiId} = await twoRepos()
    const text = 'Build the API image with docker build -f apps/api/Dockerfile .'
    const local = storedId(await store(ctx, {repo, content: text, type: 'procedure'}))
    const remote = storedId(await store(ctx, {repo: api, content: text, type: 'procedure'}))
    const onlyThere = storedId(await store(ctx, {repo: api, content: 'The API image is built in CI by the docker job', type: 'observation'}))
    await linkRepo(ctx, {repo, targetRepo: apiId, note: ''})
    const ids = (await recall(ctx, {repo, q: 'docker image build'})).results.map((r) => r.id)
    expect(ids).toContain(local)
    expect(ids).not.toContain(remote)
    expect(ids).toContain(onlyThere)
  })

  it('link memories stay out of packs', async () => {
    const {ctx, repo, apiId} = await twoRepos()
    await store(ctx, {repo, content: 'a memory worth sharing with the team', type: 'insight'})
    await linkRepo(ctx, {repo, targetRepo: apiId, note: 'local only'})
    expect((await packExport(ctx, {repo})).manifest.entryCount).toBe(1)
  })
})

describe('memory links', () => {
  it('adds, shows in get, replaces the relation, and removes', async () => {
    const {ctx, repo} = memRepo()
    const a = storedId(await store(ctx, {repo, content: 'the build uses esbuild for the CLI bundle', type: 'insight'}))
    const b = storedId(await store(ctx, {repo, content: 'npm run build runs tsc then esbuild', type: 'procedure'}))
    expect((await get(ctx, {id: a})).links).toEqual([])
    expect(await linkMemory(ctx, {id: a, targetId: b, relation: 'explained-by'})).toEqual({linked: true})
    expect((await get(ctx, {id: a})).links).toEqual([{targetId: b, relation: 'explained-by'}])
    expect(await linkMemory(ctx, {id: a, targetId: b})).toEqual({linked: true})
    expect((await get(ctx, {id: a})).links).toEqual([{targetId: b, relation: 'related'}])
    // a content edit makes a new version that keeps the links
    const c = storedId(await store(ctx, {repo, content: 'tsc writes the type declarations', type: 'observation'}))
    await linkMemory(ctx, {id: b, targetId: c, relation: 'includes'})
    const newer = await edit(ctx, {id: b, content: 'npm run build runs tsc, then esbuild, then the oclif manifest'})
    if (!newer.success) throw new Error('edit failed')
    expect((await get(ctx, {id: newer.id})).links).toEqual([{targetId: c, relation: 'includes'}])
    expect(await unlinkMemory(ctx, {id: a, targetId: b})).toEqual({removed: true})
    expect(await unlinkMemory(ctx, {id: a, targetId: b})).toEqual({removed: false})
    expect((await get(ctx, {id: a})).links).toEqual([])
  })

  it('refuses unknown memories, self links, bad relations, superseded sources, unlinked repos', async () => {
    const {ctx, repo, api, apiId} = await twoRepos()
    const a = storedId(await store(ctx, {repo, content: 'the build uses esbuild for the CLI bundle', type: 'insight'}))
    const ghost = a.replace(/[0-9a-f]{12}$/, '000000000000')
    await refused(linkMemory(ctx, {id: a, targetId: ghost}), 'not_found')
    await refused(linkMemory(ctx, {id: ghost, targetId: a}), 'not_found')
    await refused(linkMemory(ctx, {id: a, targetId: a}), 'invalid_input', /itself/)
    await refused(linkMemory(ctx, {id: a, targetId: a.replace('insight', 'procedure'), relation: 'Not A Word!'}), 'invalid_input', /relation/)
    const other = storedId(await store(ctx, {repo: api, content: 'the API has a health endpoint at /healthz', type: 'observation'}))
    await refused(linkMemory(ctx, {id: a, targetId: other}), 'not_found', /not linked/)
    await linkRepo(ctx, {repo, targetRepo: apiId})
    expect(await linkMemory(ctx, {id: a, targetId: other, relation: 'depends-on'})).toEqual({linked: true})
    const e = await edit(ctx, {id: a, content: 'the build uses esbuild for the CLI bundle and tsc for types'})
    expect(e.success).toBe(true)
    const b = storedId(await store(ctx, {repo, content: 'tsc emits the declarations', type: 'observation'}))
    await refused(linkMemory(ctx, {id: a, targetId: b}), 'conflict', /superseded/)
  })
})
