import {Args, Flags} from '@oclif/core'
import {MemCommand, typeFlag} from '../mem-command.js'
import {RECALL_LIMIT_RANGE, RECALL_LIMITS} from '../../../model/inputs.js'

export default class Recall extends MemCommand {
  static summary = 'Find the memories relevant to a question.'
  static description = 'Ask in your own words; results are ranked by relevance, importance, recency and feedback.'
  static examples = [
    `<%= config.bin %> recall "how do I run the integration tests?"`,
    `<%= config.bin %> recall "flaky checkout test" --type insight --limit 3`,
    `<%= config.bin %> recall "parseConfigFile empty file" --json`,
  ]
  static args = {q: Args.string({required: true, description: 'The question or keywords.'})}
  static flags = {
    limit: Flags.integer({char: 'n', summary: `How many results (${RECALL_LIMIT_RANGE}).`, default: RECALL_LIMITS.defaultLimit}),
    type: typeFlag(),
  }

  async run() {
    const {args, flags} = await this.parse(Recall)
    const [{memoryOps: ops}, {formatRecall}] = await Promise.all([import('../../../operations/catalog/memories.js'), import('../format.js')])
    const result = await this.runOp(ops.recall, {repo: this.repoRef(flags), q: args.q, limit: flags.limit, type: flags.type})
    this.log(formatRecall(result.results, args.q))
    return result
  }
}
