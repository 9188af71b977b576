import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {halfBytes, halfVector} from '../../../src/storage/half-float.js'
import {describe, expect, it} from 'vitest'
import {readUserConfig, type EnrichmentConfig} from '../../../src/config/user-config.js'
import {enrich, enrichAll} from '../../../src/operations/enrich.js'
import {forget} from '../../../src/operations/forget.js'
import {maintain} from '../../../src/operations/maintain.js'
import {recall} from '../../../src/operations/recall.js'
import {store} from '../../../src/operations/store.js'
import {checkVectors, createEmbedder} from '../../../src/engines/enrichment/embed.js'
import {MemError} from '../../../src/model/errors.js'
import {openMem} from '../../../src/runtime/open-mem.js'
import {getSupplement} from '../../../src/storage/supplements.js'
import {getVector} from '../../../src/storage/vectors.js'
import {fakeRuntime, fakeVector, type FakeMode} from '../../helpers/fake-llm.js'
import {memRepo, storedId as id} from '../../helpers/mem.js'

const GRANDMA = 'Grandma bakes sourdough loaves every Sunday morning.'
const OTHERS = [
  'Builds use esbuild; the bundle goes to dist/cli before the tests run.',
  'The staging database is reset every night at two.',
  'Release notes are written from the merged pull requests.',
  'Run the integration tests with npm run test:int and MEM_HOME set.',
]
// no word in common with GRANDMA, even after stemming, synonyms and typo correction
const PARAPHRASE = 'granny makes bread each weekend'

function unit(v: number[]): number[] {
  const n = Math.hypot(...v)
  return v.map((x) => Math.fround(x / n))
}

/** A repo whose context uses a fake runtime with embeddings on (and the same repo without them). */
function withEmbeddings(url: string, config: Partial<EnrichmentConfig> = {}, embeddings: Partial<NonNullable<EnrichmentConfig['embeddings']>> = {}) {
  const base = memRepo()
  const enrichment: EnrichmentConfig = {
    provider: 'ollama',
    url,
    model: 'tiny',
    timeoutMs: 5_000,
    ...config,
    embeddings: {model: 'tiny-embed', dims: null, timeoutMs: 2_000, ...embeddings},
  }
  const ctx = openMem({home: base.home, cwd: base.root, now: base.clock, enrichment})
  const plain = () => openMem({home: base.home, cwd: base.root, now: base.clock, enrichment: null, meaning: {model: 'off'}})
  return {...base, ctx, plain}
}

async function seed(ctx: ReturnType<typeof openMem>, repo: string): Promise<{grandma: string; others: string[]}> {
  const grandma = id(await store(ctx, {repo, content: GRANDMA, type: 'insight'}))
  const others = []
  for (const c of OTHERS) others.push(id(await store(ctx, {repo, content: c, type: 'insight'})))
  return {grandma, others}
}

describe('the embeddings config', () => {
  it('is off by default, on only when enabled, with defaults per provider', async () => {
    const {home} = memRepo()
    mkdirSync(home, {recursive: true})
    const write = (yaml: string) => writeFileSync(join(home, 'config.yaml'), yaml)
    write('enrichment:\n  provider: ollama\n  embeddings:\n    model: nomic-embed-text\n')
    expect((await readUserConfig(home)).enrichment).toEqual({provider: 'ollama', url: 'http://127.0.0.1:11434', model: 'llama3.2', timeoutMs: 30_000})
    write('enrichment:\n  provider: ollama\n  embeddings:\n    enabled: true\n')
    expect((await readUserConfig(home)).enrichment?.embeddings).toEqual({model: 'nomic-embed-text', dims: null, timeoutMs: 2_000})
    write('enrichment:\n  provider: openai\n  embeddings:\n    enabled: true\n    model: bge-small\n    dims: 384\n    timeoutMs: 500\n')
    expect((await readUserConfig(home)).enrichment?.embeddings).toEqual({model: 'bge-small', dims: 384, timeoutMs: 500})
    // embeddings come from the enrichment runtime: with enrichment off there are none
    write('enrichment:\n  provider: off\n  embeddings:\n    enabled: true\n')
    expect((await readUserConfig(home)).enrichment).toBeNull()
    write('enrichment:\n  provider: ollama\n  embeddings:\n    enabled: true\n    dims: 0\n')
    await expect(readUserConfig(home)).rejects.toThrow(/enrichment.embeddings.dims: must be at least 1/)
    write('enrichment:\n  provider: ollama\n  embeddings:\n    enabled: true\n    dims: 100000\n')
    await expect(readUserConfig(home)).rejects.toThrow(/dims: must be at most 8192/)
  })
})

