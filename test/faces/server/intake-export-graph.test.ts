// intake, the markdown export and the graph over HTTP (client library and raw requests against a
// listening server), with their bad inputs. The same through the CLI: test/faces/cli/intake-export.test.ts;
// through MCP: test/faces/mcp/intake-export-graph.test.ts.
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {MemApiError} from '../../../src/client/index.js'
import {store} from '../../../src/operations/store.js'
import {consolidate} from '../../../src/operations/consolidate.js'
import * as SO from '../../../src/model/shapes/operations.js'
import {ErrorResponse} from '../../../src/model/shapes/common.js'
import {runCliInProcess} from '../../helpers/cli.js'
import {memServer, rawRequest} from '../../helpers/server.js'

const FILES = {
  'AGENTS.md': '# Agents\n\n## Tests\n\n- Always run `npm test` before pushing.\n- Never edit generated files under dist/.\n',
  'package.json': JSON.stringify({name: 'shop', engines: {node: '>=20'}, scripts: {test: 'vitest run', build: 'tsc'}}),
  // npm's lock file: what says the package manager is npm (intake names it on evidence only)
  'package-lock.json': JSON.stringify({name: 'shop', lockfileVersion: 3, requires: true, packages: {}}),
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

describe('HTTP and client: intake, export, graph', () => {
  it('POST /api/mem/intake seeds; GET /api/mem/export is text/markdown; GET /api/mem/graph has the agreed shape', async () => {
    const {client, repo, url, ctx, root} = await memServer({files: FILES})
    const mem = client()
    const first = SO.IntakeResult.parse(await mem.intake(repo))
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
    const g = SO.GraphResult.parse(await mem.graph(repo))
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
