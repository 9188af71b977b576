import {join} from 'node:path'
import {Flags} from '@oclif/core'
import {MemCommand} from '../../mem-command.js'

export default class HooksInstall extends MemCommand {
  static summary = 'Run mem intake after every commit, merge and branch checkout.'
  static description = `Adds post-commit, post-merge and post-checkout git hooks (from mem's templates/hooks) that run \`mem intake\` in the background, detached, with a time limit: they never slow down or fail a git command, and write their output to .mem/hooks.log. The hooks go where git runs them (core.hooksPath is respected, e.g. husky's). An existing hook keeps working: a shell hook gets a marked block after its first line; a hook in another language is moved to <hook>.mem-chained and called after ours. Running it again updates the block. Set MEM_HOOKS_DISABLE=1 to skip the hooks for one command. \`mem hooks uninstall\` takes them out again.`
  static examples = [`<%= config.bin %> hooks install`, `<%= config.bin %> hooks install --time-limit 60 --json`]
  static flags = {
    'time-limit': Flags.integer({summary: 'Seconds a hook-run intake may take before it stops (default 120).', min: 1, max: 3600}),
  }

  async run() {
    const {flags} = await this.parse(HooksInstall)
    const [{operationOps: ops}, {formatHooks}] = await Promise.all([import('../../../../operations/catalog/operations.js'), import('../../format-intake.js')])
    const result = await this.runOp(ops.hooksInstall, {
      repo: this.repoRef(flags),
      templatesDir: join(this.config.root, 'templates', 'hooks'),
      runner: {node: process.execPath, bin: join(this.config.root, 'bin', 'run.js')},
      timeLimit: flags['time-limit'],
    })
    this.log(formatHooks(result))
    return result
  }
}
