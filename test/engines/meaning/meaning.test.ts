import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {recall} from '../../../src/operations/recall.js'
import {planMeaningLinks} from '../../../src/engines/gates/admit.js'
import {store} from '../../../src/operations/store.js'
import {edit} from '../../../src/operations/edit.js'
import {packExport} from '../../../src/operations/pack-export.js'
import {packImport} from '../../../src/operations/pack-import.js'
import {openMem} from '../../../src/runtime/open-mem.js'
import {loadLocalTable, LocalModelError, WordPiece} from '../../../src/engines/meaning/local-table.js'
import {countWithoutVectorFrom, getVector} from '../../../src/storage/vectors.js'
import {embedPending, meaningDrainer, PENDING_PER_LIVE_RECALL} from '../../../src/engines/meaning/pending.js'
import {meaningModel} from '../../../src/engines/meaning/use.js'
import {memRepo, storedId, tempDir} from '../../helpers/mem.js'
import {writeTinyModel} from '../../helpers/tiny-model.js'
import {ISSUE_QUESTIONS, MEANING_NOTES as NOTES, MEANING_QUESTIONS as QUESTIONS} from '../../helpers/meaning-cases.js'

describe('the built-in model (Universal Sentence Encoder Lite, from the npm package)', () => {
  it("with meaning off, words answer the issue's four questions with their note: the thesaurus three (prices, privacy, hosted), the roles' words the fourth (install dependencies)", async () => {
    const off = memRepo({}, {meaning: {model: 'off'}})
    const ids: string[] = []
    for (const content of NOTES) ids.push(storedId(await store(off.ctx, {repo: off.repo, content, type: 'procedure'})))
    const found = []
    for (const q of ISSUE_QUESTIONS) found.push((await recall(off.ctx, {repo: off.repo, q, touch: false})).results.map((r) => r.id))
    expect(found).toEqual([[ids[0]], [ids[1]], [ids[2]], [ids[3]]])
  })

  it("a note naming a tool of the role a question's words name answers it by words: the model is not asked, and does not reorder it", async () => {
    // the README's quick-start note beside the issue's pnpm note: by meaning, "install dependencies"
    // is nearer the npm integration note; by the roles' words the pnpm note holds the whole question
    const on = memRepo({}, {meaning: {model: 'builtin', floor: 0}})
    const npmNote = storedId(await store(on.ctx, {repo: on.repo, content: 'integration suite: npm run test:int, needs docker', type: 'procedure'}))
    const pnpmNote = storedId(await store(on.ctx, {repo: on.repo, content: NOTES[0], type: 'heuristic'}))
    const found = (await recall(on.ctx, {repo: on.repo, q: 'how do I install dependencies', touch: false})).results.map((r) => r.id)
    expect(found[0]).toBe(pnpmNote)
    expect(found).toContain(npmNote)
    // the words answered: no recall asked the model, so no memory has a vector yet
    const handle = await on.ctx.repo(on.repo, 'read')
    expect(handle.store.read((db) => getVector(db, pnpmNote))).toBeUndefined()
  })

  it('answers four questions that words cannot (the thesaurus neither) with meaning.floor 0, and words alone answer none', async () => {
    // their cosines with their notes are under the model's own floor for a hit by meaning alone (below)
    const on = memRepo({}, {meaning: {model: 'builtin', floor: 0}})
    const ids: string[] = []
    for (const content of NOTES) ids.push(storedId(await store(on.ctx, {repo: on.repo, content, type: 'procedure'})))
    const off = openMem({home: on.home, cwd: on.root, now: on.clock, meaning: {model: 'off'}})
    let first = 0
    for (const [i, q] of QUESTIONS.entries()) {
      expect((await recall(off, {repo: on.repo, q})).results).toEqual([])
      const found = (await recall(on.ctx, {repo: on.repo, q})).results.map((r) => r.id)
      // every note is found among the first two; the model puts "third-party code" nearer the
      // deploy note than the pnpm note, and "diagnostics output" nearer another
      expect(found.slice(0, 2), q).toContain(ids[i])
      if (found[0] === ids[i]) first++
    }
    expect(first).toBeGreaterThanOrEqual(2)
    await off.close()
    // each memory got its vector from the model, in the store, through the journal
    const handle = await on.ctx.repo(on.repo, 'read')
    for (const id of ids) expect(handle.store.read((db) => getVector(db, id))).toMatchObject({model: 'builtin/use-lite-512@0.2.0', dims: 512})
  })

  it('with its own floor, questions no memory is about find nothing (and so do the four, whose notes share no word and are too far)', async () => {
    const on = memRepo({}, {meaning: {model: 'builtin'}})
    for (const content of NOTES) storedId(await store(on.ctx, {repo: on.repo, content, type: 'procedure'}))
    for (const q of ['how do I bake bread', 'Why is the sky blue?', 'tell me a joke about cats', 'what should I cook for dinner tonight', ...QUESTIONS]) {
      expect((await recall(on.ctx, {repo: on.repo, q, touch: false})).results, q).toEqual([])
    }
    // the model was asked (each memory has its vector now): the floor, not a model that did not answer, left them out
    const handle = await on.ctx.repo(on.repo, 'read')
    expect(handle.store.read((db) => countWithoutVectorFrom(db, 'builtin/use-lite-512@0.2.0'))).toBe(0)
    // and with meaning.floor 0 the same store answers the first of them with its nearest memories
    const padded = openMem({home: on.home, cwd: on.root, now: on.clock, meaning: {model: 'builtin', floor: 0}})
    expect((await recall(padded, {repo: on.repo, q: QUESTIONS[2], touch: false})).results.length).toBeGreaterThan(0)
    await padded.close()
  })

  it('a store leaves its vector to the next recall that asks the model, or to a long-lived process\'s drain once it is idle', async () => {
    const oneShot = memRepo({}, {meaning: {model: 'builtin', floor: 0}})
    const id = storedId(await store(oneShot.ctx, {repo: oneShot.repo, content: NOTES[0], type: 'procedure'}))
    const handle = await oneShot.ctx.repo(oneShot.repo, 'read')
    expect(handle.store.read((db) => getVector(db, id))).toBeUndefined()
    await recall(oneShot.ctx, {repo: oneShot.repo, q: QUESTIONS[0], touch: false})
    expect(handle.store.read((db) => getVector(db, id))).toMatchObject({model: 'builtin/use-lite-512@0.2.0', dims: 512})
    // a long-lived process (mem mcp, mem serve) does not embed inside a store either: its drain does,
    // once the process has asked the store no write for one interval
    const server = openMem({home: oneShot.home, cwd: oneShot.root, now: oneShot.clock, meaning: {model: 'builtin'}, longLived: true})
    const id2 = storedId(await store(server, {repo: oneShot.repo, content: NOTES[1], type: 'procedure'}))
    const h2 = await server.repo(oneShot.repo, 'read')
    expect(h2.store.read((db) => getVector(db, id2))).toBeUndefined()
    const drain = meaningDrainer(server, () => server.openStores(), () => meaningModel(server), planMeaningLinks)
    expect(await drain()).toBe(0) // written to since the last look: busy
    const id3 = storedId(await store(server, {repo: oneShot.repo, content: NOTES[2], type: 'procedure'}))
    expect(await drain()).toBe(0) // and again
    // a recall makes it busy too (the requests it answers come first)
    await recall(server, {repo: oneShot.repo, q: 'pnpm'})
    expect(await drain()).toBe(0)
    expect(await drain()).toBe(2)
    for (const i of [id2, id3]) expect(h2.store.read((db) => getVector(db, i))).toMatchObject({model: 'builtin/use-lite-512@0.2.0', dims: 512})
    expect(await drain()).toBe(0)
    await server.close()
  })

  it('a recall in a long-lived process embeds what was just written (the newest rows), and leaves older ones to the drain', async () => {
    const m = memRepo({}, {meaning: {model: 'builtin'}, longLived: true})
    const storeNotes = async (n: number, from: number) => {
      const ids: string[] = []
      for (let i = from; i < from + n; i++) {
        ids.push(storedId(await store(m.ctx, {repo: m.repo, content: `Service number ${i} writes its logs to the folder logs/service-${i}`, type: 'procedure'})))
        m.clock.advance(60_000)
      }
      return ids
    }
    const handle = await m.ctx.repo(m.repo, 'read')
    const has = (ids: string[]) => ids.map((id) => handle.store.read((db) => getVector(db, id)) !== undefined)
    const backlog = await storeNotes(PENDING_PER_LIVE_RECALL + 4, 0)
    await recall(m.ctx, {repo: m.repo, q: QUESTIONS[1], touch: false})
    // the newest PENDING_PER_LIVE_RECALL, newest first; the 4 before them wait for the drain
    expect(has(backlog)).toEqual(backlog.map((_, i) => i >= 4))
    // a few more just written: the next recall embeds them
    const fresh = await storeNotes(3, 100)
    await recall(m.ctx, {repo: m.repo, q: QUESTIONS[1], touch: false})
    expect(has(fresh)).toEqual([true, true, true])
    expect(has(backlog)).toEqual(backlog.map((_, i) => i >= 4))
    // the drain (here by hand): the oldest first, as many as it is given, and what is left
    const model = (await meaningModel(m.ctx))!
    expect((await embedPending(m.ctx, handle.store, model, {limit: 2, link: null})).left).toBe(2)
    expect(has(backlog)).toEqual(backlog.map((_, i) => i < 2 || i >= 4))
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

describe('the setting', () => {
  it('is the built-in model by default: without a meaning key or MEM_MEANING (docs/meaning.md); off, another model or a floor in config.yaml', async () => {
    const base = memRepo()
    mkdirSync(base.home, {recursive: true})
    const plain = openMem({home: base.home, cwd: base.root, now: base.clock, env: {}})
    expect((await plain.meaning!()).setting).toEqual({model: 'builtin'})
    writeFileSync(join(base.home, 'config.yaml'), 'update:\n  check: false\n')
    const withConfig = openMem({home: base.home, cwd: base.root, now: base.clock, env: {}})
    expect((await withConfig.meaning!()).setting).toEqual({model: 'builtin'})
    writeFileSync(join(base.home, 'config.yaml'), 'meaning:\n  model: off\n')
    const optedOut = openMem({home: base.home, cwd: base.root, now: base.clock, env: {}})
    expect((await optedOut.meaning!()).setting).toEqual({model: 'off'})
    writeFileSync(join(base.home, 'config.yaml'), 'meaning:\n  floor: 0.3\n')
    const floor = openMem({home: base.home, cwd: base.root, now: base.clock, env: {}})
    expect((await floor.meaning!()).setting).toEqual({model: 'builtin', floor: 0.3})
    writeFileSync(join(base.home, 'config.yaml'), 'meaning:\n  model: static\n  floor: 2\n')
    const wrong = openMem({home: base.home, cwd: base.root, now: base.clock, env: {}})
    await expect(wrong.meaning!()).rejects.toThrow(/meaning\.floor: must be a number from 0 to 1/)
    await Promise.all([plain.close(), withConfig.close(), optedOut.close(), floor.close(), wrong.close()])
  })

  it('config.yaml meaning.model: off gives exactly the word-only answers, where the model would answer otherwise', async () => {
    const base = memRepo()
    for (const content of NOTES) await store(base.ctx, {repo: base.repo, content, type: 'procedure'})
    mkdirSync(base.home, {recursive: true})
    writeFileSync(join(base.home, 'config.yaml'), 'meaning:\n  model: off\n')
    const viaConfig = openMem({home: base.home, cwd: base.root, now: base.clock})
    const viaEnv = openMem({home: base.home, cwd: base.root, now: base.clock, env: {MEM_MEANING: 'off'}})
    const builtin = openMem({home: base.home, cwd: base.root, now: base.clock, meaning: {model: 'builtin', floor: 0}})
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
      `The meaning model (local model at ${missing}) cannot load: ${missing} has no model.safetensors (a model directory holds model.safetensors and tokenizer.json, a static-embedding table such as a Model2Vec model, or model.onnx and tokenizer.json, a sentence-transformer exported to ONNX). mem reads by words alone (recall, and update detection when storing). Set meaning.model: off in config.yaml (or MEM_MEANING=off) to silence this.`,
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
