// Adversarial text benchmark (issue 28, item 7): a store of 16,000 characters of any shape is
// read by rules linear in its length. For each shape (test/helpers/adversarial.mjs), in process: a store into a fresh repo,
// the same text again (a duplicate), then the text with its last word changed (an update of the
// first: the two are compared), five rounds — the median and the slowest of those stores; then a
// repo holding 64 such texts (the most candidates a store reads) and one more store. Beside them,
// plain prose of 16,000 characters and the own recall set's 350 short memories. Prints figures,
// asserts nothing (the target: ≤ 50 ms per store; test/engines/gates/linear.test.ts checks
// what the stores answer).
//
//   npm run build && node test/bench/adversarial.mjs [shape-name-part]
import {loadavg} from 'node:os'
import {openMem} from '../../dist/src/runtime/open-mem.js'
import {store} from '../../dist/src/operations/store.js'
import {loadEvalSet} from './lib/corpus.mjs'
import {fmt, median, tempRepo} from './lib/util.mjs'
import {ADVERSARIAL, N, PROSE, variantOf} from '../helpers/adversarial.mjs'

async function timeStores(texts, {rounds}) {
  const times = []
  const cpus = []
  const outcomes = []
  for (let r = 0; r < rounds; r++) {
    const {root, home} = tempRepo('adversarial')
    let t = Date.parse('2026-11-26T00:00:00Z')
    const ctx = openMem({home, cwd: root, now: () => new Date((t += 1000)), longLived: true, usage: false})
    for (const content of texts) {
      const began = performance.now()
      const cpu = process.cpuUsage()
      const out = await store(ctx, {repo: root, content, type: 'heuristic'})
      times.push(performance.now() - began)
      const used = process.cpuUsage(cpu)
      cpus.push((used.user + used.system) / 1000)
      if (r === 0) outcomes.push(out.success ? (out.updates ? 'update' : 'stored') : out.duplicateId ? 'duplicate' : 'rejected')
    }
    await ctx.close()
  }
  return {times, cpus, outcomes}
}

export async function benchAdversarial(only) {
  console.log(`\n== adversarial texts (issue 28): a store of 16,000 characters, in process (load ${loadavg().map((n) => fmt(n, 2)).join(' ')}) ==`)
  // warm-up: the secret scanner and sql.js load on first use, and the duplicate and update paths
  // compile on theirs (without them the first shape measured paid for it: its slowest store took
  // 51–61 ms where its median took 5)
  await timeStores(['warm-up memory of the adversarial bench', PROSE, PROSE, variantOf(PROSE)], {rounds: 2})
  console.log(`${'shape'.padEnd(34)} | wall ms: median / max | cpu ms: median / max | outcomes (store, same, changed) | 64 candidates: wall / cpu ms`)
  const row = async (name, text) => {
    const {times, cpus, outcomes} = await timeStores([text, text, variantOf(text)], {rounds: 5})
    // a repo that holds 64 versions of the text (its last word changed), then one more
    const many = Array.from({length: 65}, (_, i) => `${text.slice(0, N - 8)} v${i}`)
    const full = await timeStores(many, {rounds: 1})
    const r = {name, median: median(times), max: Math.max(...times), cpuMedian: median(cpus), cpuMax: Math.max(...cpus), full: full.times.at(-1), fullCpu: full.cpus.at(-1)}
    console.log(
      `${name.padEnd(34)} | ${fmt(r.median).padStart(7)} / ${fmt(r.max).padStart(7)} | ${fmt(r.cpuMedian).padStart(7)} / ${fmt(r.cpuMax).padStart(7)} | ${outcomes.join(', ')} | ${fmt(r.full)} / ${fmt(r.fullCpu)} (${full.outcomes.at(-1)})`,
    )
    return r
  }
  const rows = []
  for (const [name, text] of Object.entries(ADVERSARIAL)) if (!only || name.includes(only)) rows.push(await row(name, text))
  if (!only || 'prose'.includes(only)) rows.push(await row('plain prose, 16,000 chars', PROSE))
  if (!only) {
    const own = loadEvalSet().memories.map((m) => m.content)
    const {times, cpus} = await timeStores(own, {rounds: 1})
    console.log(`${'the own set, 350 short memories'.padEnd(34)} | ${fmt(median(times), 2).padStart(7)} / ${fmt(Math.max(...times)).padStart(7)} | ${fmt(median(cpus), 2).padStart(7)} / ${fmt(Math.max(...cpus)).padStart(7)} |`)
  }
  const worst = (k) => rows.reduce((a, b) => (b[k] > a[k] ? b : a))
  console.log(`slowest store: wall ${fmt(worst('max').max)} ms (${worst('max').name}), cpu ${fmt(worst('cpuMax').cpuMax)} ms (${worst('cpuMax').name}); with 64 candidates: wall ${fmt(worst('full').full)} ms (${worst('full').name})`)
  return rows
}

if (import.meta.url === `file://${process.argv[1]}`) await benchAdversarial(process.argv[2])
