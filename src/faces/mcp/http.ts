/**
 * `POST /mcp` on `mem serve`: MCP over the SDK's Streamable HTTP transport, stateless (a new
 * transport per request, no session id; the servers behind it are built once per repository and
 * tool set and reused), answering plain JSON. GET and DELETE /mcp
 * (the SSE stream and session end of stateful servers) answer 405. Auth is the server's hook:
 * `/mcp` is a POST, so it needs write scope.
 *
 * The SDK is imported on the first request (or by `preload`), never by building the app, so
 * other commands and a server nobody asks over MCP never load it.
 */
import type {FastifyInstance, FastifyReply, FastifyRequest} from 'fastify'
import type {Server} from '@modelcontextprotocol/sdk/server/index.js'
import type {MemContext} from '../../engines/context.js'
import {errorBody, MemError} from '../../model/errors.js'

export interface McpRouteOptions {
  ctx: MemContext
  version: string
  /** The repository tools use when neither the call, `?repo=` on the URL nor the `X-Mem-Repo` header names one. */
  defaultRepo?: string
  /** Which tools are listed when the URL has no `?tools=` (default: the lean set). */
  tools?: 'lean' | 'all'
  /** Called with every internal error (a tool's bug, a transport failure); the client never sees its details. */
  onInternalError?: (err: unknown, req: FastifyRequest) => void
}

type Sdk = {
  tools: typeof import('./tools.js')
  transport: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')
}

export interface McpRoute {
  /** Loads the SDK now instead of on the first request. */
  preload(): Promise<void>
  /** How many MCP servers were built so far (they are reused: diagnostics and tests). */
  serversBuilt(): number
}

/** A header value as sent, or percent-decoded when it was encoded (a path with non-ASCII characters). */
function decodeHeader(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

interface PooledServer {
  key: string
  server: Server
  /** The request it answers now, for the internal-error report. */
  req?: FastifyRequest
}

/** Idle servers kept per repository and tool set (beyond it a server is built and dropped). */
const IDLE_PER_KEY = 4
/** Repositories and tool sets with idle servers kept. */
const MAX_KEYS = 64

/**
 * MCP servers (the SDK's `Server` with mem's tool handlers) reused across requests: one is taken
 * for a request, connected to that request's transport, and put back when the transport closes.
 * Each is bound to one repository and tool set, so a reused server answers exactly as a new one.
 */
function serverPool(options: McpRouteOptions, report: (err: unknown, req: FastifyRequest) => void) {
  const idle = new Map<string, PooledServer[]>()
  let built = 0
  return {
    built: () => built,
    checkout(sdk: Sdk, repo: string | undefined, tools: 'lean' | 'all'): PooledServer {
      const key = `${tools}\0${repo ?? ''}`
      const found = idle.get(key)?.pop()
      if (found) return found
      built++
      const pooled: PooledServer = {key, server: undefined as unknown as Server}
      pooled.server = sdk.tools.buildMcpServer(options.ctx, {repo: async () => repo}, {
        version: options.version,
        tools,
        onInternalError: (err) => report(err, pooled.req as FastifyRequest),
      })
      return pooled
    },
    checkin(pooled: PooledServer): void {
      pooled.req = undefined
      let list = idle.get(pooled.key)
      if (!list) {
        if (idle.size >= MAX_KEYS) return
        idle.set(pooled.key, (list = []))
      }
      if (list.length < IDLE_PER_KEY) list.push(pooled)
    },
  }
}

export function mcpRoutes(app: FastifyInstance, options: McpRouteOptions): McpRoute {
  let loading: Promise<Sdk> | undefined
  const load = () =>
    (loading ??= Promise.all([import('./tools.js'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]).then(([tools, transport]) => ({tools, transport})))
  const report = options.onInternalError ?? (() => undefined)
  const servers = serverPool(options, report)

  app.post('/mcp', async (req: FastifyRequest<{Querystring: {repo?: string}}>, reply: FastifyReply) => {
    const sdk = await load()
    const query = (req.query ?? {}) as {repo?: unknown; tools?: unknown}
    // the repository: ?repo= on the endpoint URL, else the X-Mem-Repo header (for clients whose
    // config cannot carry a query string), else `mem serve --repo`
    const header = req.headers['x-mem-repo']
    const fromHeader = typeof header === 'string' && header.trim() ? decodeHeader(header.trim()) : undefined
    const repo = typeof query.repo === 'string' && query.repo.trim() ? query.repo : (fromHeader ?? options.defaultRepo)
    const tools = query.tools === 'all' || query.tools === 'lean' ? query.tools : (options.tools ?? 'lean')
    const pooled = servers.checkout(sdk, repo, tools)
    pooled.req = req
    const {server} = pooled
    // a transport per request (stateless: no session, nothing shared between requests); the server
    // and its tool table are built once per repository and tool set and reused
    const transport = new sdk.transport.StreamableHTTPServerTransport({sessionIdGenerator: undefined, enableJsonResponse: true})
    // From here the transport writes the response; fastify must not.
    reply.hijack()
    reply.raw.once('close', () => {
      // closing the transport disconnects the server (a call still running answers into this
      // closed transport, never into the next request's); then the server is free again
      transport.close().then(
        () => servers.checkin(pooled),
        () => undefined,
      )
    })
    try {
      await server.connect(transport)
      await transport.handleRequest(req.raw, reply.raw, req.body)
    } catch (err) {
      report(err, req)
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, {'content-type': 'application/json'}).end(JSON.stringify({jsonrpc: '2.0', error: {code: -32603, message: 'Internal error'}, id: null}))
      } else {
        reply.raw.end()
      }
    }
  })

  const notAllowed = async (req: FastifyRequest, reply: FastifyReply) => {
    const err = new MemError('invalid_input', `${req.method} /mcp is not supported: this MCP endpoint is stateless (no sessions, no server-sent stream).`, {
      hint: 'Send JSON-RPC requests with POST /mcp (Accept: application/json, text/event-stream).',
    })
    return reply.code(405).header('allow', 'POST').type('application/json; charset=utf-8').send(errorBody(err))
  }
  app.get('/mcp', notAllowed)
  app.delete('/mcp', notAllowed)

  return {
    preload: async () => {
      await load()
    },
    serversBuilt: () => servers.built(),
  }
}
