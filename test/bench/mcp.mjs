// MCP benchmark (issue 5): the built `mem serve` in its own process, driven through POST /mcp by
// the SDK's own Client (Streamable HTTP), at 5,000 and 50,000 memories. Durable stores/s (one
// agent calling memory_store in turn: its first 1,000 calls after the server started, and 1,000
// once both processes are warm; then 4 agents at once) and memory_recall latency p50/p95.
// Each figure includes the whole MCP round trip: JSON-RPC, a fresh stateless server per request,
// the core, the fsync'd journal. Prints figures; asserts nothing.
//
// For comparison, the reference MCP memory server (@modelcontextprotocol/server-memory, which
// rewrites its whole JSON file per call) can be measured side by side over stdio: install it
// outside this repo and point MEM_BENCH_REFERENCE at its dist/index.js.
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import {loadEvalSet, syntheticMemories} from './lib/corpus.mjs'
import {seedRepo} from './lib/seed.mjs'
import {fmt, percentile, startServe, tempRepo} from './lib/util.mjs'


async function connect(url) {
  const client = new Client({name: 'mem-bench', version: '1.0.0'})
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  return client
}

async function timed(fn) {
  const t = performance.now()
  const value = await fn()
  return {ms: performance.now() - t, value}
}

/** One agent storing `n` memories in turn; returns stores/s and per-call latencies. */
async function storeRun(clients, texts, n, tag) {
  const times = []
  let stored = 0
  let next = 0
  const t = performance.now()
  await Promise.all(
    clients.map(async (client) => {
      while (next < n) {
        const m = texts[next++]
        const {ms, value} = await timed(() =>
          client.callTool({name: 'memory_store', arguments: {type: m.type, content: `${m.content} [${tag} ${next}]`, tags: m.tags, importance: m.importance}}),
        )
        times.push(ms)
        if (value.isError) throw new Error(`memory_store failed: ${JSON.stringify(value.content)}`)
        if (value.structuredContent.success) stored++
      }
    }),
  )
  return {perSec: n / ((performance.now() - t) / 1000), stored, times}
}

