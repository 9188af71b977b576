import {Flags} from '@oclif/core'
import {ERROR_CODES} from '../../../model/errors.js'
import {MemCommand} from '../mem-command.js'

export default class Intake extends MemCommand {
  static summary = 'Seed memories from the project files (README, AGENTS.md, package.json, …).'
  static description = `Reads the files an agent needs to know: agent instruction files (AGENTS.md, CLAUDE.md, .github/copilot-instructions.md, .cursorrules, …), README.md, CONTRIBUTING.md, .editorconfig, package.json (scripts, engines), tsconfig.json, Makefile and justfile targets, pyproject.toml, Cargo.toml, go.mod and version files (.nvmrc, .tool-versions, …). Each becomes small seed memories: commands that build, test or run become procedures, conventions heuristics, facts observations, tagged intake and source:<path>. Running it again writes nothing new; a changed file's seeds supersede their old versions; seeds of removed lines are forgotten. Every seed passes the secret scanner: a line holding a secret never becomes a memory. \`mem hooks install\` runs this after each commit, merge and checkout.`
  static examples = [`<%= config.bin %> intake`, `<%= config.bin %> intake --json`, `<%= config.bin %> intake --repo ../other-repo --time-limit 60`]
  static flags = {
    'time-limit': Flags.integer({summary: 'Stop after this many seconds (what was written is kept; exit 69).', min: 1}),
  }

  async run() {
    const {flags} = await this.parse(Intake)
    const [{operationOps: ops}, {formatIntake, formatIntakeProgress}] = await Promise.all([import('../../../operations/catalog/operations.js'), import('../format-intake.js')])
    const tty = process.stderr.isTTY && !this.jsonEnabled()
    const onProgress = tty ? (p: Parameters<typeof formatIntakeProgress>[0]) => process.stderr.write(`\r\x1b[2K${formatIntakeProgress(p)}`) : undefined
    const controller = new AbortController()
    const limit = flags['time-limit']
    const timer = limit ? setTimeout(() => controller.abort(), limit * 1000) : undefined
    timer?.unref()
    // a run stuck past its limit (a lock never released) must still end: a hook waits on nothing
    const hardStop = limit ? setTimeout(() => process.exit(ERROR_CODES.unavailable.exit), limit * 1000 + 10_000) : undefined
    hardStop?.unref()
    try {
      const repo = this.repoRef(flags)
      const result = await this.runOp(ops.intake, {repo}, {signal: controller.signal, onProgress})
      if (tty) process.stderr.write('\r\x1b[2K')
      this.log(formatIntake(repo, result))
      return result
    } finally {
      clearTimeout(timer)
      clearTimeout(hardStop)
    }
  }
}
