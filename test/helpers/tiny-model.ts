import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

/**
 * A tiny static-embedding model directory (the Model2Vec layout: tokenizer.json + model.safetensors),
 * written by the test: each word's row is a direction of its subject, so words of one subject
 * ("grandma", "granny") lie together and words of others apart.
 */
export const TINY_SUBJECTS: Record<string, string[]> = {
  family: ['grandma', 'granny', 'grandmother'],
  baking: ['bakes', 'makes', 'bread', 'sourdough', 'loaves'],
  time: ['sunday', 'weekend', 'morning', 'each', 'every'],
  build: ['builds', 'esbuild', 'bundle', 'dist', 'cli', 'tests', 'run'],
  database: ['staging', 'database', 'reset', 'night', 'postgres'],
}

export function writeTinyModel(dir: string, options: {dtype?: 'F32' | 'F16'; extraTensor?: boolean} = {}): string {
  mkdirSync(dir, {recursive: true})
  const subjects = Object.keys(TINY_SUBJECTS)
  const vocab: Record<string, number> = {'[PAD]': 0, '[UNK]': 1, '##s': 2}
  const rows: number[][] = [new Array(subjects.length).fill(0), new Array(subjects.length).fill(0), new Array(subjects.length).fill(0)]
  subjects.forEach((s, d) => {
    for (const w of TINY_SUBJECTS[s]) {
      vocab[w] = rows.length
      const row = new Array(subjects.length).fill(0.05)
      row[d] = 1
      rows.push(row)
    }
  })
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify({version: '1.0', normalizer: {type: 'BertNormalizer', lowercase: true}, model: {type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', vocab}}))
  const dtype = options.dtype ?? 'F32'
  const width = dtype === 'F32' ? 4 : 2
  const data = Buffer.alloc(rows.length * subjects.length * width)
  rows.flat().forEach((x, i) => (width === 4 ? data.writeFloatLE(x, i * 4) : data.writeUInt16LE(toHalf(x), i * 2)))
  const tensors: Record<string, unknown> = {embeddings: {dtype, shape: [rows.length, subjects.length], data_offsets: [0, data.length]}}
  if (options.extraTensor) tensors.other = {dtype, shape: [1, 1], data_offsets: [data.length, data.length + width]}
  const header = Buffer.from(JSON.stringify({__metadata__: {format: 'pt'}, ...tensors}))
  const len = Buffer.alloc(8)
  len.writeBigUInt64LE(BigInt(header.length))
  writeFileSync(join(dir, 'model.safetensors'), Buffer.concat([len, header, data, options.extraTensor ? Buffer.alloc(width) : Buffer.alloc(0)]))
  return dir
}

/** IEEE 754 half precision of a value in 0..1 (enough for the tiny table). */
function toHalf(x: number): number {
  if (x === 0) return 0
  const e = Math.floor(Math.log2(x))
  const f = Math.round((x / 2 ** e - 1) * 1024)
  return ((e + 15) << 10) | f
}