/** One agent storing `n` memories in turn with plain JSON-RPC POSTs (no SDK client). */
async function plainStoreRun(url, texts, n, tag) {
  const http = await import('node:http')
  const target = new URL(url)
  const agent = new http.Agent({keepAlive: true, maxSockets: 1})
  const post = (body) =>
    new Promise((resolve, reject) => {
      const bytes = JSON.stringify(body)
      const req = http.request(
        {host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent,
          headers: {'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(bytes)}},
        (res) => {
          let data = ''
          res.setEncoding('utf8')
          res.on('data', (c) => (data += c))
          res.on('end', () => resolve(JSON.parse(data)))
        },
      )
      req.on('error', reject)
      req.end(bytes)
    })
  const times = []
  let stored = 0
  const t = performance.now()
  for (let i = 0; i < n; i++) {
    const m = texts[i]
    const {ms, value} = await timed(() =>
      post({jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: {name: 'memory_store', arguments: {type: m.type, content: `${m.content} [${tag} ${i}]`, tags: m.tags, importance: m.importance}}}),
    )
    times.push(ms)
    if (value.error || value.result?.isError) throw new Error(`memory_store failed: ${JSON.stringify(value)}`)
    if (value.result.structuredContent.success) stored++
  }
  agent.destroy()
  return {perSec: n / ((performance.now() - t) / 1000), stored, n, times}
}

export async function benchMcp({sizes = [5_000, 50_000], stores = 1_000, warm = 2_000, recalls = 400} = {}) {
  const os = await import('node:os')
  console.log(`\n== MCP over HTTP: POST /mcp on mem serve, the SDK client, stateless transport (load average ${os.loadavg()[0].toFixed(1)}) ==`)
  console.log(`1 agent: its first ${stores.toLocaleString('en-US')} stores after the server started, then ${stores.toLocaleString('en-US')} after ${warm.toLocaleString('en-US')} more (warm: both processes have optimised their code)`)
  console.log('memories | stores/s (1 agent: first / warm) | store p50/p95 (warm) | stores/s (4 agents) | recall p50 / p95 / p99 | stores/s (1 agent, bare JSON-RPC client)')
  const questions = loadEvalSet().questions.map((q) => q.q)
  const rows = []
  for (const size of sizes) {
    const {root, home} = tempRepo(`mcp-${size}`)
    mkdirSync(home, {recursive: true})
    writeFileSync(join(home, 'config.yaml'), 'update:\n  check: false\n')
    await seedRepo(root, size)
    const server = startServe(home, root)
    const {api} = await server.started
    const url = `${api}/mcp`
    // a fresh set of clients per phase: the SDK client's fetch leaves a listener on its transport's
    // abort signal per request (Node 20 warns past 1,500); that is client-side, not the server
    let agents = await Promise.all([0, 1, 2, 3].map(() => connect(url)))
    let [one] = agents
    const refresh = async () => {
      await Promise.all(agents.map((c) => c.close()))
      agents = await Promise.all([0, 1, 2, 3].map(() => connect(url)))
      ;[one] = agents
    }

    // warm-up: the SDK chunk, JIT, the in-process index, the tokenizer
    for (let i = 0; i < 50; i++) await one.callTool({name: 'memory_recall', arguments: {q: questions[i % questions.length]}})
    await one.callTool({name: 'memory_context', arguments: {}})
    const texts = syntheticMemories(stores * 4 + warm + 100, 9000 + size)
    await storeRun([one], texts.slice(0, 50), 50, 'warm')

    await refresh()
    const first = await storeRun([one], texts.slice(100), stores, 'first')
    // A started server and its client run the store path slower for their first few thousand calls
    // (V8 optimising both processes): the steady rate, as the reference's is taken (over its last
    // 1,000 of 5,000 calls), comes after `warm` more stores.
    // in chunks, each with fresh clients: the SDK client leaves an abort listener per call until GC
    for (let done = 0; done < warm; done += 1_000) {
      await refresh()
      await storeRun([one], texts.slice(100 + stores + done), Math.min(1_000, warm - done), 'more')
    }
    await refresh()
    const steady = await storeRun([one], texts.slice(100 + stores + warm), stores, 'steady')
    await refresh()
    const conc = await storeRun(agents, texts.slice(100 + 2 * stores + warm), stores, 'conc')
    await refresh()

    // the same one-agent run with a bare JSON-RPC client (node:http, keep-alive): what the server
    // itself sustains, without the SDK client's own time per call
    const plain = await plainStoreRun(url, texts.slice(100 + 3 * stores + warm), stores, 'plain')

    const recallTimes = []
    for (let i = 0; i < recalls; i++) {
      const {ms, value} = await timed(() => one.callTool({name: 'memory_recall', arguments: {q: questions[i % questions.length]}}))
      if (value.isError) throw new Error('memory_recall failed')
      recallTimes.push(ms)
    }
    await Promise.all(agents.map((c) => c.close()))
    server.child.kill('SIGTERM')
    await server.exited

    const row = {size, first, steady, conc, plain, recallTimes}
    rows.push(row)
    console.log(
      `${size.toLocaleString('en-US').padStart(8)} | ${fmt(first.perSec, 0)} / ${fmt(steady.perSec, 0)} (${first.stored + steady.stored}/${2 * stores} stored) | ${fmt(percentile(steady.times, 50))} / ${fmt(percentile(steady.times, 95))} ms | ` +
        `${fmt(conc.perSec, 0)} | ${fmt(percentile(recallTimes, 50))} / ${fmt(percentile(recallTimes, 95))} / ${fmt(percentile(recallTimes, 99))} ms | ` +
        `${fmt(plain.perSec, 0)} (${plain.stored}/${plain.n}, p50 ${fmt(percentile(plain.times, 50))} ms)`,
    )
  }
  if (process.env.MEM_BENCH_REFERENCE) await benchReference(process.env.MEM_BENCH_REFERENCE, {entities: sizes[0], recalls})
  return rows
}

/**
 * @modelcontextprotocol/server-memory over stdio (its own transport), same machine: one entity per
 * create_entities call up to `entities`, the rate over the last 1,000; then search_nodes p50/p95.
 */
async function benchReference(entry, {entities, recalls}) {
  const {base} = tempRepo('reference')
  const client = new Client({name: 'mem-bench', version: '1.0.0'})
  await client.connect(new StdioClientTransport({command: process.execPath, args: [entry], env: {...process.env, MEMORY_FILE_PATH: join(base, 'memory.jsonl')}, stderr: 'ignore'}))
  const texts = syntheticMemories(entities, 31)
  const last = []
  for (let i = 0; i < entities; i++) {
    const m = texts[i]
    const {ms} = await timed(() =>
      client.callTool({name: 'create_entities', arguments: {entities: [{name: `entity-${i}`, entityType: m.type, observations: [m.content]}]}}),
    )
    if (i >= entities - 1000) last.push(ms)
  }
  const perSec = last.length / (last.reduce((a, b) => a + b, 0) / 1000)
  const questions = loadEvalSet().questions.map((q) => q.q.split(/\s+/).find((w) => w.length > 5) ?? q.q)
  const times = []
  for (let i = 0; i < recalls; i++) times.push((await timed(() => client.callTool({name: 'search_nodes', arguments: {query: questions[i % questions.length]}}))).ms)
  await client.close()
  console.log(
    `reference: @modelcontextprotocol/server-memory (stdio) at ${entities.toLocaleString('en-US')} entities: ${fmt(perSec, 0)} creates/s over the last 1,000; ` +
      `search_nodes p50 ${fmt(percentile(times, 50))} ms, p95 ${fmt(percentile(times, 95))} ms`,
  )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchMcp(process.argv[2] ? {sizes: process.argv[2].split(',').map(Number)} : undefined)
}
