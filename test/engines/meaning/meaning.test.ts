import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {recall} from '../../../src/operations/recall.js'
import {store} from '../../../src/operations/store.js'
import {edit} from '../../../src/operations/edit.js'
import {packExport} from '../../../src/operations/pack-export.js'
import {packImport} from '../../../src/operations/pack-import.js'
import {openMem} from '../../../src/runtime/open-mem.js'
import {loadLocalTable, LocalModelError, WordPiece} from '../../../src/engines/meaning/local-table.js'
import {countWithoutVectorFrom, getVector} from '../../../src/storage/vectors.js'
import {memRepo, storedId, tempDir} from '../../helpers/mem.js'
import {writeTinyModel} from '../../helpers/tiny-model.js'
import {MEANING_NOTES as NOTES, MEANING_QUESTIONS as QUESTIONS} from '../../helpers/meaning-cases.js'

describe('the built-in model (Universal Sentence Encoder Lite, from the npm package)', () => {
  it("answers the issue's four questions that words cannot, and words alone answer none", async () => {
    const on = memRepo({}, {meaning: {model: 'builtin'}})
    const ids: string[] = []
    for (const content of NOTES) ids.push(storedId(await store(on.ctx, {repo: on.repo, content, type: 'procedure'})))
    const off = openMem({home: on.home, cwd: on.root, now: on.clock, meaning: {model: 'off'}})
    let first = 0
    for (const [i, q] of QUESTIONS.entries()) {
      expect((await recall(off, {repo: on.repo, q})).results).toEqual([])
      const found = (await recall(on.ctx, {repo: on.repo, q})).results.map((r) => r.id)
      // every note is found among the first two; the model puts "install dependencies" nearer the
      // deploy note (cosine 0.463 vs 0.456 for the pnpm note), the three others first
      expect(found.slice(0, 2), q).toContain(ids[i])
      if (found[0] === ids[i]) first++
    }
    expect(first).toBeGreaterThanOrEqual(3)
    await off.close()
    // each memory got its vector from the model, in the store, through the journal
    const handle = await on.ctx.repo(on.repo, 'read')
    for (const id of ids) expect(handle.store.read((db) => getVector(db, id))).toMatchObject({model: 'builtin/use-lite-512@0.2.0', dims: 512})
  })

  it('leaves a question whose words a memory holds to the words: the same answer as word-only recall', async () => {
    const on = memRepo({}, {meaning: {model: 'builtin'}})
    for (const content of NOTES) await store(on.ctx, {repo: on.repo, content, type: 'procedure'})
    const off = openMem({home: on.home, cwd: on.root, now: on.clock, meaning: {model: 'off'}})
    for (const q of ['pnpm repo', 'integer cents', 'deploy Fly.io main branch']) {
      expect(await recall(on.ctx, {repo: on.repo, q, touch: false})).toEqual(await recall(off, {repo: on.repo, q, touch: false}))
    }
    await off.close()
  })
})

