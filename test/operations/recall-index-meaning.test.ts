import {readFileSync, openSync, readSync, writeSync, closeSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {recall} from '../../src/operations/recall.js'
import {store} from '../../src/operations/store.js'
import {openMem} from '../../src/runtime/open-mem.js'
import {RECALL_INDEX_FILE, RecallIndexFile} from '../../src/storage/recall-index.js'
import {loadStaticTable} from '../../src/engines/meaning/static-table.js'
import {MEMORY_TYPES} from '../../src/model/memory.js'
import {fixedClock, memRepo, storedId, type Clock} from '../helpers/mem.js'

const DATA = join(import.meta.dirname, '..', 'bench', 'recall', 'data')
const MEMORIES = (JSON.parse(readFileSync(join(DATA, 'memories.json'), 'utf8')) as Array<{type: (typeof MEMORY_TYPES)[number]; content: string; tags: string[]; importance: number}>).slice(0, 120)
const PARAPHRASES = (JSON.parse(readFileSync(join(DATA, 'questions.json'), 'utf8')) as Array<{q: string; kind: string}>).filter((q) => q.kind === 'paraphrase').map((q) => q.q)

const STATIC = {model: 'static' as const}

/** A repo whose memories were stored with the static table on (each stored with its vector). */
async function seeded() {
  const r = memRepo({}, {meaning: STATIC})
  for (const m of MEMORIES) {
    r.clock.advance(3_600_000)
    storedId(await store(r.ctx, {repo: r.repo, ...m}))
  }
  await r.ctx.close()
  return r
}

/** Recalls `q` in a fresh one-shot context (as `mem recall` has); `loaded`: whether the store had to be loaded. */
async function oneShot(home: string, root: string, clock: Clock, q: string, meaning: {model: 'static' | 'off'} = STATIC) {
  const ctx = openMem({home, cwd: root, now: clock, meaning})
  try {
    const result = await recall(ctx, {repo: root, q, touch: false})
    const loaded = (await ctx.repo(root, 'read', {deferLoad: true})).store.isLoaded
    return {result, loaded}
  } finally {
    await ctx.close()
  }
}

/** The same recall in a long-lived context (as `mem serve` and MCP have): the store answers, never the index. */
async function longLived(home: string, root: string, clock: Clock, qs: string[]) {
  const ctx = openMem({home, cwd: root, now: clock, meaning: STATIC, longLived: true})
  try {
    const out = []
    for (const q of qs) out.push(await recall(ctx, {repo: root, q, touch: false}))
    return out
  } finally {
    await ctx.close()
  }
}

const indexOf = (root: string) => RecallIndexFile.open(join(root, '.mem'))!

describe('meaning vectors in the recall index', () => {
  it('hold every live memory’s vector, so a cold recall the words do not answer ranks by meaning without loading the store, exactly as the store does', async () => {
    const r = await seeded()
    const clock = fixedClock(r.clock().toISOString())
    // the first one-shot recall loads the store and writes the index as it closes
    expect((await oneShot(r.home, r.root, clock, PARAPHRASES[0])).loaded).toBe(true)
    const index = indexOf(r.root)
    try {
      expect(index.header.vectors).toEqual({model: loadStaticTable().id, dims: 256, count: MEMORIES.length, missing: 0})
    } finally {
      index.close()
    }
    const expected = await longLived(r.home, r.root, clock, PARAPHRASES)
    let byMeaning = 0
    for (const [i, q] of PARAPHRASES.entries()) {
      const {result, loaded} = await oneShot(r.home, r.root, clock, q)
      expect(loaded, q).toBe(false)
      expect(result, q).toEqual(expected[i])
      const words = await oneShot(r.home, r.root, clock, q, {model: 'off'})
      if (JSON.stringify(words.result) !== JSON.stringify(result)) byMeaning++
    }
    // the questions are ranked with meaning (a test whose every answer is the words' own would prove nothing)
    expect(byMeaning).toBeGreaterThan(5)
  }, 120_000)

  it('a memory stored without a vector sends a recall by meaning to the store, which embeds it; then the index answers again', async () => {
    const r = await seeded()
    const clock = fixedClock(r.clock().toISOString())
    await oneShot(r.home, r.root, clock, PARAPHRASES[0])
    // a question the words alone do not answer (the model is asked)
    let q = ''
    for (const p of PARAPHRASES) {
      const [meaning, words] = [await oneShot(r.home, r.root, clock, p), await oneShot(r.home, r.root, clock, p, {model: 'off'})]
      if (JSON.stringify(meaning.result) !== JSON.stringify(words.result)) {
        q = p
        break
      }
    }
    expect(q).not.toBe('')
    // stored with meaning off: no vector
    const off = openMem({home: r.home, cwd: r.root, now: clock, meaning: {model: 'off'}})
    storedId(await store(off, {repo: r.root, content: 'Release notes are drafted by the on-call engineer every Friday afternoon', type: 'procedure'}))
    await off.close()
    expect((await oneShot(r.home, r.root, clock, q)).loaded).toBe(true)
    const index = indexOf(r.root)
    try {
      expect(index.header.vectors).toMatchObject({count: MEMORIES.length + 1, missing: 0})
    } finally {
      index.close()
    }
    expect((await oneShot(r.home, r.root, clock, q)).loaded).toBe(false)
  }, 120_000)

  it('with meaning off, the index is read as before: the words answer, no model, no store', async () => {
    const r = await seeded()
    const clock = fixedClock(r.clock().toISOString())
    await oneShot(r.home, r.root, clock, 'x', {model: 'off'})
    for (const q of PARAPHRASES.slice(0, 5)) expect((await oneShot(r.home, r.root, clock, q, {model: 'off'})).loaded, q).toBe(false)
  }, 120_000)

  it('damaged vectors are never read as data: the store answers the same, and the file is rewritten', async () => {
    const r = await seeded()
    const clock = fixedClock(r.clock().toISOString())
    const q = PARAPHRASES[2]
    const good = await oneShot(r.home, r.root, clock, q)
    const index = indexOf(r.root)
    const [offset, length] = index.header.sections.vecs!
    const at = index.base + offset + Math.floor(length / 2)
    index.close()
    const fd = openSync(join(r.root, '.mem', RECALL_INDEX_FILE), 'r+')
    const b = Buffer.alloc(1)
    readSync(fd, b, 0, 1, at)
    b[0] ^= 0x40
    writeSync(fd, b, 0, 1, at)
    closeSync(fd)
    const damaged = await oneShot(r.home, r.root, clock, q)
    expect(damaged.loaded).toBe(true)
    expect(damaged.result).toEqual(good.result)
    expect((await oneShot(r.home, r.root, clock, q)).loaded).toBe(false)
  }, 120_000)
})
