// Team mode against the local store, side by side in one run (issue 31): the built `mem serve`
// (local, one process) and two `mem serve --store` replicas on one Postgres (a throwaway cluster of
// this machine's packages, fsync on, or MEM_BENCH_PG_URL), each over the same 10k synthetic
// memories. Measures, in alternating rounds: durable stores/s with 4 clients (team: 2 on each
// replica, then all 4 on one replica, as when a repo is routed to one), HTTP recall latency (1 connection), and a cold replica's first answer on the 10k repo.
// Each store phase writes the same number of memories (MEM_BENCH_STORES, 1,000), and the one-replica
// and nginx rows write to team repos of their own (seeded alike): each round, every side stores into
// a repo of the same size (a store's cost grows with the memories like it, so a repo that took three
// phases' stores a round was slower than the local one by up to a half)
// (the newest snapshot plus the ops after it). Every acknowledged team store is then read back
// through the other replica. Both sides run word recall (the meaning model off in both config.yaml files).
// Where nginx is installed (on PATH, or MEM_BENCH_NGINX=its path), a third team row: the 4 clients
// through nginx in front of both replicas, routing on X-Mem-Repo as docs/team.md configures it.
// Prints medians and the load average; asserts nothing.
// Run: npm run build && node test/bench/team-serve.mjs
import {spawn, spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {mkdirSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import {join} from 'node:path'
import {createInterface} from 'node:readline'
import autocannon from 'autocannon'
import {heuristicOneLiner} from '../../dist/src/engines/enrichment/heuristic.js'
import {createTeam, createTeamKey} from '../../dist/src/operations/team.js'
import {openTeamDb} from '../../dist/src/storage/postgres/index.js'
import {RepoStore} from '../../dist/src/storage/repo-store.js'
import {freePort, startCluster, stopCluster} from '../../scripts/pg-cluster.mjs'
import {pgAdmin} from './lib/pg.mjs'
import {loadEvalSet, syntheticMemories} from './lib/corpus.mjs'
import {seedRepo} from './lib/seed.mjs'
import {BIN, fmt, median, percentile, startServe, tempRepo} from './lib/util.mjs'

const SIZE = Number(process.env.MEM_BENCH_SIZE ?? 10_000)
const SECONDS = Number(process.env.MEM_BENCH_SECONDS ?? 5)
const ROUNDS = Number(process.env.MEM_BENCH_ROUNDS ?? 3)
const STORES = Number(process.env.MEM_BENCH_STORES ?? 1_000)
const TEAM_REPO = 'github.com/bench/app'
/** The repos of the one-replica and nginx rows (each row stores into its own, seeded alike). */
const ONE_REPO = 'github.com/bench/one'
const ROUTED_REPO = 'github.com/bench/routed'
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ')

function cannon(options) {
  return new Promise((resolve, reject) => {
    const times = []
    const instance = autocannon(options, (err, result) => (err ? reject(err) : resolve({result, times})))
    instance.on('response', (_client, _status, _bytes, ms) => times.push(ms))
  })
}


/**
 * The same synthetic memories seedRepo gives the local store, under the team repo's id, through a
 * replica store (500 a record; 200 with vectors). `vectors` ({model, dims}): each memory also gets a vector op of
 * that model, a random unit vector (what it costs to load does not depend on its numbers).
 */
export async function seedTeam(db, count, {start = Date.parse('2025-06-01T00:00:00Z'), repo = TEAM_REPO, vectors} = {}) {
  const segment = repo.replaceAll('/', '~')
  const store = await RepoStore.open(mkdtempSync(join(os.tmpdir(), 'mem-bench-seed-')), {replica: db.replica('bench', repo, {actor: 'seed'})})
  await store.sync()
  const all = syntheticMemories(count)
  // a record holds at most 1 MiB of JSON: 500 memories, or 200 with their vectors
  const per = vectors ? 200 : 500
  for (let i = 0; i < all.length; i += per) {
    const ops = all.slice(i, i + per).map((m, j) => {
      const createdAt = new Date(start + (i + j) * 60_000).toISOString()
      const key = createHash('sha256').update(m.content + createdAt).digest('hex').slice(0, 12)
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
    if (vectors) {
      for (const {memory} of [...ops]) ops.push({op: 'vector', id: memory.id, model: vectors.model, dims: vectors.dims, vector: randomUnitVector(vectors.dims), at: memory.createdAt})
    }
    await store.write(() => ({ops, result: null}))
  }
  await store.checkpoint() // the snapshot a cold replica opens from
  await store.close()
}

/** A new database on the Postgres at `server` with team `bench` and a write key of it: its URL, the team store and the key. */
export async function benchTeam(server, what) {
  const name = `mem_bench_${what}_${Date.now().toString(36)}`
  await pgAdmin(server, `CREATE DATABASE ${name}`)
  const url = new URL(server)
  url.pathname = `/${name}`
  const db = await openTeamDb({url: url.href, shown: 'bench', max: 2})
  const call = {now: new Date(), actor: 'bench'}
  await createTeam(db, {name: 'bench'}, call)
  const key = (await createTeamKey(db, {name: 'bench', team: 'bench', scope: 'write'}, call)).key
  return {storeUrl: url.href, db, key}
}

/** A random unit vector of `dims` numbers as a vector op carries it (little-endian Float32, base64). */
function randomUnitVector(dims) {
  const v = new Float32Array(dims).map(() => Math.random() - 0.5)
  const norm = Math.hypot(...v)
  return Buffer.from(v.map((x) => x / norm).buffer).toString('base64')
}

export function startReplica(home, storeUrl) {
  const child = spawn(process.execPath, [BIN, 'serve', '--store', storeUrl, '--port', '0', '--json'], {
    env: {...process.env, MEM_HOME: home, MEM_STORE: '', MEM_REPO: ''},
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)))
  const started = new Promise((resolve, reject) => {
    createInterface({input: child.stdout}).once('line', (line) => resolve(JSON.parse(line)))
    child.once('exit', (code) => reject(new Error(`mem serve --store exited ${code}`)))
  })
  return {child, started, exited}
}

/** nginx in front of the replicas, hashing on the repo as docs/team.md's configuration does; null without nginx. */
async function startNginx(upstreams) {
  const bin = process.env.MEM_BENCH_NGINX || spawnSync('sh', ['-c', 'command -v nginx || ls /usr/sbin/nginx'], {encoding: 'utf8'}).stdout.trim().split('\n')[0]
  if (!bin) return null
  const dir = mkdtempSync(join(os.tmpdir(), 'mem-bench-nginx-'))
  const port = await freePort()
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${join(dir, t)};`).join(' ')
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1; daemon off; pid ${join(dir, 'nginx.pid')}; error_log ${join(dir, 'error.log')};
events { worker_connections 1024; }
http {
  access_log off; ${temp}
  map $http_x_mem_repo $mem_repo { "" $arg_repo; default $http_x_mem_repo; }
  upstream mem_replicas { hash $mem_repo consistent; ${upstreams.map((u) => `server ${new URL(u).host};`).join(' ')} keepalive 16; }
  server {
    listen 127.0.0.1:${port};
    location / { proxy_pass http://mem_replicas; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host $http_host; }
  }
}
`,
  )
  const child = spawn(bin, ['-c', join(dir, 'nginx.conf'), '-p', dir], {stdio: ['ignore', 'ignore', 'inherit']})
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)))
  const api = `http://127.0.0.1:${port}`
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${api}/api/health`)).ok) return {child, exited, api, version: spawnSync(bin, ['-v'], {encoding: 'utf8'}).stderr.trim()}
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  child.kill('SIGTERM')
  throw new Error(`nginx did not answer on ${api}: ${readFileSync(join(dir, 'error.log'), 'utf8').slice(-500)}`)
}

/** STORES durable stores from 4 clients spread over `targets` ({api, repo, headers}); answers the rate and acknowledged ids. */
async function stores(targets, texts, tag) {
  const acknowledged = []
  let serial = 0
  const per = 4 / targets.length
  // timed to the last answer: autocannon ends a run of `amount` requests on its next 1 s tick
  const t0 = performance.now()
  let last = t0
  const runs = await Promise.all(
    targets.map((t) =>
      cannon({
        url: t.api,
        connections: per,
        amount: STORES / targets.length,
        requests: [
          {
            method: 'POST',
            path: '/api/mem',
            headers: {'content-type': 'application/json', ...t.headers},
            setupRequest: (req) => {
              const m = texts[serial++ % texts.length]
              return {...req, body: JSON.stringify({repo: t.repo, type: m.type, content: `${m.content} [${tag} ${serial}]`, tags: m.tags, importance: m.importance})}
            },
            onResponse: (status, body) => {
              last = performance.now()
              if (status === 201) acknowledged.push(JSON.parse(body).id)
            },
          },
        ],
      }),
    ),
  )
  const seconds = (last - t0) / 1000
  const errors = runs.reduce((n, r) => n + r.result.errors + r.result.timeouts + r.result.non2xx, 0)
  return {perSec: acknowledged.length / seconds, acknowledged, errors, p95: percentile(runs.flatMap((r) => r.times), 95)}
}

async function recall(target, questions) {
  let n = 0
  const r = await cannon({
    url: target.api,
    connections: 1,
    duration: SECONDS,
    requests: [{method: 'GET', headers: target.headers, setupRequest: (req) => ({...req, path: `/api/mem/recall?repo=${encodeURIComponent(target.repo)}&q=${encodeURIComponent(questions[n++ % questions.length])}`})}],
  })
  return {p50: percentile(r.times, 50), p95: percentile(r.times, 95), errors: r.result.errors + r.result.non2xx + r.result.timeouts}
}

export async function benchTeamServe() {
  console.log(`\n## Team mode (mem serve --store, 2 replicas) vs local mem serve: ${SIZE.toLocaleString('en-US')} memories, ${ROUNDS} rounds of ${STORES.toLocaleString('en-US')} stores a row, recall for ${SECONDS} s (load ${load()})`)
  const given = process.env.MEM_BENCH_PG_URL
  const cluster = given ? undefined : await startCluster()
  const server = given ?? cluster.url
  const processes = []
  try {
    const {storeUrl, db, key} = await benchTeam(server, 'serve')

    // the same 10k memories both ways
    const {root, home} = tempRepo('team-serve')
    mkdirSync(home, {recursive: true})
    // the meaning model off on both sides: the default (the built-in model) would embed the 10k
    // memories in the background for the whole run, taking the cores from both sides
    writeFileSync(join(home, 'config.yaml'), 'update:\n  check: false\nmeaning:\n  model: off\n')
    let t = performance.now()
    await seedRepo(root, SIZE)
    const localSeed = performance.now() - t
    t = performance.now()
    await seedTeam(db, SIZE)
    console.log(`seeded: local ${fmt(localSeed / 1000)} s, team ${fmt((performance.now() - t) / 1000)} s (${SIZE / 500} records of 500 memories, then a snapshot)`)
    for (const repo of [ONE_REPO, ROUTED_REPO]) await seedTeam(db, SIZE, {repo})

    const local = startServe(home, root)
    processes.push(local)
    const replicaHomes = [0, 1].map(() => {
      const h = mkdtempSync(join(os.tmpdir(), 'mem-bench-replica-'))
      // word recall, as the local server above (a replica's default is the built-in model, as a local store's)
      writeFileSync(join(h, 'config.yaml'), 'update:\n  check: false\nmeaning:\n  model: off\n')
      return h
    })
    const a = startReplica(replicaHomes[0], storeUrl)
    const b = startReplica(replicaHomes[1], storeUrl)
    processes.push(a, b)
    const auth = {authorization: `Bearer ${key}`}
    const L = {api: (await local.started).api, repo: root, headers: {}}
    const A = {api: (await a.started).api, repo: TEAM_REPO, headers: auth}
    const B = {api: (await b.started).api, repo: TEAM_REPO, headers: auth}
    const questions = loadEvalSet().questions.map((q) => q.q)
    const nginx = await startNginx([A.api, B.api])
    if (nginx) processes.push(nginx)
    // what the project's client sends (MemClient: X-Mem-Repo), through nginx routing on it
    const N = nginx ? {api: nginx.api, repo: ROUTED_REPO, headers: {...auth, 'x-mem-repo': ROUTED_REPO}} : null
    console.log(nginx ? `nginx: ${nginx.version}, routing on X-Mem-Repo over both replicas (${nginx.api})` : 'nginx: not installed, no row through a balancer')

    // cold: the first recall a replica answers on the 10k repo (snapshot + ops from Postgres, the index built)
    const cold = []
    for (const target of [A, B]) {
      const t0 = performance.now()
      const res = await fetch(`${target.api}/api/mem/recall?repo=${encodeURIComponent(TEAM_REPO)}&q=database`, {headers: auth})
      cold.push(performance.now() - t0)
      if (res.status !== 200) throw new Error(`cold recall answered ${res.status}: ${await res.text()}`)
    }
    const tl = performance.now()
    await fetch(`${L.api}/api/mem/recall?repo=${encodeURIComponent(root)}&q=database`)
    const coldLocal = performance.now() - tl
    console.log(`cold first recall on ${SIZE.toLocaleString('en-US')} memories: replica A ${fmt(cold[0])} ms, replica B ${fmt(cold[1])} ms; local mem serve ${fmt(coldLocal)} ms (load ${load()})`)

    // warm-up both ways
    await recall(L, questions)
    await recall(A, questions)

    const texts = syntheticMemories(100_000, 4242)
    const rows = {localStores: [], teamStores: [], oneStores: [], routedStores: [], localP95: [], teamP95: [], localStoreP95: [], teamStoreP95: []}
    const teamAcked = []
    let errors = 0
    for (let round = 0; round < ROUNDS; round++) {
      const ls = await stores([L], texts, `local-${round}`)
      const ts = await stores([A, B], texts, `team-${round}`)
      teamAcked.push(...ts.acknowledged)
      // the same 4 clients on one replica: a repo's requests routed to one replica (docs/team.md)
      const one = await stores([{...(round % 2 ? B : A), repo: ONE_REPO}], texts, `one-${round}`)
      teamAcked.push(...one.acknowledged)
      rows.oneStores.push(one.perSec)
      const routed = N ? await stores([N], texts, `routed-${round}`) : null
      if (routed) {
        teamAcked.push(...routed.acknowledged)
        rows.routedStores.push(routed.perSec)
        errors += routed.errors
      }
      const lr = await recall(L, questions)
      const tr = await recall(round % 2 ? B : A, questions)
      errors += ls.errors + ts.errors + one.errors + lr.errors + tr.errors
      rows.localStores.push(ls.perSec)
      rows.teamStores.push(ts.perSec)
      rows.localStoreP95.push(ls.p95)
      rows.teamStoreP95.push(ts.p95)
      rows.localP95.push(lr.p95)
      rows.teamP95.push(tr.p95)
      console.log(
        `round ${round + 1}: stores/s local ${fmt(ls.perSec, 0)} team ${fmt(ts.perSec, 0)} (p95 ${fmt(ls.p95)} / ${fmt(ts.p95)} ms), one replica ${fmt(one.perSec, 0)}${routed ? `, through nginx ${fmt(routed.perSec, 0)}` : ''}; ` +
          `recall p50 local ${fmt(lr.p50)} team ${fmt(tr.p50)} ms, p95 local ${fmt(lr.p95)} team ${fmt(tr.p95)} ms (load ${load()})`,
      )
    }
    const ms = (k) => median(rows[k])
    console.log(`median  durable stores/s (4 clients): local ${fmt(ms('localStores'), 0)}, team over 2 replicas ${fmt(ms('teamStores'), 0)} (${fmt(ms('teamStores') / ms('localStores'), 2)}×; target ≥ 0.5×)`)
    console.log(`median  durable stores/s (4 clients on one replica, the repo routed to it): ${fmt(ms('oneStores'), 0)} (${fmt(ms('oneStores') / ms('localStores'), 2)}× the local)`)
    if (rows.routedStores.length > 0) console.log(`median  durable stores/s (4 clients through nginx routing on X-Mem-Repo, both replicas behind it): ${fmt(ms('routedStores'), 0)} (${fmt(ms('routedStores') / ms('localStores'), 2)}× the local)`)
    console.log(`median  HTTP recall p95 (1 connection): local ${fmt(ms('localP95'))} ms, team ${fmt(ms('teamP95'))} ms (${fmt(ms('teamP95') / ms('localP95'), 2)}×; target ≤ 2×)`)
    console.log(`errors  ${errors} (non-2xx, timeouts, socket errors) in all rounds`)

    // every acknowledged team store, read back through the replica that did not necessarily write it
    let missing = 0
    for (const id of teamAcked) {
      const res = await fetch(`${B.api}/api/mem/${encodeURIComponent(id)}`, {headers: auth})
      if (res.status !== 200) missing++
    }
    console.log(`acked   ${teamAcked.length} team stores acknowledged, ${missing} missing when read back through replica B`)

    // cold replicas started one at a time once the others are idle: each one's first recall on the
    // repo as it is after the rounds (the newest snapshot plus the records after it)
    const snap = await db.pg.query("SELECT max(seq) AS seq FROM snapshots WHERE team = 'bench'")
    const head = await db.replica('bench', TEAM_REPO, {actor: 'bench'}).head()
    const colds = []
    for (let i = 0; i < 3; i++) {
      const h = mkdtempSync(join(os.tmpdir(), 'mem-bench-replica-'))
      writeFileSync(join(h, 'config.yaml'), 'update:\n  check: false\nmeaning:\n  model: off\n')
      const c = startReplica(h, storeUrl)
      const C = {api: (await c.started).api}
      const t1 = performance.now()
      const res = await fetch(`${C.api}/api/mem/recall?repo=${encodeURIComponent(TEAM_REPO)}&q=database`, {headers: auth})
      colds.push(performance.now() - t1)
      if (res.status !== 200) throw new Error(`cold recall answered ${res.status}`)
      c.child.kill('SIGKILL') // no snapshot at exit: the next one starts from the same place
      await c.exited
    }
    console.log(
      `cold    a new replica's first recall after the rounds (snapshot at seq ${snap[0].seq}, head ${head}): ${colds.map((c) => fmt(c, 0)).join(', ')} ms, median ${fmt(median(colds), 0)} ms (target ≤ 3 s) (load ${load()})`,
    )
    await db.close()
    return {cold, colds, coldLocal, ...Object.fromEntries(Object.keys(rows).map((k) => [k, ms(k)])), missing, errors}
  } finally {
    for (const p of processes) {
      p.child.kill('SIGTERM')
      await p.exited
    }
    if (cluster) await stopCluster(cluster.dir)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchTeamServe()
