// Meaning (issue 30): lexical-only, then model-alone and fused rows for USE-lite (meaning.model: builtin)
// and for the static table distilled from it (meaning.model: static), side by side, for the own recall set
// (test/bench/recall/data), the paraphrase sets (test/bench/recall/paraphrase to paraphrase11, each written by a colleague
// before any tuning) and the LoCoMo dev split — recall@5, recall@10, MRR@10, overall and by kind —
// then what meaning costs a cold command: `mem recall` at 10k memories against `node -e 0`, the
// prompt hook and the session-start hook.
// Each model ranks its own stores of the same memories, every vector made once:
// - lexical only: recall with meaning off (searchMemories without a vector);
// - model alone: the ten nearest memories by cosine;
// - fused: what recall does with meaning on (engines/meaning/fuse.ts: words answer when a memory
//   holds every word of the question, else the fusion of search/engine.ts, with the model's floor
//   for a hit by meaning alone, MeaningModel.onlyFloor).
// MEM_BENCH_MEANING_GRID=1 adds the fusion settings tried while tuning (slow); MEM_BENCH_MEANING_COST=0
// skips the cost rows.
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {openMem} from '../../../dist/src/runtime/open-mem.js'
import {store} from '../../../dist/src/operations/store.js'
import {searchMemories, DEFAULT_FUSION} from '../../../dist/src/engines/search/engine.js'
import {queryEmbedding, wordsAnswer} from '../../../dist/src/engines/meaning/fuse.js'
import {embedPending} from '../../../dist/src/engines/meaning/pending.js'
import {planMeaningLinks} from '../../../dist/src/engines/gates/admit.js'
import {meaningModel} from '../../../dist/src/engines/meaning/use.js'
import {liveVectors} from '../../../dist/src/storage/vectors.js'
import {recallFieldsBySeq} from '../../../dist/src/storage/memories.js'
import {fmt, tempRepo} from '../lib/util.mjs'
import {scoreRanked, storeEvalSet} from '../lib/corpus.mjs'
import {CATEGORIES, loadLocomo} from './locomo.mjs'

const HERE = import.meta.dirname

// MEM_BENCH_MEANING_CACHE=file keeps the model's vectors between runs (for tuning: the figures are the same)
const CACHE = process.env.MEM_BENCH_MEANING_CACHE
const cache = new Map(CACHE && existsSync(CACHE) ? Object.entries(JSON.parse(readFileSync(CACHE, 'utf8'))) : [])
function cached(model) {
  if (!CACHE || model.cached) return model
  const embed = model.embed.bind(model)
  model.embed = async (texts, options) => {
    const missing = [...new Set(texts.filter((t) => !cache.has(t)))]
    if (missing.length > 0) {
      const vs = await embed(missing, options)
      missing.forEach((t, i) => cache.set(t, Buffer.from(vs[i].buffer, vs[i].byteOffset, vs[i].byteLength).toString('base64')))
    }
    return texts.map((t) => {
      const b = Buffer.from(cache.get(t), 'base64')
      return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength))
    })
  }
  model.cached = true
  return model
}
const saveCache = () => CACHE && writeFileSync(CACHE, JSON.stringify(Object.fromEntries(cache)))

function loadSet(dir) {
  const m = join(HERE, dir, 'memories.json')
  const q = join(HERE, dir, 'questions.json')
  if (!existsSync(m) || !existsSync(q)) return null
  return {memories: JSON.parse(readFileSync(m, 'utf8')), questions: JSON.parse(readFileSync(q, 'utf8'))}
}

