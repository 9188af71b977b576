// What each ranking feature is worth, on both sets in one run (issue 17): the project's own
// evaluation set (350 developer memories, 236 questions, written by the same hands that tuned the
// ranking) and the LoCoMo dev split (two public conversations nobody tuned the ranking on before).
// Every row is the default ranking with one feature turned off (or on), scored on both; a feature
// stays on only where it helps one set and does not hurt the other.
//
//   npm run build && node test/bench/recall/ablation.mjs [--only name,name]
import MiniSearch from 'minisearch'
import {stemmer} from 'stemmer'
import {openMem} from '../../../dist/src/runtime/open-mem.js'
import {store} from '../../../dist/src/operations/store.js'
import {searchMemories} from '../../../dist/src/engines/search/engine.js'
import {DEFAULT_BM25} from '../../../dist/src/engines/search/bm25.js'
import {STOP_WORDS} from '../../../dist/src/text/stopwords.js'
import {loadEvalSet, scoreRanked, storeEvalSet} from '../lib/corpus.mjs'
import {fmt, tempRepo} from '../lib/util.mjs'
import {CATEGORIES, loadLocomo, memLocomo, miniLocomo, scoreLocomo} from './locomo.mjs'

export const KINDS = ['lexical', 'paraphrase', 'code', 'typo']

/** recall@5/@10 and MRR@10 on the own set, overall and per kind. */
export function scoreOwn(questions, ranked) {
  return scoreRanked(questions, ranked, {relevant: (q) => q.relevant, groupOf: (q) => q.kind, groups: KINDS})
}

/** The own set in a store (one memory an hour, as the recall benchmark stores it). */
export async function ownSet() {
  const {memories, questions} = loadEvalSet()
  const {root, home} = tempRepo('ablation-own')
  let t = 0
  // words alone: this bench weighs the word ranking's parts (meaning.mjs has the rows with the model, the default)
  const ctx = openMem({home, cwd: root, now: () => new Date(t), longLived: true, meaning: {model: 'off'}})
  const {keyOf, now} = await storeEvalSet(store, ctx, root, memories, {set: (at) => (t = at)})
  const handle = await ctx.repo(root, 'read')
  const rank = (q, tuning) => handle.store.read((db) => searchMemories(db, q, {limit: 10, now, index: 'memory', tuning})).map((h) => keyOf.get(h.memory.id))
  const processTerm = (term) => {
    const t2 = term.toLowerCase()
    return STOP_WORDS.has(t2) ? null : stemmer(t2)
  }
  const mini = new MiniSearch({fields: ['content', 'tags'], idField: 'key', processTerm, extractField: (d, f) => (f === 'tags' ? d.tags.join(' ') : d[f])})
  mini.addAll(memories)
  return {questions, rank, baseline: scoreOwn(questions, questions.map((q) => mini.search(q.q).slice(0, 10).map((r) => r.id))), close: () => ctx.close()}
}

const b = (o) => ({bm25: {...DEFAULT_BM25, ...o}})

/** One row per feature: the default ranking without it (or with it, for features that are off). */
export const VARIANTS = [
  ['default', {}],
  ['− thesaurus', {synonymWeight: 0}],
  ['− typo correction', {typoCorrection: false}],
  ['  typo correction at any length (not ≤ 12 terms)', {typoMaxTerms: Number.POSITIVE_INFINITY}],
  ['  synonyms at any length (not ≤ 12 terms)', {synonymMaxTerms: Number.POSITIVE_INFINITY}],
  ['− common-term rule', {commonShare: 1}],
  ['− synonym spread (0)', {synonymSpread: 0}],
  ['+ concept max (best synonym)', {conceptMax: true}],
  ['− follower lift', {followerWeight: 0}],
  ['− question penalty', {questionPenalty: 1}],
  ['− when boost', {whenBoost: 1}],
  ['− whole identifiers', {wholeIdentifiers: false}],
  ['− field weights (1,1,1)', b({weights: [1, 1, 1]})],
  ['  tags ×1 (not 1.5)', b({weights: [1, 1, 0.5]})],
  ['  one-liner ×0 (not 0.5)', b({weights: [1, 1.5, 0]})],
  ['  k1 1.2 (not 0.9)', b({k1: 1.2})],
  ['  k1 0.7', b({k1: 0.7})],
  ['  b 0.5 (not 0.75)', b({b: 0.5})],
  ['  b 0.9', b({b: 0.9})],
  ['  BM25+ delta 0.5 (not 0)', b({delta: 0.5})],
  ['  BM25+ delta 1', b({delta: 1})],
  ['− blend (relevance only)', {blend: {relevance: 1, importance: 0, recency: 0, feedback: 0}}],
  ['+ feedback expansion (3 docs)', {prfDocs: 3}],
]

export async function ablation({variants = VARIANTS, only} = {}) {
  const own = await ownSet()
  const convs = loadLocomo()
  const mems = convs ? await memLocomo(convs) : []
  const locomoQuestions = convs ? convs.flatMap((c) => c.questions) : []
  const locomoBaseline = convs
    ? scoreLocomo(locomoQuestions, convs.flatMap((c) => {
        const rank = miniLocomo(c, {stemmed: true})
        return c.questions.map((q) => rank(q.q))
      }))
    : null
  const rows = []
  for (const [name, tuning] of variants) {
    if (only && !only.some((o) => name.includes(o))) continue
    const ownScore = scoreOwn(own.questions, own.questions.map((q) => own.rank(q.q, tuning)))
    let locomo = null
    if (convs) {
      const ranks = []
      for (const m of mems) for (const q of m.conv.questions) ranks.push(m.rankWith(q.q, tuning))
      locomo = scoreLocomo(locomoQuestions, ranks)
    }
    rows.push({name, own: ownScore, locomo})
  }
  await own.close()
  for (const m of mems) await m.ctx.close()
  print(rows, own.baseline, locomoBaseline)
  return {rows, ownBaseline: own.baseline, locomoBaseline}
}

function print(rows, ownBase, locoBase) {
  console.log('\n== ranking ablation (issue 17): each feature on both sets, recall@5 / MRR@10 ==')
  console.log(`${'variant'.padEnd(32)} | own r5  MRR   | LoCoMo r5  MRR   | own r5 by kind (${KINDS.join(' / ')}) | LoCoMo r5 by category (${Object.values(CATEGORIES).join(' / ')})`)
  const line = (name, o, l) =>
    `${name.padEnd(32).slice(0, 32)} | ${fmt(o.all.r5, 3)}  ${fmt(o.all.mrr, 3)} | ${l ? `${fmt(l.all.r5, 3)}      ${fmt(l.all.mrr, 3)}` : 'n/a            '} | ${KINDS.map((k) => fmt(o[k].r5, 3)).join(' / ')} | ${l ? Object.keys(CATEGORIES).map((c) => fmt(l[c].r5, 3)).join(' / ') : ''}`
  console.log(line('stemmed BM25 (minisearch)', ownBase, locoBase))
  for (const r of rows) console.log(line(r.name, r.own, r.locomo))
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--only')
  await ablation({only: at > 0 ? process.argv[at + 1].split(',') : undefined})
}
