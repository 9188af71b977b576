import {MemCommand} from '../mem-command.js'

export default class Stats extends MemCommand {
  static summary = 'Count the live memories of this repository by type.'
  static examples = [`<%= config.bin %> stats`, `<%= config.bin %> stats --repo ../other-repo --json`]

  async run() {
    const {flags} = await this.parse(Stats)
    const {memoryOps: ops} = await import('../../../operations/catalog/memories.js')
    const result = await this.runOp(ops.stats, {repo: this.repoRef(flags)})
    const c = result.counts
    this.log(`${result.summary}\n  observations ${c.observation}\n  insights     ${c.insight}\n  procedures   ${c.procedure}\n  heuristics   ${c.heuristic}`)
    return result
  }
}