/** A store of the set's memories with every vector made, and rankers over it. */
async function prepared(name, put, setting) {
  const {root, home} = tempRepo(`meaning-${name}-${setting}`)
  let t = Date.parse('2026-01-01T00:00:00Z')
  const clock = {set: (at) => (t = at), now: () => new Date(t)}
  const ctx = openMem({home, cwd: root, now: clock.now, longLived: true, meaning: {model: setting}})
  const keyOf = await put(ctx, root, clock)
  const model = await meaningModel(ctx)
  if (!model) throw new Error(`the ${setting} model did not load`)
  if (setting === 'builtin') cached(model)
  const handle = await ctx.repo(root, 'read')
  const t0 = performance.now()
  let drained
  do drained = await embedPending(ctx, handle.store, model, {limit: 100_000, link: planMeaningLinks})
  while (drained.left > 0 && drained.embedded > 0)
  const embedMs = performance.now() - t0
  const now = new Date(t)
  const vectors = new Map()
  const queryVector = async (q) => {
    if (!vectors.has(q)) vectors.set(q, queryEmbedding(model, (await model.embed([q], {query: true}))[0]))
    return vectors.get(q)
  }
  const keys = (hits) => hits.map((h) => keyOf.get(h.memory.id))
  const search = (q, extra = {}) => handle.store.read((db) => searchMemories(db, q, {limit: 10, now, index: 'memory', version: handle.store.version, ...extra}))
  const {seqs, matrix} = handle.store.read((db) => liveVectors(db, model.id, model.dims))
  const idBySeq = handle.store.read((db) => new Map([...recallFieldsBySeq(db, seqs)].map(([seq, m]) => [seq, m.id])))
  return {
    count: keyOf.size,
    embedMs,
    close: () => ctx.close(),
    lexical: (q) => keys(search(q)),
    alone: async (q) => {
      const v = (await queryVector(q)).vector
      const scored = seqs.map((seq, r) => {
        let dot = 0
        for (let i = 0; i < v.length; i++) dot += matrix[r * v.length + i] * v[i]
        return [seq, dot]
      })
      return scored.sort((a, b) => b[1] - a[1]).slice(0, 10).map(([seq]) => keyOf.get(idBySeq.get(seq)))
    },
    fused: async (q, {fusion, gate = true, onlyFloor, enough} = {}) => {
      const words = search(q)
      if (gate && wordsAnswer(q, words, enough)) return keys(words)
      const embedding = await queryVector(q)
      return keys(search(q, {embedding: onlyFloor === undefined ? embedding : {...embedding, onlyFloor}, ...(fusion ? {fusion} : {})}))
    },
  }
}

async function ownLike(name, set, setting) {
  return prepared(name, async (ctx, root, clock) => (await storeEvalSet(store, ctx, root, set.memories, clock)).keyOf, setting)
}

async function locomoStores(convs, setting) {
  const out = []
  for (const conv of convs) {
    out.push(
      await prepared(`locomo-${conv.name}`, async (ctx, root, clock) => {
        let t = Date.parse('2026-01-01T00:00:00Z')
        const keyOf = new Map()
        for (const turn of conv.turns) {
          t += 60_000
          clock.set(t)
          const r = await store(ctx, {repo: root, content: turn.content, type: 'observation', tags: [turn.dia]})
          if (r.success) keyOf.set(r.id, turn.dia)
        }
        return keyOf
      }, setting),
    )
  }
  return out
}

const row = (name, r, groups) =>
  `${name.padEnd(30).slice(0, 30)} | ${fmt(r.all.r5, 3)}    | ${fmt(r.all.r10, 3)}     | ${fmt(r.all.mrr, 3)}  | ${groups.map((g) => (r[g]?.n ? `${fmt(r[g].r5, 3)}/${fmt(r[g].mrr, 3)}` : '—')).join('  ')}`

/** Scores each ranker over a set's questions; `rankers` maps a row name to (question, i) => keys. */
async function scoreSet(title, questions, rankers, {relevant, groupOf, groups, groupNames = groups}) {
  console.log(`\n-- ${title}: ${questions.length} questions --`)
  console.log(`ranker                         | recall@5 | recall@10 | MRR@10 | recall@5/MRR@10 by kind (${groupNames.join(' / ')})`)
  const results = {}
  for (const [name, rank] of Object.entries(rankers)) {
    const ranked = []
    for (const [i, q] of questions.entries()) ranked.push(await rank(q, i))
    results[name] = scoreRanked(questions, ranked, {relevant, groupOf, groups})
    console.log(row(name, results[name], groups))
  }
  return results
}

