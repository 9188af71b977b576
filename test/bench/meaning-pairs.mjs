// consolidation's pairs by meaning (engines/meaning/related.ts closePairs): every pair of N unit
// vectors of 512 numbers (clustered, so that some pairs reach 0.7) with the brute force as it was
// before 2026-11-27 (one running sum over separate arrays) and as it is (one matrix, four running
// sums), alternating, 3 rounds each; checks both give the same pairs. N: MEM_BENCH_PAIRS_N (2,000).
// Run: npm run build && node test/bench/meaning-pairs.mjs
import {loadavg} from 'node:os'
import {closePairs} from '../../dist/src/engines/meaning/related.js'
import {rng} from './lib/corpus.mjs'
import {fmt, median} from './lib/util.mjs'

const N = Number(process.env.MEM_BENCH_PAIRS_N ?? 2_000)
const D = 512
const rand = rng(11)
const unit = (v) => {
  const n = Math.hypot(...v)
  return v.map((x) => x / n)
}
const centres = Array.from({length: Math.ceil(N / 10)}, () => unit(new Float32Array(D).map(() => rand() - 0.5)))
const vectors = new Map()
for (let i = 0; i < N; i++) vectors.set(i, unit(centres[i % centres.length].map((x) => x + (rand() - 0.5) * 0.06)))

/** The brute force before: one running sum, over the arrays as given. */
function before(vectors, min, max) {
  if (vectors.size > max) return []
  const rows = [...vectors].sort((a, b) => a[0] - b[0])
  const out = []
  for (let x = 0; x < rows.length; x++) {
    const [i, a] = rows[x]
    for (let y = x + 1; y < rows.length; y++) {
      const [j, b] = rows[y]
      let dot = 0
      for (let k = 0; k < a.length; k++) dot += a[k] * b[k]
      if (dot >= min) out.push({i, j, sim: dot})
    }
  }
  return out
}

const times = {before: [], now: []}
let a = []
let b = []
for (let round = 0; round < 3; round++) {
  let t = performance.now()
  a = before(vectors, 0.7, 5_000)
  times.before.push(performance.now() - t)
  t = performance.now()
  b = closePairs(vectors, 0.7, 5_000)
  times.now.push(performance.now() - t)
}
const same = a.length === b.length && a.every((p, k) => p.i === b[k].i && p.j === b[k].j && Math.abs(p.sim - b[k].sim) < 1e-9)
console.log(`${N} vectors of ${D} (${fmt((N * (N - 1)) / 2 / 1e6, 1)}M pairs, ${b.length} at 0.7 or more): before ${times.before.map((t) => fmt(t, 0)).join(', ')} ms (median ${fmt(median(times.before), 0)}); now ${times.now.map((t) => fmt(t, 0)).join(', ')} ms (median ${fmt(median(times.now), 0)}); same pairs and cosines: ${same} (load ${loadavg().map((l) => l.toFixed(1)).join(' ')})`)
if (!same) process.exitCode = 1