describe('meaning off', () => {
  it('is the default: without a meaning key or MEM_MEANING, recall uses words alone (opt-in, docs/meaning.md)', async () => {
    const base = memRepo()
    mkdirSync(base.home, {recursive: true})
    const plain = openMem({home: base.home, cwd: base.root, now: base.clock, env: {}})
    expect((await plain.meaning!()).setting).toEqual({model: 'off'})
    writeFileSync(join(base.home, 'config.yaml'), 'update:\n  check: false\n')
    const withConfig = openMem({home: base.home, cwd: base.root, now: base.clock, env: {}})
    expect((await withConfig.meaning!()).setting).toEqual({model: 'off'})
    writeFileSync(join(base.home, 'config.yaml'), 'meaning:\n  model: builtin\n')
    const optedIn = openMem({home: base.home, cwd: base.root, now: base.clock, env: {}})
    expect((await optedIn.meaning!()).setting).toEqual({model: 'builtin'})
    await Promise.all([plain.close(), withConfig.close(), optedIn.close()])
  })

  it('config.yaml meaning.model: off gives exactly the word-only answers, where the model would answer otherwise', async () => {
    const base = memRepo()
    for (const content of NOTES) await store(base.ctx, {repo: base.repo, content, type: 'procedure'})
    mkdirSync(base.home, {recursive: true})
    writeFileSync(join(base.home, 'config.yaml'), 'meaning:\n  model: off\n')
    const viaConfig = openMem({home: base.home, cwd: base.root, now: base.clock})
    const viaEnv = openMem({home: base.home, cwd: base.root, now: base.clock, env: {MEM_MEANING: 'off'}})
    const builtin = openMem({home: base.home, cwd: base.root, now: base.clock, env: {MEM_MEANING: 'builtin'}})
    for (const q of [...QUESTIONS, 'pnpm', 'customer PII request bodies', 'money']) {
      const words = await recall(base.ctx, {repo: base.repo, q, touch: false})
      expect(await recall(viaConfig, {repo: base.repo, q, touch: false})).toEqual(words)
      expect(await recall(viaEnv, {repo: base.repo, q, touch: false})).toEqual(words)
    }
    // no vector was made with meaning off
    const handle = await base.ctx.repo(base.repo, 'read')
    expect(handle.store.read((db) => countWithoutVectorFrom(db, 'builtin/use-lite-512@0.2.0'))).toBe(4)
    // the same store with the model answers the paraphrases (so the comparison above can fail)
    expect((await recall(builtin, {repo: base.repo, q: QUESTIONS[2], touch: false})).results.length).toBeGreaterThan(0)
    await Promise.all([viaConfig.close(), viaEnv.close(), builtin.close()])
  })

  it('a wrong setting is refused with what to write, in config.yaml and in MEM_MEANING', async () => {
    const base = memRepo()
    mkdirSync(base.home, {recursive: true})
    writeFileSync(join(base.home, 'config.yaml'), 'meaning:\n  model: local\n')
    const notices: string[] = []
    const ctx = openMem({home: base.home, cwd: base.root, now: base.clock, onNotice: (m) => notices.push(m)})
    await store(base.ctx, {repo: base.repo, content: NOTES[0], type: 'procedure'})
    expect((await recall(ctx, {repo: base.repo, q: QUESTIONS[0]})).results).toEqual([])
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatch(/meaning\.dir: model local needs dir: the absolute path of the model directory/)
    const bad = openMem({home: base.home, cwd: base.root, now: base.clock, env: {MEM_MEANING: 'models/tiny'}, onNotice: (m) => notices.push(m)})
    await expect(bad.meaning!()).rejects.toThrow(/MEM_MEANING is "models\/tiny": it must be off, static, builtin, runtime or the absolute path of a model directory/)
    await Promise.all([ctx.close(), bad.close()])
  })
})

describe('a model that cannot load', () => {
  it('says so once and answers by words, never an error', async () => {
    const missing = join(tempDir(), 'no-model-here')
    const notices: string[] = []
    const base = memRepo()
    for (const content of NOTES) await store(base.ctx, {repo: base.repo, content, type: 'procedure'})
    const ctx = openMem({home: base.home, cwd: base.root, now: base.clock, meaning: {model: 'local', dir: missing}, onNotice: (m) => notices.push(m)})
    for (const q of [...QUESTIONS, 'pnpm', 'integer cents']) {
      expect(await recall(ctx, {repo: base.repo, q, touch: false})).toEqual(await recall(base.ctx, {repo: base.repo, q, touch: false}))
    }
    expect(notices).toEqual([
      `The meaning model (local model at ${missing}) cannot load: ${missing} has no model.safetensors (a static-embedding model directory holds model.safetensors and tokenizer.json). mem reads by words alone (recall, and update detection when storing). Set meaning.model: off in config.yaml (or MEM_MEANING=off) to silence this.`,
    ])
    await ctx.close()
  })

  it('a damaged weights file is refused whole, naming the file', () => {
    const dir = writeTinyModel(join(tempDir(), 'tiny'))
    const file = join(dir, 'model.safetensors')
    const bytes = readFileSync(file)
    writeFileSync(file, bytes.subarray(0, bytes.length - 10))
    expect(() => loadLocalTable(dir)).toThrow(LocalModelError)
    expect(() => loadLocalTable(dir)).toThrow(`${file}: tensor "embeddings" does not fit the file`)
    writeFileSync(file, Buffer.concat([Buffer.from([200, 0, 0, 0, 0, 0, 0, 0]), Buffer.from('{"not json')]))
    expect(() => loadLocalTable(dir)).toThrow(/has a header of 200 bytes in a file of 18/)
    writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify({model: {type: 'BPE', vocab: {}}}))
    expect(() => loadLocalTable(dir)).toThrow(/is not a WordPiece tokenizer \(model.type "BPE"\); only WordPiece is read/)
    const onnx = join(tempDir(), 'minilm')
    mkdirSync(onnx)
    writeFileSync(join(onnx, 'model.onnx'), 'x')
    expect(() => loadLocalTable(onnx)).toThrow(/holds an ONNX model; mem reads a static-embedding table/)
  })
})

