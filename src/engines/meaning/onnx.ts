import {existsSync, readFileSync, statSync} from 'node:fs'
import {createRequire} from 'node:module'
import {basename, dirname, join} from 'node:path'
import {isFile} from '../../storage/files.js'
import {LocalModelError, WordPiece} from './local-table.js'
import {onnxFileIn} from './model-dir.js'
import {unit, type MeaningModel} from './model.js'

/**
 * A sentence-transformer the user brings as ONNX (all-MiniLM-L6-v2, bge-small-en, … as exported for
 * Transformers.js or by sentence-transformers): a directory with `model.onnx` (or `onnx/model.onnx`)
 * and its WordPiece `tokenizer.json`, run in process by ONNX Runtime's WebAssembly build
 * (`onnxruntime-web`: no native code, no download at run time). The runtime is not one of mem's
 * dependencies (it is ~140 MB): the user installs it beside mem, or in the model's directory.
 * A text is `[CLS] pieces [SEP]` (cut at the model's length), the model's token vectors pooled as
 * its `1_Pooling/config.json` says (mean over the real tokens unless it says CLS or max), or its own
 * `sentence_embedding` output when it has one, then scaled to unit length.
 */
export const ONNX_RUNTIME_PACKAGE = 'onnxruntime-web'

/** Texts per model call: padded to the longest of the batch. */
const BATCH = 8
/** The longest input, in tokens, when the model's files do not say (BERT's own limit). */
const DEFAULT_MAX_TOKENS = 512

/** The parts of onnxruntime-web mem uses. */
export interface OrtTensor {
  dims: readonly number[]
  data: unknown
  type?: string
}
export interface OrtSession {
  inputNames: readonly string[]
  outputNames: readonly string[]
  run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>>
}
export interface Ort {
  InferenceSession: {create(model: Uint8Array, options?: Record<string, unknown>): Promise<OrtSession>}
  Tensor: new (type: 'int64', data: BigInt64Array, dims: number[]) => OrtTensor
  env: {wasm: {numThreads?: number}; logLevel?: string}
}

/**
 * onnxruntime-web as installed beside mem (its own node_modules, or a global install next to it) or
 * in the model's directory (`from`: where it is looked for, in order), with its version; throws
 * LocalModelError saying how to install it.
 */
export function findOnnxRuntime(dir: string, from: readonly string[] = [import.meta.url, join(dir, 'package.json')]): {ort: Ort; version: string} {
  for (const base of from) {
    let file: string
    try {
      file = createRequire(base).resolve(ONNX_RUNTIME_PACKAGE)
    } catch {
      continue
    }
    const ort = createRequire(base)(file) as Ort & {default?: Ort}
    return {ort: ort.InferenceSession ? ort : ort.default!, version: packageVersion(file)}
  }
  throw new LocalModelError(
    `${dir} holds an ONNX model, and running it needs ${ONNX_RUNTIME_PACKAGE}, which is not installed (it is not one of mem's dependencies: ~140 MB). Install it beside mem (npm install -g ${ONNX_RUNTIME_PACKAGE}@1.30.0 when mem is installed globally) or in the model's directory (cd ${dir} && npm install ${ONNX_RUNTIME_PACKAGE}@1.30.0)`,
  )
}

/** The version in the package.json of the package a file belongs to (its exports map hides that file from require). */
function packageVersion(file: string): string {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {name?: string; version?: string}
      if (pkg.name === ONNX_RUNTIME_PACKAGE) return pkg.version ?? '?'
    } catch {
      // no package.json here: one folder up
    }
  }
  return '?'
}

type Pooling = 'mean' | 'cls' | 'max'

