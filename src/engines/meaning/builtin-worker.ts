/**
 * The built-in model in a worker thread of its own (builtin.ts `loadBuiltinInWorker`): a
 * long-lived process (`mem serve`, `mem mcp`) embeds here, so the ~25 ms a text the model takes,
 * and the background drain's batches, do not hold up the requests its main thread answers.
 * Messages: in `{id, texts, query}`, out `{ready}` once loaded, `{id, vectors}` (transferred) or
 * `{id, error}`; a model that cannot load answers `{failed}` and the thread ends. One call runs at
 * a time, a recall's question (`query`) before the drain's batches that wait.
 */
import {parentPort} from 'node:worker_threads'
import {loadBuiltin} from './builtin.js'

interface Call {
  id: number
  texts: string[]
  query?: boolean
}

const port = parentPort
if (port) {
  try {
    const model = await loadBuiltin()
    const questions: Call[] = []
    const batches: Call[] = []
    let busy = false
    const next = async () => {
      if (busy) return
      busy = true
      for (let call = questions.shift() ?? batches.shift(); call; call = questions.shift() ?? batches.shift()) {
        try {
          const vectors = await model.embed(call.texts)
          port.postMessage({id: call.id, vectors}, vectors.map((v) => v.buffer as ArrayBuffer))
        } catch (err) {
          port.postMessage({id: call.id, error: err instanceof Error ? err.message.split('\n')[0] : String(err)})
        }
      }
      busy = false
    }
    port.on('message', (call: Call) => {
      ;(call.query ? questions : batches).push(call)
      void next()
    })
    port.postMessage({ready: true})
  } catch (err) {
    port.postMessage({failed: err instanceof Error ? err.message.split('\n')[0] : String(err)})
  }
}
