// `mem serve` as a user runs it (the built CLI in its own process), the parity of `mem … --json`
// (in process) with HTTP, and the server's life cycle: other processes' writes, idle checkpoints,
// graceful shutdown.
import {spawn} from 'node:child_process'
import {mkdirSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {createInterface} from 'node:readline'
import {describe, expect, it, onTestFinished} from 'vitest'
import {MemClient} from '../../../src/client/index.js'
import {openMem} from '../../../src/runtime/open-mem.js'
import {startServer} from '../../../src/faces/server/serve.js'
import {BIN, runCli, runCliInProcess} from '../../helpers/cli.js'
import {tempDir} from '../../helpers/mem.js'
import {eventually, fakeRegistry, rawRequest} from '../../helpers/server.js'

function setup() {
  const base = tempDir()
  const root = join(base, 'app')
  const home = join(base, 'home')
  mkdirSync(join(root, '.git'), {recursive: true})
  mkdirSync(home, {recursive: true})
  writeFileSync(join(home, 'config.yaml'), 'update:\n  check: false\n')
  const mem = (args: string[], input?: string) => runCliInProcess(args, {cwd: root, home, input})
  const memProcess = (args: string[]) => runCli(args, {cwd: root, home})
  return {base, root, home, mem, memProcess}
}

/**
 * An in-process server over the same MEM_HOME the CLI uses: real clock like the CLI, and long-lived
 * like `mem serve` (so recall goes through the in-process index while the CLI asks the on-disk one).
 */
async function serverFor(home: string, root: string, extra: {idleCheckpointMs?: number} = {}) {
  const runtime = openMem({home, cwd: root, longLived: true})
  const server = await startServer({runtime, port: 0, updateCheck: false, currentRepo: root, ...extra})
  onTestFinished(async () => {
    await server.close()
    await runtime.close()
  })
  const http = async (path: string, init: {method?: string; body?: unknown} = {}) => {
    const r = await rawRequest(`${server.url}${path}`, {
      method: init.method,
      headers: init.body === undefined ? {} : {'content-type': 'application/json'},
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    })
    return {status: r.status, body: r.json()}
  }
  return {runtime, server, http}
}

const journalHeaderOnly = (root: string) => {
  const size = statSync(join(root, '.mem', 'journal')).size
  return size < 64 // a journal of no records holds only its header line
}

describe('parity: `mem … --json` and HTTP give the same body', () => {
  it('for every operation of this issue, over one fixture', async () => {
    const {root, home, mem} = setup()
    const q = encodeURIComponent(root)
    const ids: string[] = []
    for (const [content, type, tags] of [
      ['integration suite: npm run test:int, needs docker running', 'procedure', 'testing,docker'],
      ['Flaky checkout test is quarantined, never retried in CI', 'heuristic', 'testing,ci'],
      ['The cache layer hides slow postgres queries behind a 5 minute TTL', 'insight', 'postgres'],
      ['Deploys go out from main only, tagged by the release script', 'procedure', 'release'],
      ['staging scales to zero at night, first request takes 20 seconds', 'observation', ''],
    ]) {
      const r = await mem(['store', content, '--type', type, ...(tags ? ['--tags', tags] : []), '--json'])
      expect(r.code).toBe(0)
      ids.push(r.json().id)
    }
    const superseding = (await mem(['store', 'Deploys go out from main only, tagged and signed by the release script', '-t', 'procedure', '--supersedes', ids[3], '--json'])).json()

    const {http} = await serverFor(home, root)
    const same = async (args: string[], path: string, init?: {method?: string; body?: unknown}, status = 200) => {
      const cli = await mem([...args, '--json'])
      const web = await http(path, init)
      expect(web.status, path).toBe(status)
      expect(web.body, `${args.join(' ')} vs ${path}`).toEqual(cli.json())
      return web.body
    }

    // reads that show recall counters come first (a recall changes accessCount)
    await same(['get', ids[0]], `/api/mem/${encodeURIComponent(ids[0])}`)
    await same(['get', ids[3]], `/api/mem/${encodeURIComponent(ids[3])}`)
    await same(['browse'], `/api/mem/browse?repo=${q}`)
    await same(['browse', '--skip', '1', '--take', '2', '--type', 'procedure'], `/api/mem/browse?repo=${q}&skip=1&take=2&type=procedure`)
    await same(['stats'], `/api/mem/stats?repo=${q}`)
    await same(['context'], `/api/mem/context?repo=${q}`)
    await same(['context', '--preview', '--tokens', '300'], `/api/mem/context/preview?repo=${q}&tokens=300`)
    await same(['history', superseding.id], `/api/mem/history/${encodeURIComponent(superseding.id)}`)
    await same(['repos'], `/api/mem/repos`)

    // recall: identical but for `score`, whose recency term moves with the clock between the two
    // calls (milliseconds apart); it must agree to 3 decimals, and the order must be the same
    for (const [query, extra, qs] of [
      ['how do I run the integration tests?', [], ''],
      ['testing', ['--limit', '2'], '&limit=2'],
      ['release', ['--type', 'procedure'], '&type=procedure'],
    ] as const) {
      const cli = (await mem(['recall', query, ...extra, '--json'])).json()
      const web = await http(`/api/mem/recall?repo=${q}&q=${encodeURIComponent(query)}${qs}`)
      expect(web.status).toBe(200)
      expect(web.body.results.length).toBeGreaterThan(0)
      const strip = (r: {results: Array<{score: number}>}) => r.results.map(({score: _score, ...rest}) => rest)
      expect(strip(web.body)).toEqual(strip(cli))
      web.body.results.forEach((r: {score: number}, i: number) => expect(r.score).toBeCloseTo(cli.results[i].score, 3))
    }

    // outcomes and errors
    await same(['store', 'integration suite: npm run test:int, needs docker running!', '-t', 'insight'], '/api/mem', {method: 'POST', body: {repo: root, content: 'Integration suite: npm run test:int, needs docker running', type: 'insight'}})
    const token = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'
    await same(['store', `deploy token ${token}`, '-t', 'observation'], '/api/mem', {method: 'POST', body: {repo: root, content: `deploy token ${token}`, type: 'observation'}}, 422)
    await same(['get', 'memories/x/insight/abcdefabcdef'], `/api/mem/${encodeURIComponent('memories/x/insight/abcdefabcdef')}`, undefined, 404)
    await same(['get', 'not-an-id'], `/api/mem/not-an-id`, undefined, 400)
    await same(['recall', 'x', '--limit', '500'], `/api/mem/recall?repo=${q}&q=x&limit=500`, undefined, 400)
    await same(['browse', '--take', '0'], `/api/mem/browse?repo=${q}&take=0`, undefined, 400)
    await same(['store', 'x y', '--type', 'insight', '--importance', '1.5'], '/api/mem', {method: 'POST', body: {repo: root, content: 'x y', type: 'insight', importance: 1.5}}, 400)
    await same(['edit', ids[3], '--importance', '0.2'], `/api/mem/${encodeURIComponent(ids[3])}`, {method: 'PUT', body: {importance: 0.2}}, 409)

    // writes: the same change through each face answers the same body
    await same(['edit', ids[0], '--importance', '0.8'], `/api/mem/${encodeURIComponent(ids[0])}`, {method: 'PUT', body: {importance: 0.8}})
    await same(['feedback', ids[1], '--used'], '/api/mem/feedback', {method: 'POST', body: {memoryId: ids[1], wasUsed: true}})
    const cliForget = (await mem(['forget', ids[2], '--reason', 'fixed', '--json'])).json()
    expect((await http(`/api/mem/${encodeURIComponent(ids[4])}?reason=fixed`, {method: 'DELETE'})).body).toEqual(cliForget)
    await same(['forget', ids[2]], `/api/mem/${encodeURIComponent(ids[4])}`, {method: 'DELETE'}) // both already forgotten
    await same(['get', ids[1]], `/api/mem/${encodeURIComponent(ids[1])}`)
    await same(['stats'], `/api/mem/stats?repo=${q}`)
  })

  it('the server sees what the CLI (another process) wrote meanwhile, without a restart', async () => {
    const {root, home, memProcess} = setup()
    const {server} = await serverFor(home, root)
    const client = new MemClient(server.url)
    expect((await client.stats(root)).total).toBe(0)
    expect(memProcess(['store', 'the nightly job rotates the logs at 03:00 UTC', '-t', 'observation']).code).toBe(0)
    expect((await client.stats(root)).total).toBe(1)
    expect((await client.recall(root, 'when are logs rotated?'))[0].content).toContain('rotates the logs')
    const {id} = await client.store({repo: root, content: 'log rotation keeps 14 days of archives', type: 'insight'})
    expect(memProcess(['get', id!, '--json']).json().content).toBe('log rotation keeps 14 days of archives')
  })

  it('an idle store is checkpointed: the journal is folded into mem.db while serving', async () => {
    const {root, home} = setup()
    const {server} = await serverFor(home, root, {idleCheckpointMs: 150})
    const client = new MemClient(server.url)
    const {id} = await client.store({repo: root, content: 'checkpoint me when idle', type: 'observation'})
    expect(journalHeaderOnly(root)).toBe(false)
    await eventually(() => journalHeaderOnly(root), 5_000)
    const fresh = openMem({home, cwd: root})
    const {get} = await import('../../../src/operations/get.js')
    expect((await get(fresh, {id: id!})).content).toBe('checkpoint me when idle')
    await fresh.close()
  })
})

describe('mem serve (the built CLI)', {timeout: 90_000}, () => {
  function serve(home: string, root: string, args: string[] = []) {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--json', ...args], {
      cwd: root,
      env: {...process.env, MEM_HOME: home, MEM_REPO: '', NO_COLOR: '1'},
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    const lines = createInterface({input: child.stdout})
    const first = new Promise<{api: string; status: string; authEnabled: boolean}>((resolve, reject) => {
      lines.once('line', (line) => resolve(JSON.parse(line)))
      child.once('exit', (code) => reject(new Error(`mem serve exited ${code}: ${stderr}`)))
    })
    lines.on('line', (line) => (stdout += `${line}\n`))
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGKILL')
    })
    return {child, first, exited, output: () => ({stdout, stderr})}
  }

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`listens on a free port, serves, and on ${signal} checkpoints every store and exits 0`, async () => {
      const {root, home, mem} = setup()
      const other = join(root, '..', 'other')
      mkdirSync(join(other, '.git'), {recursive: true})
      const proc = serve(home, root, ['--repo', root])
      const started = await proc.first
      expect(started).toMatchObject({status: 'listening', authEnabled: false, api: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/)})
      expect(started.api).not.toMatch(/:7373$/)
      const client = new MemClient(started.api)
      expect((await client.status()).api).toBe(started.api)
      const a = await client.store({repo: root, content: 'served store one about the build', type: 'insight'})
      const b = await client.store({repo: other, content: 'served store two about the deploy', type: 'procedure'})
      expect((await mem(['store', 'a hook wrote this while serving', '-t', 'observation'])).code).toBe(0)
      expect((await client.stats(root)).total).toBe(2)
      expect(journalHeaderOnly(root)).toBe(false)

      proc.child.kill(signal)
      expect(await proc.exited).toBe(0)
      expect(proc.output().stdout).toMatch(/"status": "stopped"/)
      expect(journalHeaderOnly(root)).toBe(true)
      expect(journalHeaderOnly(other)).toBe(true)
      expect((await mem(['get', a.id!, '--json'])).code).toBe(0)
      expect((await runCliInProcess(['get', b.id!, '--json'], {cwd: other, home})).json().content).toBe('served store two about the deploy')
    })
  }

  it('answers /api/health at once while the update check runs in the background, then reports it', async () => {
    const {root, home} = setup()
    const registry = await fakeRegistry('99.1.0', 1_500)
    writeFileSync(join(home, 'config.yaml'), `# kept\nupdate:\n  registry: ${registry.url}\n`)
    const proc = serve(home, root)
    const {api} = await proc.first
    const client = new MemClient(api)
    const t = performance.now()
    const health = await client.health()
    expect(performance.now() - t).toBeLessThan(1_000)
    expect(health).toMatchObject({status: 'ok', latestVersion: null, updateAvailable: false})
    const later = await eventually(async () => ((await client.health()).latestVersion ? client.health() : undefined), 10_000)
    expect(later).toMatchObject({latestVersion: '99.1.0', updateAvailable: true})
    expect(registry.hits()).toBe(1)
    proc.child.kill('SIGTERM')
    expect(await proc.exited).toBe(0)

    // restarted within the day: the cached answer is used, the registry is not asked again
    const again = serve(home, root)
    const restarted = new MemClient((await again.first).api)
    expect(await restarted.health()).toMatchObject({latestVersion: '99.1.0', updateAvailable: true})
    expect(registry.hits()).toBe(1)
    again.child.kill('SIGTERM')
    expect(await again.exited).toBe(0)
  })

  it('refuses a non-loopback --host while auth is off, and a port in use', async () => {
    const {root, home, memProcess} = setup()
    const lan = memProcess(['serve', '--host', '0.0.0.0', '--port', '0'])
    expect(lan.code).toBe(2)
    expect(lan.stderr).toMatch(/Refusing to listen on 0\.0\.0\.0 while API key auth is off/)
    expect(lan.stderr).toMatch(/mem keys create/)

    const proc = serve(home, root)
    const port = new URL((await proc.first).api).port
    const busy = memProcess(['serve', '--port', port, '--json'])
    expect(busy.code).toBe(69)
    expect(busy.json()).toMatchObject({code: 'unavailable', error: expect.stringMatching(/in use/)})
    proc.child.kill('SIGTERM')
    await proc.exited
  })

  it('mem keys: create prints the key once, list never shows it, revoke removes it', async () => {
    const {mem, home, root} = setup()
    const created = await mem(['keys', 'create', 'agent', '--scope', 'write', '--json'])
    expect(created.code).toBe(0)
    const key = created.json()
    expect(key).toMatchObject({name: 'agent', scope: 'write', authEnabled: true, turnedAuthOn: true, key: expect.stringMatching(/^mem_[A-Za-z0-9_-]{43}$/)})
    const human = await mem(['keys', 'create', 'viewer', '--scope', 'read'])
    expect(human.stdout.split('\n')[0]).toMatch(/^mem_[A-Za-z0-9_-]{43}$/)

    const list = await mem(['keys', 'list', '--json'])
    expect(list.json()).toEqual({
      authEnabled: true,
      keys: [
        {name: 'agent', scope: 'write', created: expect.any(String), prefix: key.key.slice(0, 10)},
        {name: 'viewer', scope: 'read', created: expect.any(String), prefix: expect.stringMatching(/^mem_/)},
      ],
    })
    const {readFileSync} = await import('node:fs')
    const config = readFileSync(join(home, 'config.yaml'), 'utf8')
    expect(config).not.toContain(key.key)
    expect(config).toContain('check: false') // other settings kept
    expect((await mem(['keys', 'list'])).stdout).not.toContain(key.key)

    // the key works against a served API; revoked, it does not
    const proc = serve(home, root)
    const {api, authEnabled} = await proc.first
    expect(authEnabled).toBe(true)
    expect((await new MemClient(api, key.key).stats(root)).total).toBe(0)
    expect((await mem(['keys', 'revoke', 'agent', '--json'])).json()).toEqual({revoked: 'agent', remaining: 1, authEnabled: true})
    await expect(new MemClient(api, key.key).stats(root)).rejects.toMatchObject({status: 401})

    expect((await mem(['keys', 'create', 'viewer', '--scope', 'read'])).code).toBe(4)
    expect((await mem(['keys', 'create', 'bad name', '--scope', 'read'])).code).toBe(2)
    expect((await mem(['keys', 'create', 'x', '--scope', 'root'])).code).toBe(2)
    expect((await mem(['keys', 'revoke', 'nobody'])).code).toBe(3)
    proc.child.kill('SIGTERM')
    await proc.exited
  })

  it('serve and keys commands have help with examples and --json', async () => {
    const {mem} = setup()
    for (const cmd of [['serve'], ['keys', 'create'], ['keys', 'list'], ['keys', 'revoke']]) {
      const r = await mem([...cmd, '--help'])
      expect(r.code, cmd.join(' ')).toBe(0)
      expect(r.stdout, cmd.join(' ')).toMatch(/EXAMPLES/)
      expect(r.stdout, cmd.join(' ')).toMatch(/--json/)
    }
  })

  it('commands other than serve do not load fastify: it lives only in the lazily loaded serve chunk', async () => {
    const {readdirSync, readFileSync} = await import('node:fs')
    const dist = join(BIN, '..', '..', 'dist', 'cli')
    const marker = /FST_ERR_INSTANCE_ALREADY_LISTENING/
    expect(readFileSync(join(dist, 'main.js'), 'utf8')).not.toMatch(marker)
    const chunks = readdirSync(join(dist, 'chunks')).filter((f) => marker.test(readFileSync(join(dist, 'chunks', f), 'utf8')))
    expect(chunks.length).toBeGreaterThan(0)
    for (const chunk of chunks) expect(chunk).toMatch(/^serve-/)
  })
})
