import {describe, expect, it} from 'vitest'
import {browse} from '../../../src/operations/browse.js'
import {get} from '../../../src/operations/get.js'
import {maintain, type MaintenanceProgress} from '../../../src/operations/maintain.js'
import {stats} from '../../../src/operations/stats.js'
import {MemError} from '../../../src/model/errors.js'
import {OWN_ORIGIN, type Memory} from '../../../src/model/memory.js'
import {heuristicOneLiner} from '../../../src/engines/enrichment/heuristic.js'
import {decayed} from '../../../src/engines/maintenance/decay.js'
import {acquireMaintenanceLock} from '../../../src/engines/maintenance/lock.js'
import {STAGES} from '../../../src/engines/maintenance/pipeline.js'
import {DEFAULT_POLICY, STAGE_NAMES} from '../../../src/engines/maintenance/types.js'
import {getMemory} from '../../../src/storage/memories.js'
import {memRepo} from '../../helpers/mem.js'
import {testMemory} from '../../helpers/memory.js'

const DAY = 24 * 60 * 60 * 1000
const NOW = '2026-03-01T12:00:00.000Z'

function daysAgo(days: number): string {
  return new Date(Date.parse(NOW) - days * DAY).toISOString()
}

/** A repo at NOW, and `put` to insert memories with any field (timestamps in the past included). */
function setup() {
  const r = memRepo()
  let n = 0
  const put = async (m: Partial<Memory> & {content: string}): Promise<string> => {
    const handle = await r.ctx.repo(r.repo, 'write')
    const type = m.type ?? 'observation'
    const createdAt = m.createdAt ?? NOW
    const id = `memories/${handle.id}/${type}/${(++n).toString(16).padStart(12, '0')}`
    const memory = testMemory({id, repoId: handle.id, type, oneLiner: 'one-liner', createdAt, updatedAt: createdAt, ...m})
    await handle.store.write(() => ({ops: [{op: 'insert', memory}], result: null}))
    return id
  }
  const read = async (id: string) => {
    const handle = await r.ctx.repo(r.repo, 'write')
    return handle.store.read((db) => getMemory(db, id))
  }
  const only = (stage: (typeof STAGE_NAMES)[number], dryRun = false) => maintain(r.ctx, {repo: r.repo, stages: [stage], dryRun})
  return {...r, put, read, only}
}

function affected(report: Awaited<ReturnType<typeof maintain>>, name: string): number {
  const stage = report.stages.find((s) => s.name === name)
  if (!stage) throw new Error(`no stage ${name}`)
  expect(stage.error).toBeUndefined()
  return stage.affected
}

describe('ttl-expiry', () => {
  it('forgets memories whose expiresAt passed, with a reason naming it', async () => {
    const {put, read, only} = setup()
    const gone = await put({content: 'temporary: staging is frozen this week', expiresAt: daysAgo(1)})
    const now = await put({content: 'expires exactly now', expiresAt: NOW})
    const kept = await put({content: 'still valid: release freeze until Friday', expiresAt: daysAgo(-2)})
    const never = await put({content: 'no expiry at all'})
    expect(affected(await only('ttl-expiry', true), 'ttl-expiry')).toBe(2)
    expect((await read(gone))!.forgottenAt).toBeNull() // dry run wrote nothing
    expect(affected(await only('ttl-expiry'), 'ttl-expiry')).toBe(2)
    const m = (await read(gone))!
    expect(m.forgottenAt).toBe(NOW)
    expect(m.forgetReason).toBe(`expired: its expiresAt ${daysAgo(1)} has passed`)
    expect((await read(now))!.forgottenAt).toBe(NOW)
    expect((await read(kept))!.forgottenAt).toBeNull()
    expect((await read(never))!.forgottenAt).toBeNull()
    expect(affected(await only('ttl-expiry'), 'ttl-expiry')).toBe(0)
  })
})