/** How the model's token vectors make the sentence's: sentence-transformers' 1_Pooling/config.json, else mean. */
function poolingOf(dir: string): Pooling {
  const file = join(dir, '1_Pooling', 'config.json')
  if (!existsSync(file)) return 'mean'
  let config: Record<string, unknown>
  try {
    config = JSON.parse(readFileSync(file, 'utf8'))
  } catch (err) {
    throw new LocalModelError(`${file} cannot be read as JSON (${(err as Error).message.split('\n')[0]})`)
  }
  if (config.pooling_mode_mean_tokens === true) return 'mean'
  if (config.pooling_mode_cls_token === true) return 'cls'
  if (config.pooling_mode_max_tokens === true) return 'max'
  throw new LocalModelError(`${file} asks for a pooling mem does not do (mean, CLS and max tokens are done)`)
}

/** The most tokens the model reads: sentence-transformers' max_seq_length, else the tokenizer's, else 512 (never more). */
function maxTokensOf(dir: string): number {
  const read = (file: string, pick: (doc: Record<string, unknown>) => unknown): number | null => {
    try {
      const n = pick(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>)
      return typeof n === 'number' && Number.isInteger(n) && n >= 4 ? n : null
    } catch {
      return null
    }
  }
  const n =
    read('sentence_bert_config.json', (d) => d.max_seq_length) ??
    read('tokenizer.json', (d) => (d.truncation as {max_length?: unknown} | null)?.max_length) ??
    read('tokenizer_config.json', (d) => d.model_max_length)
  return Math.min(n ?? DEFAULT_MAX_TOKENS, DEFAULT_MAX_TOKENS)
}

