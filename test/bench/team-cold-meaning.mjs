// A cold replica's first recall with meaning on (issue 31's "a cold replica serves a 10k-memory repo
// in ≤ 3 s", now that replicas run the built-in model as a local store does): two team repos of the
// same 10k synthetic memories on a throwaway Postgres (this machine's packages, fsync on, or
// MEM_BENCH_PG_URL), one with a 512-number vector under the built-in model's id for every memory (in
// the snapshot, as the drain leaves them), one without. New `mem serve --store` processes, one at a
// time, alternating: the first recall of a replica with meaning off on the repo without vectors (the
// figure team-serve.mjs reports), and of a replica with the built-in model on the repo with them,
// asked a question its words answer, then (another new replica) one they do not (the model loads).
// Prints each run and the medians with the load; asserts nothing.
// Run: npm run build && node test/bench/team-cold-meaning.mjs
import {mkdtempSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import {join} from 'node:path'
import {BUILTIN_ID} from '../../dist/src/engines/meaning/builtin.js'
import {startCluster, stopCluster} from '../../scripts/pg-cluster.mjs'
import {fmt, median} from './lib/util.mjs'
import {benchTeam, seedTeam, startReplica} from './team-serve.mjs'

const SIZE = Number(process.env.MEM_BENCH_SIZE ?? 10_000)
const RUNS = Number(process.env.MEM_BENCH_RUNS ?? 3)
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ')
const WORDS_REPO = 'github.com/bench/words'
const MEANING_REPO = 'github.com/bench/meaning'

async function main() {
  console.log(`\n## A cold replica's first recall, ${SIZE.toLocaleString('en-US')} memories, meaning off / built-in model (load ${load()})`)
  const given = process.env.MEM_BENCH_PG_URL
  const cluster = given ? undefined : await startCluster()
  try {
    const {storeUrl, db, key} = await benchTeam(given ?? cluster.url, 'cold')
    const t = performance.now()
    await seedTeam(db, SIZE, {repo: WORDS_REPO})
    await seedTeam(db, SIZE, {repo: MEANING_REPO, vectors: {model: BUILTIN_ID, dims: 512}})
    const sizes = await db.pg.query("SELECT repo, octet_length(bytes) AS bytes FROM snapshots WHERE team = 'bench' ORDER BY repo")
    console.log(`seeded in ${fmt((performance.now() - t) / 1000)} s; snapshots: ${sizes.map((r) => `${r.repo} ${fmt(Number(r.bytes) / 2 ** 20)} MiB`).join(', ')}`)
    await db.close()

    const first = async (meaning, repo, q) => {
      const home = mkdtempSync(join(os.tmpdir(), 'mem-bench-replica-'))
      writeFileSync(join(home, 'config.yaml'), `update:\n  check: false\nmeaning:\n  model: ${meaning}\n`)
      const replica = startReplica(home, storeUrl)
      const {api} = await replica.started
      const t0 = performance.now()
      const res = await fetch(`${api}/api/mem/recall?repo=${encodeURIComponent(repo)}&q=${encodeURIComponent(q)}`, {headers: {authorization: `Bearer ${key}`}})
      const ms = performance.now() - t0
      const body = await res.json()
      if (res.status !== 200) throw new Error(`cold recall answered ${res.status}: ${JSON.stringify(body)}`)
      replica.child.kill('SIGKILL') // no snapshot at exit: the next one starts from the same place
      await replica.exited
      return {ms, hits: body.results.length}
    }
    const rows = {words: [], builtinWords: [], builtinModel: []}
    for (let i = 0; i < RUNS; i++) {
      const a = await first('off', WORDS_REPO, 'database')
      const b = await first('builtin', MEANING_REPO, 'database')
      const c = await first('builtin', MEANING_REPO, 'how are sums of cash sent back to callers')
      rows.words.push(a.ms)
      rows.builtinWords.push(b.ms)
      rows.builtinModel.push(c.ms)
      console.log(`run ${i + 1}: meaning off, no vectors ${fmt(a.ms, 0)} ms (${a.hits} hits); built-in, vectors, words answer ${fmt(b.ms, 0)} ms (${b.hits}); built-in, the model asked ${fmt(c.ms, 0)} ms (${c.hits}) (load ${load()})`)
    }
    console.log(
      `median first recall: meaning off ${fmt(median(rows.words), 0)} ms; built-in with vectors, words answer ${fmt(median(rows.builtinWords), 0)} ms; the model asked ${fmt(median(rows.builtinModel), 0)} ms (target ≤ 3 s) (load ${load()})`,
    )
  } finally {
    if (cluster) await stopCluster(cluster.dir)
  }
}

await main()
