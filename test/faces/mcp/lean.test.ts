// The lean MCP surface (issue 18, decisions.md): six tools whose tools/list stays under 2,000
// tokens (cl100k, counted), one argument vocabulary that also takes the specification's names, the
// rest behind --tools all, and the HTTP endpoint's repository by query parameter or header.
import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {McpError} from '@modelcontextprotocol/sdk/types.js'
import {encode} from 'gpt-tokenizer/encoding/cl100k_base'
import {describe, expect, it} from 'vitest'
import {listTools} from '../../../src/faces/mcp/tools.js'
import {TOOLS} from '../../../src/faces/mcp/catalog.js'
import {store} from '../../../src/operations/store.js'
import {call, httpMcpClient, text} from '../../helpers/mcp.js'
import {memServer} from '../../helpers/server.js'
import {runCliInProcess} from '../../helpers/cli.js'
import {tempDir} from '../../helpers/mem.js'

describe('the lean tool set', () => {
  it('lists at most six tools in at most 2,000 tokens; --tools all lists every one', () => {
    const lean = listTools('lean')
    expect(lean.map((t) => t.name)).toEqual(['memory_context', 'memory_recall', 'memory_store', 'memory_feedback', 'memory_get', 'memory_edit'])
    const tokens = encode(JSON.stringify({tools: lean})).length
    expect(tokens).toBeLessThanOrEqual(2_000)
    const all = listTools('all')
    expect(all).toHaveLength(TOOLS.length)
    expect(encode(JSON.stringify({tools: all})).length).toBeGreaterThan(tokens)
  })

  it('shows the vocabulary\'s names: recall takes query, feedback id and used', () => {
    const [recall, feedback] = ['memory_recall', 'memory_feedback'].map((n) => listTools('lean').find((t) => t.name === n)!)
    expect(Object.keys(recall.inputSchema.properties as object)).toEqual(expect.arrayContaining(['query', 'limit', 'type', 'repo']))
    expect(recall.inputSchema.required).toEqual(['query'])
    expect(Object.keys(feedback.inputSchema.properties as object).sort()).toEqual(['id', 'repo', 'used'])
  })
})

describe('one argument vocabulary over HTTP, with the repository from the URL or a header', () => {
  it('takes query or q, id or memoryId, used or wasUsed; refuses the same argument twice with different values', async () => {
    const {url, ctx} = await memServer()
    const root = join(tempDir(), 'repo')
    mkdirSync(join(root, '.git'), {recursive: true})
    const r = await store(ctx, {repo: root, content: 'Deploys go through the release branch, never main.', type: 'heuristic'})
    const id = (r as {id: string}).id
    const client = await httpMcpClient(url, {query: `?repo=${encodeURIComponent(root)}`, tools: 'lean'})
    expect((await client.listTools()).tools).toHaveLength(6)
    expect((await call(client, 'memory_recall', {query: 'how do deploys work'})).structuredContent.results[0].id).toBe(id)
    expect((await call(client, 'memory_recall', {q: 'how do deploys work'})).structuredContent.results[0].id).toBe(id)
    const ref = id.split('/').pop()!.slice(0, 6)
    expect((await call(client, 'memory_feedback', {id: ref, used: true})).structuredContent).toEqual({applied: true})
    expect((await call(client, 'memory_feedback', {memoryId: id, wasUsed: false})).structuredContent).toEqual({applied: true})
    expect((await call(client, 'memory_get', {memoryId: ref})).structuredContent).toMatchObject({id, usedCount: 1, unusedCount: 1})
    const twice = await call(client, 'memory_feedback', {id: ref, memoryId: 'ffffff', used: true})
    expect(twice.isError).toBe(true)
    expect(text(twice)).toMatch(/Give id or memoryId, not both/)
    // a tool outside the lean set is behind --tools all
    await expect(call(client, 'memory_forget', {id: ref})).rejects.toThrow(McpError)
    const all = await httpMcpClient(url, {query: `?repo=${encodeURIComponent(root)}`})
    expect((await all.listTools()).tools).toHaveLength(TOOLS.length)
  })

  it('the X-Mem-Repo header names the repository when the URL does not', async () => {
    const {url, ctx} = await memServer()
    const root = join(tempDir(), 'repo')
    mkdirSync(join(root, '.git'), {recursive: true})
    await store(ctx, {repo: root, content: 'The staging database is reset every night at 02:00 UTC.', type: 'observation'})
    const {StreamableHTTPClientTransport} = await import('@modelcontextprotocol/sdk/client/streamableHttp.js')
    const {Client} = await import('@modelcontextprotocol/sdk/client/index.js')
    const client = new Client({name: 't', version: '1'})
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {requestInit: {headers: {'x-mem-repo': encodeURIComponent(root)}}}))
    const res = await call(client, 'memory_context', {})
    expect(res.structuredContent.context).toMatch(/^\[Memory: 1 entries/)
    await client.close()
  })
})

describe('mem mcp --print-config', () => {
  it('stdio runs mem from the PATH (no machine paths); HTTP names the repository in the URL', async () => {
    const base = tempDir()
    const root = join(base, 'app')
    mkdirSync(join(root, '.git'), {recursive: true})
    const home = join(base, 'home')
    const stdio = await runCliInProcess(['mcp', '--print-config'], {cwd: root, home})
    expect(stdio.json()).toEqual({mcpServers: {mem: {command: 'mem', args: ['mcp']}}})
    const http = await runCliInProcess(['mcp', '--print-config', '--transport', 'http'], {cwd: root, home})
    expect(http.json().mcpServers.mem.url).toBe(`http://127.0.0.1:7373/mcp?repo=${encodeURIComponent(root)}`)
  })
})
