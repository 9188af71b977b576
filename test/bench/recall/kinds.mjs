// Recall latency by query kind (issue 17), through a running `mem serve`: a broad word, one rare
// identifier, a query nothing matches, and a 40-word question, each over HTTP (GET /api/mem/recall,
// a keep-alive node:http client) and over MCP (memory_recall, the SDK's client on POST /mcp, and
// on `mem mcp` over stdio, as agents' hosts start it), at
// 5,000 and 100,000 memories. With MEM_BENCH_REFERENCE pointing at the reference MCP memory
// server's dist/index.js (@modelcontextprotocol/server-memory, installed outside this repo), the
// same queries go to its search_nodes over stdio at 5,000 entities, and the ratio is printed.
// Prints figures; asserts nothing.
//
//   npm run build && node test/bench/recall/kinds.mjs [sizes, e.g. 5000,100000]
import http from 'node:http'
import os from 'node:os'
import {appendFileSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import {loadEvalSet, syntheticMemories} from '../lib/corpus.mjs'
import {seedMemories, seedRepo} from '../lib/seed.mjs'
import {BIN, fmt, percentile, startServe, tempRepo} from '../lib/util.mjs'

const ROUNDS = 200

/** The queries of each kind, 20 distinct ones per kind. */
export function queryKinds() {
  const questions = loadEvalSet().questions.map((q) => q.q)
  const words = questions.join(' ').split(/\s+/)
  return {
    'broad word': ['deploy', 'tests', 'cache', 'build', 'database', 'release', 'config', 'error', 'docker', 'migration', 'timeout', 'retry', 'logging', 'auth', 'api', 'queue', 'worker', 'memory', 'index', 'schema'],
    'rare identifier': Array.from({length: 20}, (_, i) => `OPS-${4800 + i}`),
    'nothing matches': Array.from({length: 20}, (_, i) => `flamingo${i} quartzite pelican${i}`),
    '40-word question': Array.from({length: 20}, (_, i) => words.slice(i * 40, i * 40 + 40).join(' ')),
  }
}

/** One memory per rare identifier, each naming it once. */
function identifierMemories() {
  return Array.from({length: 20}, (_, i) => ({
    type: 'observation',
    content: `OPS-${4800 + i}: the nightly export for tenant ${i} timed out after the schema change`,
    tags: ['incident'],
    importance: 0.5,
    createdAt: new Date(Date.parse('2026-03-01T00:00:00Z') + i * 60_000).toISOString(),
  }))
}

function getter(base) {
  const agent = new http.Agent({keepAlive: true, maxSockets: 1})
  const get = (path) =>
    new Promise((resolve, reject) => {
      http
        .get(`${base}${path}`, {agent}, (res) => {
          let data = ''
          res.setEncoding('utf8')
          res.on('data', (c) => (data += c))
          res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(data)) : reject(new Error(`${res.statusCode} ${data}`))))
        })
        .on('error', reject)
    })
  return {get, close: () => agent.destroy()}
}

async function timeEach(queries, call) {
  for (const q of queries) await call(q) // warm
  const times = []
  let results = 0
  for (let i = 0; i < ROUNDS; i++) {
    const q = queries[i % queries.length]
    const t = performance.now()
    results += await call(q)
    times.push(performance.now() - t)
  }
  return {p50: percentile(times, 50), p95: percentile(times, 95), results: results / ROUNDS}
}

