// The meaning model in a worker thread (engines/meaning/model-worker.ts, started by in-worker.ts), as `mem serve` and `mem mcp`
// load it: the compiled worker runs from dist/ (the TypeScript sources the other tests run load the
// model in their own thread), so this test loads dist's module, as the CLI does.
import {spawnSync} from 'node:child_process'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {Worker} from 'node:worker_threads'
import {describe, expect, it} from 'vitest'
import {tempDir} from '../../helpers/mem.js'
import {writeTinyOnnxModel} from '../../helpers/tiny-onnx.js'

const dist = (p: string) => pathToFileURL(join(process.cwd(), 'dist', 'src', p)).href

describe('the built-in model in a worker thread', () => {
  it('gives the vectors the model gives in this thread, and an empty list for none', async () => {
    const {loadBuiltin, loadBuiltinInWorker} = (await import(dist('engines/meaning/builtin.js'))) as typeof import('../../../src/engines/meaning/builtin.js')
    const [inWorker, here] = await Promise.all([loadBuiltinInWorker(), loadBuiltin()])
    expect(inWorker.about).toEqual(here.about)
    const texts = ['Use pnpm, never npm, in this repo', 'how are amounts of money returned by the api', '']
    const [a, b] = await Promise.all([inWorker.embed(texts), here.embed(texts)])
    expect(a).toHaveLength(3)
    for (const [i, v] of a.entries()) {
      expect(v).toBeInstanceOf(Float32Array)
      expect(v).toHaveLength(512)
      for (let k = 0; k < 512; k++) expect(Math.abs(v[k] - b[i][k])).toBeLessThan(1e-5)
    }
    // calls in flight at once each get their own answer
    const many = await Promise.all(texts.map((t) => inWorker.embed([t])))
    for (const [i, [v]] of many.entries()) expect(Math.abs(v[0] - b[i][0])).toBeLessThan(1e-5)
    // questions asked at once (a server's connections) go into the model together: each still gets its own
    const questions = await Promise.all(texts.map((t) => inWorker.embed([t], {query: true})))
    for (const [i, [v]] of questions.entries()) for (let k = 0; k < 512; k++) expect(Math.abs(v[k] - b[i][k])).toBeLessThan(1e-5)
    // and a question asked while the drain's batches wait
    const [drain, question] = await Promise.all([inWorker.embed([...texts, ...texts]), inWorker.embed([texts[1]], {query: true})])
    expect(drain).toHaveLength(6)
    expect(Math.abs(question[0][0] - b[1][0])).toBeLessThan(1e-5)
    expect(await inWorker.embed([])).toEqual([])
  })

  it("is found beside the module (tsc's output) and one folder up from a chunk of the CLI's bundle, whose worker answers", async () => {
    const {modelWorkerFile} = (await import(dist('engines/meaning/in-worker.js'))) as typeof import('../../../src/engines/meaning/in-worker.js')
    const cli = (p: string) => pathToFileURL(join(process.cwd(), 'dist', 'cli', p)).href
    expect(modelWorkerFile(dist('engines/meaning/in-worker.js'))?.href).toBe(dist('engines/meaning/model-worker.js'))
    // `mem serve` and `mem mcp` start it from a chunk in dist/cli/chunks/ (it ran the model in their main thread before)
    expect(modelWorkerFile(cli('chunks/any-chunk.js'))?.href).toBe(cli('model-worker.js'))
    expect(modelWorkerFile(pathToFileURL(join(process.cwd(), 'src', 'engines', 'meaning', 'in-worker.ts')).href)).toBeNull()
    const worker = new Worker(new URL(cli('model-worker.js')), {execArgv: []})
    try {
      const answer = await new Promise<{id?: number; vectors?: Float32Array[]; failed?: string}>((resolve, reject) => {
        worker.on('error', reject)
        worker.on('message', (msg: {ready?: true; failed?: string; id?: number}) => {
          if (msg.ready) worker.postMessage({id: 7, texts: ['how do I install dependencies'], query: true})
          else resolve(msg)
        })
      })
      expect(answer.failed).toBeUndefined()
      expect(answer.id).toBe(7)
      expect(answer.vectors?.[0]).toHaveLength(512)
    } finally {
      await worker.terminate()
    }
  })

  it('runs an ONNX model the user brings there too, with the vectors it gives in this thread', async () => {
    const {loadInWorker} = (await import(dist('engines/meaning/in-worker.js'))) as typeof import('../../../src/engines/meaning/in-worker.js')
    const {loadOnnxModel} = (await import(dist('engines/meaning/onnx.js'))) as typeof import('../../../src/engines/meaning/onnx.js')
    const m = writeTinyOnnxModel(join(tempDir(), 'tiny-minilm'))
    const here = await loadOnnxModel(m.dir)
    let ranHere = false
    const inWorker = await loadInWorker({kind: 'onnx', dir: m.dir}, async () => {
      ranHere = true
      return here
    })
    expect(ranHere).toBe(false)
    expect({id: inWorker.id, dims: inWorker.dims, about: inWorker.about}).toEqual({id: here.id, dims: 5, about: here.about})
    const texts = ['grandma bakes bread', 'esbuild bundle']
    const [a, b] = await Promise.all([inWorker.embed(texts), here.embed(texts)])
    for (const [i, v] of a.entries()) for (let k = 0; k < 5; k++) expect(Math.abs(v[k] - b[i][k])).toBeLessThan(1e-6)
    // a damaged model fails its load with the reason, from the worker
    writeFileSync(join(m.dir, 'model.onnx'), 'damaged')
    await expect(loadInWorker({kind: 'onnx', dir: m.dir}, () => loadOnnxModel(m.dir))).rejects.toThrow(/model\.onnx cannot be read as an ONNX model/)
  })

  it('loads when its WebAssembly backend starts after the weights are read (as on a loaded machine)', () => {
    // the library reads the weights and starts the backend at once; weights read first used to fail
    // the load with "Backend 'wasm' has not yet been initialized" (seen in CI). A slow start is forced here.
    const script = `const instantiate = WebAssembly.instantiate; WebAssembly.instantiate = async (...a) => { await new Promise((r) => setTimeout(r, 1500)); return instantiate.apply(WebAssembly, a) }; const m = await import(${JSON.stringify(dist('engines/meaning/builtin.js'))}); const model = await m.loadBuiltin(); const [v] = await model.embed(['hello']); console.log(v.length)`
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {encoding: 'utf8', timeout: 60_000})
    expect(r.stderr).not.toMatch(/not yet been initialized/)
    expect(r.stdout.trim()).toBe('512')
    expect(r.status).toBe(0)
  })

  it('does not keep a process alive once nothing waits for it', () => {
    const script = `const m = await import(${JSON.stringify(dist('engines/meaning/builtin.js'))}); const model = await m.loadBuiltinInWorker(); const [v] = await model.embed(['hello']); console.log(v.length)`
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {encoding: 'utf8', timeout: 60_000})
    expect(r.error).toBeUndefined()
    expect(r.stdout.trim()).toBe('512')
    expect(r.status).toBe(0)
  })
})
