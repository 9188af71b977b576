// Hostile packs benchmark (issue 19): builds every pack of test/helpers/hostile-packs.mjs, imports
// each through the built code (dist/) in a fresh process, and prints the outcome, the time and the
// peak RSS over the idle process. Three ways in, as a user meets them:
//
//   decode  decodePack() alone: the pack checks, without the store
//   core  packImport() in process (what layer sync and MCP run too)
//   http  POST /api/mem/packs/import to a server in its own process (the figures are the
//         server's), with GET /api/health every 50 ms meanwhile: the slowest health answer is
//         how long the server stopped answering
//   cli   `node bin/run.js pack import FILE`: exit code, wall time, peak RSS (no idle figure: the
//         plain pack's import is printed as the baseline)
//
// A watchdog kills a child whose RSS passes --rss-limit (MB, default 3000) or that runs past
// --timeout (s, default 60), so the figures of the code before the fix can be taken safely.
//
//   npm run build && node --expose-gc test/bench/hostile-packs.mjs [--via core,http,cli] [--only a,b] [--heap-cap MB]
import {spawn} from 'node:child_process'
import {mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {execFileSync} from 'node:child_process'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {BIN, fmt} from './lib/util.mjs'

const HERE = import.meta.filename
const DIST = join(import.meta.dirname, '..', '..', 'dist', 'src')

function arg(name, fallback) {
  const at = process.argv.indexOf(`--${name}`)
  return at > 0 ? process.argv[at + 1] : fallback
}

/** RSS and peak RSS (MB) of a process, from /proc; undefined once it is gone. */
function procMem(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0)
    return {rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024}
  } catch {
    return undefined
  }
}

const mb = () => process.memoryUsage.rss() / 1024 / 1024

function settle() {
  for (let i = 0; i < 3; i++) globalThis.gc?.()
}

/** Resets this process's peak RSS to its current RSS (Linux: clear_refs 5), so VmHWM is the peak from now. */
function resetPeak() {
  writeFileSync('/proc/self/clear_refs', '5')
}

async function child(file, via) {
  const {openMem} = await import(join(DIST, 'runtime', 'open-mem.js'))
  const {packImport} = await import(join(DIST, 'operations', 'pack-import.js'))
  const {stats} = await import(join(DIST, 'operations', 'stats.js'))
  const {loadSqlJs} = await import(join(DIST, 'storage', 'sqljs.js'))
  const base = mkdtempSync(join(tmpdir(), 'mem-bench-hostile-'))
  const root = join(base, 'repo')
  mkdirSync(join(root, '.git'), {recursive: true})
  const home = join(base, 'home')
  const ctx = openMem({home, cwd: root, longLived: true})
  try {
    await stats(ctx, {repo: root})
    await loadSqlJs()
    const bytes = new Uint8Array(readFileSync(file))
    const result = {}
    if (via === 'decode') {
      // the pack checks alone (decodePack), without the store: what reading a pack holds
      const {decodePack} = await import(join(DIST, 'operations', 'pack-import.js'))
      await decodePack(new Uint8Array(readFileSync(join(file, '..', 'plain.mem'))))
      settle()
      const idle = mb()
      resetPeak()
      const t = performance.now()
      const outcome = await decodePack(bytes).then(
        (p) => ({status: 'decoded', detail: `${p.entries.length} entries`, held: p}),
        (e) => ({status: e.code ?? 'crash', detail: String(e.message)}),
      )
      result.ms = performance.now() - t
      result.peakOverIdle = procMem(process.pid).hwm - idle
      settle()
      result.retained = mb() - idle
      result.status = outcome.status
      result.detail = outcome.detail
    } else if (via === 'core') {
      // warm the import path with the plain pack into another repo
      const warm = join(base, 'warm')
      mkdirSync(join(warm, '.git'), {recursive: true})
      await packImport(ctx, {repo: warm, data: new Uint8Array(readFileSync(join(file, '..', 'plain.mem')))})
      settle()
      const idle = mb()
      resetPeak()
      const t = performance.now()
      const outcome = await packImport(ctx, {repo: root, data: bytes}).then(
        (r) => ({status: 'imported', detail: `${r.imported} imported, ${r.skipped} skipped`}),
        (e) => ({status: e.code ?? 'crash', detail: String(e.message)}),
      )
      result.ms = performance.now() - t
      result.peakOverIdle = procMem(process.pid).hwm - idle
      settle()
      result.retained = mb() - idle
      Object.assign(result, outcome)
    } else {
      // the server alone in this process; the client (main) sends the pack from another, and tells
      // this one when to take its idle figure and when to report
      const {startServer} = await import(join(DIST, 'faces', 'server', 'serve.js'))
      const server = await startServer({runtime: ctx, port: 0, updateCheck: false})
      try {
        const warm = join(base, 'warm')
        mkdirSync(join(warm, '.git'), {recursive: true})
        const plain = JSON.stringify({repo: warm, data: readFileSync(join(file, '..', 'plain.mem')).toString('base64')})
        await (await fetch(`${server.url}/api/mem/packs/import`, {method: 'POST', headers: {'content-type': 'application/json'}, body: plain})).text()
        let idle = 0
        await new Promise((resolve) => {
          process.on('message', (m) => {
            if (m === 'idle') {
              settle()
              idle = mb()
              resetPeak()
              process.send('ready')
            } else if (m === 'done') resolve()
          })
          process.send({url: server.url, repo: root})
        })
        result.peakOverIdle = procMem(process.pid).hwm - idle
        settle()
        result.retained = mb() - idle
      } finally {
        await server.close()
      }
    }
    const {browse} = await import(join(DIST, 'operations', 'browse.js'))
    result.written = (await browse(ctx, {repo: root, take: 5})).count
    if (process.send) process.send(result, () => process.disconnect()) // the channel would keep this process alive
    else process.stdout.write(`${JSON.stringify(result)}\n`)
  } finally {
    await ctx.close()
    rmSync(base, {recursive: true, force: true})
  }
}

