import {Args, Flags} from '@oclif/core'
import {isQueued} from '../../remote/queued.js'
import {MemCommand} from '../mem-command.js'
import {MemError} from '../../../model/errors.js'

export default class Feedback extends MemCommand {
  static summary = 'Report whether a recalled memory was used.'
  static description = 'Used memories rank higher in recall and context; repeatedly unused ones lower.'
  static examples = [
    `<%= config.bin %> feedback memories/-home-me-app/procedure/3f9c0a1b2c3d --used`,
    `<%= config.bin %> feedback memories/-home-me-app/insight/0a1b2c3d4e5f --unused --json`,
  ]
  static args = {id: Args.string({required: true, description: 'Memory id.'})}
  static flags = {
    used: Flags.boolean({summary: 'The memory helped.', exclusive: ['unused']}),
    unused: Flags.boolean({summary: 'The memory was recalled but did not help.', exclusive: ['used']}),
  }

  async run() {
    const {args, flags} = await this.parse(Feedback)
    if (!flags.used && !flags.unused) {
      throw new MemError('invalid_input', 'Say whether the memory was used: --used or --unused.', {
        hint: `mem feedback ${args.id} --used`,
      })
    }
    const {memoryOps: ops} = await import('../../../operations/catalog/memories.js')
    const result = await this.runOp(ops.feedback, {memoryId: args.id, wasUsed: flags.used === true, repo: this.idRepoRef(flags, args.id)})
    if (isQueued(result)) return this.queued(result)
    this.log(result.applied ? `Recorded: ${flags.used ? 'used' : 'unused'}` : 'Not applied: the memory is forgotten or superseded')
    return result
  }
}
