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
  // a negative int64 (an axis of -1) is its two's complement: ten bytes
  let v = BigInt.asUintN(64, BigInt(n))
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
const FLOAT16 = 10
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
  options: {pooling?: 'mean' | 'cls' | 'max' | 'none'; sentenceOutput?: boolean; inOnnxFolder?: boolean; inputs?: string[]; float16?: boolean} = {},
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
  const nodes = options.float16
    ? [node('Gather', ['embeddings', inputs[0]], ['gathered']), node('Tanh', ['gathered'], ['tanh']), node('Cast', ['tanh'], ['last_hidden_state'], [{name: 'to', int: FLOAT16}])]
    : [node('Gather', ['embeddings', inputs[0]], ['gathered']), node('Tanh', ['gathered'], ['last_hidden_state'])]
  const outputs = [valueInfo('last_hidden_state', options.float16 ? FLOAT16 : FLOAT, ['batch', 'sequence', d])]
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

/** TensorProto of int64s (shapes, axes): dims, data_type, name, raw_data. */
function int64s(name: string, values: number[]): Buffer {
  const raw = Buffer.alloc(values.length * 8)
  values.forEach((v, i) => raw.writeBigInt64LE(BigInt(v), i * 8))
  return msg(int(1, values.length), int(2, INT64), bytes(8, name), bytes(9, raw))
}
/** A scalar float TensorProto (no dims). */
function scalar(name: string, value: number): Buffer {
  return msg(int(2, FLOAT), bytes(8, name), bytes(9, Buffer.from(new Float32Array([value]).buffer)))
}
/** A float attribute (f = 2, type FLOAT = 1). */
const floatAttribute = (name: string, value: number): Buffer => {
  const f = Buffer.alloc(4)
  f.writeFloatLE(value)
  return bytes(5, msg(bytes(1, name), Buffer.concat([varint((2 << 3) | 5), f]), int(20, 1)))
}

/**
 * A BERT-shaped sentence encoder (the architecture of all-MiniLM-L6-v2 and bge-small: word,
 * position and type embeddings, `layers` blocks of multi-head self-attention masked by
 * attention_mask, layer norms and a GELU feed-forward) with random weights, written as ONNX: what
 * mem feeds and pools runs through a real transformer's graph. With MiniLM's shape (6 layers, 384
 * wide, 12 heads, 1,536 inner, 30,522 tokens) it costs what such a model costs to load and run
 * (test/bench/recall/onnx-cost.mjs); its vectors mean nothing.
 */
