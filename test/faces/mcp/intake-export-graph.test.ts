// The MCP tools memory_intake, memory_graph and memory_export answer what HTTP answers
// (test/faces/server/intake-export-graph.test.ts).
import {describe, expect, it} from 'vitest'
import {httpMcpClient} from '../../helpers/mcp.js'
import {memServer} from '../../helpers/server.js'

const FILES = {
  'AGENTS.md': '# Agents\n\n## Tests\n\n- Always run `npm test` before pushing.\n- Never edit generated files under dist/.\n',
  'package.json': JSON.stringify({name: 'shop', engines: {node: '>=20'}, scripts: {test: 'vitest run', build: 'tsc'}}),
  // npm's lock file: what says the package manager is npm (intake names it on evidence only)
  'package-lock.json': JSON.stringify({name: 'shop', lockfileVersion: 3, requires: true, packages: {}}),
  'go.mod': 'module example.com/shop\n\ngo 1.22\n',
}

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
