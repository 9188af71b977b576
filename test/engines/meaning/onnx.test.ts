import {mkdirSync, symlinkSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {recall} from '../../../src/operations/recall.js'
import {store} from '../../../src/operations/store.js'
import {openMem} from '../../../src/runtime/open-mem.js'
import {LocalModelError} from '../../../src/engines/meaning/local-table.js'
import {embedsSlowly, forgetLoadedModels, loadMeaningModel} from '../../../src/engines/meaning/load.js'
import {findOnnxRuntime, loadOnnxModel} from '../../../src/engines/meaning/onnx.js'
import {unit} from '../../../src/engines/meaning/model.js'
import {countWithoutVectorFrom} from '../../../src/storage/vectors.js'
import {memRepo, storedId, tempDir} from '../../helpers/mem.js'
import {writeTinyModel} from '../../helpers/tiny-model.js'
import {writeBertShapedOnnxModel, writeTinyOnnxModel, type TinyOnnx} from '../../helpers/tiny-onnx.js'

/** What the tiny encoder should give for these tokens, pooled as `pooling` says. */
function expected(m: TinyOnnx, tokens: string[], pooling: 'mean' | 'cls' | 'max' = 'mean'): Float32Array {
  const rows = ['[CLS]', ...tokens, '[SEP]'].map((t) => m.rows[m.vocab[t]])
  if (pooling === 'cls') return unit(rows[0])
  const d = rows[0].length
  const v = Array.from({length: d}, (_, k) => (pooling === 'max' ? Math.max(...rows.map((r) => r[k])) : rows.reduce((s, r) => s + r[k], 0) / rows.length))
  return unit(v)
}

const close = (a: Float32Array, b: Float32Array) => {
  expect(a.length).toBe(b.length)
  for (let i = 0; i < a.length; i++) expect(a[i]).toBeCloseTo(b[i], 5)
}

describe('an ONNX sentence-transformer the user brings (run by onnxruntime-web)', () => {
  it('embeds a text as [CLS] pieces [SEP] through the network, mean-pooled over the real tokens only, at unit length', async () => {
    const m = writeTinyOnnxModel(join(tempDir(), 'tiny-minilm'))
    const model = await loadOnnxModel(m.dir)
    expect(model.dims).toBe(5)
    expect(model.id).toMatch(/^local\/tiny-minilm-onnx-5-\d+$/)
    expect(model.about).toMatchObject({kind: 'local', name: 'tiny-minilm (ONNX sentence encoder, 5 dims, mean pooling)'})
    expect(model.about.source).toMatch(/model\.onnx, run by onnxruntime-web 1\.30\.0$/)
    const [one] = await model.embed(['Grandma BAKES bread'])
    close(one, expected(m, ['grandma', 'bakes', 'bread']))
    // texts of other lengths in one batch: the padding ([PAD]'s row is 100s) is never pooled
    const batch = await model.embed(['grandma', 'grandma bakes sourdough loaves every sunday morning', 'esbuild'])
    close(batch[0], expected(m, ['grandma']))
    close(batch[1], expected(m, ['grandma', 'bakes', 'sourdough', 'loaves', 'every', 'sunday', 'morning']))
    close(batch[2], expected(m, ['esbuild']))
    // a word not in the vocabulary is [UNK], as BERT reads it (not left out, as a static table does)
    close((await model.embed(['grandma zebra']))[0], expected(m, ['grandma', '[UNK]']))
    // two texts of one subject are near, of two subjects far
    const [a, b, c] = await model.embed(['granny makes bread each weekend', 'grandma bakes sourdough', 'esbuild bundle dist'])
    const cos = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * y[i], 0)
    expect(cos(a, b)).toBeGreaterThan(cos(a, c) + 0.3)
  })

  it('pools as its 1_Pooling/config.json says (CLS, max), takes its own sentence_embedding output when it has one, and cuts a text at its max_seq_length', async () => {
    const cls = writeTinyOnnxModel(join(tempDir(), 'cls'), {pooling: 'cls'})
    close((await (await loadOnnxModel(cls.dir)).embed(['grandma bakes']))[0], expected(cls, ['grandma', 'bakes'], 'cls'))
    const max = writeTinyOnnxModel(join(tempDir(), 'max'), {pooling: 'max'})
    const maxModel = await loadOnnxModel(max.dir)
    expect(maxModel.about.name).toContain('max pooling')
    close((await maxModel.embed(['grandma esbuild']))[0], expected(max, ['grandma', 'esbuild'], 'max'))
    // its own pooling: a mean over every position of the batch's padded width (so padding counts: the model's choice)
    const own = writeTinyOnnxModel(join(tempDir(), 'own'), {sentenceOutput: true})
    const ownModel = await loadOnnxModel(own.dir)
    expect(ownModel.about.name).toContain('its own pooling')
    close((await ownModel.embed(['grandma bakes']))[0], expected(own, ['grandma', 'bakes']))
    // no 1_Pooling folder: mean
    const plain = writeTinyOnnxModel(join(tempDir(), 'plain'), {pooling: 'none'})
    close((await (await loadOnnxModel(plain.dir)).embed(['grandma bakes']))[0], expected(plain, ['grandma', 'bakes']))
    // max_seq_length 4: [CLS], two pieces, [SEP]
    writeFileSync(join(plain.dir, 'sentence_bert_config.json'), JSON.stringify({max_seq_length: 4, do_lower_case: false}))
    close((await (await loadOnnxModel(plain.dir)).embed(['grandma bakes bread sourdough']))[0], expected(plain, ['grandma', 'bakes']))
  })

  it('runs a BERT-shaped encoder (masked self-attention, layer norms, GELU): a text padded in a batch gets the vector it gets alone', async () => {
    const words = ['grandma', 'bakes', 'sourdough', 'loaves', 'every', 'sunday', 'esbuild', 'bundle']
    const m = writeBertShapedOnnxModel(join(tempDir(), 'bert-shaped'), {layers: 2, hidden: 16, heads: 4, inner: 32, vocab: 120, words})
    const model = await loadOnnxModel(m.dir)
    expect(model.dims).toBe(16)
    const texts = ['grandma', 'grandma bakes sourdough loaves every sunday', 'esbuild bundle']
    const together = await model.embed(texts)
    for (const [i, t] of texts.entries()) close(together[i], (await model.embed([t]))[0])
    // the network mixes the tokens (not a mean of rows): the order of the words counts
    const [ab, ba] = await model.embed(['grandma bakes', 'bakes grandma'])
    expect(Math.abs(ab[0] - ba[0]) + Math.abs(ab[1] - ba[1])).toBeGreaterThan(1e-4)
  })

  it('finds a paraphrase by meaning through recall: a store does not wait for the model, the next recall embeds what waits', async () => {
    const m = writeTinyOnnxModel(join(tempDir(), 'all-minilm'), {inOnnxFolder: true})
    expect(embedsSlowly({model: 'local', dir: m.dir})).toBe(true)
    const r = memRepo({}, {meaning: {model: 'local', dir: m.dir}})
    const grandma = storedId(await store(r.ctx, {repo: r.repo, content: 'Grandma bakes sourdough loaves every Sunday morning.', type: 'insight'}))
    storedId(await store(r.ctx, {repo: r.repo, content: 'Builds use esbuild; the bundle goes to dist/cli before the tests run.', type: 'insight'}))
    storedId(await store(r.ctx, {repo: r.repo, content: 'The staging database is reset every night at two.', type: 'insight'}))
    const model = await loadOnnxModel(m.dir)
    const handle = await r.ctx.repo(r.repo, 'read')
    // the stores wrote no vector: the memories wait in the queue
    expect(handle.store.read((db) => countWithoutVectorFrom(db, model.id))).toBe(3)
    // no word in common with the grandma note
    const found = await recall(r.ctx, {repo: r.repo, q: 'granny makes bread each weekend'})
    expect(found.results[0]?.id).toBe(grandma)
    expect(handle.store.read((db) => countWithoutVectorFrom(db, model.id))).toBe(0)
  })

  it('a directory holding a static table is read as one even beside an ONNX file; a sentence-transformer’s many-tensor model.safetensors is not', async () => {
    const both = writeTinyModel(join(tempDir(), 'potion'))
    mkdirSync(join(both, 'onnx'))
    writeFileSync(join(both, 'onnx', 'model.onnx'), 'not read')
    expect(embedsSlowly({model: 'local', dir: both})).toBe(false)
    forgetLoadedModels()
    const table = await loadMeaningModel({model: 'local', dir: both}, null)
    expect(table?.error).toBeUndefined()
    expect(table?.model?.about.name).toContain('static embeddings')
    // a sentence-transformer's folder: the network's weights in model.safetensors, its ONNX export beside
    const st = writeTinyOnnxModel(join(tempDir(), 'bge-small'), {inOnnxFolder: true})
    const header = Buffer.from(JSON.stringify({'encoder.layer.0.weight': {dtype: 'F32', shape: [2, 2], data_offsets: [0, 16]}, 'pooler.dense.bias': {dtype: 'F32', shape: [2], data_offsets: [16, 24]}}))
    const length = Buffer.alloc(8)
    length.writeBigUInt64LE(BigInt(header.length))
    writeFileSync(join(st.dir, 'model.safetensors'), Buffer.concat([length, header, Buffer.alloc(24)]))
    expect(embedsSlowly({model: 'local', dir: st.dir})).toBe(true)
    const onnx = await loadMeaningModel({model: 'local', dir: st.dir}, null)
    expect(onnx?.error).toBeUndefined()
    expect(onnx?.model?.about.name).toContain('ONNX sentence encoder')
    forgetLoadedModels()
  })

  it('refuses what it cannot run, naming the file and the fix: no tokenizer, no [CLS], not ONNX, inputs it does not know, no runtime', async () => {
    const m = writeTinyOnnxModel(join(tempDir(), 'broken'))
    const tokenizer = join(m.dir, 'tokenizer.json')
    writeFileSync(tokenizer, JSON.stringify({model: {type: 'WordPiece', vocab: {'[UNK]': 0, grandma: 1}}}))
    await expect(loadOnnxModel(m.dir)).rejects.toThrow(`${tokenizer} has no [CLS] token (a BERT-style tokenizer has [CLS], [SEP], [UNK] and [PAD])`)
    const garbage = writeTinyOnnxModel(join(tempDir(), 'garbage'))
    writeFileSync(join(garbage.dir, 'model.onnx'), 'this is not a protobuf')
    await expect(loadOnnxModel(garbage.dir)).rejects.toThrow(LocalModelError)
    await expect(loadOnnxModel(garbage.dir)).rejects.toThrow(`${join(garbage.dir, 'model.onnx')} cannot be read as an ONNX model`)
    const odd = writeTinyOnnxModel(join(tempDir(), 'odd'), {inputs: ['input_ids', 'pixel_values']})
    await expect(loadOnnxModel(odd.dir)).rejects.toThrow(/takes an input mem does not know \(pixel_values\)/)
    // a float16 export's outputs are not read as float32 numbers
    const half = writeTinyOnnxModel(join(tempDir(), 'fp16'), {float16: true})
    await expect(loadOnnxModel(half.dir)).rejects.toThrow(/did not run \(the model's last_hidden_state is float16; mem reads float32/)
    const noTokenizer = join(tempDir(), 'no-tokenizer')
    mkdirSync(noTokenizer)
    writeFileSync(join(noTokenizer, 'model.onnx'), 'x')
    await expect(loadOnnxModel(noTokenizer)).rejects.toThrow(`${noTokenizer} has no tokenizer.json`)
    // onnxruntime-web is not one of mem's dependencies: where it is not installed, the message says how
    const nowhere = tempDir()
    expect(() => findOnnxRuntime(m.dir, [join(nowhere, 'x.js')])).toThrow(
      `${m.dir} holds an ONNX model, and running it needs onnxruntime-web, which is not installed (it is not one of mem's dependencies: ~140 MB). Install it beside mem (npm install -g onnxruntime-web@1.30.0 when mem is installed globally) or in the model's directory (cd ${m.dir} && npm install onnxruntime-web@1.30.0)`,
    )
    // installed in the model's directory: found there
    const installed = join(dirname(createRequire(import.meta.url).resolve('onnxruntime-web')), '..')
    mkdirSync(join(nowhere, 'node_modules'))
    symlinkSync(installed, join(nowhere, 'node_modules', 'onnxruntime-web'))
    expect(findOnnxRuntime(nowhere, [join(nowhere, 'package.json')]).version).toBe('1.30.0')
  })

  it('a model that cannot load leaves recall to words, with one notice', async () => {
    const m = writeTinyOnnxModel(join(tempDir(), 'damaged'))
    writeFileSync(join(m.dir, 'model.onnx'), 'damaged')
    const base = memRepo()
    const id = storedId(await store(base.ctx, {repo: base.repo, content: 'Grandma bakes sourdough loaves every Sunday morning.', type: 'insight'}))
    const notices: string[] = []
    forgetLoadedModels()
    const ctx = openMem({home: base.home, cwd: base.root, now: base.clock, meaning: {model: 'local', dir: m.dir}, onNotice: (n) => notices.push(n)})
    expect((await recall(ctx, {repo: base.repo, q: 'grandma sourdough', touch: false})).results.map((r) => r.id)).toEqual([id])
    expect((await recall(ctx, {repo: base.repo, q: 'granny weekend bread', touch: false})).results).toEqual([])
    expect(notices).toHaveLength(1)
    expect(notices[0]).toContain(`The meaning model (local model at ${m.dir}) cannot load: ${join(m.dir, 'model.onnx')} cannot be read as an ONNX model`)
    await ctx.close()
    forgetLoadedModels()
  })
})
