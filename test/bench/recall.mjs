// Recall benchmark (issue 3): quality on the project's evaluation set (recall@5, recall@10, MRR)
// for mem's recall beside a fuse.js-only baseline and a plain stemmed BM25 baseline (minisearch),
// then query latency at 10k and 100k memories, context time, and `mem recall` cold start.
import Fuse from 'fuse.js'
import MiniSearch from 'minisearch'
import {stemmer} from 'stemmer'
import {openMem} from '../../dist/src/runtime/open-mem.js'
import {store} from '../../dist/src/operations/store.js'
import {recall} from '../../dist/src/operations/recall.js'
import {searchMemories} from '../../dist/src/engines/search/engine.js'
import {embedder, embedMissing, queryVector} from '../../dist/src/engines/enrichment/embed-memories.js'
import {context} from '../../dist/src/operations/session-context.js'
import {STOP_WORDS} from '../../dist/src/text/stopwords.js'
import {loadEvalSet, storeEvalSet} from './lib/corpus.mjs'
import {seedRepo} from './lib/seed.mjs'
import {KINDS, scoreOwn} from './recall/ablation.mjs'
import {BIN, fmt, median, percentile, tempRepo, wallTimesSideBySide} from './lib/util.mjs'

/** recall@5/@10 and MRR@10 of a ranker over the questions (the ablation's scorer, one definition). */
function score(questions, rankFn) {
  return scoreOwn(questions, questions.map((q) => rankFn(q.q)))
}

export async function benchRecallQuality() {
  const {memories, questions} = loadEvalSet()
  const {root, home} = tempRepo('recall-eval')
  let t = 0
  // words alone: the word ranking (meaning.mjs has the rows with the model, the default)
  const ctx = openMem({home, cwd: root, now: () => new Date(t), meaning: {model: 'off'}})
  const {keyOf} = await storeEvalSet(store, ctx, root, memories, {set: (at) => (t = at)})
  const results = {}
  const memRank = []
  for (const q of questions) {
    memRank.push((await recall(ctx, {repo: root, q: q.q, limit: 10})).results.map((r) => keyOf.get(r.id)))
  }
  let i = 0
  results.mem = score(questions, () => memRank[i++])
  // Held-out check: the tuning was chosen on the whole set; report both halves.
  const half = (parity) => {
    const idx = questions.map((_, n) => n).filter((n) => n % 2 === parity)
    let j = 0
    return score(idx.map((n) => questions[n]), () => memRank[idx[j++]])
  }
  results['mem, even questions'] = half(0)
  results['mem, odd questions'] = half(1)
  // Ablations: what each retrieval step is worth on this set.
  const handle = await ctx.repo(root, 'write')
  const now = new Date(t)
  const ablate = (tuning) =>
    score(questions, (q) => handle.store.read((db) => searchMemories(db, q, {limit: 10, now, tuning})).map((h) => keyOf.get(h.memory.id)))
  results['  without thesaurus'] = ablate({synonymWeight: 0})
  results['  without typo correction'] = ablate({typoCorrection: false})
  results['  with feedback expansion'] = ablate({prfDocs: 3})
  // Embeddings as a second signal: measured only against a real runtime named in the environment.
  const embedding = await measureEmbeddings({home, root, now, questions, keyOf})
  if (embedding.results) results['mem + embeddings'] = embedding.results

  const fuseDefault = new Fuse(memories, {keys: ['content', 'tags']})
  results['fuse.js only (defaults)'] = score(questions, (q) => fuseDefault.search(q, {limit: 10}).map((r) => r.item.key))
  const fuse = new Fuse(memories, {keys: ['content', 'tags'], ignoreLocation: true, threshold: 0.6})
  results['fuse.js only (tuned)'] = score(questions, (q) => fuse.search(q, {limit: 10}).map((r) => r.item.key))

  const processTerm = (term) => {
    const t2 = term.toLowerCase()
    return STOP_WORDS.has(t2) ? null : stemmer(t2)
  }
  const mini = new MiniSearch({fields: ['content', 'tags'], idField: 'key', processTerm, extractField: (d, f) => (f === 'tags' ? d.tags.join(' ') : d[f])})
  mini.addAll(memories)
  results['BM25 stemmed (minisearch)'] = score(questions, (q) => mini.search(q).slice(0, 10).map((r) => r.id))
  await ctx.close()

  console.log(`\n== recall quality (issue 3): ${memories.length} memories, ${questions.length} questions ==`)
  console.log('ranker                      | recall@5 | recall@10 | MRR   | recall@5 by kind (lexical / paraphrase / code / typo)')
  for (const [name, r] of Object.entries(results)) {
    console.log(
      `${name.padEnd(27).slice(0, 27)} | ${fmt(r.all.r5, 3)}    | ${fmt(r.all.r10, 3)}     | ${fmt(r.all.mrr, 3)} | ${KINDS.map((k) => fmt(r[k].r5, 3)).join(' / ')}`,
    )
  }
  console.log(`with embeddings: ${embedding.note}`)
  return results
}

/**
 * Recall quality with embeddings (enrichment.embeddings) through the runtime named by
 * MEM_BENCH_EMBED_URL, MEM_BENCH_EMBED_MODEL and MEM_BENCH_EMBED_PROVIDER (ollama | openai, default
 * ollama). Without them, or when the runtime fails, nothing is measured and the note says why.
 */
