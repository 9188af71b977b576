import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import type {MemContext} from '../../src/engines/context.js'
import {ops, type Ops} from '../../src/operations/catalog/index.js'
import {invoke, type OpInput} from '../../src/operations/define.js'
import {openMem, type MemRuntime} from '../../src/runtime/open-mem.js'
import {histPercentile, USAGE_LOG} from '../../src/storage/usage.js'
import {memRepo} from '../helpers/mem.js'
import {eventually} from '../helpers/server.js'

const DAY = 24 * 60 * 60 * 1000

/** An operation as every face runs it (`invoke`: counted in the usage statistics, as its declaration says). */
function asFaces<K extends keyof Ops>(name: K) {
  return (ctx: MemContext, input: OpInput<Ops[K]>, options?: Parameters<Ops[K]['run']>[2]) => invoke(ctx, ops[name], input as never, options as never) as ReturnType<Ops[K]['run']>
}
const store = asFaces('store')
const recall = asFaces('recall')
const get = asFaces('get')
const stats = asFaces('stats')
const graph = asFaces('graph')
const intake = asFaces('intake')
const exportMarkdown = asFaces('exportMarkdown')
const packExport = asFaces('packExport')
const linkMemory = asFaces('linkMemory')
const listLinks = asFaces('links')
const unlinkMemory = asFaces('unlinkMemory')
const portal = asFaces('portal')
const usage = asFaces('usage')
const usageHourly = asFaces('usageHourly')
const usageTimeseries = asFaces('usageTimeseries')

function recorder(ctx: MemRuntime) {
  if (!ctx.usage) throw new Error('usage is off')
  return ctx.usage
}

