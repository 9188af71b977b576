import {Flags} from '@oclif/core'
import {MemCommand} from '../mem-command.js'

export default class Consolidate extends MemCommand {
  static summary = 'Group related observations into insights.'
  static description = `Clusters of three or more live observations that share a tag or say similar things become one insight each, with derivedFrom links to its sources and an extractive summary. An insight that already says the same is boosted instead of duplicated; a cluster whose merge would only restate one of its observations is counted and skipped. Running it again on a converged store answers all zeros. --dry-run lists the candidate clusters and writes nothing.`
  static examples = [`<%= config.bin %> consolidate --dry-run`, `<%= config.bin %> consolidate --json`]
  static flags = {
    'dry-run': Flags.boolean({summary: 'List the candidate clusters and what would happen to each; write nothing.'}),
  }

  async run() {
    const {flags} = await this.parse(Consolidate)
    const {operationOps: ops} = await import('../../../operations/catalog/operations.js')
    const {formatConsolidate} = await import('../format-maintenance.js')
    const dryRun = flags['dry-run']
    const result = await this.runOp(ops.consolidate, {repo: this.repoRef(flags), dryRun})
    this.log(formatConsolidate(result, dryRun))
    return result
  }
}
