/**
 * The built-in model in a worker thread of its own (builtin.ts `loadBuiltinInWorker`): a
 * long-lived process (`mem serve`, `mem mcp`) embeds here, so the ~25 ms a text the model takes,
 * and the background drain's batches, do not hold up the requests its main thread answers.
 * Messages: in `{id, texts}`, out `{ready}` once loaded, `{id, vectors}` (transferred) or `{id, error}`;
 * a model that cannot load answers `{failed}` and the thread ends.
 */
import {parentPort} from 'node:worker_threads'
import {loadBuiltin} from './builtin.js'

const port = parentPort
if (port) {
  try {
    const model = await loadBuiltin()
    port.on('message', (msg: {id: number; texts: string[]}) => {
      model.embed(msg.texts).then(
        (vectors) => port.postMessage({id: msg.id, vectors}, vectors.map((v) => v.buffer as ArrayBuffer)),
        (err: unknown) => port.postMessage({id: msg.id, error: err instanceof Error ? err.message.split('\n')[0] : String(err)}),
      )
    })
    port.postMessage({ready: true})
  } catch (err) {
    port.postMessage({failed: err instanceof Error ? err.message.split('\n')[0] : String(err)})
  }
}
