// Memory per hot repo of a team replica (issue 31 item 6, docs/team.md "Bounded replicas"): a
// throwaway Postgres (this machine's packages, or MEM_BENCH_PG_URL), repos of 1,000 and 10,000
// synthetic memories seeded as the team-serve bench seeds them (records of 500, then a snapshot),
// then, each in a process of its own, a team runtime that opens repos one after the other (each
// answering a recall, so its database and recall index are built) and reports the process's RSS,
// V8 heap, ArrayBuffers (outside V8's heap: the snapshots fetched, the recall indexes' buffers) and
// sql.js's WebAssembly heap (where every database of the process lives) after each. Last, the same walk
// over every 1k repo with a ceiling of 2 hot repos: what eviction bounds, and what it does not.
// Prints figures and the load average; asserts nothing.
// Run: npm run build && node test/bench/team-hot-repos.mjs
import {spawn} from 'node:child_process'
import {createHash} from 'node:crypto'
import {mkdtempSync} from 'node:fs'
import os from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {heuristicOneLiner} from '../../dist/src/engines/enrichment/heuristic.js'
import {createTeam} from '../../dist/src/operations/team.js'
import {openTeamDb} from '../../dist/src/storage/postgres/index.js'
import {RepoStore} from '../../dist/src/storage/repo-store.js'
import {startCluster, stopCluster} from '../../scripts/pg-cluster.mjs'
import {syntheticMemories} from './lib/corpus.mjs'

const SMALL = Number(process.env.MEM_BENCH_SMALL ?? 1_000)
const LARGE = Number(process.env.MEM_BENCH_LARGE ?? 10_000)
const SMALL_REPOS = Number(process.env.MEM_BENCH_SMALL_REPOS ?? 6)
const LARGE_REPOS = Number(process.env.MEM_BENCH_LARGE_REPOS ?? 2)
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ')
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1)

async function seed(db, repo, count, salt) {
  const segment = repo.replaceAll('/', '~')
  const store = await RepoStore.open(mkdtempSync(join(os.tmpdir(), 'mem-bench-seed-')), {replica: db.replica('bench', repo, {actor: 'seed'})})
  await store.sync()
  const all = syntheticMemories(count, salt)
  const start = Date.parse('2025-06-01T00:00:00Z')
  for (let i = 0; i < all.length; i += 500) {
    const ops = all.slice(i, i + 500).map((m, j) => {
      const createdAt = new Date(start + (i + j) * 60_000).toISOString()
      const key = createHash('sha256').update(m.content + createdAt + repo).digest('hex').slice(0, 12)
      return {
        op: 'insert',
        memory: {
          id: `memories/${segment}/${m.type}/${key}`, repoId: segment, type: m.type, content: m.content,
          oneLiner: heuristicOneLiner(m.content), summary: null, tags: m.tags, importance: m.importance,
          source: 'bench', sessionId: null, supersedes: null, supersededBy: null, createdAt, updatedAt: createdAt,
          forgottenAt: null, forgetReason: null, expiresAt: null, accessCount: 0, lastAccessedAt: null,
          usedCount: 0, unusedCount: 0, lastUsedAt: null, derivedFrom: [], links: [],
        },
      }
    })
    await store.write(() => ({ops, result: null}))
  }
  await store.checkpoint()
  await store.close()
}