/** Runs a command under the watchdog; answers its stdout, exit code, time and the highest RSS seen. */
function watched(cmd, args, options, {rssLimit, timeoutS, pidOf = (p) => p.pid, drive}) {
  return new Promise((resolve) => {
    const t = performance.now()
    const p = spawn(cmd, args, {...options, stdio: ['ignore', 'pipe', 'pipe', ...(drive ? ['ipc'] : [])]})
    if (drive) drive(p)
    let stdout = ''
    let stderr = ''
    p.stdout.on('data', (c) => (stdout += c))
    p.stderr.on('data', (c) => (stderr += c))
    let killed = null
    let seen = 0
    const timer = setInterval(() => {
      const m = procMem(pidOf(p))
      if (m) seen = Math.max(seen, m.rss, m.hwm)
      const s = (performance.now() - t) / 1000
      if (!killed && m && m.rss > rssLimit) killed = `killed at ${fmt(m.rss, 0)} MB RSS after ${fmt(s)} s`
      else if (!killed && s > timeoutS) killed = `killed after ${timeoutS} s`
      if (killed) p.kill('SIGKILL')
    }, 20)
    p.on('exit', (code, signal) => {
      clearInterval(timer)
      resolve({stdout, stderr, code, signal, killed, ms: performance.now() - t, seen})
    })
  })
}

/**
 * The client of the http way in: waits for the server process to listen, has it take its idle
 * figure, posts the pack (base64 in JSON, as the client library does) with a health check every
 * 50 ms meanwhile (the slowest answer is how long the server stopped answering anyone), then has
 * it report. `done` gets the server's figures with the client's.
 */
function driveServer(p, file, done) {
  const client = {}
  p.on('message', async (m) => {
    if (m && m.url) {
      client.url = m.url
      client.body = JSON.stringify({repo: m.repo, data: readFileSync(file).toString('base64')})
      p.send('idle')
    } else if (m === 'ready') {
      // a server that dies (out of memory) drops the connections: the watchdog reports the exit
      await exchange().catch(() => undefined)
    } else if (m && typeof m === 'object') {
      const {url: _url, body: _body, ...rest} = client
      done({...m, ...rest})
    }
  })
  async function exchange() {
    const t = performance.now()
    let pending = true
    const answer = fetch(`${client.url}/api/mem/packs/import`, {method: 'POST', headers: {'content-type': 'application/json'}, body: client.body})
      .then(async (r) => ({status: r.status, json: await r.json()}))
      .finally(() => (pending = false))
    answer.catch(() => undefined) // awaited below, unless a health check fails first
    let worst = 0
    while (pending) {
      const th = performance.now()
      await (await fetch(`${client.url}/api/health`)).text()
      worst = Math.max(worst, performance.now() - th)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const r = await answer
    Object.assign(client, {ms: performance.now() - t, healthMs: worst, status: r.status, detail: r.json.error ?? `${r.json.imported} imported, ${r.json.skipped} skipped`})
    p.send('done')
  }
}

/** The pid of the first child of `pid` (the node under /usr/bin/time). */
function firstChild(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0]) || pid
  } catch {
    return pid
  }
}

