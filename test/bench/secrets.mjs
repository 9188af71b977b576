// Secret scanner benchmark (issue 19): time per scanSecrets() call on ordinary developer notes,
// the case that runs on every store. Texts: the 350 hand-written memories of the recall set plus
// synthetic ones built from their vocabulary. Imports the built module (dist/); prints figures and
// the number of texts flagged (should be 0: none of these holds a secret); asserts nothing.
//
//   node test/bench/secrets.mjs [count]
import {cpus, loadavg} from 'node:os'
import {scanSecrets} from '../../dist/src/engines/gates/secrets.js'
import {loadEvalSet, syntheticMemories} from './lib/corpus.mjs'
import {fmt, median, percentile} from './lib/util.mjs'

export async function benchSecrets(count = 3000) {
  const texts = [...loadEvalSet().memories.map((m) => m.content), ...syntheticMemories(count).map((m) => m.content)]
  // The first call loads secretlint; not part of the per-text figure.
  const loadStart = performance.now()
  await scanSecrets('warm-up')
  const loadMs = performance.now() - loadStart
  // One unmeasured pass lets the JIT settle, then three measured passes, reported by median.
  for (const text of texts) await scanSecrets(text)
  const perText = []
  const passes = []
  let flagged = []
  for (let pass = 0; pass < 3; pass++) {
    flagged = []
    const passStart = performance.now()
    for (const text of texts) {
      const t = performance.now()
      const finding = await scanSecrets(text)
      perText.push(performance.now() - t)
      if (finding) flagged.push(`${finding.rule}: ${text.slice(0, 80)}`)
    }
    passes.push((performance.now() - passStart) / texts.length)
  }
  console.log(`\nsecret scanner — node ${process.version}, ${cpus().length} cores, load ${loadavg().map((n) => fmt(n, 2)).join(' ')}`)
  console.log(`  first call (loads secretlint): ${fmt(loadMs)} ms`)
  console.log(`  ${texts.length} ordinary notes, 3 passes: mean ${fmt(median(passes) * 1000, 0)} µs per text (median of passes), per-call median ${fmt(median(perText) * 1000, 0)} µs, p99 ${fmt(percentile(perText, 99) * 1000, 0)} µs`)
  console.log(`  flagged: ${flagged.length}`)
  for (const line of flagged.slice(0, 20)) console.log(`    ${line}`)
}

if (import.meta.url === `file://${process.argv[1]}`) await benchSecrets(Number(process.argv[2] ?? 3000))