/** `by`: the stores of each model ({builtin, static}); the lexical row is the same in either. */
function rankersFor(by, pick, grid) {
  // MEM_BENCH_MEANING_GRID_MODEL=builtin: the grid's rows are USE-lite's (else the static table's)
  const stores = process.env.MEM_BENCH_MEANING_GRID_MODEL === 'builtin' ? by.builtin : by.static
  const out = {
    'lexical only': (q, i) => pick(by.static, q, i).lexical(q.q),
    'USE-lite alone': (q, i) => pick(by.builtin, q, i).alone(q.q),
    'USE-lite fused': (q, i) => pick(by.builtin, q, i).fused(q.q),
    'static table alone': (q, i) => pick(by.static, q, i).alone(q.q),
    'static fused': (q, i) => pick(by.static, q, i).fused(q.q),
  }
  if (grid) {
    out['  fused, no words gate'] = (q, i) => pick(stores, q, i).fused(q.q, {gate: false})
    for (const meaningWeight of [0.3, 0.4, 0.6, 0.7])
      out[`  weight ${meaningWeight}`] = (q, i) => pick(stores, q, i).fused(q.q, {fusion: {meaningWeight}})
    for (const meaningFloor of [0.1, 0.3])
      out[`  floor ${meaningFloor}`] = (q, i) => pick(stores, q, i).fused(q.q, {fusion: {meaningFloor}})
    for (const wordCoverPower of [1, 2])
      out[`  cover power ${wordCoverPower}`] = (q, i) => pick(stores, q, i).fused(q.q, {fusion: {wordCoverPower}})
    for (const meaningWeight of [0.5, 0.7, 0.9, 1])
      out[`  adaptive, weight ${meaningWeight}`] = (q, i) => pick(stores, q, i).fused(q.q, {fusion: {adaptive: true, meaningWeight}})
    for (const meaningFloor of [0.1, 0.3])
      out[`  adaptive 0.9, floor ${meaningFloor}`] = (q, i) => pick(stores, q, i).fused(q.q, {fusion: {adaptive: true, meaningWeight: 0.9, meaningFloor}})
    for (const onlyFloor of [0.3, 0.4, 0.5, 0.55, 0.6])
      out[`  meaning-alone floor ${onlyFloor}`] = (q, i) => pick(stores, q, i).fused(q.q, {onlyFloor})
    for (const enough of [0.5, 0.6, 0.75, 0.8])
      out[`  words answer from a cover of ${enough}`] = (q, i) => pick(stores, q, i).fused(q.q, {enough})
    for (const neighbors of [10, 40])
      out[`  adaptive 0.9, ${neighbors} neighbours`] = (q, i) => pick(stores, q, i).fused(q.q, {fusion: {adaptive: true, meaningWeight: 0.9, neighbors}})
  }
  return out
}