async function measureEmbeddings({home, root, now, questions, keyOf}) {
  const url = process.env.MEM_BENCH_EMBED_URL
  const model = process.env.MEM_BENCH_EMBED_MODEL
  const provider = process.env.MEM_BENCH_EMBED_PROVIDER ?? 'ollama'
  if (!url || !model) {
    return {note: 'NOT MEASURED: no embedding runtime on this machine (set MEM_BENCH_EMBED_URL, MEM_BENCH_EMBED_MODEL and MEM_BENCH_EMBED_PROVIDER=ollama|openai to measure the mem + embeddings row)'}
  }
  if (provider !== 'ollama' && provider !== 'openai') return {note: `NOT MEASURED: MEM_BENCH_EMBED_PROVIDER must be ollama or openai, not ${provider}`}
  const timeoutMs = Number(process.env.MEM_BENCH_EMBED_TIMEOUT_MS ?? 30_000)
  const ctx = openMem({
    home,
    cwd: root,
    now: () => now,
    enrichment: {provider, url, model: 'unused', timeoutMs, embeddings: {model, dims: null, timeoutMs}},
  })
  try {
    const handle = await ctx.repo(root, 'write')
    const t0 = performance.now()
    const run = await embedMissing(ctx, handle, await embedder(ctx))
    const embedMs = performance.now() - t0
    if (run.error) return {note: `NOT MEASURED: embedding the memories through ${provider} ${model} at ${url} failed: ${run.error}`}
    let embedded = 0
    const ranks = []
    for (const q of questions) {
      const embedding = await queryVector(ctx, q.q)
      if (embedding) embedded++
      ranks.push(handle.store.read((db) => searchMemories(db, q.q, {limit: 10, now, ...(embedding ? {embedding} : {})})).map((h) => keyOf.get(h.memory.id)))
    }
    let i = 0
    const results = score(questions, () => ranks[i++])
    return {
      results,
      note: `measured through ${provider} ${model} at ${url}: ${run.embedded} memories embedded in ${fmt(embedMs, 0)} ms, ${embedded} of ${questions.length} queries embedded in time (the others ranked text-only)`,
    }
  } finally {
    await ctx.close()
  }
}

export async function benchRecallLatency(sizes = [10_000, 100_000]) {
  const {questions} = loadEvalSet()
  const rows = []
  for (const size of sizes) {
    const {root, home} = tempRepo(`recall-${size}`)
    await seedRepo(root, size)
    // longLived: the in-process index a server keeps (built once, then followed incrementally)
    // words alone (a recall that asks the model adds its question's embedding: meaning.mjs, meaning-cost.mjs)
    const ctx = openMem({home, cwd: root, longLived: true, meaning: {model: 'off'}})
    let t0 = performance.now()
    await recall(ctx, {repo: root, q: 'warm up'})
    const buildMs = performance.now() - t0
    for (const q of questions.slice(0, 20)) await recall(ctx, {repo: root, q: q.q})
    const times = []
    for (let round = 0; round < 3; round++) {
      for (const q of questions) {
        const t = performance.now()
        await recall(ctx, {repo: root, q: q.q, limit: 10})
        times.push(performance.now() - t)
      }
    }
    // the on-disk FTS4 path a one-shot CLI command uses
    const disk = openMem({home, cwd: root, meaning: {model: 'off'}})
    for (const q of questions.slice(0, 10)) await recall(disk, {repo: root, q: q.q})
    const diskTimes = []
    for (const q of questions) {
      const t = performance.now()
      await recall(disk, {repo: root, q: q.q, limit: 10})
      diskTimes.push(performance.now() - t)
    }
    await disk.close()
    const ctxTimes = []
    for (let i = 0; i < 12; i++) {
      const t = performance.now()
      await context(ctx, {repo: root})
      if (i >= 2) ctxTimes.push(performance.now() - t)
    }
    await ctx.close()
    const env = {MEM_HOME: home}
    const [nodeMs, coldMs] = wallTimesSideBySide([{args: ['-e', '0']}, {args: [BIN, 'recall', 'how do I run the integration tests?', '--json'], env, cwd: root}])
    rows.push({size, buildMs, p50: median(times), p95: percentile(times, 95), d50: median(diskTimes), d95: percentile(diskTimes, 95), ctx: median(ctxTimes), nodeMs, coldMs})
  }
  console.log('\n== recall latency (issue 3), in process, warm ==')
  console.log('memories | index build | recall p50 / p95 (in-process index) | recall p50 / p95 (on-disk FTS4) | context (median) | node -e 0 | mem recall cold')
  for (const r of rows) {
    console.log(
      `${String(r.size).padStart(8)} | ${fmt(r.buildMs, 0)} ms | ${fmt(r.p50, 2)} / ${fmt(r.p95, 2)} ms | ${fmt(r.d50, 1)} / ${fmt(r.d95, 1)} ms | ${fmt(r.ctx, 1)} ms | ${fmt(r.nodeMs, 0)} ms | ${fmt(r.coldMs, 0)} ms (${fmt(r.coldMs / r.nodeMs)}×)`,
    )
  }
  return rows
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const what = process.argv[2] ?? 'all'
  if (what === 'all' || what === 'quality') await benchRecallQuality()
  if (what === 'all' || what === 'latency') await benchRecallLatency(process.argv[3] ? process.argv[3].split(',').map(Number) : undefined)
}
