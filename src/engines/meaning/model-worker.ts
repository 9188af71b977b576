/**
 * The meaning model in a worker thread of its own (in-worker.ts `loadInWorker`): the built-in model
 * (workerData `{kind: 'builtin'}`), or an ONNX model the user brings (`{kind: 'onnx', dir}`): a long-lived process
 * (`mem serve`, `mem mcp`) embeds here, so the ~25 ms a text the model takes,
 * and the background drain's batches, do not hold up the requests its main thread answers.
 * Messages: in `{id, texts, query}`, out `{ready}` once loaded (the model's id, dims, about and
 * floor), `{id, vectors}` (transferred) or
 * `{id, error}`; a model that cannot load answers `{failed}` and the thread ends. One call runs at
 * a time, a recall's question (`query`) before the drain's batches that wait, and the questions
 * that wait together in one call (QUESTIONS_TOGETHER).
 */
import {parentPort, workerData} from 'node:worker_threads'
import {loadBuiltin} from './builtin.js'
import type {WorkerModel, WorkerReady} from './in-worker.js'

interface Call {
  id: number
  texts: string[]
  query?: boolean
}

/**
 * How many texts the questions waiting together go into the model with at most: the model takes
 * about as long for four short texts as for one (25 ms here), ~36 ms for eight, ~70 ms for sixteen,
 * so questions asked at once (a server's connections) are answered in one call instead of queueing.
 */
const QUESTIONS_TOGETHER = 16

/** How many of the waiting questions (at least one) go into the next call. */
function questionsTogether(waiting: readonly Call[]): number {
  let texts = 0
  let n = 0
  while (n < waiting.length && (n === 0 || texts + waiting[n].texts.length <= QUESTIONS_TOGETHER)) texts += waiting[n++].texts.length
  return n
}

const port = parentPort
if (port) {
  try {
    const spec = (workerData ?? {kind: 'builtin'}) as WorkerModel
    const model = spec.kind === 'onnx' ? await (await import('./onnx.js')).loadOnnxModel(spec.dir) : await loadBuiltin()
    const questions: Call[] = []
    const batches: Call[] = []
    let busy = false
    // lets the messages that came during a call in: a question waiting goes before the drain's batches
    const arrivals = () => new Promise<void>((resolve) => setImmediate(resolve))
    const next = async () => {
      if (busy) return
      busy = true
      for (;;) {
        await arrivals()
        const calls = questions.length > 0 ? questions.splice(0, questionsTogether(questions)) : batches.splice(0, 1)
        if (calls.length === 0) break
        try {
          const vectors = await model.embed(calls.flatMap((c) => c.texts))
          let at = 0
          for (const call of calls) {
            const mine = vectors.slice(at, (at += call.texts.length))
            port.postMessage({id: call.id, vectors: mine}, mine.map((v) => v.buffer as ArrayBuffer))
          }
        } catch (err) {
          for (const call of calls) port.postMessage({id: call.id, error: err instanceof Error ? err.message.split('\n')[0] : String(err)})
        }
      }
      busy = false
    }
    port.on('message', (call: Call) => {
      ;(call.query ? questions : batches).push(call)
      void next()
    })
    const ready: WorkerReady = {id: model.id, dims: model.dims, about: model.about, ...(model.onlyFloor === undefined ? {} : {onlyFloor: model.onlyFloor})}
    port.postMessage({ready})
  } catch (err) {
    port.postMessage({failed: err instanceof Error ? err.message.split('\n')[0] : String(err)})
  }
}