describe('retention', () => {
  it('forgets observations older than 90 days not used in 45, and nothing else', async () => {
    const {put, read, only} = setup()
    const stale = await put({content: 'old unused observation', createdAt: daysAgo(100)})
    const used = await put({content: 'old observation used recently', createdAt: daysAgo(100), lastUsedAt: daysAgo(10), usedCount: 1})
    const recalled = await put({content: 'old observation recalled recently', createdAt: daysAgo(120), lastAccessedAt: daysAgo(44)})
    const usedLongAgo = await put({content: 'old observation used long ago', createdAt: daysAgo(200), lastUsedAt: daysAgo(46)})
    const young = await put({content: 'observation 89 days old', createdAt: daysAgo(89)})
    const insight = await put({content: 'old insight', type: 'insight', createdAt: daysAgo(300)})
    expect(affected(await only('retention'), 'retention')).toBe(2)
    for (const id of [stale, usedLongAgo]) {
      expect((await read(id))!.forgetReason).toBe('retention: observation older than 90 days, not used in 45 days')
    }
    for (const id of [used, recalled, young, insight]) expect((await read(id))!.forgottenAt).toBeNull()
  })
})

describe('dedup', () => {
  it('forgets later exact and near duplicates of a live memory with the reason "duplicate of <id>"', async () => {
    const {put, read, only} = setup()
    const original = await put({content: 'Run npm ci before the build on CI, never npm install.', createdAt: daysAgo(10)})
    const exact = await put({content: 'run npm ci before the build on CI -- never npm install', type: 'procedure', createdAt: daysAgo(5)})
    const longText = 'The integration suite needs docker compose up for postgres and redis, then npm run test:int runs every spec in the integration folder against them, and the teardown removes volumes'
    const first = await put({content: longText, createdAt: daysAgo(9)})
    const near = await put({content: `${longText} afterwards`, createdAt: daysAgo(3)})
    const negated = await put({content: 'Run npm ci before the build on CI, not npm install.', createdAt: daysAgo(2)})
    const other = await put({content: 'The docs site deploys from the gh-pages branch.', createdAt: daysAgo(1)})

    expect(affected(await only('dedup', true), 'dedup')).toBe(2)
    expect(affected(await only('dedup'), 'dedup')).toBe(2)
    expect((await read(exact))!).toMatchObject({forgottenAt: NOW, forgetReason: `duplicate of ${original}`})
    expect((await read(near))!).toMatchObject({forgottenAt: NOW, forgetReason: `duplicate of ${first}`})
    for (const id of [original, first, negated, other]) expect((await read(id))!.forgottenAt).toBeNull()
    expect(affected(await only('dedup'), 'dedup')).toBe(0)
  })
})

describe('decay', () => {
  const policy = DEFAULT_POLICY.decay
  const row = (over: Partial<Parameters<typeof decayed>[0]>) => ({
    id: 'x', type: 'observation' as const, importance: 0.8, createdAt: daysAgo(30), updatedAt: daysAgo(30),
    lastUsedAt: null, lastAccessedAt: null, extra: {}, ...over,
  })

  it('halves importance per half-life of the type, with a floor, skipping recently used memories', () => {
    const now = new Date(NOW)
    expect(decayed(row({}), now, policy)).toBeCloseTo(0.4, 4)
    expect(decayed(row({type: 'insight'}), now, policy)).toBeCloseTo(0.8 * 2 ** (-30 / 90), 4)
    expect(decayed(row({type: 'procedure'}), now, policy)).toBeCloseTo(0.8 * 2 ** (-30 / 365), 4)
    expect(decayed(row({type: 'heuristic'}), now, policy)).toBeCloseTo(0.8 * 2 ** (-30 / 730), 4)
    expect(decayed(row({createdAt: daysAgo(3000), updatedAt: daysAgo(3000)}), now, policy)).toBe(0.05)
    expect(decayed(row({importance: 0.05}), now, policy)).toBeNull()
    expect(decayed(row({lastUsedAt: daysAgo(3)}), now, policy)).toBeNull()
    expect(decayed(row({lastAccessedAt: daysAgo(13)}), now, policy)).toBeNull()
    // the anchor is the latest of creation, edit, use and the last decay
    expect(decayed(row({lastUsedAt: daysAgo(15), createdAt: daysAgo(400), updatedAt: daysAgo(400)}), now, policy)).toBeCloseTo(0.8 * 2 ** (-15 / 30), 4)
    expect(decayed(row({extra: {decayedAt: NOW}}), now, policy)).toBeNull()
  })

  it('is idempotent within a day and composes across runs', async () => {
    const {put, read, only, clock} = setup()
    const o = await put({content: 'an observation', importance: 0.8, createdAt: daysAgo(30)})
    const h = await put({content: 'a heuristic', type: 'heuristic', importance: 0.8, createdAt: daysAgo(30)})
    const used = await put({content: 'used yesterday', importance: 0.8, createdAt: daysAgo(30), lastUsedAt: daysAgo(1)})
    expect(affected(await only('decay'), 'decay')).toBe(2)
    expect((await read(o))!.importance).toBeCloseTo(0.4, 4)
    expect((await read(h))!.importance).toBeCloseTo(0.8 * 2 ** (-30 / 730), 4)
    expect((await read(used))!.importance).toBe(0.8)
    expect((await read(o))!.forgottenAt).toBeNull()

    expect(affected(await only('decay'), 'decay')).toBe(0) // twice the same day: no second decay
    clock.advance(30 * DAY)
    await only('decay')
    expect((await read(o))!.importance).toBeCloseTo(0.2, 3) // 0.8 × 2^(−60/30): as one run after 60 days
    expect((await read(h))!.importance).toBeCloseTo(0.8 * 2 ** (-60 / 730), 3)
  })
})