/** Loads an ONNX sentence-transformer directory. Throws LocalModelError naming what is wrong. */
export async function loadOnnxModel(dir: string, runtime: () => {ort: Ort; version: string} = () => findOnnxRuntime(dir)): Promise<MeaningModel> {
  const file = onnxFileIn(dir)
  if (!file) throw new LocalModelError(`${dir} has no model.onnx (nor onnx/model.onnx)`)
  const tokenizerFile = join(dir, 'tokenizer.json')
  if (!isFile(tokenizerFile)) throw new LocalModelError(`${dir} has no tokenizer.json (an ONNX model directory holds its WordPiece tokenizer.json beside the model)`)
  const tokenizer = WordPiece.fromFile(tokenizerFile)
  const special = (name: string): number => {
    const id = tokenizer.idOf(name)
    if (id === undefined) throw new LocalModelError(`${tokenizerFile} has no ${name} token (a BERT-style tokenizer has [CLS], [SEP], [UNK] and [PAD])`)
    return id
  }
  const [cls, sep, unk] = [special('[CLS]'), special('[SEP]'), special('[UNK]')]
  const pad = tokenizer.idOf('[PAD]') ?? 0
  const pooling = poolingOf(dir)
  const maxTokens = maxTokensOf(dir)
  const {ort, version} = runtime()
  // one thread: a command's process is not kept waiting on worker threads, and a server's requests share the core
  ort.env.wasm.numThreads = 1
  ort.env.logLevel = 'error'
  let session: OrtSession
  try {
    // errors only: the runtime's own warnings (an unused initializer, …) are not the user's business
    session = await ort.InferenceSession.create(readFileSync(file), {executionProviders: ['wasm'], logSeverityLevel: 3})
  } catch (err) {
    throw new LocalModelError(`${file} cannot be read as an ONNX model (${(err as Error).message.split('\n')[0]})`)
  }
  if (!session.inputNames.includes('input_ids')) throw new LocalModelError(`${file} takes ${session.inputNames.join(', ')}; mem feeds a text encoder's input_ids, attention_mask and token_type_ids`)
  const unknownInput = session.inputNames.find((n) => !['input_ids', 'attention_mask', 'token_type_ids'].includes(n))
  if (unknownInput) throw new LocalModelError(`${file} takes an input mem does not know (${unknownInput}); mem feeds input_ids, attention_mask and token_type_ids`)
  const pooled = session.outputNames.includes('sentence_embedding') ? 'sentence_embedding' : null
  const tokensOut = ['last_hidden_state', 'token_embeddings'].find((n) => session.outputNames.includes(n)) ?? session.outputNames[0]

  const run = async (texts: string[]): Promise<Float32Array[]> => {
    const encoded = texts.map((t) => [cls, ...tokenizer.ids(t.slice(0, maxTokens * 20), {unknown: unk}).slice(0, maxTokens - 2), sep])
    const width = Math.max(...encoded.map((e) => e.length))
    const ids = new BigInt64Array(texts.length * width).fill(BigInt(pad))
    const mask = new BigInt64Array(texts.length * width)
    encoded.forEach((e, b) =>
      e.forEach((id, i) => {
        ids[b * width + i] = BigInt(id)
        mask[b * width + i] = 1n
      }),
    )
    const dims = [texts.length, width]
    const feeds: Record<string, OrtTensor> = {input_ids: new ort.Tensor('int64', ids, dims)}
    if (session.inputNames.includes('attention_mask')) feeds.attention_mask = new ort.Tensor('int64', mask, dims)
    if (session.inputNames.includes('token_type_ids')) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(texts.length * width), dims)
    const out = await session.run(feeds)
    const read = out[pooled ?? tokensOut]
    if (read && read.type !== undefined && read.type !== 'float32') throw new Error(`the model's ${pooled ?? tokensOut} is ${read.type}; mem reads float32 (a model.onnx, not a float16 export)`)
    if (pooled) {
      const t = out[pooled]
      const d = t.dims[1]
      if (t.dims.length !== 2 || t.dims[0] !== texts.length) throw new Error(`the model's ${pooled} has the shape [${t.dims.join(', ')}]`)
      const data = t.data as Float32Array
      return texts.map((_, b) => unit(data.subarray(b * d, (b + 1) * d)))
    }
    const t = out[tokensOut]
    if (!t || t.dims.length !== 3 || t.dims[0] !== texts.length || t.dims[1] !== width) throw new Error(`the model's ${tokensOut} has the shape [${t?.dims.join(', ') ?? ''}], not [texts, tokens, dims]`)
    const d = t.dims[2]
    const data = t.data as Float32Array
    return encoded.map((e, b) => {
      const v = new Float64Array(d)
      const at = (i: number) => (b * width + i) * d
      if (pooling === 'cls') for (let k = 0; k < d; k++) v[k] = data[at(0) + k]
      else if (pooling === 'max') {
        v.fill(Number.NEGATIVE_INFINITY)
        for (let i = 0; i < e.length; i++) for (let k = 0; k < d; k++) v[k] = Math.max(v[k], data[at(i) + k])
      } else {
        for (let i = 0; i < e.length; i++) for (let k = 0; k < d; k++) v[k] += data[at(i) + k]
        for (let k = 0; k < d; k++) v[k] /= e.length
      }
      return unit(v)
    })
  }

  // the model's width, from a first text (a model that cannot run one fails here, not at a recall)
  let dims: number
  try {
    dims = (await run(['mem']))[0].length
  } catch (err) {
    throw new LocalModelError(`${file} did not run (${(err as Error).message.split('\n')[0]})`)
  }
  const sizeBytes = statSync(file).size
  const name = basename(dir) === 'onnx' ? basename(join(dir, '..')) : basename(dir)
  return {
    id: `local/${name}-onnx-${dims}-${sizeBytes}`,
    dims,
    about: {
      kind: 'local',
      name: `${name} (ONNX sentence encoder, ${dims} dims, ${pooled ? 'its own pooling' : `${pooling} pooling`})`,
      sizeBytes,
      licence: "the model's own (see its directory)",
      source: `${file}, run by ${ONNX_RUNTIME_PACKAGE} ${version}`,
    },
    async embed(texts) {
      const out: Float32Array[] = []
      for (let i = 0; i < texts.length; i += BATCH) out.push(...(await run(texts.slice(i, i + BATCH).map((t) => (t.trim() === '' ? '.' : t)))))
      return out
    },
  }
}