/** The child: opens `repos` in order through a team runtime with `hotRepos`, one recall each; prints a JSON line per step. */
async function child() {
  // sql.js's WebAssembly memory (its heap: every database of the process lives in it), caught as it is made
  const wasmMemories = []
  const instantiate = WebAssembly.instantiate
  WebAssembly.instantiate = async function (source, imports) {
    const made = await instantiate.call(this, source, imports)
    const instance = made.instance ?? made
    for (const v of Object.values(instance.exports)) if (v instanceof WebAssembly.Memory) wasmMemories.push(v)
    for (const v of Object.values(imports?.env ?? {})) if (v instanceof WebAssembly.Memory) wasmMemories.push(v)
    return made
  }
  const [{openTeamRuntime}, {recall}] = await Promise.all([import('../../dist/src/runtime/team-store.js'), import('../../dist/src/operations/recall.js')])
  const {url, repos, hotRepos} = JSON.parse(process.argv[3])
  const db = await openTeamDb({url, shown: 'bench'})
  const runtime = openTeamRuntime(db, {home: mkdtempSync(join(os.tmpdir(), 'mem-bench-home-')), replicaName: 'bench', hotRepos})
  const sample = (step, repo, ms) => {
    globalThis.gc?.()
    const m = process.memoryUsage()
    const sqlHeap = wasmMemories.reduce((n, w) => n + w.buffer.byteLength, 0)
    console.log(JSON.stringify({step, repo, ms, rss: m.rss, heapUsed: m.heapUsed, arrayBuffers: m.arrayBuffers, sqlHeap, hot: runtime.hotRepos().hot}))
  }
  // a warm-up on a tiny repo: sql.js and the modules loaded, before any measured repo
  const ask = async (repo) => {
    const p = {team: 'bench', repos: null}
    const t = performance.now()
    await runtime.asRequest(p, () => recall(runtime, {repo, q: 'deploy pipeline cache', limit: 10}))
    runtime.endRequest(p)
    return performance.now() - t
  }
  await ask('github.com/bench/tiny')
  sample(0, 'warm', 0)
  for (const [i, repo] of repos.entries()) sample(i + 1, repo, await ask(repo))
  await runtime.close()
  await db.close()
}

function runChild(url, repos, hotRepos) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), 'child', JSON.stringify({url, repos, hotRepos})], {stdio: ['ignore', 'pipe', 'inherit']})
    let out = ''
    proc.stdout.on('data', (d) => (out += d))
    proc.on('exit', (code) => (code === 0 ? resolve(out.trim().split('\n').map((l) => JSON.parse(l))) : reject(new Error(`child exited ${code}`))))
  })
}

function report(label, rows, size) {
  const base = rows[0]
  console.log(`\n${label} (${size} memories a repo; after each repo's first recall):`)
  console.log('  repos hot | RSS MB | V8 heap MB | ArrayBuffers MB | sql.js heap MB | first recall ms')
  for (const r of rows) console.log(`  ${String(r.hot).padStart(9)} | ${mb(r.rss).padStart(6)} | ${mb(r.heapUsed).padStart(10)} | ${mb(r.arrayBuffers).padStart(15)} | ${mb(r.sqlHeap).padStart(14)} | ${r.ms.toFixed(0)}`)
  const last = rows.at(-1)
  const n = rows.length - 1
  console.log(
    `  per repo (last − warm) / ${n}: RSS ${mb((last.rss - base.rss) / n)} MB, V8 heap ${mb((last.heapUsed - base.heapUsed) / n)} MB, ArrayBuffers ${mb((last.arrayBuffers - base.arrayBuffers) / n)} MB, sql.js heap ${mb((last.sqlHeap - base.sqlHeap) / n)} MB`,
  )
}

async function main() {
  const given = process.env.MEM_BENCH_PG_URL
  const cluster = given ? null : await startCluster()
  const url = given ?? cluster.url
  try {
    const db = await openTeamDb({url, shown: 'bench'})
    await createTeam(db, {name: 'bench'}, {now: new Date(), actor: 'bench'})
    const t = performance.now()
    const small = Array.from({length: SMALL_REPOS}, (_, i) => `github.com/bench/small-${i}`)
    const large = Array.from({length: LARGE_REPOS}, (_, i) => `github.com/bench/large-${i}`)
    await seed(db, 'github.com/bench/tiny', 10, 99)
    for (const [i, r] of small.entries()) await seed(db, r, SMALL, 100 + i)
    for (const [i, r] of large.entries()) await seed(db, r, LARGE, 200 + i)
    console.log(`seeded ${SMALL_REPOS} × ${SMALL} and ${LARGE_REPOS} × ${LARGE} memories in ${((performance.now() - t) / 1000).toFixed(1)} s (load ${load()})`)
    await db.close()

    report(`unbounded, ${SMALL_REPOS} repos`, await runChild(url, small, 1000), SMALL)
    report(`unbounded, ${LARGE_REPOS} repos`, await runChild(url, large, 1000), LARGE)
    report(`ceiling 2, the same ${SMALL_REPOS} repos`, await runChild(url, small, 2), SMALL)
    console.log(`\nload ${load()}, ${os.cpus().length} cores, node ${process.version}`)
  } finally {
    if (cluster) await stopCluster(cluster.dir)
  }
}

if (process.argv[2] === 'child') await child()
else await main()
