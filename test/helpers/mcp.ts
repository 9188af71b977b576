import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {onTestFinished} from 'vitest'
import {BIN} from './cli.js'

export type ToolResult = CallToolResult & {structuredContent?: any}

/**
 * An SDK client connected to `POST /mcp` of a running server, closed when the test ends. It asks
 * for every tool (`tools=all`: these tests cover the whole catalog) unless `tools: 'lean'`.
 */
export async function httpMcpClient(url: string, options: {apiKey?: string; query?: string; capabilities?: Client['_options']; tools?: 'lean' | 'all'; headers?: Record<string, string>} = {}) {
  const client = new Client({name: 'mem-test', version: '1.0.0'}, {capabilities: {}})
  const headers: Record<string, string> = {...(options.apiKey ? {authorization: `Bearer ${options.apiKey}`} : {}), ...options.headers}
  const query = options.tools === 'lean' ? (options.query ?? '') : `${options.query ? `${options.query}&` : '?'}tools=all`
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp${query}`), {requestInit: {headers}})
  onTestFinished(() => client.close())
  await client.connect(transport)
  return client
}

/**
 * The built `mem mcp` spawned as a client spawns it, with a private MEM_HOME; stderr is collected.
 * `roots` makes the client declare the roots capability and answer roots/list with those paths.
 */
export async function stdioMcpClient(options: {args?: string[]; cwd: string; home: string; roots?: string[]; env?: Record<string, string>; tools?: 'lean' | 'all'}) {
  const {ListRootsRequestSchema} = await import('@modelcontextprotocol/sdk/types.js')
  const {pathToFileURL} = await import('node:url')
  const client = new Client({name: 'mem-test', version: '1.0.0'}, {capabilities: options.roots ? {roots: {listChanged: true}} : {}})
  if (options.roots) {
    const roots = options.roots
    client.setRequestHandler(ListRootsRequestSchema, () => ({roots: roots.map((p) => ({uri: pathToFileURL(p).href, name: 'workspace'}))}))
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    // every tool unless the test is about the lean set (see httpMcpClient)
    args: [BIN, 'mcp', ...(options.args ?? []), ...(options.tools === 'lean' ? [] : ['--tools', 'all'])],
    cwd: options.cwd,
    // meaning off unless the test asks (vitest.config.ts pins it so; this env is the child's whole env)
    env: {PATH: process.env.PATH ?? '', MEM_HOME: options.home, NO_COLOR: '1', MEM_MEANING: 'off', ...options.env},
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  const errors: Error[] = []
  client.onerror = (err) => errors.push(err)
  onTestFinished(() => client.close())
  await client.connect(transport)
  return {client, transport, stderr: () => stderr, errors}
}

/** Calls a tool and returns its result typed loosely for assertions. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await client.callTool({name, arguments: args})) as ToolResult
}

export function text(result: ToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
}