async function main() {
  const {loadSqlJs} = await import(join(DIST, 'storage', 'sqljs.js'))
  const {entriesChecksum} = await import(join(DIST, 'storage', 'pack-file.js'))
  const {HOSTILE_PACKS, plainPack, BENCH_ONLY_PACKS} = await import('../helpers/hostile-packs.mjs')
  const SQL = await loadSqlJs()
  const only = arg('only')?.split(',')
  const vias = (arg('via') ?? 'core,http,cli').split(',')
  const rssLimit = Number(arg('rss-limit', 3000))
  const timeoutS = Number(arg('timeout', 60))
  const heapCap = arg('heap-cap')
  const dir = mkdtempSync(join(tmpdir(), 'mem-bench-hostile-packs-'))
  try {
    writeFileSync(join(dir, 'plain.mem'), plainPack(SQL, entriesChecksum))
    const all = {...HOSTILE_PACKS, ...(BENCH_ONLY_PACKS ?? {})}
    const names = ['plain', ...Object.keys(all).filter((n) => !only || only.includes(n))]
    for (const name of names) {
      if (name !== 'plain') writeFileSync(join(dir, `${name}.mem`), all[name].build(SQL, entriesChecksum))
    }
    const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
    console.log(`\n== hostile packs (issue 19) == node ${process.version}, load ${load()}${heapCap ? `, --max-old-space-size=${heapCap}` : ''}, watchdog ${rssLimit} MB / ${timeoutS} s`)
    const sizes = Object.fromEntries(readdirSync(dir).map((f) => [f.replace(/\.mem$/, ''), readFileSync(join(dir, f)).length]))
    const nodeArgs = ['--expose-gc', ...(heapCap ? [`--max-old-space-size=${heapCap}`] : [])]
    for (const via of vias) {
      console.log(`\n-- via ${via} --`)
      console.log(`${'pack'.padEnd(26)} ${'size'.padStart(10)}  ${'ms'.padStart(7)}  ${via === 'cli' ? 'peak RSS MB' : 'peak MB over idle'}  ${via === 'http' ? 'health ms  ' : ''}written  outcome`)
      for (const name of names) {
        const file = join(dir, `${name}.mem`)
        let line
        if (via === 'cli') {
          const base = mkdtempSync(join(tmpdir(), 'mem-bench-hostile-cli-'))
          const root = join(base, 'repo')
          execFileSync('git', ['init', '--quiet', root])
          const r = await watched('/usr/bin/time', ['-f', '%M', process.execPath, ...nodeArgs.slice(1), BIN, 'pack', 'import', file, '--repo', root, '--json'], {env: {...process.env, MEM_HOME: join(base, 'home')}}, {rssLimit, timeoutS, pidOf: (p) => firstChild(p.pid)})
          const peak = Number(/(\d+)\s*$/.exec(r.stderr)?.[1] ?? 0) / 1024 || r.seen
          const browse = r.killed ? null : JSON.parse(execFileSync(process.execPath, [BIN, 'browse', '--json', '--repo', root], {env: {...process.env, MEM_HOME: join(base, 'home')}, encoding: 'utf8'})).count
          // --json prints the answer or the error body on stdout; a crash leaves only stderr
          const said = (() => {
            try {
              const body = JSON.parse(r.stdout)
              return body.error ?? JSON.stringify(body)
            } catch {
              return (r.stderr.match(/FATAL ERROR[^\n]*|RangeError[^\n]*/) ?? [r.stderr.split('\n')[0]])[0]
            }
          })()
          const message = r.killed ?? `exit ${r.code}: ${said}`
          line = `${fmt(r.ms, 0).padStart(7)}  ${fmt(peak, 0).padStart(11)}  ${String(browse ?? '?').padStart(7)}  ${message.slice(0, 150)}`
          rmSync(base, {recursive: true, force: true})
        } else {
          let reported = null
          const drive = via === 'http' ? (p) => driveServer(p, file, (out) => (reported = out)) : undefined
          const r = await watched(process.execPath, [...nodeArgs, HERE, '--child', file, via], {}, {rssLimit, timeoutS, drive})
          const out = via === 'http' ? reported : r.stdout.trim() ? JSON.parse(r.stdout.trim().split('\n').pop()) : null
          if (!out) {
            const why = r.killed ?? `crashed (exit ${r.code}${r.signal ? `, ${r.signal}` : ''}): ${(r.stderr.match(/FATAL ERROR[^\n]*|RangeError[^\n]*|Error[^\n]*/) ?? [''])[0]}`
            line = `${fmt(r.ms, 0).padStart(7)}  ${`>=${fmt(r.seen, 0)}`.padStart(17)}  ${via === 'http' ? '           ' : ''}${'?'.padStart(7)}  ${why.slice(0, 150)}`
          } else {
            const health = via === 'http' ? `${fmt(out.healthMs, 0).padStart(9)}  ` : ''
            line = `${fmt(out.ms, 0).padStart(7)}  ${fmt(out.peakOverIdle, 0).padStart(17)}  ${health}${String(out.written).padStart(7)}  ${out.status}: ${out.detail.slice(0, 130)}`
          }
        }
        console.log(`${name.padEnd(26)} ${sizes[name].toLocaleString('en-US').padStart(10)}  ${line}`)
      }
    }
    console.log(`\nload ${load()}`)
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4])
else await main()
