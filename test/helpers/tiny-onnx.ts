import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {TINY_SUBJECTS} from './tiny-model.js'

/**
 * A tiny sentence encoder exported as ONNX, in the layout of a sentence-transformer's directory
 * (tokenizer.json, model.onnx or onnx/model.onnx, 1_Pooling/config.json), written by the test: the
 * ONNX protobuf (onnx.proto's ModelProto) is encoded here by hand, field by field. The network looks
 * each token up in a table (Gather) and passes it through Tanh: each word's row is a direction of its
 * subject (TINY_SUBJECTS), so words of one subject lie together; [CLS], [SEP] and [UNK] have rows of
 * their own, [PAD] a row the pooling must never read (100 in every dimension).
 */
export interface TinyOnnx {
  dir: string
  vocab: Record<string, number>
  /** Each token's output vector (tanh of its row). */
  rows: number[][]
}

// protobuf's wire format: varints (wire type 0) and length-delimited fields (2)
function varint(n: number | bigint): Buffer {
  const out: number[] = []
  let v = BigInt(n)
  do {
    let b = Number(v & 0x7fn)
    v >>= 7n
    if (v) b |= 0x80
    out.push(b)
  } while (v)
  return Buffer.from(out)
}
const int = (field: number, n: number): Buffer => Buffer.concat([varint((field << 3) | 0), varint(n)])
const bytes = (field: number, b: Buffer | string): Buffer => {
  const buf = typeof b === 'string' ? Buffer.from(b) : b
  return Buffer.concat([varint((field << 3) | 2), varint(buf.length), buf])
}
const msg = (...parts: Buffer[]): Buffer => Buffer.concat(parts)

const FLOAT = 1
const INT64 = 7
/** ValueInfoProto: a name and a tensor type (elem_type, shape of named or fixed dimensions). */
function valueInfo(name: string, elem: number, dims: Array<number | string>): Buffer {
  const shape = msg(...dims.map((d) => bytes(1, typeof d === 'number' ? int(1, d) : bytes(2, d))))
  return msg(bytes(1, name), bytes(2, bytes(1, msg(int(1, elem), bytes(2, shape)))))
}
/** NodeProto: inputs, outputs, name, op_type, and attributes of an int or a list of ints. */
function node(op: string, inputs: string[], outputs: string[], attributes: Array<{name: string; ints?: number[]; int?: number}> = []): Buffer {
  return msg(
    ...inputs.map((i) => bytes(1, i)),
    ...outputs.map((o) => bytes(2, o)),
    bytes(3, `${op}_${outputs[0]}`),
    bytes(4, op),
    // AttributeProto: name (1), i (3) of type INT (20 = 2), or ints (8) of type INTS (20 = 7)
    ...attributes.map((a) => bytes(5, a.ints ? msg(bytes(1, a.name), ...a.ints.map((n) => int(8, n)), int(20, 7)) : msg(bytes(1, a.name), int(3, a.int ?? 0), int(20, 2)))),
  )
}
/** TensorProto of floats: dims, data_type, name, raw_data. */
function floats(name: string, dims: number[], values: number[]): Buffer {
  return msg(...dims.map((d) => int(1, d)), int(2, FLOAT), bytes(8, name), bytes(9, Buffer.from(new Float32Array(values).buffer)))
}

export function writeTinyOnnxModel(
  dir: string,
  options: {pooling?: 'mean' | 'cls' | 'max' | 'none'; sentenceOutput?: boolean; inOnnxFolder?: boolean; inputs?: string[]} = {},
): TinyOnnx {
  mkdirSync(dir, {recursive: true})
  const subjects = Object.keys(TINY_SUBJECTS)
  const d = subjects.length
  const vocab: Record<string, number> = {'[PAD]': 0, '[UNK]': 1, '[CLS]': 2, '[SEP]': 3, '##s': 4}
  const table: number[][] = [new Array(d).fill(100), new Array(d).fill(-0.3), new Array(d).fill(0.2), new Array(d).fill(0.1), new Array(d).fill(0)]
  subjects.forEach((s, k) => {
    for (const w of TINY_SUBJECTS[s]) {
      vocab[w] = table.length
      const row = new Array(d).fill(0.05)
      row[k] = 1
      table.push(row)
    }
  })
  writeFileSync(
    join(dir, 'tokenizer.json'),
    JSON.stringify({version: '1.0', truncation: null, normalizer: {type: 'BertNormalizer', lowercase: true}, model: {type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', vocab}}),
  )
  const pooling = options.pooling ?? 'mean'
  if (pooling !== 'none') {
    mkdirSync(join(dir, '1_Pooling'), {recursive: true})
    writeFileSync(
      join(dir, '1_Pooling', 'config.json'),
      JSON.stringify({word_embedding_dimension: d, pooling_mode_cls_token: pooling === 'cls', pooling_mode_mean_tokens: pooling === 'mean', pooling_mode_max_tokens: pooling === 'max'}),
    )
  }
  const inputs = options.inputs ?? ['input_ids', 'attention_mask', 'token_type_ids']
  const nodes = [node('Gather', ['embeddings', inputs[0]], ['gathered']), node('Tanh', ['gathered'], ['last_hidden_state'])]
  const outputs = [valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', d])]
  if (options.sentenceOutput) {
    // a model with its pooling inside: the mean over every position (its own, not mem's)
    nodes.push(node('ReduceMean', ['last_hidden_state'], ['sentence_embedding'], [{name: 'axes', ints: [1]}, {name: 'keepdims', int: 0}]))
    outputs.push(valueInfo('sentence_embedding', FLOAT, ['batch', d]))
  }
  const graph = msg(
    ...nodes.map((n) => bytes(1, n)),
    bytes(2, 'tiny-encoder'),
    bytes(5, floats('embeddings', [table.length, d], table.flat())),
    ...inputs.map((name) => bytes(11, valueInfo(name, INT64, ['batch', 'sequence']))),
    ...outputs.map((o) => bytes(12, o)),
  )
  // ModelProto: ir_version 8, the graph, opset 13 of the default domain
  const model = msg(int(1, 8), bytes(7, graph), bytes(8, msg(bytes(1, ''), int(2, 13))))
  const folder = options.inOnnxFolder ? join(dir, 'onnx') : dir
  mkdirSync(folder, {recursive: true})
  writeFileSync(join(folder, 'model.onnx'), model)
  return {dir, vocab, rows: table.map((r) => r.map(Math.tanh))}
}
