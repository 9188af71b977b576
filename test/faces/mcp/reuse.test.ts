// POST /mcp builds its MCP servers once per repository and tool set and reuses them (issue 17),
// while every request stays on its own: its repository, its tool set, its answer.
import Fastify from 'fastify'
import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import {describe, expect, it, onTestFinished} from 'vitest'
import {mcpRoutes} from '../../../src/faces/mcp/http.js'
import {store} from '../../../src/operations/store.js'
import {openMem} from '../../../src/runtime/open-mem.js'
import {tempDir} from '../../helpers/mem.js'

async function setup() {
  const base = tempDir()
  const ctx = openMem({home: join(base, 'home'), longLived: true})
  onTestFinished(() => ctx.close())
  const repos = ['one', 'two'].map((name) => {
    const root = join(base, name)
    mkdirSync(join(root, '.git'), {recursive: true})
    return root
  })
  await store(ctx, {repo: repos[0], content: 'The first repository deploys with make ship.', type: 'procedure'})
  await store(ctx, {repo: repos[1], content: 'The second repository deploys with a tagged release.', type: 'procedure'})
  const app = Fastify()
  const route = mcpRoutes(app, {ctx, version: '0.0.0'})
  const url = await app.listen({host: '127.0.0.1', port: 0})
  onTestFinished(() => app.close())
  const client = async (query: string) => {
    const c = new Client({name: 't', version: '1'})
    await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp${query}`)))
    onTestFinished(() => c.close())
    return c
  }
  return {repos, route, client}
}

const contents = (r: any) => (r.structuredContent.results as Array<{content: string}>).map((m) => m.content)

describe('POST /mcp reuses its servers', () => {
  it('one server per repository and tool set answers call after call; concurrent calls get one each, each for its own repository', async () => {
    const {repos, route, client} = await setup()
    const one = await client(`?repo=${encodeURIComponent(repos[0])}`)
    for (let i = 0; i < 5; i++) expect(contents(await one.callTool({name: 'memory_recall', arguments: {query: 'how do we deploy'}}))).toEqual(['The first repository deploys with make ship.'])
    // initialize, then five calls, in turn: one server
    expect(route.serversBuilt()).toBe(1)
    const two = await client(`?repo=${encodeURIComponent(repos[1])}`)
    const all = await client(`?repo=${encodeURIComponent(repos[0])}&tools=all`)
    const answers = await Promise.all(
      Array.from({length: 12}, (_, i) => [one, two, all][i % 3].callTool({name: 'memory_recall', arguments: {query: 'how do we deploy'}})),
    )
    answers.forEach((a, i) => expect(contents(a)).toEqual([i % 3 === 1 ? 'The second repository deploys with a tagged release.' : 'The first repository deploys with make ship.']))
    // the lean server does not answer a tool of the full set; the full one does
    await expect(one.callTool({name: 'memory_stats', arguments: {}})).rejects.toThrow(/memory_stats/)
    expect((await all.callTool({name: 'memory_stats', arguments: {}})).structuredContent).toMatchObject({total: 1})
    const built = route.serversBuilt()
    expect(built).toBeGreaterThanOrEqual(3)
    expect(built).toBeLessThanOrEqual(3 + 12)
    // and once the burst is over they are reused again
    for (let i = 0; i < 5; i++) await two.callTool({name: 'memory_recall', arguments: {query: 'deploy'}})
    expect(route.serversBuilt()).toBe(built)
  })
})
