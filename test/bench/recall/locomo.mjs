// The LoCoMo development split (../shared/data/locomo-dev, two of the ten conversations of the
// public LoCoMo benchmark) by its README's protocol: every turn stored as one observation
// "<speaker>: <text>" tagged with its dia_id, one fresh repo per conversation; every question of
// categories 1–4, as asked, recalled with limit 10. recall@k = share of a question's evidence turns
// in the top k; MRR@10 = 1 / rank of the first evidence turn. Rankers in the same run: mem, and
// minisearch with default options and with English stop words + a Porter stemmer (the baselines
// of the split's README). Do not tune on, or fetch, the other eight conversations.
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import MiniSearch from 'minisearch'
import {stemmer} from 'stemmer'
import {openMem} from '../../../dist/src/runtime/open-mem.js'
import {store} from '../../../dist/src/operations/store.js'
import {recall} from '../../../dist/src/operations/recall.js'
import {searchMemories} from '../../../dist/src/engines/search/engine.js'
import {STOP_WORDS} from '../../../dist/src/text/stopwords.js'
import {fmt, tempRepo} from '../lib/util.mjs'
import {scoreRanked} from '../lib/corpus.mjs'

export const LOCOMO_DIR = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'data', 'locomo-dev')
export const CATEGORIES = {1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop'}

/** The conversations of the split: turns and the questions of categories 1–4 with clean evidence ids. */
export function loadLocomo(dir = LOCOMO_DIR) {
  const out = []
  for (const file of ['26.json', '30.json']) {
    const path = join(dir, file)
    if (!existsSync(path)) return null
    const doc = JSON.parse(readFileSync(path, 'utf8'))
    const turns = []
    for (const [key, value] of Object.entries(doc)) {
      if (!/^session_\d+$/.test(key) || !Array.isArray(value)) continue
      for (const turn of value) turns.push({dia: turn.dia_id, content: `${turn.speaker}: ${turn.text}`})
    }
    const ids = new Set(turns.map((t) => t.dia))
    const questions = []
    for (const qa of doc.qa) {
      if (![1, 2, 3, 4].includes(qa.category)) continue
      // README: split on ";", drop the stray colon, strip leading zeros; drop ids that name no turn
      const evidence = (qa.evidence ?? [])
        .flatMap((e) => String(e).split(';'))
        .map((e) => e.trim().replace(/^D:/, 'D').replace(/^D(\d+):0*(\d+)$/, 'D$1:$2'))
        .filter((e) => ids.has(e))
      if (evidence.length === 0) continue
      questions.push({q: qa.question, category: qa.category, evidence})
    }
    out.push({name: file.replace('.json', ''), turns, questions})
  }
  return out
}

/** recall@5, recall@10, MRR@10, overall and per category, of ranked dia-id lists. */
export function scoreLocomo(questions, ranked) {
  return scoreRanked(questions, ranked, {relevant: (q) => q.evidence, groupOf: (q) => q.category, groups: Object.keys(CATEGORIES)})
}

/**
 * Stores each conversation in its own repo and returns, per conversation, a `rank(q, tuning?)`
 * that answers like GET /api/mem/recall (limit 10) and a handle for ablations.
 */
export async function memLocomo(convs) {
  const out = []
  for (const conv of convs) {
    const {root, home} = tempRepo(`locomo-${conv.name}`)
    let t = Date.parse('2026-01-01T00:00:00Z')
    const now = () => new Date(t)
    // words alone (meaning.mjs has the LoCoMo rows with the model, the default)
    const ctx = openMem({home, cwd: root, now, longLived: true, meaning: {model: 'off'}})
    const diaOf = new Map()
    let duplicates = 0
    for (const turn of conv.turns) {
      t += 60_000
      const r = await store(ctx, {repo: root, content: turn.content, type: 'observation', tags: [turn.dia]})
      if (r.success) diaOf.set(r.id, turn.dia)
      else if (r.duplicateId) duplicates++
    }
    const handle = await ctx.repo(root, 'read')
    out.push({
      conv,
      ctx,
      duplicates,
      diaOf,
      rank: async (q) => (await recall(ctx, {repo: root, q, limit: 10})).results.map((r) => diaOf.get(r.id)),
      rankWith: (q, tuning) => handle.store.read((db) => searchMemories(db, q, {limit: 10, now: now(), index: 'memory', tuning})).map((h) => diaOf.get(h.memory.id)),
    })
  }
  return out
}

export function miniLocomo(conv, {stemmed}) {
  const options = {fields: ['content'], idField: 'dia', storeFields: []}
  if (stemmed) {
    options.processTerm = (term) => {
      const t = term.toLowerCase()
      return STOP_WORDS.has(t) ? null : stemmer(t)
    }
  }
  const mini = new MiniSearch(options)
  mini.addAll(conv.turns)
  return (q) => mini.search(q).slice(0, 10).map((r) => r.id)
}

function row(name, r) {
  const cats = Object.keys(CATEGORIES).map((c) => `${fmt(r[c].r5, 3)}`).join(' / ')
  return `${name.padEnd(34).slice(0, 34)} | ${fmt(r.all.r5, 3)}    | ${fmt(r.all.r10, 3)}     | ${fmt(r.all.mrr, 3)}  | ${cats}`
}

/** The benchmark: mem and both minisearch baselines, per category; ablations of mem's features when asked. */
export async function benchLocomo({ablations = [], quiet = false} = {}) {
  const convs = loadLocomo()
  if (!convs) {
    console.log(`\n== LoCoMo dev split: NOT MEASURED (no data at ${LOCOMO_DIR}) ==`)
    return null
  }
  const questions = convs.flatMap((c) => c.questions)
  const mems = await memLocomo(convs)
  const results = {}
  const memRanks = []
  for (const m of mems) for (const q of m.conv.questions) memRanks.push(await m.rank(q.q))
  results.mem = scoreLocomo(questions, memRanks)
  results['minisearch defaults'] = scoreLocomo(questions, convs.flatMap((c) => c.questions.map((q) => miniLocomo(c, {stemmed: false})(q.q))))
  results['minisearch + stop words + Porter'] = scoreLocomo(questions, convs.flatMap((c) => {
    const rank = miniLocomo(c, {stemmed: true})
    return c.questions.map((q) => rank(q.q))
  }))
  for (const [name, tuning] of ablations) {
    const ranks = []
    for (const m of mems) for (const q of m.conv.questions) ranks.push(m.rankWith(q.q, tuning))
    results[name] = scoreLocomo(questions, ranks)
  }
  for (const m of mems) await m.ctx.close()
  if (!quiet) {
    const dups = mems.map((m) => `${m.conv.name}: ${m.conv.turns.length} turns, ${m.duplicates} answered duplicate`).join('; ')
    console.log(`\n== LoCoMo dev split: ${convs.length} conversations, ${questions.length} questions (categories 1–4); ${dups} ==`)
    console.log(`ranker                             | recall@5 | recall@10 | MRR@10 | recall@5 by category (${Object.values(CATEGORIES).join(' / ')})`)
    for (const [name, r] of Object.entries(results)) console.log(row(name, r))
  }
  return results
}

if (import.meta.url === `file://${process.argv[1]}`) await benchLocomo()