describe('cleanup', () => {
  it('purges memories forgotten more than 30 days ago unless a live insight derives from them', async () => {
    const {put, read, only} = setup()
    const old = await put({content: 'forgotten long ago', forgottenAt: daysAgo(31), forgetReason: 'test'})
    const recent = await put({content: 'forgotten recently', forgottenAt: daysAgo(29), forgetReason: 'test'})
    const source = await put({content: 'forgotten source of an insight', forgottenAt: daysAgo(60), forgetReason: 'test'})
    await put({content: 'an insight', type: 'insight', derivedFrom: [source]})
    const superseded = await put({content: 'superseded long ago', supersededBy: 'memories/x/observation/000000000000', createdAt: daysAgo(100)})
    expect(affected(await only('cleanup', true), 'cleanup')).toBe(1)
    expect(await read(old)).toMatchObject({id: old, content: 'forgotten long ago'})
    expect(affected(await only('cleanup'), 'cleanup')).toBe(1)
    expect(await read(old)).toBeUndefined()
    for (const id of [recent, source, superseded]) expect(await read(id), id).toMatchObject({id})
  })
})

describe('enrichment', () => {
  it('fills missing one-liners with the heuristic, or through an enricher whose output is scanned', async () => {
    const {ctx, repo, put, read, only} = setup()
    const a = await put({content: 'Builds use esbuild. The bundle goes to dist/cli.', oneLiner: null})
    const b = await put({content: 'Tests run on vitest with a fixed clock.', oneLiner: ''})
    const c = await put({content: 'Has one already.', oneLiner: 'kept'})
    expect(affected(await only('enrichment'), 'enrichment')).toBe(2)
    expect((await read(a))!.oneLiner).toBe(heuristicOneLiner('Builds use esbuild. The bundle goes to dist/cli.'))
    expect((await read(b))!.oneLiner).toBe('Tests run on vitest with a fixed clock')
    expect((await read(c))!.oneLiner).toBe('kept')

    const d = await put({content: 'Deploys go through the release workflow.', oneLiner: null})
    const e = await put({content: 'The API token lives in the vault.', oneLiner: null})
    const enricher = {
      name: 'fake-model',
      oneLiner: async (m: {content: string}) => (m.content.startsWith('Deploys') ? 'Deploy via release workflow' : `token ghp_${'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'}`),
    }
    const report = await maintain(ctx, {repo, stages: ['enrichment']}, {enricher})
    expect(affected(report, 'enrichment')).toBe(2)
    expect((await read(d))!.oneLiner).toBe('Deploy via release workflow')
    expect((await read(e))!.oneLiner).toBe('The API token lives in the vault') // flagged output: the heuristic instead
  })
})