export function writeBertShapedOnnxModel(
  dir: string,
  shape: {layers: number; hidden: number; heads: number; inner: number; vocab: number; positions?: number; words?: string[]; seed?: number},
): {dir: string; vocab: Record<string, number>} {
  mkdirSync(dir, {recursive: true})
  const {layers, hidden: h, heads, inner, vocab: size} = shape
  const positions = shape.positions ?? 512
  const dh = h / heads
  let state = shape.seed ?? 7
  const random = (n: number, scale = 0.05): number[] =>
    Array.from({length: n}, () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0
      return ((state / 2 ** 32) * 2 - 1) * scale
    })
  const vocab: Record<string, number> = {'[PAD]': 0, '[UNK]': 1, '[CLS]': 2, '[SEP]': 3}
  for (const w of shape.words ?? []) if (vocab[w] === undefined && Object.keys(vocab).length < size) vocab[w] = Object.keys(vocab).length
  for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789') for (const t of [c, `##${c}`]) if (vocab[t] === undefined && Object.keys(vocab).length < size) vocab[t] = Object.keys(vocab).length
  for (let i = Object.keys(vocab).length; i < size; i++) vocab[`[unused${i}]`] = i
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify({version: '1.0', truncation: null, normalizer: {type: 'BertNormalizer', lowercase: true}, model: {type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', vocab}}))

  const inits: Buffer[] = []
  const nodes: Buffer[] = []
  const weight = (name: string, dims: number[], values?: number[]) => {
    inits.push(floats(name, dims, values ?? random(dims.reduce((a, b) => a * b, 1))))
    return name
  }
  const ones = (n: number) => new Array(n).fill(1)
  const zeros = (n: number) => new Array(n).fill(0)
  let k = 0
  const op = (type: string, inputs: string[], attributes: Buffer[] = []): string => {
    const out = `${type.toLowerCase()}_${k++}`
    nodes.push(msg(...inputs.map((i) => bytes(1, i)), bytes(2, out), bytes(3, out), bytes(4, type), ...attributes))
    return out
  }
  const ints = (name: string, values: number[]) => bytes(5, msg(bytes(1, name), ...values.map((n) => int(8, n)), int(20, 7)))
  const one = (name: string, value: number) => bytes(5, msg(bytes(1, name), int(3, value), int(20, 2)))
  const layerNorm = (x: string, name: string) => op('LayerNormalization', [x, weight(`${name}.g`, [h], ones(h)), weight(`${name}.b`, [h], zeros(h))], [one('axis', -1), floatAttribute('epsilon', 1e-12)])
  const dense = (x: string, name: string, from: number, to: number) => op('Add', [op('MatMul', [x, weight(`${name}.w`, [from, to])]), weight(`${name}.b`, [to], zeros(to))])
  inits.push(int64s('heads_shape', [0, 0, heads, dh]), int64s('hidden_shape', [0, 0, h]), int64s('axes_12', [1, 2]), int64s('axes_0', [0]))
  inits.push(scalar('one', 1), scalar('neg', -10000), scalar('scale', 1 / Math.sqrt(dh)), scalar('sqrt2', Math.SQRT2), scalar('half', 0.5))
  inits.push(msg(int(2, INT64), bytes(8, 'i0'), bytes(9, Buffer.alloc(8))), msg(int(2, INT64), bytes(8, 'i1'), bytes(9, Buffer.from([1, 0, 0, 0, 0, 0, 0, 0]))))
  // embeddings: word + position (0 .. length-1) + type, normalised
  const length = op('Gather', [op('Shape', ['input_ids']), 'i1'], [one('axis', 0)])
  const positionIds = op('Unsqueeze', [op('Range', ['i0', length, 'i1']), 'axes_0'])
  const embedded = op('Add', [op('Add', [op('Gather', [weight('word', [size, h]), 'input_ids']), op('Gather', [weight('position', [positions, h]), positionIds])]), op('Gather', [weight('type', [2, h]), 'token_type_ids'])])
  let x = layerNorm(embedded, 'embeddings.norm')
  // the attention mask as an additive bias: 0 where a token is, -10000 where padding is
  const bias = op('Unsqueeze', [op('Mul', [op('Sub', ['one', op('Cast', ['attention_mask'], [one('to', FLOAT)])]), 'neg']), 'axes_12'])
  for (let l = 0; l < layers; l++) {
    const split = (t: string, perm: number[]) => op('Transpose', [op('Reshape', [t, 'heads_shape'])], [ints('perm', perm)])
    const q = split(dense(x, `l${l}.q`, h, h), [0, 2, 1, 3])
    const kT = split(dense(x, `l${l}.k`, h, h), [0, 2, 3, 1])
    const v = split(dense(x, `l${l}.v`, h, h), [0, 2, 1, 3])
    const probabilities = op('Softmax', [op('Add', [op('Mul', [op('MatMul', [q, kT]), 'scale']), bias])], [one('axis', -1)])
    const context = op('Reshape', [op('Transpose', [op('MatMul', [probabilities, v])], [ints('perm', [0, 2, 1, 3])]), 'hidden_shape'])
    x = layerNorm(op('Add', [x, dense(context, `l${l}.o`, h, h)]), `l${l}.norm1`)
    const up = dense(x, `l${l}.up`, h, inner)
    const gelu = op('Mul', [op('Mul', [up, 'half']), op('Add', ['one', op('Erf', [op('Div', [up, 'sqrt2'])])])])
    x = layerNorm(op('Add', [x, dense(gelu, `l${l}.down`, inner, h)]), `l${l}.norm2`)
  }
  nodes.push(msg(bytes(1, x), bytes(2, 'last_hidden_state'), bytes(3, 'output'), bytes(4, 'Identity')))
  const graph = msg(
    ...nodes.map((n) => bytes(1, n)),
    bytes(2, 'bert-shaped-encoder'),
    ...inits.map((t) => bytes(5, t)),
    ...['input_ids', 'attention_mask', 'token_type_ids'].map((name) => bytes(11, valueInfo(name, INT64, ['batch', 'sequence']))),
    bytes(12, valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', h])),
  )
  writeFileSync(join(dir, 'model.onnx'), msg(int(1, 8), bytes(7, graph), bytes(8, msg(bytes(1, ''), int(2, 17)))))
  return {dir, vocab}
}
