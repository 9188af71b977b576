import {Args, Flags} from '@oclif/core'
import {MemCommand} from '../mem-command.js'
import {MemError} from '../../../model/errors.js'

export default class Enrich extends MemCommand {
  static summary = 'Write a one-liner, summary, foresight hint and entities for a memory (or all of them).'
  static description = `Through the local language-model runtime set in the user config.yaml (enrichment.provider: ollama or openai, url, model, timeoutMs; off by default), else the deterministic heuristic, which says so (provider "heuristic"). The model's answer is sanitized, length-limited and secret-scanned; the memory's content never changes. A runtime that times out or fails leaves the memory unchanged (exit 69). With --all, every live memory without supplements from the current provider is enriched, with progress on a terminal. --json with an ID prints the body of POST /api/mem/enrich. With enrichment.embeddings.enabled (off by default), the memory (with --all: every live memory without one, in batches) also gets an embedding vector, used by recall as a second signal.`
  static examples = [
    `<%= config.bin %> enrich memories/-home-me-app/insight/3f9c0a1b2c3d`,
    `<%= config.bin %> enrich --all`,
    `<%= config.bin %> enrich --all --limit 20 --json`,
  ]
  static args = {id: Args.string({required: false, description: 'Memory id.'})}
  static flags = {
    all: Flags.boolean({summary: 'Enrich every live memory not yet enriched by the current provider.'}),
    limit: Flags.integer({summary: 'With --all: at most this many memories.', dependsOn: ['all']}),
  }

  async run() {
    const {args, flags} = await this.parse(Enrich)
    if (Boolean(args.id) === Boolean(flags.all)) {
      throw new MemError('invalid_input', args.id ? 'Give a memory id or --all, not both.' : 'Give a memory id, or --all for every memory.', {
        hint: 'mem enrich ID, or mem enrich --all',
      })
    }
    const [{insightOps: ops}, fmt] = await Promise.all([import('../../../operations/catalog/insight.js'), import('../format-insight.js')])
    if (args.id) {
      const result = await this.runOp(ops.enrich, {id: args.id, repo: this.idRepoRef(flags, args.id)})
      this.log(fmt.formatEnrich(result))
      return result
    }
    // progress goes to a terminal only: never into pipes, logs or --json output
    const tty = process.stderr.isTTY && !this.jsonEnabled()
    const onProgress = tty ? (done: number, of: number) => process.stderr.write(`\r\x1b[2KEnriching… ${done}/${of}${done === of ? '\n' : ''}`) : undefined
    const result = await this.runOp(ops.enrichAll, {repo: this.repoRef(flags), limit: flags.limit}, {onProgress})
    if (tty && result.stopped) process.stderr.write('\n')
    this.log(fmt.formatEnrichAll(result))
    return result
  }
}
