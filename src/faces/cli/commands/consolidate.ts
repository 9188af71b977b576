import {Flags} from '@oclif/core'
import {MemCommand} from '../mem-command.js'

export default class Consolidate extends MemCommand {
  static summary = 'Group related observations into insights.'
  static description = `Clusters of three or more live observations that share a topic tag or say similar things become one insight each, with derivedFrom links to its sources; its text leads with what the members share and how often and when it recurred. An insight that already says the same is boosted instead of duplicated; a cluster whose merge would only restate one of its observations is counted and skipped. Running it again on a converged store answers all zeros. --dry-run lists each candidate cluster (its id, proposed text and members) and writes nothing; --cluster applies only the clusters named (an id that is no longer a candidate is refused and nothing is written).`
  static examples = [
    `<%= config.bin %> consolidate --dry-run`,
    `<%= config.bin %> consolidate --cluster c-3f9a1c2b7d4e --cluster c-0b12aa9e5f61`,
    `<%= config.bin %> consolidate --json`,
  ]
  static flags = {
    'dry-run': Flags.boolean({summary: 'List the candidate clusters and what would happen to each; write nothing.'}),
    cluster: Flags.string({summary: 'Apply only this candidate cluster (an id from --dry-run); repeat for more.', multiple: true}),
  }

  async run() {
    const {flags} = await this.parse(Consolidate)
    const {operationOps: ops} = await import('../../../operations/catalog/operations.js')
    const {formatConsolidate} = await import('../format-maintenance.js')
    const dryRun = flags['dry-run']
    const clusters = flags.cluster?.flatMap((c) => c.split(',')).map((c) => c.trim()).filter(Boolean)
    const result = await this.runOp(ops.consolidate, {repo: this.repoRef(flags), dryRun, ...(clusters?.length ? {clusters} : {})})
    this.log(formatConsolidate(result, dryRun))
    return result
  }
}