describe('usage recording', () => {
  it("a person's search (recall with touch: false, the TUI and the web UI) is counted as browse-search, not recall", async () => {
    const {ctx, repo} = memRepo()
    await store(ctx, {repo, content: 'The CI cache key includes the lockfile hash.', type: 'insight'})
    await recall(ctx, {repo, q: 'ci cache', touch: false})
    await recall(ctx, {repo, q: 'lockfile', touch: false})
    await recall(ctx, {repo, q: 'cache key'})
    const byOp = Object.fromEntries((await usage(ctx, {repo})).operations.map((o) => [o.operation, o.count]))
    expect(byOp).toEqual({store: 1, 'browse-search': 2, recall: 1})
  })

  it('counts every core operation with its result count, through the log and after a roll-up alike', async () => {
    // a monotonic clock that moves 3 ms each time it is read: every operation takes exactly 3 ms
    let t = 0
    const {ctx, repo, root} = memRepo({}, {usage: {elapsed: () => (t += 3)}})
    const a = await store(ctx, {repo, content: 'Release notes are generated from commit messages.', type: 'procedure'})
    await store(ctx, {repo, content: 'Release notes are generated from commit messages.', type: 'procedure'}) // duplicate
    await store(ctx, {repo, content: 'The CI cache key includes the lockfile hash.', type: 'insight'})
    if (!a.success) throw new Error('store failed')
    let found = 0
    for (const q of ['release notes', 'ci cache', 'lockfile']) found += (await recall(ctx, {repo, q})).results.length
    await get(ctx, {id: a.id})
    await stats(ctx, {repo})

    const r = await usage(ctx, {repo})
    const byOp = Object.fromEntries(r.operations.map((o) => [o.operation, o]))
    expect(r.total).toBe(8)
    expect(Object.keys(byOp).sort()).toEqual(['get', 'recall', 'stats', 'store'])
    expect(byOp.store).toMatchObject({count: 3, avgResults: 0.67})
    expect(byOp.recall).toMatchObject({count: 3, avgResults: Math.round((found / 3) * 100) / 100})
    expect(byOp.get).toMatchObject({count: 1, avgResults: 1})
    expect(byOp.stats).toMatchObject({count: 1, avgResults: 2})
    expect(r.operations[0].operation).toBe('recall') // most called first, then by name
    for (const o of r.operations) expect(o, o.operation).toMatchObject({avgDurationMs: 3, p95DurationMs: 3})
    expect(existsSync(join(root, '.mem', USAGE_LOG))).toBe(true)

    // folded into the database: the log is gone and the answer is the same (plus the usage call itself)
    const handle = await ctx.repo(repo, 'write')
    expect(await handle.store.rollUpUsage(ctx.now())).toBeGreaterThan(0)
    expect(existsSync(join(root, '.mem', USAGE_LOG))).toBe(false)
    const again = await usage(ctx, {repo})
    expect(again.operations.filter((o) => o.operation !== 'usage')).toEqual(r.operations)
    expect(again.operations.find((o) => o.operation === 'usage')?.count).toBe(1)

    // another process sees the roll-up through the journal
    await ctx.close()
    const other = openMem({home: memRepo().home, cwd: root, now: () => new Date(ctx.now().getTime())})
    try {
      const seen = await usage(other, {repo})
      expect(seen.operations.find((o) => o.operation === 'recall')?.count).toBe(3)
    } finally {
      await other.close()
    }
  })

  it('counts the operations of intake, graph, export, packs and links too', async () => {
    const {ctx, repo} = memRepo({'README.md': '# App\n\nRun the tests with `npm test`.\n', 'package.json': '{"scripts": {"test": "vitest run", "build": "tsc"}}'})
    const seeded = await intake(ctx, {repo})
    expect(seeded.newCount).toBeGreaterThan(0)
    const g = await graph(ctx, {repo})
    const md = await exportMarkdown(ctx, {repo})
    const pack = await packExport(ctx, {repo})
    const [a, b] = g.nodes
    await linkMemory(ctx, {id: a.id, targetId: b.id, relation: 'related'})
    await unlinkMemory(ctx, {id: a.id, targetId: b.id})
    await listLinks(ctx, {repo})
    const byOp = Object.fromEntries((await usage(ctx, {repo})).operations.map((o) => [o.operation, o]))
    expect(byOp.intake).toMatchObject({count: 1, avgResults: seeded.newCount})
    expect(byOp.graph).toMatchObject({count: 1, avgResults: g.nodes.length})
    expect(byOp.export).toMatchObject({count: 1, avgResults: md.count})
    expect(byOp['pack-export']).toMatchObject({count: 1, avgResults: pack.manifest.entryCount})
    expect(byOp.link).toMatchObject({count: 1, avgResults: 1})
    expect(byOp.unlink).toMatchObject({count: 1, avgResults: 1})
    expect(byOp.links).toMatchObject({count: 1, avgResults: 0})
  })

  it('keeps durations as a histogram: mean, and a p95 that survives aggregation', async () => {
    const {ctx, repo, root} = memRepo()
    await store(ctx, {repo, content: 'Something to make the store exist.', type: 'insight'})
    const rec = recorder(ctx)
    for (let i = 0; i < 90; i++) rec.record('probe', root, 2, 1)
    for (let i = 0; i < 10; i++) rec.record('probe', root, 45, 3)
    const probe = (await usage(ctx, {repo})).operations.find((o) => o.operation === 'probe')
    expect(probe).toEqual({operation: 'probe', count: 100, avgDurationMs: 6.3, p95DurationMs: 45, avgResults: 1.2})
    expect(histPercentile([0, 0, 0, 19, 1], 95, 100)).toBe(2) // the 19th of 20 is in the 1–2 ms bin
    expect(histPercentile([0, 0, 0, 0, 0], 95, 0)).toBe(0)
  })

  it('buckets by UTC day and hour, every bucket present, and compacts old hours into days', async () => {
    const {ctx, repo, root, clock} = memRepo()
    await store(ctx, {repo, content: 'Something to make the store exist.', type: 'insight'})
    const rec = recorder(ctx)
    const now = clock().getTime() // 2026-03-01T12:00Z
    const at = (ms: number, op: string, n = 1) => {
      clock.set(new Date(ms).toISOString())
      for (let i = 0; i < n; i++) rec.record(op, root, 1, 0)
      clock.set(new Date(now).toISOString())
    }
    at(now - 2 * DAY, 'recall', 3)
    at(now - 2 * DAY, 'store', 1)
    at(now - 3 * 60 * 60 * 1000, 'recall', 2) // 09:00 today
    at(now - 40 * DAY, 'recall', 5)
    at(now - 500 * DAY, 'recall', 7)

    const ts = await usageTimeseries(ctx, {repo, days: 7})
    expect(ts.buckets.map((b) => b.date)).toEqual(['2026-02-23', '2026-02-24', '2026-02-25', '2026-02-26', '2026-02-27', '2026-02-28', '2026-03-01'])
    expect(ts.buckets[4]).toEqual({date: '2026-02-27', count: 4, byOperation: {recall: 3, store: 1}})
    expect(ts.buckets[6]).toEqual({date: '2026-03-01', count: 3, byOperation: {recall: 2, store: 1}})
    expect(ts.buckets[5]).toEqual({date: '2026-02-28', count: 0, byOperation: {}})

    const hourly = await usageHourly(ctx, {repo})
    expect(hourly.buckets).toHaveLength(7 * 24)
    expect(hourly.buckets.at(-1)!.hour).toBe('2026-03-01T12:00:00.000Z')
    expect(hourly.buckets.find((b) => b.hour === '2026-03-01T09:00:00.000Z')!.count).toBe(2)
    expect(hourly.buckets.reduce((n, b) => n + b.count, 0)).toBe(2 + 4 + 1 + 1) // today, 2 days ago, the first store, the timeseries call

    const before60 = await usage(ctx, {repo, days: 60})
    expect(before60.operations.find((o) => o.operation === 'recall')!.count).toBe(10)
    const handle = await ctx.repo(repo, 'write')
    await handle.store.rollUpUsage(ctx.now())
    const rows = handle.store.read((db) => ({
      hourly: db.all<{hour: string}>(`SELECT hour FROM usage_hourly`).map((r) => r.hour),
      daily: db.all<{day: string; count: number}>(`SELECT day, count FROM usage_daily`),
    }))
    expect(rows.daily).toEqual([{day: '2026-01-20', count: 5}]) // 40 days ago, folded; 500 days ago, dropped
    expect(rows.hourly.every((h) => h >= '2026-01-25')).toBe(true)
    const after60 = await usage(ctx, {repo, days: 60})
    expect(after60.operations.find((o) => o.operation === 'recall')!.count).toBe(10)
    expect((await usage(ctx, {repo, days: 365})).operations.find((o) => o.operation === 'recall')!.count).toBe(10)
  })

  it('never creates a store for a read, and refuses bad windows', async () => {
    const {ctx, repo, root} = memRepo()
    await stats(ctx, {repo})
    recorder(ctx).flush()
    expect(existsSync(join(root, '.mem'))).toBe(false)
    await expect(usage(ctx, {repo, days: 0})).rejects.toMatchObject({code: 'invalid_input'})
    await expect(usage(ctx, {repo, days: 366})).rejects.toMatchObject({code: 'invalid_input'})
    await expect(usageHourly(ctx, {repo, days: 32})).rejects.toMatchObject({code: 'invalid_input'})
  })

  it('a context with usage off records nothing', async () => {
    const base = memRepo()
    const ctx = openMem({home: base.home, cwd: base.root, now: base.clock, usage: false})
    try {
      await store(ctx, {repo: base.repo, content: 'Nothing is counted here at all.', type: 'insight'})
      expect(ctx.usage).toBeUndefined()
      const r = await usage(ctx, {repo: base.repo})
      expect(r.total).toBe(0)
      expect(existsSync(join(base.root, '.mem', USAGE_LOG))).toBe(false)
    } finally {
      await ctx.close()
    }
  })

  it('a one-shot process flushes its counts at close', async () => {
    const {ctx, repo, root} = memRepo()
    await store(ctx, {repo, content: 'Counted before the close.', type: 'insight'})
    expect(recorder(ctx).pendingCount).toBe(1)
    await ctx.close()
    const line = JSON.parse(readFileSync(join(root, '.mem', USAGE_LOG), 'utf8').trim())
    expect(line).toMatchObject({b: '2026-03-01T12', o: 'store', c: 1, r: 1})
  })
})

