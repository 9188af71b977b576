import {readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {recall} from '../../../src/operations/recall.js'
import {store} from '../../../src/operations/store.js'
import {openMem} from '../../../src/runtime/open-mem.js'
import {loadStaticTable, readStaticTable, STATIC_ONLY_FLOOR, staticRow, staticTablePath, StaticTableError} from '../../../src/engines/meaning/static-table.js'
import {loadLocalTable} from '../../../src/engines/meaning/local-table.js'
import {searchMemories} from '../../../src/engines/search/engine.js'
import {getVector} from '../../../src/storage/vectors.js'
import {memRepo, storedId, tempDir} from '../../helpers/mem.js'
import {writeTinyModel} from '../../helpers/tiny-model.js'
import {MEANING_NOTES as NOTES, ISSUE_QUESTIONS as QUESTIONS} from '../../helpers/meaning-cases.js'

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0)

describe('the static table distilled from the built-in model (meaning.model: static)', () => {
  it('ships with mem and loads from models/, unit vectors by a lookup of the words', async () => {
    const file = staticTablePath()
    expect(file).not.toBeNull()
    const model = loadStaticTable()
    expect(model.about).toMatchObject({kind: 'static', sizeBytes: statSync(file!).size, licence: expect.stringMatching(/^Apache-2\.0/)})
    expect(model.id).toMatch(/^static\/use-lite-distilled-256x\d+-[0-9a-f]{12}$/)
    expect(model.onlyFloor).toBe(STATIC_ONLY_FLOOR)
    const [a, b, none] = await model.embed(['Deploy to production', 'deploy TO production!', 'qqqzzz xxyyzz'])
    expect(a).toHaveLength(model.dims)
    expect(dot(a, a)).toBeCloseTo(1, 5)
    // case and punctuation do not change the words; words the table does not hold add nothing
    expect([...b]).toEqual([...a])
    expect(none.every((x) => x === 0)).toBe(true)
  })

  it("a plural without a row of its own takes its singular's (the rows the distil script trains are the ones the loader reads)", async () => {
    const index = new Map([
      ['deploy', 0],
      ['news', 1],
      ['bus', 2],
    ])
    expect(staticRow(index, 'deploys')).toBe(0)
    expect(staticRow(index, 'news')).toBe(1) // a word of its own is never cut
    expect(staticRow(index, 'bu')).toBeUndefined()
    expect(staticRow(index, 'bus')).toBe(2)
    expect(staticRow(index, 'uss')).toBeUndefined() // three letters: not taken for a plural
    expect(staticRow(index, 'deployss')).toBeUndefined()
    const model = loadStaticTable()
    const [one, many] = await model.embed(['deploy', 'deploys'])
    expect([...many]).toEqual([...one])
  })

  it("ranks each of the issue's four notes first for its question among the four, with no word in common", async () => {
    const model = loadStaticTable()
    const notes = await model.embed(NOTES)
    for (const [i, q] of QUESTIONS.entries()) {
      const [v] = await model.embed([q])
      const cos = notes.map((n) => dot(n, v))
      expect(cos.indexOf(Math.max(...cos)), q).toBe(i)
    }
  })

  it('finds nothing for questions no memory is about: the floor of a hit by meaning alone', async () => {
    const r = memRepo({}, {meaning: {model: 'static'}})
    const ids: string[] = []
    for (const content of NOTES) ids.push(storedId(await store(r.ctx, {repo: r.repo, content, type: 'procedure'})))
    for (const q of ['how do I bake bread', 'what is the capital of Peru', 'Why is the sky blue?', 'tell me a joke about cats']) {
      expect((await recall(r.ctx, {repo: r.repo, q, touch: false})).results, q).toEqual([])
    }
    // words still answer, and every memory has its vector from the table, through the journal
    expect((await recall(r.ctx, {repo: r.repo, q: 'pnpm', touch: false})).results.map((x) => x.id)).toEqual([ids[0]])
    const handle = await r.ctx.repo(r.repo, 'read')
    for (const id of ids) expect(handle.store.read((db) => getVector(db, id))).toMatchObject({model: loadStaticTable().id, dims: 256})
  })

  it('a damaged table file is refused whole, naming the file and what is wrong', () => {
    const good = readFileSync(staticTablePath()!)
    const file = join(tempDir(), 'meaning-static.bin')
    writeFileSync(file, good.subarray(0, good.length - 7))
    expect(() => readStaticTable(file)).toThrow(StaticTableError)
    expect(() => readStaticTable(file)).toThrow(new RegExp(`${file} is ${good.length - 7} bytes; \\d+ words × 256 dims need ${good.length}`))
    writeFileSync(file, Buffer.concat([Buffer.from('NOTATABL'), good.subarray(8)]))
    expect(() => loadStaticTable(file)).toThrow(`${file} is not a mem static table (no MEMSTAT1 mark)`)
    writeFileSync(file, good.subarray(0, 40))
    expect(() => readStaticTable(file)).toThrow(/is cut short \(header and vocabulary need \d+ bytes, the file has 40\)/)
    const header = good.readUInt32LE(8)
    const bad = Buffer.from(good)
    bad.write('{', 16 + header - 1, 'latin1')
    writeFileSync(file, bad)
    expect(() => readStaticTable(file)).toThrow(`${file} has a header that is not JSON`)
    expect(() => readStaticTable(join(tempDir(), 'nothing.bin'))).toThrow(/nothing\.bin cannot be read \(ENOENT\)/)
  })

  it('MEM_MEANING=static and meaning.model: static select it; a wrong name lists it', async () => {
    const base = memRepo()
    const viaEnv = openMem({home: base.home, cwd: base.root, now: base.clock, env: {MEM_MEANING: 'static'}})
    expect((await viaEnv.meaning!()).setting).toEqual({model: 'static'})
    const bad = openMem({home: base.home, cwd: base.root, now: base.clock, env: {MEM_MEANING: 'statik'}})
    await expect(bad.meaning!()).rejects.toThrow(/MEM_MEANING is "statik": it must be off, static, builtin, runtime or the absolute path of a model directory/)
    await Promise.all([viaEnv.close(), bad.close()])
  })
})

describe('the floor of a hit found by meaning alone (search engine)', () => {
  it('keeps a memory found only by meaning out when its cosine is under the floor, and in above it', async () => {
    const dir = writeTinyModel(join(tempDir(), 'tiny-floor'))
    const r = memRepo({}, {meaning: {model: 'local', dir}})
    const grandma = storedId(await store(r.ctx, {repo: r.repo, content: 'Grandma bakes sourdough loaves every Sunday morning.', type: 'insight'}))
    await store(r.ctx, {repo: r.repo, content: 'Builds use esbuild; the bundle goes to dist/cli.', type: 'insight'})
    await recall(r.ctx, {repo: r.repo, q: 'granny'}) // gives the memories their vectors
    const model = loadLocalTable(dir)
    const [vector] = await model.embed(['granny bread'])
    const handle = await r.ctx.repo(r.repo, 'read')
    const cos = dot(vector, (await model.embed(['Grandma bakes sourdough loaves every Sunday morning.']))[0])
    const search = (onlyFloor?: number) =>
      handle.store.read((db) => searchMemories(db, 'granny bread', {limit: 5, now: r.clock(), index: 'memory', embedding: {model: model.id, vector, ...(onlyFloor === undefined ? {} : {onlyFloor})}})).map((h) => h.memory.id)
    expect(search()).toEqual([grandma])
    expect(search(cos - 0.01)).toEqual([grandma])
    expect(search(cos + 0.01)).toEqual([])
  })
})
