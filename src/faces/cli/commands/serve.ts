import {Flags} from '@oclif/core'
import {MemCommand} from '../mem-command.js'
import {storeFlag} from '../team.js'

export default class Serve extends MemCommand {
  static summary = 'Serve the HTTP API for agents and tools (127.0.0.1:7373 by default).'
  static description = `One process serves every repository it is asked about (the \`repo\` parameter of each request) and sees writes made meanwhile by the CLI or git hooks. Bound to loopback, it refuses requests whose Host is not a loopback name and state-changing requests from another origin; it refuses to listen beyond loopback while API key auth is off (\`mem keys create\` turns it on). Ctrl-C or SIGTERM stops it after checkpointing every open store. The routes are described at /api/openapi.json.`
  static examples = [
    `<%= config.bin %> serve`,
    `<%= config.bin %> serve --port 0 --json          # a free port; the first line is {"api": "http://127.0.0.1:…"}`,
    `<%= config.bin %> serve --repo ~/src/app         # opens that repo's store before the first request`,
    `<%= config.bin %> serve --host 0.0.0.0           # only with API keys (mem keys create ci --scope write)`,
    `<%= config.bin %> serve --store postgres://mem@db:5432/mem --host 0.0.0.0   # team mode: team keys only (docs/team.md)`,
  ]
  static flags = {
    host: Flags.string({summary: 'Address to listen on (non-loopback needs API key auth on).', default: '127.0.0.1'}),
    port: Flags.integer({summary: 'Port to listen on (0 picks a free one).', default: 7373, min: 0, max: 65535}),
    store: storeFlag,
  }

  async run() {
    const {flags} = await this.parse(Serve)
    const {startServer} = await import('../../server/serve.js')
    const team = await this.teamMode(flags.store)
    const runtime = team?.runtime ?? (await this.mem({longLived: true, server: true}))
    const local = team ? {} : {preload: flags.repo?.trim() ? [this.repoRef(flags)] : [], mcpRepo: this.repoRef(flags), currentRepo: this.repoRef(flags)}
    const server = await startServer({
      runtime,
      host: flags.host,
      port: flags.port,
      ...local,
      team: team?.auth,
      onInternalError: (err, req) => process.stderr.write(`mem serve: internal error on ${req.method} ${req.url}: ${(err as Error)?.stack ?? err}\n`),
      onBackgroundError: (err) => process.stderr.write(`mem serve: background checkpoint failed: ${(err as Error)?.message ?? err}\n`),
    })
    const started = {api: server.url, status: 'listening', authEnabled: server.authEnabled, pid: process.pid, ...(team ? {store: team.shown} : {})}
    if (this.jsonEnabled()) process.stdout.write(`${JSON.stringify(started)}\n`)
    else if (team) this.log(`mem listening on ${server.url}, team mode over ${team.shown} (team keys only; Ctrl-C stops)`)
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
    if (team) {
      await team.runtime.close()
      await team.runtime.team.close()
    }
    return {api: server.url, status: 'stopped', signal}
  }

  /** Team mode when a store URL is given (--store, else MEM_STORE, else `store:` in the user config): the replica's runtime and its key check. */
  private async teamMode(flag: string | undefined) {
    const home = await this.home()
    const {resolveStoreUrl} = await import('../../../config/store-url.js')
    const config = flag?.trim() || process.env.MEM_STORE?.trim() ? null : (await import('../../../config/user-config.js').then((m) => m.readUserConfig(home))).store
    const store = resolveStoreUrl({flag, env: process.env, config})
    if (!store) return undefined
    const [{openTeamStore, openTeamRuntime, DEFAULT_HOT_REPOS}, {teamAuth}, {hostname}, {resolveHotRepos}, {readUserConfig}, {chosenMeaning}] = await Promise.all([
      import('../../../runtime/team-store.js'),
      import('../../server/team.js'),
      import('node:os'),
      import('../../../config/hot-repos.js'),
      import('../../../config/user-config.js'),
      import('../../../config/meaning-env.js'),
    ])
    // MEM_HOT_REPOS, else `hotRepos:` in config.yaml: checked before connecting (a bad value: exit 2)
    const userConfig = await readUserConfig(home)
    const hotRepos = resolveHotRepos({env: process.env, config: userConfig.hotRepos}, DEFAULT_HOT_REPOS)
    // the meaning model as a local store reads it: MEM_MEANING, else config.yaml, else the built-in model
    const meaning = chosenMeaning(process.env, userConfig)
    const db = await openTeamStore(store, {max: 10, applicationName: 'mem-serve'})
    const runtime = openTeamRuntime(db, {
      home,
      hotRepos,
      meaning: meaning.setting,
      meaningRuntime: meaning.runtime,
      replicaName: `${hostname()}/${process.pid}`.slice(0, 200),
      onNotice: (m) => process.stderr.write(`${m}\n`),
    })
    const auth = teamAuth(db, runtime)
    return {runtime, auth, shown: store.shown}
  }
}
