import {existsSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {openMem} from '../../src/runtime/open-mem.js'
import {browse} from '../../src/operations/browse.js'
import {edit} from '../../src/operations/edit.js'
import {feedback} from '../../src/operations/feedback.js'
import {forget} from '../../src/operations/forget.js'
import {get} from '../../src/operations/get.js'
import {history} from '../../src/operations/history.js'
import {recall} from '../../src/operations/recall.js'
import {stats} from '../../src/operations/stats.js'
import {store} from '../../src/operations/store.js'
import {memRepo, storedId, refused as rejects} from '../helpers/mem.js'

describe('store', () => {
  it('stores a memory with defaults and an id of the specified shape', async () => {
    const {ctx, repo, clock} = memRepo()
    const r = await store(ctx, {repo, content: 'integration suite: npm run test:int, needs docker', type: 'procedure'})
    const id = storedId(r)
    expect(r).toEqual({success: true, id})
    const repoId = repo.replace(/[:\\/._]/g, '-')
    expect(id).toMatch(new RegExp(`^memories/${repoId}/procedure/[0-9a-f]{12}$`))
    const m = await get(ctx, {id})
    expect(m).toMatchObject({
      repoId,
      type: 'procedure',
      importance: 0.5,
      source: 'claude-session',
      sessionId: null,
      tags: [],
      supersedes: null,
      supersededBy: null,
      forgottenAt: null,
      createdAt: clock().toISOString(),
      usedCount: 0,
      unusedCount: 0,
    })
    expect(m.oneLiner).toBe('integration suite: npm run test:int, needs docker')
  })

  it('normalizes tags and keeps importance, source and session', async () => {
    const {ctx, repo} = memRepo()
    const id = storedId(
      await store(ctx, {
        repo,
        content: 'Deploys go through the release branch',
        type: 'heuristic',
        tags: [' Release ', 'CI', 'ci', 'two words', ''],
        importance: 0.8,
        source: 'git-hook',
        sessionId: 's-1',
      }),
    )
    expect(await get(ctx, {id})).toMatchObject({tags: ['release', 'ci', 'two-words'], importance: 0.8, source: 'git-hook', sessionId: 's-1'})
  })

  it('reports an exact duplicate after folding case, whitespace and punctuation, across types', async () => {
    const {ctx, repo} = memRepo()
    const id = storedId(await store(ctx, {repo, content: 'Run `npm test` before pushing.', type: 'procedure'}))
    expect(await store(ctx, {repo, content: '  run npm TEST before   pushing ', type: 'heuristic'})).toEqual({
      success: false,
      duplicateId: id,
      reason: 'duplicate',
    })
    expect((await stats(ctx, {repo})).total).toBe(1)
  })

  it('reports a near-duplicate (word shingles, stemmed) but not a different statement', async () => {
    const {ctx, repo} = memRepo()
    const id = storedId(
      await store(ctx, {
        repo,
        content: 'The checkout e2e test is flaky on CI because the payment sandbox times out after thirty seconds under load',
        type: 'observation',
      }),
    )
    const near = await store(ctx, {
      repo,
      content: 'The checkout e2e tests are flaky on CI because the payment sandbox times out after thirty seconds under load',
      type: 'observation',
    })
    expect(near).toEqual({success: false, duplicateId: id, reason: 'duplicate'})
    const different = await store(ctx, {
      repo,
      content: 'The checkout e2e test is stable on CI since the payment sandbox was mocked with a local stub server',
      type: 'observation',
    })
    expect(different.success).toBe(true)
  })

  it('finds near-duplicates of edited memories by their new text (band keys follow edits)', async () => {
    const {ctx, repo} = memRepo()
    const first = 'The checkout e2e test is flaky on CI because the payment sandbox times out after thirty seconds under load'
    const edited = 'The payment sandbox was replaced by a local stub server so the checkout e2e test is stable on CI now'
    const id = storedId(await store(ctx, {repo, content: first, type: 'observation'}))
    await store(ctx, {repo, content: 'Release notes are generated from conventional commit messages by the release job', type: 'procedure'})
    const version = await edit(ctx, {id, content: edited})
    expect(version).toMatchObject({success: true, superseded: id})
    const newId = (version as {id: string}).id
    expect(await store(ctx, {repo, content: edited.replace('test is', 'tests are'), type: 'observation'})).toEqual({success: false, duplicateId: newId, reason: 'duplicate'})
    expect((await store(ctx, {repo, content: first.replace('test is', 'tests are'), type: 'observation'})).success).toBe(true)
  })

  it('never treats a negated statement as a duplicate', async () => {
    const {ctx, repo} = memRepo()
    await store(ctx, {repo, content: 'Always use the shared build cache in CI jobs for the web app', type: 'heuristic'})
    const negated = await store(ctx, {repo, content: 'Never use the shared build cache in CI jobs for the web app', type: 'heuristic'})
    expect(negated.success).toBe(true)
    const not = await store(ctx, {repo, content: 'Do not use the shared build cache in CI jobs for the web app', type: 'heuristic'})
    expect(not.success).toBe(true)
  })

  it('rejects secrets without writing or echoing them', async () => {
    const {ctx, repo} = memRepo()
    const secret = 'AKIA' + 'IOSFODNN7EXAMPLQ'
    const r = await store(ctx, {repo, content: `deploy key for staging is ${secret}`, type: 'observation'})
    expect(r.success).toBe(false)
    expect('reason' in r && r.reason).toMatch(/AWS|aws/)
    expect(JSON.stringify(r)).not.toContain(secret)
    expect((await stats(ctx, {repo})).total).toBe(0)
  })

  it('rejects content the content gate flags', async () => {
    const {ctx, repo} = memRepo()
    const r = await store(ctx, {repo, content: '--- *** ---', type: 'observation'})
    expect(r).toMatchObject({success: false})
    expect('reason' in r && r.reason).toMatch(/no-words/)
  })

  it('validates input: missing content, unknown type, importance range, length, malformed supersedes', async () => {
    const {ctx, repo} = memRepo()
    await rejects(store(ctx, {repo, content: '   ', type: 'observation'}), 'invalid_input', /content/)
    await rejects(store(ctx, {repo, content: undefined as unknown as string, type: 'observation'}), 'invalid_input', /content/)
    await rejects(store(ctx, {repo, content: 'x y z', type: 'fact' as 'insight'}), 'invalid_input', /type/)
    await rejects(store(ctx, {repo, content: 'x y z', type: 'insight', importance: 1.5}), 'invalid_input', /importance/)
    await rejects(store(ctx, {repo, content: 'x y z', type: 'insight', importance: -0.1}), 'invalid_input', /importance/)
    await rejects(store(ctx, {repo, content: 'x y z', type: 'insight', importance: Number.NaN}), 'invalid_input', /importance/)
    await rejects(store(ctx, {repo, content: 'a'.repeat(16_001), type: 'insight'}), 'invalid_input', /16,000/)
    await rejects(store(ctx, {repo, content: 'x y z', type: 'insight', supersedes: 'nope'}), 'invalid_input', /supersedes/)
    await rejects(store(ctx, {repo: '', content: 'x y z', type: 'insight'}), 'invalid_input', /repo/)
    await rejects(store(ctx, {content: 'x y z', type: 'insight'} as never), 'invalid_input', /^Invalid repo: repo is required$/)
    expect((await stats(ctx, {repo})).total).toBe(0)
  })

  it('accepts content of exactly the limit', async () => {
    const {ctx, repo} = memRepo()
    const words = Array.from({length: 2000}, (_, i) => `w${i}`).join(' ')
    const content = words.padEnd(16_000, '.').slice(0, 16_000)
    expect((await store(ctx, {repo, content, type: 'observation'})).success).toBe(true)
  })

  it('supersedes: the old entry stays readable, drops out of counts and recall, and the chain links them', async () => {
    const {ctx, repo, clock} = memRepo()
    const v1 = storedId(await store(ctx, {repo, content: 'Use node 18 for the api service', type: 'heuristic'}))
    clock.advance(60_000)
    const v2 = storedId(await store(ctx, {repo, content: 'Use node 20.19 for the api service since March', type: 'heuristic', supersedes: v1}))
    expect((await get(ctx, {id: v1})).supersededBy).toBe(v2)
    expect((await stats(ctx, {repo})).counts.heuristic).toBe(1)
    expect((await history(ctx, {id: v1})).chain.map((c) => c.id)).toEqual([v2, v1])
    expect((await recall(ctx, {repo, q: 'node api service'})).results.map((r) => r.id)).toEqual([v2])
    await rejects(store(ctx, {repo, content: 'Use node 22 for the api service', type: 'heuristic', supersedes: v1}), 'conflict', /superseded/)
    await rejects(
      store(ctx, {repo, content: 'Use bun', type: 'heuristic', supersedes: 'memories/x/heuristic/000000000000'}),
      'not_found',
    )
  })
})

describe('edit', () => {
  it('a content edit makes a new version; a metadata edit updates in place', async () => {
    const {ctx, repo, clock} = memRepo()
    const id = storedId(await store(ctx, {repo, content: 'Lint with eslint before commit', type: 'procedure', tags: ['lint']}))
    clock.advance(1000)
    const meta = await edit(ctx, {id, tags: ['lint', 'ci'], importance: 0.9})
    expect(meta).toEqual({success: true, id, superseded: null})
    expect(await get(ctx, {id})).toMatchObject({tags: ['lint', 'ci'], importance: 0.9, supersededBy: null})

    const changed = await edit(ctx, {id, content: 'Lint with biome before commit (eslint was removed)'})
    expect(changed.success).toBe(true)
    if (!changed.success) return
    expect(changed.superseded).toBe(id)
    expect(changed.id).not.toBe(id)
    const next = await get(ctx, {id: changed.id})
    expect(next).toMatchObject({tags: ['lint', 'ci'], importance: 0.9, supersedes: id, type: 'procedure'})
    expect((await history(ctx, {id: changed.id})).chain.map((c) => c.id)).toEqual([changed.id, id])
    await rejects(edit(ctx, {id, importance: 0.1}), 'conflict', /superseded/)
  })

  it('needs at least one field, a known id, and rejects secrets in new content', async () => {
    const {ctx, repo} = memRepo()
    const id = storedId(await store(ctx, {repo, content: 'Staging runs on fly.io', type: 'observation'}))
    const nothing = await rejects(edit(ctx, {id}), 'invalid_input', /^Nothing to edit: give at least one of content, tags, importance\.$/)
    // the hint says what an edit needs, not how long a memory's text may be
    expect(nothing.hint).toBe('Send what changes: new content (a new version), tags or importance, at least one.')
    await rejects(edit(ctx, {id: 'memories/x/insight/abcdefabcdef', importance: 0.2}), 'not_found')
    const r = await edit(ctx, {id, content: 'Staging db is postgres://admin:hunter2hunter2@db.internal:5432/app'})
    expect(r.success).toBe(false)
    expect(JSON.stringify(r)).not.toContain('hunter2')
    expect((await get(ctx, {id})).supersededBy).toBeNull()
  })
})

describe('forget and feedback', () => {
  it('forget is soft, keeps the reason, and is reported once', async () => {
    const {ctx, repo} = memRepo()
    const id = storedId(await store(ctx, {repo, content: 'The cache layer uses redis 7', type: 'observation'}))
    expect(await forget(ctx, {id, reason: 'moved to valkey'})).toEqual({forgotten: true})
    expect(await forget(ctx, {id})).toEqual({forgotten: false})
    expect(await get(ctx, {id})).toMatchObject({forgetReason: 'moved to valkey'})
    expect((await get(ctx, {id})).forgottenAt).not.toBeNull()
    expect((await stats(ctx, {repo})).total).toBe(0)
    expect((await browse(ctx, {repo})).count).toBe(0)
    expect((await recall(ctx, {repo, q: 'redis cache'})).results).toEqual([])
    await rejects(forget(ctx, {id: 'memories/x/insight/abcdefabcdef'}), 'not_found')
  })

  it('feedback updates used and unused counts', async () => {
    const {ctx, repo} = memRepo()
    const id = storedId(await store(ctx, {repo, content: 'Run migrations with npm run db:migrate', type: 'procedure'}))
    expect(await feedback(ctx, {memoryId: id, wasUsed: true})).toEqual({applied: true})
    expect(await feedback(ctx, {memoryId: id, wasUsed: true})).toEqual({applied: true})
    expect(await feedback(ctx, {memoryId: id, wasUsed: false})).toEqual({applied: true})
    expect(await get(ctx, {id})).toMatchObject({usedCount: 2, unusedCount: 1})
    await forget(ctx, {id})
    expect(await feedback(ctx, {memoryId: id, wasUsed: true})).toEqual({applied: false})
    await rejects(feedback(ctx, {memoryId: 'bad', wasUsed: true}), 'invalid_input', /memoryId/)
  })
})

describe('stats, browse, get', () => {
  it('counts by type and summarizes', async () => {
    const {ctx, repo} = memRepo()
    expect(await stats(ctx, {repo})).toEqual({
      repo,
      summary: 'No memories yet.',
      counts: {observation: 0, insight: 0, procedure: 0, heuristic: 0},
      total: 0,
    })
    await store(ctx, {repo, content: 'Observation one about the build', type: 'observation'})
    await store(ctx, {repo, content: 'Insight: caching the lockfile halves CI time', type: 'insight'})
    await store(ctx, {repo, content: 'Procedure: release with npm run release', type: 'procedure'})
    const s = await stats(ctx, {repo})
    expect(s.counts).toEqual({observation: 1, insight: 1, procedure: 1, heuristic: 0})
    expect(s.total).toBe(3)
    expect(s.summary).toBe('3 memories: 1 observation, 1 insight, 1 procedure.')
  })

  it('refuses a blank or missing repo in stats like every other operation', async () => {
    const {ctx} = memRepo()
    await rejects(stats(ctx, {repo: '  '}), 'invalid_input', /repo is required/)
    await rejects(stats(ctx, {} as never), 'invalid_input', /repo is required/)
  })

  it('counts from the database when the counts file is stale or missing', async () => {
    const {ctx, repo, home} = memRepo()
    await store(ctx, {repo, content: 'Heuristic: prefer small pull requests', type: 'heuristic'})
    await ctx.close()
    expect(existsSync(join(repo, '.mem', 'counts.json'))).toBe(true)
    rmSync(join(repo, '.mem', 'counts.json'))
    const reopened = openMem({home, cwd: repo})
    try {
      expect((await stats(reopened, {repo})).counts).toEqual({observation: 0, insight: 0, procedure: 0, heuristic: 1})
    } finally {
      await reopened.close()
    }
  })

  it('browses newest first with skip, take, type and a total count', async () => {
    const {ctx, repo, clock} = memRepo()
    const ids: string[] = []
    for (let i = 0; i < 7; i++) {
      clock.advance(1000)
      ids.push(storedId(await store(ctx, {repo, content: `memory number ${i} about topic ${i * 7}`, type: i % 2 ? 'insight' : 'observation'})))
    }
    const page = await browse(ctx, {repo, skip: 2, take: 3})
    expect(page).toMatchObject({skip: 2, take: 3, count: 7})
    expect(page.repo).toBe(repo.replace(/[:\\/._]/g, '-'))
    expect(page.entries.map((e) => e.id)).toEqual([ids[4], ids[3], ids[2]])
    const insights = await browse(ctx, {repo, type: 'insight'})
    expect(insights.count).toBe(3)
    expect(insights.take).toBe(50)
    await rejects(browse(ctx, {repo, take: 0}), 'invalid_input', /take/)
    await rejects(browse(ctx, {repo, take: 501}), 'invalid_input', /take/)
    await rejects(browse(ctx, {repo, skip: -1}), 'invalid_input', /skip/)
  })

  it('get rejects malformed ids and reports unknown ones', async () => {
    const {ctx} = memRepo()
    await rejects(get(ctx, {id: 'memories/x'}), 'invalid_input', /id/)
    await rejects(get(ctx, {id: 'memories/x/insight/abcdefabcdef'}), 'not_found', /No memory/)
  })
})
