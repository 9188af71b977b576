import type {Op} from '../../../src/storage/memories.js'
import {describe, expect, it} from 'vitest'
import {browse} from '../../../src/operations/browse.js'
import {consolidate} from '../../../src/operations/consolidate.js'
import {intake} from '../../../src/operations/intake.js'
import {forget} from '../../../src/operations/forget.js'
import {get} from '../../../src/operations/get.js'
import {stats} from '../../../src/operations/stats.js'
import {store} from '../../../src/operations/store.js'
import {MemError} from '../../../src/model/errors.js'
import {acquireMaintenanceLock} from '../../../src/engines/maintenance/lock.js'
import {memRepo, refused, storedId as id} from '../../helpers/mem.js'
import {testMemory} from '../../helpers/memory.js'

type Ctx = ReturnType<typeof memRepo>['ctx']

async function obs(ctx: Ctx, repo: string, content: string, tags: string[] = [], importance = 0.5): Promise<string> {
  return id(await store(ctx, {repo, content, type: 'observation', tags, importance}))
}

const FLAKY = [
  'The payments e2e suite times out when the stripe mock container starts slowly.',
  'Retrying the checkout e2e test fixed a timeout caused by the stripe mock warming up.',
  'Stripe mock needs about 20 seconds before the e2e payment tests can connect.',
]

