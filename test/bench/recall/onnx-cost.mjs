// What an ONNX sentence-transformer a user brings costs (issue 30, docs/meaning.md "A stronger model
// you bring"), beside the built-in model, in one run. No such model can be downloaded here, so the
// model is one of all-MiniLM-L6-v2's shape (6 layers, 384 wide, 12 heads, 1,536 inner, 30,522
// tokens: ~23 M weights, ~90 MB) with random weights, written by test/helpers/tiny-onnx.ts: its
// vectors mean nothing, its costs are a MiniLM's. In this process: load (runtime and weights), the
// first note, each next note (median over the own set's notes), a batch of 8. Then cold one-shot
// `mem recall` of a question the words do not answer (the model is loaded and asked) against
// `node -e 0`, side by side. Run: `npm run build && node --import tsx test/bench/recall/onnx-cost.mjs` (npm run bench runs it).
import {spawnSync} from 'node:child_process'
import {mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {loadOnnxModel} from '../../../dist/src/engines/meaning/onnx.js'
import {loadBuiltin} from '../../../dist/src/engines/meaning/builtin.js'
import {writeBertShapedOnnxModel} from '../../helpers/tiny-onnx.ts'
import {BIN, fmt, median, tempRepo, wallTimesSideBySide} from '../lib/util.mjs'

const notes = JSON.parse(readFileSync(join(import.meta.dirname, 'data', 'memories.json'), 'utf8')).map((m) => m.content)
const words = [...new Set(notes.flatMap((n) => n.toLowerCase().match(/[a-z0-9]+/g) ?? []))]

async function costs(name, load) {
  const t0 = performance.now()
  const model = await load()
  const loadMs = performance.now() - t0
  const t1 = performance.now()
  await model.embed([notes[0]])
  const firstMs = performance.now() - t1
  const each = []
  for (const n of notes.slice(1, 61)) {
    const t = performance.now()
    await model.embed([n])
    each.push(performance.now() - t)
  }
  const batches = []
  for (let i = 61; i + 8 <= 141; i += 8) {
    const t = performance.now()
    await model.embed(notes.slice(i, i + 8))
    batches.push(performance.now() - t)
  }
  console.log(`${name.padEnd(44)} | ${fmt(loadMs, 0).padStart(7)} | ${fmt(firstMs, 1).padStart(10)} | ${fmt(median(each), 1).padStart(9)} | ${fmt(median(batches), 1).padStart(10)}`)
}

export async function benchOnnxCost() {
  const os = await import('node:os')
  const {base} = tempRepo('onnx-cost')
  const dir = join(base, 'minilm-shaped')
  const t = performance.now()
  writeBertShapedOnnxModel(dir, {layers: 6, hidden: 384, heads: 12, inner: 1536, vocab: 30522, words})
  console.log(`\n== An ONNX model of all-MiniLM-L6-v2's shape (random weights; written in ${fmt((performance.now() - t) / 1000, 1)} s), run by onnxruntime-web, beside the built-in model (load average ${os.loadavg()[0].toFixed(1)}) ==`)
  console.log(`${'model'.padEnd(44)} | load ms | first note | each next | batch of 8`)
  await costs('MiniLM-shaped ONNX (onnxruntime-web, 1 thread)', () => loadOnnxModel(dir))
  await costs('built-in (USE-lite, TensorFlow.js WebAssembly)', loadBuiltin)
  // cold one-shot recall: a store of 20 notes per model (a memory holds one model's vector: a store
  // shared by two models would embed again at every run), a question no note holds every word of
  const q = 'granny makes bread each weekend'
  const stores = []
  for (const model of [dir, 'builtin']) {
    const s = tempRepo('onnx-cost-recall')
    mkdirSync(s.home, {recursive: true})
    writeFileSync(join(s.home, 'config.yaml'), 'update:\n  check: false\n')
    for (const n of notes.slice(0, 20)) {
      const r = spawnSync(process.execPath, [BIN, 'store', n, '--type', 'insight'], {cwd: s.root, env: {...process.env, MEM_HOME: s.home, MEM_MEANING: model}, encoding: 'utf8'})
      if (r.status !== 0) throw new Error(r.stderr)
    }
    stores.push({args: [BIN, 'recall', q], cwd: s.root, env: {MEM_HOME: s.home, MEM_MEANING: model}})
  }
  const [node, onnx, builtin] = wallTimesSideBySide([{args: ['-e', '0']}, ...stores], {runs: 7})
  console.log(`cold mem recall (20 notes, the model asked), median of 7 side by side: node -e 0 ${fmt(node, 0)} ms; MiniLM-shaped ONNX ${fmt(onnx, 0)} ms (${fmt(onnx / node, 1)}×); built-in ${fmt(builtin, 0)} ms (${fmt(builtin / node, 1)}×)`)
  // the model is ~90 MB: not left behind in the temp folder
  rmSync(base, {recursive: true, force: true})
}

if (import.meta.url === `file://${process.argv[1]}`) await benchOnnxCost()
