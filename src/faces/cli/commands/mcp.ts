import {realpathSync} from 'node:fs'
import {Flags} from '@oclif/core'
import {MemCommand} from '../mem-command.js'

export default class Mcp extends MemCommand {
  static summary = 'Serve the memory tools to an MCP client over stdio (or print a client config).'
  static description = `For MCP clients that spawn a process (Claude Code, Cursor, Codex, the MCP Inspector): reads JSON-RPC on stdin and answers on stdout; logs go to stderr. Tools act on --repo (or MEM_REPO) when given, else on the client's first file:// root, else on the repository around the working directory; an agent may pass \`repo\` to any tool. \`mem serve\` offers the same tools over HTTP at POST /mcp.

By default six tools are listed (context, recall, store, feedback, get, edit: under 2,000 tokens); --tools all (or \`mcp: {tools: all}\` in the user config) lists all of them.

--print-config prints a client configuration instead: \`mem\` on the PATH, so the file can be committed (--absolute for this machine's node and mem paths); --transport http for the HTTP endpoint, with this repository in the URL. \`mem setup <host>\` writes it for you, with hooks.`
  static examples = [
    `<%= config.bin %> mcp                                  # spawned by an MCP client`,
    `<%= config.bin %> mcp --repo ~/src/app --tools all`,
    `<%= config.bin %> mcp --print-config > .mcp.json`,
    `<%= config.bin %> mcp --print-config --transport http --port 7373`,
  ]
  static enableJsonFlag = false
  static flags = {
    'print-config': Flags.boolean({summary: 'Print an MCP client configuration and exit.'}),
    transport: Flags.option({options: ['stdio', 'http'] as const, default: 'stdio', summary: 'Which configuration --print-config prints.'})(),
    absolute: Flags.boolean({summary: 'With --print-config: run this machine\'s node and mem by absolute path (not for a file you commit).'}),
    tools: Flags.option({options: ['lean', 'all'] as const, summary: 'Which tools to list: the lean default set (six) or all (default: the user config\'s mcp.tools, else lean).'})(),
    port: Flags.integer({summary: 'Port of `mem serve` for --transport http.', default: 7373, min: 1, max: 65535}),
    host: Flags.string({summary: 'Host of `mem serve` for --transport http.', default: '127.0.0.1'}),
  }

  async run() {
    const {flags} = await this.parse(Mcp)
    if (flags['print-config']) return this.printConfig(flags)

    // stdout belongs to the protocol: anything a library prints goes to stderr instead
    console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args)
    const [{serveStdio}, {packageInfo}, {readUserConfig}] = await Promise.all([import('../../mcp/stdio.js'), import('../../server/version.js'), import('../../../config/user-config.js')])
    const explicit = flags.repo?.trim() ? this.repoRef(flags) : undefined
    const tools = flags.tools ?? (await readUserConfig(await this.home())).mcp.tools
    const ctx = await this.mem({longLived: true})
    const log = (message: string) => process.stderr.write(`${message}\n`)
    // memories written here get their meaning vectors while the client is idle, as under mem serve
    const {MEANING_DRAIN_MS, meaningInBackground} = await import('../../../runtime/meaning-drain.js')
    const vectors = meaningInBackground(ctx, MEANING_DRAIN_MS, (err) => log(`mem: the meaning vectors could not be made: ${err instanceof Error ? err.message : String(err)}`))
    try {
      await serveStdio({ctx, version: packageInfo().version, repo: explicit, fallbackRepo: this.repoRef({}), tools, log})
    } finally {
      vectors.stop()
      await vectors.drain()
    }
  }

  private async printConfig(flags: {repo?: string; transport: 'stdio' | 'http'; port: number; host: string; absolute: boolean; tools?: 'lean' | 'all'}) {
    const {clientConfig} = await import('../../mcp/client-config.js')
    let config
    if (flags.transport === 'stdio') {
      const [{resolve}, {looksLikePath}] = await Promise.all([import('node:path'), import('../../../config/paths.js')])
      const given = flags.repo?.trim()
      const repo = given ? (looksLikePath(given) ? resolve(given) : given) : undefined
      config = clientConfig('stdio', {...(flags.absolute ? {node: process.execPath, bin: realpathSync(process.argv[1])} : {}), repo, tools: flags.tools})
    } else {
      const {KeyRing} = await import('../../../config/api-keys.js')
      const keys = await KeyRing.open(await this.home())
      const host = flags.host.includes(':') && !flags.host.startsWith('[') ? `[${flags.host}]` : flags.host
      // an HTTP server answers every repository: the URL names this one (a stdio server finds it itself)
      const url = new URL(`http://${host}:${flags.port}/mcp`)
      url.searchParams.set('repo', this.repoRef(flags))
      if (flags.tools) url.searchParams.set('tools', flags.tools)
      config = clientConfig('http', {url: url.href, auth: keys.enabled})
    }
    process.stdout.write(`${JSON.stringify(config, null, 2)}\n`)
  }
}
