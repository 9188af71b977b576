import {cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {recall} from '../../src/operations/recall.js'
import {store} from '../../src/operations/store.js'
import {get} from '../../src/operations/get.js'
import {feedback} from '../../src/operations/feedback.js'
import {linkRepo} from '../../src/operations/links.js'
import {mkdirSync} from 'node:fs'
import {openMem} from '../../src/runtime/open-mem.js'
import {RepoStore} from '../../src/storage/repo-store.js'
import {getMemory} from '../../src/storage/memories.js'
import {RECALL_INDEX_FILE, RecallIndexFile} from '../../src/storage/recall-index.js'
import {searchMemories} from '../../src/engines/search/engine.js'
import {searchIndexed} from '../../src/engines/search/compact.js'
import {MEMORY_TYPES} from '../../src/model/memory.js'
import {fixedClock, memRepo, storedId, tempDir, type Clock} from '../helpers/mem.js'

const DATA = join(import.meta.dirname, '..', 'bench', 'recall', 'data')
const EVAL_MEMORIES = JSON.parse(readFileSync(join(DATA, 'memories.json'), 'utf8')) as Array<{type: (typeof MEMORY_TYPES)[number]; content: string; tags: string[]; importance: number}>
const QUESTIONS = (JSON.parse(readFileSync(join(DATA, 'questions.json'), 'utf8')) as Array<{q: string}>).map((q) => q.q)

/** A store with the evaluation set, update pairs (currency), an edit and a question followed by its answer. */
async function seed() {
  // a temp folder of the file's, not of a test (memRepo's is removed when its test ends)
  const base = mkdtempSync(join(tmpdir(), 'mem-test-'))
  const root = join(base, 'repo')
  const home = join(base, 'home')
  mkdirSync(join(root, '.git'), {recursive: true})
  const clock = fixedClock()
  const ctx = openMem({meaning: {model: 'off'}, home, cwd: root, now: clock})
  for (const m of EVAL_MEMORIES) {
    clock.advance(3_600_000)
    storedId(await store(ctx, {repo: root, ...m}))
  }
  const pairs = [
    ['CI runs on Node 18', 'CI runs on Node 20'],
    ['The API dev server listens on port 3000', 'The API dev server listens on port 3100'],
  ]
  const updated: string[] = []
  for (const [older, newer] of pairs) {
    clock.advance(60_000)
    updated.push(storedId(await store(ctx, {repo: root, content: older, type: 'heuristic'})))
    clock.advance(60_000)
    storedId(await store(ctx, {repo: root, content: newer, type: 'heuristic'}))
  }
  clock.advance(60_000)
  storedId(await store(ctx, {repo: root, content: 'Why does the staging deploy fail on Mondays?', type: 'observation'}))
  clock.advance(30_000)
  storedId(await store(ctx, {repo: root, content: 'The weekly certificate rotation restarts the ingress at 09:00 UTC', type: 'observation'}))
  const used = storedId(await store(ctx, {repo: root, content: 'Flaky checkout spec: rerun with --retries 2 before filing a bug', type: 'procedure'}))
  await feedback(ctx, {memoryId: used, wasUsed: true})
  await ctx.close()
  return {base, root, home, time: clock().toISOString(), updated}
}

/** The seeded store, written once for the file (its 356 stores were most of this file's time). */
let template: Awaited<ReturnType<typeof seed>>
// 356 stores through every gate: seconds idle, more under load
beforeAll(async () => {
  template = await seed()
}, 180_000)
afterAll(() => rmSync(template.base, {recursive: true, force: true}))

/**
 * A copy of the seeded store for one test: its repo and home in a temp folder of the test's own,
 * with the paths the home and repo.json record moved there (what seeding it there would have
 * written), and a clock where seeding left it.
 */
async function seeded() {
  const t = template
  const base = tempDir()
  cpSync(t.base, base, {recursive: true})
  for (const file of [join('home', 'repos.yaml'), join('home', 'trust.json'), join('repo', '.mem', 'repo.json')]) {
    const path = join(base, file)
    if (existsSync(path)) writeFileSync(path, readFileSync(path, 'utf8').replaceAll(t.base, base))
  }
  return {root: join(base, 'repo'), home: join(base, 'home'), clock: fixedClock(t.time), updated: t.updated}
}

/** A one-shot context (as `mem recall` has), closed after `fn`. */
async function oneShot<T>(home: string, root: string, clock: Clock, fn: (ctx: ReturnType<typeof openMem>) => Promise<T>): Promise<T> {
  const ctx = openMem({meaning: {model: 'off'}, home, cwd: root, now: clock})
  try {
    return await fn(ctx)
  } finally {
    await ctx.close()
  }
}

/** Recalls `q` in a fresh one-shot context; `loaded` tells whether the store had to be loaded. */
async function recallOnce(home: string, root: string, clock: Clock, q: string, extra: {limit?: number; type?: (typeof MEMORY_TYPES)[number]} = {}) {
  return oneShot(home, root, clock, async (ctx) => {
    const result = await recall(ctx, {repo: root, q, ...extra})
    const loaded = (await ctx.repo(root, 'read', {deferLoad: true})).store.isLoaded
    return {result, loaded}
  })
}

const indexPath = (root: string) => join(root, '.mem', RECALL_INDEX_FILE)

describe('the recall index', () => {
  it('is written by a one-shot recall that had to load the store, and then answers alone, identically', async () => {
    const {root, home, clock} = await seeded()
    const q = 'how do I run the integration tests?'
    const first = await recallOnce(home, root, clock, q)
    expect(first.loaded).toBe(true)
    expect(statSync(indexPath(root)).size).toBeGreaterThan(0)
    const second = await recallOnce(home, root, clock, q)
    expect(second.loaded).toBe(false)
    expect(second.result).toEqual(first.result)
    expect(second.result.results.length).toBe(10)
  })

  it('ranks every evaluation question, with filters and limits, exactly as the FTS path does', async () => {
    const {root, home, clock} = await seeded()
    await recallOnce(home, root, clock, 'warm up') // writes the index
    const now = clock()
    const loaded = await RepoStore.open(root)
    const index = RecallIndexFile.open(join(root, '.mem'))!
    try {
      const queries = [
        ...QUESTIONS,
        'which node version does CI run on',
        'api dev server port',
        'when does the ingress restart',
        'staging deploy mondays',
        'integraton tset', // typos
        'dokcer compose postgres',
        'the of and', // stop words only
        'zzzqqq',
      ]
      let withNewer = 0
      const unused = new Map<string, number>()
      for (const q of queries) {
        for (const opts of [{limit: 10}, {limit: 3}, {limit: 25, type: 'procedure' as const}, {limit: 5, type: 'observation' as const}]) {
          const fts = loaded.read((db) => searchMemories(db, q, {...opts, now, index: 'fts'}))
          // the index's hits also carry each memory's short ref and unused count (the prompt hook reads them)
          const fromIndex = searchIndexed(index, q, {...opts, now})?.map(({memory: {ref, unusedCount, ...memory}, ...hit}) => {
            expect(memory.id.slice(memory.id.lastIndexOf('/') + 1).startsWith(ref!) && ref!.length >= 8).toBe(true)
            if (!unused.has(memory.id)) unused.set(memory.id, loaded.read((db) => getMemory(db, memory.id))!.unusedCount)
            expect(unusedCount).toBe(unused.get(memory.id))
            return {...hit, memory}
          })
          expect(fromIndex, `${q} ${JSON.stringify(opts)}`).toEqual(fts)
          if (fts.some((h) => h.newer)) withNewer++
        }
      }
      // the comparison covered outdated memories shown after their newer versions
      expect(withNewer).toBeGreaterThan(0)
    } finally {
      index.close()
      await loaded.close()
    }
    // 244 questions × 4 limits and filters, each searched both ways: 22 s at load 16, past the
    // default 30 s at load 12 in a whole-suite run (a slow machine, not a hang)
  }, 120_000)

  it('stays in use while only recall counters follow it, and the counters are all kept', async () => {
    const {root, home, clock} = await seeded()
    const q = 'flaky checkout spec'
    await recallOnce(home, root, clock, q)
    const a = await recallOnce(home, root, clock, q)
    const b = await recallOnce(home, root, clock, q)
    expect([a.loaded, b.loaded]).toEqual([false, false])
    const top = a.result.results[0].id
    expect(b.result.results[0].id).toBe(top)
    const after = await oneShot(home, root, clock, (ctx) => get(ctx, {id: top}))
    // recalled three times, each counted once (the first through the store, two through the index)
    expect(after.accessCount).toBe(3)
  })

  it('outlives a checkpoint that only folded recall counters, not one after a write', async () => {
    const {root, home, clock} = await seeded()
    const q = 'flaky checkout spec'
    const first = await recallOnce(home, root, clock, q)
    expect((await recallOnce(home, root, clock, q)).loaded).toBe(false)
    const checkpoint = async () => {
      const s = await RepoStore.open(root)
      await s.checkpoint()
      await s.close()
    }
    const generation = () => readFileSync(join(root, '.mem', 'journal'), 'utf8').split('\n')[0]
    const before = generation()
    await checkpoint()
    expect(generation()).not.toBe(before)
    const after = await recallOnce(home, root, clock, q)
    expect(after.loaded).toBe(false)
    expect(after.result).toEqual(first.result)

    await oneShot(home, root, clock, (ctx) => store(ctx, {repo: root, content: 'Flaky checkout spec is fixed by pinning the payment sandbox version', type: 'observation'}))
    await checkpoint()
    const changed = await recallOnce(home, root, clock, q)
    expect(changed.loaded).toBe(true)
    expect(changed.result.results.map((r) => r.content)).toContain('Flaky checkout spec is fixed by pinning the payment sandbox version')
  })

  it('is never used once the store changed after it: the change is seen, and the index is brought up to date', async () => {
    const {root, home, clock} = await seeded()
    const q = 'rotate the signing keys for the billing service'
    const before = await recallOnce(home, root, clock, q)
    expect(before.result.results.map((r) => r.content)).not.toContain('Rotate the billing signing keys every 90 days with scripts/rotate-keys.sh')
    // another process writes
    const id = await oneShot(home, root, clock, async (ctx) =>
      storedId(await store(ctx, {repo: root, content: 'Rotate the billing signing keys every 90 days with scripts/rotate-keys.sh', type: 'procedure'})),
    )
    const stale = await recallOnce(home, root, clock, q)
    expect(stale.loaded).toBe(true)
    expect(stale.result.results[0].id).toBe(id)
    const fresh = await recallOnce(home, root, clock, q)
    expect(fresh.loaded).toBe(false)
    expect(fresh.result).toEqual(stale.result)

    // feedback changes ranking inputs: the index is behind again
    await oneShot(home, root, clock, (ctx) => feedback(ctx, {memoryId: id, wasUsed: false}))
    expect((await recallOnce(home, root, clock, q)).loaded).toBe(true)
  })

  it('a damaged or truncated index file is not read: the store answers, and the file is rewritten', async () => {
    const {root, home, clock} = await seeded()
    const q = 'how do I get the database running locally?'
    const good = (await recallOnce(home, root, clock, q)).result
    const header = RecallIndexFile.open(join(root, '.mem'))!
    const [dictAt] = header.header.sections.dict
    header.close()
    const bytes = readFileSync(indexPath(root))
    const base = bytes.readUInt32LE(12)
    const damage: Array<[string, () => void]> = [
      ['truncated', () => truncateSync(indexPath(root), bytes.length - 100)],
      // every posting and record overwritten: whatever the query reads fails its checksum
      ['postings', () => writeFileSync(indexPath(root), Buffer.concat([bytes.subarray(0, base), Buffer.alloc(dictAt, 0x41), bytes.subarray(base + dictAt)]))],
      ['header', () => writeFileSync(indexPath(root), Buffer.concat([bytes.subarray(0, 20), Buffer.from('x'), bytes.subarray(21)]))],
      ['not an index', () => writeFileSync(indexPath(root), 'hello')],
    ]
    for (const [what, harm] of damage) {
      harm()
      const r = await recallOnce(home, root, clock, q)
      expect(r.loaded, what).toBe(true)
      expect(r.result, what).toEqual(good)
      // rewritten at close: the next recall reads it again
      const again = await recallOnce(home, root, clock, q)
      expect(again.loaded, what).toBe(false)
      expect(again.result, what).toEqual(good)
    }
  })

  it('is not used by a long-lived process, nor written by one', async () => {
    const {root, home} = await seeded()
    const clock = fixedClock('2026-06-01T00:00:00.000Z')
    const ctx = openMem({meaning: {model: 'off'}, home, cwd: root, now: clock, longLived: true})
    try {
      expect((await recall(ctx, {repo: root, q: 'integration tests'})).results.length).toBeGreaterThan(0)
      expect((await ctx.repo(root, 'read')).store.isLoaded).toBe(true)
    } finally {
      await ctx.close()
    }
    expect(() => statSync(indexPath(root))).toThrow(/ENOENT/)
  })

  it('leaves a store that links other repos to the database (their memories come back), and is not rewritten by each recall', async () => {
    const {root, home, ctx, clock, base} = memRepo()
    const api = join(base, 'api')
    mkdirSync(join(api, '.git'), {recursive: true})
    storedId(await store(ctx, {repo: api, content: 'The billing API rate limit is 100 requests per minute', type: 'heuristic'}))
    const apiId = (await ctx.repo(api, 'write')).id
    storedId(await store(ctx, {repo: root, content: 'The app retries billing calls with backoff', type: 'procedure'}))
    await linkRepo(ctx, {repo: root, targetRepo: apiId, note: 'the app calls this API for billing'})
    await ctx.close()
    const q = 'billing rate limit'
    const first = await recallOnce(home, root, clock, q)
    const written = statSync(indexPath(root)).mtimeMs
    const second = await recallOnce(home, root, clock, q)
    expect([first.loaded, second.loaded]).toEqual([true, true])
    expect(second.result.results.map((r) => r.content)).toContain('The billing API rate limit is 100 requests per minute')
    expect(second.result).toEqual(first.result)
    expect(statSync(indexPath(root)).mtimeMs).toBe(written)
  })
})