export async function benchRecallKinds(sizes = [5_000, 100_000]) {
  const kinds = queryKinds()
  const rows = []
  let reference = null
  if (process.env.MEM_BENCH_REFERENCE) reference = await referenceRun(process.env.MEM_BENCH_REFERENCE, sizes[0], kinds)
  for (const size of sizes) {
    const {root, home} = tempRepo(`kinds-${size}`)
    mkdirSync(home, {recursive: true})
    writeFileSync(join(home, 'config.yaml'), 'update:\n  check: false\n')
    await seedRepo(root, size - 20)
    await seedMemories(root, identifierMemories())
    const server = startServe(home, root)
    const {api} = await server.started
    const web = getter(api)
    const mcp = new Client({name: 'mem-bench', version: '1.0.0'})
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${api}/mcp`)))
    // `mem mcp` over stdio: how agents' hosts start it (and how the reference server is reached)
    const stdio = new Client({name: 'mem-bench', version: '1.0.0'})
    await stdio.connect(new StdioClientTransport({command: process.execPath, args: [BIN, 'mcp'], cwd: root, env: {...process.env, MEM_HOME: home, MEM_REPO: ''}, stderr: 'ignore'}))
    // warm-up: the index, JIT, the SDK chunk
    for (let i = 0; i < 30; i++) await web.get(`/api/mem/recall?repo=${encodeURIComponent(root)}&q=warm%20up%20${i}`)
    for (const [kind, queries] of Object.entries(kinds)) {
      const viaHttp = await timeEach(queries, async (q) => (await web.get(`/api/mem/recall?repo=${encodeURIComponent(root)}&limit=10&q=${encodeURIComponent(q)}`)).results.length)
      const viaMcp = await timeEach(queries, async (q) => {
        const r = await mcp.callTool({name: 'memory_recall', arguments: {q, limit: 10}})
        if (r.isError) throw new Error(`memory_recall failed: ${JSON.stringify(r.content)}`)
        return r.structuredContent?.results?.length ?? 0
      })
      const viaStdio = await timeEach(queries, async (q) => {
        const r = await stdio.callTool({name: 'memory_recall', arguments: {q, limit: 10}})
        if (r.isError) throw new Error(`memory_recall (stdio) failed: ${JSON.stringify(r.content)}`)
        return r.structuredContent?.results?.length ?? 0
      })
      rows.push({size, kind, http: viaHttp, mcp: viaMcp, stdio: viaStdio, ref: size === sizes[0] ? reference?.[kind] : undefined})
    }
    await stdio.close()
    await mcp.close()
    web.close()
    server.child.kill('SIGTERM')
    await server.exited
  }
  print(rows)
  return rows
}

/** The reference MCP memory server over stdio at `entities` entities: search_nodes per kind. */
async function referenceRun(entry, entities, kinds) {
  const {base} = tempRepo('kinds-reference')
  const file = join(base, 'memory.jsonl')
  // its own file format (one JSON object a line), written directly: creating 5,000 entities one
  // call at a time rewrites the file each time and measures nothing we compare
  const texts = syntheticMemories(entities - 20, 31)
  for (const [i, m] of [...texts, ...identifierMemories()].entries()) {
    appendFileSync(file, `${JSON.stringify({type: 'entity', name: `entity-${i}`, entityType: m.type, observations: [m.content]})}\n`)
  }
  const client = new Client({name: 'mem-bench', version: '1.0.0'})
  await client.connect(new StdioClientTransport({command: process.execPath, args: [entry], env: {...process.env, MEMORY_FILE_PATH: file}, stderr: 'ignore'}))
  const out = {}
  for (const [kind, queries] of Object.entries(kinds)) {
    out[kind] = await timeEach(queries, async (q) => {
      const r = await client.callTool({name: 'search_nodes', arguments: {query: q}})
      return JSON.parse(r.content[0].text).entities.length
    })
  }
  await client.close()
  return out
}

function print(rows) {
  console.log(`\n== recall latency by query kind (issue 17): a running mem serve, ${ROUNDS} calls per kind, limit 10 (load average ${os.loadavg()[0].toFixed(1)}) ==`)
  console.log('memories | query kind        | HTTP p50 / p95     | MCP (HTTP) p50 / p95 | MCP (stdio) p50 / p95 | results | reference MCP server (stdio) p50 / p95 (results) | p95 ÷ reference p95: MCP HTTP / stdio')
  for (const r of rows) {
    const ref = r.ref ? `${fmt(r.ref.p50, 2)} / ${fmt(r.ref.p95, 2)} ms (${fmt(r.ref.results, 1)})` : ''
    console.log(
      `${r.size.toLocaleString('en-US').padStart(8)} | ${r.kind.padEnd(17)} | ${fmt(r.http.p50, 2)} / ${fmt(r.http.p95, 2)} ms`.padEnd(50) +
        ` | ${fmt(r.mcp.p50, 2)} / ${fmt(r.mcp.p95, 2)} ms`.padEnd(23) +
        ` | ${fmt(r.stdio.p50, 2)} / ${fmt(r.stdio.p95, 2)} ms`.padEnd(24) +
        ` | ${fmt(r.http.results, 1).padStart(7)} | ${ref.padEnd(48)} | ${r.ref ? `${fmt(r.mcp.p95 / r.ref.p95, 2)} / ${fmt(r.stdio.p95 / r.ref.p95, 2)}` : ''}`,
    )
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchRecallKinds(process.argv[2] ? process.argv[2].split(',').map(Number) : undefined)
}
