// Team store append throughput (issue 31): 4 concurrent clients appending to one repo's ops table,
// each its own pool of one connection (as four replicas would), batches of 1 and of 8 records, on a
// throwaway Postgres of this machine's packages (fsync on: every acknowledged append is durable),
// or on MEM_BENCH_PG_URL. Prints figures; asserts nothing. Run: node test/bench/team-append.mjs
import os from 'node:os'
import {openTeamDb} from '../../dist/src/storage/postgres/index.js'
import {startCluster, stopCluster} from '../../scripts/pg-cluster.mjs'
import {pgAdmin} from './lib/pg.mjs'
import {percentile} from './lib/util.mjs'

const CLIENTS = 4
const SECONDS = Number(process.env.MEM_BENCH_SECONDS ?? 5)

export async function benchTeamAppend() {
  console.log(`\n## Team store appends (${CLIENTS} clients, one repo, ${SECONDS} s each; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`)
  const given = process.env.MEM_BENCH_PG_URL
  const cluster = given ? undefined : await startCluster()
  const server = given ?? cluster.url
  try {
    for (const batch of [1, 8]) {
      const name = `mem_bench_${Date.now().toString(36)}_${batch}`
      await pgAdmin(server, `CREATE DATABASE ${name}`)
      const url = new URL(server)
      url.pathname = `/${name}`
      const dbs = await Promise.all(Array.from({length: CLIENTS}, () => openTeamDb({url: url.href, shown: 'bench', max: 1})))
      await dbs[0].teams.createTeam('bench', new Date(), 'bench')
      const record = {ops: [{op: 'insert', table: 'memories', row: {id: 'memories/app/insight/0123abcd', content: 'x'.repeat(400)}}]}
      const latencies = []
      let appends = 0
      const stopAt = performance.now() + SECONDS * 1000
      const started = performance.now()
      await Promise.all(
        dbs.map(async (db) => {
          while (performance.now() < stopAt) {
            const t = performance.now()
            await db.ops.append('bench', 'github.com/org/app', Array.from({length: batch}, () => ({record})), {actor: 'bench', at: new Date()})
            latencies.push(performance.now() - t)
            appends++
          }
        }),
      )
      const seconds = (performance.now() - started) / 1000
      const head = await dbs[0].ops.head('bench', 'github.com/org/app')
      await Promise.all(dbs.map((d) => d.close()))
      await pgAdmin(server, `DROP DATABASE ${name} WITH (FORCE)`)
      console.log(
        `batch ${batch}: ${(appends / seconds).toFixed(0)} appends/s, ${((appends * batch) / seconds).toFixed(0)} records/s ` +
          `(latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms; head ${head} = ${appends} × ${batch}: ${head === appends * batch ? 'gapless' : 'MISMATCH'})`,
      )
    }
  } finally {
    if (cluster) stopCluster(cluster.dir)
  }
  console.log(`load after: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`)
}


if (import.meta.url === `file://${process.argv[1]}`) await benchTeamAppend()
