import {Args, Flags} from '@oclif/core'
import {MemCommand} from '../mem-command.js'

export default class Init extends MemCommand {
  static summary = 'Keep memories in a folder that is not a git repository.'
  static description = `mem keeps a store beside a git work tree (the nearest folder with .git) or in a folder that already holds .mem/. Anywhere else it refuses, so that a typo in --repo never makes a hidden store. \`mem init\` creates .mem/ in the folder (default: this one) and registers it. Running it again changes nothing.`
  static examples = [
    `<%= config.bin %> init`,
    `<%= config.bin %> init ~/notes/project-x --json`,
    '# a clone came with a committed .mem: its memories read as "foreign" until you vouch for them',
    `<%= config.bin %> init --adopt`,
  ]
  static args = {folder: Args.string({description: 'The folder (default: the current one).'})}
  static flags = {
    adopt: Flags.boolean({description: 'Vouch for the store already in the folder (one this machine did not write, such as a clone\'s committed .mem): its memories become your own and reach agents unmarked. See docs/security.md.'}),
  }

  async run() {
    const {args, flags} = await this.parse(Init)
    const [{operationOps: ops}, {resolve}] = await Promise.all([import('../../../operations/catalog/operations.js'), import('node:path')])
    const result = await this.runOp(ops.init, {path: resolve(process.cwd(), args.folder ?? '.'), ...(flags.adopt ? {adopt: true} : {})})
    if (result.adopted !== undefined) this.log(`Adopted the memory store in ${result.path}/.mem (repo id ${result.repoId}): ${result.adopted} ${result.adopted === 1 ? 'memory' : 'memories'} now count as your own.`)
    else this.log(result.created ? `Initialized an empty memory store in ${result.path}/.mem (repo id ${result.repoId})` : `${result.path} already holds a memory store (repo id ${result.repoId}); nothing changed.`)
    return result
  }
}
