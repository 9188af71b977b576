import {Args} from '@oclif/core'
import {MemCommand} from '../mem-command.js'

export default class Init extends MemCommand {
  static summary = 'Keep memories in a folder that is not a git repository.'
  static description = `mem keeps a store beside a git work tree (the nearest folder with .git) or in a folder that already holds .mem/. Anywhere else it refuses, so that a typo in --repo never makes a hidden store. \`mem init\` creates .mem/ in the folder (default: this one) and registers it. Running it again changes nothing.`
  static examples = [`<%= config.bin %> init`, `<%= config.bin %> init ~/notes/project-x --json`]
  static args = {folder: Args.string({description: 'The folder (default: the current one).'})}

  async run() {
    const {args} = await this.parse(Init)
    const [{operationOps: ops}, {resolve}] = await Promise.all([import('../../../operations/catalog/operations.js'), import('node:path')])
    const result = await this.runOp(ops.init, {path: resolve(process.cwd(), args.folder ?? '.')})
    this.log(result.created ? `Initialized an empty memory store in ${result.path}/.mem (repo id ${result.repoId})` : `${result.path} already holds a memory store (repo id ${result.repoId}); nothing changed.`)
    return result
  }
}
