// Checks a paraphrase set (memories.json, questions.json) and prints its counts and a plain BM25
// reference row. Exits 1 when a check fails. No dependencies.
//   node check.mjs                 this folder's set (which holds issue 30's four notes, verbatim)
//   node check.mjs ../paraphrase2  another set (held to the same checks, without the four notes; its
//                                  BM25 row only with --bm25: that set was written without it)
import {readFileSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

const own = dirname(fileURLToPath(import.meta.url))
const dirArg = process.argv.slice(2).find((a) => !a.startsWith('--'))
const here = dirArg ? resolve(dirArg) : own
const first = here === own
const memories = JSON.parse(readFileSync(join(here, 'memories.json'), 'utf8'))
const questions = JSON.parse(readFileSync(join(here, 'questions.json'), 'utf8'))
const problems = []
const fail = (msg) => problems.push(msg)

// A small stop-word list: function words and question words only.
const STOP = new Set(
  ('a an the and or but if of to in on at by for with from into onto about as is are was were be been being do does did ' +
    'done have has had i me my we our us you your it its this that these those there here what whats which who whom whose where ' +
    'when why how can could should would will shall may might must not no never nor so than then too very just only also ' +
    'any all each every some such own same other again once up down out off over under before after while until s t ' +
    'don isn doesn didn won e g vs get got goes one am else them they their').split(' '),
)
const stem = (w) => {
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3)
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2)
  if (w.length > 4 && w.endsWith('es')) return w.slice(0, -2)
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1)
  return w
}
const words = (text) => text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w && !STOP.has(w))
const contentWords = (text) => new Set(words(text).map(stem))
const noteText = (m) => `${m.content} ${m.tags.join(' ')}`

// The four notes of issue 30, kept verbatim (the first is shorter than the 40-character floor).
const ISSUE_NOTES = [
  'Use pnpm, never npm, in this repo',
  'The API returns money as integer cents, never floats',
  'Never log request bodies: they contain customer PII',
  'We deploy to Fly.io from the main branch via GitHub Actions',
]
if (first) for (const n of ISSUE_NOTES) if (!memories.some((m) => m.content === n)) fail(`issue note missing verbatim: "${n}"`)

// Shapes.
const TYPES = new Set(['observation', 'insight', 'procedure', 'heuristic'])
const KINDS = ['paraphrase', 'lexical', 'code']
const byKey = new Map()
for (const m of memories) {
  if (byKey.has(m.key)) fail(`duplicate key ${m.key}`)
  byKey.set(m.key, m)
  if (!/^[prstuvwyz]\d{3}$/.test(m.key)) fail(`${m.key}: key is not p001-, r001-, s001-, t001-, u001-, v001-, w001-, y001- or z001-style`)
  if (!TYPES.has(m.type)) fail(`${m.key}: unknown type ${m.type}`)
  if (typeof m.content !== 'string' || ((m.content.length < 40 || m.content.length > 220) && !(first && ISSUE_NOTES.includes(m.content)))) fail(`${m.key}: content is ${m.content.length} characters (40-220)`)
  if (!Array.isArray(m.tags) || m.tags.length > 4 || m.tags.some((t) => t !== t.toLowerCase())) fail(`${m.key}: tags must be 0-4 lowercase strings`)
  if (!(m.importance >= 0 && m.importance <= 1)) fail(`${m.key}: importance ${m.importance} outside 0-1`)
}
const seen = new Map()
for (const m of memories) {
  const norm = m.content.trim().toLowerCase()
  if (seen.has(norm)) fail(`${m.key} and ${seen.get(norm)} have identical content`)
  seen.set(norm, m.key)
}
const SECRET = [/AKIA/, /ghp_/, /password=/i, /secret=/i, /token=/i, /-----BEGIN/]
for (const t of [...memories.map((m) => [m.key, m.content]), ...questions.map((q) => [q.q, q.q])]) {
  for (const re of SECRET) if (re.test(t[1])) fail(`${t[0]}: secret-looking text ${re}`)
}
const answered = new Set()
for (const q of questions) {
  if (!KINDS.includes(q.kind)) fail(`"${q.q}": unknown kind ${q.kind}`)
  if (!Array.isArray(q.relevant) || q.relevant.length < 1 || q.relevant.length > 3) fail(`"${q.q}": needs 1-3 relevant keys`)
  for (const k of q.relevant) {
    if (!byKey.has(k)) fail(`"${q.q}": relevant key ${k} does not exist`)
    answered.add(k)
  }
}
const qs = new Set()
for (const q of questions) {
  if (qs.has(q.q.toLowerCase())) fail(`duplicate question "${q.q}"`)
  qs.add(q.q.toLowerCase())
}