describe('the pipeline', () => {
  it('runs the seven stages in order and reports each', async () => {
    const {ctx, repo, put} = setup()
    await put({content: 'x', expiresAt: daysAgo(1)})
    const events: MaintenanceProgress[] = []
    const report = await maintain(ctx, {repo}, {onProgress: (p) => events.push(p)})
    const handle = await ctx.repo(repo, 'write')
    expect(report.repoId).toBe(handle.id)
    expect(report.stages.map((s) => s.name)).toEqual([...STAGE_NAMES])
    for (const s of report.stages) {
      expect(s.error).toBeUndefined()
      expect(Number.isInteger(s.durationMs) && s.durationMs >= 0).toBe(true)
    }
    expect(report.stages[0].affected).toBe(1)
    const starts = events.filter((e) => e.phase === 'start')
    expect(starts.map((e) => e.stage)).toEqual([...STAGE_NAMES])
    expect(starts.map((e) => `${e.index}/${e.total}`)).toEqual(STAGE_NAMES.map((_, i) => `${i + 1}/7`))
    expect(events.filter((e) => e.phase === 'done')).toHaveLength(7)
  })

  it('records a failing stage with its error and still runs the rest', async () => {
    const {ctx, repo, put, read} = setup()
    const expired = await put({content: 'expired one', expiresAt: daysAgo(1)})
    const dup1 = await put({content: 'the same thing twice', createdAt: daysAgo(2)})
    const dup2 = await put({content: 'The same thing, twice!', createdAt: daysAgo(1)})
    const broken = STAGES.map((s) => (s.name === 'retention' ? {...s, run: async () => Promise.reject(new Error('disk on fire'))} : s))
    const report = await maintain(ctx, {repo}, {stages: broken})
    expect(report.stages.map((s) => s.name)).toEqual([...STAGE_NAMES])
    const failed = report.stages.find((s) => s.name === 'retention')!
    expect(failed.error).toMatch(/disk on fire/)
    expect(failed.affected).toBe(0)
    expect(report.stages.filter((s) => s.error)).toHaveLength(1)
    expect(affected(report, 'dedup')).toBe(1)
    expect((await read(expired))!.forgottenAt).toBe(NOW)
    expect((await read(dup2))!.forgetReason).toBe(`duplicate of ${dup1}`)
  })

  it('runs only the stages asked for, in pipeline order; rejects unknown stage names', async () => {
    const {ctx, repo} = setup()
    const report = await maintain(ctx, {repo, stages: ['consolidation', 'ttl-expiry']})
    expect(report.stages.map((s) => s.name)).toEqual(['ttl-expiry', 'consolidation'])
    const err = await maintain(ctx, {repo, stages: ['vacuum' as never]}).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(MemError)
    expect((err as MemError).code).toBe('invalid_input')
  })

  it('a dry run reports the counts and changes nothing', async () => {
    const {ctx, repo, put} = setup()
    await put({content: 'expired', expiresAt: daysAgo(1)})
    await put({content: 'old unused observation', createdAt: daysAgo(100)})
    await put({content: 'needs a one-liner', oneLiner: null})
    await put({content: 'the stripe mock is slow to start in e2e', tags: ['e2e'], createdAt: daysAgo(3)})
    await put({content: 'e2e payment tests wait for the stripe mock; checkout flakes', tags: ['e2e'], createdAt: daysAgo(3)})
    await put({content: 'raise the e2e timeout for the stripe mock to 20 s. It was 5 s', tags: ['e2e'], createdAt: daysAgo(3)})
    const before = {stats: await stats(ctx, {repo}), page: await browse(ctx, {repo, take: 500})}
    const report = await maintain(ctx, {repo, dryRun: true})
    expect(report.stages.map((s) => [s.name, s.affected])).toEqual([
      ['ttl-expiry', 1],
      ['retention', 1],
      ['dedup', 0],
      ['decay', 4], // a dry run does not see earlier stages' effects: the observation retention would forget still decays
      ['cleanup', 0],
      ['enrichment', 1],
      ['consolidation', 1],
    ])
    expect(await stats(ctx, {repo})).toEqual(before.stats)
    expect(await browse(ctx, {repo, take: 500})).toEqual(before.page)
  })

  it('every memory a pass forgets carries its reason', async () => {
    const {ctx, repo, put, read} = setup()
    const ids = [
      await put({content: 'expired', expiresAt: daysAgo(1)}),
      await put({content: 'old unused observation', createdAt: daysAgo(100)}),
      await put({content: 'duplicate text here', createdAt: daysAgo(2)}),
      await put({content: 'Duplicate text here.', createdAt: daysAgo(1)}),
    ]
    await maintain(ctx, {repo})
    const forgotten = []
    for (const id of ids) {
      const m = (await read(id))!
      if (m.forgottenAt) forgotten.push(m)
    }
    expect(forgotten).toHaveLength(3)
    for (const m of forgotten) expect(m.forgetReason).toMatch(/^(expired|retention|duplicate of)/)
  })

  it('one pass per repo across processes: a held maintenance lock is a conflict', async () => {
    const {ctx, repo, put} = setup()
    await put({content: 'something'})
    const handle = await ctx.repo(repo, 'write')
    const release = await acquireMaintenanceLock(handle.store.dir)
    try {
      const err = await maintain(ctx, {repo}).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(MemError)
      expect((err as MemError).code).toBe('conflict')
      expect((err as MemError).message).toMatch(/already running/)
    } finally {
      await release()
    }
    expect((await maintain(ctx, {repo})).stages).toHaveLength(7)
  })

  it('by default writes a large change in chunks of at most 250 ops, one journaled write each', async () => {
    const {ctx, repo} = setup()
    const handle = await ctx.repo(repo, 'write')
    // 600 expired memories, stored in one write
    const ops = Array.from({length: 600}, (_, i) => {
      const memory: Memory = {
        id: `memories/${handle.id}/observation/bulk${i.toString(16).padStart(8, '0')}`, repoId: handle.id, type: 'observation',
        content: `expired note ${i}`, oneLiner: 'x', summary: null, tags: [], importance: 0.5, source: 'test', sessionId: null,
        supersedes: null, supersededBy: null, createdAt: NOW, updatedAt: NOW, forgottenAt: null, forgetReason: null, expiresAt: daysAgo(1),
        accessCount: 0, lastAccessedAt: null, usedCount: 0, unusedCount: 0, lastUsedAt: null, derivedFrom: [], links: [], origin: OWN_ORIGIN,
      }
      return {op: 'insert' as const, memory}
    })
    await handle.store.write(() => ({ops, result: null}))
    const progress: number[] = []
    const journalBytes: number[] = []
    await maintain(ctx, {repo, stages: ['ttl-expiry']}, {
      onProgress: (p) => {
        if (p.phase !== 'progress') return
        progress.push(p.done!)
        journalBytes.push(handle.store.pendingJournalBytes)
      },
    })
    expect(DEFAULT_POLICY.chunk).toBe(250)
    expect(progress).toEqual([250, 500, 600])
    // each chunk was its own journaled write
    expect(journalBytes[0]).toBeGreaterThan(0)
    expect(journalBytes[1]).toBeGreaterThan(journalBytes[0])
    expect(journalBytes[2]).toBeGreaterThan(journalBytes[1])
    expect((await stats(ctx, {repo})).total).toBe(0)
  })

  it('a stopped pass fails between chunks and leaves only whole writes', async () => {
    const {ctx, repo, put} = setup()
    for (let i = 0; i < 5; i++) await put({content: `expired ${i}`, expiresAt: daysAgo(1)})
    const controller = new AbortController()
    const err = await maintain(ctx, {repo}, {
      signal: controller.signal,
      policy: {chunk: 2},
      onProgress: (p) => {
        if (p.phase === 'progress' && p.stage === 'ttl-expiry') controller.abort()
      },
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(MemError)
    expect((err as MemError).message).toMatch(/stopped/)
    const live = await stats(ctx, {repo})
    expect(live.total).toBe(3) // the first chunk of two was written whole, nothing after it
    await get(ctx, {id: (await browse(ctx, {repo})).entries[0].id})
  })
})
