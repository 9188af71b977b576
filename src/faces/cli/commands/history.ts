import {Args} from '@oclif/core'
import {MemCommand} from '../mem-command.js'

export default class History extends MemCommand {
  static summary = 'Show the version chain of a memory, newest first.'
  static examples = [`<%= config.bin %> history memories/-home-me-app/procedure/3f9c0a1b2c3d`]
  static args = {id: Args.string({required: true, description: 'Id of any version in the chain.'})}

  async run() {
    const {args, flags} = await this.parse(History)
    const {memoryOps: ops} = await import('../../../operations/catalog/memories.js')
    const result = await this.runOp(ops.history, {id: args.id, repo: this.idRepoRef(flags, args.id)})
    this.log(result.chain.map((v, i) => `${i === 0 ? '*' : ' '} ${v.createdAt}  ${v.id}\n    ${v.content.replace(/\s+/g, ' ')}`).join('\n'))
    return result
  }
}
