import {MemCommand} from '../mem-command.js'

export default class Status extends MemCommand {
  static summary = 'Show the mem version, the meaning model in use, and whether the enrichment runtime answers.'
  static description = `Enrichment through a local language-model runtime is off by default (the heuristic writes one-liners). When it is set in the user config.yaml, this asks the runtime's health endpoint (Ollama /api/tags, OpenAI-compatible /v1/models) with a 2 s timeout. It also loads the meaning model recall uses when it is on (the built-in model by default; meaning.model in config.yaml or MEM_MEANING: static, builtin, off, local with meaning.dir, runtime; meaning.floor) and says which it is, its size, licence, and what loading it, embedding a first note and each note after cost here. --json prints {version, home, enrichment: {enabled, provider, model, reachable, url}, meaning: {setting, on, kind, id, name, dims, sizeBytes, licence, source, loadMs, embedMs, embedNextMs, error}}; mem serve reports the same enrichment object in GET /api/status.`
  static examples = [`<%= config.bin %> status`, `<%= config.bin %> status --json`]

  async run() {
    await this.parse(Status)
    const [{enrichmentStatus}, {meaningStatus}, {packageInfo}, {formatStatus}] = await Promise.all([
      import('../../../operations/enrich.js'),
      import('../../../operations/meaning.js'),
      import('../../server/version.js'),
      import('../format-insight.js'),
    ])
    const ctx = await this.mem()
    const config = ctx.enrichment ? await ctx.enrichment() : null
    const result = {
      version: packageInfo().version,
      home: ctx.home,
      enrichment: {...(await enrichmentStatus(ctx)), url: config?.url ?? null},
      meaning: await meaningStatus(ctx, () => performance.now()),
    }
    this.log(formatStatus(result, {color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR && !this.jsonEnabled()}))
    return result
  }
}