describe('embedding answers are untrusted data', () => {
  const who = 'test'
  const bad = (raw: unknown, count = 1, dims: number | null = null) => {
    let err: unknown
    try {
      checkVectors(raw, count, dims, who)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(MemError)
    expect((err as MemError).code).toBe('unavailable')
    return (err as MemError).message
  }

  it('accepts one list of finite numbers per input and returns unit vectors', () => {
    const [a, b] = checkVectors([[3, 4], [0, -2]], 2, 2, who)
    expect([...a]).toEqual([Math.fround(0.6), Math.fround(0.8)])
    expect([...b]).toEqual([0, -1])
  })

  it('refuses wrong counts, lengths, values and shapes', () => {
    expect(bad(undefined)).toMatch(/no list of vectors/)
    expect(bad({0: [1]})).toMatch(/no list of vectors/)
    expect(bad([[1, 2]], 2)).toMatch(/1 vectors for 2 inputs/)
    expect(bad([[1, 2], [1, 2, 3]], 2)).toMatch(/3 numbers where 2 were expected/)
    expect(bad([[1, 2, 3]], 1, 2)).toMatch(/3 numbers where 2 were expected/)
    expect(bad([[1, Number.POSITIVE_INFINITY]])).toMatch(/not a finite number/)
    expect(bad([[1, Number.NaN]])).toMatch(/not a finite number/)
    expect(bad([[1, '2']])).toMatch(/not a finite number/)
    expect(bad([[1, 1e300]])).toMatch(/not a finite number/)
    expect(bad([[0, 0, 0]])).toMatch(/zero vector/)
    expect(bad([[]])).toMatch(/not a list of numbers/)
    expect(bad(['abc'])).toMatch(/not a list of numbers/)
    expect(bad([new Array(10_000).fill(1)])).toMatch(/at most 8192/)
  })
})

describe.each(['ollama', 'openai'] as const)('embeddings through a %s runtime', (provider) => {
  const url = (fake: {url: string}) => (provider === 'openai' ? `${fake.url}/v1` : fake.url)

  it('mem enrich --all stores one unit vector per live memory (kept in binary16), in batches, and replays from the journal', async () => {
    const fake = await fakeRuntime()
    const {ctx, repo, plain} = withEmbeddings(url(fake), {provider})
    const {grandma, others} = await seed(ctx, repo)
    for (let i = 0; i < 20; i++) await store(ctx, {repo, content: `Filler note number ${i} about topic ${i * 7}.`, type: 'observation'})
    const r = await enrichAll(ctx, {repo})
    expect(r).toMatchObject({provider, enriched: 25, failed: 0, stopped: null, embedded: 25})
    const embeds = fake.embeds()
    expect(embeds.map((e) => e.path)).toEqual(provider === 'openai' ? ['/v1/embeddings', '/v1/embeddings'] : ['/api/embed', '/api/embed'])
    expect(embeds.map((e) => e.body.input.length)).toEqual([16, 9])
    expect(embeds[0].body).toMatchObject({model: 'tiny-embed', input: expect.arrayContaining([GRANDMA])})

    // another process sees them through the journal
    const other = plain()
    const handle = await other.repo(repo, 'read')
    const v = handle.store.read((db) => getVector(db, grandma))!
    expect(v).toMatchObject({model: 'tiny-embed', dims: 64})
    // the store keeps binary16: the runtime's unit vector, each number to its nearest half
    expect([...v.vector]).toEqual([...halfVector(halfBytes(Float32Array.from(unit(fakeVector(GRANDMA)))))])
    expect(handle.store.read((db) => getVector(db, others[0]))?.dims).toBe(64)
    await other.close()

    // nothing left to embed: no request
    const again = await enrichAll(ctx, {repo})
    expect(again.embedded).toBe(0)
    expect(fake.embeds()).toHaveLength(2)
  })

  it('recall finds a paraphrase with no word in common through the vector signal; without embeddings it does not', async () => {
    const fake = await fakeRuntime()
    const {ctx, repo, plain} = withEmbeddings(url(fake), {provider})
    const {grandma} = await seed(ctx, repo)
    await enrichAll(ctx, {repo})
    const withVectors = await recall(ctx, {repo, q: PARAPHRASE})
    expect(withVectors.results[0]?.id).toBe(grandma)
    expect(withVectors.results[0].score).toBeGreaterThan(0)
    const without = await recall(plain(), {repo, q: PARAPHRASE})
    expect(without.results.map((r) => r.id)).not.toContain(grandma)
    // the query went to the embedding endpoint
    expect(fake.embeds().at(-1)?.body).toEqual({model: 'tiny-embed', input: [PARAPHRASE]})
  })
})

describe('recall with embeddings', () => {
  it('re-ranks the text candidates with cosine and keeps the type filter and live-only rule', async () => {
    const fake = await fakeRuntime()
    const {ctx, repo} = withEmbeddings(fake.url)
    const {grandma} = await seed(ctx, repo)
    const proc = id(await store(ctx, {repo, content: 'Grandmother keeps the baking schedule on the fridge.', type: 'procedure'}))
    await enrichAll(ctx, {repo})
    // only procedures: the insight about grandma is not a candidate even by meaning
    const procs = await recall(ctx, {repo, q: PARAPHRASE, type: 'procedure'})
    expect(procs.results.map((r) => r.id)).toEqual([proc])
    // a forgotten memory's vector is not used
    await forget(ctx, {id: grandma})
    const after = await recall(ctx, {repo, q: PARAPHRASE})
    expect(after.results.map((r) => r.id)).not.toContain(grandma)
  })

  it('with embeddings off, recall is exactly the text-only recall and asks no runtime', async () => {
    const fake = await fakeRuntime()
    const a = memRepo()
    const ctxOff = openMem({home: a.home, cwd: a.root, now: a.clock, enrichment: {provider: 'ollama', url: fake.url, model: 'tiny', timeoutMs: 5_000}, meaning: {model: 'off'}})
    await seed(ctxOff, a.repo)
    await enrichAll(ctxOff, {repo: a.repo})
    const plain = openMem({home: a.home, cwd: a.root, now: a.clock, enrichment: null, meaning: {model: 'off'}})
    for (const q of [PARAPHRASE, 'integration tests', 'esbuild bundle', 'database reset']) {
      expect(await recall(ctxOff, {repo: a.repo, q})).toEqual(await recall(plain, {repo: a.repo, q}))
    }
    expect(fake.embeds()).toHaveLength(0)
  })

  it.each(['failing', 'slow', 'nan', 'bad-dims', 'wide', 'short', 'huge'] as FakeMode[])(
    'a runtime that answers %s at query time leaves recall exactly as without embeddings',
    async (mode) => {
      const fake = await fakeRuntime()
      const {ctx, repo, plain} = withEmbeddings(fake.url, {}, {timeoutMs: 200, dims: 64})
      await seed(ctx, repo)
      await enrichAll(ctx, {repo})
      fake.setMode(mode)
      const off = plain()
      for (const q of [PARAPHRASE, 'integration tests', 'Sunday sourdough']) {
        expect(await recall(ctx, {repo, q})).toEqual(await recall(off, {repo, q}))
      }
      expect(fake.embeds().length).toBeGreaterThan(1)
    },
  )
})

describe('bad embedding answers while enriching store nothing', () => {
  it.each(['failing', 'nan', 'bad-dims', 'wide', 'short', 'huge'] as FakeMode[])('%s: enrich --all reports it and stores no vector', async (mode) => {
    const fake = await fakeRuntime()
    const {ctx, repo} = withEmbeddings(fake.url, {}, {dims: 64})
    const {grandma, others} = await seed(ctx, repo)
    fake.setMode(mode)
    const r = await enrichAll(ctx, {repo})
    expect(r.embedded).toBe(0)
    expect(r.stopped).toBeTruthy()
    if (mode !== 'failing' && mode !== 'huge') {
      // the chat answers were fine; only the vectors were refused
      expect(r.enriched).toBe(5)
      expect(r.stopped).toMatch(/^Embedding stopped after 0 of 5 memories/)
      expect(r.errors).toEqual([{id: grandma, error: expect.stringMatching(/answered with .*no vector was stored/)}])
    }
    const handle = await ctx.repo(repo, 'write')
    for (const m of [grandma, ...others]) expect(handle.store.read((db) => getVector(db, m))).toBeUndefined()
  })

  it('mem enrich ID with a bad vector answer is unavailable and writes neither supplements nor vector', async () => {
    const fake = await fakeRuntime({mode: 'nan'})
    const {ctx, repo} = withEmbeddings(fake.url)
    const {grandma} = await seed(ctx, repo)
    const err = await enrich(ctx, {id: grandma}).then(() => undefined, (e: unknown) => e)
    expect(err).toBeInstanceOf(MemError)
    expect((err as MemError).code).toBe('unavailable')
    expect((err as MemError).message).toMatch(/not a finite number/)
    const handle = await ctx.repo(repo, 'write')
    expect(handle.store.read((db) => getSupplement(db, grandma))).toBeUndefined()
    expect(handle.store.read((db) => getVector(db, grandma))).toBeUndefined()

    fake.setMode('ok')
    expect((await enrich(ctx, {id: grandma})).enriched).toBe(true)
    expect(handle.store.read((db) => getVector(db, grandma))?.dims).toBe(64)
  })

  it('a slow runtime times out and an oversized answer is refused unread, with clear errors', async () => {
    const fake = await fakeRuntime({mode: 'slow', slowMs: 2_000})
    const e = createEmbedder({provider: 'ollama', url: fake.url, model: 'x', timeoutMs: 100, embeddings: {model: 'tiny-embed', dims: null, timeoutMs: 100}})!
    await expect(e.embed(['hello'], 100)).rejects.toThrow(/ollama \(model tiny-embed at .*\) did not answer within 100 ms/)
    fake.setMode('huge')
    await expect(e.embed(['hello'], 5_000)).rejects.toThrow(/answered with more than 8192 KB; it was not read/)
    fake.setMode('ok')
    expect((await e.embed(['hello', 'world'], 5_000)).map((v) => v.length)).toEqual([64, 64])
    expect(createEmbedder({provider: 'ollama', url: fake.url, model: 'x', timeoutMs: 100})).toBeNull()
  })
})

describe('vectors in maintenance and purge', () => {
  it('the maintenance enrichment stage writes vectors and reports a failing runtime; a purge drops the vector', async () => {
    const fake = await fakeRuntime()
    const {ctx, repo} = withEmbeddings(fake.url)
    const {grandma} = await seed(ctx, repo)
    const report = await maintain(ctx, {repo, stages: ['enrichment']})
    expect(report.stages[0].error).toBeUndefined()
    const handle = await ctx.repo(repo, 'write')
    expect(handle.store.read((db) => getVector(db, grandma))?.model).toBe('tiny-embed')

    const n = id(await store(ctx, {repo, content: 'Another lesson about the release branch.', type: 'insight'}))
    await enrich(ctx, {id: n})
    fake.setMode('nan')
    const other = id(await store(ctx, {repo, content: 'Yet another lesson, about code review.', type: 'insight'}))
    await handle.store.write(() => ({ops: [{op: 'supplement', id: other, supplement: {provider: 'ollama', model: 'tiny', oneLiner: 'x', summary: null, foresight: null, entities: [], enrichedAt: 'now'}}], result: null}))
    const failed = await maintain(ctx, {repo, stages: ['enrichment']})
    expect(failed.stages[0].error).toMatch(/not a finite number/)
    expect(handle.store.read((db) => getVector(db, other))).toBeUndefined()

    await handle.store.write(() => ({ops: [{op: 'purge', id: grandma}], result: null}))
    expect(handle.store.read((db) => getVector(db, grandma))).toBeUndefined()
  })
})