describe('portal', () => {
  it('gathers counts, recent memories, quality, usage and the tasks of this repo', async () => {
    const {ctx, repo} = memRepo()
    for (let i = 0; i < 12; i++) await store(ctx, {repo, content: `Lesson number ${i} about topic ${i * 7}.`, type: i % 2 ? 'insight' : 'observation'})
    const handle = await ctx.repo(repo, 'write')
    const task = (r?: string) => ({id: r ? `maintenance:${r}` : 'update-check', type: r ? ('maintenance' as const) : ('update-check' as const), ...(r ? {repo: r} : {}), intervalHours: 24, lastRunAt: null, nextRunAt: null, status: 'idle' as const, lastError: null})
    const p = await portal(ctx, {repo}, {tasks: () => [task(), task(handle.id), task('other-repo')]})
    expect(p).toMatchObject({repo, repoId: handle.id, generatedAt: '2026-03-01T12:00:00.000Z', counts: {observation: 6, insight: 6, procedure: 0, heuristic: 0}, total: 12})
    expect(p.recent).toHaveLength(10)
    expect(p.recent[0].content).toBe('Lesson number 11 about topic 77.')
    expect(p.quality.totalMemories).toBe(12)
    expect(p.usage).toMatchObject({days: 30, total: 12, operations: [expect.objectContaining({operation: 'store', count: 12})]})
    expect(p.usage.timeseries).toHaveLength(30)
    expect(p.usage.timeseries.at(-1)).toEqual({date: '2026-03-01', count: 12, byOperation: {store: 12}})
    expect(p.tasks.map((t) => t.id)).toEqual(['update-check', `maintenance:${handle.id}`])
  })
})

