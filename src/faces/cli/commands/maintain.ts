import {Flags} from '@oclif/core'
import {STAGE_NAMES} from '../../../model/names.js'
import {MemCommand} from '../mem-command.js'


export default class Maintain extends MemCommand {
  static summary = 'Run the maintenance pipeline on this repository.'
  static description = `Stages, in order: ttl-expiry (forget expired memories), retention (forget observations older than 90 days not used in 45), dedup (forget later duplicates), decay (lower the importance of unused memories by type half-life), cleanup (purge memories forgotten over 30 days ago), enrichment (fill missing one-liners), consolidation (observations into insights). Every memory a stage forgets carries the reason. A failing stage is reported and the others still run. Only one pass per repo runs at a time, here or in mem serve (exit 4 if one is running).`
  static examples = [
    `<%= config.bin %> maintain`,
    `<%= config.bin %> maintain --dry-run`,
    `<%= config.bin %> maintain --stage dedup --stage decay --json`,
  ]
  static flags = {
    'dry-run': Flags.boolean({summary: 'Count what each stage would change; write nothing.'}),
    stage: Flags.option({options: STAGE_NAMES, multiple: true, summary: 'Run only this stage (repeatable; pipeline order is kept).'})(),
  }

  async run() {
    const {flags} = await this.parse(Maintain)
    const {operationOps: ops} = await import('../../../operations/catalog/operations.js')
    const {formatMaintenance, formatProgress} = await import('../format-maintenance.js')
    const dryRun = flags['dry-run']
    // progress goes to a terminal only: never into pipes, logs or --json output
    const tty = process.stderr.isTTY && !this.jsonEnabled()
    const onProgress = tty
      ? (p: Parameters<typeof formatProgress>[0]) => {
          const line = formatProgress(p)
          process.stderr.write(`\r\x1b[2K${line}${p.phase === 'done' ? '\n' : ''}`)
        }
      : undefined
    const report = await this.runOp(ops.maintain, {repo: this.repoRef(flags), dryRun, stages: flags.stage}, {onProgress})
    this.log(formatMaintenance(report, dryRun))
    return report
  }
}