describe('a local static-embedding model the user brings', () => {
  it('tokenizes words into WordPiece pieces, lower case, accents and unknown words left out', () => {
    const dir = writeTinyModel(join(tempDir(), 'tiny'))
    const wp = WordPiece.fromFile(join(dir, 'tokenizer.json'))
    const vocab = JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8')).model.vocab
    expect(wp.ids('Grandma BAKES loaves; zebra')).toEqual([vocab.grandma, vocab.bakes, vocab.loaves])
    expect(wp.ids('tests builds')).toEqual([vocab.tests, vocab.builds])
    expect(wp.ids('Grándma')).toEqual([vocab.grandma])
  })

  it.each(['F32', 'F16'] as const)('finds a paraphrase by meaning with an %s table, and every write path leaves memories with its vectors', async (dtype) => {
    const dir = writeTinyModel(join(tempDir(), `tiny-${dtype}`), {dtype})
    const r = memRepo({}, {meaning: {model: 'local', dir}})
    const grandma = storedId(await store(r.ctx, {repo: r.repo, content: 'Grandma bakes sourdough loaves every Sunday morning.', type: 'insight'}))
    const build = storedId(await store(r.ctx, {repo: r.repo, content: 'Builds use esbuild; the bundle goes to dist/cli before the tests run.', type: 'insight'}))
    storedId(await store(r.ctx, {repo: r.repo, content: 'The staging database is reset every night at two.', type: 'insight'}))
    // no word in common with the grandma note
    const found = await recall(r.ctx, {repo: r.repo, q: 'granny makes bread each weekend'})
    expect(found.results[0]?.id).toBe(grandma)
    const model = loadLocalTable(dir)
    const handle = await r.ctx.repo(r.repo, 'read')
    expect(handle.store.read((db) => countWithoutVectorFrom(db, model.id))).toBe(0)
    // edit (a new version), then a pack into another repo: the next recall embeds what they wrote
    const edited = await edit(r.ctx, {id: build, content: 'Builds use esbuild; the bundle goes to dist/cli, then the tests run.'})
    expect(edited.success).toBe(true)
    expect(handle.store.read((db) => countWithoutVectorFrom(db, model.id))).toBe(1)
    const other = join(r.base, 'other')
    mkdirSync(join(other, '.git'), {recursive: true})
    const pack = await packExport(r.ctx, {repo: r.repo})
    expect((await packImport(r.ctx, {repo: other, data: pack.data})).imported).toBe(3)
    await recall(r.ctx, {repo: r.repo, q: 'granny'})
    await recall(r.ctx, {repo: other, q: 'granny'})
    expect(handle.store.read((db) => countWithoutVectorFrom(db, model.id))).toBe(0)
    const imported = await r.ctx.repo(other, 'read')
    expect(imported.store.read((db) => countWithoutVectorFrom(db, model.id))).toBe(0)
  })
})

describe('fusion', () => {
  it('a memory found only by meaning ranks first when the best word match holds few of the question’s words', async () => {
    const dir = writeTinyModel(join(tempDir(), 'tiny-fusion'))
    const r = memRepo({}, {meaning: {model: 'local', dir}})
    const grandma = storedId(await store(r.ctx, {repo: r.repo, content: 'Grandma bakes sourdough loaves every Sunday morning.', type: 'insight'}))
    const reset = storedId(await store(r.ctx, {repo: r.repo, content: 'The staging database is reset every weekend night.', type: 'insight'}))
    const off = openMem({home: r.home, cwd: r.root, now: r.clock, meaning: {model: 'off'}})
    const q = 'granny makes bread each weekend'
    // by words, only the database note ("weekend") matches
    expect((await recall(off, {repo: r.repo, q, touch: false})).results.map((x) => x.id)).toEqual([reset])
    const fused = (await recall(r.ctx, {repo: r.repo, q, touch: false})).results.map((x) => x.id)
    expect(fused[0]).toBe(grandma)
    expect(fused).toContain(reset)
    // a question whose words the database note holds keeps the word answer
    expect((await recall(r.ctx, {repo: r.repo, q: 'staging database reset', touch: false})).results[0].id).toBe(reset)
    await off.close()
  })
})

describe('the server gives new memories their vectors in the background', () => {
  it('a memory stored over HTTP has its vector without any recall', async () => {
    const {memServer} = await import('../../helpers/server.js')
    const dir = writeTinyModel(join(tempDir(), 'tiny-server'))
    const s = await memServer({meaning: {model: 'local', dir}, server: {meaningDrainMs: 20}})
    const stored = await s.client().store({repo: s.repo, content: 'Grandma bakes sourdough loaves every Sunday morning.', type: 'insight'})
    const id = (stored as {id: string}).id
    const model = loadLocalTable(dir)
    const handle = await s.ctx.repo(s.repo, 'read')
    // waits for the drain (the test's own time limit bounds it)
    while (!handle.store.read((db) => getVector(db, id))) await new Promise((r) => setTimeout(r, 20))
    expect(handle.store.read((db) => getVector(db, id))).toMatchObject({model: model.id, dims: 5})
    expect(handle.store.read((db) => countWithoutVectorFrom(db, model.id))).toBe(0)
  })
})
