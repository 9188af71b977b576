import {MemCommand} from '../mem-command.js'

export default class Stats extends MemCommand {
  static summary = 'Count the live memories of this repository by type.'
  static examples = [`<%= config.bin %> stats`, `<%= config.bin %> stats --repo ../other-repo --json`]

  async run() {
    const {flags} = await this.parse(Stats)
    const {stats} = await import('../../../operations/stats.js')
    const result = await stats(await this.mem(), {repo: this.repoRef(flags)})
    const c = result.counts
    this.log(`${result.summary}\n  observations ${c.observation}\n  insights     ${c.insight}\n  procedures   ${c.procedure}\n  heuristics   ${c.heuristic}`)
    return result
  }
}