describe('the usage log and git', () => {
  it('is ignored, also in a store whose .gitignore an earlier mem wrote', async () => {
    const {ctx, repo, root} = memRepo()
    await store(ctx, {repo, content: 'First write creates the store.', type: 'insight'})
    expect(readFileSync(join(root, '.mem', '.gitignore'), 'utf8')).toMatch(/^usage\.log$/m)
    await ctx.close()
    const old = 'mem.db\njournal\n'
    writeFileSync(join(root, '.mem', '.gitignore'), old)
    const next = openMem({home: join(root, '..', 'home'), cwd: root})
    try {
      await store(next, {repo, content: 'A later write by this mem.', type: 'insight'})
      expect(readFileSync(join(root, '.mem', '.gitignore'), 'utf8')).toBe(`${old}usage.log\nusage.log.*\nrepo.json\nrecall.idx\nrecall.idx.*\n`)
    } finally {
      await next.close()
    }
  })
})

describe('roll-ups in a long-lived process', () => {
  it('folds a log past 64 KB into the database on its own', async () => {
    const base = memRepo()
    const ctx = openMem({home: base.home, cwd: base.root, now: base.clock, longLived: true, usage: {flushMs: 20}})
    try {
      await store(ctx, {repo: base.repo, content: 'Something to make the store exist.', type: 'insight'})
      const line = JSON.stringify({b: '2026-03-01T11', o: 'recall', c: 1, t: 1, m: 1, r: 2, h: [0, 0, 1]})
      writeFileSync(join(base.root, '.mem', USAGE_LOG), `${line}\n`.repeat(Math.ceil((64 * 1024) / line.length) + 10))
      await recall(ctx, {repo: base.repo, q: 'store exist'}) // the next flush sees the log's size
      const handle = await ctx.repo(base.repo, 'write')
      const foldedCount = () => handle.store.read((db) => db.get<{count: number | null}>(`SELECT sum(count) AS count FROM usage_hourly WHERE operation = 'recall'`))?.count ?? 0
      // waited for in the database: the log file itself may be back at once, holding the recall's
      // own line, if the next 20 ms flush comes right after the fold (polling for its absence missed
      // that window once, in CI)
      await eventually(() => foldedCount() > 900)
      const folded = {count: foldedCount()}
      // the report is what was folded plus what a new log holds since (the recall's own line may
      // be written after the fold: the 20 ms flush races it)
      const total = (await usage(ctx, {repo: base.repo})).operations.find((o) => o.operation === 'recall')!.count
      const log = join(base.root, '.mem', USAGE_LOG)
      const since = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((l) => l.includes('"o":"recall"')).reduce((n, l) => n + (JSON.parse(l) as {c: number}).c, 0) : 0
      expect(since).toBeLessThanOrEqual(1)
      expect(total).toBe(folded!.count + since)
    } finally {
      await ctx.close()
    }
  })
})