// Word overlap between each question and each of its relevant notes (content + tags).
const shared = (q, m) => {
  const nw = contentWords(noteText(m))
  return [...contentWords(q.q)].filter((w) => nw.has(w))
}
// Stricter, informational: also count words that share their first five letters (deploy / deployment).
const sharedLoose = (q, m) => {
  const nw = [...contentWords(noteText(m))]
  return [...contentWords(q.q)].filter((w) => nw.some((n) => n === w || (w.length >= 5 && n.length >= 5 && n.slice(0, 5) === w.slice(0, 5))))
}
let loose = 0
for (const q of questions) {
  for (const k of q.relevant) {
    const m = byKey.get(k)
    if (!m) continue
    const s = shared(q, m)
    if (q.kind === 'paraphrase' && s.length > 1) fail(`paraphrase shares ${s.length} content words with ${k} (${s.join(', ')}): "${q.q}"`)
    if (q.kind === 'paraphrase' && sharedLoose(q, m).length > 1) loose++
  }
  if (q.kind === 'lexical') {
    const best = Math.max(...q.relevant.map((k) => (byKey.get(k) ? shared(q, byKey.get(k)).length : 0)))
    if (best < 2) fail(`lexical question shares only ${best} content words with its notes: "${q.q}"`)
  }
  if (q.kind === 'code') {
    // A code question names a token its note holds verbatim: an identifier, command, flag or path (a token
    // with code characters found in the note, or a word of one of the note's `code spans`).
    const tokens = q.q.split(/\s+/).map((t) => t.replace(/^[`"'(]+|[`"'),?.]+$/g, ''))
    const codey = (t) => /[_./:@%#<-]|[a-z][A-Z]|^[A-Z0-9_]{4,}$/.test(t)
    const spanWords = (m) => new Set((m.content.match(/`[^`]+`/g) ?? []).flatMap((s) => words(s)))
    const hit = tokens.filter((t) =>
      q.relevant.some((k) => {
        const m = byKey.get(k)
        if (!m) return false
        return codey(t) ? m.content.toLowerCase().includes(t.toLowerCase()) : t.length > 2 && !STOP.has(t.toLowerCase()) && spanWords(m).has(t.toLowerCase())
      }),
    )
    if (!hit.length) fail(`code question names no identifier, flag, command or path of its note: "${q.q}"`)
  }
}

// Counts.
const count = (arr, f) => arr.reduce((acc, x) => ((acc[f(x)] = (acc[f(x)] ?? 0) + 1), acc), {})
const distractors = memories.filter((m) => !answered.has(m.key))
const lengths = memories.map((m) => m.content.length).sort((a, b) => a - b)
const overlapHist = count(
  questions.filter((q) => q.kind === 'paraphrase'),
  (q) => Math.max(0, ...q.relevant.filter((k) => byKey.has(k)).map((k) => shared(q, byKey.get(k)).length)),
)
console.log(`memories: ${memories.length} (${distractors.length} answer no question), by type ${JSON.stringify(count(memories, (m) => m.type))}`)
console.log(`content length: ${lengths[0]}-${lengths.at(-1)} characters, median ${lengths[lengths.length >> 1]}`)
console.log(`questions: ${questions.length}, by kind ${JSON.stringify(count(questions, (q) => q.kind))}, relevant keys per question ${JSON.stringify(count(questions, (q) => q.relevant.length))}`)
console.log(`paraphrase questions by content words shared with their closest note: ${JSON.stringify(overlapHist)}; sharing 2+ words when five-letter prefixes count: ${loose}`)

if (first || process.argv.includes('--bm25')) {
  // Reference: plain BM25 (lowercase word tokens, no stemming, no stop words, k1=1.2, b=0.75) over content + tags.
  const tok = (t) => t.toLowerCase().match(/[a-z0-9]+/g) ?? []
  const docs = memories.map((m) => tok(noteText(m)))
  const avgdl = docs.reduce((a, d) => a + d.length, 0) / docs.length
  const df = new Map()
  for (const d of docs) for (const w of new Set(d)) df.set(w, (df.get(w) ?? 0) + 1)
  const bm25 = (query) => {
    const terms = tok(query)
    const scores = docs.map((d, i) => {
      let s = 0
      for (const t of terms) {
        const f = d.filter((w) => w === t).length
        if (!f) continue
        const idf = Math.log(1 + (docs.length - df.get(t) + 0.5) / (df.get(t) + 0.5))
        s += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / avgdl))
      }
      return [memories[i].key, s]
    })
    return scores.filter(([, s]) => s > 0).sort((a, b) => b[1] - a[1]).map(([k]) => k)
  }
  console.log('plain BM25 reference | recall@1 | recall@5 | MRR@10')
  for (const kind of [...KINDS, 'all']) {
    const group = questions.filter((q) => kind === 'all' || q.kind === kind)
    let r1 = 0, r5 = 0, mrr = 0
    for (const q of group) {
      const ranked = bm25(q.q).slice(0, 10)
      const first = ranked.findIndex((k) => q.relevant.includes(k))
      if (first === 0) r1++
      if (first >= 0 && first < 5) r5++
      if (first >= 0) mrr += 1 / (first + 1)
    }
    const f = (x) => (x / group.length).toFixed(2)
    console.log(`${kind.padEnd(20)} | ${f(r1)}     | ${f(r5)}     | ${f(mrr)}`)
  }
}

if (problems.length) {
  console.log(`\n${problems.length} problem(s):`)
  for (const p of problems) console.log(`- ${p}`)
  process.exit(1)
}
console.log('\nall checks pass')
