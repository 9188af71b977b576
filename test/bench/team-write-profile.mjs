// Where a team store's time goes (issue 31 item 6, profile before changing): one replica in this
// process over a throwaway Postgres (this machine's packages, fsync on), 200 stores through HTTP,
// one client then four; every statement the pg driver sends is counted and timed (wall time from
// send to answer, so under load it includes waiting for a core). Prints statements per store and
// where their time goes; asserts nothing.
// Run: npm run build && node test/bench/team-write-profile.mjs
import pg from 'pg'
const {startCluster, stopCluster} = await import('../../scripts/pg-cluster.mjs')
const {openTeamDb} = await import('../../dist/src/storage/postgres/index.js')
const {openTeamRuntime} = await import('../../dist/src/runtime/team-store.js')
const {startServer} = await import('../../dist/src/faces/server/serve.js')
const {teamAuth} = await import('../../dist/src/faces/server/team.js')
const {createTeam, createTeamKey} = await import('../../dist/src/operations/team.js')
import {mkdtempSync} from 'node:fs'
import os from 'node:os'
import {join} from 'node:path'
const stats = {n: 0, ms: 0, byKind: {}}
const wrap = (proto) => { const q = proto.query; proto.query = function (text, ...rest) { const kind = (typeof text === 'string' ? text : text?.text ?? '').trim().split(/\s+/).slice(0, 3).join(' '); const t = performance.now(); const note = () => { const d = performance.now() - t; stats.n++; stats.ms += d; const k = stats.byKind[kind] ??= {n: 0, ms: 0}; k.n++; k.ms += d }; const cb = rest.at(-1); if (typeof cb === 'function') { rest[rest.length - 1] = (...a) => { note(); return cb(...a) }; return q.call(this, text, ...rest) } const r = q.call(this, text, ...rest); if (r && typeof r.then === 'function') { return r.finally(() => { const d = performance.now() - t; stats.n++; stats.ms += d; const k = stats.byKind[kind] ??= {n: 0, ms: 0}; k.n++; k.ms += d }) } return r } }
wrap(pg.Client.prototype)
const c = await startCluster()
try {
  const db = await openTeamDb({url: c.url, shown: 'p'})
  const now = new Date(); await createTeam(db, {name: 'acme'}, {now, actor: 'p'})
  const key = (await createTeamKey(db, {name: 'agent', team: 'acme', scope: 'write'}, {now, actor: 'p'})).key
  const rt = openTeamRuntime(db, {home: mkdtempSync(join(os.tmpdir(), 'p-')), replicaName: 'p'})
  const server = await startServer({runtime: rt, port: 0, updateCheck: false, team: teamAuth(db, rt), maintenance: {schedule: false}})
  const post = (i) => fetch(`${server.url}/api/mem`, {method: 'POST', headers: {authorization: `Bearer ${key}`, 'content-type': 'application/json'}, body: JSON.stringify({repo: 'github.com/acme/app', type: 'insight', content: `Fact ${i}: service ${i} needs queue ${i * 7} before the deploy`})}).then((r) => r.status)
  for (let i = 0; i < 20; i++) await post(i)
  for (const mode of ['sequential', '4 clients']) {
    stats.n = 0; stats.ms = 0; stats.byKind = {}
    const N = 200; const t = performance.now()
    if (mode === 'sequential') for (let i = 0; i < N; i++) await post(1000 + i)
    else await Promise.all([0, 1, 2, 3].map(async (k) => { for (let i = 0; i < N / 4; i++) await post(2000 + k * 100 + i) }))
    const wall = performance.now() - t
    console.log(`${mode}: ${N} stores in ${wall.toFixed(0)} ms = ${(N / wall * 1000).toFixed(0)} stores/s; Postgres statements ${stats.n} (${(stats.n / N).toFixed(2)} a store), ${stats.ms.toFixed(0)} ms summed in them (${(stats.ms / N).toFixed(1)} ms a store)`)
    for (const [k, v] of Object.entries(stats.byKind).sort((a, b) => b[1].ms - a[1].ms).slice(0, 8)) console.log(`   ${k.padEnd(28)} ${String(v.n).padStart(5)} × ${(v.ms / v.n).toFixed(2)} ms = ${v.ms.toFixed(0)} ms`)
  }
  await server.close(); await rt.close(); await db.close()
} finally { await stopCluster(c.dir) }
console.log('load', os.loadavg().map((l) => l.toFixed(1)).join(' '))
