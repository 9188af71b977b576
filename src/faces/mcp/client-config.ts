/**
 * MCP client configuration snippets (`mem mcp --print-config`): the templates in `templates/`,
 * filled in for this machine. The templates stay valid as they are, for a user who has `mem` on
 * PATH and `mem serve` on its default port.
 */
import {readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

export type Transport = 'stdio' | 'http'

interface ServerEntry {
  command?: string
  args?: string[]
  type?: string
  url?: string
  headers?: Record<string, string>
}

/** The package's `templates/` folder, found by walking up from this module (src, dist, or the CLI bundle). */
export function templatesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {bin?: unknown}
      if (pkg.bin && typeof pkg.bin === 'object' && 'mem' in pkg.bin) return join(dir, 'templates')
    } catch {
      // not here: keep walking up
    }
    const parent = dirname(dir)
    if (parent === dir) throw new Error('mem: cannot find the package folder holding templates/')
    dir = parent
  }
}

export function readTemplate(name: string): string {
  return readFileSync(join(templatesDir(), name), 'utf8')
}

export interface StdioConfigInput {
  /** The Node binary running mem now (process.execPath): only for a config of this machine (--absolute). */
  node?: string
  /** mem's bin/run.js, absolute: only with `node`. */
  bin?: string
  repo?: string
  tools?: 'lean' | 'all'
}

export interface HttpConfigInput {
  url: string
  /** Whether `mem serve` asks for a key here (auth on): the header is kept, with a placeholder. */
  auth: boolean
}

/**
 * The snippet. stdio runs `mem` from the client's PATH (a file a team can commit: no machine
 * paths), or this very Node and bin/run.js by absolute path when they are given (--absolute: works
 * whatever the client's PATH is); http points at the given URL and keeps the Authorization header
 * (as `${MEM_API_KEY}`, never a key) only when auth is on.
 */
export function clientConfig(transport: 'stdio', input: StdioConfigInput): {mcpServers: Record<string, ServerEntry>}
export function clientConfig(transport: 'http', input: HttpConfigInput): {mcpServers: Record<string, ServerEntry>}
export function clientConfig(transport: Transport, input: StdioConfigInput | HttpConfigInput): {mcpServers: Record<string, ServerEntry>} {
  const doc = JSON.parse(readTemplate(`mcp-${transport}.json`)) as {mcpServers: Record<string, ServerEntry>}
  const entry = doc.mcpServers.mem
  if (transport === 'stdio') {
    const {node, bin, repo, tools} = input as StdioConfigInput
    const args = [...(entry.args ?? ['mcp']), ...(repo ? ['--repo', repo] : []), ...(tools ? ['--tools', tools] : [])]
    if (node && bin) {
      entry.command = node
      entry.args = [bin, ...args]
    } else {
      entry.args = args
    }
  } else {
    const {url, auth} = input as HttpConfigInput
    entry.url = url
    if (!auth) delete entry.headers
  }
  return doc
}
