import {MemCommand} from '../../mem-command.js'

export default class HooksUninstall extends MemCommand {
  static summary = 'Remove the git hooks mem hooks install added.'
  static description = `Removes only mem's marked blocks and files: a hook mem created is deleted, a hook it chained into gets its original text back, and a hook moved to <hook>.mem-chained is moved back.`
  static examples = [`<%= config.bin %> hooks uninstall`, `<%= config.bin %> hooks uninstall --json`]

  async run() {
    const {flags} = await this.parse(HooksUninstall)
    const [{operationOps: ops}, {formatHooks}] = await Promise.all([import('../../../../operations/catalog/operations.js'), import('../../format-intake.js')])
    const result = await this.runOp(ops.hooksUninstall, {repo: this.repoRef(flags)})
    this.log(formatHooks(result))
    return result
  }
}
