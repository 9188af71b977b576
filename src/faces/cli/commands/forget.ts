import {Args, Flags} from '@oclif/core'
import {isQueued} from '../../remote/queued.js'
import {MemCommand} from '../mem-command.js'

export default class Forget extends MemCommand {
  static summary = 'Forget a memory (soft delete: it stays readable by id and in history).'
  static examples = [`<%= config.bin %> forget memories/-home-me-app/observation/3f9c0a1b2c3d --reason "fixed in v2"`]
  static args = {id: Args.string({required: true, description: 'Memory id.'})}
  static flags = {reason: Flags.string({summary: 'Why it is forgotten (kept with the entry).'})}

  async run() {
    const {args, flags} = await this.parse(Forget)
    const {memoryOps: ops} = await import('../../../operations/catalog/memories.js')
    const result = await this.runOp(ops.forget, {id: args.id, repo: this.idRepoRef(flags, args.id), reason: flags.reason})
    if (isQueued(result)) return this.queued(result)
    this.log(result.forgotten ? `Forgot ${args.id}` : `${args.id} was already forgotten`)
    return result
  }
}
