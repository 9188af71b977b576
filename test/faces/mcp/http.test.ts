import {basename} from 'node:path'
import {mkdirSync} from 'node:fs'
// MCP over HTTP: the SDK's own Client with its Streamable HTTP transport against a real listening
// `mem serve` (POST /mcp). Every tool, its error cases, repo binding, auth, and parity with the
// HTTP API on the same fixture.
import {McpError} from '@modelcontextprotocol/sdk/types.js'
import {describe, expect, it} from 'vitest'
import {createKey} from '../../../src/config/api-keys.js'
import {store} from '../../../src/operations/store.js'
import {TOOLS} from '../../../src/faces/mcp/catalog.js'
import * as S from '../../../src/model/shapes/index.js'
import {call, httpMcpClient, text} from '../../helpers/mcp.js'
import {memServer, rawRequest} from '../../helpers/server.js'

const TOKEN = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'
const TOOL_NAMES = ['memory_context', 'memory_recall', 'memory_store', 'memory_feedback', 'memory_get', 'memory_edit', 'memory_forget', 'memory_history', 'memory_browse', 'memory_stats', 'memory_repos', 'memory_intake', 'memory_graph', 'memory_export', 'memory_layers', 'memory_layer_sync', 'memory_links', 'memory_link_repo', 'memory_link', 'memory_unlink', 'memory_quality', 'memory_usage', 'memory_enrich']