export async function benchMeaning() {
  const grid = process.env.MEM_BENCH_MEANING_GRID === '1'
  console.log(`\n== Meaning: lexical only / model alone / fused (USE-lite and the static table; fusion ${JSON.stringify(DEFAULT_FUSION)}) ==`)
  const own = loadSet('data')
  const para = loadSet('paraphrase')
  // a second paraphrase set, written blind by another helper on 2026-11-27 to check the thesaurus groups added then
  const para2 = loadSet('paraphrase2')
  // a third, from the rules of 11 public projects' agent-instruction files (reworded), written blind on 2026-11-27
  const para3 = loadSet('paraphrase3')
  // and a fourth of the same kind, from 10 other repositories, written blind the same afternoon
  const para4 = loadSet('paraphrase4')
  // and a fifth from 10 more repositories, written blind at the end of that afternoon
  const para5 = loadSet('paraphrase5')
  // and a sixth from 11 more, written blind after all the day's changes to update detection
  const para6 = loadSet('paraphrase6')
  // and a seventh from 11 more, written blind while recall learned the roles' words (the check of that change)
  const para7 = loadSet('paraphrase7')
  // and an eighth from 11 more, written blind on 2026-11-27 evening, while update detection changed (recall did not)
  const para8 = loadSet('paraphrase8')
  // and a ninth from 11 more, written blind on 2026-11-27 late (its author saw two entries of set 8's file for its layout), measured before the guards of that night
  const para9 = loadSet('paraphrase9')
  // and a tenth from 11 more, written blind on 2026-11-28 afternoon to check that day's thesaurus groups
  const para10 = loadSet('paraphrase10')
  // and an eleventh from 11 more (AGENTS.md of Go, Python, TypeScript and Rust projects), written blind on 2026-11-28 to check that day's rule changes
  const para11 = loadSet('paraphrase11')
  const sets = [
    ['own recall set', own, 'own'],
    ['paraphrase set', para, 'para'],
    ['paraphrase set 2 (written blind)', para2, 'para2'],
    ['paraphrase set 3 (real projects\' rules, written blind)', para3, 'para3'],
    ['paraphrase set 4 (real projects\' rules, written blind)', para4, 'para4'],
    ['paraphrase set 5 (real projects\' rules, written blind)', para5, 'para5'],
    ['paraphrase set 6 (real projects\' rules, written blind)', para6, 'para6'],
    ['paraphrase set 7 (real projects\' rules, written blind)', para7, 'para7'],
    ['paraphrase set 8 (real projects\' rules, written blind)', para8, 'para8'],
    ['paraphrase set 9 (real projects\' rules, written blind)', para9, 'para9'],
    ['paraphrase set 10 (real projects\' rules, written blind)', para10, 'para10'],
    ['paraphrase set 11 (real projects\' rules, written blind)', para11, 'para11'],
  ]
  for (const [title, set, name] of sets) {
    if (!set) {
      console.log(`\n-- ${title}: NOT MEASURED (no data) --`)
      continue
    }
    const by = {builtin: [await ownLike(name, set, 'builtin')], static: [await ownLike(name, set, 'static')]}
    console.log(`(${title}: ${by.static[0].count} memories embedded in ${fmt(by.builtin[0].embedMs / 1000, 1)} s by USE-lite, ${fmt(by.static[0].embedMs / 1000, 2)} s by the static table)`)
    const kinds = [...new Set(set.questions.map((q) => q.kind))].sort()
    await scoreSet(title, set.questions, rankersFor(by, (st) => st[0], grid), {relevant: (q) => q.relevant, groupOf: (q) => q.kind, groups: kinds})
    for (const s of [...by.builtin, ...by.static]) await s.close()
    saveCache()
  }
  const convs = loadLocomo()
  if (!convs) console.log('\n-- LoCoMo dev split: NOT MEASURED (no data) --')
  else {
    const by = {builtin: await locomoStores(convs, 'builtin'), static: await locomoStores(convs, 'static')}
    const questions = convs.flatMap((c, ci) => c.questions.map((q) => ({...q, conv: ci})))
    await scoreSet('LoCoMo dev split', questions, rankersFor(by, (st, q) => st[q.conv], grid), {
      relevant: (q) => q.evidence,
      groupOf: (q) => q.category,
      groups: Object.keys(CATEGORIES),
      groupNames: Object.values(CATEGORIES),
    })
    for (const s of [...by.builtin, ...by.static]) await s.close()
  }
  saveCache()
  if (process.env.MEM_BENCH_MEANING_COST !== '0') await (await import('./meaning-cost.mjs')).benchMeaningCost()
}

if (import.meta.url === `file://${process.argv[1]}`) await benchMeaning()
