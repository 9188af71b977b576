import {closeSync, openSync, readdirSync, readSync} from 'node:fs'
import {join} from 'node:path'
import {isFile} from '../../storage/files.js'

/**
 * What a local model directory holds, read without loading the model's code: the checks every
 * store asks (load.ts embedsSlowly) import this alone; the static table (local-table.ts) and the
 * ONNX runner (onnx.ts) load only when their model does.
 */

/**
 * The name of a safetensors header's embedding table: the tensor named "embeddings", else the only
 * tensor; null when there is none of either (a network's many tensors).
 */
export function tableTensorName(header: Record<string, unknown>): string | null {
  const names = Object.keys(header).filter((k) => k !== '__metadata__')
  return names.includes('embeddings') ? 'embeddings' : names.length === 1 ? names[0] : null
}

/**
 * Whether a directory's model.safetensors is a static-embedding table (its table tensor is 2-D),
 * read from its header alone: a sentence-transformer's directory also has a model.safetensors (the
 * network's many tensors) beside its ONNX export.
 */
export function holdsStaticTable(dir: string): boolean {
  let fd: number | null = null
  try {
    fd = openSync(join(dir, 'model.safetensors'), 'r')
    const len = Buffer.alloc(8)
    if (readSync(fd, len, 0, 8, 0) < 8) return false
    const headerLength = Number(len.readBigUInt64LE(0))
    if (headerLength <= 1 || headerLength > 100_000_000) return false
    const header = Buffer.alloc(headerLength)
    if (readSync(fd, header, 0, headerLength, 8) < headerLength) return false
    const tensors = JSON.parse(header.toString('utf8')) as Record<string, {shape?: unknown}>
    const name = tableTensorName(tensors)
    return name !== null && Array.isArray(tensors[name].shape) && (tensors[name].shape as unknown[]).length === 2
  } catch {
    return false
  } finally {
    if (fd !== null) closeSync(fd)
  }
}

/** Whether a directory's model is an ONNX sentence-transformer: no static table, an ONNX file. */
export function holdsOnnxModel(dir: string): boolean {
  return !holdsStaticTable(dir) && onnxFileIn(dir) !== null
}

/** The ONNX file of a model directory (model.onnx, onnx/model.onnx, or the one .onnx file of either), or null. */
export function onnxFileIn(dir: string): string | null {
  for (const f of [join(dir, 'model.onnx'), join(dir, 'onnx', 'model.onnx')]) if (isFile(f)) return f
  // a directory with a single ONNX file of another name (model_quantized.onnx, …)
  for (const d of [dir, join(dir, 'onnx')]) {
    let names: string[] = []
    try {
      names = readdirSync(d).filter((n) => n.endsWith('.onnx'))
    } catch {
      continue
    }
    if (names.length === 1) return join(d, names[0])
  }
  return null
}
