// What usage recording adds to a recall (issue 8, target ≤ 5%): the same recalls, in process, on
// two identical 10k-memory stores, through a context that records usage and one that does not,
// each question through both back to back. Also the cost of one record() call alone.
import {recall} from '../../dist/src/operations/recall.js'
import {openMem} from '../../dist/src/runtime/open-mem.js'
import {MemUsageRecorder} from '../../dist/src/runtime/usage-recorder.js'
import {loadEvalSet} from './lib/corpus.mjs'
import {seedRepo} from './lib/seed.mjs'
import {fmt, median, tempRepo} from './lib/util.mjs'

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length
/** The mean without the slowest 1% (the background journal writes of recall counters land there). */
const trimmedMean = (xs) => mean([...xs].sort((a, b) => a - b).slice(0, Math.ceil(xs.length * 0.99)))

export async function benchUsage({size = 10_000, rounds = 10} = {}) {
  const {questions} = loadEvalSet()
  // two identical stores (same seed), so that neither context replays the other's recall counters
  const a = tempRepo('usage-on')
  const b = tempRepo('usage-off')
  await seedRepo(a.root, size)
  await seedRepo(b.root, size)
  const on = openMem({home: a.home, cwd: a.root, longLived: true})
  const off = openMem({home: b.home, cwd: b.root, longLived: true, usage: false})
  const repoOf = (ctx) => (ctx === on ? a.root : b.root)
  for (const ctx of [on, off]) for (const q of questions.slice(0, 30)) await recall(ctx, {repo: repoOf(ctx), q: q.q})

  // paired: each question through both contexts back to back (order alternating), so that drift,
  // GC and background journal writes fall on both alike
  const times = {on: [], off: []}
  const diffs = []
  for (let round = 0; round < rounds; round++) {
    globalThis.gc?.()
    for (const [i, q] of questions.entries()) {
      const pair = {}
      for (const mode of (i + round) % 2 === 0 ? ['on', 'off'] : ['off', 'on']) {
        const ctx = mode === 'on' ? on : off
        const t = performance.now()
        await recall(ctx, {repo: repoOf(ctx), q: q.q, limit: 10})
        pair[mode] = performance.now() - t
        times[mode].push(pair[mode])
      }
      diffs.push(pair.on - pair.off)
    }
  }
  const flushT = performance.now()
  on.usage.flush()
  const flushMs = performance.now() - flushT
  await on.close()
  await off.close()

  // one record() alone: the per-operation cost, without the recall around it
  const rec = new MemUsageRecorder({now: () => new Date()})
  const n = 200_000
  const ops = ['recall', 'store', 'get', 'context']
  const t0 = performance.now()
  for (let i = 0; i < n; i++) rec.start(ops[i & 3])({root: a.root}, 5)
  const perRecordUs = ((performance.now() - t0) / n) * 1000

  const p50 = {on: median(times.on), off: median(times.off)}
  const avg = {on: mean(times.on), off: mean(times.off)}
  const trim = {on: trimmedMean(times.on), off: trimmedMean(times.off)}
  console.log(`\n== usage recording cost (issue 8, target ≤ 5% of a recall), ${size.toLocaleString('en-US')} memories, in process, ${times.on.length} recalls each ==`)
  const pct = (x, y) => fmt(((x - y) / y) * 100, 2)
  console.log('recording | recall p50 | recall mean | mean without the slowest 1%')
  console.log(`off       | ${fmt(p50.off, 3)} ms | ${fmt(avg.off, 3)} ms | ${fmt(trim.off, 3)} ms`)
  console.log(`on        | ${fmt(p50.on, 3)} ms | ${fmt(avg.on, 3)} ms | ${fmt(trim.on, 3)} ms`)
  console.log(`overhead: p50 ${pct(p50.on, p50.off)} %, mean ${pct(avg.on, avg.off)} %, trimmed mean ${pct(trim.on, trim.off)} %; median of the paired differences ${fmt(median(diffs) * 1000, 1)} µs (${fmt((median(diffs) / p50.off) * 100, 2)} %)`)
  console.log(`one record() alone: ${fmt(perRecordUs, 3)} µs (${fmt((perRecordUs / 1000 / p50.off) * 100, 3)} % of a recall p50); flushing the pending aggregates to usage.log: ${fmt(flushMs, 2)} ms`)
  return {p50, avg, perRecordUs, flushMs}
}

if (import.meta.url === `file://${process.argv[1]}`) await benchUsage()
