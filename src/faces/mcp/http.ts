/**
 * `POST /mcp` on `mem serve`: MCP's Streamable HTTP transport in its stateless, plain-JSON form
 * (no session id, no server-sent stream): the POSTed JSON-RPC messages go to an SDK `Server` (built
 * once per repository and tool set and reused) through a transport of one request, and its answers
 * come back as one JSON body — checked as the SDK's own transport checks them (Accept, Content-Type,
 * JSON-RPC shape, one initialize alone, a supported protocol version), without turning each request
 * into a web Request and back. GET and DELETE /mcp
 * (the SSE stream and session end of stateful servers) answer 405. Auth is the server's hook:
 * `/mcp` is a POST, so it needs write scope.
 *
 * The SDK is imported on the first request (or by `preload`), never by building the app, so
 * other commands and a server nobody asks over MCP never load it.
 */
import {REQUEST_ID_HEADER, requestIdOf, withRequestId} from '../../storage/request-ids.js'
import type {InFlight} from '../server/in-flight.js'
import type {FastifyInstance, FastifyReply, FastifyRequest} from 'fastify'
import type {Server} from '@modelcontextprotocol/sdk/server/index.js'
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js'
import type {JSONRPCMessage, MessageExtraInfo, RequestId} from '@modelcontextprotocol/sdk/types.js'
import type {MemContext} from '../../engines/context.js'
import {errorBody, MemError} from '../../model/errors.js'
import {REPO_HEADER} from '../../model/inputs.js'

export interface McpRouteOptions {
  ctx: MemContext
  version: string
  /** The repository tools use when neither the call, `?repo=` on the URL nor the `X-Mem-Repo` header names one. */
  defaultRepo?: string
  /** Which tools are listed when the URL has no `?tools=` (default: the lean set). */
  tools?: 'lean' | 'all'
  /** Called with every internal error (a tool's bug, a transport failure); the client never sees its details. */
  onInternalError?: (err: unknown, req: FastifyRequest) => void
  /** Where each tool call is counted while it runs (a closing server waits for them). */
  inFlight?: InFlight
}

type Sdk = {
  tools: typeof import('./tools.js')
  types: typeof import('@modelcontextprotocol/sdk/types.js')
}

/**
 * The transport of one POST: `deliver` hands its messages to the connected server; `answers`
 * resolves once the server has answered every request among them (in their order). Whatever else
 * the server sends (notifications, requests to the client) has no stream to go to and is dropped,
 * as the SDK's transport drops it in JSON mode.
 */
class OneRequestTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void
  private readonly pending: Map<RequestId, JSONRPCMessage | undefined>
  private settle: () => void = () => undefined
  readonly answered: Promise<void>

  constructor(requestIds: RequestId[]) {
    this.pending = new Map(requestIds.map((id) => [id, undefined]))
    this.answered = new Promise<void>((resolve) => {
      this.settle = resolve
    })
    if (requestIds.length === 0) this.settle()
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || message.id === undefined || !('result' in message || 'error' in message)) return
    const id = message.id
    if (!this.pending.has(id) || this.pending.get(id) !== undefined) return
    this.pending.set(id, message)
    if ([...this.pending.values()].every((m) => m !== undefined)) this.settle()
  }

  answers(): JSONRPCMessage[] {
    return [...this.pending.values()].filter((m): m is JSONRPCMessage => m !== undefined)
  }

  deliver(messages: JSONRPCMessage[], extra: MessageExtraInfo): void {
    for (const m of messages) this.onmessage?.(m, extra)
  }

  async close(): Promise<void> {
    this.settle()
    this.onclose?.()
  }
}

/** A JSON-RPC error answer with no id, as the SDK's transport words it. */
function rpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply.code(status).type('application/json').send({jsonrpc: '2.0', error: {code, message}, id: null})
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
        track: options.inFlight ? (call) => void options.inFlight!.track(call) : undefined,
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
  const load = () => (loading ??= Promise.all([import('./tools.js'), import('@modelcontextprotocol/sdk/types.js')]).then(([tools, types]) => ({tools, types})))
  const report = options.onInternalError ?? (() => undefined)
  const servers = serverPool(options, report)

  app.post('/mcp', async (req: FastifyRequest<{Querystring: {repo?: string}}>, reply: FastifyReply) => {
    const sdk = await load()
    const accept = req.headers.accept ?? ''
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      return rpcError(reply, 406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream')
    }
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      return rpcError(reply, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json')
    }
    let messages: JSONRPCMessage[]
    try {
      const body = req.body as unknown
      messages = (Array.isArray(body) ? body : [body]).map((m) => sdk.types.JSONRPCMessageSchema.parse(m))
    } catch {
      return rpcError(reply, 400, -32700, 'Parse error: Invalid JSON-RPC message')
    }
    const initializing = messages.some((m) => sdk.types.isInitializeRequest(m))
    if (initializing && messages.length > 1) return rpcError(reply, 400, -32600, 'Invalid Request: Only one initialization request is allowed')
    const version = req.headers['mcp-protocol-version']
    if (!initializing && typeof version === 'string' && !sdk.types.SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return rpcError(reply, 400, -32000, `Bad Request: Unsupported protocol version (supported versions: ${sdk.types.SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`)
    }

    let requestId: string | undefined
    try {
      requestId = requestIdOf(req.headers[REQUEST_ID_HEADER])
    } catch (err) {
      return rpcError(reply, 400, -32600, `Invalid Request: ${(err as Error).message}`)
    }

    const query = (req.query ?? {}) as {repo?: unknown; tools?: unknown}
    // the repository: ?repo= on the endpoint URL, else the X-Mem-Repo header (for clients whose
    // config cannot carry a query string), else `mem serve --repo`
    const header = req.headers[REPO_HEADER.toLowerCase()]
    const fromHeader = typeof header === 'string' && header.trim() ? decodeHeader(header.trim()) : undefined
    const repo = typeof query.repo === 'string' && query.repo.trim() ? query.repo : (fromHeader ?? options.defaultRepo)
    const tools = query.tools === 'all' || query.tools === 'lean' ? query.tools : (options.tools ?? 'lean')
    const pooled = servers.checkout(sdk, repo, tools)
    pooled.req = req
    const requests = messages.filter((m) => sdk.types.isJSONRPCRequest(m)) as Array<JSONRPCMessage & {id: RequestId}>
    const transport = new OneRequestTransport(requests.map((r) => r.id))
    try {
      await pooled.server.connect(transport)
      // a write's request id (Idempotency-Key): on a team server the tool call sent again writes once
      withRequestId(requestId, () => transport.deliver(messages, {requestInfo: {headers: req.headers as Record<string, string | string[] | undefined>}}))
      if (requests.length === 0) return await reply.code(202).send()
      await transport.answered
      const answers = transport.answers()
      return await reply.code(200).type('application/json').send(Array.isArray(req.body) ? answers : answers[0])
    } catch (err) {
      report(err, req)
      return rpcError(reply, 500, -32603, 'Internal error')
    } finally {
      // closing the transport disconnects the server: it is free for the next request
      await transport.close().then(
        () => servers.checkin(pooled),
        () => undefined,
      )
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
