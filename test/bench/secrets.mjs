// Secret gate benchmark (issues 19 and 28).
//
// 1. Cost: time per store of the admission gate on ordinary developer notes — what the store path
//    runs before it takes the writer lock. For a build with the issue-28 gate (src/engines/gates/
//    admit.ts exports admitNote) that is `gate(ctx, {content, tags, source, sessionId})`: every
//    persisted field, normalized, scanned; for an older build, `gate(ctx, content)` as its store
//    called it. Texts: the 350 hand-written memories of the recall set plus synthetic ones built
//    from their vocabulary. The bare `scanSecrets(content)` figure is printed beside it.
// 2. False positives: every memory of the recall set (test/bench/recall/data/memories.json) and
//    every LoCoMo turn of the dev split (../shared/data/locomo-dev, stored as the LoCoMo protocol
//    stores them: content "<speaker>: <text>", tags [dia_id]) through the gate; the count refused
//    should be 0. Prints figures; asserts nothing.
//
//   node test/bench/secrets.mjs [count] [dist]     (dist: another build's dist/, to compare)
import {existsSync, readFileSync, readdirSync} from 'node:fs'
import {cpus, loadavg} from 'node:os'
import {join, resolve} from 'node:path'
import {loadEvalSet, syntheticMemories} from './lib/corpus.mjs'
import {fmt, median, percentile} from './lib/util.mjs'

const LOCOMO = join(import.meta.dirname, '..', '..', '..', 'shared', 'data', 'locomo-dev')

function locomoTurns() {
  if (!existsSync(LOCOMO)) return []
  const out = []
  for (const file of readdirSync(LOCOMO).filter((f) => f.endsWith('.json')).sort()) {
    const conv = JSON.parse(readFileSync(join(LOCOMO, file), 'utf8'))
    for (const [key, turns] of Object.entries(conv)) {
      if (!/^session_\d+$/.test(key) || !Array.isArray(turns)) continue
      for (const t of turns) out.push({content: `${t.speaker}: ${t.text}`, tags: [t.dia_id], source: 'locomo', label: `${file} ${t.dia_id}`})
    }
  }
  return out
}

export async function benchSecrets(count = 3000, dist = join(import.meta.dirname, '..', '..', 'dist')) {
  const {scanSecrets} = await import(join(resolve(dist), 'src/engines/gates/secrets.js'))
  const admit = await import(join(resolve(dist), 'src/engines/gates/admit.js'))
  const fields = typeof admit.admitNote === 'function'
  const ctx = {scanSecrets}
  const gateOf = (m) => (fields ? admit.gate(ctx, m) : admit.gate(ctx, m.content))

  const memories = [
    ...loadEvalSet().memories.map((m) => ({content: m.content, tags: m.tags, source: 'agent', sessionId: 'session-42'})),
    ...syntheticMemories(count).map((m) => ({content: m.content, tags: m.tags, source: 'agent', sessionId: null})),
  ]
  // The first call loads secretlint; not part of the per-text figure.
  const loadStart = performance.now()
  await scanSecrets('warm-up')
  const loadMs = performance.now() - loadStart
  // One unmeasured pass lets the JIT settle, then three measured passes of each, interleaved.
  for (const m of memories) await gateOf(m)
  const perStore = []
  const perScan = []
  const gatePasses = []
  const scanPasses = []
  for (let pass = 0; pass < 3; pass++) {
    let start = performance.now()
    for (const m of memories) {
      const t = performance.now()
      await gateOf(m)
      perStore.push(performance.now() - t)
    }
    gatePasses.push((performance.now() - start) / memories.length)
    start = performance.now()
    for (const m of memories) {
      const t = performance.now()
      await scanSecrets(m.content)
      perScan.push(performance.now() - t)
    }
    scanPasses.push((performance.now() - start) / memories.length)
  }
  const us = (ms) => fmt(ms * 1000, 0)
  console.log(`\nsecret gate — ${resolve(dist)} (${fields ? 'every field, normalized' : 'content only'}) — node ${process.version}, ${cpus().length} cores, load ${loadavg().map((n) => fmt(n, 2)).join(' ')}`)
  console.log(`  first call (loads secretlint): ${fmt(loadMs)} ms`)
  console.log(`  gate per store, ${memories.length} ordinary notes, 3 passes: mean ${us(median(gatePasses))} µs (median of passes), per-call median ${us(median(perStore))} µs, p99 ${us(percentile(perStore, 99))} µs`)
  console.log(`  scanSecrets(content) alone: mean ${us(median(scanPasses))} µs, per-call median ${us(median(perScan))} µs, p99 ${us(percentile(perScan, 99))} µs`)

  const sets = [
    ['recall set', loadEvalSet().memories.map((m) => ({content: m.content, tags: m.tags, source: 'agent', label: m.key}))],
    ['LoCoMo dev turns', locomoTurns()],
  ]
  for (const [name, items] of sets) {
    const refused = []
    for (const m of items) {
      const r = await gateOf(m)
      if (r) refused.push(`${m.label}: ${r.reason.slice(0, 120)}`)
    }
    console.log(`  ${name}: ${refused.length} of ${items.length} refused`)
    for (const line of refused.slice(0, 20)) console.log(`    ${line}`)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchSecrets(Number(process.argv[2] ?? 3000), process.argv[3])
