import {Args} from '@oclif/core'
import {MemCommand} from '../mem-command.js'

export default class Get extends MemCommand {
  static summary = 'Show one memory with all its fields.'
  static description = 'Superseded and forgotten memories stay readable by id.'
  static examples = [
    `<%= config.bin %> get memories/-home-me-app/procedure/3f9c0a1b2c3d`,
    `<%= config.bin %> get memories/-home-me-app/procedure/3f9c0a1b2c3d --json`,
  ]
  static args = {id: Args.string({required: true, description: 'Memory id (memories/<repo-id>/<type>/<key>).'})}

  async run() {
    const {args, flags} = await this.parse(Get)
    const [{memoryOps: ops}, {formatMemory}] = await Promise.all([import('../../../operations/catalog/memories.js'), import('../format.js')])
    const memory = await this.runOp(ops.get, {id: args.id, repo: this.idRepoRef(flags, args.id)})
    this.log(formatMemory(memory))
    return memory
  }
}
