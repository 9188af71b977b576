// Recall identity on every recall bench set (issue 31: "recall through both gives identical ids and
// scores on the recall bench sets"): the evaluation set (test/bench/recall/data), the paraphrase set
// (test/bench/recall/paraphrase) and the two LoCoMo dev conversations (../shared/data/locomo-dev,
// by its README's protocol: one observation a turn), each stored whole, in order and at the same
// times, into a local store and into a team repo of a throwaway Postgres (this machine's packages,
// or MEM_BENCH_PG_URL); then every question asked of the local store, of the replica that wrote, and
// of a cold replica opened afterwards (team-recall-compare.mjs). Prints, per set, how many stores
// had the same outcome and how many questions got the same ids (but for the repo segment) in the
// same order with the same scores from all three, and the first differences if any.
// MEM_BENCH_MEANING (off by default; static, builtin): the meaning model of both sides. With one,
// every memory's vector is made on both sides once the set is stored (a long-lived process's drain,
// with the update links it brings), and the cold replica reads them from the team's log.
// Run: npm run build && node test/bench/team-recall.mjs   (exits 1 when anything differs)
import {mkdirSync, mkdtempSync, rmSync} from 'node:fs'
import os from 'node:os'
import {join} from 'node:path'
import {createTeam} from '../../dist/src/operations/team.js'
import {recall} from '../../dist/src/operations/recall.js'
import {store} from '../../dist/src/operations/store.js'
import {openMem} from '../../dist/src/runtime/open-mem.js'
import {openTeamRuntime} from '../../dist/src/runtime/team-store.js'
import {openTeamDb} from '../../dist/src/storage/postgres/index.js'
import {planMeaningLinks} from '../../dist/src/engines/gates/admit.js'
import {embedPending} from '../../dist/src/engines/meaning/pending.js'
import {meaningModel} from '../../dist/src/engines/meaning/use.js'
import {startCluster, stopCluster} from '../../scripts/pg-cluster.mjs'
import {LOCOMO_DIR, loadLocomo} from './recall/locomo.mjs'
import {benchSets, compareRecall, locomoSet} from './team-recall-compare.mjs'

const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ')
const TEAM = 'bench'
const MEANING = process.env.MEM_BENCH_MEANING?.trim() || 'off'
if (!['off', 'static', 'builtin'].includes(MEANING)) throw new Error(`MEM_BENCH_MEANING=${MEANING}: off, static or builtin`)
const meaning = {model: MEANING}

/** Every memory of the repo's store without a vector gets one (and the links it brings), as a drain would. */
async function drainAll(ctx, repo) {
  const model = await meaningModel(ctx)
  if (!model) return
  const handle = await ctx.repo(repo, 'read')
  await embedPending(ctx, handle.store, model, {limit: Number.MAX_SAFE_INTEGER, link: planMeaningLinks, count: false})
}

async function main() {
  const given = process.env.MEM_BENCH_PG_URL
  const cluster = given ? null : await startCluster()
  const url = given ?? cluster.url
  const temp = mkdtempSync(join(os.tmpdir(), 'mem-bench-team-recall-'))
  let differ = false
  try {
    const db = await openTeamDb({url, shown: 'bench'})
    await createTeam(db, {name: TEAM}, {now: new Date(), actor: 'bench'})
    const tenant = {team: TEAM, repos: null, key: 'bench'}
    const convs = loadLocomo()
    const sets = [...benchSets(), ...(convs ? convs.map(locomoSet) : [])]
    if (!convs) console.log(`LoCoMo dev split: NOT RUN (no data at ${LOCOMO_DIR})`)
    console.log(`load ${load()}, ${os.cpus().length} cores, node ${process.version}; meaning ${MEANING} on both sides`)
    console.log('set            | memories | same store outcome | questions | same ids+scores (local = writer = cold) | answered | s')
    let n = 0
    for (const set of sets) {
      const repo = `github.com/bench/${set.name}`
      const t = performance.now()
      const r = await compareRecall(set, {
        store,
        recall,
        openLocal(now) {
          const base = join(temp, `${set.name}-${n++}`)
          mkdirSync(join(base, 'repo', '.git'), {recursive: true})
          const ctx = openMem({home: join(base, 'home'), now, longLived: true, meaning})
          return {ctx, repo: join(base, 'repo'), close: () => ctx.close()}
        },
        async openReplica(name, now) {
          const runtime = openTeamRuntime(db, {home: join(temp, `home-${name}-${n++}`), replicaName: name, meaning, now})
          const run = async (fn) => {
            try {
              return await runtime.asRequest(tenant, () => fn(runtime))
            } finally {
              runtime.endRequest(tenant)
            }
          }
          return {repo, run, close: () => runtime.close()}
        },
        async afterStores(local, writer) {
          if (MEANING === 'off') return
          await drainAll(local.ctx, local.repo)
          await writer.run((ctx) => drainAll(ctx, writer.repo))
        },
      })
      const s = ((performance.now() - t) / 1000).toFixed(1)
      console.log(
        `${set.name.padEnd(14)} | ${String(r.memories).padStart(8)} | ${String(r.outcomesAgree).padStart(18)} | ${String(r.questions).padStart(9)} | ${String(r.agree).padStart(39)} | ${String(r.answered).padStart(8)} | ${s}`,
      )
      if (r.outcomeDifferences.length || r.differences.length) {
        differ = true
        for (const d of r.outcomeDifferences) console.log(`  store differs: ${JSON.stringify(d)}`)
        for (const d of r.differences) console.log(`  recall differs: ${JSON.stringify(d)}`)
      }
    }
    await db.close()
    console.log(`load ${load()}`)
  } finally {
    rmSync(temp, {recursive: true, force: true})
    if (cluster) stopCluster(cluster.dir)
  }
  if (differ) process.exitCode = 1
}

await main()
