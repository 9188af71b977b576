import {existsSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {Worker} from 'node:worker_threads'
import type {MeaningModel} from './model.js'

/**
 * The compiled worker (model-worker.ts) for a module at `from`: beside it (tsc's dist/src), or one
 * folder up (the CLI's bundle: a chunk in dist/cli/chunks/ starts dist/cli/model-worker.js); null
 * where there is none (the tests run the TypeScript sources).
 */
export function modelWorkerFile(from: string = import.meta.url): URL | null {
  for (const candidate of ['./model-worker.js', '../model-worker.js']) {
    const file = new URL(candidate, from)
    if (file.protocol === 'file:' && existsSync(fileURLToPath(file))) return file
  }
  return null
}

/**
 * What the model worker (model-worker.ts) loads: the built-in model, or an ONNX sentence-transformer
 * the user brings (onnx.ts), both tens of milliseconds a text.
 */
export type WorkerModel = {kind: 'builtin'} | {kind: 'onnx'; dir: string}

/** What a worker says of its model once loaded (the model's own fields but `embed`). */
export type WorkerReady = Pick<MeaningModel, 'id' | 'dims' | 'about' | 'onlyFloor'>

/**
 * A model (WorkerModel) in a worker thread of its own, for a long-lived process (`mem serve`,
 * `mem mcp`): the thread does not keep the process alive; where there is no compiled worker
 * (modelWorkerFile), `here()` loads the model in this thread instead.
 */
export async function loadInWorker(spec: WorkerModel, here: () => Promise<MeaningModel>): Promise<MeaningModel> {
  const file = modelWorkerFile()
  if (!file) return here()
  // referenced while it loads (a caller waits for it), then only while a call waits for an answer
  // none of this process's node flags (--input-type, a test runner's loaders) apply to the worker's file
  const worker = new Worker(file, {execArgv: [], workerData: spec})
  const waiting = new Map<number, {resolve: (v: Float32Array[]) => void; reject: (e: Error) => void}>()
  let next = 0
  let broken: Error | null = null
  const fail = (err: Error) => {
    broken ??= err
    for (const w of waiting.values()) w.reject(broken)
    waiting.clear()
  }
  const ready = await new Promise<WorkerReady>((resolve, reject) => {
    worker.on('message', (msg: {ready?: WorkerReady; failed?: string; id?: number; vectors?: Float32Array[]; error?: string}) => {
      if (msg.ready) return resolve(msg.ready)
      if (msg.failed !== undefined) return reject(new Error(msg.failed))
      const w = waiting.get(msg.id!)
      if (!w) return
      waiting.delete(msg.id!)
      if (msg.error !== undefined) w.reject(new Error(msg.error))
      else w.resolve(msg.vectors!)
    })
    worker.on('error', (err) => {
      fail(err)
      reject(err)
    })
    worker.on('exit', (code) => {
      const err = new Error(`the model's worker thread ended (exit code ${code})`)
      fail(err)
      reject(err)
    })
  })
  worker.unref()
  return {
    id: ready.id,
    dims: ready.dims,
    ...(ready.onlyFloor === undefined ? {} : {onlyFloor: ready.onlyFloor}),
    about: ready.about,
    embed(texts, options) {
      if (broken) return Promise.reject(broken)
      if (texts.length === 0) return Promise.resolve([])
      const id = next++
      return new Promise<Float32Array[]>((resolve, reject) => {
        waiting.set(id, {resolve, reject})
        // a call waiting for an answer keeps the process alive, as an in-thread call would
        if (waiting.size === 1) worker.ref()
        // a recall's question goes before the drain's batches waiting in the worker
        worker.postMessage({id, texts, query: options?.query === true})
      }).finally(() => {
        if (waiting.size === 0) worker.unref()
      })
    },
  }
}
