// `mem mcp` over stdio: the built CLI spawned by the SDK's own Client (StdioClientTransport), as an
// MCP client spawns it. Needs `npm run build` first (npm test does it).
import {existsSync, mkdirSync, readFileSync, readdirSync} from 'node:fs'
import {basename, join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {normalizeRepoId} from '../../../src/config/paths.js'
import {BIN, runCliInProcess} from '../../helpers/cli.js'
import {call, stdioMcpClient, text} from '../../helpers/mcp.js'
import {tempDir, writeTree} from '../../helpers/mem.js'
import {openMem} from '../../../src/runtime/open-mem.js'
import {getVector} from '../../../src/storage/vectors.js'

const TOKEN = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'

function setup() {
  const base = tempDir()
  const repo = join(base, 'repo')
  const home = join(base, 'home')
  writeTree(repo, {'.git/HEAD': 'ref: refs/heads/main\n', 'README.md': '# app\n'})
  return {base, repo, home}
}

describe('mem mcp (stdio)', () => {
  it('lists the tools, answers every tool, and writes nothing but protocol to stdout', async () => {
    const {repo, home} = setup()
    const {client, errors, stderr} = await stdioMcpClient({args: ['--repo', repo], cwd: repo, home})
    expect(client.getInstructions()).toMatch(/memory_context/)
    const {tools} = await client.listTools()
    expect(tools).toHaveLength(23)

    const stored = await call(client, 'memory_store', {content: 'Release builds need NODE_OPTIONS=--max-old-space-size=4096.', type: 'procedure', tags: ['release']})
    expect(stored.structuredContent).toEqual({success: true, id: expect.stringContaining(`memories/${normalizeRepoId(repo)}/procedure/`)})
    const id = stored.structuredContent.id
    expect((await call(client, 'memory_store', {content: 'release builds need NODE_OPTIONS=--max-old-space-size=4096', type: 'procedure'})).structuredContent).toEqual({
      success: false,
      duplicateId: id,
      reason: 'duplicate',
    })
    expect((await call(client, 'memory_recall', {q: 'release build runs out of memory'})).structuredContent.results[0].id).toBe(id)
    expect((await call(client, 'memory_context')).structuredContent.context).toMatch(/^\[Memory: 1 entries/)
    expect((await call(client, 'memory_get', {id})).structuredContent.tags).toEqual(['release'])
    const edited = await call(client, 'memory_edit', {id, content: 'Release builds need NODE_OPTIONS=--max-old-space-size=6144.'})
    const newId = edited.structuredContent.id
    expect(edited.structuredContent.superseded).toBe(id)
    expect((await call(client, 'memory_history', {id: newId})).structuredContent.chain).toHaveLength(2)
    expect((await call(client, 'memory_feedback', {memoryId: newId, wasUsed: true})).structuredContent).toEqual({applied: true})
    expect((await call(client, 'memory_browse')).structuredContent.count).toBe(1)
    expect((await call(client, 'memory_stats')).structuredContent).toMatchObject({repo, total: 1})
    expect((await call(client, 'memory_repos')).structuredContent.repos).toContainEqual({repoId: normalizeRepoId(repo), path: repo, name: basename(repo)})
    expect((await call(client, 'memory_forget', {id: newId, reason: 'moved to CI config'})).structuredContent).toEqual({forgotten: true})

    // errors: the CLI's message and hint, as a tool error
    const bad = await call(client, 'memory_store', {content: 'x y', type: 'insight', importance: 2})
    expect(bad.isError).toBe(true)
    const cli = await runCliInProcess(['store', 'x y', '--type', 'insight', '--importance', '2', '--repo', repo], {cwd: repo, home})
    expect(cli.code).toBe(2)
    expect(`Error: ${text(bad)}\n`).toBe(cli.stderr)
    const secret = await call(client, 'memory_store', {content: `deploy token ${TOKEN}`, type: 'observation'})
    expect(secret.isError).toBe(true)
    expect(JSON.stringify(secret)).not.toContain(TOKEN)
    const missing = await call(client, 'memory_get', {id: 'memories/nope/insight/000000000000'})
    // the session is bound to repo: an id of another repository is not found there
    const cliMissing = await runCliInProcess(['get', 'memories/nope/insight/000000000000', '--repo', repo], {cwd: repo, home})
    expect(cliMissing.stderr).toMatch(/belongs to another repository/)
    expect(`Error: ${text(missing)}\n`).toBe(cliMissing.stderr)

    await client.close()
    // the SDK client saw only protocol messages on stdout; logs went to stderr
    expect(errors).toEqual([])
    expect(stderr()).toContain('mem mcp: serving repository')
    // durable: a one-shot CLI command sees the writes
    expect((await runCliInProcess(['stats', '--json', '--repo', repo], {cwd: repo, home})).json()).toMatchObject({total: 0})
    expect((await runCliInProcess(['get', newId, '--json', '--repo', repo], {cwd: repo, home})).json()).toMatchObject({forgottenAt: expect.any(String), usedCount: 1})
  })

  it('without --repo: the client\'s first file:// root, else the working directory\'s repository', async () => {
    const {base, repo, home} = setup()
    const elsewhere = join(base, 'elsewhere')
    writeTree(elsewhere, {'notes.txt': 'not a repo\n'})

    const viaRoots = await stdioMcpClient({cwd: elsewhere, home, roots: [repo]})
    const a = await call(viaRoots.client, 'memory_store', {content: 'Bound through the client roots.', type: 'insight'})
    expect(a.structuredContent.id).toContain(`memories/${normalizeRepoId(repo)}/insight/`)
    expect((await call(viaRoots.client, 'memory_stats')).structuredContent).toMatchObject({repo, total: 1})
    await viaRoots.client.close()
    expect(existsSync(join(repo, '.mem', 'journal')) || existsSync(join(repo, '.mem', 'mem.db'))).toBe(true)

    const sub = join(repo, 'src', 'deep')
    writeTree(sub, {'x.ts': 'export {}\n'})
    const viaCwd = await stdioMcpClient({cwd: sub, home})
    expect((await call(viaCwd.client, 'memory_stats')).structuredContent).toMatchObject({repo, total: 1})
    // a folder that is neither a git work tree nor holds .mem/ is not a repository: refused, nothing made
    const explicit = await call(viaCwd.client, 'memory_stats', {repo: elsewhere})
    expect(explicit.isError).toBe(true)
    expect(text(explicit)).toMatch(/is not a repository/)
    expect(existsSync(join(elsewhere, '.mem'))).toBe(false)
    mkdirSync(join(elsewhere, '.git'))
    expect((await call(viaCwd.client, 'memory_stats', {repo: elsewhere})).structuredContent).toMatchObject({repo: elsewhere, total: 0})
  })

  it('gives what it stored its meaning vectors while the client is idle (the built-in model, in its worker)', async () => {
    const {repo, home} = setup()
    const {client} = await stdioMcpClient({args: ['--repo', repo], cwd: repo, home, env: {MEM_MEANING: 'builtin'}})
    const ids: string[] = []
    for (const content of ['The API returns money as integer cents, never floats', 'App configuration lives in .config/app.json']) {
      ids.push((await call(client, 'memory_store', {content, type: 'procedure'})).structuredContent.id)
    }
    // read from this process (another process's writes reach it through the journal)
    const reader = openMem({home, cwd: repo, meaning: {model: 'off'}})
    const vectors = async () => {
      const handle = await reader.repo(repo, 'read')
      return ids.map((id) => handle.store.read((db) => getVector(db, id))?.model ?? null)
    }
    const deadline = Date.now() + 90_000
    while ((await vectors()).includes(null) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250))
    expect(await vectors()).toEqual(['builtin/use-lite-512@0.2.0', 'builtin/use-lite-512@0.2.0'])
    await reader.close()
  })

  it('--print-config prints a stdio or HTTP client config, from the templates', async () => {
    const {repo, home} = setup()
    const stdio = await runCliInProcess(['mcp', '--print-config', '--repo', repo, '--absolute'], {cwd: repo, home})
    expect(stdio.code).toBe(0)
    expect(stdio.json()).toEqual({mcpServers: {mem: {command: process.execPath, args: [BIN, 'mcp', '--repo', repo]}}})
    const portable = await runCliInProcess(['mcp', '--print-config', '--tools', 'all'], {cwd: repo, home})
    expect(portable.json()).toEqual({mcpServers: {mem: {command: 'mem', args: ['mcp', '--tools', 'all']}}})
    const http = await runCliInProcess(['mcp', '--print-config', '--transport', 'http', '--port', '7474'], {cwd: repo, home})
    expect(http.json()).toEqual({mcpServers: {mem: {type: 'http', url: `http://127.0.0.1:7474/mcp?repo=${encodeURIComponent(repo)}`}}})
    expect((await runCliInProcess(['keys', 'create', 'agent', '--scope', 'write'], {cwd: repo, home})).code).toBe(0)
    const withAuth = await runCliInProcess(['mcp', '--print-config', '--transport', 'http'], {cwd: repo, home})
    expect(withAuth.json().mcpServers.mem).toEqual({type: 'http', url: `http://127.0.0.1:7373/mcp?repo=${encodeURIComponent(repo)}`, headers: {Authorization: 'Bearer ${MEM_API_KEY}'}})
    expect(withAuth.stdout).not.toMatch(/mem_[A-Za-z0-9_-]{43}/)
  })

  it('other commands never load the MCP SDK (it is only in lazily imported chunks)', () => {
    const dist = join(import.meta.dirname, '..', '..', '..', 'dist', 'cli')
    const staticImports = (file: string) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:^|;)\s*import\s*(?:[^'";]*?from\s*)?["'](\.\.?\/[^"']+)["']/gm)].map((m) => join(file, '..', m[1]))
    // the SDK's latest protocol version: a string no other dependency carries
    const SDK_MARK = '2025-11-25'
    const seen = new Set<string>()
    const queue = [join(dist, 'main.js')]
    while (queue.length) {
      const file = queue.pop()!
      if (seen.has(file)) continue
      seen.add(file)
      queue.push(...staticImports(file))
    }
    expect(seen.size).toBeGreaterThan(1)
    for (const file of seen) expect(readFileSync(file, 'utf8').includes(SDK_MARK), file).toBe(false)
    // ...and the SDK is in the bundle, in a chunk of its own
    const chunks = readdirSync(join(dist, 'chunks')).filter((f) => f.endsWith('.js'))
    expect(chunks.some((f) => readFileSync(join(dist, 'chunks', f), 'utf8').includes(SDK_MARK))).toBe(true)
  })
})
