import {readFileSync, statSync} from 'node:fs'
import {basename, join} from 'node:path'
import {tableTensorName} from './model-dir.js'
import {unit, type MeaningModel} from './model.js'

/**
 * A static-embedding model the user brings (the Model2Vec layout): a directory with
 * `model.safetensors` (one F32 or F16 tensor of vocabulary × dims, named `embeddings` or the only
 * tensor) and `tokenizer.json` (a WordPiece tokenizer, as BERT-style models ship). A text's vector
 * is the mean of its tokens' rows: no network, no runtime, microseconds a text.
 */
export class LocalModelError extends Error {}

interface Tensor {
  dtype: string
  shape: number[]
  data_offsets: [number, number]
}

/** Reads a safetensors file's one embedding table. */
export function readSafetensors(file: string): {rows: number; dims: number; table: Float32Array} {
  const buf = readFileSync(file)
  if (buf.length < 8) throw new LocalModelError(`${file} is too short to be a safetensors file`)
  const headerLength = Number(buf.readBigUInt64LE(0))
  if (headerLength <= 1 || 8 + headerLength > buf.length) throw new LocalModelError(`${file} has a header of ${headerLength} bytes in a file of ${buf.length}`)
  let header: Record<string, Tensor>
  try {
    header = JSON.parse(buf.subarray(8, 8 + headerLength).toString('utf8'))
  } catch {
    throw new LocalModelError(`${file} has a header that is not JSON`)
  }
  const name = tableTensorName(header)
  if (!name) throw new LocalModelError(`${file} holds ${Object.keys(header).filter((k) => k !== '__metadata__').length} tensors and none is named "embeddings"`)
  const t = header[name]
  if (!Array.isArray(t.shape) || t.shape.length !== 2 || !t.shape.every((n) => Number.isInteger(n) && n > 0)) throw new LocalModelError(`${file}: tensor "${name}" is not a 2-D table`)
  const [rows, dims] = t.shape
  const width = t.dtype === 'F32' ? 4 : t.dtype === 'F16' ? 2 : 0
  if (width === 0) throw new LocalModelError(`${file}: tensor "${name}" is ${t.dtype}; F32 and F16 are read`)
  const [from, to] = t.data_offsets ?? []
  const start = 8 + headerLength + from
  if (!Number.isInteger(from) || to - from !== rows * dims * width || 8 + headerLength + to > buf.length) throw new LocalModelError(`${file}: tensor "${name}" does not fit the file`)
  const table = new Float32Array(rows * dims)
  for (let i = 0; i < table.length; i++) table[i] = width === 4 ? buf.readFloatLE(start + i * 4) : half(buf.readUInt16LE(start + i * 2))
  for (let i = 0; i < table.length; i++) if (!Number.isFinite(table[i])) throw new LocalModelError(`${file}: tensor "${name}" holds a value that is not a finite number`)
  return {rows, dims, table}
}

function half(h: number): number {
  const s = h & 0x8000 ? -1 : 1
  const e = (h >> 10) & 0x1f
  const f = h & 0x3ff
  if (e === 0) return s * 2 ** -14 * (f / 1024)
  if (e === 31) return f ? Number.NaN : s * Number.POSITIVE_INFINITY
  return s * 2 ** (e - 15) * (1 + f / 1024)
}

/** A BERT-style WordPiece tokenizer from a tokenizer.json: lower case, accents off, punctuation apart. */
export class WordPiece {
  constructor(
    private readonly vocab: Map<string, number>,
    private readonly prefix: string,
    private readonly lowercase: boolean,
  ) {}

  static fromFile(file: string): WordPiece {
    let doc: {model?: {type?: string; vocab?: Record<string, number>; continuing_subword_prefix?: string}; normalizer?: {lowercase?: boolean} | null}
    try {
      doc = JSON.parse(readFileSync(file, 'utf8'))
    } catch (err) {
      throw new LocalModelError(`${file} cannot be read as JSON (${(err as Error).message.split('\n')[0]})`)
    }
    const model = doc.model
    if (model?.type !== 'WordPiece' || !model.vocab || typeof model.vocab !== 'object') throw new LocalModelError(`${file} is not a WordPiece tokenizer (model.type ${JSON.stringify(model?.type ?? null)}); only WordPiece is read`)
    const vocab = new Map<string, number>()
    for (const [token, id] of Object.entries(model.vocab)) if (Number.isInteger(id) && id >= 0) vocab.set(token, id)
    return new WordPiece(vocab, model.continuing_subword_prefix ?? '##', doc.normalizer?.lowercase !== false)
  }

  get size(): number {
    let max = -1
    for (const id of this.vocab.values()) if (id > max) max = id
    return max + 1
  }

  /** The id of a token of the vocabulary ("[CLS]"), if it has it. */
  idOf(token: string): number | undefined {
    return this.vocab.get(token)
  }

  /**
   * Token ids of the text's words and word pieces; unknown words are left out, or stand as
   * `unknown` when given (a BERT-style encoder's [UNK]).
   */
  ids(text: string, {unknown}: {unknown?: number} = {}): number[] {
    let t = text.normalize('NFD').replace(/\p{Mn}/gu, '')
    if (this.lowercase) t = t.toLowerCase()
    const out: number[] = []
    for (const word of t.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu) ?? []) {
      if (word.length > 100) {
        if (unknown !== undefined) out.push(unknown)
        continue
      }
      const pieces: number[] = []
      let start = 0
      while (start < word.length) {
        let end = word.length
        let found = -1
        while (end > start) {
          const piece = (start > 0 ? this.prefix : '') + word.slice(start, end)
          const id = this.vocab.get(piece)
          if (id !== undefined) {
            found = id
            break
          }
          end--
        }
        if (found < 0) {
          pieces.length = 0
          if (unknown !== undefined) pieces.push(unknown)
          break
        }
        pieces.push(found)
        start = end
      }
      out.push(...pieces)
    }
    return out
  }
}

/** Loads a static-embedding directory. Throws LocalModelError naming what is wrong. */
export function loadLocalTable(dir: string): MeaningModel {
  const weights = join(dir, 'model.safetensors')
  const tokenizerFile = join(dir, 'tokenizer.json')
  for (const f of [weights, tokenizerFile]) {
    try {
      if (!statSync(f).isFile()) throw new Error()
    } catch {
      throw new LocalModelError(
        `${dir} has no ${basename(f)} (a model directory holds model.safetensors and tokenizer.json, a static-embedding table such as a Model2Vec model, or model.onnx and tokenizer.json, a sentence-transformer exported to ONNX)`,
      )
    }
  }
  const tokenizer = WordPiece.fromFile(tokenizerFile)
  const {rows, dims, table} = readSafetensors(weights)
  if (tokenizer.size > rows) throw new LocalModelError(`${tokenizerFile} has ${tokenizer.size} tokens but ${weights} only ${rows} rows`)
  const sizeBytes = statSync(weights).size
  return {
    id: `local/${basename(dir)}-${dims}-${rows}-${sizeBytes}`,
    dims,
    about: {kind: 'local', name: `${basename(dir)} (static embeddings, ${dims} dims)`, sizeBytes, licence: "the model's own (see its directory)", source: dir},
    async embed(texts) {
      return texts.map((text) => {
        const sum = new Float64Array(dims)
        const ids = tokenizer.ids(text.slice(0, 8_000))
        for (const id of ids) for (let d = 0, base = id * dims; d < dims; d++) sum[d] += table[base + d]
        return unit(sum)
      })
    },
  }
}
