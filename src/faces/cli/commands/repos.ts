import {MemCommand} from '../mem-command.js'

export default class Repos extends MemCommand {
  static summary = 'List the repositories mem has stored memories for.'
  static examples = [`<%= config.bin %> repos`, `<%= config.bin %> repos --json`]

  async run() {
    await this.parse(Repos)
    const {memoryOps: ops} = await import('../../../operations/catalog/memories.js')
    const result = await this.runOp(ops.repos, {})
    this.log(result.repos.length ? result.repos.map((r) => `${r.repoId}  ${r.path}`).join('\n') : 'No repositories yet.')
    return result
  }
}
