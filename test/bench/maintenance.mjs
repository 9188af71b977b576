// Maintenance benchmark (issue 6): the full seven-stage pipeline on 10k and 100k memories with
// realistic duplication and debris (lib/corpus.mjs realisticStore). Each pass runs in a child
// process so its peak RSS is the pipeline's own (seeding happens in this process). A second pass
// shows what a converged store costs. Targets: ≤ 5 s at 10k, ≤ 60 s at 100k, peak RSS ≤ 600 MB
// (600 × 10^6 bytes = 572 MiB) at 100k. The child's peak RSS covers opening, both passes and the
// closing checkpoint. MEM_BENCH_VECTORS=1: every live memory also gets a vector under the built-in
// model's id (a random unit vector of 512 numbers: what it costs does not depend on its numbers),
// as a store with meaning on (the default) holds them (issue 30: "maintenance at 100k with vectors").
import {spawnSync} from 'node:child_process'
import {readFileSync, rmSync} from 'node:fs'
import {cpus, loadavg} from 'node:os'
import {realisticStore} from './lib/corpus.mjs'
import {seedMemories, seedVectors} from './lib/seed.mjs'
import {fmt, tempRepo} from './lib/util.mjs'

const NOW = '2026-03-01T12:00:00.000Z'

async function child(root, home) {
  const {openMem} = await import('../../dist/src/runtime/open-mem.js')
  const {maintain} = await import('../../dist/src/operations/maintain.js')
  const ctx = openMem({home, cwd: root, now: () => new Date(NOW)})
  const t = performance.now()
  const handle = await ctx.repo(root, 'write')
  const openMs = performance.now() - t
  const passes = []
  for (let i = 0; i < 2; i++) {
    const started = performance.now()
    const cpu = process.cpuUsage()
    const report = await maintain(ctx, {repo: root})
    const used = process.cpuUsage(cpu)
    passes.push({ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, stages: report.stages})
  }
  const live = handle.store.read((db) => db.get('SELECT count(*) AS n FROM memories WHERE live = 1').n)
  await ctx.close()
  process.stdout.write(JSON.stringify({openMs, passes, live, maxRssBytes: peakRssBytes()}))
}

/**
 * This process's own peak RSS. On Linux getrusage's maxrss (process.resourceUsage().maxRSS) keeps
 * the high-water mark of the process that spawned it across exec: a child of a parent that peaked
 * at 540 MiB seeding 100k memories reports at least 540 MiB whatever it does. /proc's VmHWM is the
 * child's own; elsewhere maxRSS (KiB) is the best there is.
 */
function peakRssBytes() {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))
    if (hwm) return Number(hwm[1]) * 1024
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS * 1024
}

export async function benchMaintenance(sizes = [10_000, 100_000]) {
  console.log('\n== maintenance pipeline (issue 6) ==')
  for (const size of sizes) {
    const {base, root, home} = tempRepo(`maintenance-${size}`)
    const t = performance.now()
    await seedMemories(root, realisticStore(size, {now: Date.parse(NOW)}))
    if (process.env.MEM_BENCH_VECTORS === '1') await seedVectors(root, home, {at: NOW})
    const seedMs = performance.now() - t
    const r = spawnSync(process.execPath, ['--expose-gc', import.meta.filename, '--child', root, home], {encoding: 'utf8', maxBuffer: 1 << 24})
    rmSync(base, {recursive: true, force: true}) // ~150 MB at 100k
    if (r.status !== 0) throw new Error(`maintenance bench child failed: ${r.stderr}`)
    const out = JSON.parse(r.stdout)
    const [first, second] = out.passes
    console.log(
      `${size} memories${process.env.MEM_BENCH_VECTORS === '1' ? ' with vectors' : ''} (seeded in ${fmt(seedMs / 1000)} s; open ${fmt(out.openMs, 0)} ms): full pipeline ${fmt(first.ms / 1000, 2)} s wall ` +
        `(${fmt(first.cpuMs / 1000, 2)} s CPU), second pass ${fmt(second.ms / 1000, 2)} s, ` +
        `peak RSS ${fmt(out.maxRssBytes / 2 ** 20, 0)} MiB (${fmt(out.maxRssBytes / 1e6, 0)} MB), live after ${out.live} ` +
        `(load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`,
    )
    console.log(`  stage          first pass (affected, ms)   second pass`)
    for (const [i, s] of first.stages.entries()) {
      const s2 = second.stages[i]
      console.log(`  ${s.name.padEnd(14)} ${String(s.affected).padStart(7)} ${String(s.durationMs).padStart(7)} ms${s.error ? ` ERROR ${s.error}` : ''}     ${String(s2.affected).padStart(6)} ${String(s2.durationMs).padStart(6)} ms`)
    }
  }
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4])
else if (import.meta.url === `file://${process.argv[1]}`) await benchMaintenance(process.argv[2] ? process.argv[2].split(',').map(Number) : undefined)
