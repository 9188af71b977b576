// The floor of a hit found by meaning alone (MeaningModel.onlyFloor, docs/meaning.md): for a model,
// how far the cosine of a question in other words with its note stands from the best cosine of a
// question no note is about. Chosen on the own recall set (test/bench/recall/data, its paraphrase
// questions) against the off-topic prompts below; the paraphrase set is shown beside it, not used.
//   npm run build && node test/bench/recall/meaning-floor.mjs [static|builtin]
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {loadMeaningModel} from '../../../dist/src/engines/meaning/load.js'

const HERE = import.meta.dirname
const setting = process.argv[2] ?? 'static'

// Questions no developer note of the sets is about: general questions an agent gets (the hooks
// bench's list), the issue's two, and noise.
export const OFF_TOPIC = [
  'how do I bake bread',
  'what is the capital of Peru',
  'What is the capital of Australia?',
  'Translate this paragraph into French',
  'Summarize the plot of Hamlet',
  'Draft a polite email declining a meeting',
  'Convert 100 Fahrenheit to Celsius',
  'Why is the sky blue?',
  'who won the football world cup in 1998',
  'recommend a good novel for the summer holidays',
  'how many legs does a spider have',
  'what should I cook for dinner tonight',
  'zzzzqqqq xyzzy',
  'tell me a joke about cats',
  'how tall is mount everest',
  'what time is sunset in Lisbon',
]

// a table file (a variant the distil script wrote with --out) is read directly
const loaded = setting.endsWith('.bin') ? {model: (await import('../../../dist/src/engines/meaning/static-table.js')).loadStaticTable(setting)} : await loadMeaningModel({model: setting}, null)
if (!loaded.model) throw new Error(`${setting}: ${loaded.error}`)
const model = loaded.model
const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0)
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]

async function analyse(dir) {
  const memories = JSON.parse(readFileSync(join(HERE, dir, 'memories.json'), 'utf8'))
  const questions = JSON.parse(readFileSync(join(HERE, dir, 'questions.json'), 'utf8')).filter((q) => q.kind === 'paraphrase')
  const vs = await model.embed(memories.map((m) => m.content))
  const byKey = new Map(memories.map((m, i) => [m.key, vs[i]]))
  const best = async (q) => {
    const [v] = await model.embed([q], {query: true})
    return v
  }
  const targets = []
  let top5 = 0
  for (const q of questions) {
    const v = await best(q.q)
    targets.push(Math.max(...q.relevant.map((k) => (byKey.has(k) ? dot(v, byKey.get(k)) : -1))))
    const ranked = memories.map((m, i) => [m.key, dot(v, vs[i])]).sort((a, b) => b[1] - a[1]).slice(0, 5)
    if (ranked.some(([k]) => q.relevant.includes(k))) top5++
  }
  const off = []
  for (const q of OFF_TOPIC) {
    const v = await best(q)
    off.push(Math.max(...vs.map((m) => dot(v, m))))
  }
  return {dir, memories: memories.length, targets, off, r5: top5 / questions.length}
}

console.log(`model ${model.id}`)
const results = [await analyse('data'), await analyse('paraphrase')]
for (const r of results) {
  console.log(`\n${r.dir}: ${r.memories} notes; ${r.targets.length} paraphrase questions (the model alone: recall@5 ${r.r5.toFixed(3)}), cosine with their note p25/p50/p75 ${[0.25, 0.5, 0.75].map((p) => pct(r.targets, p).toFixed(3)).join(' / ')}`)
  console.log(`${OFF_TOPIC.length} off-topic prompts, best cosine over the notes p50/max ${pct(r.off, 0.5).toFixed(3)} / ${Math.max(...r.off).toFixed(3)}: ${OFF_TOPIC.map((q, i) => `${q.slice(0, 18)} ${r.off[i].toFixed(2)}`).join('; ')}`)
  console.log('floor | paraphrase notes at or above | off-topic prompts with a note above')
  for (const f of [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7]) {
    console.log(`${f.toFixed(2)}  | ${(r.targets.filter((c) => c > f).length / r.targets.length).toFixed(3)}                        | ${r.off.filter((c) => c > f).length} / ${OFF_TOPIC.length}`)
  }
}
