// intake, the markdown export and the graph through every face: CLI (built bin), HTTP (client
// library and raw requests against a listening server) and MCP, with their bad inputs.
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {MemApiError} from '../../src/client/index.js'
import {store} from '../../src/operations/store.js'
import {consolidate} from '../../src/operations/consolidate.js'
import * as SO from '../../src/faces/server/schemas-ops.js'
import {ErrorResponse} from '../../src/faces/server/schemas.js'
import {runCliInProcess} from '../helpers/cli.js'
import {memRepo} from '../helpers/mem.js'
import {httpMcpClient} from '../helpers/mcp.js'
import {memServer, rawRequest} from '../helpers/server.js'

const FILES = {
  'AGENTS.md': '# Agents\n\n## Tests\n\n- Always run `npm test` before pushing.\n- Never edit generated files under dist/.\n',
  'package.json': JSON.stringify({name: 'shop', engines: {node: '>=20'}, scripts: {test: 'vitest run', build: 'tsc'}}),
  'go.mod': 'module example.com/shop\n\ngo 1.22\n',
}

async function apiError(fn: () => Promise<unknown>): Promise<MemApiError> {
  const err = await fn().then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(MemApiError)
  return err as MemApiError
}

describe('mem intake / export (CLI)', () => {
  it('intake prints a summary, --json equals the HTTP body shape; a re-run skips; export writes markdown', async () => {
    const {root, home} = memRepo(FILES)
    const first = await runCliInProcess(['intake'], {cwd: root, home})
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/^Intake of .*: 8 new, 0 skipped\.\n/)
    expect(first.stdout).toMatch(/package\.json\s+4 seeds, 4 new/)

    const again = await runCliInProcess(['intake', '--json'], {cwd: root, home})
    expect(again.code).toBe(0)
    const body = SO.IntakeResponse.parse(again.json())
    expect(body).toMatchObject({newCount: 0, skippedCount: 8, replacedCount: 0})
    expect(body.files.map((f) => f.path)).toEqual(['AGENTS.md', 'package.json', 'go.mod'])

    writeFileSync(join(root, 'go.mod'), 'module example.com/shop\n\ngo 1.23\n')
    expect((await runCliInProcess(['intake', '--json'], {cwd: root, home})).json()).toMatchObject({newCount: 1, replacedCount: 1, skippedCount: 7})

    const md = await runCliInProcess(['export'], {cwd: root, home})
    expect(md.code).toBe(0)
    expect(md.stdout).toMatch(/^# Memories of /)
    expect(md.stdout).toContain('## Procedures (')
    expect(md.stdout).toContain('> Go module example.com/shop, Go 1.23 (go.mod).')
    expect(md.stdout).not.toContain('Go 1.22')
    expect((await runCliInProcess(['export'], {cwd: root, home})).stdout).toBe(md.stdout)

    const out = join(root, 'MEMORIES.md')
    const written = await runCliInProcess(['export', '--out', out, '--json'], {cwd: root, home})
    expect(written.code).toBe(0)
    expect(written.json()).toEqual({repo: expect.any(String), count: 8, out, bytes: Buffer.byteLength(md.stdout)})
    expect(readFileSync(out, 'utf8')).toBe(md.stdout)
  })

  it('bad inputs: an unknown repo id (exit 3), a bad time limit (exit 2), an unwritable --out (exit 2)', async () => {
    const {root, home} = memRepo(FILES)
    const unknown = await runCliInProcess(['intake', '--repo', 'no-such-repo'], {cwd: root, home})
    expect(unknown.code).toBe(3)
    expect(unknown.stderr).toMatch(/^Error: No project directory for repo no-such-repo/)
    expect(unknown.stderr).toMatch(/Hint: Pass the repository by its path/)
    const json = await runCliInProcess(['intake', '--repo', 'no-such-repo', '--json'], {cwd: root, home})
    expect(json.code).toBe(3)
    expect(ErrorResponse.parse(json.json()).code).toBe('not_found')
    expect((await runCliInProcess(['intake', '--time-limit', '0'], {cwd: root, home})).code).toBe(2)
    const badOut = await runCliInProcess(['export', '--out', join(root, 'missing', 'dir', 'x.md')], {cwd: root, home})
    expect(badOut.code).toBe(2)
    expect(badOut.stderr).toMatch(/Cannot write .*x\.md \(ENOENT\)/)
  })
})

