import {describe, expect, it} from 'vitest'
import {feedback} from '../../src/operations/feedback.js'
import {quality} from '../../src/operations/quality.js'
import {recall} from '../../src/operations/recall.js'
import {store} from '../../src/operations/store.js'
import type {Memory} from '../../src/model/memory.js'
import {memRepo} from '../helpers/mem.js'
import {testMemory} from '../helpers/memory.js'

const DAY = 24 * 60 * 60 * 1000

/** A repo at a fixed "now" and a way to put memories with any history straight into its store. */
function fixture() {
  const base = memRepo()
  const now = base.clock().getTime()
  const ago = (days: number) => new Date(now - days * DAY).toISOString()
  const ids: Record<string, string> = {}
  const put = async (key: string, m: Partial<Memory> & {daysOld: number}) => {
    const handle = await base.ctx.repo(base.repo, 'write')
    const createdAt = ago(m.daysOld)
    const id = `memories/${handle.id}/insight/${key.charCodeAt(0).toString(16).padStart(12, '0')}`
    // daysOld is not a memory's field: the factory keeps only the fields of one
    const memory = testMemory({id, repoId: handle.id, type: 'insight', content: `memory ${key} about something distinct ${key}`, oneLiner: `memory ${key}`, createdAt, updatedAt: createdAt, ...m})
    await handle.store.write(() => ({ops: [{op: 'insert', memory}], result: null}))
    ids[key] = id
  }
  return {...base, put, ago, ids}
}

describe('quality', () => {
  it('reports each figure of a fixture with known feedback and activity', async () => {
    const {ctx, repo, put, ago, ids} = fixture()
    // A: recalled and used (echo)
    await put('A', {daysOld: 10, accessCount: 3, usedCount: 2, lastAccessedAt: ago(1), lastUsedAt: ago(1)})
    // B: recalled, reported unused 4 times (fizzle, and dead by feedback), recently active
    await put('B', {daysOld: 40, accessCount: 5, unusedCount: 4, lastAccessedAt: ago(2)})
    // C: never recalled, 45 days old (stale, not yet dead)
    await put('C', {daysOld: 45})
    // D: last recalled 70 days ago (stale and dead)
    await put('D', {daysOld: 90, accessCount: 1, lastAccessedAt: ago(70)})
    // E: new, never recalled, no one-liner
    await put('E', {daysOld: 5, oneLiner: null})
    // F: used once and unused once (echo: used at least as often), active 10 days ago
    await put('F', {daysOld: 100, accessCount: 2, usedCount: 1, unusedCount: 1, lastAccessedAt: ago(10), lastUsedAt: ago(10)})
    // G: unused twice, used once (fizzle, but not dead: fewer than 3 unused)
    await put('G', {daysOld: 20, accessCount: 1, usedCount: 1, unusedCount: 2, lastAccessedAt: ago(3), lastUsedAt: ago(3)})
    // H: forgotten: counts nowhere
    await put('H', {daysOld: 100, forgottenAt: ago(1), unusedCount: 9})

    const r = await quality(ctx, {repo})
    expect(r).toMatchObject({repo, totalMemories: 7, recalled: 5, echoRatio: 0.4, fizzleRatio: 0.4, staleCount: 2, deadCount: 2})
    expect(r.issues.map((i) => [i.kind, i.severity, i.count, i.exampleIds])).toEqual([
      ['fizzle', 'warning', 2, [ids.B, ids.G]],
      ['dead', 'warning', 2, [ids.D, ids.B]],
      ['stale', 'info', 2, [ids.D, ids.C]],
      ['missing-one-liner', 'info', 1, [ids.E]],
    ])
    for (const issue of r.issues) expect(issue.advice).toMatch(/`mem (edit|forget|feedback|enrich|maintain)/)
    // 100 − (35 × 0.4 + 30 × 2/7 + 15 × 2/7 + 5 × 1/7) = 72.4
    expect(r.score).toBe(72)
  })

  it('an empty repo has no score, with one piece of advice', async () => {
    const {ctx, repo} = memRepo()
    const r = await quality(ctx, {repo})
    expect(r).toMatchObject({totalMemories: 0, recalled: 0, echoRatio: 0, fizzleRatio: 0, staleCount: 0, deadCount: 0, score: null})
    expect(r.issues).toEqual([{kind: 'empty', severity: 'info', count: 0, exampleIds: [], advice: expect.stringContaining('mem store')}])
  })

  it('a store no agent has recalled from has no score; a person\'s searches (touch: false) do not change that', async () => {
    const {ctx, repo} = memRepo()
    for (const content of ['Integration tests need docker running first.', 'Docker compose file lives in ops/compose.yaml.']) {
      await store(ctx, {repo, content, type: 'observation'})
    }
    // a person searching in the TUI or the web UI
    expect((await recall(ctx, {repo, q: 'docker', touch: false})).results).toHaveLength(2)
    await (await ctx.repo(repo, 'write')).store.flush()
    const unused = await quality(ctx, {repo})
    expect(unused).toMatchObject({totalMemories: 2, recalled: 0, score: null})
    expect(unused.issues).toEqual([{kind: 'unused', severity: 'warning', count: 2, exampleIds: [], advice: expect.stringContaining('mem recall')}])
    // an agent's recall: now there is something to score
    await recall(ctx, {repo, q: 'docker'})
    await (await ctx.repo(repo, 'write')).store.flush()
    const used = await quality(ctx, {repo})
    expect(used).toMatchObject({recalled: 2, score: 90})
    expect(used.issues.map((i) => i.kind)).toEqual(['no-feedback'])
  })

  it('follows real recalls and feedback, and flags recall without feedback', async () => {
    const {ctx, repo} = memRepo()
    const a = await store(ctx, {repo, content: 'Integration tests need docker running first.', type: 'procedure'})
    const b = await store(ctx, {repo, content: 'Docker compose file lives in ops/compose.yaml.', type: 'observation'})
    if (!a.success || !b.success) throw new Error('store failed')
    expect((await recall(ctx, {repo, q: 'docker'})).results).toHaveLength(2)
    await (await ctx.repo(repo, 'write')).store.flush()
    const before = await quality(ctx, {repo})
    expect(before).toMatchObject({totalMemories: 2, recalled: 2, echoRatio: 0, fizzleRatio: 0})
    expect(before.issues[0]).toMatchObject({kind: 'no-feedback', severity: 'warning', count: 2})
    expect(before.score).toBe(90)
    await feedback(ctx, {memoryId: a.id, wasUsed: true})
    await feedback(ctx, {memoryId: b.id, wasUsed: false})
    const after = await quality(ctx, {repo})
    expect(after).toMatchObject({recalled: 2, echoRatio: 0.5, fizzleRatio: 0.5})
    expect(after.issues).toEqual([expect.objectContaining({kind: 'fizzle', severity: 'critical', count: 1, exampleIds: [b.id]})])
    expect(after.score).toBe(83) // 100 − 35 × 0.5 = 82.5
  })

  it('refuses a missing repo', async () => {
    const {ctx} = memRepo()
    await expect(quality(ctx, {repo: ''})).rejects.toMatchObject({code: 'invalid_input'})
  })
})
