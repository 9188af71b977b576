/**
 * `mem mcp`: the tool catalog over stdio for clients that spawn a process. stdout carries only
 * protocol messages; everything else goes to stderr. The repository a tool uses when the agent
 * passes no `repo` is, in order: `--repo` (or MEM_REPO), the client's first `file://` root, the
 * repository around the working directory.
 */
import {fileURLToPath} from 'node:url'
import {Server} from '@modelcontextprotocol/sdk/server/index.js'
import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js'
import {RootsListChangedNotificationSchema} from '@modelcontextprotocol/sdk/types.js'
import type {MemContext} from '../../engines/context.js'
import {buildMcpServer} from './tools.js'

export interface StdioOptions {
  ctx: MemContext
  version: string
  /** `--repo` / MEM_REPO: wins over the client's roots. */
  repo?: string
  /** The repository around the working directory: the last resort. */
  fallbackRepo: string
  /** Which tools to list: the lean default set or all. */
  tools?: 'lean' | 'all'
  /** How long a tool call waits for the client's roots/list answer before using the fallback. */
  rootsTimeoutMs?: number
  log: (message: string) => void
  stdin?: NodeJS.ReadableStream
  stdout?: NodeJS.WritableStream
}

/** The first `file://` root of a roots/list answer, as a path. */
export function firstFileRoot(roots: Array<{uri: string}>): string | undefined {
  for (const root of roots) {
    if (!root.uri.startsWith('file://')) continue
    try {
      return fileURLToPath(root.uri)
    } catch {
      // a file URL with a host or bad encoding: try the next root
    }
  }
  return undefined
}

/**
 * Serves until the client closes stdin (or the process is signalled). Resolves when the
 * connection has ended; the caller closes the context.
 */
export async function serveStdio(options: StdioOptions): Promise<void> {
  const {log} = options
  const inFlight = new Set<Promise<unknown>>()
  let fromRoots: Promise<string | undefined> | undefined

  const askRoots = (server: Server) => {
    if (!server.getClientCapabilities()?.roots) return
    fromRoots = server
      .listRoots(undefined, {timeout: options.rootsTimeoutMs ?? 5_000})
      .then((r) => {
        const root = firstFileRoot(r.roots)
        if (root) log(`mem mcp: repository from the client's root: ${root}`)
        return root
      })
      .catch((err: unknown) => {
        log(`mem mcp: the client did not list its roots (${(err as Error)?.message ?? err}); using ${options.fallbackRepo}`)
        return undefined
      })
  }

  const server = buildMcpServer(
    options.ctx,
    {
      repo: async () => options.repo ?? (await fromRoots) ?? options.fallbackRepo,
    },
    {
      version: options.version,
      tools: options.tools,
      onInternalError: (err, tool) => log(`mem mcp: internal error in ${tool}: ${(err as Error)?.stack ?? err}`),
      track: (call) => {
        inFlight.add(call)
        void call.finally(() => inFlight.delete(call)).catch(() => undefined)
      },
    },
  )
  if (!options.repo) {
    server.oninitialized = () => askRoots(server)
    server.setNotificationHandler(RootsListChangedNotificationSchema, async () => askRoots(server))
  }
  server.onerror = (err) => log(`mem mcp: ${err.message}`)

  const stdin = (options.stdin ?? process.stdin) as NodeJS.ReadStream
  const transport = new StdioServerTransport(stdin, (options.stdout ?? process.stdout) as NodeJS.WriteStream)
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve()
    // input that ends right after its last request (a piped script) still gets every answer
    let ending = false
    const end = () => {
      if (ending) return
      ending = true
      void (async () => {
        while (inFlight.size > 0) await Promise.allSettled([...inFlight])
        await new Promise((r) => setImmediate(r)) // the SDK writes an answer just after its call settles
        await transport.close()
      })()
    }
    stdin.once('end', end)
    stdin.once('close', end)
    process.once('SIGINT', end)
    process.once('SIGTERM', end)
  })
  await server.connect(transport)
  log(`mem mcp: serving ${options.repo ? `repository ${options.repo}` : 'the client\'s root or the working directory\'s repository'} over stdio`)
  await closed
}