/** A raw HTTP API call: status and the JSON body exactly as served. */
async function api(url: string, method: string, path: string, body?: unknown) {
  const r = await rawRequest(`${url}${path}`, {
    method,
    headers: body === undefined ? {} : {'content-type': 'application/json'},
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return {status: r.status, body: r.json()}
}

describe('MCP over HTTP (POST /mcp)', () => {
  it('initialize carries instructions; tools/list shows the catalog with the core schemas', async () => {
    const {url} = await memServer()
    const client = await httpMcpClient(url)
    expect(client.getServerVersion()).toMatchObject({name: 'mem', version: expect.stringMatching(/^\d+\.\d+\.\d+/)})
    const instructions = client.getInstructions() ?? ''
    expect(instructions).toMatch(/memory_context/)
    expect(instructions).toMatch(/memory_store/)
    expect(instructions).toMatch(/memory_feedback/)

    const {tools} = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES)
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeGreaterThan(80)
      expect(t.inputSchema.type).toBe('object')
      expect(t.outputSchema?.type).toBe('object')
      expect(t.annotations?.readOnlyHint).toBeTypeOf('boolean')
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]))
    // the core's store schema: content and type required, repo optional (the session binds it)
    expect(byName.memory_store.inputSchema.required).toEqual(['content', 'type'])
    expect((byName.memory_store.inputSchema.properties as any).type.enum).toEqual(['observation', 'insight', 'procedure', 'heuristic'])
    expect((byName.memory_store.inputSchema.properties as any).importance).toMatchObject({minimum: 0, maximum: 1, default: 0.5})
    expect((byName.memory_store.inputSchema.properties as any).repo.description).toMatch(/this session's repository/)
    // one argument vocabulary: recall's q shows as query, feedback's memoryId and wasUsed as id and used
    expect(byName.memory_recall.inputSchema.required).toEqual(['query'])
    expect(byName.memory_feedback.inputSchema.required).toEqual(['id', 'used'])
    expect(byName.memory_get.annotations).toMatchObject({readOnlyHint: true})
    expect(byName.memory_forget.annotations).toMatchObject({readOnlyHint: false, destructiveHint: true})
    // every argument of every tool comes from the core's schema (under the vocabulary's name): nothing added, nothing dropped
    for (const def of TOOLS) {
      const toVocab = new Map(Object.entries(def.rename ?? {}).map(([vocab, field]) => [field, vocab]))
      const fields = Object.keys((def.op.input as unknown as {shape: object}).shape).map((f) => toVocab.get(f) ?? f)
      expect(Object.keys(byName[def.name].inputSchema.properties ?? {}).sort(), def.name).toEqual(fields.sort())
    }
  })

  it('memory_store of another value of a stored memory\'s subject names what it updates', async () => {
    const {url, repo} = await memServer()
    const client = await httpMcpClient(url, {query: `?repo=${encodeURIComponent(repo)}`})
    const port = await call(client, 'memory_store', {content: 'The API dev server listens on port 3000', type: 'procedure'})
    const newer = await call(client, 'memory_store', {content: 'The API dev server listens on port 3100', type: 'procedure'})
    expect(newer.structuredContent).toEqual({success: true, id: expect.any(String), updates: [{id: port.structuredContent.id, reason: '3000 → 3100'}]})
    expect(text(newer)).toContain(`It looks like an update of ${port.structuredContent.id as string} (3000 → 3100)`)
    expect(text(newer)).toContain('supersedes')
  })

  it('every tool: store, duplicate, recall, context, get, edit, history, feedback, forget, browse, stats, repos', async () => {
    const {url, repo} = await memServer()
    const client = await httpMcpClient(url, {query: `?repo=${encodeURIComponent(repo)}`})

    const stored = await call(client, 'memory_store', {content: 'Integration tests need Docker running: start it with `colima start`.', type: 'procedure', tags: ['Tests', 'docker']})
    expect(stored.isError).toBe(false)
    expect(stored.structuredContent).toEqual({success: true, id: expect.stringMatching(/^memories\/[^/]+\/procedure\/[0-9a-f]{12}$/)})
    const id = stored.structuredContent.id as string
    expect(text(stored)).toBe(`Stored ${id}.`)

    const dup = await call(client, 'memory_store', {content: 'integration tests need docker running: start it with `colima start`', type: 'insight'})
    expect(dup.isError).toBe(false)
    expect(dup.structuredContent).toEqual({success: false, duplicateId: id, reason: 'duplicate'})
    expect(text(dup)).toContain(id)

    await call(client, 'memory_store', {content: 'The checkout test is flaky under load; rerun it once before investigating.', type: 'heuristic'})

    const recalled = await call(client, 'memory_recall', {q: 'how do I run the integration tests?'})
    expect(recalled.isError).toBe(false)
    const results = recalled.structuredContent.results
    expect(results[0]).toMatchObject({id, type: 'Procedure', tags: ['tests', 'docker']})
    S.RecallResult.parse(recalled.structuredContent)
    expect(text(recalled)).toContain('colima start')
    expect(text(recalled)).toContain(id)

    const context = await call(client, 'memory_context')
    expect(context.structuredContent.context).toMatch(/^\[Memory: 2 entries, 0 observations, 0 insights, 1 procedures, 1 heuristics\]/)
    expect(text(context)).toBe(context.structuredContent.context)

    const got = await call(client, 'memory_get', {id})
    expect(S.MemoryEntry.parse(got.structuredContent)).toMatchObject({id, type: 'procedure', tags: ['tests', 'docker']})
    expect(text(got)).toContain('colima start')

    const edited = await call(client, 'memory_edit', {id, content: 'Integration tests need Docker running: start it with `colima start --cpu 4`.'})
    expect(edited.structuredContent).toEqual({success: true, id: expect.any(String), superseded: id})
    const newId = edited.structuredContent.id
    expect(text(edited)).toBe(`New version ${newId} supersedes ${id}.`)
    const inPlace = await call(client, 'memory_edit', {id: newId, importance: 0.9})
    expect(inPlace.structuredContent).toEqual({success: true, id: newId, superseded: null})

    const chain = await call(client, 'memory_history', {id})
    expect(chain.structuredContent.chain.map((v: {id: string}) => v.id)).toEqual([newId, id])

    const fb = await call(client, 'memory_feedback', {memoryId: newId, wasUsed: true})
    expect(fb.structuredContent).toEqual({applied: true})
    const fbOld = await call(client, 'memory_feedback', {memoryId: id, wasUsed: true})
    expect(fbOld.structuredContent).toEqual({applied: false})

    const page = await call(client, 'memory_browse', {take: 1})
    expect(S.BrowseResult.parse(page.structuredContent)).toMatchObject({skip: 0, take: 1, count: 2})
    expect(text(page)).toMatch(/memories 1–1 of 2/)

    const forgot = await call(client, 'memory_forget', {id: newId, reason: 'colima is gone'})
    expect(forgot.structuredContent).toEqual({forgotten: true})
    expect((await call(client, 'memory_forget', {id: newId})).structuredContent).toEqual({forgotten: false})

    const counts = await call(client, 'memory_stats')
    expect(counts.structuredContent).toMatchObject({counts: {observation: 0, insight: 0, procedure: 0, heuristic: 1}, total: 1})

    const list = await call(client, 'memory_repos')
    expect(list.structuredContent.repos).toContainEqual({repoId: expect.any(String), path: repo, name: basename(repo)})
    expect(text(list)).toContain(repo)
  })

  it('tool errors carry the message and hint of the CLI and HTTP; a secret is never echoed', async () => {
    const {url, repo, internalErrors} = await memServer()
    const client = await httpMcpClient(url)

    const cases: Array<[string, Record<string, unknown>, string, unknown]> = [
      ['memory_store', {repo, content: 'x y', type: 'fact'}, 'POST /api/mem', {repo, content: 'x y', type: 'fact'}],
      ['memory_store', {repo, content: 'x y', type: 'insight', importance: 2}, 'POST /api/mem', {repo, content: 'x y', type: 'insight', importance: 2}],
      ['memory_store', {repo, type: 'insight'}, 'POST /api/mem', {repo, type: 'insight'}],
      ['memory_recall', {repo, q: 'x', limit: 0}, `GET /api/mem/recall?repo=${encodeURIComponent(repo)}&q=x&limit=0`, undefined],
      ['memory_get', {id: 'not-an-id'}, 'GET /api/mem/not-an-id', undefined],
      ['memory_get', {id: 'memories/nope/insight/000000000000'}, `GET /api/mem/${encodeURIComponent('memories/nope/insight/000000000000')}`, undefined],
      ['memory_edit', {id: 'memories/nope/insight/000000000000'}, `PUT /api/mem/${encodeURIComponent('memories/nope/insight/000000000000')}`, {}],
    ]
    for (const [tool, args, route, body] of cases) {
      const result = await call(client, tool, args)
      const [method, path] = route.split(' ')
      const http = await api(url, method, path, body)
      expect(http.status, route).toBeGreaterThanOrEqual(400)
      expect(result.isError, tool).toBe(true)
      expect(result.structuredContent).toBeUndefined()
      expect(text(result), `${tool} ${JSON.stringify(args)}`).toBe(`${http.body.error}${http.body.hint ? `\nHint: ${http.body.hint}` : ''}`)
    }

    // no repo anywhere (no ?repo=, no server default): the core's own message, as over HTTP
    const noRepo = await call(client, 'memory_stats')
    expect(noRepo.isError).toBe(true)
    const httpNoRepo = await api(url, 'GET', '/api/mem/stats')
    expect(httpNoRepo.status).toBe(400)
    expect(text(noRepo)).toBe(`${httpNoRepo.body.error}\nHint: ${httpNoRepo.body.hint}`)
    expect(text(noRepo)).toMatch(/^Invalid repo: .*\nHint: Pass the repository as a path or repo id\.$/)

    const secret = await call(client, 'memory_store', {repo, content: `CI pushes with ${TOKEN}`, type: 'observation'})
    expect(secret.isError).toBe(true)
    expect(text(secret)).toMatch(/^Not stored\. Rejected: .*GitHub token/)
    expect(secret.structuredContent).toEqual({success: false, reason: expect.stringMatching(/^Rejected: /)})
    expect(JSON.stringify(secret)).not.toContain(TOKEN)
    const http = await api(url, 'POST', '/api/mem', {repo, content: `CI pushes with ${TOKEN}`, type: 'observation'})
    expect(secret.structuredContent).toEqual(http.body)
    expect((await call(client, 'memory_stats', {repo})).structuredContent.total).toBe(0)

    // an unknown tool is a protocol error (the tool does not exist), not a tool result
    await expect(client.callTool({name: 'memory_nope', arguments: {}})).rejects.toThrow(McpError)
    expect(internalErrors).toEqual([])
  })

  it('binds the repo: the call\'s repo, else ?repo= on the URL, else the server\'s default', async () => {
    const setup = await memServer()
    const other = setup.base + '/other'
    mkdirSync(other + '/.git', {recursive: true})
    const {url, repo} = await memServer({server: {mcpRepo: setup.repo}})
    const viaDefault = await httpMcpClient(url)
    const a = await call(viaDefault, 'memory_store', {content: 'Default-bound memory about the release train.', type: 'insight'})
    expect(a.structuredContent.success).toBe(true)
    expect((await call(viaDefault, 'memory_stats')).structuredContent).toMatchObject({repo: setup.repo, total: 1})

    const viaQuery = await httpMcpClient(url, {query: `?repo=${encodeURIComponent(repo)}`})
    expect((await call(viaQuery, 'memory_stats')).structuredContent).toMatchObject({repo, total: 0})
    await call(viaQuery, 'memory_store', {repo: other, content: 'Explicit repo wins over the URL binding.', type: 'insight'})
    expect((await call(viaQuery, 'memory_stats', {repo: other})).structuredContent.total).toBe(1)
    expect((await call(viaQuery, 'memory_stats')).structuredContent.total).toBe(0)
  })

  it('GET and DELETE /mcp answer 405 JSON; the SDK client copes (no SSE stream)', async () => {
    const {url} = await memServer()
    for (const method of ['GET', 'DELETE']) {
      const r = await rawRequest(`${url}/mcp`, {method, headers: {accept: 'text/event-stream'}})
      expect(r.status, method).toBe(405)
      expect(r.headers.allow).toBe('POST')
      expect(S.ErrorResponse.parse(r.json())).toMatchObject({code: 'invalid_input', error: expect.stringMatching(/stateless/)})
    }
    // a raw JSON-RPC request without the SDK: plain JSON back
    const r = await rawRequest(`${url}/mcp`, {
      method: 'POST',
      headers: {'content-type': 'application/json', accept: 'application/json, text/event-stream'},
      body: JSON.stringify({jsonrpc: '2.0', id: 7, method: 'tools/list'}),
    })
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toMatch(/application\/json/)
    // without ?tools=all: the lean default set
    expect(r.json().result.tools).toHaveLength(6)
  })

  it('POST /mcp checks what it is sent as the SDK transport does: Accept, Content-Type, JSON-RPC, one initialize alone, the protocol version', async () => {
    const {url} = await memServer()
    const JSON_AND_SSE = 'application/json, text/event-stream'
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      rawRequest(`${url}/mcp`, {method: 'POST', headers: {'content-type': 'application/json', accept: JSON_AND_SSE, ...headers}, body: typeof body === 'string' ? body : JSON.stringify(body)})
    const list = {jsonrpc: '2.0', id: 1, method: 'tools/list'}
    const refused = async (r: Awaited<ReturnType<typeof post>>, status: number, message: RegExp) => {
      expect(r.status).toBe(status)
      expect(r.json()).toMatchObject({jsonrpc: '2.0', id: null, error: {message: expect.stringMatching(message)}})
    }
    await refused(await post(list, {accept: 'application/json'}), 406, /Not Acceptable/)
    // a body that is not JSON is refused before it reaches MCP, as on every route
    const plain = await post(JSON.stringify(list), {'content-type': 'text/plain'})
    expect(plain.status).toBe(400)
    expect(plain.json()).toMatchObject({code: 'invalid_input', hint: expect.stringContaining('application/json')})
    await refused(await post({hello: 'world'}), 400, /Invalid JSON-RPC message/)
    await refused(await post(list, {'mcp-protocol-version': '1999-01-01'}), 400, /Unsupported protocol version/)
    const init = {jsonrpc: '2.0', id: 2, method: 'initialize', params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 't', version: '1'}}}
    await refused(await post([init, list]), 400, /Only one initialization request/)
    // a notification alone: accepted, no body
    const note = await post({jsonrpc: '2.0', method: 'notifications/initialized'})
    expect(note.status).toBe(202)
    // a batch of requests: one answer each, in order; a single request: a single answer
    const batch = await post([list, {jsonrpc: '2.0', id: 'b', method: 'ping'}])
    expect(batch.status).toBe(200)
    expect(batch.json().map((m: {id: unknown}) => m.id)).toEqual([1, 'b'])
    expect((await post(list)).json()).toMatchObject({jsonrpc: '2.0', id: 1, result: {tools: expect.any(Array)}})
  })

  it('auth: /mcp needs a write key (401 without or with an unknown key, 403 with a read key)', async () => {
    const setup = await memServer()
    const now = new Date()
    const read = (await createKey(setup.home, {name: 'reader', scope: 'read', now})).key
    const write = (await createKey(setup.home, {name: 'writer', scope: 'write', now})).key

    await expect(httpMcpClient(setup.url)).rejects.toMatchObject({code: 401})
    await expect(httpMcpClient(setup.url, {apiKey: 'mem_' + 'A'.repeat(43)})).rejects.toMatchObject({code: 401})
    await expect(httpMcpClient(setup.url, {apiKey: read})).rejects.toMatchObject({code: 403})
    const raw = await rawRequest(`${setup.url}/mcp`, {
      method: 'POST',
      headers: {'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${read}`},
      body: JSON.stringify({jsonrpc: '2.0', id: 1, method: 'tools/list'}),
    })
    expect(raw.status).toBe(403)
    expect(raw.json()).toMatchObject({code: 'forbidden', required: 'write'})

    const client = await httpMcpClient(setup.url, {apiKey: write})
    const stored = await call(client, 'memory_store', {repo: setup.repo, content: 'Keys with write scope may use MCP.', type: 'insight'})
    expect(stored.structuredContent.success).toBe(true)
  })

  it('parity: the same fixture through the tools and through the HTTP API gives the same data', async () => {
    const {url, repo, ctx, clock} = await memServer()
    const fixture = [
      {content: 'Run the integration suite with npm run test:int; it needs Docker.', type: 'procedure', tags: ['tests', 'docker']},
      {content: 'The payments service times out when the sandbox is cold; retry once.', type: 'heuristic', tags: ['payments']},
      {content: 'We chose sql.js over better-sqlite3 so installs need no compiler.', type: 'insight', tags: ['storage', 'decision']},
      {content: 'Lint runs on commit through the pre-commit hook.', type: 'observation', tags: []},
    ] as const
    const ids: string[] = []
    for (const m of fixture) {
      const r = await store(ctx, {repo, ...m, tags: [...m.tags]})
      if (!r.success) throw new Error('fixture not stored')
      ids.push(r.id)
      clock.advance(60_000)
    }
    const client = await httpMcpClient(url, {query: `?repo=${encodeURIComponent(repo)}`})
    const q = encodeURIComponent(repo)
    const enc = encodeURIComponent

    // reads that change nothing first (recall records access counts, which get and browse show)
    const pairs: Array<[string, Record<string, unknown>, string]> = [
      ['memory_get', {id: ids[2]}, `/api/mem/${enc(ids[2])}`],
      ['memory_history', {id: ids[0]}, `/api/mem/history/${enc(ids[0])}`],
      ['memory_browse', {take: 3, skip: 1}, `/api/mem/browse?repo=${q}&take=3&skip=1`],
      ['memory_browse', {type: 'insight'}, `/api/mem/browse?repo=${q}&type=insight`],
      ['memory_stats', {}, `/api/mem/stats?repo=${q}`],
      ['memory_context', {}, `/api/mem/context?repo=${q}`],
      ['memory_repos', {}, '/api/mem/repos'],
      ['memory_layers', {}, `/api/mem/layers?repo=${q}`],
      ['memory_links', {}, `/api/mem/links?repo=${q}`],
      ['memory_quality', {}, `/api/mem/quality?repo=${q}`],
      ['memory_recall', {q: 'how do I run the integration tests', limit: 3}, `/api/mem/recall?repo=${q}&q=${enc('how do I run the integration tests')}&limit=3`],
      ['memory_recall', {q: 'why sql.js', type: 'insight'}, `/api/mem/recall?repo=${q}&q=${enc('why sql.js')}&type=insight`],
    ]
    for (const [tool, args, path] of pairs) {
      const viaTool = await call(client, tool, args)
      const viaHttp = await api(url, 'GET', path)
      expect(viaHttp.status, path).toBe(200)
      expect(viaTool.structuredContent, `${tool} ${JSON.stringify(args)}`).toEqual(viaHttp.body)
    }

    // writes: the same request through each face gives the same outcome (ids differ by time only)
    const viaTool = await call(client, 'memory_store', {content: 'Deploys go out from main only, never from a tag.', type: 'heuristic'})
    clock.advance(1000)
    const viaHttp = await api(url, 'POST', '/api/mem', {repo, content: 'deploys go out from MAIN only, never from a tag!', type: 'heuristic'})
    expect(viaHttp.body).toEqual({success: false, duplicateId: viaTool.structuredContent.id, reason: 'duplicate'})
    const fbTool = await call(client, 'memory_feedback', {memoryId: ids[1], wasUsed: false})
    const fbHttp = await api(url, 'POST', '/api/mem/feedback', {memoryId: ids[1], wasUsed: false})
    expect(fbTool.structuredContent).toEqual(fbHttp.body)
    expect((await call(client, 'memory_get', {id: ids[1]})).structuredContent.unusedCount).toBe(2)
  })
})
