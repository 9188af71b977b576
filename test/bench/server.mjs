// Server load benchmark (issue 4): the built `mem serve` in its own process on loopback, over a
// 10k-memory repo, driven by autocannon from this process. Recall requests/s and latency
// percentiles; durable stores/s with 4 concurrent clients, then every acknowledged store is
// looked up in the store files after the server has stopped. Prints figures; asserts nothing.
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import autocannon from 'autocannon'
import {openMem} from '../../dist/src/runtime/open-mem.js'
import {get} from '../../dist/src/operations/get.js'
import {loadEvalSet, syntheticMemories} from './lib/corpus.mjs'
import {seedRepo, seedVectors} from './lib/seed.mjs'
import {fmt, percentile, startServe, tempRepo} from './lib/util.mjs'


/** Runs autocannon and collects every response time (autocannon's own table has no p95). */
function load(options) {
  return new Promise((resolve, reject) => {
    const times = []
    const instance = autocannon(options, (err, result) => (err ? reject(err) : resolve({result, times})))
    instance.on('response', (_client, _status, _bytes, ms) => times.push(ms))
  })
}

function errorsOf(result) {
  return result.errors + result.timeouts + result.non2xx
}

export async function benchServer({size = 10_000, seconds = 10} = {}) {
  // meaning is on (the built-in model, the default); MEM_BENCH_VECTORS=1 gives every memory its
  // vector first (random, under the model's id), as a store holds them once the drain has run.
  // Without, the server embeds the 10,000 memories in the background while it answers (an upgrade).
  const vectors = process.env.MEM_BENCH_VECTORS === '1'
  console.log(`\n== server: mem serve on loopback, ${size.toLocaleString('en-US')}-memory repo (${vectors ? 'every memory with its vector' : 'no vectors yet: the drain embeds them meanwhile'}), autocannon ==`)
  const {root, home} = tempRepo('server')
  mkdirSync(home, {recursive: true})
  writeFileSync(join(home, 'config.yaml'), 'update:\n  check: false\n')
  await seedRepo(root, size)
  if (vectors) await seedVectors(root, home)

  const server = startServe(home, root)
  const {api} = await server.started
  const repo = encodeURIComponent(root)
  const questions = loadEvalSet().questions.map((q) => q.q)
  let n = 0
  const recallRequest = () => `/api/mem/recall?repo=${repo}&q=${encodeURIComponent(questions[n++ % questions.length])}`

  // warm-up: JIT, the in-process index, the tokenizer
  await load({url: api, connections: 4, amount: 2_000, requests: [{method: 'GET', setupRequest: (req) => ({...req, path: recallRequest()})}]})

  // the HTTP floor: a cheap core read (counts from the index) through the same stack
  const floor = await load({url: api, connections: 10, duration: Math.max(3, seconds / 2), requests: [{method: 'GET', path: `/api/mem/stats?repo=${repo}`}]})
  console.log(
    `stats       ${fmt(floor.result.requests.average, 0)} req/s (10 connections; the server's own cost per request)  latency p50 ${fmt(percentile(floor.times, 50))} ms, ` +
      `p95 ${fmt(percentile(floor.times, 95))} ms  errors ${errorsOf(floor.result)}`,
  )

  // one client at a time: the latency of a recall without queueing behind others
  const single = await load({
    url: api,
    connections: 1,
    duration: Math.max(3, seconds / 2),
    requests: [{method: 'GET', setupRequest: (req) => ({...req, path: recallRequest()})}],
  })
  console.log(
    `recall x1   ${fmt(single.result.requests.average, 0)} req/s (1 connection)  latency p50 ${fmt(percentile(single.times, 50))} ms, ` +
      `p95 ${fmt(percentile(single.times, 95))} ms, p99 ${fmt(percentile(single.times, 99))} ms  errors ${errorsOf(single.result)}`,
  )

  const recall = await load({
    url: api,
    connections: 10,
    duration: seconds,
    requests: [{method: 'GET', setupRequest: (req) => ({...req, path: recallRequest()})}],
  })
  const r = recall.result
  console.log(
    `recall x10  ${fmt(r.requests.average, 0)} req/s (10 connections, ${seconds} s, ${r.requests.total.toLocaleString('en-US')} requests, ` +
      `${questions.length} distinct questions)  latency p50 ${fmt(percentile(recall.times, 50))} ms, p95 ${fmt(percentile(recall.times, 95))} ms, ` +
      `p99 ${fmt(percentile(recall.times, 99))} ms  errors ${errorsOf(r)}`,
  )

  // durable stores: each 201 is acknowledged only after its journal record is fsync'd. The texts
  // are synthetic developer memories (another seed than the repo's), so the duplicate gate does
  // the work it does on real input.
  const texts = syntheticMemories(100_000, 4242)
  let serial = 0
  const acknowledged = []
  let duplicates = 0
  const stores = await load({
    url: api,
    connections: 4,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/api/mem',
        headers: {'content-type': 'application/json'},
        setupRequest: (req) => {
          const m = texts[serial++ % texts.length]
          return {...req, body: JSON.stringify({repo: root, type: m.type, content: `${m.content} [load ${serial}]`, tags: m.tags, importance: m.importance})}
        },
        onResponse: (status, body) => {
          if (status === 201) acknowledged.push(JSON.parse(body).id)
          else if (status === 200) duplicates++
        },
      },
    ],
  })
  const s = stores.result
  const storeErrors = s.errors + s.timeouts + (s.non2xx ?? 0)
  console.log(
    `store       ${fmt(acknowledged.length / seconds, 0)} durable stores/s (4 clients, ${seconds} s, ${acknowledged.length.toLocaleString('en-US')} acknowledged, ` +
      `${duplicates} duplicates)  latency p50 ${fmt(percentile(stores.times, 50))} ms, p95 ${fmt(percentile(stores.times, 95))} ms  errors ${storeErrors}`,
  )

  server.child.kill('SIGTERM')
  const code = await server.exited
  // every acknowledged store must be in the files the server left behind
  const ctx = openMem({home, cwd: root})
  let missing = 0
  for (const id of acknowledged) {
    try {
      await get(ctx, {id})
    } catch {
      missing++
    }
  }
  await ctx.close()
  console.log(`after stop  exit ${code}; ${acknowledged.length - missing} of ${acknowledged.length} acknowledged stores present, ${missing} missing`)
  return {
    statsPerSec: floor.result.requests.average,
    recallSingleP95: percentile(single.times, 95),
    recallPerSec: r.requests.average,
    recallP95: percentile(recall.times, 95),
    recallErrors: errorsOf(r),
    storesPerSec: acknowledged.length / seconds,
    storeErrors,
    missing,
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchServer()
