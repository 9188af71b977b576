import {realpathSync} from 'node:fs'
import {Flags} from '@oclif/core'
import {MemCommand} from '../mem-command.js'

export default class Mcp extends MemCommand {
  static summary = 'Serve the memory tools to an MCP client over stdio (or print a client config).'
  static description = `For MCP clients that spawn a process (Claude Code, Cursor, Codex, the MCP Inspector): reads JSON-RPC on stdin and answers on stdout; logs go to stderr. Tools act on --repo (or MEM_REPO) when given, else on the client's first file:// root, else on the repository around the working directory; an agent may pass \`repo\` to any tool. \`mem serve\` offers the same tools over HTTP at POST /mcp.

--print-config prints a client configuration for this machine instead (--transport http for the HTTP endpoint); templates/agent-instructions.md is the matching block for AGENTS.md or CLAUDE.md.`
  static examples = [
    `<%= config.bin %> mcp                                  # spawned by an MCP client`,
    `<%= config.bin %> mcp --repo ~/src/app`,
    `<%= config.bin %> mcp --print-config > .mcp.json`,
    `<%= config.bin %> mcp --print-config --transport http --port 7373`,
  ]
  static enableJsonFlag = false
  static flags = {
    'print-config': Flags.boolean({summary: 'Print an MCP client configuration for this machine and exit.'}),
    transport: Flags.option({options: ['stdio', 'http'] as const, default: 'stdio', summary: 'Which configuration --print-config prints.'})(),
    port: Flags.integer({summary: 'Port of `mem serve` for --transport http.', default: 7373, min: 1, max: 65535}),
    host: Flags.string({summary: 'Host of `mem serve` for --transport http.', default: '127.0.0.1'}),
  }

  async run() {
    const {flags} = await this.parse(Mcp)
    if (flags['print-config']) return this.printConfig(flags)

    // stdout belongs to the protocol: anything a library prints goes to stderr instead
    console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args)
    const [{serveStdio}, {packageInfo}] = await Promise.all([import('../../mcp/stdio.js'), import('../../server/version.js')])
    const explicit = flags.repo?.trim() ? this.repoRef(flags) : undefined
    await serveStdio({
      ctx: await this.mem({longLived: true}),
      version: packageInfo().version,
      repo: explicit,
      fallbackRepo: this.repoRef({}),
      log: (message) => process.stderr.write(`${message}\n`),
    })
  }

  private async printConfig(flags: {repo?: string; transport: 'stdio' | 'http'; port: number; host: string}) {
    const {clientConfig} = await import('../../mcp/client-config.js')
    let config
    if (flags.transport === 'stdio') {
      const [{resolve}, {looksLikePath}] = await Promise.all([import('node:path'), import('../../../config/paths.js')])
      const given = flags.repo?.trim()
      const repo = given ? (looksLikePath(given) ? resolve(given) : given) : undefined
      config = clientConfig('stdio', {node: process.execPath, bin: realpathSync(process.argv[1]), repo})
    } else {
      const {KeyRing} = await import('../../../config/api-keys.js')
      const keys = await KeyRing.open(await this.home())
      const host = flags.host.includes(':') && !flags.host.startsWith('[') ? `[${flags.host}]` : flags.host
      config = clientConfig('http', {url: `http://${host}:${flags.port}/mcp`, auth: keys.enabled})
    }
    process.stdout.write(`${JSON.stringify(config, null, 2)}\n`)
  }
}