describe('HTTP and client: intake, export, graph', () => {
  it('POST /api/mem/intake seeds; GET /api/mem/export is text/markdown; GET /api/mem/graph has the agreed shape', async () => {
    const {client, repo, url, ctx, root} = await memServer({files: FILES})
    const mem = client()
    const first = SO.IntakeResponse.parse(await mem.intake(repo))
    expect(first).toMatchObject({newCount: 8, skippedCount: 0})
    expect(await mem.intake(repo)).toMatchObject({newCount: 0, skippedCount: 8})

    const md = await mem.exportMarkdown(repo)
    expect(md).toMatch(/^# Memories of /)
    const raw = await rawRequest(`${url}/api/mem/export?repo=${encodeURIComponent(repo)}`)
    expect(raw.status).toBe(200)
    expect(raw.headers['content-type']).toBe('text/markdown; charset=utf-8')
    expect(raw.text).toBe(md)
    const doc = (await rawRequest(`${url}/api/openapi.json`)).json()
    expect(Object.keys(doc.paths['/api/mem/export'].get.responses['200'].content)).toEqual(['text/markdown'])
    expect(doc.paths['/api/mem/graph'].get['x-mem-scope']).toBe('read')
    expect(doc.paths['/api/mem/intake'].post['x-mem-scope']).toBe('write')
    // the same document the CLI prints
    expect((await runCliInProcess(['export'], {cwd: root, home: join(root, '..', 'home')})).stdout).toBe(md)

    // an insight from three observations: derived edges
    for (const t of ['The stripe mock starts slowly in CI.', 'Payments e2e times out while the stripe mock warms up.', 'Stripe mock needs 20 s before e2e tests connect.']) {
      await store(ctx, {repo, content: t, type: 'observation', tags: ['stripe']})
    }
    await consolidate(ctx, {repo})
    const g = SO.GraphResponse.parse(await mem.graph(repo))
    expect(g.nodes.length).toBe(12)
    const insight = g.nodes.find((n) => n.type === 'insight')!
    expect(g.edges.filter((e) => e.from === insight.id).map((e) => e.relation)).toEqual(['derived', 'derived', 'derived'])
    expect((await mem.graph(repo, 2)).nodes).toHaveLength(2)
    const viaQuery = (await rawRequest(`${url}/api/mem/graph?repo=${encodeURIComponent(repo)}&limit=5`)).json()
    expect(viaQuery.nodes).toHaveLength(5)
  })

  it('bad inputs answer 400/404 with the error body', async () => {
    const {client, repo, url} = await memServer({files: FILES})
    const mem = client()
    for (const [query, message] of [
      [`repo=${encodeURIComponent(repo)}&limit=abc`, /limit must be a whole number/],
      [`repo=${encodeURIComponent(repo)}&limit=0`, /limit must be 1 to 2000/],
      [`repo=${encodeURIComponent(repo)}&limit=5000`, /limit must be 1 to 2000/],
      ['limit=10', /repo is required/],
    ] as const) {
      const r = await rawRequest(`${url}/api/mem/graph?${query}`)
      expect(r.status, query).toBe(400)
      expect(ErrorResponse.parse(r.json()).error).toMatch(message)
    }
    const unknown = await apiError(() => mem.intake('no-such-repo'))
    expect(unknown.status).toBe(404)
    expect(unknown.code).toBe('not_found')
    expect((await rawRequest(`${url}/api/mem/intake`, {method: 'POST'})).status).toBe(400)
    expect((await rawRequest(`${url}/api/mem/export`)).status).toBe(400)
  })
})

describe('MCP: memory_intake, memory_graph, memory_export', () => {
  it('the tools answer what HTTP answers', async () => {
    const {url, repo, client} = await memServer({files: FILES})
    const mcp = await httpMcpClient(url, {query: `?repo=${encodeURIComponent(repo)}`})
    const intake = (await mcp.callTool({name: 'memory_intake', arguments: {}})) as {isError: boolean; structuredContent: any; content: Array<{text: string}>}
    expect(intake.isError).toBe(false)
    expect(intake.structuredContent).toMatchObject({newCount: 8, skippedCount: 0})
    expect(intake.content[0].text).toMatch(/^Intake: 8 new/)
    const graph = (await mcp.callTool({name: 'memory_graph', arguments: {limit: 3}})) as {structuredContent: any}
    expect(graph.structuredContent).toEqual(await client().graph(repo, 3))
    const exported = (await mcp.callTool({name: 'memory_export', arguments: {}})) as {structuredContent: any; content: Array<{text: string}>}
    expect(exported.content[0].text).toBe(await client().exportMarkdown(repo))
    expect(exported.structuredContent.count).toBe(8)
    const bad = (await mcp.callTool({name: 'memory_graph', arguments: {limit: 0}})) as {isError: boolean; content: Array<{text: string}>}
    expect(bad.isError).toBe(true)
    expect(bad.content[0].text).toMatch(/limit must be 1 to 2000/)
  })
})