describe('consolidate', () => {
  it('turns three observations sharing a tag into one insight with derivedFrom, then converges to zeros', async () => {
    const {ctx, repo} = memRepo()
    const ids = [
      await obs(ctx, repo, FLAKY[0], ['e2e', 'stripe'], 0.4),
      await obs(ctx, repo, FLAKY[1], ['e2e'], 0.6),
      await obs(ctx, repo, FLAKY[2], ['stripe', 'e2e'], 0.5),
    ]
    await obs(ctx, repo, 'The docs site is built with Astro and deployed from the gh-pages branch.', ['docs'])

    const r = await consolidate(ctx, {repo})
    expect(r).toEqual({candidates: 1, insightsCreated: 1, insightsBoosted: 0})

    const insights = (await browse(ctx, {repo, type: 'insight'})).entries
    expect(insights).toHaveLength(1)
    const insight = insights[0]
    expect([...insight.derivedFrom].sort()).toEqual([...ids].sort())
    expect(insight.tags).toContain('e2e')
    expect(insight.source).toBe('consolidation')
    // the highest source importance, raised for the two confirming observations
    expect(insight.importance).toBeCloseTo(0.7, 5)
    expect(insight.oneLiner).toBeTruthy()
    expect(insight.oneLiner!.length).toBeLessThanOrEqual(100)
    // it says how often and when it came up, in its text and its one-liner (no two read alike)
    expect(insight.content.split('\n')[0]).toMatch(/ — 3 observations, on 1 Mar\.$/)
    expect(insight.oneLiner).toMatch(/ — 3 observations, on 1 Mar$/)
    // extractive: its sentences come from the sources, more than one of them
    const lines = insight.content.split('\n').map((l) => l.replace(/^- /, '').replace(/ — 3 observations, on 1 Mar\.$/, ''))
    expect(lines.length).toBeGreaterThan(1)
    for (const line of lines) expect(FLAKY.some((f) => f.includes(line.replace(/\.$/, '')))).toBe(true)
    // the observations stay live
    for (const o of ids) expect((await get(ctx, {id: o})).forgottenAt).toBeNull()

    expect(await consolidate(ctx, {repo})).toEqual({candidates: 0, insightsCreated: 0, insightsBoosted: 0})
  })

  it('converges even when settling a cluster shrinks a tag group below the small-group size', async () => {
    const {ctx, repo} = memRepo()
    // seven observations share the tag "infra": too many for the tag alone to make a cluster
    for (const text of FLAKY) await obs(ctx, repo, text, ['infra'])
    for (const text of [
      'Terraform plans run in the infra pipeline on every merge.',
      'The VPN config lives in the infra repository under vpn/.',
      'DNS records are managed by external-dns from the cluster.',
      'Grafana dashboards are provisioned from JSON files.',
    ]) {
      await obs(ctx, repo, text, ['infra'])
    }
    expect(await consolidate(ctx, {repo})).toEqual({candidates: 1, insightsCreated: 1, insightsBoosted: 0})
    // four observations of the tag remain unconsolidated; the group is still the seven it was
    expect(await consolidate(ctx, {repo})).toEqual({candidates: 0, insightsCreated: 0, insightsBoosted: 0})
  })

  it('dry run lists the candidate clusters with their outcome and writes nothing', async () => {
    const {ctx, repo} = memRepo()
    for (const [i, text] of FLAKY.entries()) await obs(ctx, repo, text, ['e2e'], 0.3 + i * 0.1)
    const before = await stats(ctx, {repo})
    const dry = await consolidate(ctx, {repo, dryRun: true})
    expect(dry.candidates).toBe(1)
    expect(dry.insightsCreated).toBe(1)
    expect(dry.clusters).toHaveLength(1)
    expect(dry.clusters![0]).toMatchObject({outcome: 'create', tags: ['e2e'], importance: 0.6})
    expect(dry.clusters![0].memberIds).toHaveLength(3)
    expect(await stats(ctx, {repo})).toEqual(before)
    // and again: nothing changed, so the same answer
    expect((await consolidate(ctx, {repo, dryRun: true})).candidates).toBe(1)
  })

  it('a tag that says where memories came from (intake, source:…) or that most carry makes no cluster by itself', async () => {
    const {ctx, repo} = memRepo()
    // what intake seeds from a small shop repository: unrelated facts that share only their origin tags
    await obs(ctx, repo, 'package.json scripts: dev, build, test, lint.', ['intake', 'source:package.json', 'project'])
    await obs(ctx, repo, 'The checkout test is flaky on CI.', ['intake', 'source:AGENTS.md'])
    await obs(ctx, repo, 'A small web shop selling tea.', ['intake', 'source:README.md', 'project'])
    await obs(ctx, repo, 'Runs on Node 20.', ['intake', 'source:.nvmrc', 'project'])
    expect(await consolidate(ctx, {repo, dryRun: true})).toMatchObject({candidates: 0})
  })

  it('applies some clusters and not others; an id that is no current candidate is refused and nothing is written', async () => {
    const {ctx, repo, clock} = memRepo()
    for (const text of FLAKY) await obs(ctx, repo, text, ['e2e'])
    clock.advance(86_400_000)
    for (const text of [
      'The nightly postgres backup job fails when the disk on db-2 is full. Nobody is paged.',
      'The nightly postgres backup failed again: db-2 disk full. pg_dump logged no space left on device.',
      'Cleaning old WAL files on db-2 freed the disk and the nightly postgres backup passed.',
    ]) {
      await obs(ctx, repo, text, ['db'])
    }
    const dry = await consolidate(ctx, {repo, dryRun: true})
    expect(dry.clusters).toHaveLength(2)
    const [a, b] = dry.clusters!
    expect(a.id).toMatch(/^c-[0-9a-f]{12}$/)
    expect(a.members.map((m) => m.id)).toEqual(a.memberIds)
    expect(a.members.every((m) => m.text.length > 0)).toBe(true)

    await refused(consolidate(ctx, {repo, clusters: [a.id, 'c-000000000000']}), 'not_found', /c-000000000000/)
    expect((await browse(ctx, {repo, type: 'insight'})).count).toBe(0)
    await refused(consolidate(ctx, {repo, clusters: ['nonsense']}), 'invalid_input', /c-0123456789ab/)

    expect(await consolidate(ctx, {repo, clusters: [b.id]})).toEqual({candidates: 2, insightsCreated: 1, insightsBoosted: 0})
    const insights = (await browse(ctx, {repo, type: 'insight'})).entries
    expect(insights.map((i) => [...i.derivedFrom].sort())).toEqual([[...b.memberIds].sort()])
    // b is applied: its id is stale now; a still waits
    await refused(consolidate(ctx, {repo, clusters: [b.id]}), 'not_found')
    expect((await consolidate(ctx, {repo, dryRun: true})).clusters!.map((c) => c.id)).toEqual([a.id])
  })

  it("an insight of intake's seeds says what they say, without the label of their file and headings", async () => {
    const lage = [
      'The project uses lage, a task runner for JavaScript monorepos, to run tests across workspaces.',
      'Lage runs the tests of the workspaces in parallel for faster feedback.',
      'Lage reads its configuration from lage.config.js at the project root.',
      'Lage understands the workspace dependencies and runs the tests in their order.',
    ]
    const {ctx, repo} = memRepo({'AGENTS.md': `# Guide for AI Agents Working with the Shop Monorepo\n\n## Task Orchestration with Lage\n\n${lage.map((l) => `- ${l}`).join('\n')}\n`})
    await intake(ctx, {repo})
    expect(await consolidate(ctx, {repo})).toMatchObject({insightsCreated: 1})
    const insight = (await browse(ctx, {repo, type: 'insight'})).entries[0]
    expect(insight.content).not.toContain('AGENTS.md ›')
    expect(insight.content).not.toContain('Guide for AI Agents')
    expect(insight.content).toMatch(/[Ll]age/)
    expect(insight.oneLiner).not.toContain('›')
  })

  it('clusters mutually similar observations without shared tags', async () => {
    const {ctx, repo} = memRepo()
    await obs(ctx, repo, 'The nightly postgres backup job fails when the disk on db-2 is full. Nobody is paged.')
    await obs(ctx, repo, 'The nightly postgres backup failed again: db-2 disk full. pg_dump logged no space left on device.')
    await obs(ctx, repo, 'Cleaning old WAL files on db-2 freed the disk and the nightly postgres backup passed.')
    await obs(ctx, repo, 'Frontend bundles are analysed with source-map-explorer before each release.')
    await obs(ctx, repo, 'Release notes are generated from conventional commits by changesets.')
    const r = await consolidate(ctx, {repo})
    expect(r).toEqual({candidates: 1, insightsCreated: 1, insightsBoosted: 0})
    const insight = (await browse(ctx, {repo, type: 'insight'})).entries[0]
    expect(insight.derivedFrom).toHaveLength(3)
    expect(insight.content.toLowerCase()).toContain('postgres backup')
  })

  it('counts and skips a merge that only restates one observation, and does not offer it again', async () => {
    const {ctx, repo} = memRepo()
    const whole = await obs(
      ctx,
      repo,
      'Run the migrations with npm run db:migrate before the integration tests. Seed data comes from fixtures/seed.sql.',
      ['db'],
    )
    await obs(ctx, repo, 'Run the migrations with npm run db:migrate before the integration tests.', ['db'])
    await obs(ctx, repo, 'Seed data comes from fixtures/seed.sql.', ['db'])
    const dry = await consolidate(ctx, {repo, dryRun: true})
    expect(dry.clusters![0]).toMatchObject({outcome: 'restates', target: whole})
    expect(await consolidate(ctx, {repo})).toEqual({candidates: 1, insightsCreated: 0, insightsBoosted: 0})
    expect((await browse(ctx, {repo, type: 'insight'})).count).toBe(0)
    expect(await consolidate(ctx, {repo})).toEqual({candidates: 0, insightsCreated: 0, insightsBoosted: 0})
  })

  it('boosts an existing insight that already says it instead of duplicating it', async () => {
    const {ctx, repo, clock} = memRepo()
    const existing = id(
      await store(ctx, {
        repo,
        type: 'insight',
        importance: 0.5,
        content: 'Payment e2e tests time out while the stripe mock container is still starting; give the stripe mock 20 seconds.',
      }),
    )
    clock.advance(60_000)
    const ids = []
    for (const text of FLAKY) ids.push(await obs(ctx, repo, text, ['e2e'], 0.6))
    // planning finds the twin itself (not only the store-time duplicate gate when writing)
    const dry = await consolidate(ctx, {repo, dryRun: true})
    expect(dry.clusters?.map((c) => [c.outcome, c.target])).toEqual([['boost', existing]])
    const r = await consolidate(ctx, {repo})
    expect(r).toEqual({candidates: 1, insightsCreated: 0, insightsBoosted: 1})
    const boosted = await get(ctx, {id: existing})
    expect(boosted.importance).toBeCloseTo(0.75, 5) // max(0.5, cluster 0.7) + 0.05
    expect([...boosted.derivedFrom].sort()).toEqual([...ids].sort())
    expect((await browse(ctx, {repo, type: 'insight'})).count).toBe(1)
    expect(await consolidate(ctx, {repo})).toEqual({candidates: 0, insightsCreated: 0, insightsBoosted: 0})
  })

  it('leaves fewer than three related, forgotten and unrelated observations alone', async () => {
    const {ctx, repo} = memRepo()
    await obs(ctx, repo, FLAKY[0], ['e2e'])
    await obs(ctx, repo, FLAKY[1], ['e2e'])
    const third = await obs(ctx, repo, FLAKY[2], ['e2e'])
    await forget(ctx, {id: third})
    await obs(ctx, repo, 'Lint runs with biome; eslint was removed in March.', ['lint'])
    await obs(ctx, repo, 'The mobile app uses Expo with the new architecture enabled.', ['mobile'])
    expect(await consolidate(ctx, {repo})).toEqual({candidates: 0, insightsCreated: 0, insightsBoosted: 0})
  })

  it('finds clusters among thousands of observations by blocking, and converges', async () => {
    const {ctx, repo} = memRepo()
    const handle = await ctx.repo(repo, 'write')
    const topics = ['kafka consumer lag', 'redis eviction policy', 'terraform state lock', 'webpack chunk hash', 'grpc deadline exceeded']
    const fillers = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima']
    // 2,000 unrelated observations (boilerplate words shared with the topics, a serial word each) and 5 topics with 4 related observations each
    const ops: Op[] = []
    const now = Date.parse('2026-03-01T00:00:00Z')
    const contents: string[] = []
    for (let i = 0; i < 2000; i++) contents.push(`Seen note ${i} again in service ${fillers[i % 12]} after deploy w${i}x${i * 7} for ${fillers[(i * 5) % 12]}${i}`)
    for (const [t, topic] of topics.entries()) {
      for (let k = 0; k < 4; k++) contents.push(`Seen ${topic} again in service after deploy. Ticket z${t}q${k} tracks the ${topic}.`)
    }
    for (const [i, content] of contents.entries()) {
      const createdAt = new Date(now + i * 1000).toISOString()
      ops.push({
        op: 'insert' as const,
        memory: testMemory({id: `memories/${handle.id}/observation/${i.toString(16).padStart(12, '0')}`, repoId: handle.id, content, createdAt}),
      })
    }
    await handle.store.write(() => ({ops, result: null}))
    const dry = await consolidate(ctx, {repo, dryRun: true})
    expect(dry.candidates).toBe(5)
    // each cluster is exactly one topic's four observations
    const clusters = dry.clusters!.map((c) => c.memberIds.map((m) => Number.parseInt(m.split('/').pop()!, 16)).sort((a, b) => a - b))
    expect(clusters.sort((a, b) => a[0] - b[0])).toEqual(topics.map((_, t) => [0, 1, 2, 3].map((k) => 2000 + t * 4 + k)))
    // the members differ only in a ticket number, so each merge restates a member: counted, skipped
    expect(await consolidate(ctx, {repo})).toEqual({candidates: 5, insightsCreated: 0, insightsBoosted: 0})
    expect(await consolidate(ctx, {repo})).toEqual({candidates: 0, insightsCreated: 0, insightsBoosted: 0})
  })

  it('writes the insight through a language-model writer when given, but never text the secret scanner flags', async () => {
    const {ctx, repo} = memRepo()
    for (const text of FLAKY) await obs(ctx, repo, text, ['e2e'])
    const dry = await consolidate(ctx, {repo, dryRun: true}, {writer: async () => ({content: 'Give the stripe mock 20 s before the e2e payment suite.', oneLiner: 'Stripe mock needs 20 s'})})
    expect(dry.clusters![0]).toMatchObject({content: 'Give the stripe mock 20 s before the e2e payment suite.', oneLiner: 'Stripe mock needs 20 s — 3 observations, on 1 Mar'})
    const leaky = await consolidate(ctx, {repo, dryRun: true}, {writer: async () => ({content: `token ghp_${'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'}`})})
    expect(leaky.clusters![0].content).not.toContain('ghp_')
  })

  it('refuses to run while another process holds the maintenance lock', async () => {
    const {ctx, repo} = memRepo()
    for (const text of FLAKY) await obs(ctx, repo, text, ['e2e'])
    const handle = await ctx.repo(repo, 'write')
    const release = await acquireMaintenanceLock(handle.store.dir)
    try {
      const err = await consolidate(ctx, {repo}).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(MemError)
      expect((err as MemError).code).toBe('conflict')
      expect((await consolidate(ctx, {repo, dryRun: true})).candidates).toBe(1)
    } finally {
      await release()
    }
    expect((await consolidate(ctx, {repo})).insightsCreated).toBe(1)
  })
})
