import {createHash} from 'node:crypto'
import {existsSync, readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {unit, type MeaningModel} from './model.js'

/**
 * The static model: a table distilled from the built-in model (USE-lite) by
 * scripts/distill-meaning-table.mjs — one teacher pass per vocabulary word, PCA, SIF weights folded
 * into the rows, int8 with a scale per row — shipped inside mem's npm package
 * (models/meaning-static.bin). A text's vector is the mean of its words' rows: a lookup, no model
 * run, so memories and questions get their vectors inline (docs/meaning.md).
 */
export const STATIC_FILE = 'meaning-static.bin'
const MAGIC = 'MEMSTAT1'

/**
 * The least cosine a memory needs to be returned on meaning alone (MeaningModel.onlyFloor): chosen
 * on the own recall set's paraphrase questions against 16 off-topic prompts
 * (test/bench/recall/meaning-floor.mjs): the lowest floor above which no off-topic prompt finds a note.
 */
export const STATIC_ONLY_FLOOR = 0.6

export class StaticTableError extends Error {}

export interface StaticHeader {
  format: string
  teacher: string
  words: number
  dims: number
  vocabulary: string
  weighting: string
  pca: string
  /** How the rows were fitted, when they were (scripts/distill-meaning-table.mjs --learn); absent: word-alone rows. */
  training?: string
  licence: string
}

/** The shipped table's path: models/ at the package root, found upward from this module (src or dist). */
export function staticTablePath(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 6; i++) {
    const p = join(dir, 'models', STATIC_FILE)
    if (existsSync(p)) return p
    const up = dirname(dir)
    if (up === dir) break
    dir = up
  }
  return null
}

/** Reads a table file; throws StaticTableError naming what is wrong (never half reads one). */
export function readStaticTable(file: string): {header: StaticHeader; index: Map<string, number>; scales: Float32Array; rows: Int8Array; bytes: number; hash: string} {
  let buf: Buffer
  try {
    buf = readFileSync(file)
  } catch (err) {
    throw new StaticTableError(`${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`)
  }
  if (buf.length < 16 || buf.toString('latin1', 0, 8) !== MAGIC) throw new StaticTableError(`${file} is not a mem static table (no ${MAGIC} mark)`)
  const headerLength = buf.readUInt32LE(8)
  const vocabLength = buf.readUInt32LE(12)
  if (16 + headerLength + vocabLength > buf.length) throw new StaticTableError(`${file} is cut short (header and vocabulary need ${16 + headerLength + vocabLength} bytes, the file has ${buf.length})`)
  let header: StaticHeader
  try {
    header = JSON.parse(buf.toString('utf8', 16, 16 + headerLength))
  } catch {
    throw new StaticTableError(`${file} has a header that is not JSON`)
  }
  const {words, dims} = header
  if (!Number.isInteger(words) || words <= 0 || !Number.isInteger(dims) || dims <= 0) throw new StaticTableError(`${file}: the header's words and dims are not positive whole numbers`)
  const vocab = buf.toString('utf8', 16 + headerLength, 16 + headerLength + vocabLength).split('\n')
  if (vocab.length !== words) throw new StaticTableError(`${file}: the header says ${words} words, the vocabulary holds ${vocab.length}`)
  let at = 16 + headerLength + vocabLength
  at += (4 - (at % 4)) % 4
  if (buf.length !== at + words * 4 + words * dims) throw new StaticTableError(`${file} is ${buf.length} bytes; ${words} words × ${dims} dims need ${at + words * 4 + words * dims}`)
  const copy = new Uint8Array(buf.length - at)
  copy.set(buf.subarray(at))
  const scales = new Float32Array(copy.buffer, 0, words)
  const rows = new Int8Array(copy.buffer, words * 4, words * dims)
  for (const s of scales) if (!Number.isFinite(s)) throw new StaticTableError(`${file} holds a row scale that is not a finite number`)
  const index = new Map<string, number>()
  vocab.forEach((w, i) => index.set(w, i))
  return {header, index, scales, rows, bytes: buf.length, hash: createHash('sha256').update(buf).digest('hex').slice(0, 12)}
}

/** The words of a text as the table knows them: lower case, accents off, letters and digits. */
export function staticWords(text: string): string[] {
  return text.normalize('NFD').replace(/\p{Mn}/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}

/** A word's row in a table's vocabulary: the word, else a plural's singular ("deploys" → "deploy"). */
export function staticRow(index: Map<string, number>, w: string): number | undefined {
  return index.get(w) ?? (w.length > 3 && w.endsWith('s') ? index.get(w.slice(0, -1)) : undefined)
}

export function loadStaticTable(file = staticTablePath()): MeaningModel {
  if (!file) throw new StaticTableError(`the static table (models/${STATIC_FILE}) is not installed with mem; reinstall mem, or set meaning.model: builtin`)
  const {header, index, scales, rows, bytes, hash} = readStaticTable(file)
  const dims = header.dims
  return {
    id: `static/use-lite-distilled-${dims}x${header.words}-${hash}`,
    dims,
    onlyFloor: STATIC_ONLY_FLOOR,
    about: {
      kind: 'static',
      name: `static table distilled from Universal Sentence Encoder Lite (${header.words} words × ${dims} dims, int8)`,
      sizeBytes: bytes,
      licence: header.licence,
      source: file,
    },
    async embed(texts) {
      return texts.map((text) => {
        const sum = new Float64Array(dims)
        for (const w of staticWords(text.length > 20_000 ? text.slice(0, 20_000) : text)) {
          const r = staticRow(index, w)
          if (r === undefined) continue
          const s = scales[r]
          for (let d = 0, base = r * dims; d < dims; d++) sum[d] += rows[base + d] * s
        }
        return unit(sum)
      })
    },
  }
}
