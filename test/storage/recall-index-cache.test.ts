// The recall index's lifecycle seen from a store (src/storage/recall-index-cache.ts), driven
// directly on a real store's `.mem/`: when the file on disk answers, when it is behind, what a read
// through it lets the store append without loading, and how it is rewritten and carried.
import {readFileSync, statSync, truncateSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {buildRecallIndex} from '../../src/engines/search/compact.js'
import {store} from '../../src/operations/store.js'
import {RECALL_INDEX_FILE, RecallIndexFile} from '../../src/storage/recall-index.js'
import {RecallIndexCache} from '../../src/storage/recall-index-cache.js'
import {RepoStore} from '../../src/storage/repo-store.js'
import {openMem} from '../../src/runtime/open-mem.js'
import {getMemory, type Op} from '../../src/storage/memories.js'
import {memRepo, storedId} from '../helpers/mem.js'

const BIG = 512 * 1024

/** A repo with three memories stored and closed (no recall index yet); the ids stored. */
async function repoWithMemories() {
  const {root, home, ctx} = memRepo()
  const ids: string[] = []
  for (const content of ['The deploy script lives in scripts/ship.sh', 'CI runs the integration tests on Node 20', 'Run npm test before pushing']) {
    ids.push(storedId(await store(ctx, {repo: root, content, type: 'procedure'})))
  }
  await ctx.close()
  return {root, home, dir: join(root, '.mem'), ids}
}

/** Writes the recall index of the store at `root` as it is now. */
async function indexNow(root: string): Promise<void> {
  const s = await RepoStore.open(root)
  try {
    expect(await s.rebuildIndex(buildRecallIndex)).toBe(true)
  } finally {
    await s.close()
  }
}

const header = (dir: string) => {
  const index = RecallIndexFile.open(dir)
  if (!index) throw new Error('no recall index')
  index.close()
  return index.header
}

const journalBytes = (dir: string) => statSync(join(dir, 'journal')).size

describe('RecallIndexCache', () => {
  it('without an index file: nothing is read, the reader is not called, and it is behind', async () => {
    const {dir} = await repoWithMemories()
    const cache = new RecallIndexCache({dir, maxPendingBytes: BIG})
    let called = 0
    expect(cache.read(() => ++called)).toBeUndefined()
    expect(called).toBe(0)
    expect(cache.behind(null)).toBe(true)
    expect(cache.readThrough).toBe(false)
    expect(cache.intactAndCurrent()).toBe(false)
  })

  it('a current index answers the reader; a reader that declines leaves it current but not read through', async () => {
    const {root, dir} = await repoWithMemories()
    await indexNow(root)
    const cache = new RecallIndexCache({dir, maxPendingBytes: BIG})
    expect(cache.read(() => undefined)).toBeUndefined()
    expect(cache.behind(null)).toBe(false) // current: the reader only declined
    expect(cache.readThrough).toBe(false)
    expect(cache.read((index) => index.header.generation)).toBe(header(dir).generation)
    expect(cache.readThrough).toBe(true)
    expect(cache.intactAndCurrent()).toBe(true)
  })

  it('is behind once a write that changes recall follows it, and the reader is not called', async () => {
    const {root, home, dir} = await repoWithMemories()
    await indexNow(root)
    const ctx = openMem({home, cwd: root, usage: false, meaning: {model: 'off'}})
    storedId(await store(ctx, {repo: root, content: 'Staging deploys need the VPN', type: 'observation'}))
    await ctx.close()
    const cache = new RecallIndexCache({dir, maxPendingBytes: BIG})
    let called = 0
    expect(cache.read(() => ++called)).toBeUndefined()
    expect(called).toBe(0)
    expect(cache.behind(null)).toBe(true)
    expect(cache.intactAndCurrent()).toBe(false)
  })

  it('recall counters appended after a read keep it current, up to the pending-bytes bound', async () => {
    const {root, dir, ids} = await repoWithMemories()
    await indexNow(root)
    const before = journalBytes(dir)
    const cache = new RecallIndexCache({dir, maxPendingBytes: BIG})
    expect(cache.read(() => true)).toBe(true)
    const touch: Op[] = [{op: 'touch', ids: [ids[0]], at: '2026-03-01T12:00:00.000Z'}]
    cache.appendCounters(touch)
    expect(journalBytes(dir)).toBeGreaterThan(before)
    // a new reader (another process) still finds the index current: counters change no recall
    expect(new RecallIndexCache({dir, maxPendingBytes: BIG}).read(() => 'ok')).toBe('ok')
    // the same journal, read with a bound smaller than what follows the header: behind
    const tight = new RecallIndexCache({dir, maxPendingBytes: 1})
    expect(tight.read(() => 'ok')).toBeUndefined()
    expect(tight.behind(null)).toBe(true)
    // the counters reach the store when it loads
    const s = await RepoStore.open(root)
    try {
      expect(s.read((db) => getMemory(db, ids[0])?.accessCount)).toBe(1)
    } finally {
      await s.close()
    }
  })

  it('cuts a torn tail before appending counters (bytes never acknowledged)', async () => {
    const {root, dir, ids} = await repoWithMemories()
    await indexNow(root)
    const cache = new RecallIndexCache({dir, maxPendingBytes: BIG})
    expect(cache.read(() => true)).toBe(true)
    const clean = journalBytes(dir)
    writeFileSync(join(dir, 'journal'), Buffer.concat([readFileSync(join(dir, 'journal')), Buffer.from('40 0000 {"ops":[')]))
    cache.appendCounters([{op: 'touch', ids: [ids[1]], at: '2026-03-01T12:00:00.000Z'}])
    const text = readFileSync(join(dir, 'journal'), 'utf8')
    expect(text).not.toContain('40 0000')
    expect(journalBytes(dir)).toBeGreaterThan(clean)
    const s = await RepoStore.open(root)
    try {
      expect(s.read((db) => getMemory(db, ids[1])?.accessCount)).toBe(1)
    } finally {
      await s.close()
    }
  })

  it('a damaged index is not read, is not intact, and is rewritten over a current-looking header', async () => {
    const {root, dir} = await repoWithMemories()
    await indexNow(root)
    const path = join(dir, RECALL_INDEX_FILE)
    const {generation, journalOffset} = header(dir)
    truncateSync(path, Math.floor(statSync(path).size / 2))
    const cache = new RecallIndexCache({dir, maxPendingBytes: BIG})
    expect(cache.read(() => 'ok')).toBeUndefined()
    expect(cache.behind(null)).toBe(true)
    expect(cache.intactAndCurrent()).toBe(false)
    const s = await RepoStore.open(root)
    try {
      // no position (the store cannot say where it stands): nothing is written
      expect(s.read((db) => cache.write(db, null, buildRecallIndex))).toBe(false)
      expect(s.read((db) => cache.write(db, {generation, journalOffset}, buildRecallIndex))).toBe(true)
    } finally {
      await s.close()
    }
    expect(new RecallIndexCache({dir, maxPendingBytes: BIG}).intactAndCurrent()).toBe(true)
  })

  it('a current index is not rewritten unless marked damaged; one asked for at close is written then', async () => {
    const {root, dir} = await repoWithMemories()
    await indexNow(root)
    const position = {generation: header(dir).generation, journalOffset: header(dir).journalOffset}
    const cache = new RecallIndexCache({dir, maxPendingBytes: BIG})
    const s = await RepoStore.open(root)
    try {
      expect(s.read((db) => cache.write(db, position, buildRecallIndex))).toBe(false)
      cache.markDamaged()
      expect(s.read((db) => cache.write(db, position, buildRecallIndex))).toBe(true)
      // refreshOnClose over a current index: writeOnClose leaves it alone
      let built = 0
      cache.refreshOnClose((db) => {
        built++
        return buildRecallIndex(db)
      })
      s.read((db) => cache.writeOnClose(db, position))
      expect(built).toBe(0)
      cache.markDamaged()
      s.read((db) => cache.writeOnClose(db, position))
      expect(built).toBe(1)
    } finally {
      await s.close()
    }
  })

  it('knows its position for the generation it is current for, and carries it to a new one', async () => {
    const {root, dir} = await repoWithMemories()
    await indexNow(root)
    const {generation, journalOffset} = header(dir)
    const cache = new RecallIndexCache({dir, maxPendingBytes: BIG})
    expect(cache.positionIfCurrent('another-generation')).toBeNull()
    const from = cache.positionIfCurrent(generation)
    expect(from).toEqual({generation, journalOffset})
    cache.carry(from!, {generation: 'next-generation', journalOffset: 40})
    expect(header(dir)).toMatchObject({generation: 'next-generation', journalOffset: 40})
    // now of a generation the journal does not have: behind for every reader
    expect(new RecallIndexCache({dir, maxPendingBytes: BIG}).read(() => 'ok')).toBeUndefined()
  })
})
