import {describe, expect, it} from 'vitest'
import {store} from '../../../src/operations/store.js'
import {COMPARE_BUDGET} from '../../../src/engines/gates/duplicates.js'
import {factShape} from '../../../src/text/values.js'
import {updateRelation} from '../../../src/engines/currency/rules.js'
import {memRepo, storedId} from '../../helpers/mem.js'
// @ts-expect-error plain JavaScript, shared with the benchmark
import {ADVERSARIAL, N, PROSE, variantOf} from '../../helpers/adversarial.mjs'

const SHAPES = Object.entries(ADVERSARIAL as Record<string, string>)
// texts with no letter or digit are not memories (content gate): the changed one has a word
const NO_WORDS = new Set(['brackets nested', 'quotes and backticks', 'emoji'])

describe('texts of any shape, at the longest a memory may be (issue 28)', () => {
  it('builds each shape at exactly 16,000 characters, its variant too', () => {
    for (const [name, text] of SHAPES) {
      expect(text.length, name).toBe(N)
      expect(variantOf(text).length, name).toBeLessThanOrEqual(N)
      expect(variantOf(text), name).not.toBe(text)
    }
  })

  it('stores each one, answers the same text again as its duplicate, and stores it with its last word changed', async () => {
    for (const [name, text] of SHAPES) {
      const {ctx, repo, clock} = memRepo()
      const first = await store(ctx, {repo, content: text, type: 'heuristic'})
      if (NO_WORDS.has(name)) {
        expect(first, name).toEqual({success: false, reason: 'Rejected: content has no letters or digits; a memory must say something (rule no-words)'})
      } else {
        const id = storedId(first)
        clock.advance(60_000)
        expect(await store(ctx, {repo, content: text, type: 'heuristic'}), name).toEqual({success: false, duplicateId: id, reason: 'duplicate'})
      }
      clock.advance(60_000)
      const changed = await store(ctx, {repo, content: variantOf(text), type: 'heuristic'})
      expect(changed.success, name).toBe(true)
      expect('unchecked' in changed, name).toBe(false)
      await ctx.close()
    }
  })

  it('reads the fact shape of a run of stop words and of a run of closing brackets as before', () => {
    // "a a a …": every word a stop word, none a subject word or value
    const stop = factShape(ADVERSARIAL['stop words (a a a …)'])
    expect([stop.words, stop.values, stop.sequence.length, stop.breaks]).toEqual([[], [], 8_000, []])
    // 15,999 closing brackets and an x: one word of 16,000 characters, no clause ends, no value
    const closers = factShape(ADVERSARIAL['no spaces: closing brackets'])
    expect([closers.sequence.map((w) => w.length), closers.breaks, closers.values]).toEqual([[16_000], [], []])
    // an x and 15,999 closing brackets: the word x, whose clause the brackets end
    const closed = factShape(`x${')'.repeat(15_999)}`)
    expect([closed.sequence, closed.breaks]).toEqual([['x'], [1]])
    // a text whose clauses all end with "a." closes each one
    const dots = factShape('Deploy a. Build a. Test a.')
    expect([dots.words, dots.breaks]).toEqual([['build', 'deploi', 'test'], [2, 4, 6]])
    // the same text with one value changed is an update, however long
    const base = `${'The deploy job runs the unit tests. '.repeat(400)}CI runs on Node 18`
    expect(updateRelation(factShape(base.replace('Node 18', 'Node 20')), factShape(base))?.reason).toBe('18 → 20')
  })
})

describe('the compare budget of a store', () => {
  const version = (i: number) => `${PROSE.slice(0, N - 8)} v${i}`

  it('compares the newest like memories within the budget, and says how many it left', async () => {
    const {ctx, repo, clock} = memRepo()
    const ids: string[] = []
    for (let i = 0; i < 10; i++) {
      ids.push(storedId(await store(ctx, {repo, content: version(i), type: 'heuristic'})))
      clock.advance(60_000)
    }
    // each pair reads the new text and the candidate: 16,000 + 16,000 characters
    const within = Math.floor(COMPARE_BUDGET / (2 * N))
    expect(within).toBe(4)
    const r = await store(ctx, {repo, content: version(10), type: 'heuristic'})
    expect(r.success).toBe(true)
    if (!r.success) return
    expect(r.unchecked).toBe(10 - within)
    // the newest version is compared and updated (the older ones are reached through it)
    expect(r.updates).toEqual([{id: ids[9], reason: 'v9 → v10'}])
    await ctx.close()
  })

  it('counts the budget in the characters of the texts as read, outside the BMP too (SQLite counts those as one)', async () => {
    const {ctx, repo, clock} = memRepo()
    // 🎉 is two code units here and one character to SQLite: by SQLite's count five would fit
    const emoji = (i: number) => `${PROSE.replaceAll(' ', ` ${'🎉'.repeat(16)} `).slice(0, N - 8)} v${i}`
    for (let i = 0; i < 10; i++) {
      storedId(await store(ctx, {repo, content: emoji(i), type: 'heuristic'}))
      clock.advance(60_000)
    }
    const r = await store(ctx, {repo, content: emoji(10), type: 'heuristic'})
    expect(r.success).toBe(true)
    if (!r.success) return
    expect(r.unchecked).toBe(10 - Math.floor(COMPARE_BUDGET / (2 * N)))
    await ctx.close()
  })

  it('finds a text stored again word for word past the budget (by its folded text)', async () => {
    const {ctx, repo, clock} = memRepo()
    // observations: two that differ by a value are two events, never an update of each other
    const ids: string[] = []
    for (let i = 0; i < 10; i++) {
      ids.push(storedId(await store(ctx, {repo, content: version(i), type: 'observation'})))
      clock.advance(60_000)
    }
    const again = await store(ctx, {repo, content: version(0), type: 'observation'})
    expect(again).toEqual({success: false, duplicateId: ids[0], reason: 'duplicate'})
    // the newest, within the budget, as well
    expect(await store(ctx, {repo, content: version(9), type: 'observation'})).toEqual({success: false, duplicateId: ids[9], reason: 'duplicate'})
    await ctx.close()
  })

  it('never leaves an ordinary note unchecked: 70 versions of one fact, 64 candidates each', async () => {
    const {ctx, repo, clock} = memRepo()
    let last = ''
    for (let i = 0; i < 70; i++) {
      const r = await store(ctx, {repo, content: `The API dev server listens on port ${3000 + i} in the local setup of the web app`, type: 'heuristic'})
      expect(r.success).toBe(true)
      if (!r.success) return
      expect('unchecked' in r).toBe(false)
      if (last) expect(r.updates?.[0]).toEqual({id: last, reason: `${3000 + i - 1} → ${3000 + i}`})
      last = r.id
      clock.advance(60_000)
    }
    await ctx.close()
  })
})
