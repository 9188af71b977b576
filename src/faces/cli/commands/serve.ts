import {Flags} from '@oclif/core'
import {MemCommand} from '../mem-command.js'

export default class Serve extends MemCommand {
  static summary = 'Serve the HTTP API for agents and tools (127.0.0.1:7373 by default).'
  static description = `One process serves every repository it is asked about (the \`repo\` parameter of each request) and sees writes made meanwhile by the CLI or git hooks. Bound to loopback, it refuses requests whose Host is not a loopback name and state-changing requests from another origin; it refuses to listen beyond loopback while API key auth is off (\`mem keys create\` turns it on). Ctrl-C or SIGTERM stops it after checkpointing every open store. The routes are described at /api/openapi.json.`
  static examples = [
    `<%= config.bin %> serve`,
    `<%= config.bin %> serve --port 0 --json          # a free port; the first line is {"api": "http://127.0.0.1:…"}`,
    `<%= config.bin %> serve --repo ~/src/app         # opens that repo's store before the first request`,
    `<%= config.bin %> serve --host 0.0.0.0           # only with API keys (mem keys create ci --scope write)`,
  ]
  static flags = {
    host: Flags.string({summary: 'Address to listen on (non-loopback needs API key auth on).', default: '127.0.0.1'}),
    port: Flags.integer({summary: 'Port to listen on (0 picks a free one).', default: 7373, min: 0, max: 65535}),
  }

  async run() {
    const {flags} = await this.parse(Serve)
    const {startServer} = await import('../../server/serve.js')
    const runtime = await this.mem({longLived: true, server: true})
    const server = await startServer({
      runtime,
      host: flags.host,
      port: flags.port,
      preload: flags.repo?.trim() ? [this.repoRef(flags)] : [],
      mcpRepo: this.repoRef(flags),
      currentRepo: this.repoRef(flags),
      onInternalError: (err, req) => process.stderr.write(`mem serve: internal error on ${req.method} ${req.url}: ${(err as Error)?.stack ?? err}\n`),
      onBackgroundError: (err) => process.stderr.write(`mem serve: background checkpoint failed: ${(err as Error)?.message ?? err}\n`),
    })
    const started = {api: server.url, status: 'listening', authEnabled: server.authEnabled, pid: process.pid}
    if (this.jsonEnabled()) process.stdout.write(`${JSON.stringify(started)}\n`)
    else this.log(`mem listening on ${server.url} (API key auth ${server.authEnabled ? 'on' : 'off'}; Ctrl-C stops)`)
    if (!this.jsonEnabled()) this.log(`web UI: ${server.url}/ui`)

    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'))
      process.once('SIGTERM', () => resolve('SIGTERM'))
    })
    // a second signal while stores are being checkpointed exits at once (the journal keeps every write)
    const force = () => process.exit(130)
    process.once('SIGINT', force)
    process.once('SIGTERM', force)
    if (!this.jsonEnabled()) this.log(`${signal}: checkpointing open stores and stopping…`)
    await server.close()
    return {api: server.url, status: 'stopped', signal}
  }
}
