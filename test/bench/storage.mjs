// Storage benchmark (issue 2): durable store throughput, cold-start wall time of `mem get` and
// `mem stats` beside `node -e 0`, checkpoint time and database size, at 10k and 100k memories.
import {statSync} from 'node:fs'
import {join} from 'node:path'
import {openMem} from '../../dist/src/runtime/open-mem.js'
import {store} from '../../dist/src/operations/store.js'
import {browse} from '../../dist/src/operations/browse.js'
import {seedRepo} from './lib/seed.mjs'
import {BIN, fmt, tempRepo, wallTime} from './lib/util.mjs'

export async function benchStorage(sizes = [10_000, 100_000]) {
  const rows = []
  for (const size of sizes) {
    const {root, home} = tempRepo(`storage-${size}`)
    let t = performance.now()
    await seedRepo(root, size)
    const seedMs = performance.now() - t

    const ctx = openMem({home, cwd: root})
    const n = size >= 100_000 ? 1000 : 2000
    await store(ctx, {repo: root, content: 'warm-up memory for the benchmark run', type: 'observation'})
    t = performance.now()
    for (let i = 0; i < n; i++) {
      const r = await store(ctx, {repo: root, content: `sequential bench memory ${i}: the deploy job ${i * 31} failed on step ${i % 17}`, type: 'observation'})
      if (!r.success) throw new Error(`store failed: ${JSON.stringify(r)}`)
    }
    const seqPerSec = n / ((performance.now() - t) / 1000)

    t = performance.now()
    const conc = 8
    await Promise.all(
      Array.from({length: conc}, async (_, w) => {
        for (let i = 0; i < n / conc; i++) {
          const r = await store(ctx, {repo: root, content: `concurrent bench memory ${w}-${i}: cache shard ${w * 1000 + i} warmed in ${i}ms`, type: 'insight'})
          if (!r.success) throw new Error(`store failed: ${JSON.stringify(r)}`)
        }
      }),
    )
    const concPerSec = n / ((performance.now() - t) / 1000)
    const handle = await ctx.repo(root, 'write')
    t = performance.now()
    await handle.store.checkpoint()
    const checkpointMs = performance.now() - t
    const someId = (await browse(ctx, {repo: root, take: 1})).entries[0].id
    await ctx.close()
    const dbBytes = statSync(join(root, '.mem', 'mem.db')).size

    const env = {MEM_HOME: home}
    const nodeMs = wallTime(['-e', '0'])
    const statsMs = wallTime([BIN, 'stats', '--json'], {env, cwd: root})
    const getMs = wallTime([BIN, 'get', someId, '--json'], {env, cwd: root})
    rows.push({size, seedMs, seqPerSec, concPerSec, checkpointMs, dbBytes, nodeMs, statsMs, getMs})
  }
  console.log('\n== storage (issue 2) ==')
  console.log('memories | seed | stores/s sequential | stores/s 8 concurrent | checkpoint | mem.db | node -e 0 | mem stats cold | mem get cold')
  for (const r of rows) {
    console.log(
      `${String(r.size).padStart(8)} | ${fmt(r.seedMs / 1000)} s | ${fmt(r.seqPerSec, 0)} | ${fmt(r.concPerSec, 0)} | ${fmt(r.checkpointMs, 0)} ms | ${fmt(r.dbBytes / 1e6)} MB | ${fmt(r.nodeMs, 0)} ms | ${fmt(r.statsMs, 0)} ms (${fmt(r.statsMs / r.nodeMs)}×) | ${fmt(r.getMs, 0)} ms (${fmt(r.getMs / r.nodeMs)}×)`,
    )
  }
  return rows
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchStorage(process.argv[2] ? process.argv[2].split(',').map(Number) : undefined)
}
